package ai

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/malefiz-discord/malefiz/engine"
)

// NNTrainer learns a network evaluation (NNModel) by TD(λ) over self-play
// games, as TDTrainer learns the linear one and TD-Gammon learned
// backgammon: every seat plays the move the network likes best for the
// roll (the reply of hard's search, without the search), or with a small
// chance a random legal move, and after each game every position's
// chances are moved towards their λ-return by a step of gradient descent
// on their log loss, backpropagated through the hidden layer. The
// learning rate decays as α/(1 + games/Decay), and the weights that play
// are the running mean of the weights after each game, over the last
// Average games at most.
//
// Game i is seeded by the seed and i only and the games are learned from
// in order, so a run split into sittings (Marshal, ParseNNCheckpoint) ends
// with the same weights as one run.
type NNTrainer struct {
	// Model is the network being learned.
	Model *NNModel
	// Average is the running average of its weights, which plays.
	Average *NNModel
	// Info says how it is trained.
	Info TDTrainInfo
	grad *NNModel // scratch: the gradient of a game
}

// NNTrainConfig is how an NNTrainer trains.
type NNTrainConfig struct {
	// Seed seeds the games and the network's first weights.
	Seed uint64
	// Alpha is the learning rate at the start, Decay the games after
	// which it has halved.
	Alpha, Decay float64
	// Lambda is TD(λ)'s λ.
	Lambda float64
	// Average is how many games the weights that play are averaged over
	// at most.
	Average int
	// Explore is the chance of a random move in a training game.
	Explore float64
	// Players are the player counts of the games, in turn.
	Players []int
	// ScaleGames is how many games of the linear model give the features'
	// mean and scale.
	ScaleGames int
}

// NewNNTrainer returns a trainer of a network over the linear model lin
// (the skip connection, fixed), which it starts as: the features are
// standardised by their mean and spread over cfg.ScaleGames games that
// lin plays against itself without search.
func NewNNTrainer(lin *TDModel, cfg NNTrainConfig) *NNTrainer {
	mean, scale := nnScaling(lin, cfg.Seed, max(cfg.ScaleGames, 1))
	m := newNNModel(lin, mean, scale, cfg.Players, cfg.Seed)
	avg := *m
	return &NNTrainer{
		Model: m, Average: &avg,
		Info: TDTrainInfo{Seed: cfg.Seed, Alpha: cfg.Alpha, Decay: cfg.Decay, Lambda: cfg.Lambda,
			Average: cfg.Average, Explore: cfg.Explore, Players: cfg.Players},
	}
}

// nnScaling returns the mean and standard deviation of each feature over
// the positions of games lin plays against itself without search (the
// scale 1 where a feature does not vary).
func nnScaling(lin *TDModel, seed uint64, games int) (mean, scale [tdNumFeatures]float64) {
	var sum, sq [tdNumFeatures]float64
	count := 0.0
	for i := range games {
		n := []int{2, 3, 4}[i%3]
		rules := engine.Rules{SixAgain: i&1 != 0, SafeRow2: i&2 != 0}
		e := newEvaluator(defaultParams)
		e.td, e.rules = lin, rules
		b, err := tdStart(n, rules)
		if err != nil {
			panic(err) // the colours are valid
		}
		dice := rand.New(rand.NewPCG(splitmix(seed, uint64(i)), 0x7363)) // "sc"
		s := searcher{e: e, rules: rules, budget: defaultHardBudget}
		for turns := 0; !b.Over() && turns < tdMaxTurns; turns++ {
			p := e.tdFeatures(&b, rules)
			for c := 0; c < p.n; c++ {
				for k, x := range p.f[c] {
					sum[k] += x
					sq[k] += x * x
				}
				count++
			}
			b, _ = s.reply(&b, dice.IntN(maxRoll)+1, defaultHardBudget.replyPlacements)
		}
	}
	for k := range mean {
		mean[k] = sum[k] / count
		v := sq[k]/count - mean[k]*mean[k]
		scale[k] = 1
		if v > 1e-9 {
			scale[k] = math.Sqrt(v)
		}
	}
	return mean, scale
}

