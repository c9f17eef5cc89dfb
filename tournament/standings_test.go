package tournament

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPoints(t *testing.T) {
	tests := []struct {
		n    int
		want []int // by place, from the winner
	}{
		{1, []int{ByePoints}},
		{2, []int{6, 0}},
		{3, []int{6, 3, 0}},
		{4, []int{6, 4, 2, 0}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("a table of %d", tt.n), func(t *testing.T) {
			sum := 0
			for place, want := range tt.want {
				got := Points(place+1, tt.n)
				assert.Equal(t, want, got, "place %d", place+1)
				sum += got
			}
			// Every table size gives a seat the same worth on average.
			assert.Equal(t, ByePoints*tt.n, sum)
			assert.Equal(t, WinPoints, Points(1, max(tt.n, 2)))
			assert.Zero(t, Points(0, tt.n))
			assert.Zero(t, Points(tt.n+1, tt.n))
		})
	}
}

// won is a result in the order given, the first the winner.
func won(places ...string) *Result { return &Result{Places: places} }

func table(result *Result, seats ...string) Table { return Table{Seats: seats, Result: result} }

// lines is the standings as "ID points", in order.
func lines(t *testing.T, tour Tournament) []string {
	t.Helper()
	st, err := tour.Standings()
	require.NoError(t, err)
	var got []string
	for i, s := range st {
		require.Equal(t, i+1, s.Rank)
		got = append(got, fmt.Sprintf("%s %d", s.Entrant.ID, s.Points))
	}
	return got
}

// TestStandingsSwiss: equal points are ordered by Buchholz before
// rating, equal Buchholz by rating, and all equal by sign-up order.
func TestStandingsSwiss(t *testing.T) {
	tour := Tournament{
		Setup: Setup{Swiss, 2, 3},
		Entrants: []Entrant{{ID: "A", Rating: 1500}, {ID: "B", Rating: 1600}, {ID: "C", Rating: 1500},
			{ID: "D", Rating: 1500}, {ID: "E", Rating: 1700}, {ID: "F", Rating: 1500}, {ID: "G", Rating: 1500}},
		Rounds: []Round{
			{Tables: []Table{table(won("A", "B"), "A", "B"), table(won("C", "D"), "C", "D"), table(won("E", "F"), "E", "F"), {Seats: []string{"G"}}}},
			{Tables: []Table{table(won("A", "C"), "A", "C"), table(won("B", "E"), "E", "B"), table(won("D", "F"), "D", "F"), table(won("G"), "G")}},
		},
	}
	// B and C met A (12) and a 6: Buchholz 18. G had two byes: 6 points,
	// Buchholz 6+6 (their own points, twice). E and D met a 6 and F (0):
	// 6, and E is rated higher.
	assert.Equal(t, []string{"A 12", "B 6", "C 6", "G 6", "E 6", "D 6", "F 0"}, lines(t, tour))
	st, err := tour.Standings()
	require.NoError(t, err)
	byID := make(map[string]Standing)
	for _, s := range st {
		byID[s.Entrant.ID] = s
	}
	assert.Equal(t, 12.0, byID["A"].Buchholz)
	assert.Equal(t, 18.0, byID["B"].Buchholz)
	assert.Equal(t, 18.0, byID["C"].Buchholz)
	assert.Equal(t, 6.0, byID["E"].Buchholz)
	assert.Equal(t, 12.0, byID["G"].Buchholz)
	assert.Equal(t, 2, byID["G"].Byes)
	assert.Equal(t, 0, byID["G"].Played)
	assert.Equal(t, 2, byID["A"].Wins)
	assert.Equal(t, 2, byID["A"].Played)

	fresh := Tournament{Setup: Setup{Swiss, 2, 0}, Entrants: entrants(3)}
	assert.Equal(t, []string{"p1 0", "p2 0", "p3 0"}, lines(t, fresh), "all equal: sign-up order")
}

