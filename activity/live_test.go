package activity

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
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

// dial opens the live socket of the Activity at path, offering session
// as the page does, its reads bounded.
func (e *env) dial(path, session string) *websocket.Conn {
	e.t.Helper()
	conn, resp := e.upgrade(path, http.Header{"Sec-WebSocket-Protocol": {strings.Join(LiveProtocols(session), ", ")}})
	require.NotNil(e.t, conn, "refused: %d", resp.StatusCode)
	assert.Equal(e.t, LiveProtocol, conn.Subprotocol())
	assert.Equal(e.t, []string{LiveProtocol}, resp.Header.Values("Sec-WebSocket-Protocol"), "the session is not said back")
	require.NoError(e.t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	return conn
}

// upgrade asks for the live socket at path with header: the socket, or
// nil and the refusal (its body read by then).
func (e *env) upgrade(path string, header http.Header) (*websocket.Conn, *http.Response) {
	e.t.Helper()
	conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.srv.URL, "http")+Prefix+path, header)
	if err != nil {
		require.ErrorIs(e.t, err, websocket.ErrBadHandshake)
		e.t.Cleanup(func() { resp.Body.Close() })
		return nil, resp
	}
	resp.Body.Close()
	e.t.Cleanup(func() { conn.Close() })
	return conn, resp
}

// TestLiveSocket proves the live socket: opened with the page's session
// it reads the game as its user sees it, then the game again after
// each commit, whoever made it (a play of another user on the Activity, a
// join through the service); the hub counts the page while it is open
// and forgets it once it goes.
func TestLiveSocket(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	other := e.lobby(cat, e.fake.ChannelID)
	conn := e.dial(gamePath(id, "live"), e.signIn(ben))
	var live table.Live
	require.NoError(t, conn.ReadJSON(&live))
	assert.Equal(t, e.live(id, ben), live, "the game as Ben sees it")
	assert.Equal(t, 1, e.hub.Watchers(id))

	// A change of another game pushes nothing; Ben's join through the
	// route pushes the lobby with him.
	status, out := e.call(http.MethodPost, gamePath(other, "lobby"), e.signIn(ann), map[string]string{"Action": LobbyJoin})
	require.Equal(t, http.StatusOK, status, "%v", out)
	status, out = e.call(http.MethodPost, gamePath(id, "lobby"), e.signIn(ben), map[string]string{"Action": LobbyJoin})
	require.Equal(t, http.StatusOK, status, "%v", out)
	live = table.Live{}
	require.NoError(t, conn.ReadJSON(&live))
	require.Len(t, live.Seats, 2, "the first push after the socket's is Ben's join")
	assert.Equal(t, "Ben", live.Seats[1].Name)

	// Ann starts it in the thread: pushed as well.
	status, _ = e.call(http.MethodPost, gamePath(id, "lobby"), e.signIn(ann), map[string]string{"Action": LobbyStart})
	require.Equal(t, http.StatusOK, status)
	live = table.Live{}
	require.NoError(t, conn.ReadJSON(&live))
	assert.Equal(t, e.live(id, ben), live)
	assert.Equal(t, "roll", live.Phase)

	require.NoError(t, conn.Close())
	require.Eventually(t, func() bool { return e.hub.Watchers(id) == 0 }, 10*time.Second, 5*time.Millisecond,
		"the page that went is no longer watched")
}

