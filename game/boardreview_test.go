package game

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// TestBoardReviewOfAFinishedGame: Ann plays a game against an easy
// computer on the board, her moves chosen by the greedy computer's mind
// (which misses the best move now and then), and resigns after
// reviewMoves of them (grading is the engine's long search, slow under the
// race detector); the coach grades it, and the review then steps
// through every roll of the game in order, with the board before it, her
// moves graded in the coach's classes with the better move where the coach
// found one worth a point, the computer's moves ungraded, the chances over
// the game and its turning points. A game of another guild, an unused ID
// and a game still running are refused alike.
func TestBoardReviewOfAFinishedGame(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 7)) // Ann misses the best move twice or more in four
	var mu sync.Mutex
	e := newEnv(t, func(c *Config) {
		c.Dice = engine.DiceFunc(func() int {
			mu.Lock()
			defer mu.Unlock()
			return rnd.IntN(6) + 1
		})
	})
	sg := e.open(ann, map[string]any{"seats": 2.0, "bots": 1.0, "level": "easy"})
	e.must(sg.ID, ann, Start{})
	e.playWith(sg.ID, ann, ai.Greedy, reviewMoves)
	if e.stored(sg.ID).Status == malefiz.StatusRunning {
		e.must(sg.ID, ann, Resign{})
	}
	e.s.Wait()
	require.Equal(t, malefiz.StatusFinished, e.stored(sg.ID).Status)

	runCtx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { e.s.RunCoach(runCtx); close(done) }()
	require.Eventually(t, func() bool {
		_, final, err := e.db.Grades(t.Context(), sg.ID)
		return err == nil && final
	}, 5*time.Minute, 50*time.Millisecond, "the game graded whole")
	stop()
	<-done

	rv, err := e.s.BoardReview(t.Context(), sg.ID, e.fake.GuildID, "en")
	require.NoError(t, err)
	events, err := e.db.Events(t.Context(), sg.ID)
	require.NoError(t, err)
	g, err := table.Replay(e.stored(sg.ID), events)
	require.NoError(t, err)
	rolls := ai.Rolls(g)
	stored, final, err := e.db.Grades(t.Context(), sg.ID)
	require.NoError(t, err)
	require.True(t, final)

	assert.Equal(t, sg.ID, rv.Game)
	assert.True(t, rv.Final)
	assert.Empty(t, rv.Note, "graded whole: nothing to wait for")
	assert.Equal(t, g.Winner().String(), rv.Winner)
	require.Len(t, rv.Seats, 2)
	assert.Equal(t, "Ann", rv.Seats[0].Name)
	assert.Regexp(t, `^\d+%$`, rv.Seats[0].Accuracy, "Ann graded")
	assert.Equal(t, "Computer (easy)", rv.Seats[1].Name)
	assert.Empty(t, rv.Seats[1].Accuracy, "the computer is not graded")

	require.Len(t, rv.Steps, len(rolls)+1, "every roll, then the end")
	graded, better, classes := 0, 0, map[string]int{}
	grades := map[int]gradeSeen{}
	for _, s := range stored {
		grades[s.Index] = gradeSeen{s.Move, s.Best, s.Loss, s.Options}
	}
	for i, r := range rolls {
		st := rv.Steps[i]
		assert.Equal(t, r.Turn, st.Turn)
		assert.Equal(t, r.Color.String(), st.Color)
		assert.Equal(t, r.Roll, st.Roll)
		assert.Contains(t, st.Head, "rolled a ")
		assert.True(t, strings.HasPrefix(st.Said, st.Head), "the words begin with the head: %q", st.Said)
		require.Len(t, st.Chances, 2)
		assert.InDelta(t, 1, st.Chances[0]+st.Chances[1], 0.02, "step %d: the chances add up", i)
		// The board is the one the roll was played from.
		for _, c := range []engine.Color{engine.Red, engine.Green} {
			assert.Equal(t, r.Position.Home(c), st.Board.Home[map[engine.Color]int{engine.Red: 0, engine.Green: 1}[c]], "step %d", i)
		}
		assert.Len(t, st.Board.Blocks, len(r.Position.Barricades()), "step %d", i)
		if r.Move == ai.NoMove {
			assert.Nil(t, st.Played, "a pass")
			assert.NotEmpty(t, st.Pass)
			continue
		}
		require.NotNil(t, st.Played, "step %d", i)
		assert.Equal(t, fromName(r.Move.From), st.Played.From)
		assert.Equal(t, r.Move.To.String(), st.Played.To)
		assert.Equal(t, r.Move.To.String(), st.Played.Path[len(st.Played.Path)-1], "the path ends where the pawn lands")
		if r.Move.From != engine.NoSquare {
			assert.Contains(t, squaresOf(st.Board.Pawns, r.Color.String()), st.Played.From, "step %d: the arrow starts at a pawn", i)
		} else {
			assert.Positive(t, st.Board.Home[colorIndex(r.Color)], "step %d: a pawn at home to bring out", i)
		}
		if r.Color == engine.Green {
			assert.Nil(t, st.Grade, "the computer's move is not graded")
			assert.NotEmpty(t, st.Note)
			assert.Nil(t, st.Better)
			continue
		}
		sgr, ok := grades[r.Index]
		require.True(t, ok, "step %d: Ann's roll graded", i)
		require.NotNil(t, st.Grade, "step %d", i)
		graded++
		classes[st.Grade.Class]++
		lost := int(math.Round(sgr.loss))
		wantClass := map[ai.Class]string{ai.ClassInaccuracy: table.ReviewInaccuracy, ai.ClassMistake: table.ReviewMistake,
			ai.ClassBlunder: table.ReviewBlunder}[ai.Classify(sgr.loss)]
		switch {
		case sgr.options <= 1:
			wantClass = table.ReviewForced
		case wantClass != "":
		case sgr.best == sgr.move || lost == 0:
			wantClass = table.ReviewBest
		default:
			wantClass = table.ReviewGood
		}
		assert.Equal(t, wantClass, st.Grade.Class, "step %d: lost %.2f", i, sgr.loss)
		if sgr.best != sgr.move && lost >= 1 && sgr.options > 1 {
			better++
			require.NotNil(t, st.Better, "step %d: the coach's better move", i)
			assert.NotEmpty(t, st.Better.Why, "step %d: the better move says why", i)
			assert.Equal(t, sgr.best, st.Better.From+"-"+st.Better.To+placeSuffix(st.Better.Place))
			assert.Contains(t, st.Said, "Better: "+st.Better.Text)
			assert.Equal(t, lost, st.Grade.Points)
			assert.Contains(t, st.Grade.Lost, "lost ")
		} else {
			assert.Nil(t, st.Better, "step %d: no better move worth a point", i)
		}
		// The next board shows the move made.
		if i+2 < len(rv.Steps) {
			assert.Contains(t, squaresOf(rv.Steps[i+1].Board.Pawns, st.Color), st.Played.To, "step %d: played", i)
		}
	}
	assert.Positive(t, graded)
	assert.Positive(t, better, "easy's choices miss the best move now and then: %v", classes)
	last := rv.Steps[len(rv.Steps)-1]
	assert.Nil(t, last.Played)
	assert.Contains(t, last.Head, "wins")
	assert.InDelta(t, 1, last.Chances[colorIndex(g.Winner())], 1e-9, "the winner has it all")
	require.NotEmpty(t, rv.Turning)
	for n, tp := range rv.Turning {
		assert.Equal(t, n+1, tp.Number)
		assert.Equal(t, tp.Number, rv.Steps[tp.Step].Turning)
		assert.Contains(t, tp.Text, "Turning point ")
	}

	again, err := e.s.BoardReview(t.Context(), sg.ID, e.fake.GuildID, "en")
	require.NoError(t, err)
	assert.Equal(t, rv, again, "the same review when asked again (kept, graded whole)")

	// The same review in German.
	de, err := e.s.BoardReview(t.Context(), sg.ID, e.fake.GuildID, "de")
	require.NoError(t, err)
	assert.NotEqual(t, rv.Steps[0].Head, de.Steps[0].Head)
	assert.Equal(t, "Computer (leicht)", de.Seats[1].Name)

	// Refused alike: a game of another guild, an ID no game has, a game
	// not finished.
	running := e.running()
	_, err = e.s.BoardReview(t.Context(), sg.ID, "999", "en")
	assertNotHere(t, err, sg.ID, "of another guild")
	_, err = e.s.BoardReview(t.Context(), 1<<40, e.fake.GuildID, "en")
	assertNotHere(t, err, 1<<40, "no such game")
	_, err = e.s.BoardReview(t.Context(), running, e.fake.GuildID, "en")
	assertNotHere(t, err, running, "not finished")
}

