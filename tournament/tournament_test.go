package tournament

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func entrants(n int) []Entrant {
	field := make([]Entrant, n)
	for i := range field {
		field[i] = Entrant{ID: fmt.Sprintf("p%d", i+1), Rating: 1500}
	}
	return field
}

func TestValidate(t *testing.T) {
	dup := entrants(3)
	dup[2].ID = "p1"
	noID := entrants(3)
	noID[1].ID = ""
	tests := []struct {
		name     string
		setup    Setup
		entrants []Entrant
		want     error // nil: valid
		got      int
		limit    int
	}{
		{"the issue's Swiss: 8 at tables of 4 over 3 rounds", Setup{Swiss, 4, 3}, entrants(8), nil, 0, 0},
		{"a knockout of four tables of 2", Setup{Knockout, 2, 0}, entrants(8), nil, 0, 0},
		{"a knockout with its exact rounds", Setup{Knockout, 2, 3}, entrants(8), nil, 0, 0},
		{"a round robin of the largest field", Setup{RoundRobin, 2, 0}, entrants(MaxRoundRobinField), nil, 0, 0},
		{"one entrant", Setup{Swiss, 2, 0}, entrants(1), ErrTooFewEntrants, 1, 2},
		{"no entrant", Setup{Knockout, 2, 0}, nil, ErrTooFewEntrants, 0, 2},
		{"a table larger than the field", Setup{Swiss, 4, 0}, entrants(3), ErrTableLargerThanField, 4, 3},
		{"a table of 5", Setup{Swiss, 5, 0}, entrants(8), ErrTableSize, 5, 4},
		{"a table of 1", Setup{RoundRobin, 1, 0}, entrants(8), ErrTableSize, 1, 4},
		{"Swiss rounds past meeting everyone", Setup{Swiss, 4, 4}, entrants(8), ErrTooManyRounds, 4, 3},
		{"Swiss rounds past meeting everyone, tables of 2", Setup{Swiss, 2, 8}, entrants(8), ErrTooManyRounds, 8, 7},
		{"knockout rounds past the final", Setup{Knockout, 2, 4}, entrants(8), ErrTooManyRounds, 4, 3},
		{"knockout rounds short of the final", Setup{Knockout, 2, 2}, entrants(8), ErrTooFewRounds, 2, 3},
		{"round robin rounds past the schedule", Setup{RoundRobin, 2, 8}, entrants(8), ErrTooManyRounds, 8, 7},
		{"round robin rounds short of the schedule", Setup{RoundRobin, 2, 6}, entrants(8), ErrTooFewRounds, 6, 7},
		{"negative rounds", Setup{Swiss, 2, -1}, entrants(8), ErrTooFewRounds, -1, 0},
		{"a round robin too large", Setup{RoundRobin, 4, 0}, entrants(MaxRoundRobinField + 1), ErrFieldTooLarge, MaxRoundRobinField + 1, MaxRoundRobinField},
		{"an unknown format", Setup{"arena", 2, 0}, entrants(8), ErrFormat, 0, 0},
		{"an entrant twice", Setup{Swiss, 2, 0}, dup, ErrDuplicateEntrant, 0, 0},
		{"an entrant without an ID", Setup{Swiss, 2, 0}, noID, ErrEntrantID, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.setup.Validate(tt.entrants)
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.want)
			var se *SetupError
			require.True(t, errors.As(err, &se))
			assert.Equal(t, tt.got, se.Got, "got")
			assert.Equal(t, tt.limit, se.Limit, "limit")
			assert.NotEmpty(t, se.Error())
			if tt.want == ErrDuplicateEntrant {
				assert.Equal(t, "p1", se.Entrant)
			}
		})
	}
}

