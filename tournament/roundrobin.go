package tournament

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

// roundRobin is the next round of the schedule, without the entrants who
// have withdrawn: their tables play without them, a table left with one
// entrant is a bye.
func (t Tournament) roundRobin() Round {
	var round Round
	for _, table := range schedule(len(t.Entrants), t.Setup.TableSize)[len(t.Rounds)] {
		var seats []string
		for _, i := range table {
			if !t.Entrants[i].Withdrawn {
				seats = append(seats, t.Entrants[i].ID)
			}
		}
		if len(seats) > 0 {
			round.Tables = append(round.Tables, Table{Seats: seats})
		}
	}
	return round
}

// schedules caches schedule's answers: a schedule is a pure function of
// the field's size and the table size, and searching one takes a while.
var schedules sync.Map // [2]int{n, k} → [][][]int

// schedule is a round robin of n entrants (by their sign-up index) at
// tables of k: rounds of tables in which every two entrants share a table
// at least once. Tables of 2 follow the circle method: n−1 rounds, or n
// with a bye each when n is odd. Tables of 3 and 4 are of the sizes a
// Swiss round would have (tableSizes), and the rounds as few as a search
// finds (see cover).
func schedule(n, k int) [][][]int {
	key := [2]int{n, k}
	if s, ok := schedules.Load(key); ok {
		return s.([][][]int)
	}
	var s [][][]int
	if k == 2 {
		s = circle(n)
	} else {
		s = cover(n, k)
	}
	schedules.Store(key, s)
	return s
}

// circle is the circle method: entrant 0 (or a bye, when n is odd) stays,
// the others turn one place a round; the first of a row meets the last.
func circle(n int) [][][]int {
	m := n + n%2 // a bye fills an odd field
	ring := make([]int, m)
	for i := range ring {
		ring[i] = i
	}
	rounds := make([][][]int, m-1)
	for r := range rounds {
		for i := range m / 2 {
			a, b := ring[i], ring[m-1-i]
			switch {
			case a == n:
				rounds[r] = append(rounds[r], []int{b})
			case b == n:
				rounds[r] = append(rounds[r], []int{a})
			default:
				rounds[r] = append(rounds[r], []int{min(a, b), max(a, b)})
			}
		}
		// Turn every place but the first.
		last := ring[m-1]
		copy(ring[2:], ring[1:m-1])
		ring[1] = last
	}
	return rounds
}

// coverLowerBound is the fewest rounds that can cover every pair of n at
// tables of the given sizes (the larger first), by counting: a player
// meets at most sizes[0]−1 others a round, and a round covers at most the
// pairs of its tables.
func coverLowerBound(n int, sizes []int) int {
	if n < 2 {
		return 0
	}
	perRound := 0
	for _, s := range sizes {
		perRound += s * (s - 1) / 2
	}
	pairs := n * (n - 1) / 2
	return max((n-1+sizes[0]-2)/(sizes[0]-1), (pairs+perRound-1)/perRound)
}

// coverBudget bounds the search of cover: the swaps it tries for each
// number of rounds.
const coverBudget = 400_000

// cover is a round robin at tables of 3 or 4 (the sizes of tableSizes):
// rounds are added one at a time, each the partition (found by swaps from
// several starts) that covers the most pairs not met yet, until every pair
// has met. Then a search by simulated annealing tries one round fewer at a
// time, down to the counting bound, and keeps the fewest it reaches. The
// search's source is seeded by n and k: the schedule of a field is always
// the same.
//
// Each number of rounds is tried once. A second try with swaps drawn at
// random, none aimed at a pair that has not met, found for no field of 3
// to 32 (every field a round robin takes) what the first had not: without
// it the schedules are the same, in about half the time.
func cover(n, k int) [][][]int {
	sizes := tableSizes(n, k)
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
	c := newCoverage(n)
	var rounds [][]int // rounds[r][p]: the table of player p in round r
	for c.uncovered > 0 {
		best, bestNew := []int(nil), -1
		for range 8 {
			at := randomPartition(rng, n, sizes)
			if got := greedyRound(c, at, len(sizes)); got > bestNew {
				best, bestNew = at, got
			}
		}
		c.add(best, len(sizes), 1)
		rounds = append(rounds, best)
	}
	for r := len(rounds) - 1; r >= coverLowerBound(n, sizes); r-- {
		fewer := anneal(rng, n, sizes, rounds[:r])
		if fewer == nil {
			break
		}
		rounds = fewer
	}
	out := make([][][]int, len(rounds))
	for r, at := range rounds {
		out[r] = tablesOf(at, len(sizes))
	}
	return out
}

