package tournament

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
)

// finished is a kept table's game, finished with results in seat order:
// places[i] is seat i's place, left the seats that left.
func finished(id int64, seats []string, places []int, left ...int) malefiz.TournamentTable {
	t := malefiz.TournamentTable{Seats: seats, GameID: id, GameStatus: malefiz.StatusFinished}
	for i, p := range places {
		r := malefiz.Result{Place: p, Won: p == 1}
		if i < len(seats) {
			r.Player = seats[i]
		} else {
			r.Player, r.Computer = "ai:normal", true
		}
		t.Results = append(t.Results, r)
	}
	for _, i := range left {
		t.Results[i].Left = true
	}
	return t
}

func TestFromKept(t *testing.T) {
	kept := &malefiz.Tournament{
		Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 4, Rounds: 2},
		// Out of sign-up order, as no read returns them; a computer entrant.
		Entrants: []malefiz.TournamentEntrant{
			{UserID: "c", Rating: 1500, Order: 3},
			{UserID: "a", Rating: 1600, Order: 1},
			{UserID: "b", Rating: 1400, Order: 2, Withdrawn: true},
			{UserID: "d", Rating: 1550, Order: 5, Computer: "hard"},
			{UserID: "e", Rating: 1450, Order: 4},
		},
		Rounds: []malefiz.TournamentRound{
			{Number: 1, Tables: []malefiz.TournamentTable{
				// The computer entrant d wins; b left and forfeits.
				finished(7, []string{"a", "b", "d"}, []int{2, 3, 1}, 1),
				// A computer filling the table came second: c and e keep
				// their order.
				finished(8, []string{"c", "e"}, []int{3, 1, 2}),
			}},
			{Number: 2, Tables: []malefiz.TournamentTable{
				{Seats: []string{"a", "c"}, GameID: 9, GameStatus: malefiz.StatusCancelled},
				{Seats: []string{"d", "e"}, GameID: 10, GameStatus: malefiz.StatusRunning},
				{Seats: []string{"x"}}, // a bye (x is no entrant here, which FromKept does not check)
			}},
		},
	}
	kept.Rounds[0].Tables[0].Results[2].Player = "ai:hard" // a computer entrant's result names its level
	kept.Rounds[0].Tables[0].Results[2].Computer = true

	got, err := FromKept(kept)
	require.NoError(t, err)
	assert.Equal(t, Setup{Format: Swiss, TableSize: 4, Rounds: 2}, got.Setup)
	assert.Equal(t, []Entrant{{ID: "a", Rating: 1600}, {ID: "b", Rating: 1400, Withdrawn: true},
		{ID: "c", Rating: 1500}, {ID: "e", Rating: 1450}, {ID: "d", Rating: 1550}}, got.Entrants)
	require.Len(t, got.Rounds, 2)
	assert.Equal(t, Round{Tables: []Table{
		{Seats: []string{"a", "b", "d"}, Result: &Result{Places: []string{"d", "a", "b"}, Forfeited: []string{"b"}}},
		{Seats: []string{"c", "e"}, Result: &Result{Places: []string{"e", "c"}}},
	}}, got.Rounds[0])
	assert.Equal(t, Round{Tables: []Table{
		{Seats: []string{"a", "c"}, Result: &Result{Places: []string{"a", "c"}, Forfeited: []string{"a", "c"}}},
		{Seats: []string{"d", "e"}},
		{Seats: []string{"x"}},
	}}, got.Rounds[1])
	assert.False(t, got.Rounds[1].Done(), "a game still running")
}

func TestFromKeptRefusesResultsThatAreNotTheTable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		table malefiz.TournamentTable
	}{
		{"a seat another player's", func() malefiz.TournamentTable {
			tb := finished(1, []string{"a", "b"}, []int{1, 2})
			tb.Results[1].Player = "z"
			return tb
		}()},
		{"fewer results than seats", func() malefiz.TournamentTable {
			tb := finished(1, []string{"a", "b"}, []int{1, 2})
			tb.Results = tb.Results[:1]
			return tb
		}()},
		{"no places recorded", finished(1, []string{"a", "b"}, []int{0, 0})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept := &malefiz.Tournament{Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 2},
				Entrants: []malefiz.TournamentEntrant{{UserID: "a", Order: 1}, {UserID: "b", Order: 2}},
				Rounds:   []malefiz.TournamentRound{{Number: 1, Tables: []malefiz.TournamentTable{tc.table}}}}
			_, err := FromKept(kept)
			assert.ErrorIs(t, err, ErrBadResult)
			assert.ErrorContains(t, err, "round 1, table 1")
		})
	}
}

// A round paired here, kept, played and read back is the round with its
// results: the pairing of the next round sees them.
func TestKeptRoundTrip(t *testing.T) {
	kept := &malefiz.Tournament{Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 4, Rounds: 3}}
	for i, id := range []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"} {
		kept.Entrants = append(kept.Entrants, malefiz.TournamentEntrant{UserID: id, Rating: float64(1500 + i), Order: i + 1})
	}
	game := int64(0)
	for n := 1; n <= 3; n++ {
		tour, err := FromKept(kept)
		require.NoError(t, err)
		round, err := tour.NextRound()
		require.NoError(t, err)
		tables := KeptTables(round)
		require.Len(t, tables, len(round.Tables))
		for i := range tables {
			assert.Equal(t, i+1, tables[i].Number)
			assert.Equal(t, round.Tables[i].Seats, tables[i].Seats)
			// The seats in reverse order of the table finish the game.
			places := make([]int, len(tables[i].Seats))
			for s := range places {
				places[s] = len(places) - s
			}
			game++
			tables[i] = finished(game, tables[i].Seats, places)
			tables[i].Number = i + 1
		}
		kept.Rounds = append(kept.Rounds, malefiz.TournamentRound{Number: n, Tables: tables})
	}
	tour, err := FromKept(kept)
	require.NoError(t, err)
	assert.True(t, tour.Finished())
	for _, r := range tour.Rounds {
		for _, table := range r.Tables {
			assert.Equal(t, table.Seats[len(table.Seats)-1], table.Result.Places[0], "the last seat won")
		}
	}
	_, err = tour.Standings()
	require.NoError(t, err)
}
