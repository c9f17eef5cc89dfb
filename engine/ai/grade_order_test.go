package ai

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// orderSeed seeds the games of TestGradingOrdersStrength.
const orderSeed = 4242

// orderGames is how many games TestGradingOrdersStrength grades.
const orderGames = 16

// orderGamesFile keeps TestGradingOrdersStrength's games, played once:
// playing them was a third of the test's time, grading them the rest.
const orderGamesFile = "testdata/order-games.json"

// orderChecks is how many decisions of each kept game
// TestGradingOrdersStrength plays again, spread over the game, to find
// the file out of date.
const orderChecks = 3

var updateOrderGames = flag.Bool("update-order-games", false,
	"play TestGradingOrdersStrength's games again and write "+orderGamesFile)

// orderGame is one of TestGradingOrdersStrength's games as orderGamesFile
// keeps it.
type orderGame struct {
	// Levels are the seats' levels, Red's first; Seed seeded the dice
	// and each decision's player (selfPlay).
	Levels []Level `json:"levels"`
	Seed   uint64  `json:"seed"`
	// Game is the game, as engine.Game's MarshalBinary writes it.
	Game json.RawMessage `json:"game"`
}

// TestGradingOrdersStrength grades every decision of both players in
// two-player games of master against hard (seats alternating, dice and
// players seeded from orderSeed): the coach's accuracy must be ordered with
// strength, master's own moves grading at least as well as hard's, in
// accuracy and in mean loss. Each game pairs the two players' means, and
// the log gives the 95 % interval of the difference over the games: with
// the 16 games, master − hard +1.0 points of accuracy (95 % +0.2 to +1.9)
// and −0.044 of mean loss (95 % −0.088 to +0.001). With hard's evaluation
// as the grader's, as before issue 42, the games of that time gave −2.8
// points (95 % −4.2 to −1.4) and the test failed.
//
// The games are played once and kept in orderGamesFile; the test plays
// orderChecks decisions of each again and fails when one is not the
// kept game's (master's or hard's play has changed): then
// -update-order-games plays them all again. MALEFIZ_ORDER_GAMES=N plays
// N games instead of reading the file.
func TestGradingOrdersStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("grades whole games")
	}
	games := orderGamesToGrade(t)
	n := len(games)
	type side struct {
		decisions int
		acc, loss float64
	}
	type result struct{ master, hard side }
	results := make([]result, n)
	inParallel(n, func(i int) {
		levels, g := games[i].levels, games[i].game
		gr := NewGrader()
		for _, r := range Rolls(g) {
			gd := gr.judge(r, g.Rules()) // Grade less the luck, which does not count here
			if !gd.Graded() {
				continue
			}
			s := &results[i].hard
			if levels[seatIndex(g, r.Color)] == Master {
				s = &results[i].master
			}
			s.decisions++
			s.acc += MoveAccuracy(gd.Loss)
			s.loss += gd.Loss
		}
	})
	var master, hard side
	var dAcc, dLoss []float64
	for i, r := range results {
		require.Positive(t, r.master.decisions, "game %d", i)
		require.Positive(t, r.hard.decisions, "game %d", i)
		for _, x := range []struct{ total, s *side }{{&master, &r.master}, {&hard, &r.hard}} {
			x.total.decisions += x.s.decisions
			x.total.acc += x.s.acc
			x.total.loss += x.s.loss
		}
		m, h := float64(r.master.decisions), float64(r.hard.decisions)
		dAcc = append(dAcc, r.master.acc/m-r.hard.acc/h)
		dLoss = append(dLoss, r.master.loss/m-r.hard.loss/h)
	}
	mAcc, hAcc := master.acc/float64(master.decisions), hard.acc/float64(hard.decisions)
	mLoss, hLoss := master.loss/float64(master.decisions), hard.loss/float64(hard.decisions)
	t.Logf("%d games: master %d decisions, accuracy %.1f %%, mean loss %.3f; hard %d decisions, accuracy %.1f %%, mean loss %.3f",
		n, master.decisions, mAcc, mLoss, hard.decisions, hAcc, hLoss)
	t.Logf("master − hard, per game: accuracy %s points, mean loss %s", interval(dAcc), interval(dLoss))
	assert.GreaterOrEqual(t, mAcc, hAcc, "master's accuracy against hard's")
	assert.LessOrEqual(t, mLoss, hLoss, "master's mean loss against hard's")
}

// interval writes the mean of xs with its 95 % interval (normal
// approximation).
func interval(xs []float64) string {
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	se := math.Sqrt(v / float64(len(xs)-1) / float64(len(xs)))
	return fmt.Sprintf("%+.3f (95 %% %+.3f to %+.3f)", mean, mean-1.96*se, mean+1.96*se)
}

// gradedGame is a game TestGradingOrdersStrength grades and its seats'
// levels.
type gradedGame struct {
	levels []Level
	game   *engine.Game
}

// orderLevels returns the seats' levels of TestGradingOrdersStrength's
// game i: master and hard, alternating which sits first.
func orderLevels(i int) []Level {
	if i%2 == 1 {
		return []Level{Hard, Master}
	}
	return []Level{Master, Hard}
}

