package ai

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"github.com/malefiz-discord/malefiz/engine"
)

// The learned evaluation of master: like the win-chance estimator (see
// model.go) a conditional logit over the colours in play, each colour's
// score the dot product of its features with the weights for the number of
// players, but over features that see more than the time to the goal: what
// the barricades cost the leading pawn, the best rival's time, the captures
// the colour threatens, the best rival's leading pawn, whether its leader is in
// the last stretch where the goal must be hit exactly. The weights start
// at hard's evaluation (score = -3·log total, every other weight 0) and are
// learned by temporal-difference learning over self-play games (see
// TDTrainer), as TD-Gammon learned backgammon: each position's estimate is
// moved towards the estimates of the positions after it and, at the end,
// the winner.

// tdNumFeatures is how many features describe one colour to the learned
// evaluation.
const tdNumFeatures = 14

// tdFeatureNames name the features, in order, for td.json.
var tdFeatureNames = [tdNumFeatures]string{
	"log_total", "log_base", "log_lead", "log_second", "seat", "home", "risk", "six_again_log_total",
	"barricade_delay", "log_rival", "attack", "log_rival_lead", "last_stretch", "log_total_sq",
}

// TDModel is a learned evaluation: for 2, 3 and 4 players (index 0, 1, 2),
// the weights of a colour's features in its score.
type TDModel struct {
	// Weights holds the weights for 2, 3 and 4 players.
	Weights [3][tdNumFeatures]float64
}

// hardTDModel returns the model that scores like hard's evaluation: the
// starting point of training.
func hardTDModel() *TDModel {
	m := new(TDModel)
	for n := range m.Weights {
		m.Weights[n][0] = -defaultParams.power
	}
	return m
}

// tdPosition holds the features of every colour in play in one position,
// in seat order from the colour to move.
type tdPosition struct {
	order [engine.NumColors]engine.Color
	n     int
	f     [engine.NumColors][tdNumFeatures]float64
}

// freeTable is the value table without any barricade: what
// barricade_delay compares with.
var freeTable = sync.OnceValue(func() *valueTable {
	e := newEvaluator(defaultParams)
	return e.table(engine.SquareSet{})
})

// tdFeatures returns the features of each colour in play in b under rules
// r. b must not be over.
func (e *evaluator) tdFeatures(b *engine.Position, r engine.Rules) tdPosition {
	// attack: for each colour, the expected turns its next roll could cost
	// the others by a capture, summed over their pawns (terms sees it).
	e.attackBuf = [engine.NumColors]float64{}
	e.attack = &e.attackBuf
	ts, order, n := e.terms(b)
	e.attack = nil
	attack := e.attackBuf
	var out tdPosition
	out.order, out.n = order, n
	bars := b.BarricadeSet()
	t := e.table(bars)
	free := freeTable()
	// Each colour's leading pawn's square (its entry when a pawn in the
	// house is better).
	var (
		lead     [engine.NumColors]engine.Square
		leadV    [engine.NumColors]float64
		homeLead [engine.NumColors]bool
	)
	for i := 0; i < n; i++ {
		c := order[i]
		lead[c], leadV[c] = engine.NoSquare, math.Inf(1)
		if b.Home(c) > 0 {
			lead[c], leadV[c], homeLead[c] = engine.Entry(c), t.home[c], true
		}
	}
	b.PawnSet().Each(func(s engine.Square) { // in square order, as the board
		if s == engine.Goal {
			return
		}
		c := b.At(s).Color()
		if t.sq[s] < leadV[c] {
			lead[c], leadV[c], homeLead[c] = s, t.sq[s], false
		}
	})
	for i := 0; i < n; i++ {
		c := order[i]
		tc := &ts[c]
		lt := math.Log(tc.total)
		risk := 0.0
		if tc.base > 0 {
			risk = (tc.total - tc.seat - tc.base) / tc.base
		}
		six := 0.0
		if r.SixAgain {
			six = lt
		}
		delay, stretch := 0.0, 0.0
		if q := lead[c]; q != engine.NoSquare {
			fv := free.sq[q]
			if homeLead[c] {
				fv = free.home[c]
			}
			if fv > 0 && leadV[c] > 0 {
				delay = math.Log(leadV[c]) - math.Log(fv)
			}
			if !homeLead[c] && engine.DistanceToGoal(q) <= maxRoll {
				stretch = 1
			}
		}
		rival, rivalLead := math.Inf(1), math.Inf(1)
		for j := 0; j < n; j++ {
			if o := order[j]; o != c {
				rival = min(rival, ts[o].total)
				rivalLead = min(rivalLead, ts[o].lead)
			}
		}
		out.f[i] = [tdNumFeatures]float64{
			lt,
			math.Log(tc.base),
			math.Log(tc.lead),
			math.Log(tc.second),
			tc.seat,
			float64(tc.home) / engine.PawnsPerColor,
			risk,
			six,
			delay,
			math.Log(rival),
			attack[c] / 10,
			math.Log(rivalLead),
			stretch,
			lt * lt / 10,
		}
	}
	return out
}

