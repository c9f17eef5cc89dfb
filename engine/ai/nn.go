package ai

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/malefiz-discord/malefiz/engine"
)

// A small neural network as an evaluation, over what the linear TDModel
// sees and the raw board: each colour's score is the linear model's score
// (a skip connection carrying its weights, fixed) plus the output of one
// hidden layer of tanh units over the colour's inputs, the chances the
// softmax of the scores over the colours in play, as in TDModel. A
// colour's inputs are its 14 features (tdFeatures), scaled by a mean and
// scale stored in the model, the player count (one-hot), and the board
// from its side: its pawns, the rivals' pawns and the barricades counted
// by their distance to the goal (pawns in the house apart). The hidden
// layer's output weights start at 0, so an untrained network plays as its
// linear model; NNTrainer learns them by TD(λ) over self-play.

// nnDistances is how many distance buckets the board encoding has: a
// square's distance to the goal, the last bucket taking every distance
// from nnDistances-1 on.
const nnDistances = 32

// The layout of a colour's inputs.
const (
	nnFeatures = 0                                 // the scaled tdFeatures
	nnPlayers  = nnFeatures + tdNumFeatures        // one-hot: 2, 3, 4 players
	nnOwn      = nnPlayers + 3                     // own pawns by distance
	nnOwnHome  = nnOwn + nnDistances               // own pawns in the house
	nnRival    = nnOwnHome + 1                     // rivals' pawns by distance
	nnRivHome  = nnRival + nnDistances             // rivals' pawns in the house
	nnBars     = nnRivHome + 1                     // barricades by distance
	nnInputs   = nnBars + nnDistances              // how many inputs a colour has
	nnDense    = nnOwn                             // the inputs always set
	nnHidden   = 32                                // hidden units
	nnMaxRaw   = 2*4*engine.PawnsPerColor + 2 + 11 // board inputs set at most
)

// NNModel is a neural-network evaluation: a linear model's score plus
// one hidden layer, over a colour's features, the player count and the
// board.
type NNModel struct {
	// Linear is the skip connection: a linear model whose score the
	// network adds to (fixed in training).
	Linear TDModel
	// Mean and Scale standardise the features: input = (x − Mean)/Scale.
	Mean, Scale [tdNumFeatures]float64
	// In holds the hidden units' weights, by input.
	In [nnInputs][nnHidden]float64
	// Bias holds the hidden units' biases.
	Bias [nnHidden]float64
	// Out holds the hidden units' weights in the score.
	Out [nnHidden]float64
	// Plays says, for 2, 3 and 4 players, whether the network scores such
	// positions; where it does not (a player count it was not trained
	// for), the linear model alone does.
	Plays [3]bool
}

// nnMaxBuckets bounds the distinct buckets of the pawns or of the
// barricades: 4 colours' 5 pawns.
const nnMaxBuckets = 4 * engine.PawnsPerColor

// nnBucket returns the distance bucket of square s.
func nnBucket(s engine.Square) int8 {
	return int8(min(max(engine.DistanceToGoal(s), 0), nnDistances-1))
}

// nnColor is one colour's inputs: the dense ones and the board's, sparse.
type nnColor struct {
	dense [nnDense]float64
	raw   [nnMaxRaw]int32 // indices of the board inputs set
	val   [nnMaxRaw]float64
	nraw  int
}

// nnPosition is a position's inputs, by seat order from the colour to
// move (as tdPosition).
type nnPosition struct {
	td tdPosition
	c  [engine.NumColors]nnColor
}

// inputs returns the inputs of every colour in play in b under r,
// with m's scaling. b must not be over.
func (m *NNModel) inputs(e *evaluator, b *engine.Position, r engine.Rules) nnPosition {
	var p nnPosition
	p.td = e.tdFeatures(b, r)
	n := p.td.n
	// Count pawns and barricades by distance bucket, by colour, and list
	// the buckets that hold any.
	var (
		pawns      [engine.NumColors][nnDistances]int8
		all, bars  [nnDistances]int8
		occ, barsL [nnMaxBuckets]int8
		nocc, nbar int
	)
	cells := b.Board()
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		q := cells[s]
		if !q.IsPawn() || s == engine.Goal {
			continue
		}
		d := nnBucket(s)
		if all[d] == 0 && nocc < len(occ) {
			occ[nocc] = d
			nocc++
		}
		all[d]++
		pawns[q.Color()][d]++
	}
	b.BarricadeSet().Each(func(s engine.Square) {
		d := nnBucket(s)
		if bars[d] == 0 && nbar < len(barsL) {
			barsL[nbar] = d
			nbar++
		}
		bars[d]++
	})
	// In order of distance, so that the hidden units add them up in
	// the same order whatever the squares.
	slices.Sort(occ[:nocc])
	slices.Sort(barsL[:nbar])
	allHome := 0
	for i := 0; i < n; i++ {
		allHome += b.Home(p.td.order[i])
	}
	rivals := float64(engine.PawnsPerColor * (n - 1))
	for i := 0; i < n; i++ {
		c := p.td.order[i]
		x := &p.c[i]
		for k, f := range p.td.f[i] {
			x.dense[nnFeatures+k] = (f - m.Mean[k]) / m.Scale[k]
		}
		x.dense[nnPlayers+n-2] = 1
		add := func(k int, v float64) {
			if v != 0 && x.nraw < nnMaxRaw {
				x.raw[x.nraw], x.val[x.nraw] = int32(k), v
				x.nraw++
			}
		}
		for _, d := range occ[:nocc] {
			add(nnOwn+int(d), float64(pawns[c][d])/engine.PawnsPerColor)
		}
		home := b.Home(c)
		add(nnOwnHome, float64(home)/engine.PawnsPerColor)
		for _, d := range occ[:nocc] {
			add(nnRival+int(d), float64(all[d]-pawns[c][d])/rivals)
		}
		add(nnRivHome, float64(allHome-home)/rivals)
		for _, d := range barsL[:nbar] {
			add(nnBars+int(d), float64(bars[d])/2)
		}
	}
	return p
}