// gradeSeen is what of a stored grade the review's test checks.
type gradeSeen struct {
	move, best string
	loss       float64
	options    int
}

// assertNotHere checks that err is the refusal of a game the person may
// not read: "There is no game #id on this server", its log saying why.
func assertNotHere(t *testing.T, err error, id int64, why string) {
	t.Helper()
	var ref *table.Refusal
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, locales.ErrUnknownGame, ref.Key)
	text, refused := Refusal(err, "en")
	assert.True(t, refused)
	assert.Equal(t, locales.Tr("en", locales.ErrUnknownGame, id), text)
	assert.Contains(t, err.Error(), why)
}

// squaresOf are the squares of color's pawns among pawns.
func squaresOf(pawns []table.LivePiece, color string) []string {
	var out []string
	for _, p := range pawns {
		if p.Color == color {
			out = append(out, p.Square)
		}
	}
	return out
}

// colorIndex is the seat index of red and green in a two-seat game.
func colorIndex(c engine.Color) int {
	if c == engine.Green {
		return 1
	}
	return 0
}

// placeSuffix is a move's placement as engine.Move.String writes it.
func placeSuffix(place string) string {
	if place == "" {
		return ""
	}
	return "/" + place
}

// reviewMoves is how many moves Ann plays in the game reviewed.
const reviewMoves = 4

