package activity

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot/locales"
)

// TestNotHereAnswersAlike proves that a game of another guild and an ID
// no game has answer alike, over every route and over the socket (the same
// status, the same words with the ID asked), so that the answers do not
// tell other guilds' games from unused IDs; the logs still tell them apart.
func TestNotHereAnswersAlike(t *testing.T) {
	e := newEnv(t)
	other := e.otherGuildGame(ann)
	unused := other + 1000
	sess := e.signIn(ann)
	// answer is what the route at rest answers for game id, its ID
	// written N.
	answer := func(method, rest string, body any, id int64) (int, string) {
		status, out := e.call(method, gamePath(id, rest), sess, body)
		return status, strings.ReplaceAll(fmt.Sprint(out), fmt.Sprint(id), "N")
	}
	for _, route := range []struct {
		method, rest string
		body         any
	}{
		{http.MethodGet, "", nil},
		{http.MethodPost, "play", map[string]any{"Turn": 0, "Action": "roll"}},
		{http.MethodPost, "lobby", map[string]string{"Action": LobbyJoin}},
		{http.MethodPost, "hint", map[string]int{"Turn": 0}},
		{http.MethodGet, "review", nil},
	} {
		t.Run(route.method+" "+route.rest, func(t *testing.T) {
			before := len(e.logs.String())
			s1, a1 := answer(route.method, route.rest, route.body, other)
			s2, a2 := answer(route.method, route.rest, route.body, unused)
			assert.Equal(t, s1, s2, "the same status")
			assert.Equal(t, a1, a2, "the same words")
			assert.Equal(t, http.StatusConflict, s1)
			assert.Contains(t, a1, strings.ReplaceAll(locales.Tr("en", locales.ErrUnknownGame, other), fmt.Sprint(other), "N"))
			logs := e.logs.String()[before:]
			assert.Contains(t, logs, fmt.Sprintf("game %d not here: of another guild", other))
			assert.Contains(t, logs, fmt.Sprintf("game %d not here: no such game", unused))
		})
	}
	t.Run("the socket", func(t *testing.T) {
		closeOf := func(id int64) (string, int) {
			conn := e.dial(gamePath(id, "live"), sess)
			var refused map[string]string
			require.NoError(t, conn.ReadJSON(&refused))
			_, _, err := conn.ReadMessage()
			var closed *websocket.CloseError
			require.ErrorAs(t, err, &closed)
			return strings.ReplaceAll(refused["error"], fmt.Sprint(id), "N"), closed.Code
		}
		w1, c1 := closeOf(other)
		w2, c2 := closeOf(unused)
		assert.Equal(t, w1, w2)
		assert.Equal(t, 4004, c1)
		assert.Equal(t, c1, c2)
	})
}
