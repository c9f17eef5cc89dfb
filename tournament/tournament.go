package tournament

import (
	"errors"
	"fmt"
)

// Format is how a tournament pairs its rounds.
type Format string

// The formats.
const (
	Swiss      Format = "swiss"
	RoundRobin Format = "round-robin"
	Knockout   Format = "knockout"
)

// Entrant is one player of a tournament.
type Entrant struct {
	ID     string  // the player's Discord user ID, or a computer's ID; unique in the tournament
	Rating float64 // the rating at sign-up: seeds the field and breaks late ties
	// Withdrawn: the entrant left the tournament (by choice, or after the
	// host's threshold of forfeits). Their results stand; later rounds are
	// paired without them.
	Withdrawn bool
}

// Table is one game of a round: its entrants in seat order. A table of one
// seat is a bye: nobody to play, the entrant scores ByePoints (and in a
// knockout goes on).
type Table struct {
	Seats []string // entrant IDs in seat order
	// Result is how the table's game ended; nil until it has. A bye needs
	// none.
	Result *Result
}

// Bye reports whether the table is a bye.
func (t Table) Bye() bool { return len(t.Seats) == 1 }

// Done reports whether the table has its result or needs none.
func (t Table) Done() bool { return t.Bye() || t.Result != nil }

// Result is how a table's game ended.
type Result struct {
	// Places lists every seat of the table once, the winner first, then
	// the others as the game orders them when it ends: by distance to the
	// goal, the nearest first.
	Places []string
	// Forfeited are the entrants of the table who forfeited its game:
	// timed out, resigned or withdrawn. They score nothing and count as
	// placed after everyone who did not forfeit.
	Forfeited []string
}

// Round is one round of a tournament: its tables, played at the same
// time.
type Round struct {
	Tables []Table
}

// Done reports whether every table of the round has its result.
func (r Round) Done() bool {
	for _, t := range r.Tables {
		if !t.Done() {
			return false
		}
	}
	return true
}

// Setup is what a host chooses when opening a tournament.
type Setup struct {
	Format    Format
	TableSize int // seats at a table: 2, 3 or 4
	// Rounds is how many rounds the tournament plays; 0 plays as many as
	// the format needs (see RoundCount).
	Rounds int
}

// The refusals of a setup, each wrapped in a *SetupError by
// Setup.Validate; compare with errors.Is.
var (
	ErrFormat               = errors.New("unknown tournament format")
	ErrTableSize            = errors.New("table size must be 2, 3 or 4")
	ErrTooFewEntrants       = errors.New("too few entrants")
	ErrTableLargerThanField = errors.New("table size larger than the field")
	ErrFieldTooLarge        = errors.New("too many entrants for the format")
	ErrTooManyRounds        = errors.New("more rounds than the format allows")
	ErrTooFewRounds         = errors.New("fewer rounds than the format needs")
	ErrEntrantID            = errors.New("entrant without an ID")
	ErrDuplicateEntrant     = errors.New("entrant signed up twice")
)

// The errors of a tournament's record (its rounds) and of its progress,
// from NextRound and Standings, wrapped with where they are; compare with
// errors.Is.
var (
	ErrUnknownEntrant  = errors.New("not an entrant of the tournament")
	ErrBadResult       = errors.New("result does not match its table")
	ErrRoundUnfinished = errors.New("the current round has a table without a result")
	ErrFinished        = errors.New("the tournament has played all its rounds")
)

// SetupError is a refusal of a setup: Err is one of the sentinel errors
// above, Got the value refused and Limit the bound it broke (the most or
// the fewest allowed), so that a refusal can say both.
type SetupError struct {
	Err     error
	Got     int    // the table size, number of entrants or rounds refused
	Limit   int    // the bound: the most rounds allowed, the fewest entrants, …
	Entrant string // the entrant concerned, for ErrDuplicateEntrant
}

