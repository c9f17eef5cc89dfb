package ai

import (
	"math"
	"slices"

	"github.com/malefiz-discord/malefiz/engine"
)

// Grading compares a player's move with the best move for the roll
// actually thrown, as backgammon programs do: every pawn move, each
// captured barricade on up to gradePlacements squares (the squares hard's
// search tries first, and the square played), is searched two turns ahead
// (every roll of the next two turns and the reply each player's
// evaluation likes best) with hard's evaluation, and the move's loss is
// how much less win chance it keeps than the best, in points (hundredths).
// The roll's luck is kept apart: what the best play of the roll thrown is
// worth against the mean over the six rolls of the best play of each
// (searched one turn ahead, for cost).

// gradePlacements is how many squares a captured barricade is tried on
// when a move is graded (the played square besides).
const gradePlacements = 6

// gradeBudget is the search a move is graded with: hard's, two turns deep
// for every candidate.
var gradeBudget = budget{depth: 2, replyPlacements: 6, deepPlacements: 4}

// luckPlacements is how many squares a captured barricade is tried on for
// each roll when the luck of a roll is measured.
const luckPlacements = 3

// Class says how bad a graded move was.
type Class int8

// The classes, from none to the worst.
const (
	// ClassNone: the move lost less than InaccuracyLoss (or the decision
	// was trivial).
	ClassNone Class = iota
	// ClassInaccuracy: the move lost at least InaccuracyLoss points.
	ClassInaccuracy
	// ClassMistake: at least MistakeLoss points.
	ClassMistake
	// ClassBlunder: at least BlunderLoss points.
	ClassBlunder
)

var classNames = [...]string{"none", "inaccuracy", "mistake", "blunder"}

// String returns the class's name: none, inaccuracy, mistake or blunder.
func (c Class) String() string {
	if c >= 0 && int(c) < len(classNames) {
		return classNames[c]
	}
	return "unknown"
}

// The losses, in points of win chance, from which a move is an
// inaccuracy, a mistake or a blunder, calibrated on 20 two-player games of
// each level against normal (TestGradeCalibration): hard loses 2 points
// on 0.7 % of its decisions and 5 on none, normal 2 on 5.4 %, 5 on 0.5 %
// and 10 on 0.1 %, easy 2, 5 and 10 on 33.4, 8.6 and 0.7 %, greedy on
// 43.4, 12.6 and 2.5 %. So a player who plays like hard sees about one
// inaccuracy a game and no mistake, normal's play about five
// inaccuracies and a mistake every other game, and a blunder is a move
// that the weakest levels make about once a game.
const (
	InaccuracyLoss = 2.0
	MistakeLoss    = 5.0
	BlunderLoss    = 10.0
)

// Classify returns the class of a move that lost loss points.
func Classify(loss float64) Class {
	switch {
	case loss >= BlunderLoss:
		return ClassBlunder
	case loss >= MistakeLoss:
		return ClassMistake
	case loss >= InaccuracyLoss:
		return ClassInaccuracy
	}
	return ClassNone
}

// accuracyScale is the loss, in points, that takes a move's accuracy to
// 1/e (37 %): see MoveAccuracy.
const accuracyScale = 4.0

// MoveAccuracy returns the accuracy of a move that lost loss points, from
// 0 to 100: 100·e^(−loss/4). The best move scores 100, a move losing one
// point 78, two points 61, five points 29, ten points 8. A player's
// accuracy in a game is the mean over their graded decisions (see
// Summarise): on the calibration's games hard scores 98.2, normal 91.5,
// easy 71.0 and greedy 64.6.
func MoveAccuracy(loss float64) float64 {
	return 100 * math.Exp(-max(loss, 0)/accuracyScale)
}

// Grade is the judgement of one roll of a game: the move played against the
// best one for the roll, and the roll's luck.
type Grade struct {
	// Index is the record's index in the game's history.
	Index int
	// Turn is the turn number; Color the player who rolled.
	Turn  int
	Color engine.Color
	// Roll is the die.
	Roll int
	// Move is the move played (with its placement); ai.NoMove when the
	// roll allowed none and the turn passed.
	Move engine.Move
	// Best is the best move for the roll by the search (Move when Move is
	// as good).
	Best engine.Move
	// Options is how many distinct positions the legal moves lead to; the
	// decision counts (Graded) only when there are more than one.
	Options int
	// Loss is how many points of win chance Move keeps less than Best,
	// 0 or more.
	Loss float64
	// Chance is the mover's win chance, in points, after Best by the
	// search.
	Chance float64
	// Luck is how many points the roll gave (positive) or took (negative)
	// against the average roll.
	Luck float64
}

