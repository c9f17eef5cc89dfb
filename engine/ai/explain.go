package ai

import (
	"math"
	"slices"

	"github.com/malefiz-discord/malefiz/engine"
)

// ReasonKind says what a move is for, as the evaluation sees it.
type ReasonKind int8

// The kinds of reason, in no particular order.
const (
	// ReasonNone: nothing stands out (a forced move, or one that changes
	// little).
	ReasonNone ReasonKind = iota
	// ReasonWins: the move reaches the goal.
	ReasonWins
	// ReasonCaptures: the move captures a pawn of Reason.Color; Reason.Lead
	// says whether it was that colour's pawn nearest the goal.
	ReasonCaptures
	// ReasonBlocks: the captured barricade goes on Reason.Square, in front
	// of Reason.Color, whose pawn nearest the goal behind the barricade
	// stands Reason.Steps steps from it; it costs that colour Reason.Turns
	// more turns to the goal.
	ReasonBlocks
	// ReasonRuns: the mover's pawn nearest the goal runs for it; it stands
	// Reason.Steps steps from the goal afterwards.
	ReasonRuns
	// ReasonEnters: the move brings a pawn out of the house.
	ReasonEnters
	// ReasonClears: the move captures a barricade that stood in the mover's
	// own way (its pawns need fewer turns without it).
	ReasonClears
	// ReasonEscapes: the move takes a pawn out of the reach of
	// Reason.Color's pawns.
	ReasonEscapes
	// ReasonAdvances: the move brings a pawn forward, to Reason.Steps steps
	// from the goal.
	ReasonAdvances
	// ReasonForced: the roll allows no other move (other squares for a
	// captured barricade aside).
	ReasonForced
	// ReasonWaits: the move's pawn steps aside or back for nothing the
	// other reasons name: the best the roll allows.
	ReasonWaits
)

var reasonNames = [...]string{"none", "wins", "captures", "blocks", "runs", "enters", "clears", "escapes", "advances", "forced", "waits"}

// String returns the kind's name, for logs and tests.
func (k ReasonKind) String() string {
	if int(k) >= 0 && int(k) < len(reasonNames) {
		return reasonNames[k]
	}
	return "unknown"
}

// Reason is one term of a move's explanation, to be put into words by the
// caller (for example "captures Alice's lead pawn", "blocks Bob 3 steps
// from the goal with the barricade", "runs for the goal").
type Reason struct {
	// Kind says what the move does.
	Kind ReasonKind
	// Color is the colour captured, blocked or escaped from; NoColor for
	// the other kinds.
	Color engine.Color
	// Steps is, for ReasonBlocks, how far the blocked colour's pawn nearest
	// the goal is from it; for ReasonRuns and ReasonAdvances, how far the
	// moved pawn is from the goal afterwards; 0 otherwise.
	Steps int
	// Square is the barricade's square for ReasonBlocks, the square moved
	// to otherwise.
	Square engine.Square
	// Lead, for ReasonCaptures: the captured pawn was its colour's pawn
	// nearest the goal.
	Lead bool
	// Turns, for ReasonBlocks, is how many more turns the blocked colour
	// needs to reach the goal with the barricade there, by the
	// evaluation's expected turns (rounded to a tenth).
	Turns float64
	// Gain is the term's weight: about how much of the mover's win chance
	// (0 to 1) it accounts for.
	Gain float64
}

// runSteps is how near the goal a lead pawn must land for its move to be
// "running for the goal".
const runSteps = 12

