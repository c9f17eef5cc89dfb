package fakediscord_test

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// A user's locale and permissions and the server's locale reach the bot
// as Discord sends them: locale, guild_locale, member.permissions; a
// server's language changed in its settings shows in the interactions that
// follow and in a GUILD_UPDATE.
func TestInteractionsCarryLocalesAndPermissions(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	register(t, newSession(t, fake), fake)
	got := make(chan *discordgo.Interaction, 1)
	updated := make(chan *discordgo.GuildUpdate, 1)
	openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		got <- ic.Interaction
		respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok", Flags: discordgo.MessageFlagsEphemeral},
		})
	}, func(_ *discordgo.Session, gu *discordgo.GuildUpdate) { updated <- gu })

	admin := fakediscord.DefaultMemberPermissions | discordgo.PermissionManageGuild
	for _, c := range []struct {
		name        string
		guildLocale string // "" leaves the server's as it is
		inv         fakediscord.Invocation
		locale      string
		guild       string
		perms       int64
	}{
		{"defaults", "", fakediscord.Invocation{}, "en-US", "en-US", fakediscord.DefaultMemberPermissions},
		{"a German user", "", fakediscord.Invocation{Locale: "de"}, "de", "en-US", fakediscord.DefaultMemberPermissions},
		{"a Spanish server", "es-ES", fakediscord.Invocation{Locale: "de"}, "de", "es-ES", fakediscord.DefaultMemberPermissions},
		{"its admin", "", fakediscord.Invocation{Locale: "pt-BR", Permissions: admin}, "pt-BR", "es-ES", admin},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.guildLocale != "" {
				require.NoError(t, fake.SetGuildLocale(fake.GuildID, c.guildLocale))
				select {
				case gu := <-updated:
					assert.Equal(t, c.guildLocale, gu.PreferredLocale)
				case <-time.After(5 * time.Second):
					t.Fatal("no GUILD_UPDATE")
				}
			}
			c.inv.Name, c.inv.Sub = "malefiz", "join"
			_, err := fake.SlashCommand(timeout(t, 10*time.Second), c.inv)
			require.NoError(t, err)
			i := <-got
			assert.Equal(t, discordgo.Locale(c.locale), i.Locale)
			require.NotNil(t, i.GuildLocale)
			assert.Equal(t, discordgo.Locale(c.guild), *i.GuildLocale)
			assert.Equal(t, c.perms, i.Member.Permissions)
		})
	}
	assert.Equal(t, "es-ES", fake.Guilds()[0].Locale)
}

func TestSetGuildLocaleRefuses(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	for _, c := range []struct{ name, guild, locale string }{
		{"not a Discord locale", "", "xx"},
		{"no locale", "", ""},
		{"a base language Discord does not offer", "", "pt"},
		{"another guild", "1", "de"},
	} {
		t.Run(c.name, func(t *testing.T) {
			guild := c.guild
			if guild == "" {
				guild = fake.GuildID
			}
			assert.ErrorIs(t, fake.SetGuildLocale(guild, c.locale), fakediscord.ErrInvocation)
		})
	}
	assert.Equal(t, "en-US", fake.Guilds()[0].Locale)
}
