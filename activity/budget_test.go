package activity

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
)

// session signs a session for userID as the sign-in would, without
// asking Discord.
func (e *env) session(userID string) string {
	now := e.act.cfg.Now()
	return e.act.sessions.sign(Session{UserID: userID, Name: "u" + userID, Lang: "en", Guild: e.fake.GuildID,
		Channel: e.fake.ChannelID, Expires: now.Add(sessionTTL), Until: now.Add(sessionMax)})
}

// watch opens game id's socket with session and reads its first push.
func (e *env) watch(id int64, session string) *websocket.Conn {
	e.t.Helper()
	conn := e.dial(gamePath(id, "live"), session)
	var live table.Live
	require.NoError(e.t, conn.ReadJSON(&live))
	require.Equal(e.t, id, live.Game)
	return conn
}

// closedWith reads conn until the server closes it, and returns the
// close's code and reason.
func closedWith(t *testing.T, conn *websocket.Conn) (int, string) {
	t.Helper()
	for {
		_, _, err := conn.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		require.ErrorAs(t, err, &ce)
		return ce.Code, ce.Text
	}
}

// TestSocketsPerSessionAndUser proves the budget of one person's
// sockets: a third socket of one session closes the session's oldest, a
// fifth of one user (over sessions) closes the user's oldest, each with
// 4008 and a reason; another user is not touched.
func TestSocketsPerSessionAndUser(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	s1 := e.session(ann.ID)
	first := e.watch(id, s1)
	e.watch(id, s1)
	bens := e.watch(id, e.session(ben.ID))
	e.watch(id, s1)
	code, reason := closedWith(t, first)
	assert.Equal(t, closeReplaced, code)
	assert.Equal(t, "a newer board took its place", reason)

	// Ann now has 2 (s1); 2 more of other sessions make 4, a fifth
	// closes her oldest.
	e.skip.Add(int64(time.Second)) // another token
	s2 := e.session(ann.ID)
	e.skip.Add(int64(time.Second))
	s3 := e.session(ann.ID)
	e.watch(id, s2)
	e.watch(id, s3)
	require.Eventually(t, func() bool { return e.hub.Watchers(id) == 5 }, 5*time.Second, 5*time.Millisecond)
	e.watch(id, s3) // s3's second: Ann's fifth
	require.Eventually(t, func() bool { return e.hub.Watchers(id) == 5 }, 5*time.Second, 5*time.Millisecond,
		"Ann's oldest closed: 4 of hers and Ben's")
	require.NoError(t, bens.SetReadDeadline(time.Now().Add(200*time.Millisecond)))
	_, _, err := bens.ReadMessage()
	var ne interface{ Timeout() bool }
	require.ErrorAs(t, err, &ne, "Ben's socket still open: %v", err)
}

// TestSocketsGlobalCap proves the bound of all the live sockets: past it
// a new one is refused before it is upgraded (503, in the user's words,
// Retry-After); one that goes makes room.
func TestSocketsGlobalCap(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Sockets = 3 })
	id := e.lobby(ann, e.fake.ChannelID)
	var open []*websocket.Conn
	for i := range 3 {
		open = append(open, e.watch(id, e.session(fmt.Sprint(200+i))))
	}
	conn, resp := e.upgrade(gamePath(id, "live"), protocols(e.session("300")))
	require.Nil(t, conn, "past all")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, "60", resp.Header.Get("Retry-After"))
	var out map[string]string
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	assert.Equal(t, locales.Tr("en", locales.ActivityBusy), out["error"])
	assert.Contains(t, e.logs.String(), "too many sockets")

	require.NoError(t, open[0].Close())
	require.Eventually(t, func() bool { return e.hub.Watchers(id) == 2 }, 5*time.Second, 5*time.Millisecond)
	e.watch(id, e.session("300")) // room again
}

// protocols is the header of an upgrade that offers session as the page
// does.
func protocols(session string) http.Header {
	return http.Header{"Sec-WebSocket-Protocol": {strings.Join(LiveProtocols(session), ", ")}}
}

// TestSocketClosesWhenItsSessionExpires proves that a socket lives no
// longer than its session, unless the page says a renewed one on it.
func TestSocketClosesWhenItsSessionExpires(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	now := e.act.cfg.Now()
	short := e.act.sessions.sign(Session{UserID: ann.ID, Lang: "en", Guild: e.fake.GuildID, Expires: now.Add(time.Second)})
	conn := e.watch(id, short)
	code, reason := closedWith(t, conn)
	assert.Equal(t, closeSession, code)
	assert.Equal(t, "session expired", reason)

	now = e.act.cfg.Now()
	renewed := e.watch(id, e.act.sessions.sign(Session{UserID: ann.ID, Lang: "en", Guild: e.fake.GuildID, Expires: now.Add(time.Second)}))
	require.NoError(t, renewed.WriteJSON(renewal{Session: e.session(ann.ID)}))
	require.NoError(t, renewed.SetReadDeadline(time.Now().Add(2*time.Second)))
	_, _, err := renewed.ReadMessage()
	var ne interface{ Timeout() bool }
	require.ErrorAs(t, err, &ne, "still open past the first session's expiry: %v", err)
}

