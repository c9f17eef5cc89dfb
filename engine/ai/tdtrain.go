package ai

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/malefiz-discord/malefiz/engine"
)

// TDTrainer learns master's evaluation by temporal-difference learning
// over self-play games, as TD-Gammon did: every seat plays the move its
// current evaluation likes best for the roll (the reply of hard's search,
// barricades placed on the search's squares), and after each game every
// position's estimate is moved towards its λ-return, the estimates of the
// positions after it discounted by λ and, at the end, the winner. The loss
// is the log loss of the chances (their softmax), so the step for a
// colour's weights is (target − estimate) × its features.
//
// Game i is seeded by the seed and i only and the games are learned from
// in order, one at a time, so a run split into sittings (saved with
// Marshal, resumed with ParseTDCheckpoint) ends with the same weights as
// one run.
type TDTrainer struct {
	// Model is the evaluation being learned.
	Model *TDModel
	// Info says how it was trained: the seed, the games learned from so
	// far, α, λ and the player counts.
	Info TDTrainInfo
}

// NewTDTrainer returns a trainer that starts from hard's evaluation.
func NewTDTrainer(seed uint64, alpha, lambda float64, players []int) *TDTrainer {
	return &TDTrainer{
		Model: hardTDModel(),
		Info:  TDTrainInfo{Seed: seed, Alpha: alpha, Lambda: lambda, Players: players},
	}
}

// TDGameStats describes one training game.
type TDGameStats struct {
	// Players is the number of players.
	Players int
	// Turns is how many positions the game had.
	Turns int
	// LogLoss is the mean log loss of the estimates, before the update,
	// against the winner.
	LogLoss float64
	// TDError is the mean squared difference between each estimate and
	// its λ-return, over the colours.
	TDError float64
}

// tdMaxTurns ends a training game that has found no winner; it is then
// not learned from.
const tdMaxTurns = 4000

// Step plays the next training game (game Info.Games), learns from it and
// returns what it saw.
func (t *TDTrainer) Step() (TDGameStats, error) {
	seen, winner, n, over, err := trainingGame(&t.Info,
		func(e *evaluator, rules engine.Rules) { e.td, e.rules = t.Model, rules },
		func(e *evaluator, b *engine.Position, rules engine.Rules) tdPosition { return e.tdFeatures(b, rules) })
	if err != nil {
		return TDGameStats{}, err
	}
	if !over {
		t.Info.Games++
		return TDGameStats{Players: n, Turns: len(seen)}, nil
	}
	st := t.learn(seen, winner) // at the rate of game Info.Games
	st.Players = n
	t.Info.Games++
	return st, nil
}

// learn moves the model's estimates of the positions seen towards their
// λ-returns; winner won the game.
func (t *TDTrainer) learn(seen []tdPosition, winner engine.Color) TDGameStats {
	w := t.Model.weightsFor(seen[0].n)
	est := make([][engine.NumColors]float64, len(seen))
	for j := range seen {
		est[j] = t.Model.probs(&seen[j])
	}
	// target by colour, running backwards from the end.
	var target [engine.NumColors]float64
	target[winner] = 1
	var grad [tdNumFeatures]float64
	st := TDGameStats{Turns: len(seen)}
	lambda := t.Info.Lambda
	for j := len(seen) - 1; j >= 0; j-- {
		p := &seen[j]
		for i := 0; i < p.n; i++ {
			c := p.order[i]
			d := target[c] - est[j][i]
			st.TDError += d * d
			if c == winner {
				st.LogLoss -= math.Log(max(est[j][i], 1e-12))
			}
			for k, x := range p.f[i] {
				grad[k] += d * x
			}
		}
		// The λ-return of the position before: this estimate, mixed with
		// this position's own target.
		var next [engine.NumColors]float64
		for i := 0; i < p.n; i++ {
			c := p.order[i]
			next[c] = (1-lambda)*est[j][i] + lambda*target[c]
		}
		target = next
	}
	for k := range grad {
		w[k] += t.Info.Alpha * grad[k] / float64(len(seen))
	}
	t.fillUntrained()
	st.LogLoss /= float64(len(seen))
	st.TDError /= float64(len(seen))
	return st
}

