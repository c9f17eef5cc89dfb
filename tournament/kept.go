package tournament

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/malefiz-discord/malefiz"
)

// FromKept returns a tournament as the store keeps it (malefiz.Tournament,
// read whole: its entrants, its rounds and tables, each table's game
// status and results) in this package's terms: the setup, the entrants in
// sign-up order and the rounds played so far, each table's Result taken
// from its game once the game is over.
//
// A table's game seats the table's entrants in the table's order; seats
// after them are computers that filled the table, and count for nothing:
// the entrants keep their order among themselves (the best placed of them
// is the table's winner). The places are the game's (malefiz.Result.Place:
// the winner, then by distance to the goal); an entrant who left the game
// (resigned, or timed out until the computer took over) forfeited it. A
// game cancelled before its end counts as forfeited by everyone at the
// table. A table whose game is not over, or not opened yet, has no
// result.
func FromKept(t *malefiz.Tournament) (Tournament, error) {
	out := Tournament{Setup: Setup{Format: Format(t.Setup.Format), TableSize: t.Setup.TableSize, Rounds: t.Setup.Rounds}}
	entrants := slices.Clone(t.Entrants)
	slices.SortStableFunc(entrants, func(a, b malefiz.TournamentEntrant) int { return cmp.Compare(a.Order, b.Order) })
	for _, e := range entrants {
		out.Entrants = append(out.Entrants, Entrant{ID: e.UserID, Rating: e.Rating, Withdrawn: e.Withdrawn})
	}
	for _, r := range t.Rounds {
		var round Round
		for i, kt := range r.Tables {
			res, err := keptResult(kt)
			if err != nil {
				return Tournament{}, fmt.Errorf("round %d, table %d: %w", r.Number, i+1, err)
			}
			round.Tables = append(round.Tables, Table{Seats: slices.Clone(kt.Seats), Result: res})
		}
		out.Rounds = append(out.Rounds, round)
	}
	return out, nil
}

// keptResult is how a kept table's game ended, nil while it has not (see
// FromKept).
func keptResult(t malefiz.TournamentTable) (*Result, error) {
	switch {
	case t.Bye() || t.GameID == 0:
		return nil, nil
	case t.GameStatus == malefiz.StatusCancelled:
		return &Result{Places: slices.Clone(t.Seats), Forfeited: slices.Clone(t.Seats)}, nil
	case t.GameStatus != malefiz.StatusFinished:
		return nil, nil
	case len(t.Results) < len(t.Seats):
		return nil, fmt.Errorf("game %d: %d results for %d seats: %w", t.GameID, len(t.Results), len(t.Seats), ErrBadResult)
	}
	type placed struct {
		id    string
		place int
	}
	seats := make([]placed, len(t.Seats))
	var forfeited []string
	for i, id := range t.Seats {
		r := t.Results[i]
		switch {
		case !r.Computer && r.Player != id:
			return nil, fmt.Errorf("game %d: seat %d is %q's, not %q's: %w", t.GameID, i, r.Player, id, ErrBadResult)
		case r.Place < 1:
			return nil, fmt.Errorf("game %d: no place recorded for seat %d: %w", t.GameID, i, ErrBadResult)
		}
		seats[i] = placed{id, r.Place}
		if r.Left {
			forfeited = append(forfeited, id)
		}
	}
	slices.SortStableFunc(seats, func(a, b placed) int { return cmp.Compare(a.place, b.place) })
	places := make([]string, len(seats))
	for i, s := range seats {
		places[i] = s.id
	}
	return &Result{Places: places, Forfeited: forfeited}, nil
}

// KeptTables returns a round's tables as the store keeps them
// (malefiz.TournamentRound.Tables): each table's seats in order, numbered
// from 1, no game yet.
func KeptTables(r Round) []malefiz.TournamentTable {
	out := make([]malefiz.TournamentTable, len(r.Tables))
	for i, t := range r.Tables {
		out[i] = malefiz.TournamentTable{Number: i + 1, Seats: slices.Clone(t.Seats)}
	}
	return out
}
