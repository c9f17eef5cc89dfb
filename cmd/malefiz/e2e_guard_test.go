package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// unchanged checks that game id is still at version and LastSeq.
func unchanged(t *testing.T, h *harness, want *malefiz.Game, what string) {
	t.Helper()
	got, _ := h.game(want.ID)
	assert.Equal(t, want.Version, got.Version, "%s changed the game", what)
	assert.Equal(t, want.LastSeq, got.LastSeq, "%s added events", what)
}

// Clicks no Discord client could send, each naming a running game: all are
// refused privately and change nothing.
func TestForgedClicksAreRefused(t *testing.T) {
	other := "200000000000000077"
	h := newHarness(t, fakediscord.WithGuild(fakediscord.Guild{Channels: []string{"200000000000000001", other}}))

	// An earlier game in the same channel, cancelled: its lobby message
	// is still there.
	old := h.command(alice, "new", map[string]any{"seats": 2})
	h.command(alice, "cancel", nil)
	gameID, turn := openTwoPlayerGame(t, h)
	roll := control(t, turn, bot.ActRoll)
	before, _ := h.game(gameID)
	require.NotEmpty(t, before.TurnMessageID)

	for _, tc := range []struct {
		name string
		fc   fakediscord.ForgedClick
	}{
		{"from a DM", fakediscord.ForgedClick{Channel: "300000000000000001", User: alice, MessageID: turn.ID, CustomID: roll}},
		{"from another channel", fakediscord.ForgedClick{Guild: h.fake.GuildID, Channel: other, User: alice,
			MessageID: turn.ID, CustomID: roll}},
		{"this game's button on another game's message", fakediscord.ForgedClick{Guild: h.fake.GuildID,
			Channel: h.fake.ChannelID, User: alice, MessageID: old.Message.ID, CustomID: roll}},
		{"on a message the bot did not post", fakediscord.ForgedClick{Guild: h.fake.GuildID, Channel: h.fake.ChannelID,
			User: alice, MessageID: "400000000000000001", MessageAuthor: bob, CustomID: roll}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := h.fake.Forge(h.ctx(), tc.fc)
			require.NoError(t, err)
			require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
			assert.True(t, resp.Ephemeral(), "the refusal must be private")
			assert.NotEmpty(t, resp.Message.Text())
			unchanged(t, h, before, tc.name)
		})
	}

	// The real click still works.
	resp := h.click(alice, turn.ID, roll)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type)
}

// A panic inside an action is answered privately, logged with its stack,
// and leaves the game as it was.
func TestPanicInAnActionChangesNothing(t *testing.T) {
	h := newHarness(t)
	gameID, turn := openTwoPlayerGame(t, h)
	before, _ := h.game(gameID)
	h.die.set(panicRoll)
	resp := h.click(alice, turn.ID, control(t, turn, bot.ActRoll))
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Message.Text(), "nothing was changed")
	unchanged(t, h, before, "the panic")
	logs := h.logs.String()
	assert.Contains(t, logs, "panic while handling an interaction")
	assert.Contains(t, logs, "the die exploded")
	assert.Contains(t, logs, "goroutine", "the stack is logged")

	// The game goes on.
	h.die.set(3)
	resp = h.click(alice, turn.ID, control(t, turn, bot.ActRoll))
	assert.False(t, resp.Ephemeral(), "%q", resp.Message.Text())
}

// A panic in one game's timer is logged with its stack and skips that game;
// the scheduler goes on with the others.
func TestPanicInATimerSkipsOnlyThatGame(t *testing.T) {
	second := "200000000000000088"
	clock := &fakeClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h := newHarnessClock(t, clock, fakediscord.WithGuild(fakediscord.Guild{Channels: []string{"200000000000000001", second}}))
	first := newTimedGame(t, h)
	resp, err := h.fake.SlashCommand(h.ctx(), fakediscord.Invocation{User: carol, Channel: second, Name: "malefiz", Sub: "new",
		Options: map[string]any{"seats": 2, "turn-timeout": "1h"}})
	require.NoError(t, err)
	lobby := *resp.Message
	h.click(bob, lobby.ID, control(t, lobby, bot.ActJoin))
	h.click(carol, lobby.ID, control(t, lobby, bot.ActStart))
	otherID, err := bot.ParseCustomID(control(t, lobby, bot.ActStart))
	require.NoError(t, err)
	require.Eventually(t, func() bool { sg, _ := h.game(otherID.Game); return sg.TurnMessageID != "" }, 10*time.Second, 5*time.Millisecond)
	h.waitTurn(first)
	stuck, _ := h.game(first)
	fine, _ := h.game(otherID.Game)

	// Both turns run out; the first game's timeout panics.
	clock.Advance(2 * time.Hour)
	due := stuck.ID
	if fine.WakeAt.Before(stuck.WakeAt) || (fine.WakeAt.Equal(stuck.WakeAt) && fine.ID < stuck.ID) {
		due = fine.ID
	}
	if due == stuck.ID {
		h.die.set(panicRoll, 4)
	} else {
		h.die.set(4, panicRoll)
		stuck, fine = fine, stuck
	}
	h.tick()
	unchanged(t, h, stuck, "the panicking timer")
	after, g := h.game(fine.ID)
	assert.Greater(t, after.Version, fine.Version, "the other game's timeout was played")
	assert.Equal(t, 2, g.TurnNumber())
	logs := h.logs.String()
	assert.Contains(t, logs, "panic in a timer")
	assert.True(t, strings.Contains(logs, "goroutine"), "the stack is logged")

	// The panicking game is left alone for a while, not retried in a loop.
	h.tick()
	unchanged(t, h, stuck, "a second pass")
}
