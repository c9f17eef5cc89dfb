package ai

import (
	"math"
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
	// depth is how many turns after hard's move the search plays out, every
	// roll of each: 1 searches the next player's roll and reply.
	depth int
	// replyPlacements is how many squares a barricade captured inside the
	// search is tried on at the first turn after the root; 0 tries all.
	replyPlacements int
	// deepPlacements is the same for the later turns.
	deepPlacements int
	// deep is how many candidates, best first after the search one turn
	// ahead, are searched depth turns ahead.
	deep int
	// work bounds the evaluator's work (see evaluator.work) before another
	// candidate is searched deeper; at least two are.
	work int
}

var defaultHardBudget = budget{candidates: 8, placements: 3, depth: 2, replyPlacements: 6, deepPlacements: 4, deep: 8, work: 9000}

// hardPlayer searches: for each of its best moves by the evaluation it
// averages, over the six rolls of the next player, the evaluation after
// that player's best reply (expectimax; a reply and its barricade
// placement are chosen by the evaluation, from the replying colour's
// side). The moves that search best are then searched a turn deeper, every
// roll of the player after that too, while the work budget lasts.
type hardPlayer struct {
	rng    *rand.Rand
	budget budget
	p      params
	// model, when set, is the evaluation instead of the power law of p:
	// the learned estimator, for expert.
	model *Model
	// td, when set, is the evaluation instead: the evaluation learned by
	// self-play, for master.
	td *TDModel
	// nn, when set, is the evaluation instead: a network learned by
	// self-play (see NNModel).
	nn   *NNModel
	work int // the work of the last decision, for tests
}

type candidate struct {
	move   engine.Move
	static float64 // the evaluation right after the move
	value  float64 // the searched value
}

// Choose implements Player.
func (p *hardPlayer) Choose(pos engine.Position, roll int, rules engine.Rules, moves []engine.Move) engine.Move {
	s, cands, m, decided := p.begin(pos, roll, rules, moves)
	if decided {
		return m
	}
	e := s.e
	after := func(c *candidate) engine.Position {
		b := pos
		b.Play(c.move, roll, rules)
		return b
	}
	// One turn ahead for every candidate, then deeper for the best of them
	// while the work budget lasts.
	for i := range cands {
		b := after(&cands[i])
		cands[i].value = s.expect(&b, 1)
	}
	searched := len(cands)
	if p.budget.depth > 1 {
		slices.SortStableFunc(cands, byValue)
		searched = 0
		for i := range cands {
			if searched == p.budget.deep {
				break
			}
			if searched >= 2 && e.work+e.work/(searched+1) > p.budget.work {
				break
			}
			b := after(&cands[i])
			cands[i].value = s.expect(&b, p.budget.depth)
			searched++
		}
	}
	p.work = e.work
	return cands[pickBest(p.rng, searched, func(i int) float64 { return cands[i].value })].move
}

// begin starts a decision: it returns the move to play without a search
// when there is one (the only move, or a pawn onto the goal) and decided,
// else the search and its candidates.
func (p *hardPlayer) begin(pos engine.Position, roll int, rules engine.Rules, moves []engine.Move) (s searcher, cands []candidate, m engine.Move, decided bool) {
	if m, ok := forced(moves); ok {
		return s, nil, m, true
	}
	e := p.evaluator(rules)
	cands = p.candidates(e, pos, roll, rules, moves)
	if cands[0].move.To == engine.Goal {
		return s, nil, cands[0].move, true
	}
	return searcher{e: e, rules: rules, me: pos.Turn(), budget: p.budget}, cands, NoMove, false
}

// evaluator returns a fresh evaluator of p's evaluation under rules.
func (p *hardPlayer) evaluator(rules engine.Rules) *evaluator {
	e := newEvaluator(p.p)
	e.model, e.td, e.nn, e.rules = p.model, p.td, p.nn, rules
	return e
}

// coachEvaluator returns a fresh evaluator of the evaluation the coach
// uses, for the strongest level (see NewGrader): p's without its network,
// master's linear model, so that the grading stays as it was calibrated.
func (p *hardPlayer) coachEvaluator(rules engine.Rules) *evaluator {
	e := p.evaluator(rules)
	e.nn = nil
	return e
}

// candidates returns the moves worth searching, best by the evaluation
// first: every move is evaluated, the best placements of each capture
// kept, and of those the budget's best candidates.
func (p *hardPlayer) candidates(e *evaluator, pos engine.Position, roll int, rules engine.Rules, moves []engine.Move) []candidate {
	var cands []candidate
	for _, g := range groupMoves(moves) {
		start := len(cands)
		for _, m := range g.moves {
			cands = append(cands, candidate{move: m, static: e.chanceAfter(pos, m, roll, rules)})
		}
		grp := cands[start:]
		slices.SortStableFunc(grp, byStatic)
		if len(grp) > p.budget.placements {
			cands = cands[:start+p.budget.placements]
		}
	}
	slices.SortStableFunc(cands, byStatic)
	return cands[:min(len(cands), p.budget.candidates)]
}

