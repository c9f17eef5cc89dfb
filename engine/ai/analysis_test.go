package ai

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// analysedGame plays a whole game between levels with a seeded die.
func analysedGame(t testing.TB, levels []Level, seed uint64) *engine.Game {
	t.Helper()
	return playOut(t, levels, engine.Rules{}, rand.New(rand.NewPCG(seed, 3)),
		func(turn int) uint64 { return seed + uint64(turn) },
		func(*engine.Game, int, []engine.Move, engine.Move) {})
}

func TestAnalyseFindsTheLargestSwings(t *testing.T) {
	g := analysedGame(t, []Level{Normal, Greedy}, 7)
	a := Analyse(g, nil, 3)
	require.Equal(t, []engine.Color{engine.Red, engine.Blue}, a.Colors)
	require.Len(t, a.Turning, 3)

	// One point at the start and one per move.
	moves := 0
	for _, r := range g.History() {
		if r.Kind == engine.RecordMove {
			moves++
		}
	}
	require.Len(t, a.Points, moves+1)
	for i, p := range a.Points {
		assert.InDelta(t, 1, p.Chances[engine.Red]+p.Chances[engine.Blue], 1e-9, "point %d", i)
	}
	last := a.Points[len(a.Points)-1]
	assert.Equal(t, 1.0, last.Chances[g.Winner()], "the winner's chance at the end")

	// The turning points are the largest swings, in order, and no other
	// move swung its mover more than the third.
	for i := 1; i < len(a.Turning); i++ {
		assert.GreaterOrEqual(t, a.Turning[i-1].Swing(), a.Turning[i].Swing())
	}
	all := Analyse(g, nil, moves)
	require.Len(t, all.Turning, moves)
	assert.Equal(t, a.Turning, all.Turning[:3])
	for _, tp := range all.Turning[3:] {
		assert.LessOrEqual(t, tp.Swing(), a.Turning[2].Swing())
	}
	for _, tp := range a.Turning {
		assert.Positive(t, tp.Swing())
		assert.NotEqual(t, engine.NoColor, tp.Color)
	}
}

func TestAnalyseUsesTheGivenEstimator(t *testing.T) {
	g := analysedGame(t, []Level{Greedy, Greedy, Greedy}, 3)
	flat := func(pos engine.Position, _ engine.Rules) [engine.NumColors]float64 {
		var out [engine.NumColors]float64
		for _, c := range pos.Players() {
			out[c] = 1 / float64(len(pos.Players()))
		}
		return out
	}
	a := Analyse(g, flat, 3)
	// Flat chances swing only on the winning move: from a third to all,
	// all of it the roll's luck, the move being the best.
	require.NotEmpty(t, a.Turning)
	win := a.Turning[0]
	assert.Equal(t, g.Winner(), win.Color)
	assert.InDelta(t, 1.0/3, win.Prior, 1e-9)
	assert.Equal(t, 1.0, win.Before)
	assert.Equal(t, 1.0, win.After)
	assert.InDelta(t, 2.0/3, win.Luck(), 1e-9)
	assert.Zero(t, win.Choice())
	assert.Equal(t, win.Move, win.Best)
	assert.Equal(t, ReasonWins, win.Why.Kind)
	assert.InDelta(t, 0, a.Turning[1].Swing(), 1e-9)
}

// TestSteadyChancesTakeTheTempoOut checks the first entry of the game: a
// pawn out of the house is no lead while the others' entries are still to
// come, so the steady chance barely moves where WinChances jumps.
func TestSteadyChancesTakeTheTempoOut(t *testing.T) {
	start := engine.StartPosition()
	rules := engine.Rules{}
	mover := start.Turn()
	for roll := 1; roll <= engine.MaxRoll; roll++ {
		next := start
		m := start.Moves(roll, rules)[0]
		next.Play(m, roll, rules)
		raw := WinChances(next, rules)[mover] - WinChances(start, rules)[mover]
		steady := SteadyChances(next, rules)[mover] - SteadyChances(start, rules)[mover]
		assert.Less(t, math.Abs(steady), 0.1, "roll %d %s: steady %+.3f", roll, m, steady)
		assert.Less(t, math.Abs(steady), math.Abs(raw)/2, "roll %d %s: steady %+.3f, raw %+.3f", roll, m, steady, raw)
	}
	sum := 0.0
	for _, c := range SteadyChances(start, rules) {
		sum += c
	}
	assert.InDelta(t, 1, sum, 1e-9)
}