// Explain returns why a player might play m, one of pos's legal moves for
// roll under rules r (with its placement, if it captures a barricade):
// the biggest terms of the change in the mover's chance by the coach's
// evaluation (the strongest level's), biggest first. It always returns at least one
// reason: when no term gains, ReasonForced if the roll allows nothing
// else, otherwise the pawn's own, or ReasonWaits when the pawn goes no
// nearer the goal. It never returns ReasonNone.
func Explain(pos engine.Position, roll int, r engine.Rules, m engine.Move) []Reason {
	if m.To == engine.Goal {
		return []Reason{{Kind: ReasonWins, Color: engine.NoColor, Square: m.To, Gain: 1 - WinChances(pos, r)[pos.Turn()]}}
	}
	me := pos.Turn()
	e := strongestEvaluator(r)
	// before: pos as it would stand after the turn without the move (the
	// same colour to move as after it); lifted: after the move with a
	// captured barricade lifted off the board; after: after the move.
	before := pos
	if !(r.SixAgain && roll == 6) {
		before.Pass()
	}
	lifted := pos
	liftedMove := m
	liftedMove.Place = engine.NoSquare
	lifted.Play(liftedMove, roll, r)
	after := pos
	after.Play(m, roll, r)
	chBefore, chLifted, chAfter := e.chances(&before), e.chances(&lifted), e.chances(&after)

	var out []Reason
	// share turns an opponent's loss into the mover's gain: what the
	// opponent loses goes to the others in proportion to their chances.
	share := func(ch *[engine.NumColors]float64, o engine.Color) float64 {
		if ch[o] >= 1 {
			return 0
		}
		return ch[me] / (1 - ch[o])
	}
	captureGain := 0.0
	if t := pos.At(m.To); t.IsPawn() && t.Color() != me {
		v := t.Color()
		lead := true
		for _, q := range pos.Pawns(v) {
			if engine.DistanceToGoal(q) < engine.DistanceToGoal(m.To) {
				lead = false
			}
		}
		captureGain = max(0, chBefore[v]-chLifted[v]) * share(&chLifted, v)
		out = append(out, Reason{Kind: ReasonCaptures, Color: v, Square: m.To, Lead: lead, Gain: captureGain})
	}
	if m.Place != engine.NoSquare {
		o, loss := engine.NoColor, 0.0
		for _, c := range after.Players() {
			if c != me && chLifted[c]-chAfter[c] > loss {
				o, loss = c, chLifted[c]-chAfter[c]
			}
		}
		if o != engine.NoColor {
			tsL, _, _ := e.terms(&lifted)
			tsA, _, _ := e.terms(&after)
			// A barricade that costs o no time (only risk) is no block
			// worth naming.
			if turns := tenths(tsA[o].base - tsL[o].base); turns > 0 {
				out = append(out, Reason{Kind: ReasonBlocks, Color: o, Steps: nearestBehind(&after, o, m.Place), Square: m.Place,
					Turns: turns, Gain: loss * share(&chAfter, o)})
			}
		}
	}
	// The pawn's own part: the mover's gain from before to lifted that the
	// capture does not account for.
	progress := chLifted[me] - chBefore[me] - captureGain
	pr := Reason{Kind: ReasonAdvances, Color: engine.NoColor, Steps: engine.DistanceToGoal(m.To), Square: m.To, Gain: progress}
	tsBefore, _, _ := e.terms(&before)
	tsLifted, _, _ := e.terms(&lifted)
	baseGain := tsBefore[me].base - tsLifted[me].base
	riskBefore := tsBefore[me].total - tsBefore[me].seat - tsBefore[me].base
	riskLifted := tsLifted[me].total - tsLifted[me].seat - tsLifted[me].base
	forward := m.From == engine.NoSquare || engine.DistanceToGoal(m.To) < engine.DistanceToGoal(m.From)
	switch {
	case pos.BarricadeSet().Has(m.To) && baseGain > 0:
		pr.Kind = ReasonClears
	case m.From == engine.NoSquare:
		pr.Kind = ReasonEnters
	case engine.DistanceToGoal(m.To) <= runSteps && nearest(&lifted, me) == engine.DistanceToGoal(m.To) &&
		engine.DistanceToGoal(m.To) < engine.DistanceToGoal(m.From):
		pr.Kind = ReasonRuns
	case m.From != engine.NoSquare && riskBefore-riskLifted > max(baseGain, 0) && threatOf(&pos, m.From) != engine.NoColor:
		pr.Kind, pr.Color = ReasonEscapes, threatOf(&pos, m.From)
	case !forward:
		// A step aside or back, for nothing the terms name: the best the
		// roll allows.
		pr.Kind = ReasonWaits
	}
	out = append(out, pr)
	slices.SortStableFunc(out, func(a, b Reason) int { return cmpFloat(b.Gain, a.Gain) })
	kept := out[:0]
	for _, x := range out {
		if x.Gain > 1e-4 {
			kept = append(kept, x)
		}
	}
	if len(kept) == 0 {
		// Nothing gains: the move is the only one, or the least bad, and
		// what it does is what its pawn does.
		switch {
		case onlyMove(pos, roll, m):
			pr.Kind = ReasonForced
		}
		return []Reason{pr}
	}
	return kept
}

