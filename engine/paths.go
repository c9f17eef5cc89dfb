package engine

// MaxRoll is the highest roll of the die, and so the longest walk of a move.
const MaxRoll = 6

// PathStep is one node of the trie of the simple paths from a square (see
// Paths): the square a path reaches, after how many steps, and how the trie
// goes on from there.
type PathStep struct {
	// Square is the square reached.
	Square Square
	// Steps is how many steps from the start Square lies, 1 to MaxRoll.
	Steps int8
	// Skip is the index just past this node's subtree: a walk that may not
	// go on from Square (a barricade stands there) continues at Skip.
	Skip int16
	// Parent is the index of the step before, or -1 for the first step.
	Parent int16
}

// paths holds the tries of all squares one after another: the trie of s is
// paths[pathStart[s]:pathStart[s+1]], with indexes relative to its start.
var (
	paths     []PathStep
	pathStart [NumSquares + 1]int32
)

// buildPaths fills paths from the board graph; board.go's init calls it
// once the neighbours are known.
func buildPaths() {
	var build func(at Square, steps int, visited *SquareSet, parent int16, base int)
	build = func(at Square, steps int, visited *SquareSet, parent int16, base int) {
		for _, q := range neighbors[at] {
			if visited.Has(q) {
				continue
			}
			k := len(paths)
			paths = append(paths, PathStep{Square: q, Steps: int8(steps + 1), Parent: parent})
			if steps+1 < MaxRoll {
				visited.Add(q)
				build(q, steps+1, visited, int16(k-base), base)
				visited.Remove(q)
			}
			paths[k].Skip = int16(len(paths) - base)
		}
	}
	for s := Square(0); s < NumSquares; s++ {
		pathStart[s] = int32(len(paths))
		var visited SquareSet
		visited.Add(s)
		build(s, 0, &visited, -1, len(paths))
	}
	pathStart[NumSquares] = int32(len(paths))
}

// Paths returns the simple paths (no square twice) of 1 to MaxRoll steps
// from s along the lines, pieces ignored, as a trie in depth-first order,
// neighbours in the order of Neighbors: each node is a path, the path of
// its parent one step longer. A walk that may not pass a square (a
// barricade) jumps to the node's Skip. The slice is shared: callers must
// not modify it.
func Paths(s Square) []PathStep { return paths[pathStart[s]:pathStart[s+1]] }
