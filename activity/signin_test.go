package activity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// signInFailed is the sign-in's refusal in English.
var signInFailed = locales.Tr("en", locales.ActivitySignInFailed)

// TestSignIn proves the way in: a code the Discord client handed out is
// exchanged for the user's token and a session that names the user (their
// display name and language), the guild and the channel the page was
// opened in, for at most 12 hours; the answer carries the token for
// authenticate and the page's texts, never the client secret. In a DM the
// session names no guild.
func TestSignIn(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name           string
		user           fakediscord.OAuth2User
		guild, channel string
		lang           string
	}{
		{"in the guild's channel", ann, "guild", "channel", "en"},
		{"in German", ben, "guild", "channel", "de"},
		{"in a DM", cat, "", "", "en"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := map[string]string{"Code": e.code(tt.user)}
			if tt.guild != "" {
				body["Guild"], body["Channel"] = e.fake.GuildID, e.fake.ChannelID
			}
			before := time.Now()
			status, out := e.call(http.MethodPost, "api/token", "", body)
			require.Equal(t, http.StatusOK, status, "%v", out)
			assert.NotContains(t, fmt.Sprint(out), e.fake.ClientSecret(), "the secret stays on the server")
			assert.True(t, strings.HasPrefix(out["access_token"].(string), "access."), "the token for authenticate: %v", out)
			assert.Equal(t, map[string]any{"id": tt.user.ID, "name": tt.user.Name}, out["user"])
			texts := out["texts"].(map[string]any)
			assert.Equal(t, locales.Tr(tt.lang, locales.ButtonJoin), texts["join"], "the page's texts in the user's language")

			sess, err := e.act.sessions.read(out["session"].(string))
			require.NoError(t, err)
			assert.Equal(t, tt.user.ID, sess.UserID)
			assert.Equal(t, tt.user.Name, sess.Name)
			assert.Equal(t, tt.lang, sess.Lang)
			assert.Equal(t, body["Guild"], sess.Guild)
			assert.Equal(t, body["Channel"], sess.Channel)
			assert.False(t, sess.Thread)
			assert.WithinRange(t, sess.Expires, before.Add(sessionTTL), time.Now().Add(sessionTTL),
				"12 hours, not the week the token lasts")
		})
	}
}

