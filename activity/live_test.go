package activity

import (
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

// dial opens the live socket of the Activity at path, its reads bounded.
func (e *env) dial(path string) *websocket.Conn {
	e.t.Helper()
	conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.srv.URL, "http")+Prefix+path, nil)
	require.NoError(e.t, err)
	resp.Body.Close()
	e.t.Cleanup(func() { conn.Close() })
	require.NoError(e.t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	return conn
}

// TestLiveSocket proves the live socket: after the page's hello with its
// session it reads the game as its user sees it, then the game again after
// each commit, whoever made it (a play of another user on the Activity, a
// join through the service); the hub counts the page while it is open
// and forgets it once it goes.
func TestLiveSocket(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	other := e.lobby(cat, e.fake.ChannelID)
	conn := e.dial(gamePath(id, "live"))
	require.NoError(t, conn.WriteJSON(map[string]string{"Session": e.signIn(ben)}))
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
// not serve: a hello that is no JSON or none in time is dropped without a
// word; a session forged or expired is closed with 4001; another guild's
// game is refused once in words and closed with 4004; an ID that is no ID
// is not found, and a request that is no socket is refused by the
// upgrader. None is watched.
func TestLiveSocketRefused(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	other := e.otherGuildGame(ann)
	good := e.signIn(ann)
	tests := []struct {
		name  string
		game  int64
		hello any           // a string is sent as a text message; nil sends nothing
		skip  time.Duration // the Activity's clock ahead
		error string        // the words before the close
		code  int           // the close's code; 1006: dropped without one
	}{
		{"a hello that is no JSON", id, "hello", 0, "", websocket.CloseAbnormalClosure},
		{"no hello in time", id, nil, -liveHello, "", websocket.CloseAbnormalClosure},
		{"a forged session", id, map[string]string{"Session": good[:strings.Index(good, ".")] + ".AAAA"}, 0, "", 4001},
		{"no session", id, map[string]string{}, 0, "", 4001},
		{"an expired session", id, map[string]string{"Session": good}, sessionTTL + time.Minute, "", 4001},
		{"another guild's game", other, map[string]string{"Session": good}, 0, locales.Tr("en", locales.ErrUnknownGame, other), 4004},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.skip.Store(int64(tt.skip))
			defer e.skip.Store(0)
			conn := e.dial(gamePath(tt.game, "live"))
			switch h := tt.hello.(type) {
			case string:
				require.NoError(t, conn.WriteMessage(websocket.TextMessage, []byte(h)))
			case nil:
			default:
				require.NoError(t, conn.WriteJSON(h))
			}
			if tt.error != "" {
				var refused map[string]string
				require.NoError(t, conn.ReadJSON(&refused))
				assert.Equal(t, map[string]string{"error": tt.error}, refused)
			}
			_, msg, err := conn.ReadMessage()
			require.Error(t, err, "no state: %s", msg)
			var timeout net.Error
			require.False(t, errors.As(err, &timeout) && timeout.Timeout(), "the server ended it, not our deadline: %v", err)
			var closed *websocket.CloseError
			require.ErrorAs(t, err, &closed)
			assert.Equal(t, tt.code, closed.Code)
			// The server lets the watch go after its close frame.
			require.Eventually(t, func() bool { return e.hub.Watchers(tt.game) == 0 }, 10*time.Second, 5*time.Millisecond,
				"the refused page is not watched")
		})
	}

	t.Run("an ID that is no ID", func(t *testing.T) {
		_, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.srv.URL, "http")+Prefix+"api/games/x/live", nil)
		require.ErrorIs(t, err, websocket.ErrBadHandshake)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	})
	t.Run("no socket", func(t *testing.T) {
		resp, _ := e.do(http.MethodGet, gamePath(id, "live"), "", nil)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	})
}

// TestLiveSocketGameGone proves that when the game can no longer be read
// (the store fails) the socket is closed after logging it, and the page
// is no longer watched.
func TestLiveSocketGameGone(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	conn := e.dial(gamePath(id, "live"))
	require.NoError(t, conn.WriteJSON(map[string]string{"Session": e.signIn(ann)}))
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
