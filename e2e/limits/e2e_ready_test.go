package limits

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/serve"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// /readyz turns 503 when the database is gone (PostgreSQL behind a proxy
// that cuts every connection) and back to 200 when it returns; the bot
// answers again then.
func TestReadyzFollowsTheDatabase(t *testing.T) {
	dbURL := harness.NewPostgresDB(t)
	proxy := newCutProxy(t, hostOf(t, dbURL))
	h := newHarnessConfigured(t, func(cfg *serve.Config) {
		cfg.Database.Path = proxy.through(dbURL)
		cfg.HTTP.Listen = "127.0.0.1:0"
	})
	readyz := "http://" + h.Main.HTTPAddr() + "/readyz"
	status, body := get(t, readyz)
	require.Equal(t, http.StatusOK, status, body)

	proxy.cut()
	require.Eventually(t, func() bool {
		status, body = get(t, readyz)
		return status == http.StatusServiceUnavailable
	}, 10*time.Second, 50*time.Millisecond, "readyz stayed %d with the database gone", status)
	assert.True(t, strings.HasPrefix(body, "database:"), body)
	status, _ = get(t, "http://"+h.Main.HTTPAddr()+"/healthz")
	assert.Equal(t, http.StatusOK, status, "the process still lives")

	proxy.restore()
	require.Eventually(t, func() bool {
		status, body = get(t, readyz)
		return status == http.StatusOK
	}, 10*time.Second, 50*time.Millisecond, "readyz stayed %d after the database came back: %s", status, body)
	resp := h.Command(harness.Alice, "new", nil)
	assert.False(t, resp.Ephemeral(), resp.Message.Text())
}
