package engine

import (
	"fmt"
	"strings"
)

// Move is one move in the notation of docs/rules.md: a pawn from From (NoSquare for
// its house) to To, and, when To held a barricade, the square Place where the
// captured barricade goes (NoSquare otherwise, or while it is still to be chosen).
type Move struct {
	From, To, Place Square
}

// String formats the move as FROM-TO or FROM-TO/PLACE, such as "home-c1" or
// "c1-e3/h11".
func (m Move) String() string {
	s := m.From.String() + "-" + m.To.String()
	if m.Place != NoSquare {
		s += "/" + m.Place.String()
	}
	return s
}

// ParseMove reads move notation: FROM-TO or FROM-TO/PLACE, FROM a square or "home".
func ParseMove(text string) (Move, error) {
	m := Move{From: NoSquare, To: NoSquare, Place: NoSquare}
	body, place, hasPlace := strings.Cut(text, "/")
	from, to, ok := strings.Cut(body, "-")
	if !ok {
		return m, fmt.Errorf("%w: %q is not FROM-TO", ErrInvalidMove, text)
	}
	var err error
	if from != "home" {
		if m.From, err = ParseSquare(from); err != nil {
			return m, fmt.Errorf("%w: %q: %w", ErrInvalidMove, text, err)
		}
	}
	if m.To, err = ParseSquare(to); err != nil {
		return m, fmt.Errorf("%w: %q: %w", ErrInvalidMove, text, err)
	}
	if hasPlace {
		if m.Place, err = ParseSquare(place); err != nil {
			return m, fmt.Errorf("%w: %q: %w", ErrInvalidMove, text, err)
		}
	}
	return m, nil
}

// Rules holds the house rules of a game; the zero value is the standard game.
type Rules struct {
	// SixAgain: after moving on a 6, the same player rolls again.
	SixAgain bool `json:"six_again,omitempty"`
	// SafeRow2: barricades may not be placed on row 2.
	SafeRow2 bool `json:"safe_row_2,omitempty"`
}

// Moves returns the legal moves of the colour to move for a roll of 1 to 6.
// It returns nothing when the turn must pass, when the roll is out of range,
// or when the game is over.
func (p Position) Moves(roll int, r Rules) []Move {
	return p.AppendMoves(nil, roll, r)
}

// AppendMoves appends the legal moves for roll to dst and returns it, like
// Moves but without allocating when dst has room. They come in the order of
// AppendPawnMoves, a move that captures a barricade once per legal
// placement, placements in square order.
func (p Position) AppendMoves(dst []Move, roll int, r Rules) []Move {
	var buf [64]Move
	var free SquareSet // computed when a move first captures a barricade
	for _, m := range p.AppendPawnMoves(buf[:0], roll) {
		if p.cells[m.To] != Barricade {
			dst = append(dst, m)
			continue
		}
		if free == (SquareSet{}) {
			free = p.freeForBarricade(r)
		}
		places := free
		if m.From != NoSquare && barricadeSquares[boolIndex(r.SafeRow2)].Has(m.From) {
			places.Add(m.From) // the square just left counts as free
		}
		places.Each(func(q Square) {
			m.Place = q
			dst = append(dst, m)
		})
	}
	return dst
}

// AppendPawnMoves appends to dst the legal moves of the colour to move for
// roll with the placement of a captured barricade left open (Place is
// NoSquare): one move per pawn and square it can reach, pawns in square
// order and then the house, squares in square order. It is AppendMoves for
// a search that chooses placements itself (see CanPlace); like it, it does
// not allocate when dst has room.
func (p Position) AppendPawnMoves(dst []Move, roll int) []Move {
	if roll < 1 || roll > 6 || p.Over() || !p.turn.Valid() {
		return dst
	}
	own := PawnOf(p.turn)
	for s := Square(0); s < NumSquares; s++ {
		if p.cells[s] == own {
			dst = appendPawnMoves(dst, s, p.reach(s, roll, own))
		}
	}
	if p.home[p.turn] > 0 {
		// Leaving the house takes the first step, onto the entry square.
		dst = appendPawnMoves(dst, NoSquare, p.reach(entries[p.turn], roll-1, own))
	}
	return dst
}

