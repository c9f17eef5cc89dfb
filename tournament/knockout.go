package tournament

import (
	"cmp"
	"slices"
)

// knockout pairs the next round of the bracket. The first round seats the
// entrants who have not withdrawn by seed (rating, then sign-up order) at
// the bracket's tables; each later table gathers the winners of the k
// tables before it in the bracket, without those who have withdrawn.
func (t Tournament) knockout() Round {
	k := t.Setup.TableSize
	depth := knockoutDepth(len(t.Entrants), k)
	first := bracket(depth, k)
	var seeded []int // entrant indexes by seed
	if len(t.Rounds) == 0 {
		for i, e := range t.Entrants {
			if !e.Withdrawn {
				seeded = append(seeded, i)
			}
		}
	} else {
		for _, table := range t.Rounds[0].Tables {
			for _, id := range table.Seats {
				seeded = append(seeded, t.index(id))
			}
		}
	}
	slices.SortFunc(seeded, func(a, b int) int {
		return cmp.Or(cmp.Compare(t.Entrants[b].Rating, t.Entrants[a].Rating), cmp.Compare(a, b))
	})
	if len(t.Rounds) == 0 {
		var round Round
		for _, seeds := range first {
			var seats []string
			for _, s := range seeds {
				if s <= len(seeded) {
					seats = append(seats, t.Entrants[seeded[s-1]].ID)
				}
			}
			if len(seats) > 0 {
				round.Tables = append(round.Tables, Table{Seats: seats})
			}
		}
		return round
	}
	// Where each seed starts in the bracket: the first round's table.
	seedOf := make(map[string]int, len(seeded))
	position := make(map[string]int, len(seeded))
	for table, seeds := range first {
		for _, s := range seeds {
			if s <= len(seeded) {
				id := t.Entrants[seeded[s-1]].ID
				seedOf[id], position[id] = s, table
			}
		}
	}
	span := 1 // first-round tables per table of the next round
	for range len(t.Rounds) {
		span *= k
	}
	groups := make([][]string, (len(first)+span-1)/span)
	for _, table := range t.Rounds[len(t.Rounds)-1].Tables {
		if w := winner(table); w != "" && !t.Entrants[t.index(w)].Withdrawn {
			g := position[w] / span
			groups[g] = append(groups[g], w)
		}
	}
	var round Round
	for _, seats := range groups {
		if len(seats) > 0 {
			slices.SortFunc(seats, func(a, b string) int { return cmp.Compare(seedOf[a], seedOf[b]) })
			round.Tables = append(round.Tables, Table{Seats: seats})
		}
	}
	return round
}

// index is the sign-up index of the entrant id, or -1.
func (t Tournament) index(id string) int {
	return slices.IndexFunc(t.Entrants, func(e Entrant) bool { return e.ID == id })
}

// bracket is the first round of a bracket of the given depth at tables of
// k: the seeds (from 1) at each table, in bracket order, k^depth seeds in
// all; seeds past the field are byes. Built from the final down: each
// seed s of a bracket of m seats leads a table of the bracket one round
// deeper, with the seeds s, 2m+1−s, 2m+s, 4m+1−s, … (one of each band of
// m seeds, in a snake), so that seeds 1 to k meet only at the final and
// the top seeds take the byes. At tables of 2 this is the usual bracket:
// 1–8, 4–5, 2–7, 3–6.
func bracket(depth, k int) [][]int {
	order := []int{1}
	var tables [][]int
	for m := 1; depth > 0; depth-- {
		tables = tables[:0:0]
		for _, s := range order {
			table := make([]int, k)
			for band := range k {
				if band%2 == 0 {
					table[band] = band*m + s
				} else {
					table[band] = band*m + m + 1 - s
				}
			}
			tables = append(tables, table)
		}
		order = slices.Concat(tables...)
		m *= k
	}
	if tables == nil {
		return [][]int{{1}}
	}
	return tables
}
