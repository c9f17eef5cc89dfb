package ai

import (
	"math/bits"

	"github.com/malefiz-discord/malefiz/engine"
)

// squareSet is a set of squares as a bitmask.
type squareSet [2]uint64

func (s *squareSet) add(q engine.Square)      { s[q>>6] |= 1 << (q & 63) }
func (s *squareSet) del(q engine.Square)      { s[q>>6] &^= 1 << (q & 63) }
func (s *squareSet) has(q engine.Square) bool { return s[q>>6]&(1<<(q&63)) != 0 }
func (s *squareSet) count() int               { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// forEach calls f for each square of the set in square order.
func (s *squareSet) forEach(f func(q engine.Square)) {
	for w := range s {
		for b := s[w]; b != 0; b &= b - 1 {
			f(engine.Square(w*64 + bits.TrailingZeros64(b)))
		}
	}
}

// maxRoll is the highest roll of the die.
const maxRoll = 6

// Static tables of the board graph, filled once from the engine.
var (
	nbrs     [engine.NumSquares][4]engine.Square
	nbrCount [engine.NumSquares]uint8
	stepDist [engine.NumSquares]int8 // steps to the goal, pieces ignored
)

// pathNode is a node of the trie of the simple paths of up to maxRoll
// steps from one square: the square reached, after how many steps, and the
// index just past the node's subtree.
type pathNode struct {
	sq     engine.Square
	steps  int8
	skip   int16
	parent int16 // the node one step back, -1 for the first step
}

// paths holds the path tries of all squares, one after another; the trie
// of square s is paths[pathStart[s]:pathStart[s+1]], in depth-first order.
var (
	paths     []pathNode
	pathStart [engine.NumSquares + 1]int16
)

func init() {
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		for _, n := range engine.Neighbors(s) {
			nbrs[s][nbrCount[s]] = n
			nbrCount[s]++
		}
		stepDist[s] = int8(engine.DistanceToGoal(s))
	}
	var build func(at engine.Square, steps int, visited *squareSet, parent int16)
	build = func(at engine.Square, steps int, visited *squareSet, parent int16) {
		for i := uint8(0); i < nbrCount[at]; i++ {
			q := nbrs[at][i]
			if visited.has(q) {
				continue
			}
			k := len(paths)
			paths = append(paths, pathNode{sq: q, steps: int8(steps + 1), parent: parent})
			if steps+1 < maxRoll {
				visited.add(q)
				build(q, steps+1, visited, int16(k))
				visited.del(q)
			}
			paths[k].skip = int16(len(paths))
		}
	}
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		pathStart[s] = int16(len(paths))
		var visited squareSet
		visited.add(s)
		build(s, 0, &visited, -1)
	}
	pathStart[engine.NumSquares] = int16(len(paths))
}

// reachFrom adds to out[d] every square a pawn on s could land on with a
// roll of d, for d up to maxRoll: paths visit no square twice and pass no
// barricade of bars (they may end on one). Pieces are ignored otherwise.
func reachFrom(bars *squareSet, s engine.Square, out *[maxRoll + 1]squareSet) {
	end := int(pathStart[s+1])
	for i := int(pathStart[s]); i < end; {
		n := paths[i]
		out[n.steps].add(n.sq)
		if bars.has(n.sq) {
			i = int(n.skip)
		} else {
			i++
		}
	}
}

// board is the search's copy of a position: the same facts as
// engine.Position, kept in a form that is cheap to read and change.
type board struct {
	cells  [engine.NumSquares]engine.Piece
	bars   squareSet
	home   [engine.NumColors]int8
	inPlay [engine.NumColors]bool
	turn   engine.Color
	winner engine.Color
}

func newBoard(pos engine.Position) board {
	var b board
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		p := pos.At(s)
		b.cells[s] = p
		if p == engine.Barricade {
			b.bars.add(s)
		}
	}
	for _, c := range pos.Players() {
		b.inPlay[c] = true
		b.home[c] = int8(pos.Home(c))
	}
	b.turn = pos.Turn()
	b.winner = pos.Winner()
	return b
}

// next returns the colour in play after c in seat order.
func (b *board) next(c engine.Color) engine.Color {
	for i := 1; i <= engine.NumColors; i++ {
		n := engine.Color((int(c) + i) % engine.NumColors)
		if b.inPlay[n] {
			return n
		}
	}
	return c
}

// pass hands the turn on without a move.
func (b *board) pass() { b.turn = b.next(b.turn) }

// apply plays m for the colour to move, which must be legal, and hands the
// turn on unless again (a six under the six-again rule) keeps it.
func (b *board) apply(m engine.Move, again bool) {
	c := b.turn
	if m.From == engine.NoSquare {
		b.home[c]--
	} else {
		b.cells[m.From] = engine.Empty
	}
	switch t := b.cells[m.To]; {
	case t.IsPawn():
		b.home[t.Color()]++
	case t == engine.Barricade:
		b.bars.del(m.To)
		if m.Place != engine.NoSquare {
			b.cells[m.Place] = engine.Barricade
			b.bars.add(m.Place)
		}
	}
	b.cells[m.To] = engine.PawnOf(c)
	if m.To == engine.Goal {
		b.winner = c
		return
	}
	if !again {
		b.turn = b.next(c)
	}
}

// step is a pawn's move without the placement of a captured barricade.
type step struct {
	from, to engine.Square
}

// steps appends the distinct (from, to) moves of the colour to move for
// roll, in the order: pawns in square order, then the house.
func (b *board) steps(dst []step, roll int) []step {
	c := b.turn
	own := engine.PawnOf(c)
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		if b.cells[s] != own {
			continue
		}
		var dest, visited squareSet
		visited.add(s)
		b.walk(s, roll, &visited, &dest, own)
		dest.forEach(func(q engine.Square) { dst = append(dst, step{s, q}) })
	}
	if b.home[c] > 0 {
		entry := engine.Entry(c)
		var dest squareSet
		if roll == 1 {
			if b.cells[entry] != own {
				dest.add(entry)
			}
		} else {
			var visited squareSet
			visited.add(entry)
			b.walk(entry, roll-1, &visited, &dest, own)
		}
		dest.forEach(func(q engine.Square) { dst = append(dst, step{engine.NoSquare, q}) })
	}
	return dst
}

// walk adds to dest the squares reachable from at in exactly n steps along
// paths that visit no square twice, pass no barricade and end off own.
func (b *board) walk(at engine.Square, n int, visited, dest *squareSet, own engine.Piece) {
	for i := uint8(0); i < nbrCount[at]; i++ {
		q := nbrs[at][i]
		if visited.has(q) {
			continue
		}
		t := b.cells[q]
		if n == 1 {
			if t != own {
				dest.add(q)
			}
			continue
		}
		if t == engine.Barricade {
			continue
		}
		visited.add(q)
		b.walk(q, n-1, visited, dest, own)
		visited.del(q)
	}
}

// placeable reports whether the barricade captured by from-to may go on q.
func (b *board) placeable(q, from, to engine.Square, r engine.Rules) bool {
	row := q.Row()
	if q == to || q == engine.Goal || row == 1 || (r.SafeRow2 && row == 2) {
		return false
	}
	return q == from || b.cells[q] == engine.Empty
}
