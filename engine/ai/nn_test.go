package ai

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// testNN returns a network over master's linear model with every weight
// drawn from seed, the output weights too, so that every weight matters.
func testNN(seed uint64) *NNModel {
	var mean, scale [tdNumFeatures]float64
	for k := range scale {
		mean[k], scale[k] = 0.1*float64(k), 1+0.2*float64(k)
	}
	m := newNNModel(learnedTD, mean, scale, []int{2, 3, 4}, seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for u := range nnHidden {
		m.Bias[u] = rng.Float64() - 0.5
		m.Out[u] = rng.Float64() - 0.5
	}
	return m
}

func TestNNGradientMatchesFiniteDifferences(t *testing.T) {
	m := testNN(3)
	e := newEvaluator(defaultParams)
	var seen []nnPosition
	var targets [][engine.NumColors]float64
	rng := rand.New(rand.NewPCG(4, 4))
	sample := tdSample(t)
	for j := 0; j < len(sample); j += max(1, len(sample)/16) {
		d := sample[j]
		p := m.inputs(e, &d.pos, d.rules)
		seen = append(seen, p)
		var tg [engine.NumColors]float64
		sum := 0.0
		for i := 0; i < p.td.n; i++ {
			tg[i] = rng.Float64()
			sum += tg[i]
		}
		for i := range tg {
			tg[i] /= sum
		}
		targets = append(targets, tg)
	}
	g := new(NNModel)
	m.lossGrad(seen, targets, g)
	check := func(name string, w *float64, got float64) {
		t.Helper()
		const h = 1e-6
		old := *w
		*w = old + h
		up := m.lossGrad(seen, targets, new(NNModel))
		*w = old - h
		down := m.lossGrad(seen, targets, new(NNModel))
		*w = old
		want := (up - down) / (2 * h)
		assert.InDelta(t, want, got, 1e-6*max(1, math.Abs(want)), name)
	}
	for u := 0; u < nnHidden; u += 5 {
		check("out", &m.Out[u], g.Out[u])
		check("bias", &m.Bias[u], g.Bias[u])
		for _, k := range []int{nnFeatures, nnFeatures + 8, nnPlayers, nnPlayers + 2, nnOwn + 10, nnOwnHome, nnRival + 12, nnBars + 6} {
			check("in", &m.In[k][u], g.In[k][u])
		}
	}
	assert.NotZero(t, g.In[nnPlayers+2][0], "four-player positions reach the one-hot input")
}

func TestNNStartsAsItsLinearModel(t *testing.T) {
	tr := NewNNTrainer(learnedTD, NNTrainConfig{Seed: 2, Alpha: 0.05, Lambda: 0.7, Players: []int{2}, ScaleGames: 1})
	for _, d := range tdSample(t) {
		got := tr.Average.Chances(d.pos, d.rules)
		want := learnedTD.Chances(d.pos, d.rules)
		for c := range got {
			assert.InDelta(t, want[c], got[c], 1e-12, "%s colour %d", d.pos, c)
		}
	}
	for k, s := range tr.Model.Scale {
		assert.Positive(t, s, tdFeatureNames[k])
	}
}

func TestNNPlaysOnlyItsPlayerCounts(t *testing.T) {
	m := testNN(4)
	m.Plays = [3]bool{true, false, false}
	var two, four int
	for _, d := range tdSample(t) {
		got, lin := m.Chances(d.pos, d.rules), learnedTD.Chances(d.pos, d.rules)
		if len(d.pos.Players()) == 2 {
			two++
			assert.NotEqual(t, lin, got, "%s: the network scores two players", d.pos)
		} else {
			four++
			assert.Equal(t, lin, got, "%s: the linear model alone scores four", d.pos)
		}
	}
	require.Positive(t, two)
	require.Positive(t, four)
}

func TestNNChancesAreFiniteAndAddUp(t *testing.T) {
	m := testNN(5)
	for _, d := range tdSample(t) {
		got := m.Chances(d.pos, d.rules)
		sum := 0.0
		for c, x := range got {
			assert.False(t, math.IsNaN(x) || math.IsInf(x, 0), "%s colour %d", d.pos, c)
			if !d.pos.InPlay(engine.Color(c)) {
				assert.Zero(t, x, "%s colour %d not in play", d.pos, c)
			}
			sum += x
		}
		assert.InDelta(t, 1, sum, 1e-9, "%s", d.pos)
	}
}

// mirrorPosition returns the text of a position of Red and Blue with the
// board mirrored left to right, the colours swapped.
func mirrorPosition(t *testing.T, red, blue, bars string, turnRed bool) (a, b engine.Position) {
	flip := func(list string) string {
		var out []string
		for _, sq := range strings.Split(list, ",") {
			if sq == "" {
				continue
			}
			out = append(out, string(rune('a'+'q'-rune(sq[0])))+sq[1:])
		}
		return strings.Join(out, ",")
	}
	turn, other := "r", "b"
	if !turnRed {
		turn, other = other, turn
	}
	a = mustPosition(t, "players=rb turn="+turn+" r="+red+" b="+blue+" x="+bars)
	b = mustPosition(t, "players=rb turn="+other+" r="+flip(blue)+" b="+flip(red)+" x="+flip(bars))
	return a, b
}

func TestNNChancesAreMirrorSymmetric(t *testing.T) {
	// Red and Blue sit on mirror-image houses: a position and its mirror,
	// the colours swapped, have the same chances, swapped.
	m := testNN(6)
	tests := []struct{ red, blue, bars string }{
		{"c1,e5,h11", "n11,o1", "a3,e3,i3,m3,q3,g7,k7,i9,i10,i13,c13"},
		{"i13", "a11,p3,o1", "a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,d5"},
	}
	for _, tt := range tests {
		for _, rules := range []engine.Rules{{}, {SixAgain: true, SafeRow2: true}} {
			a, b := mirrorPosition(t, tt.red, tt.blue, tt.bars, true)
			ca, cb := m.Chances(a, rules), m.Chances(b, rules)
			assert.InDelta(t, ca[engine.Red], cb[engine.Blue], 1e-9, "%s and %s", a, b)
			assert.InDelta(t, ca[engine.Blue], cb[engine.Red], 1e-9, "%s and %s", a, b)
		}
	}
}

// nnTrain plays games training games of a fresh trainer from seed.
func nnTrain(t *testing.T, seed uint64, games int) *NNTrainer {
	tr := NewNNTrainer(learnedTD, NNTrainConfig{Seed: seed, Alpha: 0.05, Decay: 2, Lambda: 0.7, Average: 3,
		Explore: 0.05, Players: []int{2, 4}, ScaleGames: 1})
	for range games {
		_, err := tr.Step()
		require.NoError(t, err)
	}
	return tr
}

func TestNNTrainerIsReproducibleAndResumes(t *testing.T) {
	whole := nnTrain(t, 5, 4)
	again := nnTrain(t, 5, 4)
	assert.Equal(t, whole.Model, again.Model, "the same seed learns the same weights")
	assert.NotEqual(t, whole.Model.Out, nnTrain(t, 6, 4).Model.Out, "another seed other weights")
	assert.NotEqual(t, whole.Model.Out, whole.Average.Out, "the average lags the weights")
	assert.NotEqual(t, [nnHidden]float64{}, whole.Average.Out, "four games moved the weights that play")

	split := nnTrain(t, 5, 2)
	data, err := split.Marshal()
	require.NoError(t, err)
	resumed, err := ParseNNCheckpoint(data)
	require.NoError(t, err)
	assert.Equal(t, 2, resumed.Info.Games)
	for range 2 {
		_, err := resumed.Step()
		require.NoError(t, err)
	}
	assert.Equal(t, whole.Model, resumed.Model, "two sittings end where one does")
	assert.Equal(t, whole.Average, resumed.Average)

	played, info, err := ParseNNModel(data)
	require.NoError(t, err)
	assert.Equal(t, split.Average, played, "a checkpoint plays by the average")
	assert.Equal(t, 2, info.Games)
}

func TestNNLearnMovesEstimatesTowardsTheWinner(t *testing.T) {
	// With λ = 1 every position's target is the winner: one step of
	// learning lowers the log loss of the game's estimates.
	tr := NewNNTrainer(learnedTD, NNTrainConfig{Seed: 1, Alpha: 0.5, Lambda: 1, Average: 1, Players: []int{2}, ScaleGames: 1})
	e := newEvaluator(defaultParams)
	var seen []nnPosition
	for _, d := range samplePositions(t, []Level{Normal, Easy}, engine.Rules{}, 9, 1) {
		seen = append(seen, tr.Model.inputs(e, &d.pos, d.rules))
	}
	winner := engine.Red // normal sits on Red and beats easy
	loss := func() float64 {
		var h [engine.NumColors][nnHidden]float64
		sum := 0.0
		for i := range seen {
			pr := tr.Model.probs(&seen[i], &h)
			for k := 0; k < seen[i].td.n; k++ {
				if seen[i].td.order[k] == winner {
					sum -= math.Log(pr[k])
				}
			}
		}
		return sum / float64(len(seen))
	}
	before := loss()
	st := tr.learn(seen, winner)
	assert.InDelta(t, before, st.LogLoss, 1e-9, "the game's log loss before learning")
	assert.Less(t, loss(), before)
	assert.Equal(t, tr.Model.Out, tr.Average.Out, "averaged over one game: the weights")
}

func TestParseNNModel(t *testing.T) {
	m := testNN(7)
	good, err := MarshalNNModel(m, TDTrainInfo{Seed: 3, Games: 10, Players: []int{2}})
	require.NoError(t, err)
	got, info, err := ParseNNModel(good)
	require.NoError(t, err)
	assert.Equal(t, m, got)
	assert.Equal(t, 10, info.Games)
	_, err = ParseNNCheckpoint(good)
	assert.Error(t, err, "a model is not a checkpoint")
	_, _, err = ParseTDModel(good)
	assert.Error(t, err, "a network is not a linear model")
	tdData, err := MarshalTDModel(hardTDModel(), TDTrainInfo{})
	require.NoError(t, err)
	for name, data := range map[string]string{
		"not JSON":     "{",
		"other kind":   strings.Replace(string(good), nnKind, "mlp-9", 1),
		"cut inputs":   `{"kind": "` + nnKind + `", "features": ` + mustFeatures(t) + `, "linear": {"2": [], "3": [], "4": []}, "scale": [1,1,1,1,1,1,1,1,1,1,1,1,1,1], "in": []}`,
		"linear model": string(tdData),
	} {
		_, _, err := ParseNNModel([]byte(data))
		assert.Error(t, err, name)
	}
}

func mustFeatures(t *testing.T) string {
	var b strings.Builder
	b.WriteString("[")
	for k, f := range tdFeatureNames {
		if k > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"` + f + `"`)
	}
	b.WriteString("]")
	return b.String()
}

func TestNNPlayerPlaysLegalMoves(t *testing.T) {
	p := NewNN(testNN(8), 1)
	h := p.(*hardPlayer)
	assert.Nil(t, h.td)
	assert.Equal(t, masterBudget, h.budget)
	for _, d := range tdSample(t)[:6] {
		assert.Contains(t, d.moves, p.Choose(d.pos, d.roll, d.rules, d.moves))
	}
}

func TestNNEvaluationDoesNotAllocate(t *testing.T) {
	m := testNN(9)
	e := newEvaluator(defaultParams)
	e.nn = m
	d := tdSample(t)[3]
	e.chances(&d.pos)
	assert.Zero(t, testing.AllocsPerRun(20, func() { e.chances(&d.pos) }))
}

// BenchmarkNNEvaluation measures a network's evaluation of a position,
// against BenchmarkMasterEvaluation.
func BenchmarkNNEvaluation(b *testing.B) {
	var positions []engine.Position
	for _, d := range benchDecisions(b) {
		positions = append(positions, d.pos)
	}
	e := newEvaluator(defaultParams)
	e.nn = testNN(1)
	for i := range positions {
		e.chances(&positions[i])
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		e.chances(&positions[i%len(positions)])
	}
}

func TestEmbeddedNNModel(t *testing.T) {
	// nn.json: the network after 5,000 two-player training games from
	// seed 1 (see the README).
	data := nnJSON
	m, info, err := ParseNNModel(data)
	require.NoError(t, err)
	assert.Equal(t, []int{2}, info.Players)
	assert.Equal(t, 5000, info.Games)
	assert.Equal(t, [3]bool{true, false, false}, m.Plays, "two players by the network, three and four by the linear model")
	assert.Equal(t, learnedTD.Weights, m.Linear.Weights, "over master's linear model")
	assert.NotEqual(t, [nnHidden]float64{}, m.Out, "trained")
	assert.Less(t, len(data), 100<<10, "a small file")
}