// TestLiveSocketRefused proves what the socket does with a page it will
// not serve: without a session, or with one forged or expired, it is
// refused before the upgrade (401, in the session's language where it
// says one, logged as unauthenticated) and nothing is watched; another
// guild's game is refused once in words and closed with 4004; an ID that
// is no ID is not found, and a request that is no socket is refused by
// the upgrader.
func TestLiveSocketRefused(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	other := e.otherGuildGame(ann)
	good := e.signIn(ann)
	german := e.act.sessions.sign(Session{UserID: ann.ID, Lang: "de", Guild: e.fake.GuildID, Expires: e.act.cfg.Now().Add(time.Minute)})
	offer := func(protocols ...string) http.Header {
		return http.Header{"Sec-WebSocket-Protocol": {strings.Join(protocols, ", ")}}
	}
	tests := []struct {
		name   string
		header http.Header
		skip   time.Duration // the Activity's clock ahead
		lang   string        // of the refusal
	}{
		{"no protocol offered", nil, 0, "en"},
		{"no session offered", offer(LiveProtocol), 0, "en"},
		{"an empty session", offer(LiveProtocol, sessionProtocol), 0, "en"},
		{"a forged session", offer(LiveProtocols(good[:strings.Index(good, ".")] + ".AAAA")...), 0, "en"},
		{"two sessions", offer(append(LiveProtocols(good), sessionProtocol+good)...), 0, "en"},
		{"the session as a header of its own", http.Header{"Sec-WebSocket-Protocol": {LiveProtocol, sessionProtocol + "x", sessionProtocol + good}}, 0, "en"},
		{"an expired session", offer(LiveProtocols(good)...), sessionTTL + time.Minute, "en"},
		{"an expired session, in its language", offer(LiveProtocols(german)...), 2 * time.Minute, "de"},
		{"the language the browser asks", http.Header{"Accept-Language": {"fr-FR"}}, 0, "fr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.skip.Store(int64(tt.skip))
			defer e.skip.Store(0)
			before := len(e.logs.String())
			conn, resp := e.upgrade(gamePath(id, "live"), tt.header)
			require.Nil(t, conn, "no upgrade")
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
			assert.True(t, resp.Close, "the connection closed")
			assert.Empty(t, resp.Header.Values("Sec-WebSocket-Protocol"))
			var out map[string]string
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
			assert.Equal(t, map[string]string{"error": locales.Tr(tt.lang, locales.ActivitySignInFailed)}, out)
			assert.Contains(t, e.logs.String()[before:], "activity socket without a valid session")
			assert.Zero(t, e.hub.Watchers(id), "not watched")
		})
	}

	t.Run("another guild's game", func(t *testing.T) {
		conn := e.dial(gamePath(other, "live"), good)
		var refused map[string]string
		require.NoError(t, conn.ReadJSON(&refused))
		assert.Equal(t, map[string]string{"error": locales.Tr("en", locales.ErrUnknownGame, other)}, refused)
		_, msg, err := conn.ReadMessage()
		require.Error(t, err, "no state: %s", msg)
		var timeout net.Error
		require.False(t, errors.As(err, &timeout) && timeout.Timeout(), "the server ended it, not our deadline: %v", err)
		var closed *websocket.CloseError
		require.ErrorAs(t, err, &closed)
		assert.Equal(t, closeRefused, closed.Code)
		// The server lets the watch go after its close frame.
		require.Eventually(t, func() bool { return e.hub.Watchers(other) == 0 }, 10*time.Second, 5*time.Millisecond,
			"the refused page is not watched")
	})
	t.Run("an ID that is no ID", func(t *testing.T) {
		conn, resp := e.upgrade("api/games/x/live", offer(LiveProtocols(good)...))
		require.Nil(t, conn)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	})
	t.Run("no socket", func(t *testing.T) {
		resp, _ := e.do(http.MethodGet, gamePath(id, "live"), "", nil)
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "no session")
		req, err := http.NewRequest(http.MethodGet, e.srv.URL+Prefix+gamePath(id, "live"), nil)
		require.NoError(t, err)
		req.Header["Sec-WebSocket-Protocol"] = offer(LiveProtocols(good)...)["Sec-WebSocket-Protocol"]
		resp, err = http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "a session, but no upgrade asked")
	})
}

// TestLiveSocketGameGone proves that when the game can no longer be read
// (the store fails) the socket is closed after logging it, and the page
// is no longer watched.
func TestLiveSocketGameGone(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	conn := e.dial(gamePath(id, "live"), e.signIn(ann))
	var live table.Live
	require.NoError(t, conn.ReadJSON(&live))
	require.Equal(t, id, live.Game)
	require.NoError(t, e.db.Close())
	e.hub.Changed(id)
	_, msg, err := conn.ReadMessage()
	require.Error(t, err, "nothing pushed: %s", msg)
	require.Eventually(t, func() bool { return e.hub.Watchers(id) == 0 }, 10*time.Second, 5*time.Millisecond)
	assert.Contains(t, e.logs.String(), fmt.Sprintf(`msg="activity push" game=%d`, id))
}