// onlyMove reports whether m is pos's only move for roll, other squares
// for a captured barricade aside.
func onlyMove(pos engine.Position, roll int, m engine.Move) bool {
	for _, o := range pos.AppendPawnMoves(nil, roll) {
		if o.From != m.From || o.To != m.To {
			return false
		}
	}
	return true
}

// tenths rounds x to a tenth.
func tenths(x float64) float64 { return math.Round(10*x) / 10 }

// ReasonFor returns the main reason for m, the first of Explain.
func ReasonFor(pos engine.Position, roll int, r engine.Rules, m engine.Move) Reason {
	return Explain(pos, roll, r, m)[0]
}

// nearest returns how far colour c's pawn nearest the goal is from it in b
// (its entry square's distance plus one for a pawn in the house).
func nearest(b *engine.Position, c engine.Color) int {
	d := 1 << 30
	if b.Home(c) > 0 {
		d = engine.DistanceToGoal(engine.Entry(c)) + 1
	}
	for _, q := range b.Pawns(c) {
		d = min(d, engine.DistanceToGoal(q))
	}
	return d
}

// nearestBehind returns how far colour c's pawn nearest the goal among
// those farther from it than the barricade on q is from the goal (a pawn
// in the house counting as one step behind its entry square), or nearest
// when none is.
func nearestBehind(b *engine.Position, c engine.Color, q engine.Square) int {
	d, lim := 1<<30, engine.DistanceToGoal(q)
	if b.Home(c) > 0 {
		d = engine.DistanceToGoal(engine.Entry(c)) + 1
	}
	for _, p := range b.Pawns(c) {
		if x := engine.DistanceToGoal(p); x > lim {
			d = min(d, x)
		}
	}
	if d == 1<<30 {
		return nearest(b, c)
	}
	return d
}

// threatOf returns an opponent of the colour to move in b that could land
// on s with some roll next turn, the nearest in seat order, or NoColor.
func threatOf(b *engine.Position, s engine.Square) engine.Color { return threatTo(b, b.Turn(), s) }

// threatTo returns an opponent of me that could land on s with some roll
// of its next turn in b, the nearest after me in seat order, or NoColor.
func threatTo(b *engine.Position, me engine.Color, s engine.Square) engine.Color {
	var reach [maxRoll + 1]engine.SquareSet
	reachFrom(b.BarricadeSet(), engine.Paths(s), &reach)
	players := b.Players()
	at := slices.Index(players, me)
	for i := 1; i < len(players); i++ {
		c := players[(at+i)%len(players)]
		var set engine.SquareSet
		for _, q := range b.Pawns(c) {
			set.Add(q)
		}
		if rollsTo(c, b.Home(c), s, &reach, &set) != 0 {
			return c
		}
	}
	return engine.NoColor
}

// PlacementKind says what a square does with a captured barricade.
type PlacementKind int8

// The kinds of placement.
const (
	// PlaceBlocks: the barricade stands in front of PlacementReason.Color,
	// whose pawn nearest the goal is PlacementReason.Steps steps from it.
	PlaceBlocks PlacementKind = iota
	// PlaceAside: the barricade is in nobody's way that counts.
	PlaceAside
	// PlaceOwnWay: the barricade stands on the placer's own way forward;
	// such a square is suggested only after every other (Color and Steps
	// name whom it blocks as well, if anyone).
	PlaceOwnWay
)

