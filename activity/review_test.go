package activity

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/game"
)

// finished is a game of Ann and Ben, played two turns (the die shows 4),
// then resigned by Ben: finished, Ann the winner.
func (e *env) finished() int64 {
	e.t.Helper()
	id := e.running()
	for range 4 {
		l := e.live(id, ann)
		who := ann
		if !l.YourTurn {
			who = ben
			l = e.live(id, ben)
		}
		play := table.CustomID{Game: id, Turn: l.Turn, Action: table.ActRoll}
		if l.Phase == "move" {
			m := l.Moves[0]
			play.Action, play.Arg = table.ActMove, m.From+"-"+m.To
		}
		o, err := e.games.Change(e.t.Context(), game.Command{Game: id, Guild: e.fake.GuildID, User: actor(who), Action: game.Play{ID: play}})
		require.NoError(e.t, err)
		o.Deliver()
	}
	o, err := e.games.Change(e.t.Context(), game.Command{Game: id, Guild: e.fake.GuildID, User: actor(ben), Action: game.Resign{}})
	require.NoError(e.t, err)
	o.Deliver()
	require.Equal(e.t, malefiz.StatusFinished, e.stored(id).Status)
	return id
}

// TestReviewRoute proves the review's route: a finished game's review as
// the game service makes it, in the user's language, encoded as it is;
// the coach not done yet, it says so. A game still running is refused as
// a game of another guild and an unused ID are (TestNotHereAnswersAlike),
// in the same words, and logged as what it is.
func TestReviewRoute(t *testing.T) {
	e := newEnv(t)
	id := e.finished()
	review := func(session string, id int64) (int, table.LiveReview, []byte) {
		resp, b := e.do(http.MethodGet, gamePath(id, "review"), session, nil)
		var rv table.LiveReview
		if resp.StatusCode == http.StatusOK {
			require.NoError(t, json.Unmarshal(b, &rv), "%s", b)
		}
		return resp.StatusCode, rv, b
	}
	status, rv, b := review(e.signIn(ann), id)
	require.Equal(t, http.StatusOK, status, "%s", b)
	want, err := e.games.BoardReview(t.Context(), id, e.fake.GuildID, "en")
	require.NoError(t, err)
	assert.Equal(t, want, rv, "the service's review, encoded as it is")
	assert.Equal(t, id, rv.Game)
	assert.Equal(t, "red", rv.Winner)
	assert.True(t, rv.Forfeit)
	assert.False(t, rv.Final, "no coach runs here")
	assert.Equal(t, locales.Tr("en", locales.ReviewGrading), rv.Note)
	require.NotEmpty(t, rv.Steps)
	assert.Contains(t, rv.Steps[0].Head, "Turn 1 · Ann (Red) rolled a 4")

	status, de, _ := review(e.signIn(ben), id)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, locales.Tr("de", locales.ReviewGrading), de.Note, "Ben reads German")
	assert.Len(t, de.Steps, len(rv.Steps))

	running := e.running()
	before := len(e.logs.String())
	status, _, b = review(e.signIn(ann), running)
	assert.Equal(t, http.StatusConflict, status)
	var out map[string]string
	require.NoError(t, json.Unmarshal(b, &out))
	assert.Equal(t, locales.Tr("en", locales.ErrUnknownGame, running), out["error"], "not here, as any game it may not show")
	assert.Contains(t, e.logs.String()[before:], fmt.Sprintf("game %d not here: not finished", running))

	status, _, _ = review(e.signIn(ann), 0)
	assert.Equal(t, http.StatusNotFound, status, "no ID")
}

// TestGamesListsReviews proves that the games list offers the channel's
// finished games after its open ones, as reviews, and that opened in a
// finished game's thread it marks that game as the one here.
func TestGamesListsReviews(t *testing.T) {
	e := newEnv(t)
	done := e.finished()
	open := e.lobby(ann, e.fake.ChannelID)
	type entry struct {
		ID     int64
		Status string
		Here   bool
	}
	list := func(session string) []entry {
		resp, b := e.do(http.MethodGet, "api/games", session, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
		var out []entry
		require.NoError(t, json.Unmarshal(b, &out))
		return out
	}
	assert.Equal(t, []entry{{open, "lobby", false}, {done, "finished", false}}, list(e.signIn(ann)))

	thread := e.stored(done).ThreadID
	require.NotEmpty(t, thread)
	status, out := e.call(http.MethodPost, "api/token", "",
		map[string]string{"Code": e.code(ann), "Guild": e.fake.GuildID, "Channel": thread})
	require.Equal(t, http.StatusOK, status, "%v", out)
	assert.Equal(t, []entry{{done, "finished", true}}, list(out["session"].(string)), "the thread's own game")
}
