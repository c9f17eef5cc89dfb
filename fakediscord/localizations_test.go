package fakediscord_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// TestCommandLocalizationsFollowDiscordsRules: a bulk overwrite whose
// name or description localizations use a locale Discord does not know,
// or a name Discord refuses (uppercase, a space, too long), is refused
// with Discord's form error; names in other scripts pass.
func TestCommandLocalizationsFollowDiscordsRules(t *testing.T) {
	fake := fakediscord.New(t)
	s := newSession(t, fake)
	for _, c := range []struct {
		name    string
		change  func(*discordgo.ApplicationCommand)
		refused string
	}{
		{"Discord's locales", func(c *discordgo.ApplicationCommand) {
			c.NameLocalizations = &map[discordgo.Locale]string{"de": "malefiz", "hi": "मालेफ़िज़", "th": "มาเลฟิซ", "ja": "マレフィツ"}
			c.Options[0].DescriptionLocalizations = map[discordgo.Locale]string{"pt-BR": "Abrir uma partida", "es-ES": "Abrir una partida"}
		}, ""},
		{"an unknown locale", func(c *discordgo.ApplicationCommand) {
			c.NameLocalizations = &map[discordgo.Locale]string{"es": "malefiz"}
		}, "0.name_localizations.es"},
		{"an unknown locale of a description", func(c *discordgo.ApplicationCommand) {
			c.Options[0].DescriptionLocalizations = map[discordgo.Locale]string{"pt": "Abrir"}
		}, "0.options.0.description_localizations.pt"},
		{"an uppercase name", func(c *discordgo.ApplicationCommand) {
			c.Options[0].NameLocalizations = map[discordgo.Locale]string{"de": "Neu"}
		}, "0.options.0.name_localizations.de"},
		{"a name with a space", func(c *discordgo.ApplicationCommand) {
			c.Options[0].NameLocalizations = map[discordgo.Locale]string{"fr": "nouvelle partie"}
		}, "0.options.0.name_localizations.fr"},
		{"a name too long", func(c *discordgo.ApplicationCommand) {
			c.Options[0].NameLocalizations = map[discordgo.Locale]string{"nl": "een-heel-lang-commando-voor-een-nieuw-spel"}
		}, "0.options.0.name_localizations.nl"},
		{"a description too long", func(c *discordgo.ApplicationCommand) {
			c.DescriptionLocalizations = &map[discordgo.Locale]string{"it": strings.Repeat("a", 101)}
		}, "0.description_localizations.it"},
		{"a choice's unknown locale", func(c *discordgo.ApplicationCommand) {
			c.Options[0].Options[2].Choices[0].NameLocalizations = map[discordgo.Locale]string{"en": "fast"}
		}, "0.options.0.options.2.choices.0.name_localizations.en"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := malefizCommand()
			c.change(cmd)
			_, err := s.ApplicationCommandBulkOverwrite(fake.AppID, fake.GuildID, []*discordgo.ApplicationCommand{cmd})
			if c.refused == "" {
				require.NoError(t, err)
				return
			}
			var re *discordgo.RESTError
			require.True(t, errors.As(err, &re), "refused: %v", err)
			assert.Equal(t, 400, re.Response.StatusCode)
			require.NotNil(t, re.Message)
			assert.Equal(t, discordgo.ErrCodeInvalidFormBody, re.Message.Code)
			assert.Equal(t, []string{c.refused}, errorPaths(t, re.ResponseBody))
		})
	}
}

// errorPaths lists the paths of a form error's fields ("options.0.name"),
// read from Discord's nested "errors" object.
func errorPaths(t *testing.T, body []byte) []string {
	t.Helper()
	var e struct{ Errors map[string]any }
	require.NoError(t, json.Unmarshal(body, &e))
	var out []string
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			if k == "_errors" {
				out = append(out, strings.TrimSuffix(prefix, "."))
				continue
			}
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+k+".", sub)
			}
		}
	}
	walk("", e.Errors)
	return out
}
