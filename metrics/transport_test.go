package metrics

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoute(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"/api/v9/channels/1234567890123/messages", "/channels/{id}/messages"},
		{"/api/v9/channels/1234567890123/messages/9876543210987", "/channels/{id}/messages/{id}"},
		{"/api/v9/interactions/1234567890123/aW50ZXJhY3Rpb24.abc/callback", "/interactions/{id}/{token}/callback"},
		{"/api/v9/webhooks/1234567890123/aW50ZXJhY3Rpb24.abc/messages/@original", "/webhooks/{id}/{token}/messages/@original"},
		{"/api/v9/webhooks/1234567890123/tok", "/webhooks/{id}/{token}"},
		{"/api/v9/applications/1234567890123/guilds/55/commands", "/applications/{id}/guilds/{id}/commands"},
		{"/api/v9/gateway/bot", "/gateway/bot"},
		{"/api/v9/users/@me/channels", "/users/@me/channels"},
	} {
		t.Run(tc.path, func(t *testing.T) { assert.Equal(t, tc.want, Route(tc.path)) })
	}
}

func TestTransportCountsRequestsAndRateLimits(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if calls == 2 {
			w.Header().Set("X-RateLimit-Scope", "shared")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	m := New(Gauges{
		GamesRunning:  func(context.Context) (int, error) { return 7, nil },
		OutboxPending: func(context.Context) (int, error) { return 0, errors.New("database gone") },
	})
	client := &http.Client{Transport: m.Transport(nil)}
	for range 3 {
		res, err := client.Post(srv.URL+"/api/v9/channels/1234567890123/messages", "application/json", nil)
		require.NoError(t, err)
		res.Body.Close()
	}
	m.Interaction("component", "ok", 30*time.Millisecond)
	m.Commit(2*time.Millisecond, nil)
	m.Render(5 * time.Millisecond)

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	text := string(body)
	for _, want := range []string{
		`malefiz_discord_requests_total{method="POST",route="/channels/{id}/messages",status="200"} 2`,
		`malefiz_discord_requests_total{method="POST",route="/channels/{id}/messages",status="429"} 1`,
		`malefiz_discord_rate_limited_total{route="/channels/{id}/messages",scope="shared"} 1`,
		`malefiz_interactions_total{kind="component",outcome="ok"} 1`,
		`malefiz_interaction_duration_seconds_bucket{kind="component",le="0.05"} 1`,
		`malefiz_store_commit_duration_seconds_count{result="ok"} 1`,
		`malefiz_render_duration_seconds_count 1`,
		`malefiz_games_running 7`,
	} {
		assert.Contains(t, text, want)
	}
	assert.False(t, strings.Contains(text, "malefiz_outbox_pending "), "a failed count is left out")
}