var placementNames = [...]string{"blocks", "aside", "own-way"}

// String returns the kind's name, for logs and tests.
func (k PlacementKind) String() string {
	if int(k) >= 0 && int(k) < len(placementNames) {
		return placementNames[k]
	}
	return "unknown"
}

// Placement is a suggested square for a captured barricade and why.
type Placement struct {
	// Square is where the barricade would go.
	Square engine.Square
	// Kind says what it does there.
	Kind PlacementKind
	// Color is the opponent it blocks most, NoColor if none.
	Color engine.Color
	// Steps is how far that opponent's pawn nearest the goal is from it.
	Steps int
	// Turns is the reason's size, rounded to a tenth: for PlaceBlocks how
	// many more turns Color needs to reach the goal with the barricade
	// there; for PlaceOwnWay how many more the placer needs; 0 for
	// PlaceAside.
	Turns float64
	// Chance is the placer's win chance with the barricade there, by the
	// coach's search where it searched the square (see
	// Grader.Placements), else by its evaluation right after the move.
	Chance float64
}

// ownWayCost is how many expected turns a barricade must cost the
// placer's own pawns for its square to count as on the placer's way.
const ownWayCost = 0.05

// blockLoss is how much of an opponent's win chance (0 to 1) a barricade
// must take for the square to count as blocking that opponent.
const blockLoss = 0.002

// SuggestPlacements returns up to n squares of legal for the barricade
// captured by pending, best first, each with its reason: the coach's
// advice (see Grader.Placements, which it calls with a fresh grader).
func SuggestPlacements(pos engine.Position, r engine.Rules, roll int, pending engine.Move, legal []engine.Square, n int) []Placement {
	return NewGrader().Placements(pos, r, roll, pending, legal, n)
}

// FaultKind says what a move did wrong against the better move for its
// roll, as the positions after the two show it.
type FaultKind int8

// The kinds of fault.
const (
	// FaultNone: nothing the positions name; the better move is better
	// by the search alone.
	FaultNone FaultKind = iota
	// FaultMissesGoal: the better move reaches the goal.
	FaultMissesGoal
	// FaultMissesCapture: the better move captures a pawn of Fault.Color
	// (Fault.Lead: its pawn nearest the goal), the move played none of
	// that colour's.
	FaultMissesCapture
	// FaultExposes: the move leaves a pawn of the mover (Fault.Lead: its
	// pawn nearest the goal) on Fault.Square, where Fault.Color can
	// capture it with its next roll, a risk the better move does not run.
	FaultExposes
	// FaultWalksBack: the move takes a pawn farther from the goal.
	FaultWalksBack
	// FaultBlocksOwn: the captured barricade goes in the mover's own way:
	// Fault.Turns more turns to the goal for the mover.
	FaultBlocksOwn
	// FaultLetsThrough: the move takes a barricade out of Fault.Color's
	// way, which the better move leaves there or puts back in it.
	FaultLetsThrough
	// FaultWastesBarricade: the captured barricade goes where it slows
	// nobody, while the better move's barricade slows Fault.Color.
	FaultWastesBarricade
	// FaultLeavesOpen: the better move puts a barricade in Fault.Color's
	// way (or puts it there better): Fault.Turns more turns for that
	// colour.
	FaultLeavesOpen
	// FaultSlower: the move leaves the mover Fault.Turns more turns from
	// the goal than the better move.
	FaultSlower
)

var faultNames = [...]string{"none", "misses-goal", "misses-capture", "exposes", "walks-back", "blocks-own", "lets-through", "wastes-barricade", "leaves-open", "slower"}

// String returns the kind's name, for logs and tests.
func (k FaultKind) String() string {
	if int(k) >= 0 && int(k) < len(faultNames) {
		return faultNames[k]
	}
	return "unknown"
}

