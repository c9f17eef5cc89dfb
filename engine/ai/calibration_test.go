package ai

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The calibration test plays calibrationGames games of the mixed series of
// seed calibrationSeed between greedy, easy and normal players (hard and
// expert would take minutes), a third of them for each table size, and
// scores WinChances on every position. The games replay exactly, so the
// figures change only when the code does: the estimator, the evaluation or
// the players.
const (
	calibrationSeed  = 7
	calibrationGames = 300
	// committedBrier is the Brier score of the committed model on these
	// games, all table sizes together (the heuristic scores 0.1393, 1/n for
	// everyone 0.2051; the model before the calibration layer 0.1318, the
	// model fitted to these players' games alone, before the held-out
	// positions, 0.1307: the games played out by the reply policy cost it
	// 0.002 here).
	committedBrier = 0.1328
	// brierMargin is how much worse the score may get before the test
	// fails. On unchanged code the games and the score replay exactly, so
	// the margin is for changes that should pass: retraining the model on
	// other games moves the score by a few thousandths. It was a third of
	// the gap to the hand-made evaluation (0.0086) when it was set; the
	// committed model's gap is 0.0065.
	brierMargin = 0.003
	// calibrationMinBin is how many estimates a decile needs on these games
	// for its gap to count.
	calibrationMinBin = 500
	// gapMargin is how many points a table size's largest decile gap may
	// grow over its committed figure. A hundred games of one size leave
	// each decile's observed share a few points of noise (the bootstrap
	// over games the test logs), so the bound catches a miscalibrated
	// estimator, not a retrained one: the model before the calibration
	// layer scored 6.5, 9.2 and 3.7 points here, and fails.
	gapMargin = 1.5
)

// committedGaps are the committed model's largest decile gaps, in points,
// for 2, 3 and 4 players on the test's games (over 2,000 games of each
// size they are 1.8, 1.3 and 2.6: see the README; the model before it
// scored 3.3, 3.9 and 5.9 here, within these bounds too).
var committedGaps = [3]float64{4.0, 3.9, 4.6}

func TestCalibration(t *testing.T) {
	pool := []Level{Greedy, Easy, Normal}
	games := make([]GameRecord, calibrationGames)
	errs := make([]error, calibrationGames)
	// Each game depends on its index alone: played on every core.
	inParallel(calibrationGames, func(i int) { games[i], errs[i] = PlayMixedGame(calibrationSeed, i, pool) })
	for i, err := range errs {
		require.NoError(t, err, "game %d", i)
	}
	c := Calibrate(games, WinChances, 1)
	h := Calibrate(games, HeuristicChances, 1)
	t.Logf("Brier %.4f (heuristic %.4f, 1/n %.4f) on %d positions, %d estimates; bootstrap standard error %.4f",
		c.Brier, h.Brier, c.BrierUniform, c.Positions, c.Estimates, brierSE(games))
	require.LessOrEqual(t, c.Brier, committedBrier+brierMargin, "Brier score against the committed %.4f", committedBrier)
	assert.Less(t, c.Brier, c.BrierUniform, "better than 1/n for everyone")
	// Paired on the same games, the learned estimator beats the hand-made
	// evaluation by far more than the games' noise.
	assert.Less(t, c.Brier, h.Brier-0.005, "better than the hand-made evaluation")

	for n := 2; n <= 4; n++ {
		t.Run(fmt.Sprintf("%d players", n), func(t *testing.T) {
			sub := GamesOf(games, n)
			require.Len(t, sub, calibrationGames/3)
			c := CalibrateGames(sub, WinChances, 1, 200, calibrationSeed)
			gap := 100 * c.MaxGap(calibrationMinBin)
			for _, b := range c.Bins {
				if b.N >= calibrationMinBin {
					t.Logf("%3.0f–%3.0f %%: %6d estimates, predicted %4.1f %%, observed %4.1f %% (95 %% interval of the gap %+.1f to %+.1f)",
						100*b.Lo, 100*b.Hi, b.N, 100*b.Predicted, 100*b.Observed, 100*b.GapLow, 100*b.GapHigh)
				}
			}
			t.Logf("largest decile gap %.1f points (committed %.1f)", gap, committedGaps[n-2])
			assert.LessOrEqual(t, gap, committedGaps[n-2]+gapMargin, "%d players: a decile's gap passes the committed bound", n)
		})
	}
}

// brierSE is the standard error of WinChances' Brier score over games by a
// bootstrap of whole games.
func brierSE(games []GameRecord) float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	per := make([]Calibration, len(games))
	for i, g := range games {
		per[i] = Calibrate([]GameRecord{g}, WinChances, 1)
	}
	var scores []float64
	for range 200 {
		sum, n := 0.0, 0
		for range games {
			p := &per[rng.IntN(len(per))]
			sum += p.Brier * float64(p.Estimates)
			n += p.Estimates
		}
		scores = append(scores, sum/float64(n))
	}
	mean, sq := 0.0, 0.0
	for _, s := range scores {
		mean += s
	}
	mean /= float64(len(scores))
	for _, s := range scores {
		sq += (s - mean) * (s - mean)
	}
	return math.Sqrt(sq / float64(len(scores)-1))
}

// TestCalibrateGamesIntervals checks the cluster bootstrap: the interval
// holds the gap, and a sample of one game repeated has the same figures
// but no spread.
func TestCalibrateGamesIntervals(t *testing.T) {
	pool := []Level{Greedy}
	var games []GameRecord
	for i := range 12 {
		g, err := PlayMixedGame(3, i, pool)
		require.NoError(t, err)
		games = append(games, g)
	}
	c := CalibrateGames(games, WinChances, 1, 300, 1)
	assert.Equal(t, Calibrate(games, WinChances, 1).Brier, c.Brier, "the same figures as Calibrate")
	spread := false
	for _, b := range c.Bins {
		if b.N == 0 {
			continue
		}
		assert.LessOrEqual(t, b.GapLow, b.Gap()+1e-9, "%.1f: low end", b.Lo)
		assert.GreaterOrEqual(t, b.GapHigh, b.Gap()-1e-9, "%.1f: high end", b.Lo)
		spread = spread || b.GapHigh > b.GapLow
	}
	assert.True(t, spread, "twelve games differ")
	same := CalibrateGames([]GameRecord{games[0], games[0], games[0]}, WinChances, 1, 100, 1)
	for _, b := range same.Bins {
		if b.N > 0 {
			assert.InDelta(t, b.Gap(), b.GapLow, 1e-9, "one game: no spread")
			assert.InDelta(t, b.Gap(), b.GapHigh, 1e-9, "one game: no spread")
		}
	}
	assert.Len(t, GamesOf(games, 3), 4)
}
