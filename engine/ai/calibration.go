package ai

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/malefiz-discord/malefiz/engine"
)

// Estimator returns each colour's chance to win from a position under
// rules, indexed by colour: WinChances, HeuristicChances or a
// RolloutEstimator's Chances.
type Estimator func(pos engine.Position, r engine.Rules) [engine.NumColors]float64

// CalibrationBin is one bin of a calibration table: the estimates whose
// predicted chance fell in [Lo, Hi).
type CalibrationBin struct {
	// Lo and Hi bound the predicted chances of the bin.
	Lo, Hi float64
	// N is how many estimates fell in the bin.
	N int
	// Predicted is their mean predicted chance.
	Predicted float64
	// Observed is the share of them whose colour won.
	Observed float64
	// GapLow and GapHigh bound the 95 % interval of Observed minus
	// Predicted by a bootstrap over whole games (CalibrateGames with
	// resamples); both 0 when not measured. The positions of one game
	// share its winner, so a game, not a position, is the unit.
	GapLow, GapHigh float64
}

// Gap is Observed minus Predicted: positive when the estimator was
// underconfident in the bin.
func (b CalibrationBin) Gap() float64 { return b.Observed - b.Predicted }

// Calibration measures an estimator on finished games: every estimate of
// a colour's chance (one per colour in play and position) against whether
// that colour won.
type Calibration struct {
	// Games and Positions are how many games and positions were estimated.
	Games, Positions int
	// Estimates is how many chances were estimated: a position of n
	// players gives n.
	Estimates int
	// Brier is the mean squared difference between the estimate and the
	// outcome (1 for the winner, 0 otherwise), over all estimates.
	Brier float64
	// BrierUniform is the Brier score of the estimate 1/n for everyone, for
	// comparison.
	BrierUniform float64
	// LogLoss is the mean of -ln(chance of the winner) over positions.
	LogLoss float64
	// Bins is the calibration table by tenth of predicted chance.
	Bins [10]CalibrationBin
}

// MaxGap returns the largest difference between the predicted and the
// observed chance over the bins that hold at least minN estimates.
func (c *Calibration) MaxGap(minN int) float64 {
	gap := 0.0
	for _, b := range c.Bins {
		if b.N >= minN {
			gap = max(gap, math.Abs(b.Gap()))
		}
	}
	return gap
}

// Calibrate measures est on every every-th position of games (1: all).
func Calibrate(games []GameRecord, est Estimator, every int) Calibration {
	return CalibrateGames(games, est, every, 0, 0)
}

// CalibrateGames is Calibrate with, when resamples is positive, the 95 %
// interval of each bin's gap by a cluster bootstrap: resamples draws of as
// many games as were played, with replacement, from a generator seeded
// with seed.
func CalibrateGames(games []GameRecord, est Estimator, every, resamples int, seed uint64) Calibration {
	every = max(every, 1)
	tallies := make([]tally, len(games))
	k := 0
	for i, g := range games {
		t := &tallies[i]
		for _, pos := range g.Positions {
			k++
			if k%every == 0 {
				t.add(est(pos, g.Rules), pos.Players(), g.Winner)
			}
		}
	}
	var sum tally
	for i := range tallies {
		sum.merge(&tallies[i])
	}
	c := sum.calibration(len(games))
	if resamples <= 0 || len(games) == 0 {
		return c
	}
	rng := rand.New(rand.NewPCG(seed, 0x626f6f74)) // "boot"
	gaps := make([][]float64, len(c.Bins))
	for range resamples {
		var s tally
		for range games {
			s.merge(&tallies[rng.IntN(len(tallies))])
		}
		for b := range c.Bins {
			if s.n[b] > 0 {
				gaps[b] = append(gaps[b], (s.sumY[b]-s.sumP[b])/float64(s.n[b]))
			}
		}
	}
	for b := range c.Bins {
		if len(gaps[b]) == 0 {
			continue
		}
		slices.Sort(gaps[b])
		c.Bins[b].GapLow = quantile(gaps[b], 0.025)
		c.Bins[b].GapHigh = quantile(gaps[b], 0.975)
	}
	return c
}

// quantile returns the q-quantile of sorted xs (the nearest rank).
func quantile(xs []float64, q float64) float64 {
	i := int(math.Round(q * float64(len(xs)-1)))
	return xs[min(max(i, 0), len(xs)-1)]
}

// GamesOf returns the games of games that n players began.
func GamesOf(games []GameRecord, n int) []GameRecord {
	var out []GameRecord
	for _, g := range games {
		if len(g.Levels) == n {
			out = append(out, g)
		}
	}
	return out
}

// tally is the sums of a calibration over some positions.
type tally struct {
	positions, estimates     int
	brier, brierUniform, log float64
	n                        [10]int
	sumP, sumY               [10]float64
}

// add counts the chances ch of one position whose players are players,
// won by winner.
func (t *tally) add(ch [engine.NumColors]float64, players []engine.Color, winner engine.Color) {
	n := float64(len(players))
	t.positions++
	t.log -= math.Log(max(ch[winner], 1e-12))
	for _, col := range players {
		p := ch[col]
		y := 0.0
		if col == winner {
			y = 1
		}
		t.estimates++
		t.brier += (p - y) * (p - y)
		t.brierUniform += (1/n - y) * (1/n - y)
		bin := min(int(p*10), 9)
		t.n[bin]++
		t.sumP[bin] += p
		t.sumY[bin] += y
	}
}

// merge adds o's sums to t's.
func (t *tally) merge(o *tally) {
	t.positions += o.positions
	t.estimates += o.estimates
	t.brier += o.brier
	t.brierUniform += o.brierUniform
	t.log += o.log
	for b := range t.n {
		t.n[b] += o.n[b]
		t.sumP[b] += o.sumP[b]
		t.sumY[b] += o.sumY[b]
	}
}

// calibration turns the sums of games games into their calibration.
func (t *tally) calibration(games int) Calibration {
	c := Calibration{Games: games, Positions: t.positions, Estimates: t.estimates}
	if t.estimates > 0 {
		c.Brier = t.brier / float64(t.estimates)
		c.BrierUniform = t.brierUniform / float64(t.estimates)
		c.LogLoss = t.log / float64(t.positions)
	}
	for i := range c.Bins {
		b := &c.Bins[i]
		b.Lo, b.Hi, b.N = float64(i)/10, float64(i+1)/10, t.n[i]
		if b.N > 0 {
			b.Predicted = t.sumP[i] / float64(b.N)
			b.Observed = t.sumY[i] / float64(b.N)
		}
	}
	return c
}
