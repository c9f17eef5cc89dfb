package ai

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"

	"github.com/malefiz-discord/malefiz/engine"
)

// The win-chance estimator is a conditional logit model over the
// evaluation's terms (see colorTerms): each colour in play gets a score,
// the dot product of its features with the weights for the number of
// players, and the chances are the softmax of the scores. The hand-made
// evaluation is the special case score = -3·log(total); the model learns
// from self-play how much each term is worth and how sharply times turn
// into chances. The weights come from `malefiz train` (see Fit) and are
// embedded from model.json.

// numFeatures is how many features describe one colour.
const numFeatures = 14

// baseFeatures is how many of them the first models had: the terms of the
// evaluation alone (colorTerms). The others, from master's features
// (tdFeatures), see beyond a colour's own time: what the barricades cost
// its leading pawn, its best rival, the captures it threatens, whether its
// leader is in the last stretch. A model whose weights on them are all 0
// does not compute them (expert's play model).
const baseFeatures = 9

// featureNames name the features, in order, for model.json.
var featureNames = [numFeatures]string{
	"log_total", "log_base", "log_lead", "seat", "home", "risk", "six_again_log_total", "log_total_sq", "log_second",
	"barricade_delay", "log_rival", "attack", "log_rival_lead", "last_stretch",
}

// features returns the base features of colour terms t under rules r
// (the others 0).
func features(t *colorTerms, r engine.Rules) [numFeatures]float64 {
	lt := math.Log(t.total)
	risk := 0.0
	if t.base > 0 {
		risk = (t.total - t.seat - t.base) / t.base
	}
	six := 0.0
	if r.SixAgain {
		six = lt
	}
	return [numFeatures]float64{
		lt,
		math.Log(t.base),
		math.Log(t.lead),
		t.seat,
		float64(t.home) / engine.PawnsPerColor,
		risk,
		six,
		lt * lt / 10,
		math.Log(t.second),
	}
}

// richFeatures returns every feature of a colour from its features in
// master's evaluation (tdFeatures), which include the base ones.
func richFeatures(f *[tdNumFeatures]float64) [numFeatures]float64 {
	return [numFeatures]float64{
		f[0], f[1], f[2], f[4], f[5], f[6], f[7], f[13], f[3],
		f[8], f[9], f[10], f[11], f[12],
	}
}

// featureRows returns the features of each colour in play in b (which
// must not be over) under r, in seat order from the colour to move, their
// colours and how many there are: every feature when rich, else the base
// ones, which cost less.
func (e *evaluator) featureRows(b *engine.Position, r engine.Rules, rich bool) (rows [engine.NumColors][numFeatures]float64, order [engine.NumColors]engine.Color, n int) {
	if rich {
		p := e.tdFeatures(b, r)
		for i := 0; i < p.n; i++ {
			rows[i] = richFeatures(&p.f[i])
		}
		return rows, p.order, p.n
	}
	ts, order, n := e.terms(b)
	for i := 0; i < n; i++ {
		rows[i] = features(&ts[order[i]], r)
	}
	return rows, order, n
}

// Model is a learned win-chance estimator: for 2, 3 and 4 players, the
// weights of the features of a colour in its score, and a calibration
// layer that maps the chances those scores give to chances as often
// right as they say.
type Model struct {
	// Weights holds the weights for 2, 3 and 4 players (index 0, 1, 2).
	Weights [3][numFeatures]float64
	// Calibration holds, for 2, 3 and 4 players, the weights of the
	// calibration layer over calibrationBasis of each colour's chance by
	// Weights; the chances are their softmax again. All zero: no layer.
	Calibration [3][numFeatures]float64
}

// rich reports whether m weighs any feature beyond the base ones.
func (m *Model) rich() bool {
	for _, w := range m.Weights {
		for _, x := range w[baseFeatures:] {
			if x != 0 {
				return true
			}
		}
	}
	return false
}

// calibrationKnots are the chances at which the calibration layer may
// bend: its basis (calibrationBasis) is a piecewise linear function of
// the log of a colour's chance with a knot at each.
var calibrationKnots = [8]float64{0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.75}

