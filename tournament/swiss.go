package tournament

import (
	"cmp"
	"math/rand/v2"
	"slices"
)

// player is an entrant still in a Swiss tournament, as pairing sees them.
type player struct {
	id     string
	points int
	rating float64
	order  int // sign-up order
	byes   int
}

// swissField returns the entrants who have not withdrawn, ranked for
// pairing (points, then rating, then sign-up order), and met[i][j]: how
// many tables players i and j have shared.
func (t Tournament) swissField() ([]player, [][]int) {
	points := make(map[string]int)
	byes := make(map[string]int)
	for _, round := range t.Rounds {
		for _, table := range round.Tables {
			switch {
			case table.Bye():
				points[table.Seats[0]] += ByePoints
				byes[table.Seats[0]]++
			case table.Result != nil:
				for place, id := range placed(table.Result) {
					if !contains(table.Result.Forfeited, id) {
						points[id] += Points(place+1, len(table.Seats))
					}
				}
			}
		}
	}
	var field []player
	for i, e := range t.Entrants {
		if !e.Withdrawn {
			field = append(field, player{id: e.ID, points: points[e.ID], rating: e.Rating, order: i, byes: byes[e.ID]})
		}
	}
	slices.SortFunc(field, func(a, b player) int {
		return cmp.Or(cmp.Compare(b.points, a.points), cmp.Compare(b.rating, a.rating), cmp.Compare(a.order, b.order))
	})
	at := make(map[string]int, len(field))
	for i, p := range field {
		at[p.id] = i
	}
	met := make([][]int, len(field))
	for i := range met {
		met[i] = make([]int, len(field))
	}
	var seats []int
	for _, round := range t.Rounds {
		for _, table := range round.Tables {
			seats = seats[:0]
			for _, id := range table.Seats {
				if i, ok := at[id]; ok {
					seats = append(seats, i)
				}
			}
			for _, i := range seats {
				for _, j := range seats {
					if i != j {
						met[i][j]++
					}
				}
			}
		}
	}
	return field, met
}

// swiss pairs the next Swiss round (see the package documentation).
func (t Tournament) swiss() Round {
	field, met := t.swissField()
	k := t.Setup.TableSize
	var tables [][]int
	if k == 2 {
		tables = pairSwiss(field, met)
	} else {
		tables = groupSwiss(field, met, tableSizes(len(field), k))
	}
	// The top table first, a bye last; at a table, the better ranked
	// first.
	for _, table := range tables {
		slices.Sort(table)
	}
	slices.SortFunc(tables, func(a, b []int) int {
		return cmp.Or(cmp.Compare(boolInt(len(a) == 1), boolInt(len(b) == 1)), cmp.Compare(a[0], b[0]))
	})
	round := Round{Tables: make([]Table, len(tables))}
	for i, table := range tables {
		for _, p := range table {
			round.Tables[i].Seats = append(round.Tables[i].Seats, field[p].id)
		}
	}
	return round
}

// fold is the arrangement pairing starts from: the ranked players (0 the
// best) go to tables of the given sizes score group by score group. A
// group is cut into bands as many as the table's seats, and each table
// takes one player of each band (at tables of 2 the top half meets the
// bottom half), so that the strongest of a group do not meet each other
// first. Players left over when a group does not fill whole tables join
// the next group.
func fold(field []player, sizes []int) [][]int {
	var tables [][]int
	var pool []int
	next := 0 // the next table size to fill
	for start := 0; start < len(field); {
		end := start
		for end < len(field) && field[end].points == field[start].points {
			end++
		}
		for i := start; i < end; i++ {
			pool = append(pool, i)
		}
		start = end
		// The whole tables the pool fills.
		m, last := 0, next
		for last < len(sizes) && m+sizes[last] <= len(pool) {
			m += sizes[last]
			last++
		}
		group := make([][]int, last-next)
		for i, b := 0, 0; i < m; b++ {
			for j := range group {
				if b < sizes[next+j] && i < m {
					group[j] = append(group[j], pool[i])
					i++
				}
			}
		}
		tables = append(tables, group...)
		pool = pool[m:]
		next = last
	}
	return tables
}

