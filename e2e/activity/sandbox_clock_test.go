package activity

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSandboxSkipAheadTimesOutATurn checks the clock: a skip past the
// turn's deadline makes the bot play the turn for the player.
func TestSandboxSkipAheadTimesOutATurn(t *testing.T) {
	app, err := sandbox.Start(t.Context(), sandbox.Options{Users: []string{"Alice", "Bob"}, Logger: harness.Logger(new(harness.LogBuffer)),
		Bot: func(c *bot.Config) { c.Draw = func(int) int { return 0 } }})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, app.Close()) })
	tmp := app.TempDir()
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	post := func(path string, v any) map[string]any { t.Helper(); return sandboxPost(t, srv, path, v) }
	alice := "100000000000000001"
	lobby := post("/api/command", map[string]string{"user": alice, "line": "/malefiz new seats:2 bots:1 turn-timeout:5m"})["message"].(string)
	m, ok := app.Fake.Message(lobby)
	require.True(t, ok)
	start := ""
	for _, id := range m.CustomIDs() {
		if strings.HasPrefix(id, "mf/start/") {
			start = id
		}
	}
	require.NotEmpty(t, start, "the lobby has a Start button: %v", m.CustomIDs())
	post("/api/click", map[string]string{"user": alice, "message": lobby, "custom_id": start})
	require.False(t, timedOut(app), "no turn ran out of time yet")

	post("/api/skip", map[string]string{"by": "10m"})
	assert.True(t, timedOut(app), "after the skip the bot played Alice's turn for her")
	assert.GreaterOrEqual(t, app.Clock().Offset(), 10*time.Minute)

	require.NoError(t, app.Close())
	_, err = os.Stat(tmp)
	assert.True(t, os.IsNotExist(err), "the temporary database is removed")
}

// timedOut reports whether a message says a turn ran out of time.
func timedOut(app *sandbox.App) bool {
	for _, m := range app.Fake.AllMessages() {
		if strings.Contains(m.Text(), "ran out of time") {
			return true
		}
	}
	return false
}

// TestSandboxThreadsArchiveOnTheSandboxClock: the fake runs on the
// sandbox's clock, so Skip ahead lets a finished game's thread archive
// itself an hour after the result, as Discord would.
func TestSandboxThreadsArchiveOnTheSandboxClock(t *testing.T) {
	// The channels' message buckets off: a thread post held back by a
	// spent bucket (discordgo waits it out) lands after the first skip
	// and keeps the thread alive; the test is about the archive clock.
	limits := fakediscord.DefaultLimits()
	limits.ChannelMessages, limits.MessageEdits = fakediscord.Rate{}, fakediscord.Rate{}
	app, err := sandbox.Start(t.Context(), sandbox.Options{Users: []string{"Alice", "Bob"}, Logger: harness.Logger(new(harness.LogBuffer)),
		Limits: &limits, Bot: func(c *bot.Config) { c.Draw = func(int) int { return 0 } }})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, app.Close()) })
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	post := func(path string, v any) map[string]any { t.Helper(); return sandboxPost(t, srv, path, v) }
	controlOf := func(msgID, action string) string {
		t.Helper()
		m, ok := app.Fake.Message(msgID)
		require.True(t, ok)
		return harness.Control(t, m, bot.Action(action))
	}
	users := sandbox.Users("Alice", "Bob")
	bob := users[1].ID
	g, err := app.Main.DB().Game(t.Context(), newActivityGame(t, app, srv, users))
	require.NoError(t, err)
	lobby := g.LobbyMessageID
	thread := func() fakediscord.Channel {
		for _, c := range app.Fake.Channels() {
			if c.ID == lobby {
				return c
			}
		}
		return fakediscord.Channel{}
	}
	require.Eventually(t, func() bool { return thread().Thread }, harness.Patience, 5*time.Millisecond, "the game plays in a thread")
	require.Eventually(t, func() bool {
		games, err := app.Main.DB().OpenGames(t.Context(), app.Fake.GuildID, lobby)
		return err == nil && len(games) == 1 && games[0].ThreadID == lobby
	}, harness.Patience, 5*time.Millisecond, "the bot recorded the thread")
	ask := post("/api/command", map[string]string{"user": bob, "channel": lobby, "line": "/malefiz resign"})["message"].(string)
	post("/api/click", map[string]string{"user": bob, "message": ask, "custom_id": controlOf(ask, "resign")})
	require.Eventually(t, func() bool {
		m, _ := app.Fake.Message(lobby)
		return strings.Contains(m.Text(), "🏆")
	}, harness.Patience, 5*time.Millisecond, "the card shows the result")
	// The result's thread settings reach Discord (paced under the global
	// limit, a moment after the card) before the clock moves on.
	require.Eventually(t, func() bool {
		for _, c := range app.Fake.Calls() {
			if c.Method == http.MethodPatch && c.Path == "/channels/"+lobby {
				return true
			}
		}
		return false
	}, harness.Patience, 5*time.Millisecond, "the thread's archive duration is set")
	// And everything the game's end posts in the thread has landed: a
	// post held back by a loaded machine past the first skip would
	// restart the thread's hour (CI once saw it).
	require.Eventually(t, func() bool {
		n, err := app.Main.DB().PendingEffects(t.Context())
		return err == nil && n == 0
	}, harness.Patience, 5*time.Millisecond, "the outbox is empty")
	post("/api/skip", map[string]string{"by": "30m"})
	assert.False(t, thread().Archived, "half an hour after the result the players can still talk there")
	post("/api/skip", map[string]string{"by": "31m"})
	assert.True(t, thread().Archived, "an hour after the result the thread archived itself")
}
