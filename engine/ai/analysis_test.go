package ai

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// analysedGame plays a whole game between levels with a seeded die.
func analysedGame(t *testing.T, levels []Level, seed uint64) *engine.Game {
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
	// Flat chances swing only on the winning move: from a third to all.
	require.NotEmpty(t, a.Turning)
	assert.Equal(t, g.Winner(), a.Turning[0].Color)
	assert.InDelta(t, 1.0/3, a.Turning[0].Before, 1e-9)
	assert.Equal(t, 1.0, a.Turning[0].After)
	assert.InDelta(t, 0, a.Turning[1].Swing(), 1e-9)
}
