package engine

import (
	"fmt"
	"slices"
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
	start := len(dst)
	dst = p.AppendPawnMoves(dst, roll)
	for i := start; i < len(dst); i++ {
		if p.cells[dst[i].To] == Barricade {
			return p.expandCaptures(dst, i, r)
		}
	}
	return dst
}

// expandCaptures replaces each capture among dst[first:], the first of
// which is dst[first], by one move per legal placement, in place.
func (p *Position) expandCaptures(dst []Move, first int, r Rules) []Move {
	free := p.freeForBarricade(r)
	places := func(m Move) SquareSet { return withSquareLeft(free, m.From, r) }
	n, total := len(dst), len(dst)
	for _, m := range dst[first:] {
		if p.cells[m.To] == Barricade {
			total += places(m).Len() - 1
		}
	}
	if total < n {
		// No square is free (only in a position packed with barricades):
		// a capture has one placement, the square left, or none.
		out := dst[:first]
		for _, m := range dst[first:] {
			if p.cells[m.To] != Barricade {
				out = append(out, m)
				continue
			}
			places(m).Each(func(q Square) {
				m.Place = q
				out = append(out, m)
			})
		}
		return out
	}
	// Each move gives one or more, so filling from the back overwrites only
	// moves already expanded.
	dst = slices.Grow(dst, total-n)[:total]
	w := total
	for i := n - 1; i >= first; i-- {
		m := dst[i]
		if p.cells[m.To] != Barricade {
			w--
			dst[w] = m
			continue
		}
		ps := places(m)
		w -= ps.Len()
		k := w
		ps.Each(func(q Square) {
			m.Place = q
			dst[k] = m
			k++
		})
	}
	return dst
}

// AppendPawnMoves appends to dst the legal moves of the colour to move for
// roll with the placement of a captured barricade left open (Place is
// NoSquare): one move per pawn and square it can reach, pawns in square
// order and then the house, squares in square order. It is AppendMoves for
// a search that chooses placements itself (see PlacementSet); like it, it does
// not allocate when dst has room. (On a board so packed with barricades
// that a captured one has nowhere to go, it still lists that capture,
// which Moves leaves out.)
func (p Position) AppendPawnMoves(dst []Move, roll int) []Move {
	if roll < 1 || roll > MaxRoll || p.Over() || !p.turn.Valid() {
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
	trie := Paths(start)
	for i := p.nextLanding(trie, steps, 0); i < len(trie); i = p.nextLanding(trie, steps, int(trie[i].Skip)) {
		if q := trie[i].Square; p.cells[q] != own {
			targets.Add(q)
		}
	}
	return targets
}

// nextLanding returns the index of the first node of trie from i on that
// ends a path of exactly steps steps passing over no barricade, or
// len(trie). Where it lands, a pawn may stand.
func (p *Position) nextLanding(trie []PathStep, steps, i int) int {
	for i < len(trie) {
		n := &trie[i]
		switch {
		case int(n.Steps) == steps:
			return i
		case p.cells[n.Square] == Barricade:
			i = int(n.Skip)
		default:
			i++
		}
	}
	return i
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

// PlacementSet returns the squares where the barricade captured by the
// move from-to may be placed: the free squares (the one just left counts as
// free) off row 1, off the goal, and off row 2 under the safe-row-2 rule.
func (p Position) PlacementSet(from, to Square, r Rules) SquareSet {
	places := withSquareLeft(p.freeForBarricade(r), from, r)
	places.Remove(to)
	return places
}

// withSquareLeft returns free, the squares free for a barricade, with from
// added when a barricade may stand there: the square a pawn leaves counts
// as free.
func withSquareLeft(free SquareSet, from Square, r Rules) SquareSet {
	if from != NoSquare && barricadeSquares[boolIndex(r.SafeRow2)].Has(from) {
		free.Add(from)
	}
	return free
}

// PlacementSquares returns every square where the barricade captured by the
// move from-to could be placed, in square order: PlacementSet as a slice.
func (p Position) PlacementSquares(from, to Square, r Rules) []Square {
	var out []Square
	p.PlacementSet(from, to, r).Each(func(q Square) { out = append(out, q) })
	return out
}

// Path returns one path the pawn of move m may walk for roll, from its first
// square (the entry square when it comes from home) to m.To inclusive: the
// first in the order of Paths. It returns nil when m is no move of the
// colour to move for roll. Renderers draw it to show the last move.
func (p Position) Path(m Move, roll int) []Square {
	own := PawnOf(p.turn)
	start, steps := m.From, roll
	switch {
	case roll < 1 || roll > MaxRoll || !p.turn.Valid():
		return nil
	case m.From == NoSquare && p.home[p.turn] == 0, m.From != NoSquare && p.cells[m.From] != own:
		return nil // no pawn to move
	case m.From == NoSquare:
		start, steps = entries[p.turn], roll-1
	}
	if steps == 0 {
		if start == m.To && p.cells[start] != own {
			return []Square{start}
		}
		return nil
	}
	trie := Paths(start)
	for i := p.nextLanding(trie, steps, 0); i < len(trie); i = p.nextLanding(trie, steps, int(trie[i].Skip)) {
		if trie[i].Square != m.To || p.cells[m.To] == own {
			continue
		}
		path := make([]Square, steps+1)
		path[0] = start
		for k := i; k >= 0; k = int(trie[k].Parent) {
			path[trie[k].Steps] = trie[k].Square
		}
		return path
	}
	return nil
}
