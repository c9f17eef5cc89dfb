package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// TestRESTGoesThroughTheRateLimiter plays the start of a game in the
// sandbox and checks what reached the stand-in: the clicks' callbacks
// without the bot token (the limiter's exempt routes), the channel's
// requests with it, discordgo's bucket map not grown by the clicks, and
// the limiter's metrics counting both classes.
func TestRESTGoesThroughTheRateLimiter(t *testing.T) {
	app, err := startSandbox(t.Context(), sandboxOptions{Users: []string{"Alice", "Bob"}, Logger: testLogger(new(logBuffer)),
		Bot: func(c *bot.Config) { c.Draw = func(int) int { return 0 } }})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, app.Close()) })
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	newActivityGame(t, app, srv, sandbox.Users("Alice", "Bob"))
	require.Eventually(t, func() bool {
		n, err := app.main.db.PendingEffects(t.Context())
		return err == nil && n == 0
	}, 10*time.Second, 5*time.Millisecond, "the outbox is delivered")

	callbacks, channels := 0, 0
	for _, c := range app.fake.Calls() {
		auth := c.Header.Get("Authorization")
		switch {
		case strings.HasPrefix(c.Path, "/interactions/"):
			callbacks++
			assert.Empty(t, auth, "%s %s carries the bot token", c.Method, c.Path)
		case strings.HasPrefix(c.Path, "/channels/"):
			channels++
			assert.Equal(t, "Bot "+app.fake.Token(), auth, "%s %s", c.Method, c.Path)
		}
	}
	assert.Equal(t, 3, callbacks, "a command and two clicks")
	assert.Positive(t, channels)
	kept := reflect.ValueOf(app.main.rest.Ratelimiter).Elem().FieldByName("buckets").Len()
	t.Logf("discordgo keeps %d buckets", kept)
	assert.LessOrEqual(t, kept, 4, "discordgo's buckets: the start's own requests only, none per click")

	rec := httptest.NewRecorder()
	app.main.metrics.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	assert.Contains(t, string(body), `malefiz_discord_limiter_requests_total{class="exempt"}`)
	assert.Contains(t, string(body), `malefiz_discord_limiter_requests_total{class="global"}`)
	assert.Contains(t, string(body), "malefiz_discord_invalid_requests 0")
}