// pairSwiss pairs a Swiss round at tables of 2. The bye, when the field is
// odd, goes to a player with the fewest byes, the lowest ranked of them
// whose bye leaves the others a pairing without a repeat meeting, or the
// lowest ranked when none does. The others are paired from the top: each
// player takes the first partner in their order of preference (an equal
// score, then the nearest to the partner the fold gave them) that leaves
// the rest a pairing with the fewest repeat meetings there can be. Those
// fewest are found exactly, by a maximum matching of the pairs who have
// not met (Edmonds' blossom algorithm): zero whenever a pairing without
// repeats exists.
func pairSwiss(field []player, met [][]int) [][]int {
	n := len(field)
	edge := make([][]bool, n)
	for i := range edge {
		edge[i] = make([]bool, n)
		for j := range edge[i] {
			edge[i][j] = i != j && met[i][j] == 0
		}
	}
	var tables [][]int
	m := newMatching(edge)
	if n%2 == 1 {
		bye := pickBye(field, m)
		tables = append(tables, []int{bye})
		m = newMatching(edge)
		m.gone[bye] = true
	}
	// Start from the fold's pairs that have not met, then make the
	// matching maximum.
	rest := make([]player, 0, n)
	index := make([]int, 0, n)
	for i, p := range field {
		if !m.gone[i] {
			rest = append(rest, p)
			index = append(index, i)
		}
	}
	ideal := make([]int, n)
	for _, pair := range fold(rest, tableSizes(len(rest), 2)) {
		a, b := index[pair[0]], index[pair[1]]
		ideal[a], ideal[b] = b, a
		if edge[a][b] {
			m.match(a, b)
		}
	}
	m.maximize()
	candidates := make([]int, 0, n)
	for p := range n {
		if m.gone[p] {
			continue
		}
		left := 0 // the players not paired yet, p among them
		for _, gone := range m.gone {
			left += boolInt(!gone)
		}
		candidates = candidates[:0]
		for q := p + 1; q < n; q++ {
			if !m.gone[q] {
				candidates = append(candidates, q)
			}
		}
		slices.SortStableFunc(candidates, func(a, b int) int {
			return cmp.Or(cmp.Compare(abs(field[a].points-field[p].points), abs(field[b].points-field[p].points)),
				cmp.Compare(abs(a-ideal[p]), abs(b-ideal[p])))
		})
		for _, q := range candidates {
			want := m.size
			if edge[p][q] {
				want--
			} else if want > (left-2)/2 {
				// The rest could not keep as many pairs who have
				// not met: no need to look.
				continue
			}
			undo := m.remove(p, q)
			if m.size >= want {
				tables = append(tables, []int{p, q})
				break
			}
			undo()
		}
	}
	return tables
}

// pickBye chooses the bye of an odd field at tables of 2 (see pairSwiss).
// m is the matching of the whole field, empty.
func pickBye(field []player, m *matching) int {
	m.maximize()
	// free: the players some maximum matching leaves out, those whose
	// bye costs no repeat meeting beyond the fewest there can be.
	free := make([]bool, len(field))
	for v := range field {
		if m.mate[v] < 0 {
			m.augment(v) // fails: the matching is maximum
			for u, o := range m.outer {
				free[u] = free[u] || o
			}
		}
	}
	fewest := field[0].byes
	for _, p := range field {
		fewest = min(fewest, p.byes)
	}
	bye := -1
	for v := len(field) - 1; v >= 0; v-- {
		if field[v].byes == fewest {
			if free[v] {
				return v
			}
			if bye < 0 {
				bye = v
			}
		}
	}
	return bye
}

// groupSwiss seats a Swiss round at tables of 3 or 4: the fold, then swaps
// of two players between tables as long as one lowers the repeat
// meetings, or keeps them and brings scores at a table closer. When
// repeats remain, a few tables at a time are seated again (repair), and
// then, if some still remain, an exhaustive search (fields of up to 256)
// looks for tables without any; after either, swaps that keep the
// repeats as few bring the scores closer again.
func groupSwiss(field []player, met [][]int, sizes []int) [][]int {
	tables := fold(field, sizes)
	if improve(field, met, tables) == 0 {
		return tables
	}
	if repair(met, tables) == 0 || len(field) > setLimit {
		improve(field, met, tables)
		return tables
	}
	if found := searchTables(met, sizes, searchBudget); found != nil {
		tables = found
	}
	improve(field, met, tables)
	return tables
}