// Graded reports whether the grade counts as a decision: the roll allowed
// moves leading to more than one position.
func (g Grade) Graded() bool { return g.Options > 1 }

// Class returns the class of the move's loss (ClassNone for a decision
// that did not count).
func (g Grade) Class() Class {
	if !g.Graded() {
		return ClassNone
	}
	return Classify(g.Loss)
}

// Roll is one roll of a game to grade: the position before it, and the
// move played with it (NoMove for a pass).
type Roll struct {
	// Index is the roll's move (or pass) record in the game's history.
	Index int
	// Turn is the turn number; Color the player who rolled.
	Turn  int
	Color engine.Color
	// Roll is the die.
	Roll int
	// Position is the position before the move, Color to move.
	Position engine.Position
	// Move is the move played, NoMove for a pass.
	Move engine.Move
}

// Rolls returns the rolls of g that a grader judges: every move and every
// pass, in the order of the history, with the position each started from.
func Rolls(g *engine.Game) []Roll {
	var out []Roll
	pos := g.StartPosition()
	i := -1
	for r, after := range g.Positions() {
		i++
		switch r.Kind {
		case engine.RecordMove:
			before := pos
			out = append(out, Roll{Index: i, Turn: r.Turn, Color: r.Color, Roll: r.Roll, Position: withTurn(before, r.Color), Move: r.Move})
		case engine.RecordPass:
			out = append(out, Roll{Index: i, Turn: r.Turn, Color: r.Color, Roll: r.Roll, Position: withTurn(pos, r.Color), Move: NoMove})
		}
		pos = after
	}
	return out
}

// withTurn returns pos with c to move. Positions hands the turn on as the
// game did, so c is normally to move already.
func withTurn(pos engine.Position, c engine.Color) engine.Position {
	for range engine.NumColors {
		if pos.Turn() == c {
			return pos
		}
		pos.Pass()
	}
	return pos
}

// Grader grades moves. It keeps the evaluation's tables between calls and
// is not safe for concurrent use; the zero value is not ready, use
// NewGrader.
type Grader struct {
	e     *evaluator
	moves []engine.Move
}

// NewGrader returns a grader.
func NewGrader() *Grader { return &Grader{e: newEvaluator(defaultParams)} }

// GradeGame grades every roll of g (see Rolls).
func (gr *Grader) GradeGame(g *engine.Game) []Grade {
	rolls := Rolls(g)
	out := make([]Grade, len(rolls))
	for i, r := range rolls {
		out[i] = gr.Grade(r, g.Rules())
	}
	return out
}

// Grade grades one roll under rules.
func (gr *Grader) Grade(r Roll, rules engine.Rules) Grade {
	if len(gr.e.cache) > 4096 {
		gr.e.cache = make(map[engine.SquareSet]*valueTable)
	}
	g := Grade{Index: r.Index, Turn: r.Turn, Color: r.Color, Roll: r.Roll, Move: r.Move, Best: r.Move}
	pos := r.Position
	me := pos.Turn()
	s := searcher{e: gr.e, rules: rules, me: me, budget: gradeBudget}

	var luck [maxRoll + 1]float64
	for roll := 1; roll <= maxRoll; roll++ {
		luck[roll] = gr.bestOneTurn(&s, pos, roll, rules)
	}
	mean := 0.0
	for roll := 1; roll <= maxRoll; roll++ {
		mean += luck[roll] / maxRoll
	}
	g.Luck = 100 * (luck[r.Roll] - mean)

	if r.Move.From == engine.NoSquare && r.Move.To == engine.NoSquare {
		g.Best = NoMove
		g.Chance = 100 * luck[r.Roll]
		return g
	}
	moves := pos.AppendMoves(gr.moves[:0], r.Roll, rules)
	gr.moves = moves
	g.Options = outcomes(pos, r.Roll, rules, moves)
	if g.Options <= 1 {
		after := pos
		after.Play(r.Move, r.Roll, rules)
		g.Chance = 100 * s.expect(&after, gradeBudget.depth)
		return g
	}
	cands := gr.candidates(&s, pos, r.Roll, rules, moves, gradePlacements, r.Move)
	played, best := -1.0, -1.0
	for _, m := range cands {
		after := pos
		after.Play(m, r.Roll, rules)
		v := s.expect(&after, gradeBudget.depth)
		if m == r.Move {
			played = v
		}
		if v > best+1e-12 || (v >= best-1e-12 && m == r.Move) {
			best, g.Best = v, m
		}
	}
	if played < 0 { // not a candidate: cannot happen, but never a false loss
		after := pos
		after.Play(r.Move, r.Roll, rules)
		played = s.expect(&after, gradeBudget.depth)
		if played > best {
			best, g.Best = played, r.Move
		}
	}
	g.Chance = 100 * best
	g.Loss = max(0, 100*(best-played))
	return g
}

