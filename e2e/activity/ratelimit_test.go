package activity

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
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// TestRESTGoesThroughTheRateLimiter plays the start of a game in the
// sandbox and checks what reached the stand-in: the clicks' callbacks
// without the bot token (the limiter's exempt routes), the channel's
// requests with it, discordgo's bucket map not grown by the clicks, and
// the limiter's metrics counting both classes.
func TestRESTGoesThroughTheRateLimiter(t *testing.T) {
	app, err := sandbox.Start(t.Context(), sandbox.Options{Users: []string{"Alice", "Bob"}, Logger: harness.Logger(new(harness.LogBuffer)),
		Bot: func(c *bot.Config) { c.Draw = func(int) int { return 0 } }})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, app.Close()) })
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	newActivityGame(t, app, srv, sandbox.Users("Alice", "Bob"))
	require.Eventually(t, func() bool {
		n, err := app.Main.DB().PendingEffects(t.Context())
		return err == nil && n == 0
	}, harness.Patience, 5*time.Millisecond, "the outbox is delivered")

	callbacks, channels := 0, 0
	for _, c := range app.Fake.Calls() {
		auth := c.Header.Get("Authorization")
		switch {
		case strings.HasPrefix(c.Path, "/interactions/"):
			callbacks++
			assert.Empty(t, auth, "%s %s carries the bot token", c.Method, c.Path)
		case strings.HasPrefix(c.Path, "/channels/"):
			channels++
			assert.Equal(t, "Bot "+app.Fake.Token(), auth, "%s %s", c.Method, c.Path)
		}
	}
	assert.Equal(t, 3, callbacks, "a command and two clicks")
	assert.Positive(t, channels)
	kept := reflect.ValueOf(app.Main.Session().Ratelimiter).Elem().FieldByName("buckets").Len()
	t.Logf("discordgo keeps %d buckets", kept)
	assert.LessOrEqual(t, kept, 4, "discordgo's buckets: the start's own requests only, none per click")

	rec := httptest.NewRecorder()
	app.Main.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	assert.Contains(t, string(body), `malefiz_discord_limiter_requests_total{class="exempt"}`)
	assert.Contains(t, string(body), `malefiz_discord_limiter_requests_total{class="global"}`)
	assert.Contains(t, string(body), "malefiz_discord_invalid_requests 0")
}
