package main

import (
	"testing"
	"time"

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

// turnPings plays turns of a two-player game of alice and bob, calling
// before ahead of each, and returns the notifying pings and the mentions
// per player of the game's turn messages (its thread's messages; the
// game does not end within turns).
func turnPings(t *testing.T, h *harness, turns int, before func()) (pings, mentions map[string]int) {
	t.Helper()
	gameID, _ := openGameBy(t, h, alice, bob, nil)
	for range turns {
		before()
		_, _, running := playRolledTurn(t, h, gameID, false)
		require.True(t, running, "the game ended early")
	}
	h.waitTurn(gameID)
	sg, _ := h.game(gameID)
	tr := h.fake.Traffic(sg.ThreadID)
	return tr.Pings, tr.Mentions
}

// TestQuietPingsForPlayersWhoAreThere: a turn message for a player who
// acted in the game in the last 10 minutes names them @silent; one for a
// player away pings; ping:always pings every turn.
func TestQuietPingsForPlayersWhoAreThere(t *testing.T) {
	const turns = 10
	t.Run("prompt", func(t *testing.T) {
		h := newHarnessClock(t, &fakeClock{t: time.Now()})
		pings, mentions := turnPings(t, h, turns, func() {})
		for _, u := range []string{alice, bob} {
			assert.LessOrEqual(t, pings[u], 2, "turn messages that notified %s", u)
			assert.GreaterOrEqual(t, mentions[u], turns/2, "every turn message still names %s", u)
		}
		t.Logf("prompt game, %d turns: pings %v, mentions %v", turns, pings, mentions)
	})
	t.Run("asynchronous", func(t *testing.T) {
		clock := &fakeClock{t: time.Now()}
		h := newHarnessClock(t, clock)
		pings, mentions := turnPings(t, h, turns, func() { clock.Advance(11 * time.Minute) })
		// Alice's first turn came with her own Start click: she was there.
		assert.Equal(t, mentions[alice]-1, pings[alice], "every later turn message notified alice")
		assert.Equal(t, mentions[bob], pings[bob], "every turn message notified bob")
		t.Logf("asynchronous game, %d turns: pings %v, mentions %v", turns, pings, mentions)
	})
	t.Run("ping always", func(t *testing.T) {
		h := newHarnessClock(t, &fakeClock{t: time.Now()})
		resp := h.command(alice, "notify", map[string]any{"ping": "always"})
		assert.Contains(t, resp.Message.Text(), "Every turn pings you")
		pings, mentions := turnPings(t, h, turns, func() {})
		assert.Equal(t, mentions[alice], pings[alice], "alice asked for every ping")
		assert.LessOrEqual(t, pings[bob], 2, "bob did not")
		resp = h.command(alice, "notify", nil)
		assert.Contains(t, resp.Message.Text(), "Every turn pings you", "the setting is kept")
	})
}