// Fault is what a move did wrong, to be put into words by the caller
// ("left your lead pawn in capture range of Bob", "walked a pawn back").
type Fault struct {
	// Kind says what went wrong.
	Kind FaultKind
	// Color is the opponent concerned (the pawn not captured, the
	// capturer in range, the colour let through or not slowed), NoColor
	// for the other kinds.
	Color engine.Color
	// Lead: for FaultMissesCapture and FaultExposes, the pawn concerned is
	// its colour's nearest the goal.
	Lead bool
	// Square is the exposed pawn's square for FaultExposes, the square
	// moved to otherwise.
	Square engine.Square
	// Turns is the fault's size in expected turns to the goal, rounded to
	// a tenth: the mover's for FaultBlocksOwn and FaultSlower, Color's
	// for FaultLeavesOpen and FaultLetsThrough; 0 otherwise.
	Turns float64
	// Size is how many expected turns the fault is worth, the mover's or
	// an opponent's: of the faults that apply, the biggest is named.
	Size float64
}

// faultMin is the size, in expected turns, below which a fault is not
// named.
const faultMin = 0.1

// Faults returns what played, one of pos's legal moves for roll under
// rules r, did wrong against better, the move the coach found best: each
// fault that applies with its size, the biggest first, or a single
// FaultNone when none does. It reads the positions after the two moves
// with the coach's evaluation: the pawns captured, the times to the goal
// of each colour with the barricades where the moves left them, the pawns
// in capture range.
func Faults(pos engine.Position, roll int, r engine.Rules, played, better engine.Move) []Fault {
	none := []Fault{{Kind: FaultNone, Color: engine.NoColor, Square: played.To}}
	if played == better {
		return none
	}
	if better.To == engine.Goal && played.To != engine.Goal {
		return []Fault{{Kind: FaultMissesGoal, Color: engine.NoColor, Square: better.To, Size: math.Inf(1)}}
	}
	me := pos.Turn()
	e := strongestEvaluator(r)
	p, b := pos, pos
	p.Play(played, roll, r)
	b.Play(better, roll, r)
	if p.Over() || b.Over() {
		return none
	}
	tsP, _, _ := e.terms(&p)
	tsB, _, _ := e.terms(&b)
	var out []Fault
	add := func(f Fault) {
		if f.Size >= faultMin {
			out = append(out, f)
		}
	}
	captured := func(m engine.Move) engine.Color {
		if t := pos.At(m.To); t.IsPawn() && t.Color() != me {
			return t.Color()
		}
		return engine.NoColor
	}
	if v := captured(better); v != engine.NoColor && captured(played) != v {
		add(Fault{Kind: FaultMissesCapture, Color: v, Square: better.To, Lead: leads(&pos, v, better.To),
			Size: tsB[v].total - tsP[v].total})
	}
	risk := func(ts *[engine.NumColors]colorTerms) float64 {
		return ts[me].total - ts[me].seat - ts[me].base
	}
	if d := risk(&tsP) - risk(&tsB); d > 0 {
		if q, c := exposed(&p, &b, me, played.To); c != engine.NoColor {
			add(Fault{Kind: FaultExposes, Color: c, Square: q, Lead: leads(&p, me, q), Size: d})
		}
	}
	slower := tsP[me].base - tsB[me].base
	if played.From != engine.NoSquare && engine.DistanceToGoal(played.To) > engine.DistanceToGoal(played.From) &&
		!(better.From != engine.NoSquare && engine.DistanceToGoal(better.To) > engine.DistanceToGoal(better.From)) {
		add(Fault{Kind: FaultWalksBack, Color: engine.NoColor, Square: played.To, Size: max(slower, faultMin)})
	}
	// The barricades: what the played move's placement costs the mover,
	// and which opponent it leaves freer than the better move does.
	if played.Place != engine.NoSquare {
		lifted := pos
		m := played
		m.Place = engine.NoSquare
		lifted.Play(m, roll, r)
		tsL, _, _ := e.terms(&lifted)
		own := tsP[me].base - tsL[me].base
		if own > ownWayCost {
			add(Fault{Kind: FaultBlocksOwn, Color: engine.NoColor, Square: played.Place, Turns: max(tenths(own), 0.1), Size: own})
		}
	}
	// The barricades, when a move takes or places one: the opponent the
	// move played leaves freer than the better move does.
	bars := pos.BarricadeSet()
	o, freer := engine.NoColor, 0.0
	if bars.Has(played.To) || bars.Has(better.To) {
		for _, c := range p.Players() {
			if c != me && c != captured(better) && tsB[c].base-tsP[c].base > freer {
				o, freer = c, tsB[c].base-tsP[c].base
			}
		}
	}
	if o != engine.NoColor {
		tsBefore, _, _ := e.terms(&pos)
		f := Fault{Kind: FaultLeavesOpen, Color: o, Square: played.To, Turns: tenths(freer), Size: freer}
		switch {
		case bars.Has(played.To) && tsBefore[o].base-tsP[o].base >= freer/2:
			// Most of what o gains is the barricade taken from its way.
			f.Kind = FaultLetsThrough
		case played.Place != engine.NoSquare && !slowsAnyone(e, pos, roll, r, played):
			f.Kind, f.Color, f.Turns = FaultWastesBarricade, engine.NoColor, 0
		}
		add(f)
	}
	if slower > 0 {
		add(Fault{Kind: FaultSlower, Color: engine.NoColor, Square: played.To, Turns: tenths(slower), Size: slower})
	}
	if len(out) == 0 {
		return none
	}
	slices.SortStableFunc(out, func(a, b Fault) int { return cmpFloat(b.Size, a.Size) })
	return out
}