// The bounds of repair: the groups of tables it tries to seat again, the
// tables in a group, and the seats the search of each group tries.
const (
	repairTries  = 400
	repairTables = 5
	repairBudget = 1 << 11
)

// repair seats a few tables at a time again, without a repeat meeting
// when their players allow it, until no table holds one or repairTries
// groups have been tried (none when there are no more tables than a
// group); it returns the repeat meetings left. A group is a table where
// someone meets again, taken in turn, and others drawn from a source
// seeded by the field's size and the tables' count, so that a round is
// always paired the same. Large fields late in a tournament need it:
// there the swaps of two players between two tables leave repeats that
// tables of the same sizes could avoid, and a search of the whole field
// is too slow.
func repair(met [][]int, tables [][]int) int {
	rng := rand.New(rand.NewPCG(uint64(len(met)), uint64(len(tables))))
	repeatsAt := func(table []int) int {
		r := 0
		for i, x := range table {
			for _, y := range table[i+1:] {
				r += met[x][y]
			}
		}
		return r
	}
	tries := repairTries
	if len(tables) <= repairTables {
		tries = 0 // a group would be every table: the whole field's search does that
	}
	group := make([]int, 0, repairTables)
	var bad []int // the tables where someone meets again
	for try := range tries {
		bad = bad[:0]
		for t, table := range tables {
			if repeatsAt(table) > 0 {
				bad = append(bad, t)
			}
		}
		if len(bad) == 0 {
			return 0
		}
		group = append(group[:0], bad[try%len(bad)])
		for len(group) < min(repairTables, len(tables)) {
			if t := rng.IntN(len(tables)); !slices.Contains(group, t) {
				group = append(group, t)
			}
		}
		// The larger tables first, as searchTables seats them; the
		// players by rank.
		slices.SortFunc(group, func(a, b int) int {
			return cmp.Or(cmp.Compare(len(tables[b]), len(tables[a])), cmp.Compare(a, b))
		})
		var players, sizes []int
		for _, t := range group {
			players = append(players, tables[t]...)
			sizes = append(sizes, len(tables[t]))
		}
		slices.Sort(players)
		sub := make([][]int, len(players))
		for i, x := range players {
			sub[i] = make([]int, len(players))
			for j, y := range players {
				sub[i][j] = met[x][y]
			}
		}
		found := searchTables(sub, sizes, repairBudget)
		for i, t := range group {
			if found == nil {
				break
			}
			for j, x := range found[i] {
				tables[t][j] = players[x]
			}
		}
	}
	r := 0
	for _, table := range tables {
		r += repeatsAt(table)
	}
	return r
}

