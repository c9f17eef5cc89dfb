package ai

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

func TestTDDuelOfEqualModelsIsEven(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		assert.InDelta(t, 1/float64(n), TDDuel(hardTDModel(), hardTDModel(), 7, 3, n), 1e-9, "%d players", n)
	}
}

// tdSample returns positions of games between normal players, two and
// four of them, under both house rules.
func tdSample(t testing.TB) []decision {
	var out []decision
	for i, levels := range [][]Level{{Normal, Normal}, {Normal, Normal, Normal, Normal}} {
		out = append(out, samplePositions(t, levels, engine.Rules{SixAgain: i == 1, SafeRow2: i == 1}, uint64(i)+3, 7)...)
	}
	require.NotEmpty(t, out)
	return out
}

func TestTDModelStartsAsHard(t *testing.T) {
	m := hardTDModel()
	for _, d := range tdSample(t) {
		got := m.Chances(d.pos, d.rules)
		want := HeuristicChances(d.pos, d.rules)
		for c := range got {
			assert.InDelta(t, want[c], got[c], 1e-9, "%s colour %d", d.pos, c)
		}
	}
}

func TestTDFeaturesAreFinite(t *testing.T) {
	e := newEvaluator(defaultParams)
	for _, d := range tdSample(t) {
		p := e.tdFeatures(&d.pos, d.rules)
		require.Equal(t, len(d.pos.Players()), p.n)
		for i := 0; i < p.n; i++ {
			for k, x := range p.f[i] {
				assert.False(t, math.IsNaN(x) || math.IsInf(x, 0), "%s: %s of seat %d is %g", d.pos, tdFeatureNames[k], i, x)
			}
		}
		got := LearnedTD().Chances(d.pos, d.rules)
		sum := 0.0
		for _, x := range got {
			sum += x
		}
		assert.InDelta(t, 1, sum, 1e-9, "%s", d.pos)
	}
}

func TestTDFeaturesSeeTheBarricades(t *testing.T) {
	e := newEvaluator(defaultParams)
	tests := []struct {
		name  string
		pos   string
		delay bool // Red's leading pawn waits on a barricade
	}{
		{"a barricade right ahead", "players=rb turn=r r=i11 b=a1 x=i13", true},
		{"the way is free", "players=rb turn=r r=i11 b=a1 x=a3", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := mustPosition(t, tt.pos)
			p := e.tdFeatures(&pos, engine.Rules{})
			delay := p.f[0][8]
			if tt.delay {
				assert.Greater(t, delay, 0.0)
			} else {
				assert.InDelta(t, 0, delay, 1e-9)
			}
		})
	}
}

func TestTDTrainerResumesWhereItStopped(t *testing.T) {
	whole := NewTDTrainer(5, 0.5, 0.7, []int{2, 4})
	for range 4 {
		_, err := whole.Step()
		require.NoError(t, err)
	}
	split := NewTDTrainer(5, 0.5, 0.7, []int{2, 4})
	for range 2 {
		_, err := split.Step()
		require.NoError(t, err)
	}
	data, err := split.Marshal()
	require.NoError(t, err)
	resumed, err := ParseTDCheckpoint(data)
	require.NoError(t, err)
	assert.Equal(t, 2, resumed.Info.Games)
	for range 2 {
		_, err := resumed.Step()
		require.NoError(t, err)
	}
	assert.Equal(t, whole.Model.Weights, resumed.Model.Weights, "two sittings end where one does")
	assert.NotEqual(t, hardTDModel().Weights, whole.Model.Weights, "four games moved the weights")
	assert.Equal(t, whole.Model.Weights[2], whole.Model.Weights[1], "three players play by the four-player weights")

	two := NewTDTrainer(5, 0.5, 0.7, []int{2})
	_, err = two.Step()
	require.NoError(t, err)
	assert.NotEqual(t, hardTDModel().Weights[0], two.Model.Weights[0])
	assert.Equal(t, two.Model.Weights[0], two.Model.Weights[1], "three players play by the two-player weights")
	assert.Equal(t, two.Model.Weights[0], two.Model.Weights[2], "four players too")
}

