package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRoundRobinComplete plays round robins of 2 to 32 entrants at
// tables of 2, 3 and 4 through NextRound: each round seats everyone
// once, at tables of the sizes a Swiss round has, and by the end every
// two entrants have shared a table. It logs the rounds of fields of 4 to
// 16 against the counting bound, the figures of the package
// documentation.
func TestRoundRobinComplete(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 3))
	var figures strings.Builder
	for k := 2; k <= 4; k++ {
		fmt.Fprintf(&figures, "\ntables of %d, rounds (bound):", k)
		for n := k; n <= MaxRoundRobinField; n++ {
			if k > 2 && n > 16 && n != 20 && n != 32 {
				continue
			}
			tour := Tournament{Setup: Setup{Format: RoundRobin, TableSize: k}, Entrants: newField(rng, n)}
			var ids []string
			for _, e := range tour.Entrants {
				ids = append(ids, e.ID)
			}
			rounds := tour.Setup.RoundCount(n)
			for r := range rounds {
				round := next(t, &tour)
				require.ElementsMatch(t, ids, seated(round), "%d at tables of %d, round %d", n, k, r+1)
				var sizes []int
				for _, table := range round.Tables {
					sizes = append(sizes, len(table.Seats))
				}
				slices.Sort(sizes)
				slices.Reverse(sizes)
				require.Equal(t, tableSizes(n, k), sizes, "%d at tables of %d, round %d", n, k, r+1)
				playRound(rng, &tour, 0)
			}
			_, err := tour.NextRound()
			require.ErrorIs(t, err, ErrFinished)
			require.True(t, tour.Finished())
			met := meetings(tour.Rounds)
			for _, a := range ids {
				for _, b := range ids {
					require.True(t, a == b || met[[2]string{a, b}] > 0, "%d at tables of %d: %s never met %s", n, k, a, b)
				}
			}
			bound := coverLowerBound(n, tableSizes(n, k))
			require.GreaterOrEqual(t, rounds, bound)
			if k == 2 {
				require.Equal(t, n-1+n%2, rounds, "the circle method")
			}
			if n >= 4 && n <= 16 && k <= n {
				fmt.Fprintf(&figures, " %d: %d (%d)", n, rounds, bound)
			}
		}
	}
	t.Log(figures.String())
}

// TestRoundRobinWithdrawn: an entrant who withdraws is not seated again;
// their tables play without them.
func TestRoundRobinWithdrawn(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 4))
	tour := Tournament{Setup: Setup{Format: RoundRobin, TableSize: 3}, Entrants: newField(rng, 7)}
	next(t, &tour)
	playRound(rng, &tour, 0)
	tour.Entrants[1].Withdrawn = true
	for !tour.Finished() {
		want := schedule(7, 3)[len(tour.Rounds)]
		round := next(t, &tour)
		assert.NotContains(t, seated(round), "p02")
		assert.Len(t, seated(round), 6)
		assert.Len(t, round.Tables, len(want), "a table of one is a bye, none is dropped")
		playRound(rng, &tour, 0)
	}
}

// TestScheduleSame: a field's schedule is the same at every search, so a
// restarted bot pairs the same rounds.
func TestScheduleSame(t *testing.T) {
	for _, n := range []int{6, 11, 16} {
		assert.Equal(t, cover(n, 4), cover(n, 4), "%d at tables of 4", n)
	}
}

func TestCircle(t *testing.T) {
	assert.Equal(t, [][][]int{{{0, 3}, {1, 2}}, {{0, 2}, {1, 3}}, {{0, 1}, {2, 3}}}, circle(4))
	assert.Equal(t, [][][]int{{{0}, {1, 2}}, {{0, 2}, {1}}, {{0, 1}, {2}}}, circle(3))
}

// BenchmarkRoundRobinSchedule searches the schedule of a round robin (as
// the first round of a field of that size does; later rounds read it from
// the cache) for 12 to 32 entrants at tables of 3 and 4, the sizes
// that search longest; tables of 2 follow the circle method.
func BenchmarkRoundRobinSchedule(b *testing.B) {
	for k := 3; k <= 4; k++ {
		for _, n := range []int{12, 19, 25, 32} {
			b.Run(fmt.Sprintf("tables-of-%d/entrants-%d", k, n), func(b *testing.B) {
				cpu0 := processCPU(b)
				for b.Loop() {
					if len(cover(n, k)) == 0 {
						b.Fatal("no rounds")
					}
				}
				reportCPU(b, cpu0)
			})
		}
	}
}