// FaultOf returns the main fault of played against better, the first of
// Faults.
func FaultOf(pos engine.Position, roll int, r engine.Rules, played, better engine.Move) Fault {
	return Faults(pos, roll, r, played, better)[0]
}

// leads reports whether c's pawn on q is its nearest the goal in b (ties
// count).
func leads(b *engine.Position, c engine.Color, q engine.Square) bool {
	for _, x := range b.Pawns(c) {
		if engine.DistanceToGoal(x) < engine.DistanceToGoal(q) {
			return false
		}
	}
	return true
}

// exposed returns a pawn of me in p (after the move played) that an
// opponent can capture with its next roll and whose square is not so
// exposed in b (after the better move), and that opponent: the moved
// pawn on moved if it is one, else me's pawn nearest the goal if it is
// one, else the first. It returns NoColor when there is none.
func exposed(p, b *engine.Position, me engine.Color, moved engine.Square) (engine.Square, engine.Color) {
	var cands []engine.Square
	for _, q := range p.Pawns(me) {
		if threatTo(p, me, q) != engine.NoColor && !(b.At(q) == engine.PawnOf(me) && threatTo(b, me, q) != engine.NoColor) {
			cands = append(cands, q)
		}
	}
	if len(cands) == 0 {
		return engine.NoSquare, engine.NoColor
	}
	pick := cands[0]
	if slices.Contains(cands, moved) {
		pick = moved
	} else {
		for _, q := range cands {
			if leads(p, me, q) {
				pick = q
				break
			}
		}
	}
	return pick, threatTo(p, me, pick)
}

// slowsAnyone reports whether the barricade that m captures, where m
// puts it, costs some opponent of the mover time to the goal against the
// barricade lifted off the board.
func slowsAnyone(e *evaluator, pos engine.Position, roll int, r engine.Rules, m engine.Move) bool {
	me := pos.Turn()
	after, lifted := pos, pos
	after.Play(m, roll, r)
	m.Place = engine.NoSquare
	lifted.Play(m, roll, r)
	tsA, _, _ := e.terms(&after)
	tsL, _, _ := e.terms(&lifted)
	for _, c := range after.Players() {
		if c != me && tenths(tsA[c].base-tsL[c].base) > 0 {
			return true
		}
	}
	return false
}

// strongestEvaluator returns a fresh evaluator of the coach's evaluation,
// the strongest level's, under rules r.
func strongestEvaluator(r engine.Rules) *evaluator {
	p, err := New(strongest, 0)
	if err != nil {
		panic(err)
	}
	return p.(*hardPlayer).coachEvaluator(r)
}
