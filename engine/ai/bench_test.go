package ai

import (
	"slices"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz/engine"
)

// benchDecisions samples mid-game decisions from games between normal
// players: two-player and four-player games, every fifth turn from turn 10
// on, so that barricade captures (the slowest decisions: every placement
// is weighed) appear as often as in play.
func benchDecisions(b testing.TB) []decision {
	b.Helper()
	var out []decision
	for seed := uint64(1); seed <= 3; seed++ {
		for _, levels := range [][]Level{{Normal, Normal}, {Normal, Normal, Normal, Normal}} {
			for _, d := range samplePositions(b, levels, engine.Rules{}, seed, 5) {
				if d.pos.Home(d.pos.Turn()) < engine.PawnsPerColor || len(d.pos.Pawns(d.pos.Turn())) > 0 {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// benchmarkDecisions times one decision of level on each sampled position
// and reports the mean, the 95th percentile and the worst, in milliseconds.
func benchmarkDecisions(b *testing.B, level Level) {
	decisions := benchDecisions(b)
	var times []time.Duration
	var works []int
	captures := 0
	for _, d := range decisions {
		if slices.ContainsFunc(d.moves, func(m engine.Move) bool { return m.Place != engine.NoSquare }) {
			captures++
		}
	}
	b.ResetTimer()
	for b.Loop() {
		for i, d := range decisions {
			p, _ := New(level, uint64(i))
			start := time.Now()
			p.Choose(d.pos, d.roll, d.rules, d.moves)
			times = append(times, time.Since(start))
			if h, ok := p.(*hardPlayer); ok {
				works = append(works, h.work)
			}
		}
	}
	slices.Sort(times)
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(sum)/float64(len(times)), "mean-ms")
	b.ReportMetric(ms(times[len(times)*95/100]), "p95-ms")
	b.ReportMetric(ms(times[len(times)-1]), "max-ms")
	b.ReportMetric(float64(len(decisions)), "positions")
	b.ReportMetric(float64(captures), "with-capture")
	if len(works) > 0 {
		slices.Sort(works)
		b.ReportMetric(float64(works[len(works)*95/100]), "p95-work")
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkHardDecision measures hard's time per decision, placement of a
// captured barricade included; the target is a p95 under 50 ms.
func BenchmarkHardDecision(b *testing.B) { benchmarkDecisions(b, Hard) }

// BenchmarkNormalDecision measures normal's time per decision.
func BenchmarkNormalDecision(b *testing.B) { benchmarkDecisions(b, Normal) }

// BenchmarkGreedyDecision measures greedy's time per decision.
func BenchmarkGreedyDecision(b *testing.B) { benchmarkDecisions(b, Greedy) }

// BenchmarkExpertDecision measures expert's time per decision, placement
// of a captured barricade included; the target is a p95 under 100 ms and a
// worst case under 500 ms.
func BenchmarkExpertDecision(b *testing.B) { benchmarkDecisions(b, Expert) }

// benchmarkEstimates times one estimate of est on each position of the
// sampled decisions and reports the mean, the 95th percentile and the
// worst, in milliseconds.
func benchmarkEstimates(b *testing.B, est Estimator) {
	decisions := benchDecisions(b)
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		for _, d := range decisions {
			start := time.Now()
			est(d.pos, d.rules)
			times = append(times, time.Since(start))
		}
	}
	slices.Sort(times)
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(sum)/float64(len(times)), "mean-ms")
	b.ReportMetric(ms(times[len(times)*95/100]), "p95-ms")
	b.ReportMetric(ms(times[len(times)-1]), "max-ms")
	b.ReportMetric(float64(len(decisions)), "positions")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkWinChances measures the learned estimator, a fresh one per
// estimate as the bot calls it; the target is a p95 under 15 ms.
func BenchmarkWinChances(b *testing.B) { benchmarkEstimates(b, WinChances) }

// BenchmarkRolloutChances measures the Monte Carlo estimator at the
// number of rollouts it was compared at (see the package comment).
func BenchmarkRolloutChances(b *testing.B) {
	benchmarkEstimates(b, RolloutEstimator{Rollouts: rolloutsCompared, Seed: 1}.Chances)
}

// BenchmarkCardChances measures the card's chances (CardChances without
// its cache) over the benchmark's positions of whole games, from the
// first turn to the last.
func BenchmarkCardChances(b *testing.B) {
	benchmarkEstimates(b, func(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
		return cardChances(pos, r, nil)
	})
}
