//go:build experiment

package ai

// The experiment behind the package comment's paragraph on evaluations
// fitted to hard's own games. It is too slow for the test suite (about 8
// minutes of both cores for the games, 3 for each match of 200), so it
// builds only with the experiment tag:
//
//	MALEFIZ_EXP_FEATURES=all go test -tags experiment -run TestExperimentHardGames -v -timeout 1h ./engine/ai
//
// It plays MALEFIZ_EXP_GAMES (600) two-player games of hard against hard
// (seed 100, no house rules; cached in MALEFIZ_EXP_CACHE when set), fits
// the two-player weights of the features MALEFIZ_EXP_FEATURES (all, play,
// lead or nosq) to their positions, and plays MALEFIZ_EXP_MATCH (200)
// games of expert's search with that model against hard (seed 11, colours
// alternating). MALEFIZ_EXP_POWER=k plays the power law time^-k instead.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// experimentMasks are the feature sets the experiment can fit.
var experimentMasks = map[string][numFeatures]bool{
	"all":  allFeatures,
	"play": playFeatures,
	"nosq": {true, true, true, true, true, true, true, false, true},
	"lead": {0: true, 2: true, 3: true, 8: true},
}

func TestExperimentHardGames(t *testing.T) {
	games := hardGames(t, envInt(t, "MALEFIZ_EXP_GAMES", 600), 100)
	name := os.Getenv("MALEFIZ_EXP_FEATURES")
	if name == "" {
		name = "all"
	}
	mask, ok := experimentMasks[name]
	require.True(t, ok, "MALEFIZ_EXP_FEATURES=%s", name)

	var w [numFeatures]float64
	w[0] = -defaultParams.power
	loss := fitLogit(&w, samples(games)[0], mask)
	t.Logf("features %s fitted to %d games: log loss %.4f, weights %.3f", name, len(games), loss, w)
	if p := os.Getenv("MALEFIZ_EXP_POWER"); p != "" {
		k, err := strconv.ParseFloat(p, 64)
		require.NoError(t, err)
		w = [numFeatures]float64{0: -k}
		t.Logf("playing the power law time^-%g instead", k)
	}
	m := *learnedPlay
	m.Weights[0] = w

	n := envInt(t, "MALEFIZ_EXP_MATCH", 200)
	if n == 0 {
		return
	}
	wins := make([]int, n)
	inParallel(n, func(i int) { wins[i] = experimentGame(&m, 11, i) })
	won := 0
	for _, x := range wins {
		won += x
	}
	t.Logf("expert with these weights won %d of %d games against hard: %.1f %%", won, n, 100*float64(won)/float64(n))
}

// hardGames plays (or reads from MALEFIZ_EXP_CACHE) n two-player games of
// hard against hard.
func hardGames(t *testing.T, n int, seed uint64) []GameRecord {
	var file string
	if dir := os.Getenv("MALEFIZ_EXP_CACHE"); dir != "" {
		file = fmt.Sprintf("%s/hard-hard-%d-%d.json", dir, seed, n)
		if data, err := os.ReadFile(file); err == nil {
			var games []GameRecord
			require.NoError(t, json.Unmarshal(data, &games))
			return games
		}
	}
	games := make([]GameRecord, n)
	errs := make([]error, n)
	inParallel(n, func(i int) {
		games[i], errs[i] = PlayRecord([]Level{Hard, Hard}, engine.Rules{}, splitmix(seed, uint64(i)))
	})
	for _, err := range errs {
		require.NoError(t, err)
	}
	if file != "" {
		data, err := json.Marshal(games)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(file, data, 0o644))
	}
	return games
}

// experimentGame plays game i of seed between expert's search with model
// m (Red in even games, Blue in odd ones) and hard; it returns 1 when the
// model's side wins.
func experimentGame(m *Model, seed uint64, i int) int {
	colors := []engine.Color{engine.Red, engine.Blue}
	mine := colors[i%2]
	gameSeed := splitmix(seed, uint64(i))
	g, err := engine.NewGame(colors, colors[0], engine.Rules{})
	if err != nil {
		panic(err)
	}
	dice := rand.New(rand.NewPCG(gameSeed, 0))
	roll := engine.DiceFunc(func() int { return dice.IntN(maxRoll) + 1 })
	for !g.Over() {
		r, err := g.Roll(roll)
		if err != nil {
			panic(err)
		}
		moves := g.LegalMoves()
		if len(moves) == 0 {
			continue
		}
		rng := rand.New(rand.NewPCG(splitmix(gameSeed, uint64(g.TurnNumber())), 1))
		p := &hardPlayer{rng: rng, budget: defaultHardBudget, p: defaultParams}
		if g.Turn() == mine {
			p.budget, p.model = expertBudget, m
		}
		if err := g.Move(p.Choose(g.Position(), r, g.Rules(), moves)); err != nil {
			panic(err)
		}
	}
	if g.Winner() == mine {
		return 1
	}
	return 0
}

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