// improve swaps players between tables, the best swap each time: first,
// while one lowers the repeat meetings, a swap of a player who meets
// someone again; then, while one brings the scores at a table closer
// without adding a repeat, any swap. Of equal swaps it makes the first in
// the order of the tables and seats (the first player's table, their
// seat, the other's table, their seat). It returns the repeat meetings
// left.
//
// A swap changes what only its two tables hold, so the best swap between
// each two tables is kept, and after a swap only those that involve one
// of its tables are looked at again: a pass costs the swaps of two tables
// with every other, not of every table with every other.
func improve(field []player, met [][]int, tables [][]int) int {
	n, nt := len(field), len(tables)
	// cost is what player x at the table, in place of skip, adds.
	cost := func(x int, table []int, skip int) (rep, spread int) {
		for _, y := range table {
			if y != skip && y != x {
				rep += met[x][y]
				spread += abs(field[x].points - field[y].points)
			}
		}
		return rep, spread
	}
	// what each player adds at their own table
	ownRep, ownSpread := make([]int, n), make([]int, n)
	own := func(t int) {
		for _, x := range tables[t] {
			ownRep[x], ownSpread[x] = cost(x, tables[t], x)
		}
	}
	repeats := 0
	for t, table := range tables {
		own(t)
		for i, x := range table {
			for _, y := range table[i+1:] {
				repeats += met[x][y]
			}
		}
	}
	// best[ta*nt+tb]: the best swap of a player at table ta with one at
	// table tb, ia < 0 when none improves.
	type swap struct{ rep, spread, ia, ib int }
	best := make([]swap, nt*nt)
	for _, spreading := range []bool{false, true} {
		considered := func(ta, tb int) bool { return ta != tb && (!spreading || ta < tb) }
		look := func(ta, tb int) {
			found := swap{ia: -1}
			a, b := tables[ta], tables[tb]
			for ia, x := range a {
				ra, sa := ownRep[x], ownSpread[x]
				if !spreading && ra == 0 {
					continue
				}
				for ib, y := range b {
					rx, sx := cost(x, b, y)
					ry, sy := cost(y, a, x)
					dRep, dSpread := rx+ry-ra-ownRep[y], sx+sy-sa-ownSpread[y]
					if dRep < found.rep || dRep == found.rep && dSpread < found.spread {
						found = swap{dRep, dSpread, ia, ib}
					}
				}
			}
			best[ta*nt+tb] = found
		}
		for ta := range nt {
			for tb := range nt {
				if considered(ta, tb) {
					look(ta, tb)
				}
			}
		}
		for {
			at, first := -1, swap{}
			for ta := range nt {
				for tb := range nt {
					e := best[ta*nt+tb]
					if !considered(ta, tb) || e.ia < 0 {
						continue
					}
					// Later tables come later in the order: of equal
					// swaps, only one of the same first table with an
					// earlier seat goes before.
					if at < 0 || e.rep < first.rep || e.rep == first.rep &&
						(e.spread < first.spread || e.spread == first.spread && ta == at/nt && e.ia < first.ia) {
						at, first = ta*nt+tb, e
					}
				}
			}
			if at < 0 || !spreading && first.rep == 0 {
				break
			}
			ta, tb := at/nt, at%nt
			a, b := tables[ta], tables[tb]
			a[first.ia], b[first.ib] = b[first.ib], a[first.ia]
			repeats += first.rep
			own(ta)
			own(tb)
			for t := range nt {
				for _, u := range [2]int{ta, tb} {
					if considered(t, u) {
						look(t, u)
					}
					if considered(u, t) {
						look(u, t)
					}
				}
			}
		}
	}
	return repeats
}

// searchBudget bounds the exhaustive search of the whole field for tables
// without a repeat meeting: the seats it tries.
const searchBudget = 1 << 18

// searchTables looks for tables of the given sizes (the larger first)
// where nobody has met before: each table is led by the best ranked
// player not seated yet and filled with the nearest ranked who have met
// neither them nor each other. It returns nil when there are none, or
// when it has tried budget seats first.
func searchTables(met [][]int, sizes []int, budget int) [][]int {
	n := len(met)
	failed := make(map[set]bool)
	var tables [][]int
	var fill func(seated set, t int) bool
	fill = func(seated set, t int) bool {
		if t == len(sizes) {
			return true
		}
		if failed[seated] || budget <= 0 {
			return false
		}
		leader := 0
		for seated.has(leader) {
			leader++
		}
		table := []int{leader}
		var choose func(from int) bool
		choose = func(from int) bool {
			if len(table) == sizes[t] {
				next := seated
				for _, x := range table {
					next.add(x)
				}
				tables = append(tables, slices.Clone(table))
				if fill(next, t+1) {
					return true
				}
				tables = tables[:len(tables)-1]
				return false
			}
			for x := from; x < n; x++ {
				if budget--; budget <= 0 {
					return false
				}
				if seated.has(x) || slices.ContainsFunc(table, func(y int) bool { return met[x][y] > 0 }) {
					continue
				}
				table = append(table, x)
				if choose(x + 1) {
					return true
				}
				table = table[:len(table)-1]
				if budget <= 0 {
					return false
				}
			}
			return false
		}
		if choose(leader + 1) {
			return true
		}
		if budget > 0 {
			failed[seated] = true
		}
		return false
	}
	if fill(set{}, 0) {
		return tables
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// set is a small bit set of entrant indexes.
type set [4]uint64

// setLimit is the largest field the exhaustive searches handle.
const setLimit = 256

func (s *set) add(i int)     { s[i>>6] |= 1 << (i & 63) }
func (s set) has(i int) bool { return s[i>>6]&(1<<(i&63)) != 0 }