// TestTurningPointsAreNotTheOpening plays games and checks that the
// turning points are not the pawns' first steps out of the house, as they
// are with WinChances alone (19 of 24 in the first six turns of these
// games; 6 with SteadyChances, most of them barricades taken early).
func TestTurningPointsAreNotTheOpening(t *testing.T) {
	early := func(est Estimator) (n, all int) {
		for seed := uint64(1); seed <= 8; seed++ {
			g := analysedGame(t, []Level{Normal, Greedy}, seed)
			for _, tp := range Analyse(g, est, 3).Turning {
				all++
				if tp.Turn <= 6 {
					n++
				}
			}
		}
		return n, all
	}
	steady, all := early(SteadyChances)
	raw, _ := early(WinChances)
	assert.LessOrEqual(t, steady, all/3, "%d of %d turning points in the first six turns", steady, all)
	assert.Less(t, 2*steady, raw, "steady %d, WinChances %d of %d in the first six turns", steady, raw, all)
}

// TestTurningPointsSplitLuckFromChoice analyses games of easy against hard
// move by move: the chance after the roll (the best move's) is never below
// the chance after the move played, the parts add up to the swing, and
// easy's choices lose more than hard's.
func TestTurningPointsSplitLuckFromChoice(t *testing.T) {
	loss := map[Level]float64{}
	moves := map[Level]int{}
	for seed := uint64(1); seed <= 3; seed++ {
		levels := []Level{Easy, Hard}
		g := analysedGame(t, levels, seed)
		all := Analyse(g, nil, 1000)
		require.NotEmpty(t, all.Turning)
		for _, tp := range all.Turning {
			require.GreaterOrEqual(t, tp.Before, tp.After, "turn %d %s: the best move %s is not worse than %s", tp.Turn, tp.Color, tp.Best, tp.Move)
			assert.InDelta(t, tp.After-tp.Prior, tp.Luck()+tp.Choice(), 1e-12)
			if tp.Move == tp.Best {
				assert.Zero(t, tp.Choice(), "turn %d: the best move loses nothing", tp.Turn)
			}
			assert.NotEqual(t, ReasonNone, tp.Why.Kind, "turn %d %s: what the move did", tp.Turn, tp.Move)
			l := levels[0]
			if tp.Color != engine.Red {
				l = levels[1]
			}
			loss[l] -= tp.Choice()
			moves[l]++
		}
	}
	easy, hard := loss[Easy]/float64(moves[Easy]), loss[Hard]/float64(moves[Hard])
	t.Logf("mean loss per move: easy %.2f points (%d moves), hard %.2f points (%d moves)", 100*easy, moves[Easy], 100*hard, moves[Hard])
	assert.Greater(t, easy, 2*hard, "easy's moves lose more than hard's")
}

// BenchmarkAnalyse analyses a whole four-player game of normal players, as
// a finished game's result does before it is committed: the chances after
// every move, and the best move of every roll for the turning points.
func BenchmarkAnalyse(b *testing.B) {
	g := analysedGame(b, []Level{Normal, Normal, Normal, Normal}, 5)
	moves := 0
	for _, r := range g.History() {
		if r.Kind == engine.RecordMove {
			moves++
		}
	}
	for b.Loop() {
		Analyse(g, nil, 3)
	}
	b.ReportMetric(float64(moves), "moves")
}
