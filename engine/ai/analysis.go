package ai

import (
	"cmp"
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

// TurningPoint is a move that changed its mover's chance to win a lot.
type TurningPoint struct {
	// Turn is the move's turn number; Color its mover; Move the move.
	Turn  int
	Color engine.Color
	Move  engine.Move
	// Before and After are the mover's chance before the turn (before
	// the roll, so the die's luck counts) and after the move.
	Before, After float64
}

// Swing is how much the mover's chance changed, in either direction.
func (t TurningPoint) Swing() float64 {
	d := t.After - t.Before
	if d < 0 {
		return -d
	}
	return d
}

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
// most. The chances of a turn are those before its roll: a turn of several
// moves (six-again) counts from the start of the first.
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
	for r, pos := range g.Positions() {
		if r.Kind != engine.RecordMove && r.Kind != engine.RecordRemove {
			continue
		}
		now := est(pos, rules)
		if pos.Over() {
			now = won(pos.Winner())
		}
		if r.Kind == engine.RecordMove {
			turning = append(turning, TurningPoint{Turn: r.Turn, Color: r.Color, Move: r.Move,
				Before: last[r.Color], After: now[r.Color]})
		}
		a.Points = append(a.Points, ChancePoint{Turn: r.Turn, Chances: now})
		last = now
	}
	if g.Over() && len(a.Points) > 0 {
		// A forfeit ends the game without a move: the winner has it all.
		a.Points[len(a.Points)-1].Chances = won(g.Winner())
	}
	slices.SortStableFunc(turning, func(x, y TurningPoint) int { return cmp.Compare(y.Swing(), x.Swing()) })
	a.Turning = turning[:min(n, len(turning))]
	return a
}