// TestSignInRefused proves that a sign-in the page should not send is
// refused in the sign-in's words with the status of its fault, gets no
// session, and is logged: a forged, a reused or a missing code, IDs that
// are no IDs, a user who is not a member of the guild the page names, a
// guild the bot is not in, a channel of another guild or none.
func TestSignInRefused(t *testing.T) {
	e := newEnv(t)
	used := e.code(ann)
	e.signInWith(t, used)
	tests := []struct {
		name   string
		body   any
		status int
		logged string
	}{
		{"a forged code", map[string]string{"Code": "forged", "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID},
			http.StatusUnauthorized, "sign-in refused"},
		{"a code used before", map[string]string{"Code": used, "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID},
			http.StatusUnauthorized, "sign-in refused"},
		{"no code", map[string]string{"Guild": e.fake.GuildID, "Channel": e.fake.ChannelID}, http.StatusBadRequest, "bad token request"},
		{"a code too long", map[string]string{"Code": strings.Repeat("c", 201)}, http.StatusBadRequest, "bad token request"},
		{"not JSON", "Code=abc", http.StatusBadRequest, "bad token request"},
		{"a guild that is no ID", map[string]string{"Code": e.code(ann), "Guild": "../1", "Channel": e.fake.ChannelID},
			http.StatusBadRequest, "bad token request"},
		{"a channel that is no ID", map[string]string{"Code": e.code(ann), "Guild": e.fake.GuildID, "Channel": "c1"},
			http.StatusBadRequest, "bad token request"},
		{"an ID too long", map[string]string{"Code": e.code(ann), "Guild": "123456789012345678901", "Channel": e.fake.ChannelID},
			http.StatusBadRequest, "bad token request"},
		{"a user not a member", map[string]string{"Code": e.code(eve), "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID},
			http.StatusForbidden, "not a member"},
		{"a guild the bot is not in", map[string]string{"Code": e.code(ann), "Guild": otherGuild, "Channel": otherChannel},
			http.StatusForbidden, "not a member"},
		{"a channel of another guild", map[string]string{"Code": e.code(ann), "Guild": e.fake.GuildID, "Channel": otherChannel},
			http.StatusForbidden, "not of its guild"},
		{"a guild without its channel", map[string]string{"Code": e.code(ann), "Guild": e.fake.GuildID},
			http.StatusForbidden, "not of its guild"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(e.logs.String())
			status, out := e.call(http.MethodPost, "api/token", "", tt.body)
			assert.Equal(t, tt.status, status, "%v", out)
			assert.Equal(t, signInFailed, out["error"])
			assert.Nil(t, out["session"])
			assert.Nil(t, out["access_token"])
			assert.Contains(t, e.logs.String()[before:], tt.logged)
		})
	}
}

// signInWith signs in with code in the stand-in's channel, which must
// succeed.
func (e *env) signInWith(t *testing.T, code string) string {
	t.Helper()
	status, out := e.call(http.MethodPost, "api/token", "",
		map[string]string{"Code": code, "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID})
	require.Equal(t, http.StatusOK, status, "%v", out)
	return out["session"].(string)
}

// TestSignInWhenDiscordFails proves that when Discord fails a call of the
// sign-in (the member or the channel asked with the bot's token, the
// user's /users/@me), the user is refused, with no session, and the
// failure is logged.
func TestSignInWhenDiscordFails(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name   string
		route  string
		status int
		logged string
	}{
		{"the user", fakediscord.RouteCurrentUser, http.StatusUnauthorized, "activity user unknown"},
		{"the member", fakediscord.RouteGuildMember, http.StatusForbidden, "not a member"},
		{"the channel", fakediscord.RouteChannel, http.StatusForbidden, "not of its guild"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code := e.code(ann)
			e.fake.FailNext(fakediscord.OnRoute(tt.route), fakediscord.ServerError, 1)
			before := len(e.logs.String())
			status, out := e.call(http.MethodPost, "api/token", "",
				map[string]string{"Code": code, "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID})
			assert.Equal(t, tt.status, status, "%v", out)
			assert.Equal(t, signInFailed, out["error"])
			assert.Nil(t, out["session"])
			assert.Zero(t, e.fake.PendingFaults(), "Discord was asked")
			assert.Contains(t, e.logs.String()[before:], tt.logged)
		})
	}
}

// TestSignInWhenDiscordAnswersBadly proves that the code exchange and the
// user's read trust only a well-formed answer from Discord: an endpoint
// that is down, a token that is not a bearer token, an error status, a
// user without an ID all refuse the sign-in (401, no session).
func TestSignInWhenDiscordAnswersBadly(t *testing.T) {
	bearer := `{"access_token":"tok","token_type":"Bearer","expires_in":60}`
	user := `{"id":"100000000000000101","username":"ann","locale":"en-US"}`
	tests := []struct {
		name        string
		token, me   string // the answers of the token endpoint and /users/@me; "" is a 500
		down        bool   // nothing listens at the API's address
		status      int
		sessionName string // the session's user's name on success
	}{
		{"a good answer names the user by username without a display name", bearer, user, false, http.StatusOK, "ann"},
		{"Discord is down", bearer, user, true, http.StatusUnauthorized, ""},
		{"the exchange fails", "", user, false, http.StatusUnauthorized, ""},
		{"no access token", `{"token_type":"Bearer"}`, user, false, http.StatusUnauthorized, ""},
		{"not a bearer token", `{"access_token":"tok","token_type":"MAC"}`, user, false, http.StatusUnauthorized, ""},
		{"the exchange answers no JSON", `<html>`, user, false, http.StatusUnauthorized, ""},
		{"the user is not read", bearer, "", false, http.StatusUnauthorized, ""},
		{"a user without an ID", bearer, `{"username":"ann"}`, false, http.StatusUnauthorized, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answer := func(w http.ResponseWriter, body string) {
				if body == "" {
					http.Error(w, "down for maintenance", http.StatusInternalServerError)
					return
				}
				_, _ = w.Write([]byte(body))
			}
			discord := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/api/v10/oauth2/token":
					assert.Equal(t, "app-secret", r.PostFormValue("client_secret"))
					assert.Equal(t, "the-code", r.PostFormValue("code"))
					answer(w, tt.token)
				case "/api/v10/users/@me":
					assert.Equal(t, "Bearer tok", r.Header.Get("Authorization"))
					answer(w, tt.me)
				default:
					http.NotFound(w, r)
				}
			}))
			if tt.down {
				discord.Close()
			} else {
				t.Cleanup(discord.Close)
			}
			e := newEnv(t, func(c *Config) { c.APIURL, c.ClientSecret = discord.URL+"/", "app-secret" })
			status, out := e.call(http.MethodPost, "api/token", "", map[string]string{"Code": "the-code"})
			assert.Equal(t, tt.status, status, "%v", out)
			if tt.status != http.StatusOK {
				assert.Equal(t, signInFailed, out["error"])
				assert.Nil(t, out["session"])
				return
			}
			sess, err := e.act.sessions.read(out["session"].(string))
			require.NoError(t, err)
			assert.Equal(t, tt.sessionName, sess.Name)
			assert.WithinDuration(t, time.Now().Add(time.Minute), sess.Expires, 5*time.Second, "no longer than the token")
		})
	}
}

