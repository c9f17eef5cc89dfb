package table

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// reviewed is a whole game of two computers (playedOut), its first seat
// then taken to be Ann's, replayed from its log, with grades for each of
// red's rolls in turn: a blunder with another move best, the best move, a
// move the roll forced, and a move that lost a point.
func reviewed(t testing.TB) (*Table, *engine.Game, []ai.Grade) {
	t.Helper()
	tb, log := playedOut(t)
	g, err := Replay(tb.Game, append(log, tb.Events...)) // the last change's too
	require.NoError(t, err)
	tb.Game.Seats[0] = malefiz.Seat{Color: tb.Game.Seats[0].Color, UserID: ann.UserID, Name: ann.Name}
	tb.Game.Status = malefiz.StatusFinished
	var grades []ai.Grade
	k := 0
	for _, r := range ai.Rolls(g) {
		if r.Color != engine.Red || r.Move == ai.NoMove {
			continue
		}
		gr := ai.Grade{Index: r.Index, Turn: r.Turn, Color: r.Color, Roll: r.Roll, Move: r.Move, Best: r.Move, Options: 3}
		other := ai.NoMove
		for _, m := range r.Position.Moves(r.Roll, g.Rules()) {
			if m.From != r.Move.From || m.To != r.Move.To {
				other = m
				break
			}
		}
		switch k % 4 {
		case 0:
			gr.Loss = 12
		case 1:
			gr.Loss, other = 0.2, ai.NoMove
		case 2:
			gr.Options, other = 1, ai.NoMove
		case 3:
			gr.Loss = 1.4
		}
		if other != ai.NoMove {
			gr.Best = other
		} else if gr.Loss > 0.5 {
			gr.Loss = 0 // the roll allowed one pawn move only
		}
		grades = append(grades, gr)
		k++
	}
	return tb, g, grades
}

