package sandbox

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCommand(t *testing.T) {
	grouped := &discordgo.ApplicationCommand{Name: "admin", Description: "d", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: "game", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "reset", Description: "d", Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "id", Description: "d", Required: true},
				{Type: discordgo.ApplicationCommandOptionNumber, Name: "ratio", Description: "d"},
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "level", Description: "d",
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "low", Value: float64(1)}, {Name: "high", Value: float64(9)}}},
			}},
		}},
	}}
	cmds := []*discordgo.ApplicationCommand{toyCommand, grouped}
	users := Users("Alice", "Bob")
	tests := []struct {
		line string
		want command
	}{
		{"/toy new", command{name: "toy", sub: "new", options: map[string]any{}}},
		{"  /TOY   NEW   seats:3  ", command{name: "toy", sub: "new", options: map[string]any{"seats": int64(3)}}},
		{"/toy new speed:1h fast:off with:alice", command{name: "toy", sub: "new", options: map[string]any{"speed": "1h", "fast": false, "with": users[0].ID}}},
		{`/toy new speed:"5 minutes"`, command{name: "toy", sub: "new", options: map[string]any{"speed": "5m"}}},
		{"/admin game reset id:7 ratio:0.5 level:high", command{name: "admin", sub: "game reset", options: map[string]any{"id": int64(7), "ratio": 0.5, "level": int64(9)}}},
		{"/admin game reset id:7 level:1", command{name: "admin", sub: "game reset", options: map[string]any{"id": int64(7), "level": int64(1)}}},
	}
	for _, tt := range tests {
		got, err := parseCommand(tt.line, cmds, users, "en-US")
		require.NoError(t, err, tt.line)
		assert.Equal(t, tt.want, got, tt.line)
	}
	for line, want := range map[string]string{
		"/admin game reset":      "id is required",
		"/admin game":            "needs a subcommand: reset",
		"/admin reset id:1":      `no subcommand "reset"`,
		"/admin game reset id:x": `"x" is not a whole number`,
		"/":                      "a command starts with /",
		"":                       "a command starts with /",
	} {
		_, err := parseCommand(line, cmds, users, "en-US")
		require.ErrorIs(t, err, ErrCommand, line)
		assert.Contains(t, err.Error(), want, line)
	}
}

func TestParseCommandChecksTheRegisteredRange(t *testing.T) {
	one, three := 1.0, 3
	ranged := &discordgo.ApplicationCommand{Name: "r", Description: "d", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionInteger, Name: "seats", Description: "d", MinValue: &minSeats, MaxValue: 4},
		{Type: discordgo.ApplicationCommandOptionInteger, Name: "bots", Description: "d", MinValue: &one},
		{Type: discordgo.ApplicationCommandOptionNumber, Name: "ratio", Description: "d", MaxValue: 0.5},
		{Type: discordgo.ApplicationCommandOptionString, Name: "name", Description: "d", MinLength: &three, MaxLength: 5},
	}}
	cmds := []*discordgo.ApplicationCommand{ranged}
	for _, tt := range []struct{ line, want string }{
		{"/r seats:7", "seats: must be between 2 and 4"},
		{"/r seats:1", "seats: must be between 2 and 4"},
		{"/r bots:0", "bots: must be at least 1"},
		{"/r ratio:0.75", "ratio: must be at most 0.5"},
		{"/r name:ab", "name: must be between 3 and 5 characters long"},
		{"/r name:abcdef", "name: must be between 3 and 5 characters long"},
	} {
		_, err := parseCommand(tt.line, cmds, nil, "en-US")
		require.ErrorIs(t, err, ErrCommand, tt.line)
		assert.Equal(t, "sandbox: bad command: "+tt.want, err.Error(), tt.line)
	}
	got, err := parseCommand("/r seats:4 bots:9 ratio:0.5 name:abc", cmds, nil, "en-US")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"seats": int64(4), "bots": int64(9), "ratio": 0.5, "name": "abc"}, got.options)
}

// A user types a command as Discord's client shows it in their language;
// the interaction carries the default names, as Discord sends them.
func TestParseCommandInTheUsersLanguage(t *testing.T) {
	de := func(s string) map[discordgo.Locale]string { return map[discordgo.Locale]string{discordgo.German: s} }
	deName := de("spiel")
	cmd := &discordgo.ApplicationCommand{Name: "game", NameLocalizations: &deName, Description: "d", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "new", NameLocalizations: de("neu"), Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "roll", NameLocalizations: de("wurf"), Description: "d", Required: true,
				Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "button", NameLocalizations: de("knopf"), Value: "button"}, {Name: "auto", Value: "auto"}}},
		}},
	}}
	cmds := []*discordgo.ApplicationCommand{cmd}
	want := command{name: "game", sub: "new", options: map[string]any{"roll": "button"}}
	for _, c := range []struct{ name, line, locale string }{
		{"German names", "/spiel neu wurf:knopf", "de"},
		{"German names, a value", "/spiel neu wurf:button", "de"},
		{"the default names still", "/game new roll:button", "de"},
		{"English", "/game new roll:button", "en-US"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseCommand(c.line, cmds, nil, c.locale)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
	for _, c := range []struct{ name, line, locale, err string }{
		{"German names for an English user", "/spiel neu wurf:button", "en-US", "no command /spiel"},
		{"the required option named in German", "/spiel neu", "de", "wurf is required"},
		{"the subcommands named in German", "/spiel", "de", "needs a subcommand: neu"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseCommand(c.line, cmds, nil, c.locale)
			require.ErrorIs(t, err, ErrCommand)
			assert.Contains(t, err.Error(), c.err)
		})
	}
}
