package activity

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/render"
)

// get fetches path from the Activity's listener without following a
// redirect.
func (e *env) get(path string) (*http.Response, string) {
	e.t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(e.srv.URL + path)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(e.t, err)
	return resp, string(b)
}

// TestPage proves what the Activity serves outside the API and how: the
// page (never cached stale), its script and style from the embedded
// files, the board's layout (cached an hour), each with the
// Content-Security-Policy Discord's proxy allows (its own origin, sockets,
// framed by Discord only, no inline script) and nosniff; the prefix alone
// redirects to the page, anything outside the prefix or not embedded is
// not found, and a route's wrong method is refused.
func TestPage(t *testing.T) {
	e := newEnv(t)
	layout, err := json.Marshal(render.BoardLayout())
	require.NoError(t, err)
	tests := []struct {
		name, path   string
		status       int
		contentType  string
		cacheControl string
		contains     string
	}{
		{"the page", "/.proxy/", http.StatusOK, "text/html; charset=utf-8", "no-cache", `<script src="static/app.js" defer></script>`},
		{"its script", "/.proxy/static/app.js", http.StatusOK, "text/javascript; charset=utf-8", "", "DiscordSDKMock"},
		{"its style", "/.proxy/static/app.css", http.StatusOK, "text/css; charset=utf-8", "", "{"},
		{"Discord's SDK", "/.proxy/static/discord-sdk.js", http.StatusOK, "text/javascript; charset=utf-8", "", "DiscordSDK"},
		{"the layout", "/.proxy/api/layout", http.StatusOK, "application/json", "max-age=3600", string(layout)},
		{"a file not embedded", "/.proxy/static/secret.txt", http.StatusNotFound, "text/plain; charset=utf-8", "", "not found"},
		{"an unknown route", "/.proxy/api/nothing", http.StatusNotFound, "text/plain; charset=utf-8", "", "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.get(tt.path)
			assert.Equal(t, tt.status, resp.StatusCode)
			assert.Equal(t, tt.contentType, resp.Header.Get("Content-Type"))
			assert.Equal(t, tt.cacheControl, resp.Header.Get("Cache-Control"))
			assert.Contains(t, body, tt.contains)
			assert.NotContains(t, body, e.fake.ClientSecret())
			assert.Equal(t, contentSecurity, resp.Header.Get("Content-Security-Policy"))
			assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
		})
	}

	csp := contentSecurity
	for _, want := range []string{"default-src 'self'", "script-src 'self';", "connect-src 'self';",
		"frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com"} {
		assert.Contains(t, csp, want)
	}
	assert.NotContains(t, csp, "unsafe")

	resp, _ := e.get("/.proxy")
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode, "the prefix alone")
	assert.Equal(t, "/.proxy/", resp.Header.Get("Location"))
	resp, _ = e.get("/.proxy/static?v=1")
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode, "the static folder without its slash")
	assert.Equal(t, "/.proxy/static/?v=1", resp.Header.Get("Location"), "the prefix kept")
	for _, path := range []string{"/", "/api/games", "/proxy/", "/.proxyx/", "/.proxyapi/config"} {
		resp, _ := e.get(path)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, path)
		assert.Empty(t, resp.Header.Get("Content-Security-Policy"), "not the Activity's: %s", path)
	}
	resp, _ = e.do(http.MethodDelete, "api/games", "", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Equal(t, contentSecurity, resp.Header.Get("Content-Security-Policy"))
}

// TestConfig proves what the page learns before it signs in: the
// application's ID, not the secret; no sandbox in production; and its
// texts in the language the client's locale names, English where the
// catalog has none.
func TestConfig(t *testing.T) {
	e := newEnv(t)
	tests := []struct{ locale, lang string }{{"de-DE", "de"}, {"en-US", "en"}, {"", "en"}, {"xx", "en"}}
	for _, tt := range tests {
		t.Run(tt.locale, func(t *testing.T) {
			status, out := e.call(http.MethodGet, "api/config?locale="+tt.locale, "", nil)
			require.Equal(t, http.StatusOK, status)
			assert.Equal(t, e.fake.AppID, out["clientId"])
			assert.Equal(t, false, out["sandbox"])
			assert.Equal(t, "", out["guild"])
			assert.Equal(t, "", out["channel"])
			texts := out["texts"].(map[string]any)
			assert.Equal(t, tt.lang, texts["lang"])
			assert.Equal(t, pageTexts(tt.lang)["connecting"], texts["connecting"])
		})
	}
	resp, _ := e.do(http.MethodPost, "sandbox/authorize", "", map[string]any{"User": "Ann"})
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "no sandbox in production")
}

// TestSandboxAuthorize proves the sandbox's stand-in for the client's
// authorize prompt: the config says so and where the page is opened; a
// sandbox user gets a code that signs them in as in production; a user
// the sandbox does not know is refused with its reason; a body that is no
// request is 400.
func TestSandboxAuthorize(t *testing.T) {
	var e *env
	e = newEnv(t, func(c *Config) {
		c.SandboxGuild, c.SandboxChannel = "1", "2"
		c.Authorize = func(_ context.Context, user string, scopes []string) (string, error) {
			if !strings.EqualFold(user, ann.Name) {
				return "", errors.New("no sandbox user " + user)
			}
			return e.fake.Authorize(e.fake.AppID, ann, scopes)
		}
	})
	status, out := e.call(http.MethodGet, "api/config", "", nil)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, true, out["sandbox"])
	assert.Equal(t, "1", out["guild"])
	assert.Equal(t, "2", out["channel"])

	tests := []struct {
		name   string
		body   any
		status int
		want   string // the error; "" for a code
	}{
		{"a sandbox user", map[string]any{"User": "ann", "Scope": []string{"identify"}}, http.StatusOK, ""},
		{"an unknown user", map[string]any{"User": "Mallory", "Scope": []string{"identify"}}, http.StatusForbidden, "no sandbox user Mallory"},
		{"a scope Discord does not know", map[string]any{"User": "Ann", "Scope": []string{"everything"}}, http.StatusForbidden, fakediscord.ErrOAuth2.Error()},
		{"not JSON", "User=Ann", http.StatusBadRequest, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := e.do(http.MethodPost, "sandbox/authorize", "", tt.body)
			require.Equal(t, tt.status, resp.StatusCode, "%s", b)
			if tt.status == http.StatusBadRequest {
				return
			}
			var out map[string]string
			require.NoError(t, json.Unmarshal(b, &out))
			if tt.want != "" {
				assert.Contains(t, out["error"], tt.want)
				assert.Empty(t, out["code"])
				return
			}
			session := e.signInWith(t, out["code"])
			sess, err := e.act.sessions.read(session)
			require.NoError(t, err)
			assert.Equal(t, ann.ID, sess.UserID, "the code signs Ann in")
		})
	}
}
