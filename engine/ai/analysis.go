package ai

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/malefiz-discord/malefiz/engine"
)

// Analysis is how the chances went in a game: each colour's chance to win
// before the first move and after each move, and the moves that changed the
// mover's chance most.
type Analysis struct {
	// Colors are the colours in play at the start.
	Colors []engine.Color
	// Points are the chances at the start (Points[0], turn 0) and after
	// each move or removal, in order.
	Points []ChancePoint
	// Turning are the turning points, the largest swing first.
	Turning []TurningPoint
}

// ChancePoint is each colour's chance to win at one moment of a game.
type ChancePoint struct {
	// Turn is the turn number of the move the chances follow (0 at the
	// start).
	Turn int
	// Chances are indexed by colour: 0 for colours out of play.
	Chances [engine.NumColors]float64
}

// TurningPoint is a move that changed its mover's chance to win a lot,
// with the change split in two: what the roll gave or took (Luck), and
// what the move made of the roll (Choice), as backgammon programs report
// them.
type TurningPoint struct {
	// Turn is the move's turn number; Color its mover; Move the move;
	// Roll the die it was played with.
	Turn  int
	Color engine.Color
	Move  engine.Move
	Roll  int
	// Best is the move the estimator rates best for the roll (Move when
	// the mover found it).
	Best engine.Move
	// Prior is the mover's chance before the roll; Before after the roll,
	// before the move: the chance the best move for the roll would give;
	// After the chance after the move.
	Prior, Before, After float64
	// Why says what the move did, the main reason of Explain.
	Why Reason
	// from is the position the move was played from.
	from engine.Position
}

// Swing is how much the mover's chance changed over the turn, roll and
// move together, in either direction.
func (t TurningPoint) Swing() float64 {
	return math.Abs(t.After - t.Prior)
}

// Luck is what the roll gave (positive) or took (negative): the chance
// after the roll, the best move for it played, less the chance before it.
func (t TurningPoint) Luck() float64 { return t.Before - t.Prior }

// Choice is what the move lost against the best move for the roll: 0 for
// the best move, negative otherwise.
func (t TurningPoint) Choice() float64 { return t.After - t.Before }

// SteadyChances returns each colour's chance to win from pos as the mean of
// two views of WinChances: the position as it stands, and the position once
// the colour to move has played its roll (the mean over the six rolls of
// the chances after the move a greedy player makes, or the pass). It takes
// the tempo out of the estimate. WinChances alone reads a position right
// after a move as the mover's lead, the next colour's turn being still to
// come (a first pawn out of the house is worth about 15 points there, until
// the others' come out too), and the position after the next roll as the
// next colour's: the two leanings cancel in the mean. Turning points and
// the card use it; it costs seven estimates, well under a millisecond.
func SteadyChances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	now, next := WinChances(pos, r), settle(WinChances, pos, r)
	if pos.Over() {
		return won(pos.Winner())
	}
	for c := range now {
		now[c] = (now[c] + next[c]) / 2
	}
	return now
}

// settle returns est's chances from pos once the colour to move has played
// its roll: the mean over the six rolls of the chances after a greedy
// player's move, or the pass.
func settle(est Estimator, pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	if pos.Over() {
		return won(pos.Winner())
	}
	var sum [engine.NumColors]float64
	chooser := &greedyPlayer{rng: rand.New(rand.NewPCG(1, 2))}
	var moves []engine.Move
	for roll := 1; roll <= maxRoll; roll++ {
		next := pos
		if moves = pos.AppendMoves(moves[:0], roll, r); len(moves) == 0 {
			next.Pass()
		} else {
			next.Play(chooser.Choose(pos, roll, r, moves), roll, r)
		}
		ch := est(next, r)
		if next.Over() {
			ch = won(next.Winner())
		}
		for c := range sum {
			sum[c] += ch[c] / maxRoll
		}
	}
	return sum
}