func byValue(a, b candidate) int { return cmpFloat(b.value, a.value) }

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
	moves  []engine.Move // a stack of AppendPawnMoves results, one per turn searched
}

// expect returns me's chance after the colour to move in b and the
// players after it, depth turns in all, play each roll of the die with the
// move their evaluation likes best (for the colour to move, its own chance).
func (s *searcher) expect(b *engine.Position, depth int) float64 {
	if w := b.Winner(); w != engine.NoColor {
		if w == s.me {
			return 1
		}
		return 0
	}
	if depth == 0 {
		return s.e.chances(b)[s.me]
	}
	limit := s.budget.deepPlacements
	if depth == s.budget.depth {
		limit = s.budget.replyPlacements
	}
	total := 0.0
	for roll := 1; roll <= maxRoll; roll++ {
		nb, ch := s.reply(b, roll, limit)
		if depth == 1 && !nb.Over() {
			total += ch[s.me] // the evaluation the reply was chosen by
			continue
		}
		total += s.expect(&nb, depth-1)
	}
	return total / maxRoll
}

// reply returns the position after the colour to move in b plays roll with
// the move that gives it the best chance by the evaluation, and the
// evaluation of that position. limit bounds the placements tried for a
// captured barricade (0: all).
func (s *searcher) reply(b *engine.Position, roll, limit int) (engine.Position, [engine.NumColors]float64) {
	x := b.Turn()
	start := len(s.moves)
	s.moves = b.AppendPawnMoves(s.moves, roll)
	moves := s.moves[start:]
	defer func() { s.moves = s.moves[:start] }()
	if len(moves) == 0 {
		nb := *b
		nb.Pass()
		return nb, s.e.chances(&nb)
	}
	var (
		best   engine.Position
		bestCh [engine.NumColors]float64
		order  []engine.Square // placementOrder's, once a barricade is captured
		places []engine.Square
		// The squares' room, on the stack: the search asks for them at
		// every captured barricade.
		orderBuf, placesBuf [engine.NumSquares]engine.Square
	)
	places = placesBuf[:0]
	bestX := -1.0
	bars := b.BarricadeSet()
	try := func(m engine.Move) {
		nb := *b
		nb.Play(m, roll, s.rules)
		if ch := s.e.chances(&nb); ch[x] > bestX {
			best, bestCh, bestX = nb, ch, ch[x]
		}
	}
	for _, m := range moves {
		if m.To == engine.Goal {
			nb := *b
			nb.Play(m, roll, s.rules)
			return nb, s.e.chances(&nb)
		}
		if !bars.Has(m.To) {
			try(m)
			continue
		}
		allowed := b.PlacementSet(m.From, m.To, s.rules)
		if limit == 0 {
			allowed.Each(func(q engine.Square) {
				m.Place = q
				try(m)
			})
			continue
		}
		if order == nil {
			order = s.placementOrder(b, orderBuf[:0])
			s.e.work += placementOrderWork
		}
		places = pickPlacements(order, allowed, limit, places[:0])
		for _, q := range places {
			m.Place = q
			try(m)
		}
	}
	return best, bestCh
}