// hidden sets h to the hidden units' outputs for the inputs x and
// returns the network's part of the score.
func (m *NNModel) hidden(x *nnColor, h *[nnHidden]float64) float64 {
	*h = m.Bias
	for k, v := range x.dense {
		if v == 0 {
			continue
		}
		w := &m.In[k]
		for j := range h {
			h[j] += w[j] * v
		}
	}
	for r := 0; r < x.nraw; r++ {
		w, v := &m.In[x.raw[r]], x.val[r]
		for j := range h {
			h[j] += w[j] * v
		}
	}
	s := 0.0
	for j := range h {
		h[j] = math.Tanh(h[j])
		s += m.Out[j] * h[j]
	}
	return s
}

// probs returns the chances, by seat order, of the colours of p, and in
// h each colour's hidden outputs.
func (m *NNModel) probs(p *nnPosition, h *[engine.NumColors][nnHidden]float64) [engine.NumColors]float64 {
	var out [engine.NumColors]float64
	n := p.td.n
	if n == 1 {
		out[0] = 1
		return out
	}
	w := m.Linear.weightsFor(n)
	top := math.Inf(-1)
	for i := 0; i < n; i++ {
		s := m.hidden(&p.c[i], &h[i])
		for k, x := range p.td.f[i] {
			s += w[k] * x
		}
		out[i] = s
		top = max(top, s)
	}
	softmax(&out, n, top)
	return out
}

// chances returns each colour's chance to win from b by the model, with
// the terms of e.
func (m *NNModel) chances(e *evaluator, b *engine.Position, r engine.Rules) [engine.NumColors]float64 {
	var out [engine.NumColors]float64
	if w := b.Winner(); w != engine.NoColor {
		out[w] = 1
		return out
	}
	n := 0
	for c := range engine.Color(engine.NumColors) {
		if b.InPlay(c) {
			n++
		}
	}
	if n < 2 || !m.Plays[n-2] {
		return m.Linear.chances(e, b, r)
	}
	p := m.inputs(e, b, r)
	var h [engine.NumColors][nnHidden]float64
	pr := m.probs(&p, &h)
	for i := 0; i < p.td.n; i++ {
		out[p.td.order[i]] = pr[i]
	}
	return out
}

// Chances returns each colour's chance to win from pos under rules r by
// m: indexed by colour, 0 for colours not in play, adding up to 1.
func (m *NNModel) Chances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	return withEvaluator(func(e *evaluator) [engine.NumColors]float64 { return m.chances(e, &pos, r) })
}

// newNNModel returns a network over the linear model lin for the player
// counts players whose hidden weights are drawn from seed and whose output
// weights are 0: it scores as lin does. mean and scale standardise the
// features.
func newNNModel(lin *TDModel, mean, scale [tdNumFeatures]float64, players []int, seed uint64) *NNModel {
	m := &NNModel{Linear: *lin, Mean: mean, Scale: scale}
	for _, n := range players {
		m.Plays[n-2] = true
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e6e)) // "nn"
	// About 15 dense inputs and 20 board inputs are set at once.
	r := 1 / math.Sqrt(35)
	for k := range m.In {
		for j := range m.In[k] {
			m.In[k][j] = (2*rng.Float64() - 1) * r
		}
	}
	return m
}