// coverage counts how often each pair of players has shared a table.
type coverage struct {
	n         int
	count     []int // count[a*n+b]
	uncovered int   // pairs that never have
}

func newCoverage(n int) *coverage {
	return &coverage{n: n, count: make([]int, n*n), uncovered: n * (n - 1) / 2}
}

// pair changes the count of a–b by d and returns the change in uncovered
// pairs.
func (c *coverage) pair(a, b, d int) int {
	before := c.count[a*c.n+b]
	c.count[a*c.n+b] += d
	c.count[b*c.n+a] += d
	after := before + d
	switch {
	case before == 0 && after > 0:
		c.uncovered--
		return -1
	case before > 0 && after == 0:
		c.uncovered++
		return 1
	}
	return 0
}

// add counts (d = 1) or uncounts (d = −1) a round's pairs.
func (c *coverage) add(at []int, tables, d int) {
	for _, table := range tablesOf(at, tables) {
		for i, a := range table {
			for _, b := range table[i+1:] {
				c.pair(a, b, d)
			}
		}
	}
}

// swap moves player a to b's table and b to a's in the round at, updating
// the counts; it returns the change in uncovered pairs.
func (c *coverage) swap(at []int, a, b int) int {
	ta, tb := at[a], at[b]
	d := 0
	for x := range c.n {
		switch {
		case x == a || x == b:
		case at[x] == ta:
			d += c.pair(a, x, -1) + c.pair(b, x, 1)
		case at[x] == tb:
			d += c.pair(b, x, -1) + c.pair(a, x, 1)
		}
	}
	at[a], at[b] = tb, ta
	return d
}

// randomPartition seats n players at tables of the given sizes at random.
func randomPartition(rng *rand.Rand, n int, sizes []int) []int {
	at := make([]int, 0, n)
	for t, s := range sizes {
		for range s {
			at = append(at, t)
		}
	}
	rng.Shuffle(n, func(i, j int) { at[i], at[j] = at[j], at[i] })
	return at
}

// greedyRound improves the round at by swaps, each the one that covers
// the most new pairs, until none covers more; it returns the new pairs
// the round covers. The counts are left as they were.
func greedyRound(c *coverage, at []int, tables int) int {
	before := c.uncovered
	c.add(at, tables, 1)
	members := tablesOf(at, tables)
	n := c.n
	// lose[p]: the pairs at p's table that only this round covers, what
	// p's leaving uncovers; gain[p*tables+t]: those at table t whom p has
	// never met, what p's joining covers.
	lose, gain := make([]int, n), make([]int, n*tables)
	recount := func(t int) {
		for _, a := range members[t] {
			lose[a] = 0
			for _, x := range members[t] {
				if x != a && c.count[a*n+x] == 1 {
					lose[a]++
				}
			}
		}
		for p := range n {
			g := 0
			for _, y := range members[t] {
				if c.count[p*n+y] == 0 {
					g++
				}
			}
			gain[p*tables+t] = g
		}
	}
	for t := range tables {
		recount(t)
	}
	for {
		// A swap of a and b changes the uncovered pairs by what each
		// uncovers leaving, less what each covers joining the other's
		// table, where the other, gone, was counted if never met.
		best, ba, bb := 0, -1, -1
		for a := range n {
			for b := a + 1; b < n; b++ {
				if at[a] == at[b] {
					continue
				}
				d := lose[a] + lose[b] - gain[a*tables+at[b]] - gain[b*tables+at[a]]
				if c.count[a*n+b] == 0 {
					d += 2
				}
				if d < best {
					best, ba, bb = d, a, b
				}
			}
		}
		if ba < 0 {
			break
		}
		ta, tb := at[ba], at[bb]
		c.swap(at, ba, bb)
		members[ta][slices.Index(members[ta], ba)] = bb
		members[tb][slices.Index(members[tb], bb)] = ba
		recount(ta)
		recount(tb)
	}
	covered := before - c.uncovered
	c.add(at, tables, -1)
	return covered
}