func TestRoundCount(t *testing.T) {
	tests := []struct {
		setup Setup
		n     int
		want  int
	}{
		{Setup{Swiss, 2, 0}, 256, 8}, // 2^8 = 256: one entrant can win every table
		{Setup{Swiss, 2, 0}, 5, 3},
		{Setup{Swiss, 4, 0}, 8, 2},
		{Setup{Swiss, 4, 0}, 4, 1},
		{Setup{Swiss, 3, 0}, 3, 1},
		{Setup{Swiss, 2, 5}, 8, 5},
		{Setup{Knockout, 2, 0}, 8, 3},
		{Setup{Knockout, 2, 0}, 9, 4},
		{Setup{Knockout, 4, 0}, 5, 2},
		{Setup{Knockout, 3, 0}, 9, 2},
		{Setup{Knockout, 4, 0}, 4, 1},
		{Setup{RoundRobin, 2, 0}, 8, 7},
		{Setup{RoundRobin, 2, 0}, 7, 7},
		{Setup{RoundRobin, 4, 0}, 4, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s, %d at tables of %d, rounds %d", tt.setup.Format, tt.n, tt.setup.TableSize, tt.setup.Rounds), func(t *testing.T) {
			assert.Equal(t, tt.want, tt.setup.RoundCount(tt.n))
		})
	}
}

func TestTableSizes(t *testing.T) {
	tests := []struct {
		n, k int
		want []int
	}{
		{8, 4, []int{4, 4}},
		{7, 4, []int{4, 3}},
		{6, 4, []int{3, 3}},
		{5, 4, []int{3, 2}},
		{9, 4, []int{3, 3, 3}},
		{10, 3, []int{3, 3, 2, 2}},
		{4, 3, []int{2, 2}},
		{7, 2, []int{2, 2, 2, 1}},
		{1, 3, []int{1}},
		{0, 2, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d at tables of %d", tt.n, tt.k), func(t *testing.T) {
			got := tableSizes(tt.n, tt.k)
			assert.Equal(t, tt.want, got)
			sum := 0
			for _, s := range got {
				sum += s
				assert.LessOrEqual(t, s, tt.k)
				assert.True(t, s >= 2 || tt.k == 2 || tt.n < 2, "a table of one at tables of %d", tt.k)
			}
			assert.Equal(t, tt.n, sum)
		})
	}
}

func TestNextRoundRefuses(t *testing.T) {
	played := func() Tournament {
		return Tournament{Setup: Setup{Swiss, 2, 2}, Entrants: entrants(4), Rounds: []Round{{Tables: []Table{
			{Seats: []string{"p1", "p3"}, Result: &Result{Places: []string{"p3", "p1"}}},
			{Seats: []string{"p2", "p4"}, Result: &Result{Places: []string{"p2", "p4"}}},
		}}}}
	}
	unfinished := played()
	unfinished.Rounds[0].Tables[1].Result = nil
	finished := played()
	finished.Setup.Rounds = 1
	stranger := played()
	stranger.Rounds[0].Tables[0].Seats[1] = "p9"
	twice := played()
	twice.Rounds[0].Tables[1].Seats[0] = "p1"
	short := played()
	short.Rounds[0].Tables[0].Result.Places = []string{"p3"}
	wrong := played()
	wrong.Rounds[0].Tables[0].Result.Places = []string{"p3", "p2"}
	forfeit := played()
	forfeit.Rounds[0].Tables[0].Result.Forfeited = []string{"p4"}
	empty := played()
	empty.Rounds[0].Tables = append(empty.Rounds[0].Tables, Table{})
	badSetup := played()
	badSetup.Setup.TableSize = 7
	tests := []struct {
		name string
		tour Tournament
		want error
	}{
		{"a table of the last round without a result", unfinished, ErrRoundUnfinished},
		{"every round played", finished, ErrFinished},
		{"a seat for a stranger", stranger, ErrUnknownEntrant},
		{"an entrant at two tables", twice, ErrBadResult},
		{"fewer places than seats", short, ErrBadResult},
		{"a place for someone not at the table", wrong, ErrBadResult},
		{"a forfeit by someone not at the table", forfeit, ErrBadResult},
		{"a table without seats", empty, ErrBadResult},
		{"a wrong setup", badSetup, ErrTableSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.tour.NextRound()
			require.ErrorIs(t, err, tt.want)
			if !errors.Is(tt.want, ErrRoundUnfinished) && !errors.Is(tt.want, ErrFinished) && !errors.Is(tt.want, ErrTableSize) {
				_, err = tt.tour.Standings()
				require.ErrorIs(t, err, tt.want)
			}
		})
	}
	_, err := played().NextRound()
	require.NoError(t, err)
	assert.False(t, played().Finished())
	assert.True(t, finished.Finished())
	assert.False(t, unfinished.Finished())
}