// tdStart returns the first position of a game of n players under rules.
func tdStart(n int, rules engine.Rules) (engine.Position, error) {
	colors := []engine.Color{engine.Red, engine.Blue}
	if n > 2 {
		colors = []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}[:n]
	}
	g, err := engine.NewGame(colors, colors[0], rules)
	if err != nil {
		return engine.Position{}, err
	}
	return g.Position(), nil
}

// trainingGame plays game Info.Games of a TD(λ) series by self-play, as
// both trainers learn from it: the player count and the house rules
// cycle with the game's index, the dice and the random moves (a chance
// Info.Explore each) are seeded by the seed and the index only, and every
// other move is master's reply by the evaluator that use sets up (its
// model, under the game's rules). It returns what observe made of each
// position before its move, the winner and the player count; over is
// false for a game past tdMaxTurns, which is not learned from.
func trainingGame[P any](info *TDTrainInfo, use func(e *evaluator, rules engine.Rules), observe func(e *evaluator, b *engine.Position, rules engine.Rules) P) (seen []P, winner engine.Color, n int, over bool, err error) {
	i := info.Games
	n = info.Players[i%len(info.Players)]
	k := (i / len(info.Players)) % 4
	rules := engine.Rules{SixAgain: k&1 != 0, SafeRow2: k&2 != 0}
	b, err := tdStart(n, rules)
	if err != nil {
		return nil, engine.NoColor, n, false, err
	}
	dice := rand.New(rand.NewPCG(splitmix(info.Seed, uint64(i)), 0x7464))    // "td"
	explore := rand.New(rand.NewPCG(splitmix(info.Seed, uint64(i)), 0x6578)) // "ex"
	e := newEvaluator(defaultParams)
	use(e, rules)
	s := searcher{e: e, rules: rules, budget: defaultHardBudget}
	for !b.Over() {
		if len(seen) > tdMaxTurns {
			return seen, engine.NoColor, n, false, nil
		}
		seen = append(seen, observe(e, &b, rules))
		if len(e.cache) > 4096 {
			clear(e.cache)
		}
		roll := dice.IntN(maxRoll) + 1
		if info.Explore > 0 && explore.Float64() < info.Explore {
			if moves := b.Moves(roll, rules); len(moves) > 0 {
				b.Play(moves[explore.IntN(len(moves))], roll, rules)
				continue
			}
		}
		b, _ = s.reply(&b, roll, defaultHardBudget.replyPlacements)
	}
	return seen, b.Winner(), n, true, nil
}

