package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// The tests of issue 21: a turn that explains itself.

// TestCommandOptionsHaveTheirRange: the numeric options carry their
// min and max, so Discord (here the fake) refuses a value out of range
// and says the range, before the bot hears of it.
func TestCommandOptionsHaveTheirRange(t *testing.T) {
	h := newThreadHarness(t)
	for _, c := range []struct {
		sub  string
		opts map[string]any
		want string
	}{
		{"new", map[string]any{"seats": 7}, "seats: must be between 2 and 4"},
		{"new", map[string]any{"seats": 1}, "seats: must be between 2 and 4"},
		{"new", map[string]any{"bots": 4}, "bots: must be between 0 and 3"},
		{"leaderboard", map[string]any{"page": 0}, "page: must be between 1 and 1000"},
	} {
		_, err := h.fake.SlashCommand(h.ctx(), fakediscord.Invocation{User: alice, Name: "malefiz", Sub: c.sub, Options: c.opts})
		require.Error(t, err, "/malefiz %s %v", c.sub, c.opts)
		assert.Contains(t, err.Error(), c.want)
	}
	games, err := h.main.db.OpenGames(h.ctx(), h.fake.GuildID, h.fake.ChannelID)
	require.NoError(t, err)
	assert.Empty(t, games, "no command reached the bot")
}
