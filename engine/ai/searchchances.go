package ai

import "github.com/malefiz-discord/malefiz/engine"

// SearchChances returns each colour's chance to win from pos under rules r
// as the coach's search finds it: every roll of the colour to move and of
// the next one, each played with the move hard's evaluation likes best
// for its mover (a captured barricade tried on the squares hard's search
// tries first), and hard's evaluation after them (the grading's search,
// gradeBudget, from before the roll). Indexed by colour, 0 for colours not
// in play, adding up to 1; in a finished game the winner has 1. It takes a
// few milliseconds: too slow for every card, the check of one position.
func SearchChances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	if pos.Over() {
		return won(pos.Winner())
	}
	var out [engine.NumColors]float64
	e := newEvaluator(defaultParams)
	for _, c := range pos.Players() {
		s := searcher{e: e, rules: r, me: c, budget: gradeBudget}
		out[c] = s.expect(&pos, gradeBudget.depth)
	}
	return out
}
