package ai

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

func TestGrade(t *testing.T) {
	const bars = "a3,e3,i3,m3,q3,g7,k7,i9"
	tests := []struct {
		name      string
		position  string
		roll      int
		move      string
		wantClass Class
		wantBest  string // "" when any best move will do
		graded    bool
	}{
		{
			name:     "the winning move loses nothing",
			position: "players=rb turn=r r=h13,c5 b=j13 x=" + bars + ",i10,i11",
			roll:     2, move: "h13-i14",
			wantClass: ClassNone, wantBest: "h13-i14", graded: true,
		},
		{
			name:     "missing the goal is a blunder",
			position: "players=rb turn=r r=h13,c5 b=j13 x=" + bars + ",i10,i11",
			roll:     2, move: "c5-e5",
			wantClass: ClassBlunder, wantBest: "h13-i14", graded: true,
		},
		{
			name:     "the barricade in front of the pawn two steps from the goal",
			position: "players=rb turn=r r=i10 b=h13 x=" + bars + ",i11",
			roll:     1, move: "i10-i11/i13",
			wantClass: ClassNone, wantBest: "i10-i11/i13", graded: true,
		},
		{
			name:     "the barricade far from the pawn two steps from the goal",
			position: "players=rb turn=r r=i10 b=h13 x=" + bars + ",i11",
			roll:     1, move: "i10-i11/m2",
			wantClass: ClassBlunder, wantBest: "i10-i11/i13", graded: true,
		},
		{
			name:     "one way to go is no decision",
			position: "start",
			roll:     1, move: "home-c1",
			wantClass: ClassNone, graded: false,
		},
	}
	gr := NewGrader()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := mustPosition(t, tt.position)
			m, err := engine.ParseMove(tt.move)
			require.NoError(t, err)
			require.Contains(t, pos.Moves(tt.roll, engine.Rules{}), m, "a legal move")
			g := gr.Grade(Roll{Turn: 1, Color: pos.Turn(), Roll: tt.roll, Position: pos, Move: m}, engine.Rules{})
			t.Logf("%s: loss %.2f, best %s (%.1f), luck %+.1f, %d options", tt.move, g.Loss, g.Best, g.Chance, g.Luck, g.Options)
			assert.Equal(t, tt.graded, g.Graded(), "graded (%d options)", g.Options)
			assert.Equal(t, tt.wantClass, g.Class(), "class of a loss of %.2f", g.Loss)
			if tt.wantBest != "" {
				assert.Equal(t, tt.wantBest, g.Best.String(), "best")
			}
			if g.Best == m {
				assert.Zero(t, g.Loss, "the best move loses nothing")
			}
			assert.GreaterOrEqual(t, g.Loss, 0.0)
		})
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		name string
		loss float64
		want Class
	}{
		{"best", 0, ClassNone},
		{"reads 1 point", 1.49, ClassNone},
		{"reads 2 points", 1.5, ClassInaccuracy},
		{"inaccuracy", InaccuracyLoss, ClassInaccuracy},
		{"reads 4 points", 4.49, ClassInaccuracy},
		{"reads 5 points", 4.89, ClassMistake},
		{"mistake", MistakeLoss, ClassMistake},
		{"reads 9 points", 9.49, ClassMistake},
		{"reads 10 points", 9.5, ClassBlunder},
		{"blunder", BlunderLoss, ClassBlunder},
		{"worse", 60, ClassBlunder},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Classify(tt.loss), "%.2f reads %d points", tt.loss, Points(tt.loss))
		})
	}
}

func TestMoveAccuracy(t *testing.T) {
	assert.InDelta(t, 100, MoveAccuracy(0), 1e-9, "the best move")
	assert.InDelta(t, 100, MoveAccuracy(-1), 1e-9, "never above 100")
	assert.InDelta(t, 36.8, MoveAccuracy(accuracyScale), 0.1, "1/e at the scale")
	assert.Greater(t, MoveAccuracy(1), MoveAccuracy(2), "falls with the loss")
}

// TestGradeGame grades a whole game between normal and easy: every move and
// pass is graded once, in order, losses are never negative, the best moves
// lose nothing, the luck of the rolls of one position averages to zero, and
// the summary counts what the grades hold.
func TestGradeGame(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a whole game")
	}
	g := playOut(t, []Level{Normal, Easy}, engine.Rules{}, rand.New(rand.NewPCG(3, 99)),
		func(turn int) uint64 { return uint64(turn) }, func(*engine.Game, int, []engine.Move, engine.Move) {})
	grades := NewGrader().GradeGame(g)
	rolls := Rolls(g)
	require.Len(t, grades, len(rolls))
	moves := 0
	for _, r := range g.History() {
		if r.Kind == engine.RecordMove || r.Kind == engine.RecordPass {
			moves++
		}
	}
	require.Equal(t, moves, len(grades), "one grade per move or pass")
	for i, gr := range grades {
		require.Equal(t, rolls[i].Index, gr.Index)
		require.GreaterOrEqual(t, gr.Loss, 0.0, "turn %d", gr.Turn)
		if gr.Move == gr.Best {
			require.Zero(t, gr.Loss, "turn %d: the best move", gr.Turn)
		}
	}
	for _, c := range g.StartPosition().Players() {
		s := Summarise(grades, c)
		t.Logf("%s: %d decisions, accuracy %.1f, mean loss %.2f, %d/%d/%d, luck %+.1f", c, s.Decisions, s.Accuracy, s.Loss, s.Inaccuracies, s.Mistakes, s.Blunders, s.Luck)
		assert.Positive(t, s.Decisions)
		assert.LessOrEqual(t, s.Inaccuracies+s.Mistakes+s.Blunders, s.Decisions)
		worst := Worst(grades, c, 3)
		for i := 1; i < len(worst); i++ {
			assert.GreaterOrEqual(t, worst[i-1].Loss, worst[i].Loss, "worst first")
		}
	}
	red, blue := Summarise(grades, engine.Red), Summarise(grades, engine.Blue)
	assert.Greater(t, red.Accuracy, blue.Accuracy, "normal plays more accurately than easy")
}

