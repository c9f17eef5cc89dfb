package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

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

// TestSwissLateRounds: 64 entrants at tables of 3 up to round 24 and at
// tables of 4 up to round 13, three tournaments each, and not one repeat
// meeting. That is past the rounds where Hajnal–Szemerédi promises a
// seating without repeats (11 and 7: while there are more tables than
// anyone has met others) and past where swaps of two players alone first
// left a repeat in these tournaments (rounds 21–23 and 11–13): there the
// tables seated again a few at a time (repair) find one.
func TestSwissLateRounds(t *testing.T) {
	for _, c := range []struct{ k, rounds int }{{3, 24}, {4, 13}} {
		for seed := range uint64(3) {
			rng := rand.New(rand.NewPCG(64, 1+seed))
			tour := Tournament{Setup: Setup{Format: Swiss, TableSize: c.k, Rounds: c.rounds}, Entrants: newField(rng, 64)}
			for r := range c.rounds {
				before := meetings(tour.Rounds)
				round := next(t, &tour)
				require.Zero(t, repeats(round, before), "tournament %d at tables of %d, round %d", seed+1, c.k, r+1)
				playRound(rng, &tour, 0.05)
			}
		}
	}
}

// BenchmarkSwiss256 pairs a Swiss round of 256 entrants at tables of 2,
// 3 and 4: the first round (everyone at 0 points), the fourth, the eighth
// (the default number of rounds at tables of 2) and the fortieth (far
// past what a tournament of 256 plays), the rounds before paired by the
// package and played out with the higher rated more likely to place well
// (see playByRating) and a forfeit at one table in twenty. Late rounds
// are the hard case: many have met, and the score groups are small and
// many.
func BenchmarkSwiss256(b *testing.B) {
	for k := 2; k <= 4; k++ {
		for _, r := range []int{1, 4, 8, 40} {
			b.Run(fmt.Sprintf("tables-of-%d/round-%d", k, r), func(b *testing.B) {
				tour := swissPlayed(b, 256, k, r-1, uint64(k))
				cpu0 := processCPU(b)
				for b.Loop() {
					if _, err := tour.NextRound(); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu0)
			})
		}
	}
}

// swissPlayed is a Swiss tournament of n entrants at tables of k with
// played rounds paired by the package and played out by playByRating,
// ready for its next round.
func swissPlayed(tb testing.TB, n, k, played int, seed uint64) Tournament {
	tb.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), seed))
	tour := Tournament{Setup: Setup{Format: Swiss, TableSize: k, Rounds: played + 1}, Entrants: newField(rng, n)}
	for range played {
		round, err := tour.NextRound()
		require.NoError(tb, err)
		tour.Rounds = append(tour.Rounds, round)
		playByRating(rng, &tour, 0.05)
	}
	return tour
}

// BenchmarkSwiss256AllRounds plays Swiss tournaments of 256 entrants
// through every round the format allows (255 at tables of 2, 128 at
// tables of 3, 85 at tables of 4), the results drawn by playByRating or
// at random (playRound), and reports the CPU time of the slowest round's
// pairing (worst-cpu-ms), the average (cpu-ms/round) and the earliest
// round that repeated a meeting (first-repeat-round; 0 when none did).
// Each op is a whole tournament, a different one each: run it with
// -benchtime 1x, or 3x for three.
func BenchmarkSwiss256AllRounds(b *testing.B) {
	for k := 2; k <= 4; k++ {
		for _, results := range []string{"by-rating", "random"} {
			b.Run(fmt.Sprintf("tables-of-%d/%s", k, results), func(b *testing.B) {
				var worst, total time.Duration
				rounds, firstRepeat := 0, 0
				for i := 0; b.Loop(); i++ {
					rng := rand.New(rand.NewPCG(256, uint64(i)))
					tour := Tournament{Setup: Setup{Format: Swiss, TableSize: k}, Entrants: newField(rng, 256)}
					tour.Setup.Rounds = MaxRounds(Swiss, 256, k)
					met := make(map[[2]string]int)
					for r := range tour.Setup.Rounds {
						cpu0 := processCPU(b)
						round, err := tour.NextRound()
						took := processCPU(b) - cpu0
						require.NoError(b, err)
						worst, total = max(worst, took), total+took
						rounds++
						if repeats(round, met) > 0 && (firstRepeat == 0 || r+1 < firstRepeat) {
							firstRepeat = r + 1
						}
						for pair, n := range meetings([]Round{round}) {
							met[pair] += n
						}
						tour.Rounds = append(tour.Rounds, round)
						if results == "random" {
							playRound(rng, &tour, 0.05)
						} else {
							playByRating(rng, &tour, 0.05)
						}
					}
				}
				b.ReportMetric(float64(worst.Microseconds())/1000, "worst-cpu-ms")
				b.ReportMetric(float64(total.Microseconds())/1000/float64(rounds), "cpu-ms/round")
				b.ReportMetric(float64(firstRepeat), "first-repeat-round")
			})
		}
	}
}
