package tournament

import (
	"cmp"
	"slices"
)

// The points of a table, the same for every table size: the winner
// scores WinPoints, the last 0, the places between evenly spaced (see
// Points), so that a seat is worth ByePoints on average at a table of 2,
// 3 or 4 and a tournament may mix table sizes.
const (
	WinPoints = 6
	ByePoints = 3 // a bye scores what a seat is worth on average
)

// Points is what place (1 for the winner) at a table of n seats scores:
// 6·(n−place)/(n−1). A table of 2 scores 6 and 0; of 3, 6, 3 and 0; of 4,
// 6, 4, 2 and 0. A bye (n = 1) scores ByePoints; a place outside the
// table 0.
func Points(place, n int) int {
	switch {
	case n < 1 || place < 1 || place > n:
		return 0
	case n == 1:
		return ByePoints
	}
	return WinPoints * (n - place) / (n - 1)
}

// Standing is one entrant's line of the standings.
type Standing struct {
	Entrant Entrant
	Rank    int // 1 for the leader; every rank differs
	Points  int // the sum of the entrant's tables and byes

	Played   int // tables played to their result, byes not counted
	Byes     int
	Wins     int // tables won
	Forfeits int // tables forfeited

	// Buchholz (Swiss): at each table played, the average points of the
	// others at it now, summed over the rounds; a bye adds the entrant's
	// own points, as if they had met their equal.
	Buchholz float64
	// SonnebornBerger (round robin): at each table played, the points of
	// the others the entrant finished ahead of, divided by the others at
	// the table, summed over the rounds.
	SonnebornBerger float64
	// Reached (knockout): the last round in which the entrant had a table
	// or a bye, from 1.
	Reached int
	// Out (knockout): the entrant lost a table, or withdrew.
	Out bool

	buchholz6, sb6 int // Buchholz and Sonneborn–Berger in sixths, exact
	last           int // knockout: the points of the entrant's last table
	order          int // sign-up order
}

// Standings ranks the entrants by the results so far, as the format says:
//
//   - Swiss: points, then Buchholz, then rating, then sign-up order;
//   - round robin: points, then Sonneborn–Berger, then rating, then
//     sign-up order;
//   - knockout: the round reached, then still in before out, then the
//     points of the last table, then rating, then sign-up order.
//
// Withdrawn entrants keep their line. A table without a result counts
// for nothing yet. The error is the record's (see NextRound).
func (t Tournament) Standings() ([]Standing, error) {
	index, err := t.check()
	if err != nil {
		return nil, err
	}
	st := make([]Standing, len(t.Entrants))
	for i, e := range t.Entrants {
		st[i] = Standing{Entrant: e, order: i, Out: e.Withdrawn && t.Setup.Format == Knockout}
	}
	// First the points, then what depends on everyone's points.
	for r, round := range t.Rounds {
		for _, table := range round.Tables {
			for _, id := range table.Seats {
				st[index[id]].Reached = r + 1
			}
			if table.Bye() {
				s := &st[index[table.Seats[0]]]
				s.Byes++
				s.Points += ByePoints
				s.last = ByePoints
				continue
			}
			if table.Result == nil {
				continue
			}
			for place, id := range placed(table.Result) {
				s := &st[index[id]]
				s.Played++
				p := Points(place+1, len(table.Seats))
				if contains(table.Result.Forfeited, id) {
					s.Forfeits++
					p = 0
				}
				if place == 0 && p > 0 {
					s.Wins++
				}
				if t.Setup.Format == Knockout && (place > 0 || p == 0) {
					s.Out = true
				}
				s.Points += p
				s.last = p
			}
		}
	}
	for _, round := range t.Rounds {
		for _, table := range round.Tables {
			if table.Bye() {
				s := &st[index[table.Seats[0]]]
				s.buchholz6 += 6 * s.Points
				continue
			}
			if table.Result == nil {
				continue
			}
			order := placed(table.Result)
			others := len(table.Seats) - 1
			for place, id := range order {
				s := &st[index[id]]
				for other, o := range order {
					op := st[index[o]].Points
					s.buchholz6 += 6 * op / others * boolInt(other != place)
					if other > place && !contains(table.Result.Forfeited, id) {
						s.sb6 += 6 * op / others
					}
				}
			}
		}
	}
	for i := range st {
		st[i].Buchholz = float64(st[i].buchholz6) / 6
		st[i].SonnebornBerger = float64(st[i].sb6) / 6
	}
	slices.SortStableFunc(st, t.Setup.Format.compare)
	for i := range st {
		st[i].Rank = i + 1
	}
	return st, nil
}

// compare orders two standings, the better first.
func (f Format) compare(a, b Standing) int {
	var c int
	switch f {
	case Swiss:
		c = cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.buchholz6, a.buchholz6))
	case RoundRobin:
		c = cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.sb6, a.sb6))
	case Knockout:
		c = cmp.Or(cmp.Compare(b.Reached, a.Reached), cmp.Compare(boolInt(a.Out), boolInt(b.Out)),
			cmp.Compare(b.last, a.last))
	}
	return cmp.Or(c, cmp.Compare(b.Entrant.Rating, a.Entrant.Rating), cmp.Compare(a.order, b.order))
}

// placed is a result's order for scoring: those who did not forfeit as
// the game placed them, then those who forfeited.
func placed(r *Result) []string {
	order := make([]string, 0, len(r.Places))
	for _, id := range r.Places {
		if !contains(r.Forfeited, id) {
			order = append(order, id)
		}
	}
	for _, id := range r.Places {
		if contains(r.Forfeited, id) {
			order = append(order, id)
		}
	}
	return order
}

// winner is who goes on from a knockout table: the bye's entrant, or the
// result's first who did not forfeit; "" when there is none yet.
func winner(t Table) string {
	if t.Bye() {
		return t.Seats[0]
	}
	if t.Result == nil {
		return ""
	}
	if order := placed(t.Result); !contains(t.Result.Forfeited, order[0]) {
		return order[0]
	}
	return ""
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
