package ai

import (
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

const (
	// heldOutTarget is issue 42's aim: the card within HeldOutTolerance of
	// the truth for 95 % of the held-out seats. The learned model alone
	// (SteadyChances, the card before its rollouts) brings 631 seats,
	// 69.6 %, and fails.
	heldOutTarget = 0.95
	// committedHeldOut is how many of the set's 906 seats the card's
	// chances (CardChances) bring within HeldOutTolerance of the truth:
	// 883, 97.5 %.
	committedHeldOut = 883
	// heldOutMargin is how many seats fewer a change may bring there
	// before the test fails, above the target in any case: other dice
	// for the rollouts move the figure by about ten seats.
	heldOutMargin = 12
)

// TestHeldOutChances checks the card's chances (CardChances, what the
// card shows) where games end and where the estimator's training
// games seldom go: on the held-out set, how many seats' chances come
// within 8 points of the rollouts' truth, against the committed figure,
// by kind, table size and house rule, the two positions named.
func TestHeldOutChances(t *testing.T) {
	set := readHeldOut(t)
	require.GreaterOrEqual(t, len(set.Cases), 300, "positions")
	type tally struct{ near, seats int }
	by := map[string]*tally{}
	count := func(key string, near bool) {
		if by[key] == nil {
			by[key] = &tally{}
		}
		by[key].seats++
		if near {
			by[key].near++
		}
	}
	var all tally
	worst, worstAt := 0.0, ""
	cards := make([][engine.NumColors]float64, len(set.Cases))
	inParallel(len(cards), func(i int) { cards[i] = CardChances(set.Cases[i].Position, set.Cases[i].Rules) })
	for i, c := range set.Cases {
		card, truth := cards[i], c.Chances()
		n := len(c.Position.Players())
		for _, col := range c.Position.Players() {
			gap := math.Abs(card[col] - truth[col])
			near := gap <= HeldOutTolerance
			all.seats++
			if near {
				all.near++
			}
			count(string(c.Kind), near)
			count(fmt.Sprintf("%d players", n), near)
			if c.Rules.SixAgain {
				count("six-again", near)
			}
			if gap > worst {
				worst, worstAt = gap, fmt.Sprintf("%s of %s (%s): card %.1f %%, truth %.1f %%", col, c.Position, c.Kind, 100*card[col], 100*truth[col])
			}
			if c.Name != "" {
				assert.True(t, near, "%s, %s: card %.1f %%, truth %.1f %%", c.Name, col, 100*card[col], 100*truth[col])
				t.Logf("%s, %s: card %.1f %%, truth %.1f %%", c.Name, col, 100*card[col], 100*truth[col])
			}
		}
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%-12s %4d of %4d seats within %.0f points (%.1f %%)", k, by[k].near, by[k].seats, 100*HeldOutTolerance, 100*float64(by[k].near)/float64(by[k].seats))
	}
	share := float64(all.near) / float64(all.seats)
	t.Logf("all: %d of %d seats within %.0f points (%.1f %%; the issue's target %.0f %%); the worst: %s",
		all.near, all.seats, 100*HeldOutTolerance, 100*share, 100*heldOutTarget, worstAt)
	assert.GreaterOrEqual(t, share, heldOutTarget, "the share of seats whose card chance is within %.0f points of the truth", 100*HeldOutTolerance)
	assert.GreaterOrEqual(t, all.near, committedHeldOut-heldOutMargin,
		"seats whose card chance is within %.0f points of the truth, against the committed %d", 100*HeldOutTolerance, committedHeldOut)
}
