package ai

import (
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// maxTestTurns ends a test game that has found no winner: games end long before.
const maxTestTurns = 5000

// playOut plays one game between the levels (seats in order, Red first)
// with dice, creating a player per decision seeded by playerSeed of the
// turn number, as the bot does. Before each move it calls visit with the
// game, the roll, the legal moves and the move chosen, which it checks is
// one of them. It returns the finished game.
func playOut(t testing.TB, levels []Level, rules engine.Rules, dice *rand.Rand, playerSeed func(turn int) uint64,
	visit func(g *engine.Game, roll int, moves []engine.Move, m engine.Move)) *engine.Game {
	t.Helper()
	colors := []engine.Color{engine.Red, engine.Blue}
	if len(levels) > 2 {
		colors = []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}[:len(levels)]
	}
	g, err := engine.NewGame(colors, engine.Red, rules)
	require.NoError(t, err)
	for !g.Over() {
		require.LessOrEqual(t, g.TurnNumber(), maxTestTurns, "no winner yet")
		roll, err := g.Roll(engine.DiceFunc(func() int { return dice.IntN(6) + 1 }))
		require.NoError(t, err)
		moves := g.LegalMoves()
		if len(moves) == 0 {
			continue
		}
		seat := slices.Index(colors, g.Turn())
		p, err := New(levels[seat], playerSeed(g.TurnNumber()))
		require.NoError(t, err)
		m := p.Choose(g.Position(), roll, g.Rules(), moves)
		require.Contains(t, moves, m, "%s chose %s for roll %d in %s", levels[seat], m, roll, g.Position())
		visit(g, roll, moves, m)
		require.NoError(t, g.Move(m))
	}
	return g
}

// playGame plays one game between the levels with dice and players seeded
// from seed. It returns the winner's seat and the moves played.
func playGame(t testing.TB, levels []Level, rules engine.Rules, seed uint64) (int, []engine.Move) {
	t.Helper()
	var played []engine.Move
	g := playOut(t, levels, rules, rand.New(rand.NewPCG(seed, 99)),
		func(turn int) uint64 { return seed*1000003 + uint64(turn) },
		func(_ *engine.Game, _ int, _ []engine.Move, m engine.Move) { played = append(played, m) })
	return slices.Index(g.Position().Players(), g.Winner()), played
}

// decision is a position and roll where a player must choose.
type decision struct {
	pos   engine.Position
	roll  int
	rules engine.Rules
	moves []engine.Move
}

// samplePositions plays a game between the levels and returns every
// every-th position with the roll that was made there and its legal moves.
func samplePositions(t testing.TB, levels []Level, rules engine.Rules, seed uint64, every int) []decision {
	t.Helper()
	var out []decision
	playOut(t, levels, rules, rand.New(rand.NewPCG(seed, 5)),
		func(turn int) uint64 { return seed + uint64(turn) },
		func(g *engine.Game, roll int, moves []engine.Move, _ engine.Move) {
			if g.TurnNumber()%every == 0 {
				out = append(out, decision{g.Position(), roll, rules, moves})
			}
		})
	return out
}

// envInt reads the environment variable name as a number, def when it is
// not set.
func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	require.NoError(t, err, name)
	return n
}

// inParallel calls f(0) to f(n-1) on every core.
func inParallel(n int, f func(i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Go(func() {
			for i := range jobs {
				f(i)
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}