// TestBoardReviewSteps: the review steps through every roll in order,
// the board before it, the move played with its path and reason; each of
// Ann's graded moves in the coach's class with what it lost, the better
// move only where one was worth a point; the computer's moves ungraded;
// the chances of each seat at every step and the turning points marked;
// the end last, with its board.
func TestBoardReviewSteps(t *testing.T) {
	tb, g, grades := reviewed(t)
	rv := tb.BoardReview("en", g, grades, true)
	rolls := ai.Rolls(g)
	require.Len(t, rv.Steps, len(rolls)+1)
	assert.Equal(t, g.Winner().String(), rv.Winner)
	assert.Empty(t, rv.Note)
	require.Len(t, rv.Seats, 2)
	assert.Equal(t, "Ann", rv.Seats[0].Name)
	assert.NotEmpty(t, rv.Seats[0].Accuracy)
	assert.True(t, rv.Seats[1].Computer)
	assert.Empty(t, rv.Seats[1].Accuracy)
	byIndex := map[int]ai.Grade{}
	for _, gr := range grades {
		byIndex[gr.Index] = gr
	}
	classes := map[string]int{}
	for i, r := range rolls {
		st := rv.Steps[i]
		require.Equal(t, r.Turn, st.Turn)
		require.Equal(t, r.Color.String(), st.Color)
		assert.Len(t, st.Chances, 2)
		assert.Len(t, st.Board.Blocks, len(r.Position.Barricades()))
		if r.Move == ai.NoMove {
			assert.NotEmpty(t, st.Pass)
			assert.Nil(t, st.Played)
			continue
		}
		require.NotNil(t, st.Played)
		assert.Equal(t, r.Move.To.String(), st.Played.To)
		assert.NotEmpty(t, st.Played.Path)
		if st.Better != nil {
			// A move the coach found a better one for is never "the best
			// the roll allows".
			assert.NotEqual(t, locales.Tr("en", locales.ReasonWaits), st.Played.Why)
			assert.NotEqual(t, locales.Tr("en", locales.ReasonForced), st.Played.Why)
			assert.NotEmpty(t, st.Better.Why)
		} else {
			assert.NotEmpty(t, st.Played.Why)
		}
		gr, graded := byIndex[r.Index]
		if !graded {
			assert.Nil(t, st.Grade)
			assert.Equal(t, "The coach grades the moves of people, not of computers.", st.Note)
			continue
		}
		require.NotNil(t, st.Grade)
		classes[st.Grade.Class]++
		switch {
		case gr.Options == 1:
			assert.Equal(t, ReviewForced, st.Grade.Class)
			assert.Equal(t, "Only move", st.Grade.Label)
			assert.Nil(t, st.Better)
		case gr.Loss == 12:
			assert.Equal(t, ReviewBlunder, st.Grade.Class)
			assert.Equal(t, "Blunder", st.Grade.Label)
			assert.Equal(t, "lost 12 points", st.Grade.Lost)
			require.NotNil(t, st.Better)
			assert.Equal(t, gr.Best.To.String(), st.Better.To)
			assert.Contains(t, st.Said, "Blunder, lost 12 points · Better: "+st.Better.Text)
		case gr.Loss == 1.4:
			assert.Equal(t, ReviewGood, st.Grade.Class)
			assert.Equal(t, "lost 1 point", st.Grade.Lost)
			require.NotNil(t, st.Better, "a point is worth showing")
		default:
			assert.Equal(t, ReviewBest, st.Grade.Class)
			assert.Empty(t, st.Grade.Lost)
			assert.Nil(t, st.Better, "nothing better by a point")
		}
	}
	assert.Positive(t, classes[ReviewBlunder])
	assert.Positive(t, classes[ReviewForced])
	assert.Positive(t, classes[ReviewBest])
	end := rv.Steps[len(rv.Steps)-1]
	assert.Nil(t, end.Played)
	assert.Equal(t, end.Head, end.Said)
	assert.Contains(t, end.Head, "wins!")
	assert.Contains(t, end.Board.Pawns, LivePiece{Color: g.Winner().String(), Square: engine.Goal.String()})
	require.Len(t, rv.Turning, turningPoints)
	for _, tp := range rv.Turning {
		assert.Equal(t, tp.Number, rv.Steps[tp.Step].Turning)
	}

	// Not graded whole yet: said so; in German, the words are German.
	de := tb.BoardReview("de", g, grades[:1], false)
	assert.Equal(t, locales.Tr("de", locales.ReviewGrading), de.Note)
	assert.NotEqual(t, locales.Tr("en", locales.ReviewGrading), de.Note)
	assert.Contains(t, de.Steps[0].Head, "Zug 1")
}

// BenchmarkBoardReview is the review of a whole game as the Activity asks
// for it: the chances along the game, every move's path and reason, the
// better moves' too.
func BenchmarkBoardReview(b *testing.B) {
	tb, g, grades := reviewed(b)
	b.Logf("%d rolls, %d graded", len(ai.Rolls(g)), len(grades))
	for b.Loop() {
		tb.BoardReview("en", g, grades, true)
	}
}

// TestOfferBoardReview: the answer of the verdict's Review gets Review on
// the board, launching the Activity, only where the bot serves it and the
// game is finished.
func TestOfferBoardReview(t *testing.T) {
	for _, c := range []struct {
		name     string
		activity bool
		status   malefiz.Status
		want     bool
	}{
		{"served, finished", true, malefiz.StatusFinished, true},
		{"not served", false, malefiz.StatusFinished, false},
		{"cancelled", true, malefiz.StatusCancelled, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := &Table{Game: &malefiz.Game{ID: 12, Status: c.status}, Activity: c.activity,
				Reply: &Reply{Kind: Private, Message: Text("review")}}
			tb.OfferBoardReview("de")
			if !c.want {
				assert.Empty(t, tb.Reply.Message.Rows)
				return
			}
			require.Len(t, tb.Reply.Message.Rows, 1)
			b := tb.Reply.Message.Rows[0].Buttons[0]
			assert.Equal(t, "mf/board/12/0", b.CustomID)
			assert.Equal(t, locales.Tr("de", locales.ButtonReviewBoard), b.Label)
		})
	}
}
