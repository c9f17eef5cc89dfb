package ai

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/malefiz-discord/malefiz/engine"
)

// Grading compares a player's move with the best move for the roll
// actually thrown, as backgammon programs do, with the strongest level's
// evaluation and search (master's, see strongest): every pawn move, and a
// captured barricade on every legal square, is weighed. A cheap pass
// prunes what is not worth a search: the squares for a barricade are
// ranked by the evaluation right after the move, and those more than
// placementMargin below the group's best are dropped (at most
// placementKeep stay); every move left is searched one turn ahead, and
// those within deepMargin of the best two turns ahead (every roll of the
// next two turns and the reply each player's evaluation likes best). The
// move's loss is how much less win chance it keeps than the best, in
// points (hundredths). On the benchmark's 353 sampled decisions the pruned
// search's best move was the full search's (every move, every square, two
// turns ahead) in 94.6 % of them, and 0.50 points short of it on average
// where it was not, 1.43 at most (TestGradePruning).
//
// A loss of MistakeLoss or more is then measured again by rollouts
// (confirmRollouts games from each of the two moves, played out to the
// end by the rollouts' fast policy with the same dice), which look past
// the search's two turns, where a barricade in front of a leader or a
// pawn left in reach does its harm: the rollouts' figure stands, so that
// a mistake or a blunder is called only when the rollouts find it too.
// The roll's luck is kept apart: what the best play of the roll thrown is
// worth against the mean over the six rolls of the best play of each
// (searched one turn ahead, for cost).
//
// The same search is the coach's advice while a game runs: the hint
// (Grader.Best) is the move it finds best, and the squares suggested for
// a captured barricade (Grader.Placements) are ranked by it, so that the
// hint, the suggestions and the review never disagree.

// strongest is the level whose evaluation and search the coach uses.
const strongest = Master

// placementMargin is how far, in win chance (0 to 1), a square for a
// captured barricade may fall below the best square of its move by the
// evaluation right after the move and still be searched.
const placementMargin = 0.05

// placementKeep is how many squares of one capture are searched at most,
// the best by the evaluation right after the move.
const placementKeep = 8

// deepMargin is how far, in win chance, a move searched one turn ahead
// may fall below the best and still be searched two turns ahead.
const deepMargin = 0.08

// luckPlacements is how many squares a captured barricade is tried on
// for each roll when the luck of a roll is measured: the best by the
// evaluation right after the move.
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
// inaccuracy, a mistake or a blunder, as the loss is written (Points). On
// 20 two-player games of each level against normal (TestGradeCalibration)
// master's moves read 2 points or more on 1.1 % of its decisions and 5 on
// 0.1 %, hard's on 3.4 and 0.4 %, normal's on 7.1, 0.7 and (10 points)
// 0.2 %, easy's on 37.7, 5.3 and 1.0 %, greedy's on 46.2, 8.0 and 2.0 %.
// So a player who plays like master sees about one inaccuracy a game,
// normal's play about six and a mistake every other game, and a blunder
// is a move that the weakest levels make about once a game or two.
const (
	InaccuracyLoss = 2.0
	MistakeLoss    = 5.0
	BlunderLoss    = 10.0
)

// Points returns a loss as the coach writes it: in whole points, rounded
// to the nearest.
func Points(loss float64) int { return int(math.Round(loss)) }

