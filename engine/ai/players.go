package ai

import (
	"math/rand/v2"

	"github.com/malefiz-discord/malefiz/engine"
)

// group is the moves that take the same pawn to the same square, which
// differ only in where a captured barricade goes.
type group struct {
	from, to engine.Square
	moves    []engine.Move
}

// groupMoves splits moves into groups, in the order of their first move.
func groupMoves(moves []engine.Move) []group {
	var gs []group
outer:
	for _, m := range moves {
		for i := range gs {
			if gs[i].from == m.From && gs[i].to == m.To {
				gs[i].moves = append(gs[i].moves, m)
				continue outer
			}
		}
		gs = append(gs, group{from: m.From, to: m.To, moves: []engine.Move{m}})
	}
	return gs
}

// pick returns a random move of g: a random placement of its barricade.
func (g *group) pick(rng *rand.Rand) engine.Move { return g.moves[rng.IntN(len(g.moves))] }

// greedyPlayer is the baseline of other Malefiz programs: win when it can,
// capture a pawn when it can, otherwise bring a pawn closest to the goal
// (shortest path, barricades ignored); a captured barricade goes on a
// random legal square. Ties are broken at random.
type greedyPlayer struct {
	rng *rand.Rand
}

// Choose implements Player.
func (p *greedyPlayer) Choose(pos engine.Position, roll int, rules engine.Rules, moves []engine.Move) engine.Move {
	if m, ok := forced(moves); ok {
		return m
	}
	gs := groupMoves(moves)
	me := pos.Turn()
	captures := func(g *group) bool {
		t := pos.At(g.to)
		return t.IsPawn() && t.Color() != me
	}
	var candidates []int
	bestKey := 1 << 30
	for i := range gs {
		key := engine.DistanceToGoal(gs[i].to)
		if gs[i].to != engine.Goal && captures(&gs[i]) {
			key -= 1000 // a capture comes first, then the closest one
		}
		if gs[i].to == engine.Goal {
			key = -1 << 20
		}
		switch {
		case key < bestKey:
			bestKey, candidates = key, append(candidates[:0], i)
		case key == bestKey:
			candidates = append(candidates, i)
		}
	}
	g := &gs[candidates[p.rng.IntN(len(candidates))]]
	return g.pick(p.rng)
}

// easyPlayer plays a random move half of the time and otherwise the move
// that brings a pawn closest to the goal, with captured barricades on a
// random square: it never looks at the other pawns.
type easyPlayer struct {
	rng *rand.Rand
}

// Choose implements Player.
func (p *easyPlayer) Choose(pos engine.Position, roll int, rules engine.Rules, moves []engine.Move) engine.Move {
	if m, ok := forced(moves); ok {
		return m
	}
	gs := groupMoves(moves)
	for i := range gs {
		if gs[i].to == engine.Goal {
			return gs[i].pick(p.rng)
		}
	}
	if p.rng.IntN(2) == 0 {
		return gs[p.rng.IntN(len(gs))].pick(p.rng)
	}
	best := 0
	for i := range gs {
		if engine.DistanceToGoal(gs[i].to) < engine.DistanceToGoal(gs[best].to) {
			best = i
		}
	}
	return gs[best].pick(p.rng)
}

// normalPlayer plays the move, placement included, after which the
// evaluation gives it the best chance to win.
type normalPlayer struct {
	rng *rand.Rand
	p   params
}

// Choose implements Player.
func (p *normalPlayer) Choose(pos engine.Position, roll int, rules engine.Rules, moves []engine.Move) engine.Move {
	if m, ok := forced(moves); ok {
		return m
	}
	e := newEvaluator(p.p)
	return moves[pickBest(p.rng, len(moves), func(i int) float64 { return e.chanceAfter(pos, moves[i], roll, rules) })]
}

// pickBest returns one of the indexes 0 to n-1 whose value is the highest,
// ties (within 1e-12) broken at random by rng. value is called once per
// index, in order.
func pickBest(rng *rand.Rand, n int, value func(i int) float64) int {
	best, bestVal := []int(nil), -1.0
	for i := range n {
		switch v := value(i); {
		case v > bestVal+1e-12:
			bestVal, best = v, append(best[:0], i)
		case v >= bestVal-1e-12:
			best = append(best, i)
		}
	}
	return best[rng.IntN(len(best))]
}
