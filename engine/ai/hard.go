package ai

import (
	"math/rand/v2"
	"slices"

	"github.com/malefiz-discord/malefiz/engine"
)

// budget bounds hard's work per decision, so that it is the same on every
// machine and every decision replays.
type budget struct {
	// candidates is how many of the best moves by the evaluation are searched.
	candidates int
	// placements is how many placements of one barricade capture stay
	// candidates at the root.
	placements int
	// replyPlacements is how many squares an opponent's captured barricade
	// is tried on inside the search.
	replyPlacements int
}

var defaultHardBudget = budget{candidates: 6, placements: 3, replyPlacements: 6}

// hardPlayer looks one turn ahead: for each of its best moves it averages,
// over the six rolls of the next player, the evaluation after that
// player's best reply (expectimax), replies and their barricade
// placements chosen by the same evaluation.
type hardPlayer struct {
	rng    *rand.Rand
	budget budget
	p      params
}

type candidate struct {
	move   engine.Move
	static float64 // the evaluation right after the move
	value  float64 // the searched value
}

// Choose implements Player.
func (p *hardPlayer) Choose(pos engine.Position, roll int, rules engine.Rules, moves []engine.Move) engine.Move {
	e := newEvaluator(p.p)
	root := newBoard(pos)
	me := root.turn
	again := rules.SixAgain && roll == maxRoll

	// Evaluate every move, then keep the best placements of each capture.
	var cands []candidate
	for _, g := range groupMoves(moves) {
		start := len(cands)
		for _, m := range g.moves {
			b := root
			b.apply(m, again)
			cands = append(cands, candidate{move: m, static: e.chances(&b)[me]})
		}
		grp := cands[start:]
		slices.SortStableFunc(grp, byStatic)
		if len(grp) > p.budget.placements {
			cands = cands[:start+p.budget.placements]
		}
	}
	slices.SortStableFunc(cands, byStatic)
	if cands[0].move.To == engine.Goal {
		return cands[0].move
	}
	n := min(len(cands), p.budget.candidates)
	s := searcher{e: e, rules: rules, me: me, budget: p.budget}
	best, bestVal := []int(nil), -1.0
	for i := 0; i < n; i++ {
		b := root
		b.apply(cands[i].move, again)
		v := s.expect(&b)
		switch {
		case v > bestVal+1e-12:
			bestVal, best = v, append(best[:0], i)
		case v >= bestVal-1e-12:
			best = append(best, i)
		}
	}
	return cands[best[p.rng.IntN(len(best))]].move
}

func byStatic(a, b candidate) int {
	switch {
	case a.static > b.static:
		return -1
	case a.static < b.static:
		return 1
	}
	return 0
}

// searcher holds the state of one hard decision.
type searcher struct {
	e      *evaluator
	rules  engine.Rules
	me     engine.Color
	budget budget
	steps  []step
}

// expect returns me's chance after the colour to move in b plays each roll
// in turn, choosing its best reply by the evaluation.
func (s *searcher) expect(b *board) float64 {
	if b.winner != engine.NoColor {
		if b.winner == s.me {
			return 1
		}
		return 0
	}
	x := b.turn
	total := 0.0
	for roll := 1; roll <= maxRoll; roll++ {
		s.steps = b.steps(s.steps[:0], roll)
		if len(s.steps) == 0 {
			nb := *b
			nb.pass()
			total += s.e.chances(&nb)[s.me]
			continue
		}
		again := s.rules.SixAgain && roll == maxRoll
		bestX, bestMe := -1.0, 0.0
		steps := append([]step(nil), s.steps...)
		for _, st := range steps {
			m := engine.Move{From: st.from, To: st.to, Place: engine.NoSquare}
			if b.cells[st.to] == engine.Barricade {
				for _, q := range s.placements(b, st) {
					m.Place = q
					nb := *b
					nb.apply(m, again)
					ch := s.e.chances(&nb)
					if ch[x] > bestX {
						bestX, bestMe = ch[x], ch[s.me]
					}
				}
				continue
			}
			nb := *b
			nb.apply(m, again)
			ch := s.e.chances(&nb)
			if ch[x] > bestX {
				bestX, bestMe = ch[x], ch[s.me]
			}
		}
		total += bestMe
	}
	return total / maxRoll
}

// placements returns the squares tried for the barricade captured by st:
// squares on the shortest ways to the goal of the leading pawn of each
// opponent of the mover, nearest first, and the first free square in
// front of the goal when there is no such square.
func (s *searcher) placements(b *board, st step) []engine.Square {
	x := b.turn
	t := s.e.table(b.bars)
	var out []engine.Square
	var seen squareSet
	try := func(q engine.Square) {
		if len(out) < s.budget.replyPlacements && !seen.has(q) && b.placeable(q, st.from, st.to, s.rules) {
			seen.add(q)
			out = append(out, q)
		}
	}
	for c := engine.Red; c <= engine.Blue; c++ {
		if c == x || !b.inPlay[c] {
			continue
		}
		// The opponent's leading pawn: the smallest value.
		lead, leadVal := engine.NoSquare, t.home[c]
		own := engine.PawnOf(c)
		for q := engine.Square(0); q < engine.NumSquares; q++ {
			if b.cells[q] == own && t.sq[q] < leadVal {
				lead, leadVal = q, t.sq[q]
			}
		}
		if lead == engine.NoSquare {
			lead = engine.Entry(c)
			try(lead)
		}
		// Breadth-first along shortest ways to the goal.
		frontier := []engine.Square{lead}
		for depth := 0; depth < 4 && len(frontier) > 0; depth++ {
			var nextF []engine.Square
			for _, f := range frontier {
				for i := uint8(0); i < nbrCount[f]; i++ {
					q := nbrs[f][i]
					if stepDist[q] == stepDist[f]-1 {
						try(q)
						nextF = append(nextF, q)
					}
				}
			}
			frontier = nextF
		}
	}
	if len(out) == 0 {
		for _, name := range []string{"i13", "h13", "j13"} {
			q, _ := engine.ParseSquare(name)
			try(q)
		}
	}
	if len(out) == 0 {
		for q := engine.Square(0); q < engine.NumSquares && len(out) == 0; q++ {
			try(q)
		}
	}
	return out
}