// Classify returns the class of a move that lost loss points, as the loss
// is written (Points): a loss of 4.6 points reads "5 points" and is a
// mistake, one of 4.4 reads "4 points" and is an inaccuracy.
func Classify(loss float64) Class {
	switch p := float64(Points(loss)); {
	case p >= BlunderLoss:
		return ClassBlunder
	case p >= MistakeLoss:
		return ClassMistake
	case p >= InaccuracyLoss:
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
// Summarise): on the calibration's games master scores 98.1, hard 95.6,
// normal 91.8, easy 73.9 and greedy 69.7.
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

// Grader is the coach: it grades moves, and its search is also the
// advice given while a game runs (Best, Placements). It uses the
// strongest level's evaluation and keeps the evaluation's tables between
// calls; it is not safe for concurrent use. The zero value is not ready,
// use NewGrader.
type Grader struct {
	e      *evaluator
	budget budget
	moves  []engine.Move
	opts   []option
	// work is the evaluator's work of the last call, a measure of its
	// cost that does not depend on the machine (BenchmarkGrade).
	work int
}

// NewGrader returns a grader with the strongest level's evaluation.
func NewGrader() *Grader {
	p, err := New(strongest, 0)
	if err != nil {
		panic(err)
	}
	hp := p.(*hardPlayer)
	return &Grader{e: hp.coachEvaluator(engine.Rules{}),
		budget: budget{depth: 2, replyPlacements: hp.budget.replyPlacements, deepPlacements: hp.budget.deepPlacements}}
}

// searcher starts the search of a position whose colour to move is me,
// under rules.
func (gr *Grader) searcher(me engine.Color, rules engine.Rules) searcher {
	if len(gr.e.cache) > 4096 {
		gr.e.cache = make(map[engine.SquareSet]*valueTable)
	}
	gr.e.rules = rules
	return searcher{e: gr.e, rules: rules, me: me, budget: gr.budget}
}

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
	start := gr.e.work
	defer func() { gr.work = gr.e.work - start }()
	g := gr.judge(r, rules)
	pos := r.Position
	s := gr.searcher(pos.Turn(), rules)
	var luck [maxRoll + 1]float64
	for roll := 1; roll <= maxRoll; roll++ {
		luck[roll] = gr.bestOneTurn(&s, pos, roll, rules)
	}
	mean := 0.0
	for roll := 1; roll <= maxRoll; roll++ {
		mean += luck[roll] / maxRoll
	}
	g.Luck = 100 * (luck[r.Roll] - mean)
	if g.Move == NoMove {
		g.Chance = 100 * luck[r.Roll]
	}
	return g
}

// judge grades the move of r under rules, its luck aside: the best move,
// the options, the chance after the best move (not for a pass) and the
// loss.
func (gr *Grader) judge(r Roll, rules engine.Rules) Grade {
	g := Grade{Index: r.Index, Turn: r.Turn, Color: r.Color, Roll: r.Roll, Move: r.Move, Best: r.Move}
	if r.Move.From == engine.NoSquare && r.Move.To == engine.NoSquare {
		g.Move, g.Best = NoMove, NoMove
		return g
	}
	pos := r.Position
	s := gr.searcher(pos.Turn(), rules)
	moves := pos.AppendMoves(gr.moves[:0], r.Roll, rules)
	gr.moves = moves
	g.Options = outcomes(pos, r.Roll, rules, moves)
	if g.Options <= 1 {
		after := pos
		after.Play(r.Move, r.Roll, rules)
		g.Chance = 100 * s.expect(&after, s.budget.depth)
		return g
	}
	opts, best, played := gr.search(&s, pos, r.Roll, rules, moves, r.Move, NoMove)
	g.Best = opts[best].move
	g.Chance = 100 * opts[best].value
	g.Loss = max(0, 100*(opts[best].value-opts[played].value))
	if g.Loss >= MistakeLoss {
		// A mistake is called only when the rollouts find it too: their
		// figure stands.
		g.Loss = max(0, 100*rolloutLoss(pos, r.Roll, rules, g.Best, r.Move))
	}
	return g
}

// Best returns the move the coach advises for pos's colour to move with
// roll under rules: the best of the moves by the grading's search, the
// move a Grade of any other move names as Best. It returns NoMove when
// the roll allows none.
func (gr *Grader) Best(pos engine.Position, roll int, rules engine.Rules) engine.Move {
	start := gr.e.work
	defer func() { gr.work = gr.e.work - start }()
	moves := pos.AppendMoves(gr.moves[:0], roll, rules)
	gr.moves = moves
	if m, ok := forced(moves); ok {
		return m
	}
	s := gr.searcher(pos.Turn(), rules)
	opts, best, _ := gr.search(&s, pos, roll, rules, moves, NoMove, NoMove)
	return opts[best].move
}

// Placements returns up to n squares of legal for the barricade that
// pending captures, best first, each with its reason: the coach's advice
// on where it goes. pos is the position before the move (a game's
// position while it waits for the placement), roll the roll and legal the
// allowed squares (engine.Game.PlacementSquares). The squares are ranked
// by the grading's search (see search, focused on pending), those it
// searches deepest first, the others by the evaluation right after the
// move: so when the coach's best move for the roll (Best) is pending with
// a square, that square comes first. No two suggestions share a reason
// (kind, colour and size): of squares that would read the same, only the
// best is suggested. A square on the placer's own way forward (where the
// barricade costs its own pawns time) is suggested only when no other
// square is, or when it is the first.
func (gr *Grader) Placements(pos engine.Position, r engine.Rules, roll int, pending engine.Move, legal []engine.Square, n int) []Placement {
	start := gr.e.work
	defer func() { gr.work = gr.e.work - start }()
	me := pos.Turn()
	s := gr.searcher(me, r)
	moves := pos.AppendMoves(gr.moves[:0], roll, r)
	gr.moves = moves
	type ranked struct {
		depth int
		value float64
	}
	rank := map[engine.Square]ranked{}
	if len(moves) > 1 {
		opts, _, _ := gr.search(&s, pos, roll, r, moves, NoMove, pending)
		for _, o := range opts {
			if o.move.From == pending.From && o.move.To == pending.To {
				rank[o.move.Place] = ranked{o.depth, o.value}
			}
		}
	}
	e := gr.e
	lifted := pos
	m := pending
	m.Place = engine.NoSquare
	lifted.Play(m, roll, r)
	chLifted := e.chances(&lifted)
	tsLifted, _, _ := e.terms(&lifted)
	all := make([]Placement, 0, len(legal))
	keys := make(map[engine.Square]ranked, len(legal))
	for _, q := range legal {
		after := pos
		m.Place = q
		after.Play(m, roll, r)
		ch := e.chances(&after)
		ts, _, _ := e.terms(&after)
		p := Placement{Square: q, Kind: PlaceAside, Color: engine.NoColor, Chance: ch[me]}
		loss := blockLoss
		for _, c := range after.Players() {
			if c != me && chLifted[c]-ch[c] > loss {
				p.Kind, p.Color, loss = PlaceBlocks, c, chLifted[c]-ch[c]
			}
		}
		if p.Color != engine.NoColor {
			p.Steps = nearestBehind(&after, p.Color, q)
			p.Turns = tenths(ts[p.Color].base - tsLifted[p.Color].base)
			if p.Turns <= 0 {
				// Too small to show: the barricade is in nobody's way.
				p.Kind, p.Color, p.Steps, p.Turns = PlaceAside, engine.NoColor, 0, 0
			}
		}
		if own := ts[me].base - tsLifted[me].base; own > ownWayCost {
			p.Kind, p.Turns = PlaceOwnWay, max(tenths(own), 0.1)
		}
		k, ok := rank[q]
		if !ok {
			k = ranked{0, ch[me]}
		}
		p.Chance = k.value
		keys[q] = k
		all = append(all, p)
	}
	slices.SortStableFunc(all, func(a, b Placement) int {
		ka, kb := keys[a.Square], keys[b.Square]
		if ka.depth != kb.depth {
			return kb.depth - ka.depth
		}
		return cmpFloat(kb.value, ka.value)
	})
	type reason struct {
		kind  PlacementKind
		color engine.Color
		turns float64
	}
	seen := map[reason]bool{}
	out := make([]Placement, 0, n)
	for _, own := range []bool{false, true} {
		if own && len(out) > 0 {
			break
		}
		for i, p := range all {
			k := reason{p.Kind, p.Color, p.Turns}
			if len(out) == n || (p.Kind == PlaceOwnWay) != own && i > 0 || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// option is a move the grading's search weighs.
type option struct {
	move engine.Move
	// static is the mover's chance right after the move by the evaluation.
	static float64
	// value is the mover's chance by the search, depth turns ahead.
	value float64
	depth int
	// extra: the move is weighed only because it was played (the cheap
	// pass left it out).
	extra bool
}

// search weighs moves, pos's legal moves for roll, as the grading does
// (see the comment at the top): every pawn move, each capture's squares
// pruned by the evaluation right after the move, all of them one turn
// ahead and those near the best two turns ahead. played, unless it is
// NoMove, is weighed two turns ahead whatever its rank, and nothing else
// depends on it: the moves weighed and their values are the same with or
// without it. focus, unless it is NoMove, limits the search two turns
// ahead to the moves of focus's pawn move (From and To): the best of those
// is then the best of all whenever the best of all is one of them. It
// returns the moves weighed, the index of the best (played when no other
// is better) and of played (-1 for NoMove). The slice is the grader's,
// valid until its next call.
func (gr *Grader) search(s *searcher, pos engine.Position, roll int, rules engine.Rules, moves []engine.Move, played, focus engine.Move) (opts []option, best, playedAt int) {
	opts = gr.options(s, pos, roll, rules, moves, played, placementKeep, gr.opts[:0])
	gr.opts = opts
	playedAt = slices.IndexFunc(opts, func(o option) bool { return o.move == played })
	if opts[0].depth > 0 {
		// The goal: nothing beats it.
		best = 0
		if playedAt >= 0 && opts[playedAt].value >= opts[0].value {
			best = playedAt
		}
		return opts, best, playedAt
	}
	top := math.Inf(-1)
	for i := range opts {
		after := pos
		after.Play(opts[i].move, roll, rules)
		opts[i].value, opts[i].depth = s.expect(&after, 1), 1
		if !opts[i].extra {
			top = max(top, opts[i].value)
		}
	}
	best = -1
	for i := range opts {
		if i != playedAt && (opts[i].value < top-deepMargin ||
			focus != NoMove && (opts[i].move.From != focus.From || opts[i].move.To != focus.To)) {
			continue
		}
		after := pos
		after.Play(opts[i].move, roll, rules)
		opts[i].value, opts[i].depth = s.expect(&after, s.budget.depth), s.budget.depth
		if best < 0 || opts[i].value > opts[best].value+1e-12 || (i == playedAt && opts[i].value >= opts[best].value-1e-12) {
			best = i
		}
	}
	return opts, best, playedAt
}

// options appends to dst the moves the grading's search weighs, in the
// order of moves' groups, each with its chance right after the move:
// every pawn move, and for a capture the squares whose chance is within
// placementMargin of the best square's, at most keep of them, the best
// first. played, when it is a capture on a square left out, is appended
// after its group's squares, marked extra. A move onto the goal is
// returned alone (with played, if it is another move), its value 1 and
// depth set.
func (gr *Grader) options(s *searcher, pos engine.Position, roll int, rules engine.Rules, moves []engine.Move, played engine.Move, keep int, dst []option) []option {
	e := s.e
	for _, grp := range groupMoves(moves) {
		if grp.to == engine.Goal {
			out := append(dst[:0], option{move: grp.moves[0], static: 1, value: 1, depth: s.budget.depth})
			if played != NoMove && played != grp.moves[0] {
				after := pos
				after.Play(played, roll, rules)
				out = append(out, option{move: played, static: e.chanceAfter(pos, played, roll, rules),
					value: s.expect(&after, s.budget.depth), depth: s.budget.depth, extra: true})
			}
			return out
		}
	}
	for _, grp := range groupMoves(moves) {
		start := len(dst)
		for _, m := range grp.moves {
			dst = append(dst, option{move: m, static: e.chanceAfter(pos, m, roll, rules)})
		}
		if len(grp.moves) == 1 {
			continue
		}
		group := dst[start:]
		slices.SortStableFunc(group, func(a, b option) int { return cmpFloat(b.static, a.static) })
		n := 1
		for n < len(group) && n < keep && group[n].static >= group[0].static-placementMargin {
			n++
		}
		if at := slices.IndexFunc(group, func(o option) bool { return o.move == played }); at >= n {
			group[n], group[at] = group[at], group[n]
			group[n].extra = true
			n++
		}
		dst = dst[:start+n]
	}
	return dst
}

// bestOneTurn returns the mover's chance after the best move for roll by a
// search one turn ahead (the pass's when there is no move), a capture's
// squares pruned to the luckPlacements best right after the move.
func (gr *Grader) bestOneTurn(s *searcher, pos engine.Position, roll int, rules engine.Rules) float64 {
	moves := pos.AppendMoves(gr.moves[:0], roll, rules)
	gr.moves = moves
	if len(moves) == 0 {
		after := pos
		after.Pass()
		return s.expect(&after, 1)
	}
	best := 0.0
	opts := gr.options(s, pos, roll, rules, moves, NoMove, luckPlacements, gr.opts[:0])
	gr.opts = opts
	for _, o := range opts {
		if o.move.To == engine.Goal {
			return 1
		}
		after := pos
		after.Play(o.move, roll, rules)
		best = max(best, s.expect(&after, 1))
	}
	return best
}

// confirmRollouts is how many games a loss of MistakeLoss or more is
// rolled out with, from each of the two moves.
const confirmRollouts = 600

// rolloutLoss returns how much less win chance (0 to 1) played keeps than
// best from pos with roll, by rollouts: confirmRollouts games from each
// move played out to the end with the rollouts' policy (see
// RolloutEstimator), game i of the one move with the same dice and the
// same choices among equals as game i of the other.
func rolloutLoss(pos engine.Position, roll int, rules engine.Rules, best, played engine.Move) float64 {
	me := pos.Turn()
	a, b := pos, pos
	a.Play(best, roll, rules)
	b.Play(played, roll, rules)
	moves := make([]engine.Move, 0, 64)
	wins := func(p engine.Position, i int) float64 {
		dice := rand.New(rand.NewPCG(0x726f6c6c, uint64(i))) // "roll"
		ties := rand.New(rand.NewPCG(0x74696573, uint64(i))) // "ties"
		switch playFast(p, rules, dice, ties, &moves) {
		case me:
			return 1
		case engine.NoColor:
			return 0.5
		}
		return 0
	}
	sum := 0.0
	for i := range confirmRollouts {
		sum += wins(a, i) - wins(b, i)
	}
	return sum / confirmRollouts
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

// Worst returns up to n of c's graded moves that are inaccuracies or
// worse (Grade.Class), the biggest loss first (earlier turns first among
// equal losses).
func Worst(grades []Grade, c engine.Color, n int) []Grade {
	var out []Grade
	for _, g := range grades {
		if g.Color == c && g.Class() != ClassNone {
			out = append(out, g)
		}
	}
	slices.SortStableFunc(out, func(a, b Grade) int { return cmpFloat(b.Loss, a.Loss) })
	return out[:min(n, len(out))]
}
