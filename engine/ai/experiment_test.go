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
	"strconv"
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
	loss := fitLogit(&w, samples(games, false)[0], mask)
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
	return duel(seed, i, func(p *hardPlayer, pos engine.Position, roll int, rules engine.Rules, moves []engine.Move, _ func(int) []int) engine.Move {
		p.model = m
		return p.Choose(pos, roll, rules, moves)
	})
}

// duel plays game i of seed between a player with expert's budget (Red in
// even games, Blue in odd ones), which moves with choose, and hard; it
// returns 1 when choose's side wins. coming(k) returns the next k rolls,
// not yet thrown; the dice are the same whether or not they are looked at.
func duel(seed uint64, i int, choose func(p *hardPlayer, pos engine.Position, roll int, rules engine.Rules, moves []engine.Move, coming func(k int) []int) engine.Move) int {
	colors := []engine.Color{engine.Red, engine.Blue}
	mine := colors[i%2]
	gameSeed := splitmix(seed, uint64(i))
	g, err := engine.NewGame(colors, colors[0], engine.Rules{})
	if err != nil {
		panic(err)
	}
	dice := rand.New(rand.NewPCG(gameSeed, 0))
	var drawn []int // drawn ahead, not yet rolled
	coming := func(k int) []int {
		for len(drawn) < k {
			drawn = append(drawn, dice.IntN(maxRoll)+1)
		}
		return drawn[:k]
	}
	roll := engine.DiceFunc(func() int {
		r := coming(1)[0]
		drawn = drawn[1:]
		return r
	})
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
		var m engine.Move
		if g.Turn() == mine {
			p.budget = expertBudget
			m = choose(p, g.Position(), r, g.Rules(), moves, coming)
		} else {
			m = p.Choose(g.Position(), r, g.Rules(), moves)
		}
		if err := g.Move(m); err != nil {
			panic(err)
		}
	}
	if g.Winner() == mine {
		return 1
	}
	return 0
}

// TestExperimentClairvoyance measures how much of a game between expert and
// hard the moves can decide: it plays MALEFIZ_EXP_MATCH (200) games of seed
// MALEFIZ_EXP_SEED (11) against hard three times, with expert seeing none,
// one or two of the coming rolls before it moves (the opponent's next roll,
// then its own after that), and logs each win rate:
//
//	MALEFIZ_EXP_MATCH=600 go test -tags experiment -run TestExperimentClairvoyance -v -timeout 1h ./engine/ai
//
// A player that knows the next roll is not a player the rules allow; what
// it wins bounds from above what a better search over the same evaluation
// can win, since the search's first chance node is exactly that roll.
func TestExperimentClairvoyance(t *testing.T) {
	n := envInt(t, "MALEFIZ_EXP_MATCH", 200)
	seed := uint64(envInt(t, "MALEFIZ_EXP_SEED", 11))
	for sees := range 3 {
		wins := make([]int, n)
		inParallel(n, func(i int) { wins[i] = clairvoyantGame(sees, seed, i) })
		won := 0
		for _, x := range wins {
			won += x
		}
		t.Logf("expert seeing %d coming roll(s) won %d of %d games against hard: %.1f %%", sees, won, n, 100*float64(won)/float64(n))
	}
}

// clairvoyantGame plays game i of seed between expert (Red in even games,
// Blue in odd ones), seeing the next sees rolls, and hard; it returns 1
// when expert wins. The dice are those of experimentGame.
func clairvoyantGame(sees int, seed uint64, i int) int {
	return duel(seed, i, func(p *hardPlayer, pos engine.Position, roll int, rules engine.Rules, moves []engine.Move, coming func(int) []int) engine.Move {
		p.model = learnedPlay
		if sees == 0 {
			return p.Choose(pos, roll, rules, moves)
		}
		return p.chooseSeeing(pos, roll, rules, moves, coming(sees))
	})
}

// chooseSeeing is Choose for a two-player game when the next rolls are
// known: the opponent's reply to each candidate is searched for its known
// roll only, and then, if the player's own roll after it is known too, so
// is the player's answer; an unknown roll is averaged over as Choose does.
func (p *hardPlayer) chooseSeeing(pos engine.Position, roll int, rules engine.Rules, moves []engine.Move, next []int) engine.Move {
	s, cands, m, decided := p.begin(pos, roll, rules, moves)
	if decided {
		return m
	}
	for i := range cands {
		b := pos
		b.Play(cands[i].move, roll, rules)
		if b.Over() {
			cands[i].value = 1
			continue
		}
		nb, _ := s.reply(&b, next[0], p.budget.replyPlacements)
		switch {
		case nb.Over():
			cands[i].value = s.expect(&nb, 0)
		case len(next) == 1:
			cands[i].value = s.expect(&nb, p.budget.depth-1)
		default:
			nb2, ch := s.reply(&nb, next[1], p.budget.deepPlacements)
			cands[i].value = ch[s.me]
			if nb2.Over() {
				cands[i].value = s.expect(&nb2, 0)
			}
		}
	}
	return cands[pickBest(p.rng, len(cands), func(i int) float64 { return cands[i].value })].move
}