// calibrationBasis returns the calibration layer's features of a colour
// whose chance is p: the log of p and its excess over the log of each knot.
func calibrationBasis(p float64) [numFeatures]float64 {
	x := math.Log(max(p, 1e-9))
	out := [numFeatures]float64{x}
	for k, c := range calibrationKnots {
		out[k+1] = max(0, x-math.Log(c))
	}
	return out
}

// identityCalibration is the calibration layer that changes nothing.
var identityCalibration = [numFeatures]float64{1}

// Models are the two learned models: Chances, the estimator over every
// feature, and Play, the one expert searches with, over the features
// log_total, seat and six_again_log_total only: the hand-made
// evaluation's time, with its power learned for each number of players.
// The full model estimates better, but a search exploits its other terms:
// in games between mixed levels they partly tell the stronger player's
// style apart rather than a better position, and expert, steered by them,
// lost to hard (43 % of 23 games, against 60 % with Play).
type Models struct {
	// Chances is the estimator of WinChances.
	Chances *Model
	// Play is expert's evaluation.
	Play *Model
}

// playFeatures are the features of Models.Play.
var playFeatures = [numFeatures]bool{0: true, 3: true, 6: true}

// modelFile is model.json's layout.
type modelFile struct {
	Comment     string                          `json:"comment"`
	Features    [numFeatures]string             `json:"features"`
	Weights     map[string][numFeatures]float64 `json:"weights"`
	PlayWeights map[string][numFeatures]float64 `json:"play_weights"`
	// Calibration, absent from models trained before it, is the
	// calibration layer of the estimator (Model.Calibration).
	Calibration map[string][numFeatures]float64 `json:"calibration,omitempty"`
	Training    TrainInfo                       `json:"training"`
}

// TrainInfo records how a model was trained, so that it can be trained again.
type TrainInfo struct {
	// Seed is the seed of the self-play games.
	Seed uint64 `json:"seed"`
	// Games is how many games were played.
	Games int `json:"games"`
	// Unusual is how many games played out from unusual positions
	// (UnusualGame) were added to Games; 0 in models trained before.
	Unusual int `json:"unusual_games,omitempty"`
	// Positions is how many positions the model was fitted to.
	Positions int `json:"positions"`
	// LogLoss is the mean log loss per position on the training games.
	LogLoss float64 `json:"log_loss"`
	// PlayLogLoss is the same for the play model.
	PlayLogLoss float64 `json:"play_log_loss"`
	// Levels are the levels the games seated at random; empty in models
	// trained before it was recorded (greedy, easy, normal and hard).
	Levels []string `json:"levels,omitempty"`
	// Play, when set, is how the play model was trained, apart from the
	// estimator (train -chances-only refits the estimator alone).
	Play *TrainInfo `json:"play,omitempty"`
}

//go:embed model.json
var modelJSON []byte

// learned and learnedPlay are the embedded models.
var learned, learnedPlay = mustModels(modelJSON)

// EmbeddedModels returns a copy of the models built in (model.json) and
// how they were trained.
func EmbeddedModels() (Models, TrainInfo) {
	ms, info, err := ParseModel(modelJSON)
	if err != nil {
		panic(err)
	}
	return ms, info
}

func mustModels(data []byte) (*Model, *Model) {
	m, _, err := ParseModel(data)
	if err != nil {
		panic(err)
	}
	return m.Chances, m.Play
}

// ParseModel reads models in the layout of model.json and how they were
// trained.
func ParseModel(data []byte) (Models, TrainInfo, error) {
	var f modelFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Models{}, TrainInfo{}, fmt.Errorf("model: %w", err)
	}
	for i, name := range f.Features {
		// A model of fewer features (one trained before the others were
		// added) names a prefix of them: the others weigh nothing.
		if name != featureNames[i] && (name != "" || i == 0) {
			return Models{}, TrainInfo{}, fmt.Errorf("model: features %v, want %v", f.Features, featureNames)
		}
	}
	ms := Models{Chances: new(Model), Play: new(Model)}
	for n := 2; n <= engine.NumColors; n++ {
		w, ok := f.Weights[fmt.Sprint(n)]
		pw, pok := f.PlayWeights[fmt.Sprint(n)]
		if !ok || !pok {
			return Models{}, TrainInfo{}, fmt.Errorf("model: no weights for %d players", n)
		}
		ms.Chances.Weights[n-2], ms.Play.Weights[n-2] = w, pw
		ms.Chances.Calibration[n-2] = f.Calibration[fmt.Sprint(n)]
	}
	return ms, f.Training, nil
}