func appendPawnMoves(dst []Move, from Square, targets SquareSet) []Move {
	targets.Each(func(to Square) { dst = append(dst, Move{From: from, To: to, Place: NoSquare}) })
	return dst
}

// reach returns the squares a pawn of piece own standing on start can land
// on in exactly steps steps (start itself for none), along paths that
// visit no square twice and pass over no barricade.
func (p *Position) reach(start Square, steps int, own Piece) SquareSet {
	var targets SquareSet
	if steps == 0 {
		if p.cells[start] != own {
			targets.Add(start)
		}
		return targets
	}
	var visited SquareSet
	visited.Add(start)
	p.walk(start, steps, &visited, &targets, own)
	return targets
}

// walk adds to targets every square reachable from at in exactly steps
// steps along paths that visit no square twice, pass over no barricade and
// end on no pawn of own.
func (p *Position) walk(at Square, steps int, visited, targets *SquareSet, own Piece) {
	for _, n := range neighbors[at] {
		if visited.Has(n) {
			continue
		}
		t := p.cells[n]
		if steps == 1 {
			if t != own {
				targets.Add(n)
			}
			continue
		}
		if t == Barricade {
			continue
		}
		visited.Add(n)
		p.walk(n, steps-1, visited, targets, own)
		visited.Remove(n)
	}
}

// barricadeSquares are the squares a barricade may ever stand on: all but
// row 1 and the goal, and under safe-row-2 ([1]) not row 2 either.
var barricadeSquares [2]SquareSet

func init() {
	for q := Square(0); q < NumSquares; q++ {
		if q == Goal || squareRow[q] == 1 {
			continue
		}
		barricadeSquares[0].Add(q)
		if squareRow[q] != 2 {
			barricadeSquares[1].Add(q)
		}
	}
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// freeForBarricade returns the empty squares a captured barricade may go to
// (before the moving pawn leaves its square).
func (p *Position) freeForBarricade(r Rules) SquareSet {
	var empty SquareSet
	for q := Square(0); q < NumSquares; q++ {
		if p.cells[q] == Empty {
			empty.Add(q)
		}
	}
	allowed := barricadeSquares[boolIndex(r.SafeRow2)]
	return SquareSet{empty[0] & allowed[0], empty[1] & allowed[1]}
}

// CanPlace reports whether a barricade captured by the move from-to may be
// put on q: a free square (the one just left counts as free) off row 1, off
// the goal, and off row 2 under the safe-row-2 rule.
func (p Position) CanPlace(q, from, to Square, r Rules) bool {
	if q == to || !barricadeSquares[boolIndex(r.SafeRow2)].Has(q) {
		return false
	}
	return q == from || p.cells[q] == Empty
}

// PlacementSquares returns every square where the barricade captured by the
// move from-to could be placed.
func (p Position) PlacementSquares(from, to Square, r Rules) []Square {
	var out []Square
	for q := Square(0); q < NumSquares; q++ {
		if p.CanPlace(q, from, to, r) {
			out = append(out, q)
		}
	}
	return out
}

// Path returns one path the pawn of move m may walk for roll, from its first
// square (the entry square when it comes from home) to m.To inclusive, or nil
// when m is not reachable. Renderers draw it to show the last move.
func (p Position) Path(m Move, roll int) []Square {
	own := PawnOf(p.turn)
	var start Square
	steps := roll
	if m.From == NoSquare {
		start, steps = entries[p.turn], roll-1
	} else {
		start = m.From
	}
	path := []Square{start}
	if steps == 0 {
		if start == m.To {
			return path
		}
		return nil
	}
	visited := SquareSet{}
	visited.Add(start)
	var find func(at Square, left int) bool
	find = func(at Square, left int) bool {
		for _, n := range neighbors[at] {
			if visited.Has(n) {
				continue
			}
			if left == 1 {
				if n == m.To && p.cells[n] != own {
					path = append(path, n)
					return true
				}
				continue
			}
			if p.cells[n] == Barricade {
				continue
			}
			visited.Add(n)
			path = append(path, n)
			if find(n, left-1) {
				return true
			}
			path = path[:len(path)-1]
			visited.Remove(n)
		}
		return false
	}
	if !find(start, steps) {
		return nil
	}
	return path
}
