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

// TestSwissFirstRound: with everyone at 0 points, the field is folded by
// rating: each table takes one entrant from each band.
func TestSwissFirstRound(t *testing.T) {
	field := make([]Entrant, 8)
	for i := range field {
		field[i] = Entrant{ID: fmt.Sprintf("p%d", i+1), Rating: float64(1800 - 100*i)}
	}
	tests := []struct {
		name string
		k    int
		want [][]string
	}{
		{"tables of 2: the top half meets the bottom half", 2,
			[][]string{{"p1", "p5"}, {"p2", "p6"}, {"p3", "p7"}, {"p4", "p8"}}},
		{"tables of 3: 3+3+2, one from each band", 3,
			[][]string{{"p1", "p4", "p7"}, {"p2", "p5", "p8"}, {"p3", "p6"}}},
		{"tables of 4: two tables, alternate ranks", 4,
			[][]string{{"p1", "p3", "p5", "p7"}, {"p2", "p4", "p6", "p8"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour := Tournament{Setup: Setup{Format: Swiss, TableSize: tt.k}, Entrants: field}
			round, err := tour.NextRound()
			require.NoError(t, err)
			var got [][]string
			for _, table := range round.Tables {
				got = append(got, table.Seats)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestSwissByes: five entrants at tables of 2 over four rounds: each round
// the bye goes to the lowest ranked who has had none, and nobody has two.
func TestSwissByes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2))
	tour := Tournament{Setup: Setup{Format: Swiss, TableSize: 2, Rounds: 4}, Entrants: newField(rng, 5)}
	had := make(map[string]bool)
	for range 4 {
		order := pairingOrder(t, tour)
		before := meetings(tour.Rounds)
		round := next(t, &tour)
		bye := round.Tables[len(round.Tables)-1]
		require.True(t, bye.Bye())
		require.False(t, had[bye.Seats[0]], "a second bye for %s", bye.Seats[0])
		had[bye.Seats[0]] = true
		// Anyone ranked lower without a bye would have forced a repeat.
		below := false
		for _, s := range order {
			if s.Entrant.ID == bye.Seats[0] {
				below = true
				continue
			}
			if below && !had[s.Entrant.ID] {
				var rest []string
				for _, o := range order {
					if o.Entrant.ID != s.Entrant.ID {
						rest = append(rest, o.Entrant.ID)
					}
				}
				assert.False(t, canSeat(rest, []int{2, 2}, before), "%s is ranked lower and had no bye", s.Entrant.ID)
			}
		}
		playRound(rng, &tour, 0)
	}
	assert.Len(t, had, 4)
}

// TestSwissLargeFields: in fields of 40 to 256, no round repeats a
// meeting while there are more tables than anyone has met others: by the
// Hajnal–Szemerédi theorem a graph of maximum degree Δ can be coloured
// with any number c > Δ of colours in classes whose sizes differ by at
// most one, and such classes are tables of the sizes Swiss uses, where
// nobody has met (the graph: who met whom).
func TestSwissLargeFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 2))
	checked := 0
	for _, n := range []int{40, 57, 64, 101, 128, 256} {
		for k := 2; k <= 4; k++ {
			tour := Tournament{Setup: Setup{Format: Swiss, TableSize: k, Rounds: min(12, MaxRounds(Swiss, n, k))},
				Entrants: newField(rng, n)}
			for r := range tour.Setup.Rounds {
				if r > 0 && rng.IntN(4) == 0 {
					tour.Entrants[rng.IntN(n)].Withdrawn = true
				}
				before := meetings(tour.Rounds)
				degree := make(map[string]int)
				for pair := range before {
					if !tour.Entrants[tour.index(pair[0])].Withdrawn && !tour.Entrants[tour.index(pair[1])].Withdrawn {
						degree[pair[0]]++
					}
				}
				most := 0
				for _, d := range degree {
					most = max(most, d)
				}
				round := next(t, &tour)
				if len(round.Tables) > most {
					checked++
					require.Zero(t, repeats(round, before), "%d at tables of %d, round %d", n, k, r+1)
				}
				playRound(rng, &tour, 0.05)
			}
		}
	}
	t.Logf("rounds checked: %d", checked)
}

// BenchmarkSwiss256 pairs the third round of a Swiss tournament of 256
// entrants, the first two played with random results.
func BenchmarkSwiss256(b *testing.B) {
	for k := 2; k <= 4; k++ {
		b.Run(fmt.Sprintf("tables-of-%d", k), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(256, uint64(k)))
			tour := Tournament{Setup: Setup{Format: Swiss, TableSize: k, Rounds: 5}, Entrants: newField(rng, 256)}
			for range 2 {
				round, err := tour.NextRound()
				require.NoError(b, err)
				tour.Rounds = append(tour.Rounds, round)
				playRound(rng, &tour, 0.05)
			}
			for b.Loop() {
				if _, err := tour.NextRound(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