// TestStandingsTableSizes: at a table of 3 and one of 4 the places score
// 6-3-0 and 6-4-2-0, a forfeit scores nothing and places after everyone
// who did not forfeit, and Buchholz averages the others at each table.
func TestStandingsTableSizes(t *testing.T) {
	tour := Tournament{
		Setup:    Setup{Swiss, 4, 1},
		Entrants: entrants(7),
		Rounds: []Round{{Tables: []Table{
			table(&Result{Places: []string{"p1", "p2", "p3", "p4"}, Forfeited: []string{"p2"}}, "p1", "p2", "p3", "p4"),
			table(won("p7", "p6", "p5"), "p5", "p6", "p7"),
		}}},
	}
	assert.Equal(t, []string{"p1 6", "p7 6", "p3 4", "p6 3", "p4 2", "p5 0", "p2 0"}, lines(t, tour))
	st, err := tour.Standings()
	require.NoError(t, err)
	byID := make(map[string]Standing)
	for _, s := range st {
		byID[s.Entrant.ID] = s
	}
	assert.InDelta(t, (4+2+0)/3.0, byID["p1"].Buchholz, 1e-9)
	assert.InDelta(t, (6+4+2)/3.0, byID["p2"].Buchholz, 1e-9)
	assert.InDelta(t, (3+0)/2.0, byID["p7"].Buchholz, 1e-9)
	assert.InDelta(t, (6+3)/2.0, byID["p5"].Buchholz, 1e-9)
	assert.Equal(t, 1, byID["p2"].Forfeits)
	assert.Equal(t, 1, byID["p1"].Wins)
	assert.Zero(t, byID["p3"].Wins)
}

// TestStandingsRoundRobin: equal points are ordered by Sonneborn–Berger
// (the points of those beaten) before rating.
func TestStandingsRoundRobin(t *testing.T) {
	tour := Tournament{
		Setup:    Setup{RoundRobin, 2, 0},
		Entrants: []Entrant{{ID: "A", Rating: 1500}, {ID: "B", Rating: 1500}, {ID: "C", Rating: 1900}, {ID: "D", Rating: 1500}},
		Rounds: []Round{
			{Tables: []Table{table(won("A", "B"), "A", "B"), table(won("C", "D"), "C", "D")}},
			{Tables: []Table{table(won("A", "C"), "A", "C"), table(won("B", "D"), "B", "D")}},
			{Tables: []Table{table(won("D", "A"), "A", "D"), table(won("B", "C"), "B", "C")}},
		},
	}
	// A beat B (12) and C (6): 18; B beat D (6) and C (6): 12. D beat A
	// (12): 12; C beat D (6): 6, rated highest.
	assert.Equal(t, []string{"A 12", "B 12", "D 6", "C 6"}, lines(t, tour))
	st, err := tour.Standings()
	require.NoError(t, err)
	assert.Equal(t, 18.0, st[0].SonnebornBerger)
	assert.Equal(t, 12.0, st[1].SonnebornBerger)
	assert.True(t, tour.Finished())
}

// TestStandingsKnockout: the deepest round first, the winner before the
// others of the final, then the places at the last table, then rating.
func TestStandingsKnockout(t *testing.T) {
	tour := Tournament{
		Setup: Setup{Knockout, 2, 0},
		Entrants: []Entrant{{ID: "A", Rating: 1600}, {ID: "B", Rating: 1550}, {ID: "C", Rating: 1500},
			{ID: "D", Rating: 1400}, {ID: "E", Rating: 1300}},
		Rounds: []Round{
			{Tables: []Table{{Seats: []string{"A"}}, table(won("E", "D"), "D", "E"), {Seats: []string{"B"}}, {Seats: []string{"C"}}}},
			{Tables: []Table{table(won("E", "A"), "A", "E"), table(won("C", "B"), "B", "C")}},
			{Tables: []Table{table(won("E", "C"), "C", "E")}},
		},
	}
	assert.Equal(t, []string{"E 18", "C 9", "A 3", "B 3", "D 0"}, lines(t, tour))
	st, err := tour.Standings()
	require.NoError(t, err)
	assert.False(t, st[0].Out)
	assert.Equal(t, 3, st[0].Reached)
	for _, s := range st[1:] {
		assert.True(t, s.Out, s.Entrant.ID)
	}
	assert.Equal(t, 1, st[4].Reached)

	final4 := Tournament{
		Setup:    Setup{Knockout, 4, 0},
		Entrants: entrants(4),
		Rounds:   []Round{{Tables: []Table{table(won("p3", "p1", "p4", "p2"), "p1", "p2", "p3", "p4")}}},
	}
	assert.Equal(t, []string{"p3 6", "p1 4", "p4 2", "p2 0"}, lines(t, final4))
}