// anneal looks for len(start) rounds that cover every pair, starting from
// start, by simulated annealing over swaps within a round, every other
// swap aimed at a pair that has not met; it returns nil when coverBudget
// swaps did not find them.
//
// Each step weighs a swap by the pairs at its two tables alone (the
// players at each table of each round are kept, in order) and makes it
// only when it is kept: late in a search that fails, most are not.
func anneal(rng *rand.Rand, n int, sizes []int, start [][]int) [][]int {
	rounds := make([][]int, len(start))
	seats := make([][][]int, len(start)) // seats[r][t]: who sits at table t in round r, in order
	c := newCoverage(n)
	for r := range start {
		rounds[r] = slices.Clone(start[r])
		c.add(rounds[r], len(sizes), 1)
		seats[r] = tablesOf(rounds[r], len(sizes))
	}
	temp := 1.0
	// keep[d]: the chance of keeping a swap that uncovers d pairs more,
	// at temp
	keep := make([]float64, 2*sizes[0]+1)
	setKeep := func() {
		for d := 1; d < len(keep); d++ {
			keep[d] = math.Exp(-float64(d) / temp)
		}
	}
	setKeep()
	for i := range coverBudget {
		if c.uncovered == 0 {
			return rounds
		}
		r := rng.IntN(len(rounds))
		at := rounds[r]
		a, b := rng.IntN(n), rng.IntN(n)
		if i%2 == 0 {
			// Bring a pair that has not met together: a joins b's
			// partner at the table of one of b's table-mates.
			u, v := a, b
			if c.count[u*n+v] > 0 || u == v || at[u] == at[v] {
				continue
			}
			mates := 0
			for _, x := range seats[r][at[v]] {
				if x != v {
					mates++
					if rng.IntN(mates) == 0 {
						b = x
					}
				}
			}
			a = u
		}
		if at[a] == at[b] {
			continue
		}
		ta, tb := seats[r][at[a]], seats[r][at[b]]
		if d := c.swapChange(ta, tb, a, b); d <= 0 || rng.Float64() < keep[d] {
			c.swapSeats(at, ta, tb, a, b)
		}
		if i%1000 == 999 {
			temp = max(temp*0.97, 0.3)
			setKeep()
		}
	}
	return nil
}

// swapChange is the change in uncovered pairs that swapping player a, at
// table ta, with b, at table tb, would make.
func (c *coverage) swapChange(ta, tb []int, a, b int) int {
	d := 0
	for _, x := range ta {
		if x != a {
			d += boolInt(c.count[a*c.n+x] == 1) - boolInt(c.count[b*c.n+x] == 0)
		}
	}
	for _, y := range tb {
		if y != b {
			d += boolInt(c.count[b*c.n+y] == 1) - boolInt(c.count[a*c.n+y] == 0)
		}
	}
	return d
}

// swapSeats swaps player a, at table ta, with b, at table tb, in the
// round at, updating the counts; the tables stay in order.
func (c *coverage) swapSeats(at, ta, tb []int, a, b int) {
	for _, x := range ta {
		if x != a {
			c.pair(a, x, -1)
			c.pair(b, x, 1)
		}
	}
	for _, y := range tb {
		if y != b {
			c.pair(b, y, -1)
			c.pair(a, y, 1)
		}
	}
	at[a], at[b] = at[b], at[a]
	ta[slices.Index(ta, a)] = b
	tb[slices.Index(tb, b)] = a
	slices.Sort(ta)
	slices.Sort(tb)
}

// tablesOf turns a round's table of each player into the tables' players.
func tablesOf(at []int, tables int) [][]int {
	out := make([][]int, tables)
	for p, t := range at {
		out[t] = append(out[t], p)
	}
	return out
}
