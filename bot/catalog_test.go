package bot

import (
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot/locales"
)

func TestLanguageOfDiscordLocales(t *testing.T) {
	for locale, want := range map[string]string{
		"en-US": "en", "en-GB": "en", "de": "de", "es-ES": "es", "es-419": "es", "it": "it", "fr": "fr",
		"nl": "nl", "pl": "pl", "pt-BR": "pt-BR", "pt-PT": "en", "sv-SE": "en", "ja": "en", "": "en",
	} {
		assert.Equal(t, want, language(locale), "language(%q)", locale)
	}
	assert.Equal(t, "Würfeln", tr("de", locales.ButtonRoll))
	assert.Equal(t, "Roll", tr("ja", locales.ButtonRoll))
	assert.Equal(t, "no.such.key", tr("de", "no.such.key"))
}

func TestPluralForms(t *testing.T) {
	for _, c := range []struct {
		lang string
		n    int
		want string
	}{
		{"en", 1, "1 hour"}, {"en", 2, "2 hours"}, {"en", 0, "0 hours"},
		{"de", 1, "1 Stunde"}, {"de", 2, "2 Stunden"},
		{"pl", 1, "1 godzina"}, {"pl", 2, "2 godziny"}, {"pl", 5, "5 godzin"}, {"pl", 22, "22 godziny"}, {"pl", 12, "12 godzin"},
		{"fr", 0, "0 heure"}, {"fr", 1, "1 heure"}, {"fr", 2, "2 heures"},
		{"pt-BR", 0, "0 horas"}, {"pt-BR", 1, "1 hora"}, {"pt-BR", 2, "2 horas"},
	} {
		assert.Equal(t, c.want, tr(c.lang, locales.DurationHours, c.n), "%s %d", c.lang, c.n)
	}
	assert.Equal(t, "Row 6 (1 square)", tr("en", locales.TurnRowOption, 6, 1))
	assert.Equal(t, "Row 6 (3 squares)", tr("en", locales.TurnRowOption, 6, 3))
	assert.Equal(t, "0 vitórias", tr("pt-BR", locales.LeaderWins, 0), "Brazilian usage, not CLDR's one for 0")
	assert.Equal(t, "1 vitória", tr("pt-BR", locales.LeaderWins, 1))
	assert.Equal(t, "Fila 6 (0 casillas)", tr("es", locales.TurnRowOption, 6, 0), "Spanish: CLDR's other for 0")
}

func TestNumbersByLanguage(t *testing.T) {
	assert.Equal(t, "12.5", formatDecimal("en", 12.5))
	assert.Equal(t, "12,5", formatDecimal("de", 12.5))
	assert.Equal(t, "1234,0", formatDecimal("fr", 1234))
	assert.Equal(t, "57%", formatPercent("en", 0.567))
	assert.Equal(t, "57 %", formatPercent("de", 0.567))
}

func TestEveryLevelHasANameAndHint(t *testing.T) {
	var offered []string
	for _, c := range levelChoices() {
		offered = append(offered, c.Value.(string))
	}
	assert.Equal(t, []string{"easy", "normal", "hard", "expert", "master"}, offered, "/malefiz new level: offers every level")
	for _, c := range levelChoices() {
		level := c.Value.(string)
		for _, key := range []msg{levelName(level), levelHint(level)} {
			_, ok := catalog.Message(sourceLanguage, key)
			assert.True(t, ok, "no catalog entry %s", key)
		}
	}
}

// discordName is Discord's rule for command, option and choice names.
var discordName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

func TestCommandsFitDiscordLimits(t *testing.T) {
	b := New(Config{})
	checkName := func(where, name string) {
		assert.Regexp(t, discordName, name, where)
		assert.Equal(t, strings.ToLower(name), name, "%s: names are lowercase", where)
	}
	checkDesc := func(where, d string) {
		n := len([]rune(d))
		assert.True(t, n >= 1 && n <= 100, "%s: description of %d characters", where, n)
	}
	wantLocales := 0
	for _, lang := range languages[1:] {
		for range discordLocalesOf(lang) {
			wantLocales++
		}
	}
	var walk func(path string, opts []*discordgo.ApplicationCommandOption)
	walk = func(path string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			where := path + " " + o.Name
			checkName(where, o.Name)
			checkDesc(where, o.Description)
			assert.Len(t, o.NameLocalizations, wantLocales, "%s: name localizations", where)
			assert.Len(t, o.DescriptionLocalizations, wantLocales, "%s: description localizations", where)
			for locale, name := range o.NameLocalizations {
				checkName(where+" ("+string(locale)+")", name)
			}
			for locale, d := range o.DescriptionLocalizations {
				checkDesc(where+" ("+string(locale)+")", d)
			}
			for _, c := range o.Choices {
				assert.Len(t, c.NameLocalizations, wantLocales, "%s choice %s", where, c.Name)
				for locale, name := range c.NameLocalizations {
					n := len([]rune(name))
					assert.True(t, n >= 1 && n <= 100, "%s choice %s (%s): %d characters", where, c.Name, locale, n)
				}
			}
			walk(where, o.Options)
		}
	}
	for _, cmd := range b.Commands() {
		checkName(cmd.Name, cmd.Name)
		require.NotNil(t, cmd.NameLocalizations)
		assert.Len(t, *cmd.NameLocalizations, wantLocales)
		walk("/"+cmd.Name, cmd.Options)
	}
}

// BenchmarkTr measures a plain text, a counted one (the plural form chosen
// by go-i18n's Localizer) and the help, whose command and button
// placeholders are filled on each call.
func BenchmarkTr(b *testing.B) {
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			_ = tr("pl", locales.TurnTitle, 12, "Anna")
		}
	})
	b.Run("plural", func(b *testing.B) {
		for b.Loop() {
			_ = tr("pl", locales.TurnRowOption, 6, 22)
		}
	})
	b.Run("placeholders", func(b *testing.B) {
		for b.Loop() {
			_ = tr("pl", locales.TextHelp)
		}
	})
}