// MarshalModel writes ms in the layout of model.json, with info.
func MarshalModel(ms Models, info TrainInfo) ([]byte, error) {
	f := modelFile{
		Comment:     "win-chance models of engine/ai; regenerate with: go run ./cmd/malefiz train -out engine/ai/model.json",
		Features:    featureNames,
		Weights:     map[string][numFeatures]float64{},
		PlayWeights: map[string][numFeatures]float64{},
		Calibration: map[string][numFeatures]float64{},
		Training:    info,
	}
	for n := 2; n <= engine.NumColors; n++ {
		f.Weights[fmt.Sprint(n)] = ms.Chances.Weights[n-2]
		f.PlayWeights[fmt.Sprint(n)] = ms.Play.Weights[n-2]
		if c := ms.Chances.Calibration[n-2]; c != ([numFeatures]float64{}) {
			f.Calibration[fmt.Sprint(n)] = c
		}
	}
	if len(f.Calibration) == 0 {
		f.Calibration = nil
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// chances returns each colour's chance to win from b by the model, with
// the terms of e.
func (m *Model) chances(e *evaluator, b *engine.Position, r engine.Rules) [engine.NumColors]float64 {
	var out [engine.NumColors]float64
	if w := b.Winner(); w != engine.NoColor {
		out[w] = 1
		return out
	}
	rows, order, n := e.featureRows(b, r, m.rich())
	if n == 1 {
		out[order[0]] = 1
		return out
	}
	p := softmaxOf(&m.Weights[n-2], rows[:n])
	if c := &m.Calibration[n-2]; *c != ([numFeatures]float64{}) {
		for i := 0; i < n; i++ {
			rows[i] = calibrationBasis(p[i])
		}
		p = softmaxOf(c, rows[:n])
	}
	for i := 0; i < n; i++ {
		out[order[i]] = p[i]
	}
	return out
}

// softmaxOf returns the softmax of the rows' scores under w, in the rows'
// order.
func softmaxOf(w *[numFeatures]float64, rows [][numFeatures]float64) [engine.NumColors]float64 {
	var p [engine.NumColors]float64
	top := math.Inf(-1)
	for i, row := range rows {
		s := 0.0
		for k := range row {
			s += w[k] * row[k]
		}
		p[i] = s
		top = max(top, s)
	}
	softmax(&p, len(rows), top)
	return p
}

// softmax turns the first n scores of p, the largest of them top, into
// chances that add up to 1 (the conditional logit over the colours in
// play); top is subtracted first so that no exponential overflows.
func softmax(p *[engine.NumColors]float64, n int, top float64) {
	sum := 0.0
	for i := range n {
		p[i] = math.Exp(p[i] - top)
		sum += p[i]
	}
	for i := range n {
		p[i] /= sum
	}
}

// WinChances returns each colour's chance to win from pos under rules r,
// by the learned estimator: indexed by colour, 0 for colours not in play,
// adding up to 1. In a finished game the winner has 1.
//
// It takes about 30 µs (BenchmarkWinChances); its calibration on self-play
// games is in the package comment.
func WinChances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	return withEvaluator(func(e *evaluator) [engine.NumColors]float64 { return learned.chances(e, &pos, r) })
}

// HeuristicChances returns each colour's chance to win from pos by the
// hand-made evaluation that normal and hard play by, for comparison with
// WinChances.
func HeuristicChances(pos engine.Position, _ engine.Rules) [engine.NumColors]float64 {
	return withEvaluator(func(e *evaluator) [engine.NumColors]float64 { return e.chances(&pos) })
}

// Chances returns each colour's chance to win from pos under rules r by
// m, as WinChances does by the embedded model.
func (m *Model) Chances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	return withEvaluator(func(e *evaluator) [engine.NumColors]float64 { return m.chances(e, &pos, r) })
}
