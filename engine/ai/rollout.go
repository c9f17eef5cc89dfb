package ai

import (
	"fmt"
	"math/rand/v2"

	"github.com/malefiz-discord/malefiz/engine"
)

// RolloutEstimator estimates win chances by Monte Carlo: it plays a
// position out to the end Rollouts times and counts the wins. Its Policy
// says who plays the rollouts: the fast policy (win when it can, else
// capture the pawn nearest the goal, else bring a pawn nearest the goal; a
// captured barricade goes just ahead of the opponents' pawn nearest the
// goal), the search's reply policy, or a level's players. It is the
// estimator that the learned one was measured against (see the package
// comment) and the truth of the held-out positions (HeldOutPositions); it
// is not used in play.
type RolloutEstimator struct {
	// Rollouts is how many games are played out per estimate.
	Rollouts int
	// Seed seeds the dice of the rollouts: rollout i of every policy
	// throws the same dice until the policies' moves part.
	Seed uint64
	// Policy plays the rollouts; the zero value is FastPolicy.
	Policy RolloutPolicy
}

// RolloutPolicy names who plays a RolloutEstimator's rollouts: FastPolicy,
// ReplyPolicy, or a Level's name for that level's players, one per seat.
type RolloutPolicy string

// The rollout policies that are not levels.
const (
	// FastPolicy is fastMove, a runner's policy: microseconds a move, but
	// blind to what a move costs in time (it walks a pawn off the square
	// before the goal rather than bring one out of the house, and places
	// barricades by a rule of thumb).
	FastPolicy RolloutPolicy = "fast"
	// ReplyPolicy is the move that hard's evaluation likes best for the
	// colour to move, a captured barricade tried on the squares hard's
	// search tries first (replyPlacements): what hard's search expects
	// every player to play, normal's choice with fewer placements weighed.
	ReplyPolicy RolloutPolicy = "reply"
)

// replyPlacements is how many squares the reply policy tries for a
// captured barricade: as many as hard's search tries two turns ahead.
const replyPlacements = 4

// ParseRolloutPolicy reads a rollout policy: fast, reply or a level's name.
func ParseRolloutPolicy(s string) (RolloutPolicy, error) {
	switch p := RolloutPolicy(s); p {
	case FastPolicy, ReplyPolicy:
		return p, nil
	}
	if _, err := ParseLevel(s); err != nil {
		return "", fmt.Errorf("rollout policy %q: not fast, reply or a level", s)
	}
	return RolloutPolicy(s), nil
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
	stream := pos.BarricadeSet()[0] ^ pos.BarricadeSet()[1]
	moves := make([]engine.Move, 0, 64)
	var (
		s       searcher
		players [engine.NumColors]Player
	)
	policy := r.Policy
	switch policy {
	case "", FastPolicy:
		policy = FastPolicy
	case ReplyPolicy:
		s = searcher{e: newEvaluator(defaultParams), rules: rules}
	}
	done := 0
	for i := range r.Rollouts {
		rng := rand.New(rand.NewPCG(splitmix(r.Seed, uint64(i)), stream))
		if policy != FastPolicy && policy != ReplyPolicy {
			for c := range players {
				p, err := New(Level(policy), splitmix(r.Seed, uint64(i*engine.NumColors+c)))
				if err != nil {
					return [engine.NumColors]float64{}
				}
				players[c] = p
			}
		}
		b := pos
		for t := 0; t < maxRolloutTurns && !b.Over(); t++ {
			roll := rng.IntN(maxRoll) + 1
			switch policy {
			case FastPolicy:
				moves = b.AppendPawnMoves(moves[:0], roll)
				if len(moves) == 0 {
					b.Pass()
					continue
				}
				b.Play(fastMove(&b, moves, rules, rng), roll, rules)
			case ReplyPolicy:
				if len(s.e.cache) > 4096 {
					s.e.cache = make(map[engine.SquareSet]*valueTable)
				}
				b, _ = s.reply(&b, roll, replyPlacements)
			default:
				moves = b.AppendMoves(moves[:0], roll, rules)
				if len(moves) == 0 {
					b.Pass()
					continue
				}
				b.Play(players[b.Turn()].Choose(b, roll, rules, moves), roll, rules)
			}
		}
		if w := b.Winner(); w != engine.NoColor {
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
