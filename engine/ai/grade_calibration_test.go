//go:build experiment

package ai

// The calibration of the grading's thresholds (InaccuracyLoss,
// MistakeLoss, BlunderLoss) and of MoveAccuracy's scale: games of each
// level against normal, two players, seats alternating, every decision of
// the level's seat graded. Too slow for the test suite (some 100 rolls a
// player a game, each graded two turns deep), so it builds only with the
// experiment tag:
//
//	GOMAXPROCS=1 MALEFIZ_GRADE_GAMES=20 go test -tags experiment -run TestGradeCalibration -v -timeout 1h ./engine/ai
//
// It prints, per level, the decisions graded, the mean loss, the mean
// accuracy, the share of moves whose loss reads each threshold or more
// (Points) and the loss at the 50th, 90th, 99th percentile.

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/malefiz-discord/malefiz/engine"
)

func TestGradeCalibration(t *testing.T) {
	games := envInt(t, "MALEFIZ_GRADE_GAMES", 20)
	for _, level := range []Level{Master, Hard, Normal, Greedy, Easy} {
		var losses []float64
		acc := 0.0
		for i := range games {
			levels := []Level{level, Normal}
			seat := engine.Red
			if i%2 == 1 {
				levels, seat = []Level{Normal, level}, engine.Blue
			}
			seed := splitmix(41, uint64(i))
			g := playOut(t, levels, engine.Rules{}, rand.New(rand.NewPCG(seed, 99)),
				func(turn int) uint64 { return seed + uint64(turn) }, func(*engine.Game, int, []engine.Move, engine.Move) {})
			gr := NewGrader()
			for _, r := range Rolls(g) {
				if r.Color != seat {
					continue
				}
				if grade := gr.judge(r, g.Rules()); grade.Graded() { // Grade less the luck
					losses = append(losses, grade.Loss)
					acc += MoveAccuracy(grade.Loss)
				}
			}
		}
		slices.Sort(losses)
		share := func(x float64) float64 { // the share of losses that read x points or more
			n := 0
			for _, l := range losses {
				if float64(Points(l)) >= x {
					n++
				}
			}
			return 100 * float64(n) / float64(len(losses))
		}
		mean := 0.0
		for _, l := range losses {
			mean += l
		}
		mean /= float64(len(losses))
		pct := func(p float64) float64 { return losses[int(p*float64(len(losses)-1))] }
		t.Logf("%-6s %5d decisions in %d games: mean loss %.2f, accuracy %.1f; ≥1 %.1f %%, ≥%g %.1f %%, ≥%g %.1f %%, ≥%g %.1f %%; p50 %.2f p90 %.2f p99 %.2f",
			level, len(losses), games, mean, acc/float64(len(losses)), share(1),
			InaccuracyLoss, share(InaccuracyLoss), MistakeLoss, share(MistakeLoss), BlunderLoss, share(BlunderLoss),
			pct(0.5), pct(0.9), pct(0.99))
	}
}

// TestGradePruning measures what the grading's cheap pass costs in
// accuracy: on the benchmark's sampled decisions (benchDecisions' games,
// every fifth turn), the best move and its value by the grading's search
// against a search that weighs every legal move, every square of a
// captured barricade, two turns ahead. It logs how often the two best
// moves differ, and by how much the pruned search's best falls short of
// the full search's best, in points:
//
//	go test -tags experiment -run TestGradePruning -v -timeout 1h ./engine/ai
func TestGradePruning(t *testing.T) {
	decisions := benchDecisions(t)
	gr := NewGrader()
	differ, worse, worst, n := 0, 0.0, 0.0, 0
	for _, d := range decisions {
		if outcomes(d.pos, d.roll, d.rules, d.moves) <= 1 {
			continue
		}
		n++
		s := gr.searcher(d.pos.Turn(), d.rules)
		opts, best, _ := gr.search(&s, d.pos, d.roll, d.rules, d.moves, NoMove, NoMove)
		pruned := opts[best].move
		full, fullValue := NoMove, -1.0
		var prunedValue float64
		for _, m := range d.moves {
			after := d.pos
			after.Play(m, d.roll, d.rules)
			v := s.expect(&after, s.budget.depth)
			if m == pruned {
				prunedValue = v
			}
			if v > fullValue {
				full, fullValue = m, v
			}
		}
		if full != pruned {
			differ++
			short := 100 * (fullValue - prunedValue)
			worse += short
			worst = max(worst, short)
		}
	}
	t.Logf("%d decisions: the pruned search's best differs from the full search's in %d (%.1f %%), %.2f points short on average (%.3f per decision), %.2f at most",
		n, differ, 100*float64(differ)/float64(n), worse/float64(max(differ, 1)), worse/float64(n), worst)
}