// bestOneTurn returns the mover's chance after the best move for roll by a
// search one turn ahead (the pass's when there is no move).
func (gr *Grader) bestOneTurn(s *searcher, pos engine.Position, roll int, rules engine.Rules) float64 {
	moves := pos.AppendMoves(gr.moves[:0], roll, rules)
	gr.moves = moves
	if len(moves) == 0 {
		after := pos
		after.Pass()
		return s.expect(&after, 1)
	}
	best := 0.0
	for _, m := range gr.candidates(s, pos, roll, rules, moves, luckPlacements, NoMove) {
		after := pos
		after.Play(m, roll, rules)
		best = max(best, s.expect(&after, 1))
	}
	return best
}

// candidates returns the moves to search: every pawn move, a captured
// barricade on up to limit squares (the first of hard's placement order
// that are legal) and on played's square when played is that pawn move.
func (gr *Grader) candidates(s *searcher, pos engine.Position, roll int, rules engine.Rules, moves []engine.Move, limit int, played engine.Move) []engine.Move {
	var (
		out    []engine.Move
		order  []engine.Square
		places []engine.Square
	)
	for _, grp := range groupMoves(moves) {
		if grp.to == engine.Goal {
			// Nothing beats the goal: only the played move is searched
			// beside it.
			if played.To == engine.Goal || played.To == engine.NoSquare {
				return []engine.Move{grp.moves[0]}
			}
			return []engine.Move{grp.moves[0], played}
		}
		if len(grp.moves) == 1 && grp.moves[0].Place == engine.NoSquare {
			out = append(out, grp.moves[0])
			continue
		}
		if order == nil {
			order = s.placementOrder(&pos)
		}
		var allowed engine.SquareSet
		for _, m := range grp.moves {
			allowed.Add(m.Place)
		}
		places = pickPlacements(order, allowed, limit, places[:0])
		m := grp.moves[0]
		for _, q := range places {
			m.Place = q
			out = append(out, m)
		}
		if played.From == grp.from && played.To == grp.to && !slices.Contains(places, played.Place) {
			out = append(out, played)
		}
	}
	return out
}

// outcomes returns how many distinct positions moves lead to from pos
// with roll.
func outcomes(pos engine.Position, roll int, rules engine.Rules, moves []engine.Move) int {
	seen := make(map[engine.Position]struct{}, len(moves))
	for _, m := range moves {
		after := pos
		after.Play(m, roll, rules)
		seen[after] = struct{}{}
	}
	return len(seen)
}

// Summary is one player's grading over a game.
type Summary struct {
	// Color is the player's colour.
	Color engine.Color
	// Decisions is how many of their moves counted (Grade.Graded).
	Decisions int
	// Accuracy is the mean MoveAccuracy of those decisions, 0 to 100
	// (100 when there were none).
	Accuracy float64
	// Loss is the mean loss per decision, in points.
	Loss float64
	// Inaccuracies, Mistakes and Blunders count the decisions of each
	// class.
	Inaccuracies, Mistakes, Blunders int
	// Luck is the sum of the luck of every roll of theirs, in points.
	Luck float64
}

// Summarise returns the summary of c's grades among grades.
func Summarise(grades []Grade, c engine.Color) Summary {
	s := Summary{Color: c}
	acc := 0.0
	for _, g := range grades {
		if g.Color != c {
			continue
		}
		s.Luck += g.Luck
		if !g.Graded() {
			continue
		}
		s.Decisions++
		acc += MoveAccuracy(g.Loss)
		s.Loss += g.Loss
		switch g.Class() {
		case ClassInaccuracy:
			s.Inaccuracies++
		case ClassMistake:
			s.Mistakes++
		case ClassBlunder:
			s.Blunders++
		}
	}
	s.Accuracy = 100
	if s.Decisions > 0 {
		s.Accuracy = acc / float64(s.Decisions)
		s.Loss /= float64(s.Decisions)
	}
	return s
}

// Worst returns up to n of c's graded moves that lost at least
// InaccuracyLoss, the biggest loss first (earlier turns first among equal
// losses).
func Worst(grades []Grade, c engine.Color, n int) []Grade {
	var out []Grade
	for _, g := range grades {
		if g.Color == c && g.Graded() && g.Loss >= InaccuracyLoss {
			out = append(out, g)
		}
	}
	slices.SortStableFunc(out, func(a, b Grade) int { return cmpFloat(b.Loss, a.Loss) })
	return out[:min(n, len(out))]
}
