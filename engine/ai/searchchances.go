package ai

import "github.com/malefiz-discord/malefiz/engine"

// SearchChances returns each colour's chance to win from pos under rules r
// as the coach's search finds it: every roll of the colour to move and of
// the next one, each played with the move hard's evaluation likes best
// for its mover, and the strongest level's evaluation after them: the
// coach's search (Grader), from before the roll. Indexed by colour, 0 for colours not
// in play, adding up to 1; in a finished game the winner has 1. It takes a
// few milliseconds: too slow for every card, the check of one position.
func SearchChances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	if pos.Over() {
		return won(pos.Winner())
	}
	var out [engine.NumColors]float64
	gr := NewGrader()
	for _, c := range pos.Players() {
		s := gr.searcher(c, r)
		out[c] = s.expect(&pos, s.budget.depth)
	}
	return out
}