// playWith plays game id on the board as user, whose moves the computer
// of level chooses, until it ends or user has moved moves times: every
// play one commit.
func (e *env) playWith(id int64, user table.Actor, level ai.Level, moves int) {
	t := e.t
	t.Helper()
	mind, err := ai.New(level, 1)
	require.NoError(t, err)
	var place engine.Square
	for turn := 0; turn < 1000; turn++ {
		l := e.live(id, user)
		if l.Status != malefiz.StatusRunning {
			return
		}
		var g engine.Game
		require.NoError(t, g.UnmarshalSnapshot(e.stored(id).State))
		if moves == 0 && g.Phase() != engine.PhasePlace {
			return
		}
		cid := table.CustomID{Game: id, Turn: l.Turn}
		switch g.Phase() {
		case engine.PhaseRoll:
			cid.Action = table.ActRoll
		case engine.PhasePlace:
			cid.Action, cid.Arg = table.ActPlace, place.String()
		default:
			m := mind.Choose(g.Position(), g.Rolled(), g.Rules(), g.LegalMoves())
			cid.Action, cid.Arg, place = table.ActMove, fromName(m.From)+"-"+m.To.String(), m.Place
			moves--
		}
		_, err := e.s.Apply(t.Context(), Command{Game: id, Guild: e.fake.GuildID, User: user, Action: Play{ID: cid}})
		require.NoError(t, err, "turn %d: %+v", turn, cid)
	}
	t.Fatalf("game %d did not end in 1,000 plays", id)
}
