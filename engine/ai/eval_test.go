package ai

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

func mustPosition(tb testing.TB, text string) engine.Position {
	tb.Helper()
	p, err := engine.ParsePosition(text)
	require.NoError(tb, err)
	return p
}

const midGame = "players=rgyb turn=g r=c1,e5,h11 g=g1,g4,k5,m7 y=k3,o5 b=q2,n11 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i13,c13"

func BenchmarkValueTable(b *testing.B) {
	pos := mustPosition(b, midGame)
	bars := pos.BarricadeSet()
	e := newEvaluator(defaultParams)
	var t valueTable
	for b.Loop() {
		e.compute(&bars, &t)
	}
}

// BenchmarkPlacementTables computes, one after another, the value tables
// a search asks for when a barricade is captured in midGame: each
// barricade moved to each square a barricade may take, one table each.
func BenchmarkPlacementTables(b *testing.B) {
	pos := mustPosition(b, midGame)
	bars := pos.BarricadeSet()
	var sets []engine.SquareSet
	bars.Each(func(from engine.Square) {
		for q := engine.Square(0); q < engine.NumSquares; q++ {
			if pos.At(q) == engine.Empty && q != engine.Goal && !bars.Has(q) {
				s := bars
				s.Remove(from)
				s.Add(q)
				sets = append(sets, s)
			}
		}
	})
	e := newEvaluator(defaultParams)
	var t valueTable
	i := 0
	for b.Loop() {
		e.compute(&sets[i%len(sets)], &t)
		i++
	}
}

func BenchmarkChances(b *testing.B) {
	pos := mustPosition(b, midGame)
	e := newEvaluator(defaultParams)
	for b.Loop() {
		e.chances(&pos)
	}
}

// valueIteration computes a value table the slow way, by repeating
// v(s) = min over waiting sets of the Bellman equation until it settles.
func valueIteration(bars *engine.SquareSet) [engine.NumSquares]float64 {
	var v [engine.NumSquares]float64
	var reach [engine.NumSquares][maxRoll + 1]engine.SquareSet
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		v[s] = unreachable
		reachFrom(*bars, engine.Paths(s), &reach[s])
	}
	v[engine.Goal] = 0
	for iter := 0; iter < 10000; iter++ {
		changed := false
		for s := engine.Square(0); s < engine.NumSquares; s++ {
			if s == engine.Goal {
				continue
			}
			var m [maxRoll]float64
			for d := 1; d <= maxRoll; d++ {
				m[d-1] = math.Inf(1)
				reach[s][d].Each(func(q engine.Square) {
					if v[q] < unreachable {
						m[d-1] = min(m[d-1], v[q])
					}
				})
			}
			nv := min(solve(m), unreachable)
			if math.Abs(nv-v[s]) > 1e-12 {
				v[s], changed = nv, true
			}
		}
		if !changed {
			break
		}
	}
	return v
}

func TestValueTableMatchesValueIteration(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	e := newEvaluator(defaultParams)
	for trial := 0; trial < 30; trial++ {
		var bars engine.SquareSet
		for bars.Len() < 11 {
			q := engine.Square(rng.IntN(engine.NumSquares))
			if q != engine.Goal && q.Row() > 1 {
				bars.Add(q)
			}
		}
		want := valueIteration(&bars)
		got := e.table(bars)
		for s := range want {
			require.InDelta(t, want[s], got.sq[s], 1e-9, "barricades %v: value of %s", bars, engine.Square(s))
		}
	}
}