// BenchmarkGrade grades one roll of each sampled mid-game decision (see
// benchDecisions) and reports the mean, the 95th percentile and the worst,
// in milliseconds: the background work a human's move costs; and the mean
// and 95th percentile of the evaluator's work, a measure of the search
// that does not depend on the machine (the rollouts that confirm a
// mistake aside).
func BenchmarkGrade(b *testing.B) {
	decisions := benchDecisions(b)
	var times []time.Duration
	var works []int
	b.ResetTimer()
	for b.Loop() {
		gr := NewGrader()
		for _, d := range decisions {
			p, _ := New(Normal, 1)
			m := p.Choose(d.pos, d.roll, d.rules, d.moves)
			start := time.Now()
			gr.Grade(Roll{Turn: 1, Color: d.pos.Turn(), Roll: d.roll, Position: d.pos, Move: m}, d.rules)
			times = append(times, time.Since(start))
			works = append(works, gr.work)
		}
	}
	slices.Sort(times)
	slices.Sort(works)
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	work := 0
	for _, w := range works {
		work += w
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(sum)/float64(len(times)), "mean-ms")
	b.ReportMetric(ms(times[len(times)*95/100]), "p95-ms")
	b.ReportMetric(ms(times[len(times)-1]), "max-ms")
	b.ReportMetric(float64(work)/float64(len(works)), "mean-work")
	b.ReportMetric(float64(works[len(works)*95/100]), "p95-work")
}

// BenchmarkBest finds the coach's best move (the hint) for each sampled
// mid-game decision (see benchDecisions) and reports the mean, the 95th
// percentile and the worst, in milliseconds: what a click on Hint waits
// for.
func BenchmarkBest(b *testing.B) {
	decisions := benchDecisions(b)
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		gr := NewGrader()
		for _, d := range decisions {
			start := time.Now()
			gr.Best(d.pos, d.roll, d.rules)
			times = append(times, time.Since(start))
		}
	}
	slices.Sort(times)
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(sum)/float64(len(times)), "mean-ms")
	b.ReportMetric(ms(times[len(times)*95/100]), "p95-ms")
	b.ReportMetric(ms(times[len(times)-1]), "max-ms")
}

// TestOneAdviser checks that the coach gives one piece of advice: on
// positions of a game with barricades to take, the hint (Best) is the
// better move every grade of another move names (Grade.Best), and when
// the hint takes a barricade, its square is the first suggested for that
// move (Placements).
func TestOneAdviser(t *testing.T) {
	if testing.Short() {
		t.Skip("grades many moves")
	}
	var captures, others []decision
	for _, d := range samplePositions(t, []Level{Normal, Greedy}, engine.Rules{}, 5, 2) {
		if outcomes(d.pos, d.roll, d.rules, d.moves) <= 1 {
			continue
		}
		if slices.ContainsFunc(d.moves, func(m engine.Move) bool { return m.Place != engine.NoSquare }) {
			captures = append(captures, d)
		} else {
			others = append(others, d)
		}
	}
	require.NotEmpty(t, captures, "positions with a barricade to take")
	gr := NewGrader()
	// The positions whose hint takes a barricade, up to four, and three
	// without a barricade to take.
	var decisions []decision
	for _, d := range captures {
		if hint := gr.Best(d.pos, d.roll, d.rules); hint.Place != engine.NoSquare && len(decisions) < 4 {
			decisions = append(decisions, d)
		}
	}
	decisions = append(decisions, others[:min(3, len(others))]...)
	hinted := 0
	for _, d := range decisions {
		hint := gr.Best(d.pos, d.roll, d.rules)
		require.Contains(t, d.moves, hint, "%s, roll %d", d.pos, d.roll)
		// Every pawn move's first and last placement, as a player might
		// pick them.
		tried := map[engine.Move]bool{}
		for _, grp := range groupMoves(d.moves) {
			for _, m := range []engine.Move{grp.moves[0], grp.moves[len(grp.moves)-1]} {
				if tried[m] {
					continue
				}
				tried[m] = true
				g := gr.Grade(Roll{Turn: 1, Color: d.pos.Turn(), Roll: d.roll, Position: d.pos, Move: m}, d.rules)
				if g.Best == m {
					assert.Zero(t, g.Loss, "%s: the best move loses nothing", m)
					continue
				}
				assert.Equal(t, hint, g.Best, "%s, roll %d: the review's better move for %s is the hint", d.pos, d.roll, m)
			}
		}
		if hint.Place != engine.NoSquare {
			hinted++
			pending := hint
			pending.Place = engine.NoSquare
			legal := d.pos.PlacementSquares(pending.From, pending.To, d.rules)
			ps := gr.Placements(d.pos, d.rules, d.roll, pending, legal, 5)
			require.NotEmpty(t, ps)
			assert.Equal(t, hint.Place, ps[0].Square, "%s, roll %d: the hint's square is the first suggested (%+v)", d.pos, d.roll, ps)
			assert.Equal(t, ps, SuggestPlacements(d.pos, d.rules, d.roll, pending, legal, 5), "the same advice from a fresh grader")
		}
	}
	t.Logf("%d positions, %d hints that take a barricade", len(decisions), hinted)
	assert.GreaterOrEqual(t, hinted, 3, "hints that take a barricade")
}