// TestSessionRenewal proves POST api/session: the same session, expiring
// later, never past what the sign-in allowed; none without a session.
func TestSessionRenewal(t *testing.T) {
	e := newEnv(t)
	sess := e.signIn(ann)
	first, err := e.act.sessions.read(sess)
	require.NoError(t, err)
	e.skip.Add(int64(time.Hour))
	status, out := e.call(http.MethodPost, "api/session", sess, nil)
	require.Equal(t, http.StatusOK, status, "%v", out)
	next, err := e.act.sessions.read(out["session"].(string))
	require.NoError(t, err)
	assert.Equal(t, first.UserID, next.UserID)
	assert.Equal(t, first.Until, next.Until)
	assert.True(t, next.Expires.After(first.Expires), "later")
	assert.False(t, next.Expires.After(next.Until))

	status, _ = e.call(http.MethodPost, "api/session", "", nil)
	assert.Equal(t, http.StatusUnauthorized, status)
}

// TestPushesSerialisedOncePerView proves that a change watched by many
// sockets is read once and serialised once per (language, viewer): ten
// watchers and a player make two Lives, not eleven, and each socket
// still reads the game as its user sees it.
func TestPushesSerialisedOncePerView(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	var watchers []*websocket.Conn
	for i := range 10 {
		watchers = append(watchers, e.watch(id, e.session(fmt.Sprint(500+i))))
	}
	host := e.watch(id, e.signIn(ann))
	before := e.act.pushes.serialised.Load()
	status, out := e.call(http.MethodPost, gamePath(id, "lobby"), e.signIn(ben), map[string]string{"Action": LobbyJoin})
	require.Equal(t, http.StatusOK, status, "%v", out)
	for _, c := range append(watchers, host) {
		var live table.Live
		require.NoError(t, c.ReadJSON(&live))
		require.Len(t, live.Seats, 2)
	}
	assert.Equal(t, int64(2), e.act.pushes.serialised.Load()-before, "a watcher's Live and Ann's")
	var live table.Live
	status, out = e.call(http.MethodGet, gamePath(id, ""), e.signIn(ann), nil)
	require.Equal(t, http.StatusOK, status)
	b, _ := json.Marshal(out)
	require.NoError(t, json.Unmarshal(b, &live))
	assert.True(t, live.Host)
}

// TestNewSocketsPerUser proves the bound on the sockets one user opens:
// past its burst a new socket of that user is refused before it is
// upgraded (429, in the user's words, Retry-After), while another user
// from the same address (everyone's, behind Discord's proxy) is still
// taken; the user is taken again once their bucket has a token.
func TestNewSocketsPerUser(t *testing.T) {
	// 10 at once, then one every 2 s.
	e := newEnv(t, func(c *Config) { c.SocketsPerSession, c.SocketsPerUser = 20, 20 })
	id := e.lobby(ann, e.fake.ChannelID)
	anns := e.session(ann.ID)
	for range DefaultNewSocketsPerUser / 3 {
		e.watch(id, anns)
	}
	conn, resp := e.upgrade(gamePath(id, "live"), protocols(anns))
	require.Nil(t, conn, "Ann's eleventh at once")
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Equal(t, "2", resp.Header.Get("Retry-After"))
	assert.True(t, resp.Close, "the connection closed")
	var out map[string]string
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	assert.Equal(t, locales.Tr("en", locales.ActivityTooManyBoards, 2), out["error"])
	assert.Contains(t, e.logs.String(), "too many new of one user")
	assert.Contains(t, e.logs.String(), "user="+ann.ID)

	e.watch(id, e.session(ben.ID)) // Ben, from the same address
	e.skip.Add(int64(2 * time.Second))
	e.watch(id, anns) // a token again
}

// TestSocketsFromOneAddress proves that no bound of the sockets is per
// client address: inside Discord every user comes from Discord's proxy,
// and a hundred users opening their boards at once from one address (a
// restart's reconnections) are all taken.
func TestSocketsFromOneAddress(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	for i := range 100 {
		e.watch(id, e.session(fmt.Sprint(1000+i)))
	}
	assert.Equal(t, 100, e.hub.Watchers(id))
}
