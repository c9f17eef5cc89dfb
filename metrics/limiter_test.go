package metrics

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLimiterMetrics(t *testing.T) {
	m := New(Gauges{DiscordInvalid: func(context.Context) (int, error) { return 42, nil }})
	m.LimiterRequest("global")
	m.LimiterRequest("global")
	m.LimiterRequest("exempt")
	m.InvalidRequest()
	m.Braked()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`malefiz_discord_limiter_requests_total{class="global"} 2`,
		`malefiz_discord_limiter_requests_total{class="exempt"} 1`,
		`malefiz_discord_invalid_requests_total 1`,
		`malefiz_discord_braked_total 1`,
		`malefiz_discord_invalid_requests 42`,
	} {
		assert.Contains(t, string(body), want)
	}
}