// fillUntrained gives the player counts that no training game has the
// weights of the nearest count that has, more players first: the default
// training, two players only, plays three and four by its weights (which
// measured better there than hard's evaluation; see the README).
func (t *TDTrainer) fillUntrained() {
	trained := func(n int) bool { return slices.Contains(t.Info.Players, n) }
	for n := 2; n <= engine.NumColors; n++ {
		if trained(n) {
			continue
		}
		for _, m := range []int{n + 1, n - 1, n + 2, n - 2} {
			if m >= 2 && m <= engine.NumColors && trained(m) {
				t.Model.Weights[n-2] = t.Model.Weights[m-2]
				break
			}
		}
	}
}

// Marshal writes the trainer's state, a checkpoint in the layout of
// td.json from which ParseTDCheckpoint resumes.
func (t *TDTrainer) Marshal() ([]byte, error) { return MarshalTDModel(t.Model, t.Info) }

// ParseTDCheckpoint resumes a trainer from a checkpoint written by
// Marshal.
func ParseTDCheckpoint(data []byte) (*TDTrainer, error) {
	m, info, err := ParseTDModel(data)
	if err != nil {
		return nil, err
	}
	if len(info.Players) == 0 {
		return nil, fmt.Errorf("td checkpoint: no player counts")
	}
	return &TDTrainer{Model: m, Info: info}, nil
}

// TDDuel measures model a against model b quickly, each seat playing the
// move its model likes best for the roll (the policy of training, no
// search): deals of dice for n players (2 to 4), each deal played n times
// with a's seat moving round the table, the others playing b, each seat
// throwing its own series of the deal. It returns a's share of the wins.
func TDDuel(a, b *TDModel, seed uint64, deals, n int) float64 {
	return duel(func(e *evaluator) { e.td = a }, func(e *evaluator) { e.td = b }, seed, deals, n)
}

// NNDuel measures the network a against the linear model b as TDDuel
// does: both without search, a's seat moving round the table.
func NNDuel(a *NNModel, b *TDModel, seed uint64, deals, n int) float64 {
	return duel(func(e *evaluator) { e.nn = a }, func(e *evaluator) { e.td = b }, seed, deals, n)
}

// duel is TDDuel with the evaluations that setA and setB give an
// evaluator.
func duel(setA, setB func(*evaluator), seed uint64, deals, n int) float64 {
	colors := []engine.Color{engine.Red, engine.Blue}
	if n > 2 {
		colors = []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}[:n]
	}
	won, games := 0, 0
	for d := range deals {
		for seat := range n {
			g, err := engine.NewGame(colors, colors[0], engine.Rules{})
			if err != nil {
				panic(err) // the colours are valid
			}
			pos := g.Position()
			var dice [engine.NumColors]*rand.Rand
			for k, c := range colors {
				dice[c] = rand.New(rand.NewPCG(splitmix(seed, uint64(d)), uint64(k)))
			}
			var ss [2]searcher
			for k, set := range []func(*evaluator){setA, setB} {
				e := newEvaluator(defaultParams)
				set(e)
				ss[k] = searcher{e: e, budget: defaultHardBudget}
			}
			for turns := 0; !pos.Over() && turns < tdMaxTurns; turns++ {
				k := 1
				if pos.Turn() == colors[seat] {
					k = 0
				}
				pos, _ = ss[k].reply(&pos, dice[pos.Turn()].IntN(maxRoll)+1, defaultHardBudget.replyPlacements)
			}
			games++
			if pos.Winner() == colors[seat] {
				won++
			}
		}
	}
	return float64(won) / float64(games)
}

// HardTDModel returns the learned evaluation's starting point, which
// scores as hard's evaluation does.
func HardTDModel() *TDModel { return hardTDModel() }
