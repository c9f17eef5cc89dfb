package engine

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// countSimplePaths counts the paths of 1 to left steps from at that visit
// no square of visited, the brute-force way.
func countSimplePaths(at Square, left int, visited []Square) int {
	if left == 0 {
		return 0
	}
	n := 0
	for _, q := range Neighbors(at) {
		if !slices.Contains(visited, q) {
			n += 1 + countSimplePaths(q, left-1, append(visited, q))
		}
	}
	return n
}

func TestPathsHoldEverySimplePathOnce(t *testing.T) {
	for s := Square(0); s < NumSquares; s++ {
		trie := Paths(s)
		require.Len(t, trie, countSimplePaths(s, MaxRoll, []Square{s}), "paths from %s", s)
		seen := map[string]bool{}
		for i, n := range trie {
			// The path of node i, read back through the parents.
			path := []Square{}
			for k := i; k >= 0; k = int(trie[k].Parent) {
				path = append([]Square{trie[k].Square}, path...)
			}
			require.Len(t, path, int(n.Steps), "node %d from %s", i, s)
			key := fmtSquares(path)
			require.False(t, seen[key], "path %s from %s twice", key, s)
			seen[key] = true
			prev := s
			for j, q := range path {
				require.Contains(t, Neighbors(prev), q, "path %s from %s", key, s)
				require.NotContains(t, append([]Square{s}, path[:j]...), q, "path %s from %s", key, s)
				prev = q
			}
			// Skip ends the subtree: the nodes before it extend this path.
			require.Greater(t, int(n.Skip), i)
			require.LessOrEqual(t, int(n.Skip), len(trie))
			for k := i + 1; k < int(n.Skip); k++ {
				require.Greater(t, trie[k].Steps, n.Steps, "node %d inside the subtree of %d from %s", k, i, s)
			}
			if int(n.Skip) < len(trie) {
				require.LessOrEqual(t, trie[n.Skip].Steps, n.Steps, "node %d after the subtree of %d from %s", n.Skip, i, s)
			}
		}
	}
}

func fmtSquares(squares []Square) string {
	out := ""
	for _, q := range squares {
		out += q.String() + " "
	}
	return out
}
