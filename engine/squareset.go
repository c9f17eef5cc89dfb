package engine

import "math/bits"

// SquareSet is a set of squares as a bitmask. It is a small comparable
// value: a copy is independent of the original, and a set can key a map.
type SquareSet [2]uint64

// Add puts q into the set.
func (s *SquareSet) Add(q Square) { s[q>>6] |= 1 << (q & 63) }

// Remove takes q out of the set.
func (s *SquareSet) Remove(q Square) { s[q>>6] &^= 1 << (q & 63) }

// Has reports whether q is in the set.
func (s SquareSet) Has(q Square) bool { return s[q>>6]&(1<<(q&63)) != 0 }

// Len returns how many squares the set holds.
func (s SquareSet) Len() int { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// Each calls f for each square of the set, in square order.
func (s SquareSet) Each(f func(q Square)) {
	for w := range s {
		for b := s[w]; b != 0; b &= b - 1 {
			f(Square(w*64 + bits.TrailingZeros64(b)))
		}
	}
}
