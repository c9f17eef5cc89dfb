package games

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// unchanged checks that game id is still at version and LastSeq.
func unchanged(t *testing.T, h *harness.Harness, want *malefiz.Game, what string) {
	t.Helper()
	got, _ := h.Game(want.ID)
	assert.Equal(t, want.Version, got.Version, "%s changed the game", what)
	assert.Equal(t, want.LastSeq, got.LastSeq, "%s added events", what)
}

// Clicks no Discord client could send, each naming a running game: all are
// refused privately and change nothing.
func TestForgedClicksAreRefused(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	other := "200000000000000077"
	h := harness.New(t, fakediscord.WithGuild(fakediscord.Guild{Channels: []string{"200000000000000001", other}}))

	// An earlier game in the same channel, cancelled: its lobby message
	// is still there.
	old := h.Command(harness.Alice, "new", map[string]any{"seats": 2})
	h.Command(harness.Alice, "cancel", nil)
	gameID, turn := harness.OpenTwoPlayerGame(t, h)
	roll := harness.Control(t, turn, bot.ActRoll)
	before, _ := h.Game(gameID)
	require.NotEmpty(t, before.TurnMessageID)

	for _, tc := range []struct {
		name string
		fc   fakediscord.ForgedClick
	}{
		{"from a DM", fakediscord.ForgedClick{Channel: "300000000000000001", User: harness.Alice, MessageID: turn.ID, CustomID: roll}},
		{"from another channel", fakediscord.ForgedClick{Guild: h.Fake.GuildID, Channel: other, User: harness.Alice,
			MessageID: turn.ID, CustomID: roll}},
		{"this game's button on another game's message", fakediscord.ForgedClick{Guild: h.Fake.GuildID,
			Channel: h.Fake.ChannelID, User: harness.Alice, MessageID: old.Message.ID, CustomID: roll}},
		{"on a message the bot did not post", fakediscord.ForgedClick{Guild: h.Fake.GuildID, Channel: h.Fake.ChannelID,
			User: harness.Alice, MessageID: "400000000000000001", MessageAuthor: harness.Bob, CustomID: roll}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := h.Fake.Forge(h.Ctx(), tc.fc)
			require.NoError(t, err)
			require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
			assert.True(t, resp.Ephemeral(), "the refusal must be private")
			assert.NotEmpty(t, resp.Message.Text())
			unchanged(t, h, before, tc.name)
		})
	}

	// The real click still works.
	resp := h.Click(harness.Alice, turn.ID, roll)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type)
}

// A panic inside an action is answered privately, logged with its stack,
// and leaves the game as it was.
func TestPanicInAnActionChangesNothing(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t)
	gameID, turn := harness.OpenTwoPlayerGame(t, h)
	before, _ := h.Game(gameID)
	h.Die.Set(harness.PanicRoll)
	resp := h.Click(harness.Alice, turn.ID, harness.Control(t, turn, bot.ActRoll))
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Message.Text(), "nothing was changed")
	unchanged(t, h, before, "the panic")
	logs := h.Logs.String()
	assert.Contains(t, logs, "panic while handling an interaction")
	assert.Contains(t, logs, "the die exploded")
	assert.Contains(t, logs, "goroutine", "the stack is logged")

	// The game goes on.
	h.Die.Set(3)
	resp = h.Click(harness.Alice, turn.ID, harness.Control(t, turn, bot.ActRoll))
	assert.False(t, resp.Ephemeral(), "%q", resp.Message.Text())
}

// A panic in one game's timer is logged with its stack and skips that game;
// the scheduler goes on with the others.
func TestPanicInATimerSkipsOnlyThatGame(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	second := "200000000000000088"
	clock := harness.ClockAt(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	h := harness.NewWithClock(t, clock, fakediscord.WithGuild(fakediscord.Guild{Channels: []string{"200000000000000001", second}}))
	first := harness.NewTimedGame(t, h)
	resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Carol, Channel: second, Name: "malefiz", Sub: "new",
		Options: map[string]any{"seats": 2, "turn-timeout": "1h"}})
	require.NoError(t, err)
	lobby := *resp.Message
	h.Click(harness.Bob, lobby.ID, harness.Control(t, lobby, bot.ActJoin))
	h.Click(harness.Carol, lobby.ID, harness.Control(t, lobby, bot.ActStart))
	otherID, err := bot.ParseCustomID(harness.Control(t, lobby, bot.ActStart))
	require.NoError(t, err)
	require.Eventually(t, func() bool { sg, _ := h.Game(otherID.Game); return sg.TurnMessageID != "" }, 10*time.Second, 5*time.Millisecond)
	h.WaitTurn(first)
	stuck, _ := h.Game(first)
	fine, _ := h.Game(otherID.Game)

	// Both turns run out; the first game's timeout panics.
	clock.Advance(2 * time.Hour)
	due := stuck.ID
	if fine.WakeAt.Before(stuck.WakeAt) || (fine.WakeAt.Equal(stuck.WakeAt) && fine.ID < stuck.ID) {
		due = fine.ID
	}
	if due == stuck.ID {
		h.Die.Set(harness.PanicRoll, 4)
	} else {
		h.Die.Set(4, harness.PanicRoll)
		stuck, fine = fine, stuck
	}
	h.Tick()
	unchanged(t, h, stuck, "the panicking timer")
	after, g := h.Game(fine.ID)
	assert.Greater(t, after.Version, fine.Version, "the other game's timeout was played")
	assert.Equal(t, 2, g.TurnNumber())
	logs := h.Logs.String()
	assert.Contains(t, logs, "panic in a timer")
	assert.True(t, strings.Contains(logs, "goroutine"), "the stack is logged")

	// The panicking game is left alone for a while, not retried in a loop.
	h.Tick()
	unchanged(t, h, stuck, "a second pass")
}