// weightsFor returns the weights for n players.
func (m *TDModel) weightsFor(n int) *[tdNumFeatures]float64 { return &m.Weights[n-2] }

// probs returns the chances, by seat order, of the colours of p.
func (m *TDModel) probs(p *tdPosition) [engine.NumColors]float64 {
	var out [engine.NumColors]float64
	if p.n == 1 {
		out[0] = 1
		return out
	}
	w := m.weightsFor(p.n)
	top := math.Inf(-1)
	for i := 0; i < p.n; i++ {
		s := 0.0
		for k, x := range p.f[i] {
			s += w[k] * x
		}
		out[i] = s
		top = max(top, s)
	}
	softmax(&out, p.n, top)
	return out
}

// chances returns each colour's chance to win from b by the model, with
// the terms of e.
func (m *TDModel) chances(e *evaluator, b *engine.Position, r engine.Rules) [engine.NumColors]float64 {
	var out [engine.NumColors]float64
	if w := b.Winner(); w != engine.NoColor {
		out[w] = 1
		return out
	}
	p := e.tdFeatures(b, r)
	pr := m.probs(&p)
	for i := 0; i < p.n; i++ {
		out[p.order[i]] = pr[i]
	}
	return out
}

// Chances returns each colour's chance to win from pos under rules r by
// m: indexed by colour, 0 for colours not in play, adding up to 1.
func (m *TDModel) Chances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	return withEvaluator(func(e *evaluator) [engine.NumColors]float64 { return m.chances(e, &pos, r) })
}

// tdFile is td.json's layout.
type tdFile struct {
	Comment  string                            `json:"comment"`
	Features [tdNumFeatures]string             `json:"features"`
	Weights  map[string][tdNumFeatures]float64 `json:"weights"`
	Training TDTrainInfo                       `json:"training"`
}

// TDTrainInfo records how a learned evaluation was trained, so that it can
// be trained again or trained on.
type TDTrainInfo struct {
	// Seed is the seed of the self-play games.
	Seed uint64 `json:"seed"`
	// Games is how many games have been learned from.
	Games int `json:"games"`
	// Alpha is the learning rate.
	Alpha float64 `json:"alpha"`
	// Lambda is TD(λ)'s λ.
	Lambda float64 `json:"lambda"`
	// Players are the player counts of the games, in turn.
	Players []int `json:"players"`
	// Decay, for a network, is the games after which the learning rate
	// has halved (0: it does not decay).
	Decay float64 `json:"decay,omitempty"`
	// Average, for a network, is how many games the weights that play
	// are averaged over at most.
	Average int `json:"average,omitempty"`
	// Explore, for a network, is the chance of a random move in a
	// training game.
	Explore float64 `json:"explore,omitempty"`
	// Seconds is the CPU-bound wall time the training took, all sittings
	// together.
	Seconds float64 `json:"seconds"`
}

// ParseTDModel reads a learned evaluation in the layout of td.json and how
// it was trained.
func ParseTDModel(data []byte) (*TDModel, TDTrainInfo, error) {
	var f tdFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, TDTrainInfo{}, fmt.Errorf("td model: %w", err)
	}
	if f.Features != tdFeatureNames {
		return nil, TDTrainInfo{}, fmt.Errorf("td model: features %v, want %v", f.Features, tdFeatureNames)
	}
	m := new(TDModel)
	for n := 2; n <= engine.NumColors; n++ {
		w, ok := f.Weights[fmt.Sprint(n)]
		if !ok {
			return nil, TDTrainInfo{}, fmt.Errorf("td model: no weights for %d players", n)
		}
		m.Weights[n-2] = w
	}
	return m, f.Training, nil
}

// MarshalTDModel writes m in the layout of td.json, with info.
func MarshalTDModel(m *TDModel, info TDTrainInfo) ([]byte, error) {
	f := tdFile{
		Comment:  "master's learned evaluation (engine/ai/td.go); regenerate with: go run ./cmd/malefiz tdtrain (see the README)",
		Features: tdFeatureNames,
		Weights:  map[string][tdNumFeatures]float64{},
		Training: info,
	}
	for n := 2; n <= engine.NumColors; n++ {
		f.Weights[fmt.Sprint(n)] = m.Weights[n-2]
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

//go:embed td.json
var tdJSON []byte

// learnedTD is the embedded learned evaluation.
var learnedTD = func() *TDModel {
	m, _, err := ParseTDModel(tdJSON)
	if err != nil {
		panic(err)
	}
	return m
}()

// LearnedTD returns a copy of the embedded learned evaluation that master
// plays by.
func LearnedTD() *TDModel {
	m := *learnedTD
	return &m
}

// NewTD returns a player that searches like master with the evaluation m
// instead of the embedded one, to measure a model being trained.
func NewTD(m *TDModel, seed uint64) Player {
	p, _ := New(Master, seed)
	hp := p.(*hardPlayer)
	hp.td, hp.nn = m, nil
	return hp
}

// masterBudget is master's search: hard's (with the learned evaluation).
var masterBudget = defaultHardBudget