// won is the chances of a finished game that c won.
func won(c engine.Color) [engine.NumColors]float64 {
	var out [engine.NumColors]float64
	out[c] = 1
	return out
}

// Analyse estimates the chances along g's history with est (nil means
// SteadyChances) and picks the n moves that changed their mover's chance
// most over their turn. A turn of several moves (six-again) counts each
// move from the one before it. Each turning point splits its change into
// the roll's luck and the move's choice: the best move for the roll is
// found among every legal one by WinChances, its three best valued again
// by est.
func Analyse(g *engine.Game, est Estimator, n int) Analysis {
	if est == nil {
		est = SteadyChances
	}
	rules := g.Rules()
	start := g.StartPosition()
	a := Analysis{Colors: start.Players()}
	last := est(start, rules)
	a.Points = append(a.Points, ChancePoint{Chances: last})
	var turning []TurningPoint
	prev := start
	for r, pos := range g.Positions() {
		if r.Kind != engine.RecordMove && r.Kind != engine.RecordRemove {
			prev = pos
			continue
		}
		now := est(pos, rules)
		if pos.Over() {
			now = won(pos.Winner())
		}
		if r.Kind == engine.RecordMove {
			turning = append(turning, TurningPoint{Turn: r.Turn, Color: r.Color, Move: r.Move, Roll: r.Roll,
				Prior: last[r.Color], After: now[r.Color], from: prev})
		}
		a.Points = append(a.Points, ChancePoint{Turn: r.Turn, Chances: now})
		last, prev = now, pos
	}
	if g.Over() && len(a.Points) > 0 {
		// A forfeit ends the game without a move: the winner has it all.
		a.Points[len(a.Points)-1].Chances = won(g.Winner())
	}
	slices.SortStableFunc(turning, func(x, y TurningPoint) int { return cmp.Compare(y.Swing(), x.Swing()) })
	a.Turning = turning[:min(n, len(turning))]
	// The split and the reason, for the turning points only: finding the
	// best move of a roll values every legal move.
	e := newEvaluator(defaultParams)
	for i := range a.Turning {
		tp := &a.Turning[i]
		tp.Best, tp.Before = tp.Move, tp.After
		if tp.from.Turn() == tp.Color {
			tp.Best, tp.Before = bestFor(e, est, tp.from, tp.Roll, rules, tp.Move, tp.After)
			tp.Why = ReasonFor(tp.from, tp.Roll, rules, tp.Move)
		}
		tp.from = engine.Position{}
	}
	return a
}

// bestCandidates is how many moves, the best by WinChances, Analyse
// values again by its estimator to find the best move for a roll.
const bestCandidates = 3

// bestFor returns the best of pos's legal moves for roll by est, and the
// mover's chance after it: the bestCandidates best by WinChances (with
// evaluator e) and played, whose chance after it by est is playedChance.
func bestFor(e *evaluator, est Estimator, pos engine.Position, roll int, r engine.Rules, played engine.Move, playedChance float64) (engine.Move, float64) {
	me := pos.Turn()
	moves := pos.Moves(roll, r)
	type scored struct {
		m engine.Move
		v float64
	}
	ranked := make([]scored, 0, len(moves))
	for _, m := range moves {
		next := pos
		next.Play(m, roll, r)
		v := 1.0
		if !next.Over() {
			v = learned.chances(e, &next, r)[me]
		}
		ranked = append(ranked, scored{m, v})
		if len(e.cache) > 256 {
			e.cache = make(map[engine.SquareSet]*valueTable)
		}
	}
	slices.SortStableFunc(ranked, func(x, y scored) int { return cmp.Compare(y.v, x.v) })
	best, chance := played, playedChance
	for _, c := range ranked[:min(bestCandidates, len(ranked))] {
		if c.m == played {
			continue
		}
		next := pos
		next.Play(c.m, roll, r)
		v := 1.0
		if !next.Over() {
			v = est(next, r)[me]
		}
		if v > chance {
			best, chance = c.m, v
		}
	}
	return best, chance
}