// Step plays the next training game (game Info.Games), learns from it and
// returns what it saw.
func (t *NNTrainer) Step() (TDGameStats, error) {
	seen, winner, n, over, err := trainingGame(&t.Info,
		func(e *evaluator, rules engine.Rules) { e.nn, e.rules = t.Model, rules },
		func(e *evaluator, b *engine.Position, rules engine.Rules) nnPosition {
			return t.Model.inputs(e, b, rules)
		})
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

// learn moves the network's chances of the positions seen towards their
// λ-returns; winner won the game. Then it updates the average.
func (t *NNTrainer) learn(seen []nnPosition, winner engine.Color) TDGameStats {
	m := t.Model
	est := make([][engine.NumColors]float64, len(seen))
	var h [engine.NumColors][nnHidden]float64
	for j := range seen {
		est[j] = m.probs(&seen[j], &h)
	}
	targets := make([][engine.NumColors]float64, len(seen))
	var target [engine.NumColors]float64 // by colour
	target[winner] = 1
	st := TDGameStats{Turns: len(seen)}
	lambda := t.Info.Lambda
	for j := len(seen) - 1; j >= 0; j-- {
		p := &seen[j].td
		var next [engine.NumColors]float64
		for i := 0; i < p.n; i++ {
			c := p.order[i]
			d := target[c] - est[j][i]
			st.TDError += d * d
			if c == winner {
				st.LogLoss -= math.Log(max(est[j][i], 1e-12))
			}
			targets[j][i] = target[c]
			next[c] = (1-lambda)*est[j][i] + lambda*target[c]
		}
		target = next
	}
	if t.grad == nil {
		t.grad = new(NNModel)
	}
	g := t.grad
	*g = NNModel{}
	m.lossGrad(seen, targets, g)
	step := t.Info.Alpha / float64(len(seen))
	if t.Info.Decay > 0 {
		step /= 1 + float64(t.Info.Games)/t.Info.Decay
	}
	m.addScaled(g, -step)
	rate := 1 / float64(min(t.Info.Games+1, max(t.Info.Average, 1)))
	t.Average.moveTowards(m, rate)
	st.LogLoss /= float64(len(seen))
	st.TDError /= float64(len(seen))
	return st
}

// lossGrad returns the summed log loss of m's chances of the positions
// seen against targets (by seat order, each adding up to 1) and adds its
// gradient by m's learned weights (In, Bias, Out) to g.
func (m *NNModel) lossGrad(seen []nnPosition, targets [][engine.NumColors]float64, g *NNModel) float64 {
	var h [engine.NumColors][nnHidden]float64
	loss := 0.0
	for j := range seen {
		p := &seen[j]
		pr := m.probs(p, &h)
		for i := 0; i < p.td.n; i++ {
			tg := targets[j][i]
			if tg > 0 {
				loss -= tg * math.Log(max(pr[i], 1e-300))
			}
			d := pr[i] - tg // the loss's derivative by the colour's score
			if d == 0 {
				continue
			}
			var delta [nnHidden]float64
			for u := range nnHidden {
				g.Out[u] += d * h[i][u]
				delta[u] = d * m.Out[u] * (1 - h[i][u]*h[i][u])
				g.Bias[u] += delta[u]
			}
			x := &p.c[i]
			for k, v := range x.dense {
				if v == 0 {
					continue
				}
				for u := range nnHidden {
					g.In[k][u] += delta[u] * v
				}
			}
			for r := 0; r < x.nraw; r++ {
				k, v := x.raw[r], x.val[r]
				for u := range nnHidden {
					g.In[k][u] += delta[u] * v
				}
			}
		}
	}
	return loss
}

// addScaled adds a·g to m's learned weights.
func (m *NNModel) addScaled(g *NNModel, a float64) {
	for k := range m.In {
		for u := range m.In[k] {
			m.In[k][u] += a * g.In[k][u]
		}
	}
	for u := range nnHidden {
		m.Bias[u] += a * g.Bias[u]
		m.Out[u] += a * g.Out[u]
	}
}

// moveTowards moves m's learned weights the share rate of the way to
// o's.
func (m *NNModel) moveTowards(o *NNModel, rate float64) {
	for k := range m.In {
		for u := range m.In[k] {
			m.In[k][u] += rate * (o.In[k][u] - m.In[k][u])
		}
	}
	for u := range nnHidden {
		m.Bias[u] += rate * (o.Bias[u] - m.Bias[u])
		m.Out[u] += rate * (o.Out[u] - m.Out[u])
	}
}

// Marshal writes the trainer's state, a checkpoint from which
// ParseNNCheckpoint resumes and which ParseNNModel reads as the averaged
// network.
func (t *NNTrainer) Marshal() ([]byte, error) {
	f := t.Average.file()
	f.Comment = "a checkpoint of a neural-network evaluation for master (engine/ai/nntrain.go): go run ./cmd/malefiz tdtrain -nn (see the README)"
	f.Learning = t.Model.weights()
	f.Training = t.Info
	return marshalNNFile(f)
}

// ParseNNCheckpoint resumes a trainer from a checkpoint written by
// Marshal.
func ParseNNCheckpoint(data []byte) (*NNTrainer, error) {
	var f nnFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("nn checkpoint: %w", err)
	}
	avg, err := f.model()
	if err != nil {
		return nil, err
	}
	if f.Learning == nil {
		return nil, fmt.Errorf("nn checkpoint: no weights being learned (a model, not a checkpoint)")
	}
	if len(f.Training.Players) == 0 {
		return nil, fmt.Errorf("nn checkpoint: no player counts")
	}
	m := *avg
	if err := m.setWeights(f.Learning); err != nil {
		return nil, err
	}
	return &NNTrainer{Model: &m, Average: avg, Info: f.Training}, nil
}
