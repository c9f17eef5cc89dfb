package ai

import (
	"math/rand/v2"

	"github.com/malefiz-discord/malefiz/engine"
)

// RolloutEstimator estimates win chances by Monte Carlo: it plays a
// position out to the end Rollouts times with a fast policy (win when it
// can, else capture the pawn nearest the goal, else bring a pawn nearest
// the goal; a captured barricade goes just ahead of the opponents' pawn
// nearest the goal) and counts the wins. It is the estimator
// that the learned one was measured against (see the package comment);
// it is not used in play.
type RolloutEstimator struct {
	// Rollouts is how many games are played out per estimate.
	Rollouts int
	// Seed seeds the dice of the rollouts.
	Seed uint64
}

// maxRolloutTurns ends a rollout that found no winner (it then counts for
// nobody).
const maxRolloutTurns = 3000

// Chances implements Estimator.
func (r RolloutEstimator) Chances(pos engine.Position, rules engine.Rules) [engine.NumColors]float64 {
	var out [engine.NumColors]float64
	if w := pos.Winner(); w != engine.NoColor {
		out[w] = 1
		return out
	}
	rng := rand.New(rand.NewPCG(r.Seed, pos.BarricadeSet()[0]^pos.BarricadeSet()[1]))
	moves := make([]engine.Move, 0, 64)
	done := 0
	for range r.Rollouts {
		if w := playFast(pos, rules, rng, rng, &moves); w != engine.NoColor {
			out[w]++
			done++
		}
	}
	if done > 0 {
		for c := range out {
			out[c] /= float64(done)
		}
	}
	return out
}

// playFast plays b out to the end with the rollouts' policy (fastMove),
// the rolls from dice and the policy's ties broken by ties, and returns
// the winner: NoColor when there is none after maxRolloutTurns. moves is
// scratch space.
func playFast(b engine.Position, rules engine.Rules, dice, ties *rand.Rand, moves *[]engine.Move) engine.Color {
	for t := 0; t < maxRolloutTurns && !b.Over(); t++ {
		roll := dice.IntN(maxRoll) + 1
		*moves = b.AppendPawnMoves((*moves)[:0], roll)
		if len(*moves) == 0 {
			b.Pass()
			continue
		}
		b.Play(fastMove(&b, *moves, rules, ties), roll, rules)
	}
	return b.Winner()
}

// fastMove is the rollouts' policy: a move of moves (AppendPawnMoves'
// results, placements open) for the colour to move in b.
func fastMove(b *engine.Position, moves []engine.Move, rules engine.Rules, rng *rand.Rand) engine.Move {
	me := b.Turn()
	best, bestKey := moves[0], 1<<30
	for _, m := range moves {
		if m.To == engine.Goal {
			return m
		}
		key := engine.DistanceToGoal(m.To) * 8
		if t := b.At(m.To); t.IsPawn() && t.Color() != me {
			key -= 1000 - engine.DistanceToGoal(m.To) // the victim nearest the goal first
		}
		key += rng.IntN(8) // ties at random
		if key < bestKey {
			best, bestKey = m, key
		}
	}
	if b.BarricadeSet().Has(best.To) {
		allowed := b.PlacementSet(best.From, best.To, rules)
		// The free square just ahead of the opponents' pawn nearest the
		// goal: the largest distance to the goal below that pawn's.
		opp := 1 << 30
		cells := b.Board()
		for q := engine.Square(0); q < engine.NumSquares; q++ {
			if t := cells[q]; t.IsPawn() && t.Color() != me {
				opp = min(opp, engine.DistanceToGoal(q))
			}
		}
		place, dist := engine.NoSquare, -1
		allowed.Each(func(q engine.Square) {
			if d := engine.DistanceToGoal(q); d < opp && d > dist {
				place, dist = q, d
			}
		})
		if place == engine.NoSquare {
			allowed.Each(func(q engine.Square) {
				if place == engine.NoSquare {
					place = q
				}
			})
		}
		best.Place = place
	}
	return best
}

// rolloutsCompared is the number of rollouts per estimate at which the
// Monte Carlo estimator was compared with the learned one: what fits in
// the 15 ms budget at the 95th percentile (BenchmarkRolloutChances).
const rolloutsCompared = 40
