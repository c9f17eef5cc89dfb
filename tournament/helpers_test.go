package tournament

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// newField is n entrants p01, p02, … with ratings drawn from rng, some of
// them equal.
func newField(rng *rand.Rand, n int) []Entrant {
	field := make([]Entrant, n)
	for i := range field {
		field[i] = Entrant{ID: fmt.Sprintf("p%02d", i+1), Rating: float64(1400 + 10*rng.IntN(20))}
	}
	return field
}

// playRound gives every table of the last round a result: the seats in
// an order drawn from rng, and with chance forfeit one seat forfeits.
func playRound(rng *rand.Rand, tour *Tournament, forfeit float64) {
	round := &tour.Rounds[len(tour.Rounds)-1]
	for i := range round.Tables {
		table := &round.Tables[i]
		if table.Bye() {
			continue
		}
		places := slices.Clone(table.Seats)
		rng.Shuffle(len(places), func(a, b int) { places[a], places[b] = places[b], places[a] })
		table.Result = &Result{Places: places}
		if rng.Float64() < forfeit {
			table.Result.Forfeited = []string{places[rng.IntN(len(places))]}
		}
	}
}

// playByRating gives every table of the last round a result as a field
// of mixed strength would: each seat's performance is its rating plus a
// normal spread of 200 points, the best first, and with chance forfeit
// one seat forfeits.
func playByRating(rng *rand.Rand, tour *Tournament, forfeit float64) {
	rating := make(map[string]float64, len(tour.Entrants))
	for _, e := range tour.Entrants {
		rating[e.ID] = e.Rating
	}
	round := &tour.Rounds[len(tour.Rounds)-1]
	for i := range round.Tables {
		table := &round.Tables[i]
		if table.Bye() {
			continue
		}
		perf := make(map[string]float64, len(table.Seats))
		for _, id := range table.Seats {
			perf[id] = rating[id] + 200*rng.NormFloat64()
		}
		places := slices.Clone(table.Seats)
		slices.SortFunc(places, func(a, b string) int { return cmp.Compare(perf[b], perf[a]) })
		table.Result = &Result{Places: places}
		if rng.Float64() < forfeit {
			table.Result.Forfeited = []string{places[rng.IntN(len(places))]}
		}
	}
}

// processCPU is the CPU time the process has used, all its threads, the
// collector's included: a benchmark's cpu-ms/op, which a busy machine's
// other work does not lengthen as it does the wall-clock ns/op.
func processCPU(tb testing.TB) time.Duration {
	tb.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per op since cpu0, as cpu-ms/op.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64((processCPU(b)-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// next pairs the tournament's next round and appends it.
func next(t *testing.T, tour *Tournament) Round {
	t.Helper()
	round, err := tour.NextRound()
	require.NoError(t, err)
	tour.Rounds = append(tour.Rounds, round)
	return round
}

// pairingOrder is the active entrants ranked as Swiss pairs them: points,
// then rating, then sign-up order.
func pairingOrder(t *testing.T, tour Tournament) []Standing {
	t.Helper()
	st, err := tour.Standings()
	require.NoError(t, err)
	st = slices.DeleteFunc(st, func(s Standing) bool { return s.Entrant.Withdrawn })
	slices.SortFunc(st, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Entrant.Rating, a.Entrant.Rating), cmp.Compare(a.order, b.order))
	})
	return st
}

// meetings counts, for each pair of IDs, the tables they shared.
func meetings(rounds []Round) map[[2]string]int {
	met := make(map[[2]string]int)
	for _, r := range rounds {
		for _, table := range r.Tables {
			for _, a := range table.Seats {
				for _, b := range table.Seats {
					if a != b {
						met[[2]string{a, b}]++
					}
				}
			}
		}
	}
	return met
}

// repeats counts the pairs of a round who met in the rounds before.
func repeats(round Round, before map[[2]string]int) int {
	n := 0
	for _, table := range round.Tables {
		for i, a := range table.Seats {
			for _, b := range table.Seats[i+1:] {
				if before[[2]string{a, b}] > 0 {
					n++
				}
			}
		}
	}
	return n
}

// canSeat reports, by exhaustive search, whether the players can sit at
// tables of the given sizes (the larger first) so that no two at a table
// have met. It is the test's own search, independent of the package's:
// the lowest player left leads the next table, whatever its size.
func canSeat(ids []string, sizes []int, met map[[2]string]int) bool {
	n := len(ids)
	failed := make(map[uint64]bool)
	var fill func(seated uint64, t int) bool
	fill = func(seated uint64, t int) bool {
		if t == len(sizes) {
			return true
		}
		if failed[seated] {
			return false
		}
		leader := 0
		for seated&(1<<leader) != 0 {
			leader++
		}
		table := []int{leader}
		var choose func(from int) bool
		choose = func(from int) bool {
			if len(table) == sizes[t] {
				next := seated
				for _, x := range table {
					next |= 1 << x
				}
				return fill(next, t+1)
			}
			for x := from; x < n; x++ {
				if seated&(1<<x) != 0 {
					continue
				}
				ok := true
				for _, y := range table {
					if met[[2]string{ids[x], ids[y]}] > 0 {
						ok = false
					}
				}
				if !ok {
					continue
				}
				table = append(table, x)
				if choose(x + 1) {
					return true
				}
				table = table[:len(table)-1]
			}
			return false
		}
		if choose(leader + 1) {
			return true
		}
		failed[seated] = true
		return false
	}
	return fill(0, 0)
}

// fewestRepeats is, by exhaustive search, the fewest pairs who met before
// in a pairing of an even number of players at tables of 2.
func fewestRepeats(ids []string, met map[[2]string]int) int {
	memo := make(map[uint64]int)
	var best func(left uint64) int
	best = func(left uint64) int {
		if left == 0 {
			return 0
		}
		if v, ok := memo[left]; ok {
			return v
		}
		a := 0
		for left&(1<<a) == 0 {
			a++
		}
		fewest := len(ids)
		for b := a + 1; b < len(ids); b++ {
			if left&(1<<b) != 0 {
				r := best(left &^ (1 << a) &^ (1 << b))
				if met[[2]string{ids[a], ids[b]}] > 0 {
					r++
				}
				fewest = min(fewest, r)
			}
		}
		memo[left] = fewest
		return fewest
	}
	return best(1<<len(ids) - 1)
}

// seated is every ID of a round, in table order.
func seated(round Round) []string {
	var ids []string
	for _, table := range round.Tables {
		ids = append(ids, table.Seats...)
	}
	return ids
}