// placementOrder returns the squares to try first for a barricade that
// the colour to move in b captures, best first: the squares the
// opponents' leading pawns are most likely to cross soon (see route).
// The two best pawns of each opponent are followed, all of them in order
// of value, with a weight that starts at 1 and halves after each
// opponent's best pawn; a second pawn counts secondPawnWeight of the
// weight it finds (in a two-player game: 1 for the best pawn, 0.2 for the
// second). pickPlacements then keeps the legal squares. The squares are
// appended to dst.
func (s *searcher) placementOrder(b *engine.Position, dst []engine.Square) []engine.Square {
	x := b.Turn()
	bars := b.BarricadeSet()
	cells := b.Board()
	t := s.e.table(bars)
	type cand struct {
		q    engine.Square
		flow float64
	}
	var candBuf [engine.NumSquares]cand
	cands := candBuf[:0]
	// The two best pawns of each opponent, a pawn in the house standing
	// on its entry square (where it also counts as placeable).
	type lead struct {
		sq      engine.Square
		val     float64
		housed  bool
		primary bool
	}
	var leadBuf [2 * engine.NumColors]lead
	leads := leadBuf[:0]
	for c := engine.Red; c <= engine.Blue; c++ {
		if c == x || !b.InPlay(c) {
			continue
		}
		first := lead{engine.Entry(c), t.home[c], true, true}
		second := lead{engine.NoSquare, math.Inf(1), false, false}
		if b.Home(c) == 0 {
			first = lead{engine.NoSquare, math.Inf(1), false, true}
		} else if b.Home(c) > 1 {
			second = lead{engine.Entry(c), t.home[c], true, false}
		}
		own := engine.PawnOf(c)
		for q := engine.Square(0); q < engine.NumSquares; q++ {
			if cells[q] != own {
				continue
			}
			if l := (lead{q, t.sq[q], false, false}); l.val < first.val {
				second, first = first, l
			} else if l.val < second.val {
				second = l
			}
		}
		first.primary, second.primary = true, false
		for _, l := range []lead{first, second} {
			if l.sq != engine.NoSquare {
				leads = append(leads, l)
			}
		}
	}
	// Opponents in order of their best pawn.
	slices.SortStableFunc(leads, func(a, b lead) int { return cmpFloat(a.val, b.val) })
	var flow [engine.NumSquares]float64
	weight := 1.0
	for _, l := range leads {
		w := weight
		if l.primary {
			weight /= 2
		} else {
			w = weight * secondPawnWeight
		}
		if l.housed {
			flow[l.sq] += w
		}
		route(&bars, t, l.sq, w, &flow)
	}
	for q := engine.Square(0); q < engine.NumSquares; q++ {
		if flow[q] > 0 {
			cands = append(cands, cand{q, flow[q]})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmpFloat(b.flow, a.flow) })
	for _, c := range cands {
		dst = append(dst, c.q)
	}
	return dst
}

// pickPlacements appends to dst up to limit squares of order that are in
// allowed, the squares where a captured barricade may be placed, or the
// first square of allowed when none of order is.
func pickPlacements(order []engine.Square, allowed engine.SquareSet, limit int, dst []engine.Square) []engine.Square {
	start := len(dst)
	for _, q := range order {
		if len(dst)-start == limit {
			break
		}
		if allowed.Has(q) {
			dst = append(dst, q)
		}
	}
	for q := engine.Square(0); q < engine.NumSquares && len(dst) == start; q++ {
		if allowed.Has(q) {
			dst = append(dst, q)
		}
	}
	return dst
}

// placementOrderWork is placementOrder's cost in evaluator work.
const placementOrderWork = 20

// secondPawnWeight weighs the routes of an opponent's second pawn.
const secondPawnWeight = 0.4

// routeMoves is how many moves ahead route follows a pawn.
const routeMoves = 5

// route adds to flow, for each square, the chance that a pawn on from
// crosses or lands on it in its next routeMoves moves if it moves on every
// roll that improves its value, to the best landing of the roll (by the
// first path found), and waits otherwise.
func route(bars *engine.SquareSet, t *valueTable, from engine.Square, weight float64, flow *[engine.NumSquares]float64) {
	var massBuf, nextBuf [engine.NumSquares]float64
	var activeBuf, nextActiveBuf [engine.NumSquares]engine.Square
	mass, next := &massBuf, &nextBuf
	active, nextActive := append(activeBuf[:0], from), nextActiveBuf[:0]
	mass[from] = weight
	add := func(q engine.Square, m float64) {
		if next[q] == 0 {
			nextActive = append(nextActive, q)
		}
		next[q] += m
	}
	for range routeMoves {
		for _, u := range active {
			m := mass[u]
			mass[u] = 0
			if u == engine.Goal {
				add(u, m)
				continue
			}
			// The trie node of the best landing of each roll.
			best := [maxRoll + 1]int{-1, -1, -1, -1, -1, -1, -1}
			v := t.sq[u]
			trie := engine.Paths(u)
			for i := 0; i < len(trie); {
				n := &trie[i]
				if t.sq[n.Square] < v && (best[n.Steps] < 0 || t.sq[n.Square] < t.sq[trie[best[n.Steps]].Square]) {
					best[n.Steps] = i
				}
				if bars.Has(n.Square) {
					i = int(n.Skip)
				} else {
					i++
				}
			}
			share := m / maxRoll
			for d := 1; d <= maxRoll; d++ {
				k := best[d]
				if k < 0 {
					add(u, share)
					continue
				}
				add(trie[k].Square, share)
				for ; k >= 0; k = int(trie[k].Parent) {
					flow[trie[k].Square] += share
				}
			}
		}
		mass, next = next, mass
		active, nextActive = nextActive, active[:0]
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// expertBudget is expert's search: hard's (with the learned evaluation).
var expertBudget = defaultHardBudget