// Error says the rule broken, the value and the limit.
func (e *SetupError) Error() string {
	switch {
	case errors.Is(e.Err, ErrDuplicateEntrant):
		return fmt.Sprintf("%v: %q", e.Err, e.Entrant)
	case errors.Is(e.Err, ErrFormat), errors.Is(e.Err, ErrEntrantID):
		return e.Err.Error()
	}
	return fmt.Sprintf("%v: %d (limit %d)", e.Err, e.Got, e.Limit)
}

// Unwrap returns the sentinel error.
func (e *SetupError) Unwrap() error { return e.Err }

// MaxRoundRobinField is the largest field a round robin takes: 31
// rounds at tables of 2, 13 at tables of 4.
const MaxRoundRobinField = 32

// Validate checks a setup for a field of entrants: a known format, a
// table size of 2 to 4 no larger than the field, at least two entrants
// (at most MaxRoundRobinField for a round robin), each with an ID of
// their own, and a number of rounds the format allows (see MaxRounds).
// The error is a *SetupError.
func (s Setup) Validate(entrants []Entrant) error {
	n := len(entrants)
	switch {
	case s.Format != Swiss && s.Format != RoundRobin && s.Format != Knockout:
		return &SetupError{Err: ErrFormat}
	case s.TableSize < 2 || s.TableSize > 4:
		return &SetupError{Err: ErrTableSize, Got: s.TableSize, Limit: 4}
	case n < 2:
		return &SetupError{Err: ErrTooFewEntrants, Got: n, Limit: 2}
	case s.TableSize > n:
		return &SetupError{Err: ErrTableLargerThanField, Got: s.TableSize, Limit: n}
	case s.Format == RoundRobin && n > MaxRoundRobinField:
		return &SetupError{Err: ErrFieldTooLarge, Got: n, Limit: MaxRoundRobinField}
	case s.Rounds < 0:
		return &SetupError{Err: ErrTooFewRounds, Got: s.Rounds, Limit: 0}
	case s.Rounds > MaxRounds(s.Format, n, s.TableSize):
		return &SetupError{Err: ErrTooManyRounds, Got: s.Rounds, Limit: MaxRounds(s.Format, n, s.TableSize)}
	case s.Rounds > 0 && s.Format != Swiss && s.Rounds < MaxRounds(s.Format, n, s.TableSize):
		return &SetupError{Err: ErrTooFewRounds, Got: s.Rounds, Limit: MaxRounds(s.Format, n, s.TableSize)}
	}
	seen := make(map[string]bool, n)
	for _, e := range entrants {
		if e.ID == "" {
			return &SetupError{Err: ErrEntrantID}
		}
		if seen[e.ID] {
			return &SetupError{Err: ErrDuplicateEntrant, Entrant: e.ID}
		}
		seen[e.ID] = true
	}
	return nil
}

// MaxRounds is the most rounds a format allows for a field of n entrants
// at tables of k. Swiss: ⌈(n−1)/(k−1)⌉, the rounds in which everyone
// could have met everyone once (beyond, a round robin is the better
// format); round robin and knockout: exactly the rounds they need.
func MaxRounds(f Format, n, k int) int {
	if n < 2 || k < 2 || k > 4 {
		return 0
	}
	switch f {
	case Swiss:
		return (n - 1 + k - 2) / (k - 1)
	case RoundRobin:
		if n > MaxRoundRobinField {
			return 0
		}
		return len(schedule(n, k))
	case Knockout:
		return knockoutDepth(n, k)
	}
	return 0
}

// RoundCount is how many rounds the tournament plays for a field of n:
// Rounds when set; otherwise for Swiss ⌈log_k n⌉ (the rounds after which
// at most one entrant has won every table), at most MaxRounds; for round
// robin the rounds of its schedule; for knockout the bracket's depth.
func (s Setup) RoundCount(n int) int {
	if s.Rounds > 0 {
		return s.Rounds
	}
	if s.Format == Swiss {
		return min(max(knockoutDepth(n, s.TableSize), 1), MaxRounds(Swiss, n, s.TableSize))
	}
	return MaxRounds(s.Format, n, s.TableSize)
}

