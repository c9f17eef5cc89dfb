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
// the biggest terms of the change in the mover's chance by expert's
// evaluation (Models.Play), biggest first. It always returns at least one
// reason: when no term gains, ReasonForced if the roll allows nothing
// else, otherwise the pawn's own, or ReasonWaits when the pawn goes no
// nearer the goal. It never returns ReasonNone.
func Explain(pos engine.Position, roll int, r engine.Rules, m engine.Move) []Reason {
	if m.To == engine.Goal {
		return []Reason{{Kind: ReasonWins, Color: engine.NoColor, Square: m.To, Gain: 1 - WinChances(pos, r)[pos.Turn()]}}
	}
	me := pos.Turn()
	e := newEvaluator(defaultParams)
	e.model, e.rules = learnedPlay, r
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
func threatOf(b *engine.Position, s engine.Square) engine.Color {
	var reach [maxRoll + 1]engine.SquareSet
	reachFrom(b.BarricadeSet(), engine.Paths(s), &reach)
	players := b.Players()
	me := b.Turn()
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
	// Chance is the placer's win chance with the barricade there, by
	// expert's evaluation (Models.Play).
	Chance float64
}

// ownWayCost is how many expected turns a barricade must cost the
// placer's own pawns for its square to count as on the placer's way.
const ownWayCost = 0.05

// blockLoss is how much of an opponent's win chance (0 to 1) a barricade
// must take for the square to count as blocking that opponent.
const blockLoss = 0.002

// SuggestPlacements returns up to n squares of legal for the barricade
// captured by pending, best first, each with its reason. pos is the
// position before the move (a game's position while it waits for the
// placement), roll the roll and legal the allowed squares
// (engine.Game.PlacementSquares). Squares are ranked by the placer's win
// chance afterwards, by expert's evaluation. No two suggestions share a
// reason (kind, colour and size): of squares that would read the same,
// only the best is suggested. A square on the placer's own way forward
// (where the barricade costs its own pawns time) is suggested only when
// no other square is.
func SuggestPlacements(pos engine.Position, r engine.Rules, roll int, pending engine.Move, legal []engine.Square, n int) []Placement {
	me := pos.Turn()
	e := newEvaluator(defaultParams)
	e.model, e.rules = learnedPlay, r
	lifted := pos
	m := pending
	m.Place = engine.NoSquare
	lifted.Play(m, roll, r)
	chLifted := e.chances(&lifted)
	tsLifted, _, _ := e.terms(&lifted)
	all := make([]Placement, 0, len(legal))
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
		all = append(all, p)
		if len(e.cache) > 256 {
			e.cache = make(map[engine.SquareSet]*valueTable)
		}
	}
	slices.SortStableFunc(all, func(a, b Placement) int { return cmpFloat(b.Chance, a.Chance) })
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
		for _, p := range all {
			k := reason{p.Kind, p.Color, p.Turns}
			if len(out) == n || (p.Kind == PlaceOwnWay) != own || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}