func TestTDLearnMovesEstimatesTowardsTheWinner(t *testing.T) {
	// With λ = 1 every position's target is the winner: one step of
	// learning lowers the log loss of the game's estimates.
	tr := NewTDTrainer(1, 0.5, 1, []int{2})
	e := newEvaluator(defaultParams)
	var seen []tdPosition
	for _, d := range samplePositions(t, []Level{Normal, Easy}, engine.Rules{}, 9, 1) {
		seen = append(seen, e.tdFeatures(&d.pos, d.rules))
	}
	winner := engine.Red // normal sits on Red and beats easy
	loss := func() float64 {
		sum := 0.0
		for i := range seen {
			pr := tr.Model.probs(&seen[i])
			for k := 0; k < seen[i].n; k++ {
				if seen[i].order[k] == winner {
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
}

func TestParseTDModel(t *testing.T) {
	good, err := MarshalTDModel(hardTDModel(), TDTrainInfo{Seed: 3, Games: 10, Players: []int{2}})
	require.NoError(t, err)
	m, info, err := ParseTDModel(good)
	require.NoError(t, err)
	assert.Equal(t, hardTDModel().Weights, m.Weights)
	assert.Equal(t, 10, info.Games)
	tests := []struct {
		name string
		data string
	}{
		{"not JSON", "{"},
		{"other features", `{"features": ["log_total"], "weights": {}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParseTDModel([]byte(tt.data))
			assert.Error(t, err)
		})
	}
	_, err = ParseTDCheckpoint(good[:len(good)-3])
	assert.Error(t, err, "a cut checkpoint")
}

func TestMasterPlaysItsLearnedEvaluation(t *testing.T) {
	p, err := New(Master, 1)
	require.NoError(t, err)
	h := p.(*hardPlayer)
	assert.Same(t, learnedTD, h.td)
	assert.Same(t, learnedNN, h.nn)
	assert.Equal(t, defaultHardBudget, h.budget)
	assert.Nil(t, NewGrader().e.nn, "the coach grades by the linear model")
	assert.Same(t, learnedTD, NewGrader().e.td)
	assert.Nil(t, strongestEvaluator(engine.Rules{}).nn)
	assert.Nil(t, NewTD(learnedTD, 1).(*hardPlayer).nn, "a linear model to measure plays alone")
	for _, d := range tdSample(t)[:6] {
		m := p.Choose(d.pos, d.roll, d.rules, d.moves)
		assert.Contains(t, d.moves, m)
	}
}

// BenchmarkMasterDecision measures master's time per decision, placement
// of a captured barricade included; the target is a p95 under 100 ms.
func BenchmarkMasterDecision(b *testing.B) { benchmarkDecisions(b, Master) }

func TestEmbeddedTDModel(t *testing.T) {
	m, info, err := ParseTDModel(tdJSON)
	require.NoError(t, err)
	assert.Equal(t, []int{2}, info.Players)
	assert.Positive(t, info.Games)
	assert.NotEqual(t, hardTDModel().Weights[0], m.Weights[0], "two players play by learned weights")
	assert.Equal(t, m.Weights[0], m.Weights[1], "three players by the same")
	assert.Equal(t, m.Weights[0], m.Weights[2], "four players by the same")
	assert.Less(t, len(tdJSON), 4<<10, "a small file")
}

// benchmarkEvaluation times one evaluation of a position, value tables
// cached as in a search, with the model td (nil: hard's evaluation).
func benchmarkEvaluation(b *testing.B, td *TDModel) {
	var positions []engine.Position
	for _, d := range benchDecisions(b) {
		positions = append(positions, d.pos)
	}
	e := newEvaluator(defaultParams)
	e.td = td
	for i := range positions {
		e.chances(&positions[i])
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		e.chances(&positions[i%len(positions)])
	}
}

// BenchmarkHardEvaluation measures hard's evaluation of a position.
func BenchmarkHardEvaluation(b *testing.B) { benchmarkEvaluation(b, nil) }

// BenchmarkMasterEvaluation measures master's learned evaluation of a
// position, against BenchmarkHardEvaluation.
func BenchmarkMasterEvaluation(b *testing.B) { benchmarkEvaluation(b, learnedTD) }
