package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSwissRandomFields plays 1,000 Swiss tournaments of 2 to 20 entrants
// at tables of 2, 3 or 4, for a random number of rounds up to the most
// allowed, with random results, forfeits and withdrawals, and checks
// every round against the test's own exhaustive searches: a round repeats
// a meeting only when no seating of the same table sizes avoids it (at
// tables of 2: it repeats no more meetings than the fewest there can be);
// a bye goes to an entrant with the fewest byes, the lowest ranked of
// them whose bye costs no more repeats than another's would.
func TestSwissRandomFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 1))
	forced := 0
	for f := range 1000 {
		n := 2 + rng.IntN(19)
		k := 2 + rng.IntN(min(3, n-1))
		setup := Setup{Format: Swiss, TableSize: k}
		setup.Rounds = 1 + rng.IntN(MaxRounds(Swiss, n, k))
		tour := Tournament{Setup: setup, Entrants: newField(rng, n)}
		for r := range setup.Rounds {
			name := fmt.Sprintf("field %d (%d at tables of %d), round %d", f, n, k, r+1)
			if r > 0 && rng.IntN(8) == 0 {
				tour.Entrants[rng.IntN(n)].Withdrawn = true
			}
			order := pairingOrder(t, tour)
			var active []string
			for _, s := range order {
				active = append(active, s.Entrant.ID)
			}
			before := meetings(tour.Rounds)
			round := next(t, &tour)

			got := seated(round)
			require.ElementsMatch(t, active, got, name)
			var sizes []int
			for _, table := range round.Tables {
				sizes = append(sizes, len(table.Seats))
			}
			slices.Sort(sizes)
			slices.Reverse(sizes)
			require.Equal(t, tableSizes(len(active), k), sizes, name)

			rest := active
			if k == 2 && len(active)%2 == 1 {
				bye := round.Tables[len(round.Tables)-1]
				require.True(t, bye.Bye(), name)
				at := slices.Index(active, bye.Seats[0])
				fewest := order[0].Byes
				for _, s := range order {
					fewest = min(fewest, s.Byes)
				}
				require.Equal(t, fewest, order[at].Byes, "%s: the bye went to %s, who had one", name, bye.Seats[0])
				rest = slices.Delete(slices.Clone(active), at, at+1)
				cost := repeats(round, before)
				for below := at + 1; below < len(active); below++ {
					if order[below].Byes == fewest {
						other := slices.Delete(slices.Clone(active), below, below+1)
						if cost == 0 {
							assert.False(t, canSeat(other, tableSizes(len(other), 2), before),
								"%s: the bye went to %s, not to %s, ranked lower", name, bye.Seats[0], active[below])
						} else {
							assert.Greater(t, fewestRepeats(other, before), cost,
								"%s: the bye went to %s, not to %s, ranked lower", name, bye.Seats[0], active[below])
						}
					}
				}
			}
			if got := repeats(round, before); got > 0 {
				forced++
				if k == 2 {
					require.Equal(t, fewestRepeats(rest, before), got, "%s: repeat meetings", name)
				} else {
					require.False(t, canSeat(active, tableSizes(len(active), k), before),
						"%s: %d repeat meetings where none was needed", name, got)
				}
			}
			playRound(rng, &tour, 0.1)
		}
	}
	t.Logf("rounds with repeats no seating avoided: %d", forced)
}