// knockoutDepth is ⌈log_k n⌉: the rounds of a bracket of n at tables of k.
func knockoutDepth(n, k int) int {
	d, slots := 0, 1
	for slots < n {
		slots *= k
		d++
	}
	return d
}

// tableSizes splits n entrants into ⌈n/k⌉ tables as even as can be, the
// larger first: 4+3 for 7 at tables of 4, 3+3+3 for 9, 2+1 (a bye) for 3
// at tables of 2. Only tables of 2 ever leave a table of one.
func tableSizes(n, k int) []int {
	if n == 0 {
		return nil
	}
	t := (n + k - 1) / k
	sizes := make([]int, t)
	for i := range sizes {
		sizes[i] = n / t
		if i < n%t {
			sizes[i]++
		}
	}
	return sizes
}

// Tournament is a tournament as played so far: its setup, its entrants
// in sign-up order and its rounds, the last perhaps still being played.
// Every method is a pure function of these.
type Tournament struct {
	Setup    Setup
	Entrants []Entrant
	Rounds   []Round
}

// Finished reports whether the tournament has played all its rounds.
func (t Tournament) Finished() bool {
	n := len(t.Rounds)
	return n > 0 && n >= t.Setup.RoundCount(len(t.Entrants)) && t.Rounds[n-1].Done()
}

// NextRound pairs the next round as the format says (see the package
// documentation). It refuses with ErrRoundUnfinished while a table of the
// last round has no result, with ErrFinished once all rounds are played,
// and with the setup's or the record's error when they are wrong.
func (t Tournament) NextRound() (Round, error) {
	if err := t.Setup.Validate(t.Entrants); err != nil {
		return Round{}, err
	}
	if _, err := t.check(); err != nil {
		return Round{}, err
	}
	if n := len(t.Rounds); n > 0 && !t.Rounds[n-1].Done() {
		return Round{}, ErrRoundUnfinished
	}
	if len(t.Rounds) >= t.Setup.RoundCount(len(t.Entrants)) {
		return Round{}, ErrFinished
	}
	switch t.Setup.Format {
	case Swiss:
		return t.swiss(), nil
	case RoundRobin:
		return t.roundRobin(), nil
	default:
		return t.knockout(), nil
	}
}

// check verifies the record: every seat an entrant, nobody twice in a
// round, every result a placement of its table. It returns each
// entrant's index by ID.
func (t Tournament) check() (map[string]int, error) {
	index := make(map[string]int, len(t.Entrants))
	for i, e := range t.Entrants {
		index[e.ID] = i
	}
	seated := make(map[string]bool, len(t.Entrants))
	for r, round := range t.Rounds {
		clear(seated)
		for i, table := range round.Tables {
			where := func(err error, id string) error {
				return fmt.Errorf("round %d, table %d: %q: %w", r+1, i+1, id, err)
			}
			if len(table.Seats) == 0 {
				return nil, fmt.Errorf("round %d, table %d: no seats: %w", r+1, i+1, ErrBadResult)
			}
			for _, id := range table.Seats {
				if _, ok := index[id]; !ok {
					return nil, where(ErrUnknownEntrant, id)
				}
				if seated[id] {
					return nil, where(ErrBadResult, id)
				}
				seated[id] = true
			}
			if table.Result == nil || table.Bye() {
				continue
			}
			if len(table.Result.Places) != len(table.Seats) {
				return nil, fmt.Errorf("round %d, table %d: %d places for %d seats: %w",
					r+1, i+1, len(table.Result.Places), len(table.Seats), ErrBadResult)
			}
			for _, list := range [][]string{table.Result.Places, table.Result.Forfeited} {
				once := make(map[string]bool)
				for _, id := range list {
					if once[id] || !contains(table.Seats, id) {
						return nil, where(ErrBadResult, id)
					}
					once[id] = true
				}
			}
		}
	}
	return index, nil
}

func contains(list []string, id string) bool {
	for _, s := range list {
		if s == id {
			return true
		}
	}
	return false
}
