package ai

import "github.com/malefiz-discord/malefiz/engine"

// maxRoll is the highest roll of the die.
const maxRoll = 6

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
// The evaluation reads them to see where a pawn could go in the next turns
// (reachFrom, searcher.route); the moves themselves come from the engine.
var (
	paths     []pathNode
	pathStart [engine.NumSquares + 1]int16
)

func init() {
	var build func(at engine.Square, steps int, visited *engine.SquareSet, parent int16)
	build = func(at engine.Square, steps int, visited *engine.SquareSet, parent int16) {
		for _, q := range engine.Neighbors(at) {
			if visited.Has(q) {
				continue
			}
			k := len(paths)
			paths = append(paths, pathNode{sq: q, steps: int8(steps + 1), parent: parent})
			if steps+1 < maxRoll {
				visited.Add(q)
				build(q, steps+1, visited, int16(k))
				visited.Remove(q)
			}
			paths[k].skip = int16(len(paths))
		}
	}
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		pathStart[s] = int16(len(paths))
		var visited engine.SquareSet
		visited.Add(s)
		build(s, 0, &visited, -1)
	}
	pathStart[engine.NumSquares] = int16(len(paths))
}

// reachFrom adds to out[d] every square a pawn on s could land on with a
// roll of d, for d up to maxRoll: paths visit no square twice and pass no
// barricade of bars (they may end on one). Pieces are ignored otherwise.
func reachFrom(bars *engine.SquareSet, s engine.Square, out *[maxRoll + 1]engine.SquareSet) {
	end := int(pathStart[s+1])
	for i := int(pathStart[s]); i < end; {
		n := paths[i]
		out[n.steps].Add(n.sq)
		if bars.Has(n.sq) {
			i = int(n.skip)
		} else {
			i++
		}
	}
}