// orderGamesToGrade returns TestGradingOrdersStrength's games: played
// now for MALEFIZ_ORDER_GAMES or -update-order-games (which writes them to
// orderGamesFile), else read from that file, orderChecks decisions of each
// played again to check it is still the game master and hard play.
func orderGamesToGrade(t *testing.T) []gradedGame {
	t.Helper()
	if n := envInt(t, "MALEFIZ_ORDER_GAMES", 0); n > 0 || *updateOrderGames {
		if n == 0 {
			n = orderGames
		}
		games := make([]gradedGame, n)
		kept := make([]orderGame, n)
		errs := make([]error, n)
		inParallel(n, func(i int) {
			levels, seed := orderLevels(i), splitmix(orderSeed, uint64(i))
			g, err := selfPlay(levels, seed)
			if err == nil {
				games[i] = gradedGame{levels, g}
				kept[i] = orderGame{Levels: levels, Seed: seed}
				kept[i].Game, err = g.MarshalBinary()
			}
			errs[i] = err
		})
		for i, err := range errs {
			require.NoError(t, err, "game %d", i)
		}
		if *updateOrderGames {
			data, err := json.MarshalIndent(kept, "", " ")
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(orderGamesFile, append(data, '\n'), 0o644))
		}
		return games
	}
	data, err := os.ReadFile(orderGamesFile)
	require.NoError(t, err)
	var kept []orderGame
	require.NoError(t, json.Unmarshal(data, &kept))
	require.Len(t, kept, orderGames)
	games := make([]gradedGame, len(kept))
	errs := make([]error, len(kept))
	inParallel(len(kept), func(i int) {
		k := kept[i]
		if !slices.Equal(k.Levels, orderLevels(i)) || k.Seed != splitmix(orderSeed, uint64(i)) {
			errs[i] = fmt.Errorf("levels %v and seed %d, not those of orderLevels and orderSeed", k.Levels, k.Seed)
			return
		}
		var g engine.Game
		if err := g.UnmarshalBinary(k.Game); err != nil {
			errs[i] = err
			return
		}
		games[i] = gradedGame{k.Levels, &g}
		var decisions []Roll
		for _, r := range Rolls(&g) {
			if r.Move != NoMove {
				decisions = append(decisions, r)
			}
		}
		for c := range orderChecks {
			r := decisions[(2*c+1)*len(decisions)/(2*orderChecks)]
			p, err := selfPlayer(k.Levels, k.Seed, &g, r.Color, r.Turn)
			if err != nil {
				errs[i] = err
				return
			}
			if m := p.Choose(r.Position, r.Roll, g.Rules(), r.Position.AppendMoves(nil, r.Roll, g.Rules())); m != r.Move {
				errs[i] = fmt.Errorf("turn %d: %s plays %s where the kept game has %s", r.Turn, k.Levels[seatIndex(&g, r.Color)], m, r.Move)
				return
			}
		}
	})
	for i, err := range errs {
		require.NoError(t, err, "%s, game %d (go test ./engine/ai -run TestGradingOrdersStrength -update-order-games plays them again)", orderGamesFile, i)
	}
	return games
}

// seatIndex returns c's seat in g, Red's first.
func seatIndex(g *engine.Game, c engine.Color) int {
	for i, x := range g.StartPosition().Players() {
		if x == c {
			return i
		}
	}
	return -1
}

// selfPlayer is the player selfPlay asks for colour c's decision at turn
// of g: its seat's level, seeded from seed and the turn.
func selfPlayer(levels []Level, seed uint64, g *engine.Game, c engine.Color, turn int) (Player, error) {
	return New(levels[seatIndex(g, c)], splitmix(seed, uint64(turn)))
}

// selfPlay plays one game between the levels (seats in order, Red
// first), the dice and each decision's player seeded from seed, as
// PlayRecord does, and returns it finished.
func selfPlay(levels []Level, seed uint64) (*engine.Game, error) {
	colors := []engine.Color{engine.Red, engine.Blue}
	if len(levels) > 2 {
		colors = []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}[:len(levels)]
	}
	g, err := engine.NewGame(colors, colors[0], engine.Rules{})
	if err != nil {
		return nil, err
	}
	dice := rand.New(rand.NewPCG(seed, 0x64696365))
	for !g.Over() {
		if g.TurnNumber() > maxRecordTurns {
			return nil, fmt.Errorf("seed %d: %w", seed, errNoWinner)
		}
		roll, err := g.Roll(engine.DiceFunc(func() int { return dice.IntN(maxRoll) + 1 }))
		if err != nil {
			return nil, err
		}
		moves := g.LegalMoves()
		if len(moves) == 0 {
			continue
		}
		p, err := selfPlayer(levels, seed, g, g.Turn(), g.TurnNumber())
		if err != nil {
			return nil, err
		}
		if err := g.Move(p.Choose(g.Position(), roll, g.Rules(), moves)); err != nil {
			return nil, err
		}
	}
	return g, nil
}
