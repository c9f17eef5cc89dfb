package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBracket(t *testing.T) {
	assert.Equal(t, [][]int{{1, 8}, {4, 5}, {2, 7}, {3, 6}}, bracket(3, 2), "the usual bracket of 8")
	assert.Equal(t, [][]int{{1, 8, 9, 16}, {2, 7, 10, 15}, {3, 6, 11, 14}, {4, 5, 12, 13}}, bracket(2, 4))
	assert.Equal(t, [][]int{{1}}, bracket(0, 3))
	for k := 2; k <= 4; k++ {
		for depth := 1; depth <= 4; depth++ {
			tables := bracket(depth, k)
			slots := len(tables) * k
			require.Equal(t, slots, pow(k, depth))
			all := slices.Sorted(slices.Values(slices.Concat(tables...)))
			for i, s := range all {
				require.Equal(t, i+1, s, "tables of %d, depth %d: every seed once", k, depth)
			}
			// Seeds 1 … k^(depth−1) lead one table each: the byes go to them.
			for i, table := range tables {
				assert.LessOrEqual(t, table[0], len(tables), "tables of %d, depth %d, table %d", k, depth, i)
			}
			// Seeds 1 … k start in different parts of the bracket: they
			// meet only at the final.
			if depth > 1 {
				part := make(map[int]int)
				for i, table := range tables {
					for _, s := range table {
						if s <= k {
							part[i/(len(tables)/k)]++
						}
					}
				}
				assert.Len(t, part, k, "tables of %d, depth %d", k, depth)
			}
		}
	}
}

func pow(k, d int) int {
	p := 1
	for range d {
		p *= k
	}
	return p
}

// TestKnockoutPlays plays knockouts of 2 to 40 entrants at tables of 2, 3
// and 4 with random results: the first round gives its byes to the top
// seeds, each later round seats exactly the winners of the round before,
// the last round is one table, and its winner leads the standings.
func TestKnockoutPlays(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 5))
	for k := 2; k <= 4; k++ {
		for n := k; n <= 40; n++ {
			name := fmt.Sprintf("%d at tables of %d", n, k)
			tour := Tournament{Setup: Setup{Format: Knockout, TableSize: k}, Entrants: newField(rng, n)}
			first := next(t, &tour)
			seeds := slices.Clone(tour.Entrants)
			slices.SortStableFunc(seeds, func(a, b Entrant) int { return int(b.Rating - a.Rating) })
			var byes []string
			for _, table := range first.Tables {
				if table.Bye() {
					byes = append(byes, table.Seats[0])
				}
			}
			for i, id := range byes {
				assert.Contains(t, byes, seeds[i].ID, "%s: bye %d went to %s", name, i+1, id)
			}
			assert.Len(t, seated(first), n)
			for len(tour.Rounds) < tour.Setup.RoundCount(n) {
				playRound(rng, &tour, 0.05)
				var winners []string
				for _, table := range tour.Rounds[len(tour.Rounds)-1].Tables {
					if w := winner(table); w != "" {
						winners = append(winners, w)
					}
				}
				round := next(t, &tour)
				require.ElementsMatch(t, winners, seated(round), name)
				for _, table := range round.Tables {
					assert.LessOrEqual(t, len(table.Seats), k)
				}
			}
			last := tour.Rounds[len(tour.Rounds)-1]
			require.LessOrEqual(t, len(last.Tables), 1, "%s: the final", name)
			playRound(rng, &tour, 0)
			_, err := tour.NextRound()
			require.ErrorIs(t, err, ErrFinished)
			if len(last.Tables) == 1 {
				st, err := tour.Standings()
				require.NoError(t, err)
				if w := winner(last.Tables[0]); w != "" {
					assert.Equal(t, w, st[0].Entrant.ID, name)
					assert.False(t, st[0].Out)
				}
				for _, s := range st[1:] {
					assert.True(t, s.Out, "%s: %s", name, s.Entrant.ID)
				}
			}
		}
	}
}

// TestKnockoutEight: the knockout of four tables of 2: 4, 2 and
// 1 tables, no byes.
func TestKnockoutEight(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 6))
	tour := Tournament{Setup: Setup{Format: Knockout, TableSize: 2}, Entrants: newField(rng, 8)}
	for _, tables := range []int{4, 2, 1} {
		round := next(t, &tour)
		require.Len(t, round.Tables, tables)
		for _, table := range round.Tables {
			require.Len(t, table.Seats, 2)
		}
		playRound(rng, &tour, 0)
	}
	assert.True(t, tour.Finished())
}

// TestKnockoutWithdrawn: a winner who withdraws is not seated in the next
// round; a table left with one entrant is a bye.
func TestKnockoutWithdrawn(t *testing.T) {
	tour := Tournament{Setup: Setup{Format: Knockout, TableSize: 2}, Entrants: entrants(4)}
	for i := range tour.Entrants {
		tour.Entrants[i].Rating = float64(1600 - 10*i)
	}
	first := next(t, &tour)
	require.Equal(t, []string{"p1", "p4"}, first.Tables[0].Seats)
	require.Equal(t, []string{"p2", "p3"}, first.Tables[1].Seats)
	tour.Rounds[0].Tables[0].Result = won("p1", "p4")
	tour.Rounds[0].Tables[1].Result = won("p3", "p2")
	tour.Entrants[0].Withdrawn = true
	final := next(t, &tour)
	require.Len(t, final.Tables, 1)
	assert.Equal(t, []string{"p3"}, final.Tables[0].Seats)
	assert.True(t, final.Tables[0].Bye())
	st, err := tour.Standings()
	require.NoError(t, err)
	assert.Equal(t, "p3", st[0].Entrant.ID)
	assert.True(t, tour.Finished())
}