// TestSignInLimits proves the two bounds of the sign-in: one user signs in
// five times at once, then is refused in their language (429); one
// address signs in fifty times at once, then is refused before Discord is
// asked anything.
func TestSignInLimits(t *testing.T) {
	// The Activity's clock stands still: the buckets do not refill while
	// the 50 sign-ins below are sent, however slowly a loaded machine
	// under -race sends them (the address's bucket refilled during them
	// at a load of 20, and the 51st passed).
	at := time.Now()
	e := newEnv(t, func(c *Config) { c.Now = func() time.Time { return at } })
	var statuses []int
	var refusal map[string]any
	for range 6 {
		status, out := e.call(http.MethodPost, "api/token", "",
			map[string]string{"Code": e.code(ben), "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID})
		statuses = append(statuses, status)
		refusal = out
	}
	assert.Equal(t, []int{200, 200, 200, 200, 200, http.StatusTooManyRequests}, statuses)
	assert.Regexp(t, `^Zu viele Anmeldungen: Versuch es in \d+ s noch einmal\.$`, refusal["error"], "in Ben's words, a sign-in's refusal")
	assert.Contains(t, e.logs.String(), "sign-ins of "+ben.ID)
	status, _ := e.call(http.MethodPost, "api/token", "",
		map[string]string{"Code": e.code(ann), "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID})
	assert.Equal(t, http.StatusOK, status, "another user has a bucket of their own")

	// The address: 7 sign-ins above; 43 more pass to the exchange.
	calls := len(e.fake.Calls())
	for i := range 43 {
		status, _ := e.call(http.MethodPost, "api/token", "", map[string]string{"Code": "x"})
		require.Equal(t, http.StatusUnauthorized, status, "sign-in %d is exchanged", i)
	}
	require.Equal(t, 43, len(e.fake.Calls())-calls, "each asked Discord")
	status, out := e.call(http.MethodPost, "api/token", "", map[string]string{"Code": "x"})
	assert.Equal(t, http.StatusTooManyRequests, status)
	assert.Regexp(t, `^Too many sign-ins: try again in \d+ s\.$`, out["error"], "a sign-in's refusal, never a move's")
	assert.Equal(t, 43, len(e.fake.Calls())-calls, "the refused sign-in asked Discord nothing")
	assert.Contains(t, e.logs.String(), "sign-ins from 127.0.0.1")
}

// TestRefusalsInTheUsersLanguage: a refusal before Discord names the user
// is in the language the page gives, else the browser's; one of an
// expired session in the session's; and a sign-in keeps the user's locale
// for their direct messages.
func TestRefusalsInTheUsersLanguage(t *testing.T) {
	e := newEnv(t)
	status, out := e.call(http.MethodPost, "api/token", "",
		map[string]string{"Code": "forged", "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID, "Locale": "de"})
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Equal(t, locales.Tr("de", locales.ActivitySignInFailed), out["error"], "the page's locale")

	expired := e.act.sessions.sign(Session{UserID: ben.ID, Name: ben.Name, Lang: "pl", Guild: e.fake.GuildID,
		Channel: e.fake.ChannelID, Expires: time.Now().Add(-time.Minute)})
	status, out = e.call(http.MethodGet, "api/games", expired, nil)
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Equal(t, locales.Tr("pl", locales.ActivitySignInFailed), out["error"], "the expired session's language")

	e.signInWith(t, e.code(ben))
	us, err := e.db.UserSettings(t.Context(), ben.ID)
	require.NoError(t, err)
	assert.Equal(t, "de", us.Locale, "the sign-in keeps the user's locale")
}

// TestRequestLangFromTheBrowser: without a locale from the page, the
// first of the browser's languages the bot speaks.
func TestRequestLangFromTheBrowser(t *testing.T) {
	for _, c := range []struct{ name, given, accept, want string }{
		{"the page's", "pt-BR", "fr", "pt-BR"},
		{"the browser's", "", "fr-CH, fr;q=0.9, en;q=0.8", "fr"},
		{"the first the bot speaks", "", "sv-SE, nl;q=0.8", "nl"},
		{"English before another", "", "en-GB, de;q=0.5", "en"},
		{"none", "", "", "en"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", nil)
			r.Header.Set("Accept-Language", c.accept)
			assert.Equal(t, c.want, requestLang(r, c.given))
		})
	}
}

// tokenRequest posts a sign-in with body from the forwarded address xff
// (none when "") and the session prev (none when "").
func (e *env) tokenRequest(body any, xff, prev string) (*http.Response, map[string]any) {
	e.t.Helper()
	b, err := json.Marshal(body)
	require.NoError(e.t, err)
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+Prefix+"api/token", bytes.NewReader(b))
	require.NoError(e.t, err)
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	if prev != "" {
		req.Header.Set("Authorization", "Bearer "+prev)
	}
	resp, err := e.srv.Client().Do(req)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(e.t, json.NewDecoder(resp.Body).Decode(&out))
	return resp, out
}

// TestSignInJunkCostsNothing proves that requests that cannot be a
// sign-in (an empty object, no code, a code no code could be, not JSON,
// a body past the size bound) are refused before the address's bucket is
// charged: hundreds of them from one address leave a genuine sign-in
// from the same address (everyone's, behind Discord's proxy) untouched,
// and ask Discord nothing.
func TestSignInJunkCostsNothing(t *testing.T) {
	e := newEnv(t)
	calls := len(e.fake.Calls())
	junk := []any{
		map[string]string{},
		map[string]string{"Guild": e.fake.GuildID},
		map[string]string{"Code": "a code with spaces"},
		map[string]string{"Code": "<script>"},
		map[string]string{"Code": strings.Repeat("c", 201)},
		"not json",
		map[string]string{"Code": "c", "Pad": strings.Repeat("x", 5000)},
	}
	for i := range 300 {
		resp, out := e.tokenRequest(junk[i%len(junk)], "", "")
		require.Equal(t, http.StatusBadRequest, resp.StatusCode, "%v", out)
	}
	assert.Equal(t, calls, len(e.fake.Calls()), "junk asked Discord nothing")
	e.signIn(ann)
}

// TestSignInForwardedFor proves that the client address is read from
// X-Forwarded-For only when the request comes from a proxy the config
// trusts: behind a trusted proxy two clients have buckets of their own,
// while from an untrusted peer the header is ignored, so that naming
// another address in it escapes nothing.
func TestSignInForwardedFor(t *testing.T) {
	for _, tt := range []struct {
		name    string
		trusted []string
		// whether 50 refused sign-ins from 198.51.100.1 leave
		// 198.51.100.2 its own bucket
		ownBucket bool
	}{
		{"a trusted proxy", []string{"127.0.0.1/32", "10.0.0.0/8"}, true},
		{"no trusted proxy", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			proxies, err := ParseProxies(tt.trusted)
			require.NoError(t, err)
			at := time.Now() // a clock that stands still: no bucket refills (see TestSignInLimits)
			e := newEnv(t, func(c *Config) { c.TrustedProxies, c.Now = proxies, func() time.Time { return at } })
			for i := range 50 {
				// The client, then a trusted hop: the client is the
				// rightmost untrusted address.
				resp, _ := e.tokenRequest(map[string]string{"Code": "x"}, "203.0.113.9, 198.51.100.1, 10.1.2.3", "")
				require.Equal(t, http.StatusUnauthorized, resp.StatusCode, "sign-in %d is exchanged", i)
			}
			resp, out := e.tokenRequest(map[string]string{"Code": "x"}, "198.51.100.1", "")
			require.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "%v", out)
			assert.NotEmpty(t, resp.Header.Get("Retry-After"))
			resp, out = e.tokenRequest(map[string]string{"Code": e.code(ann), "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID},
				"198.51.100.2", "")
			if tt.ownBucket {
				assert.Equal(t, http.StatusOK, resp.StatusCode, "%v", out)
				assert.Contains(t, e.logs.String(), "sign-ins from 198.51.100.1")
			} else {
				assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "%v", out)
				assert.Contains(t, e.logs.String(), "sign-ins from 127.0.0.1")
			}
		})
	}
}

// TestSignInExchangeCap proves the bound over everyone on the code
// exchanges the sign-in asks of Discord: past it, sign-ins from any
// address are refused in a sign-in's words, and Discord is not asked.
func TestSignInExchangeCap(t *testing.T) {
	proxies, err := ParseProxies([]string{"127.0.0.1"})
	require.NoError(t, err)
	e := newEnv(t, func(c *Config) { c.TrustedProxies, c.ExchangesPerMinute = proxies, 24 }) // 2 at once
	for i := range 2 {
		resp, _ := e.tokenRequest(map[string]string{"Code": "x"}, fmt.Sprintf("198.51.100.%d", i+1), "")
		require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	}
	calls := len(e.fake.Calls())
	resp, out := e.tokenRequest(map[string]string{"Code": e.code(ann)}, "198.51.100.9", "")
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Regexp(t, `^Too many sign-ins: try again in [1-3] s\.$`, out["error"])
	assert.Regexp(t, `^[1-3]$`, resp.Header.Get("Retry-After"))
	assert.Equal(t, calls, len(e.fake.Calls()), "Discord was not asked")
	assert.Contains(t, e.logs.String(), "code exchanges, over every user")
}

// TestSignInRenewalChargesTheUserFirst proves that a page signing in
// again with its session still valid is counted against its user before
// Discord is asked: past the user's bound its code is not spent.
func TestSignInRenewalChargesTheUserFirst(t *testing.T) {
	e := newEnv(t)
	sess := e.signIn(ann)
	for range 4 {
		resp, out := e.tokenRequest(map[string]string{"Code": e.code(ann), "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID}, "", sess)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%v", out)
	}
	code := e.code(ann)
	calls := len(e.fake.Calls())
	resp, out := e.tokenRequest(map[string]string{"Code": code, "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID}, "", sess)
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "%v", out)
	assert.Equal(t, calls, len(e.fake.Calls()), "the code is not spent")
}
