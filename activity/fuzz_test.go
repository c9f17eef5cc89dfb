package activity

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzSessionToken proves the session tokens: a session signed then read
// is itself; any change to a token's bytes makes it unreadable; and
// anything read as a token is refused or is a session that, signed again,
// is the same token.
func FuzzSessionToken(f *testing.F) {
	ss := newSessions("secret", func() time.Time { return testNow })
	good := ss.sign(Session{UserID: "1", Name: "Ann", Lang: "en", Guild: "2", Channel: "3", Expires: testNow.Add(time.Hour)})
	f.Add(good, 0, byte(1))
	f.Add("", 0, byte(0))
	f.Add("e30.AAAA", 3, byte('x'))
	f.Fuzz(func(t *testing.T, token string, at int, flip byte) {
		if s, err := ss.read(token); err == nil {
			assert.Equal(t, token, ss.sign(s), "a readable token is the one its session signs to")
			again, err := ss.read(ss.sign(s))
			require.NoError(t, err)
			assert.Equal(t, s, again)
		}
		if len(token) == 0 || flip == 0 {
			return
		}
		b := []byte(token)
		i := (at%len(b) + len(b)) % len(b)
		b[i] ^= flip
		if tampered := string(b); tampered != token {
			if _, err := ss.read(token); err == nil {
				_, err := ss.read(tampered)
				assert.ErrorIs(t, err, ErrSession, "a tampered token never verifies")
			}
		}
	})
}

// FuzzHello proves the socket's renewal message: whatever the page
// sends, it is refused or names a session the server signed.
func FuzzHello(f *testing.F) {
	ss := newSessions("secret", func() time.Time { return testNow })
	good := ss.sign(Session{UserID: "1", Lang: "en", Expires: testNow.Add(time.Hour)})
	f.Add([]byte(`{"Session":"` + good + `"}`))
	f.Add([]byte(`{"Session":1}`))
	f.Add([]byte(`"hello"`))
	f.Fuzz(func(t *testing.T, msg []byte) {
		var h renewal
		if json.Unmarshal(msg, &h) != nil {
			return
		}
		s, err := ss.read(h.Session)
		if err == nil {
			assert.Equal(t, "1", s.UserID)
			assert.Equal(t, good, h.Session)
		}
	})
}

// FuzzSessionProtocol proves the session an upgrade request offers in
// Sec-WebSocket-Protocol: whatever the headers say, the token read back
// verifies only if the server signed it; a signed token is always made
// of the characters a protocol's name may have (RFC 7230 tchar), so a
// browser offers it; and offered as the page does, it is read back as
// itself.
func FuzzSessionProtocol(f *testing.F) {
	ss := newSessions("secret", func() time.Time { return testNow })
	good := ss.sign(Session{UserID: "1", Name: "Ann \"ä\"", Lang: "en", Expires: testNow.Add(time.Hour)})
	f.Add(strings.Join(LiveProtocols(good), ", "), "")
	f.Add(LiveProtocol, sessionProtocol+good)
	f.Add(sessionProtocol+good+","+sessionProtocol+good, "")
	f.Add(" malefiz.session.e30.AAAA ,malefiz.v1", "x")
	f.Fuzz(func(t *testing.T, header, another string) {
		values := []string{header}
		if another != "" {
			values = append(values, another)
		}
		token := offeredSession(values)
		if s, err := ss.read(token); err == nil {
			assert.Equal(t, good, token, "only the token signed verifies")
			assert.Equal(t, "1", s.UserID)
		}
		if name, err := ss.read(another); err == nil {
			for _, c := range []byte(sessionProtocol + another) {
				assert.True(t, tchar(c), "%q in %q", c, another)
			}
			assert.Equal(t, another, offeredSession([]string{strings.Join(LiveProtocols(another), ", ")}))
			assert.Equal(t, "1", name.UserID)
		}
		signed := ss.sign(Session{UserID: header, Name: another, Lang: "en", Expires: testNow.Add(time.Hour)})
		for _, c := range []byte(signed) {
			require.True(t, tchar(c), "%q in %q", c, signed)
		}
		assert.Equal(t, signed, offeredSession([]string{strings.Join(LiveProtocols(signed), ", ")}))
	})
}

// tchar reports whether c may be in a token of RFC 7230 (a WebSocket
// subprotocol's name).
func tchar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// FuzzRequestBodies sends any body to every route that reads one, with
// and without a session: never a 5xx, never a panic, always JSON.
func FuzzRequestBodies(f *testing.F) {
	for _, seed := range []string{`{}`, `{"Code":"abc","Guild":"1","Channel":"2"}`, `{"Turn":1,"Action":"roll","Arg":""}`,
		`{"Action":"join"}`, `{"Action":"addbot","Arg":"hard"}`, `{"seats":2,"bots":1}`, `{"Turn":-1}`, `[`, `null`} {
		for route := range 5 {
			f.Add(uint8(route), true, []byte(seed))
		}
	}
	paths := []string{"api/token", "api/games/7/play", "api/games/7/lobby", "api/games/7/hint", "api/games"}
	f.Fuzz(func(t *testing.T, route uint8, signed bool, body []byte) {
		games := lobbyGames(t, malefiz.GuildSettings{})
		s, sign := boardServer(t, games)
		s.oauth.api = "http://127.0.0.1:1" // nothing listens: the exchange fails at once
		req := httptest.NewRequest(http.MethodPost, Prefix+paths[int(route)%len(paths)], bytes.NewReader(body))
		if signed {
			req.Header.Set("Authorization", "Bearer "+sign(bob))
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		assert.Less(t, w.Code, 500, "%s", w.Body)
		assert.True(t, json.Valid(w.Body.Bytes()), "%s", w.Body)
		assert.False(t, strings.Contains(w.Body.String(), "secret"))
	})
}