// nnFile is the layout of a network's file.
type nnFile struct {
	Comment  string                            `json:"comment"`
	Kind     string                            `json:"kind"`
	Features [tdNumFeatures]string             `json:"features"`
	Linear   map[string][tdNumFeatures]float64 `json:"linear"`
	Mean     [tdNumFeatures]float64            `json:"mean"`
	Scale    [tdNumFeatures]float64            `json:"scale"`
	nnWeights
	// Learning, in a checkpoint of NNTrainer, holds the weights being
	// learned; the weights above are their running average, which plays.
	Learning *nnWeights `json:"learning,omitempty"`
	// Plays lists the player counts the network scores (default: those
	// of Training, else all).
	Plays    []int       `json:"plays"`
	Training TDTrainInfo `json:"training"`
}

// nnWeights are a network's learned weights, in a file.
type nnWeights struct {
	In   [][nnHidden]float64 `json:"in"`
	Bias [nnHidden]float64   `json:"bias"`
	Out  [nnHidden]float64   `json:"out"`
}

// nnKind marks a network's file.
const nnKind = "mlp-1"

func (m *NNModel) weights() *nnWeights {
	return &nnWeights{In: append([][nnHidden]float64(nil), m.In[:]...), Bias: m.Bias, Out: m.Out}
}

func (m *NNModel) file() *nnFile {
	f := &nnFile{Kind: nnKind, Features: tdFeatureNames, Linear: map[string][tdNumFeatures]float64{},
		Mean: m.Mean, Scale: m.Scale, nnWeights: *m.weights(), Plays: []int{}}
	for n := 2; n <= engine.NumColors; n++ {
		if m.Plays[n-2] {
			f.Plays = append(f.Plays, n)
		}
	}
	for n := 2; n <= engine.NumColors; n++ {
		f.Linear[fmt.Sprint(n)] = m.Linear.Weights[n-2]
	}
	return f
}

// setWeights gives m the weights w.
func (m *NNModel) setWeights(w *nnWeights) error {
	if len(w.In) != nnInputs {
		return fmt.Errorf("nn model: %d inputs, want %d", len(w.In), nnInputs)
	}
	copy(m.In[:], w.In)
	m.Bias, m.Out = w.Bias, w.Out
	return nil
}

func (f *nnFile) model() (*NNModel, error) {
	if f.Kind != nnKind {
		return nil, fmt.Errorf("nn model: kind %q, want %q", f.Kind, nnKind)
	}
	if f.Features != tdFeatureNames {
		return nil, fmt.Errorf("nn model: features %v, want %v", f.Features, tdFeatureNames)
	}
	m := &NNModel{Mean: f.Mean, Scale: f.Scale}
	plays := f.Plays
	if plays == nil {
		plays = f.Training.Players
	}
	if plays == nil {
		plays = []int{2, 3, 4}
	}
	for _, n := range plays {
		if n < 2 || n > engine.NumColors {
			return nil, fmt.Errorf("nn model: plays %d players", n)
		}
		m.Plays[n-2] = true
	}
	for n := 2; n <= engine.NumColors; n++ {
		w, ok := f.Linear[fmt.Sprint(n)]
		if !ok {
			return nil, fmt.Errorf("nn model: no linear weights for %d players", n)
		}
		m.Linear.Weights[n-2] = w
	}
	for k, s := range f.Scale {
		if !(s > 0) {
			return nil, fmt.Errorf("nn model: scale of %s is %g", tdFeatureNames[k], s)
		}
	}
	if err := m.setWeights(&f.nnWeights); err != nil {
		return nil, err
	}
	return m, nil
}

// MarshalNNModel writes m, with how it was trained, in the layout that
// ParseNNModel reads.
func MarshalNNModel(m *NNModel, info TDTrainInfo) ([]byte, error) {
	f := m.file()
	f.Comment = "a neural-network evaluation for master (engine/ai/nn.go); train with: go run ./cmd/malefiz tdtrain -nn (see the README)"
	f.Training = info
	return marshalNNFile(f)
}

func marshalNNFile(f *nnFile) ([]byte, error) {
	data, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// ParseNNModel reads a network written by MarshalNNModel or a checkpoint
// of NNTrainer (its averaged weights, which play) and how it was trained.
func ParseNNModel(data []byte) (*NNModel, TDTrainInfo, error) {
	var f nnFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, TDTrainInfo{}, fmt.Errorf("nn model: %w", err)
	}
	m, err := f.model()
	if err != nil {
		return nil, TDTrainInfo{}, err
	}
	return m, f.Training, nil
}

//go:embed nn.json
var nnJSON []byte

// learnedNN is the embedded network that master plays by for two
// players.
var learnedNN = func() *NNModel {
	m, _, err := ParseNNModel(nnJSON)
	if err != nil {
		panic(err)
	}
	return m
}()

// NewNN returns a player that searches like master with the network m as
// its evaluation.
func NewNN(m *NNModel, seed uint64) Player {
	p, _ := New(Master, seed)
	hp := p.(*hardPlayer)
	hp.td, hp.nn = nil, m
	return hp
}
