package ai

import (
	"math"
	"math/bits"
	"sync"

	"github.com/malefiz-discord/malefiz/engine"
)

// The evaluation estimates each colour's chance to win from how many of its
// own turns its pawns need to reach the goal.
//
// For a given set of barricades, valueTable holds for every square the
// expected number of turns a lone pawn standing there needs to reach the
// goal when it moves only on rolls that bring it closer (other pawns take
// the other rolls): the value of a small Markov decision process solved
// exactly, in the manner of Dijkstra's algorithm, since a square's value
// depends only on squares of smaller value. A barricade on the way costs the
// turns spent waiting to land on it exactly; the last six squares before the
// goal cost about six turns because the goal too must be hit exactly.
//
// A colour's time combines its pawns (a second pawn that waits for another
// roll than the first shortens the wait), adds the risk that an opponent
// moving first captures a pawn, and subtracts the head start of colours that
// move earlier in the round. Times become win chances through a power law.

// params are the evaluation's weights.
type params struct {
	// backup weighs the rates of the pawns behind the leader.
	backup float64
	// backups is how many pawns behind the leader count.
	backups int
	// power turns times into win chances: chance ∝ time^-power.
	power float64
	// threat scales the expected loss from capture by the colours that
	// move before the threatened colour's next turn.
	threat float64
	// counter scales it for the colours that move after, which the
	// threatened colour may still escape.
	counter float64
}

var defaultParams = params{backup: 0.35, backups: 2, power: 3, threat: 1, counter: 0.3}

// tableWork is the cost of a value table in evaluator work: about ten
// evaluations.
const tableWork = 10

// unreachable is the value of a square from which the goal cannot be reached.
const unreachable = 200

// valueTable holds the expected turns to the goal of a lone pawn on each
// square and of a pawn in each colour's house, for one set of barricades.
type valueTable struct {
	sq   [engine.NumSquares]float64
	home [engine.NumColors]float64
}

// evaluator evaluates positions. It caches value tables by barricade set
// and is not safe for concurrent use.
type evaluator struct {
	// work counts the evaluations made and, at tableWork each, the value
	// tables computed: a measure of time that does not depend on the machine.
	work  int
	p     params
	cache map[engine.SquareSet]*valueTable
	// model, when set, turns the terms into chances instead of the power
	// law, under rules (expert plays by it).
	model *Model
	// td, when set, is the evaluation instead (master plays by it).
	td *TDModel
	// nn, when set, is the evaluation instead: a network (see NNModel).
	nn *NNModel
	// attack, when set, gets from terms, for each colour, the turns its
	// next roll could cost the others' pawns by a capture (tdFeatures).
	attack *[engine.NumColors]float64
	// attackBuf is what attack points at, kept here so that an
	// evaluation does not allocate.
	attackBuf [engine.NumColors]float64
	rules     engine.Rules
	// reach holds, for each square s with reachOK[s], what a pawn on s
	// could reach past the barricades reachBars (see reachFrom): compute
	// fills every square, terms the pawns' squares it asks for. A change
	// of barricades keeps the squares whose walks pass none of the
	// squares changed (reachDeps).
	reach     [engine.NumSquares][maxRoll + 1]engine.SquareSet
	reachOK   [engine.NumSquares]bool
	reachBars engine.SquareSet
	// private: the tables this evaluator computes are its own, not
	// shared (own), and made again in the room of those it let go
	// (spare): the card's rollouts meet thousands of barricade sets that
	// nobody meets again, which would crowd the shared tables out and
	// leave megabytes to the garbage collector each time.
	private    bool
	own, spare []*valueTable
}

// reachDeps holds, for each square s, the squares a walk from s passes
// through within a roll (not those it ends on): what reachFrom finds for
// s depends on the barricades there and nowhere else.
var reachDeps = func() (deps [engine.NumSquares]engine.SquareSet) {
	for s := range deps {
		for _, n := range engine.Paths(engine.Square(s)) {
			if n.Steps < maxRoll {
				deps[s].Add(n.Square)
			}
		}
	}
	return deps
}()

// reachOf returns what a pawn on s could reach past the barricades bars,
// computed once for each square while the barricades stay the same.
func (e *evaluator) reachOf(bars engine.SquareSet, s engine.Square) *[maxRoll + 1]engine.SquareSet {
	if bars != e.reachBars {
		e.moveReach(bars)
	}
	if !e.reachOK[s] {
		e.reach[s] = [maxRoll + 1]engine.SquareSet{}
		reachFrom(bars, engine.Paths(s), &e.reach[s])
		e.reachOK[s] = true
	}
	return &e.reach[s]
}

// moveReach makes e.reach that of the barricades bars: it forgets the
// squares whose walks pass a square where bars and e.reachBars differ.
func (e *evaluator) moveReach(bars engine.SquareSet) {
	d := engine.SquareSet{bars[0] ^ e.reachBars[0], bars[1] ^ e.reachBars[1]}
	for s := range e.reachOK {
		if e.reachOK[s] && (reachDeps[s][0]&d[0] != 0 || reachDeps[s][1]&d[1] != 0) {
			e.reachOK[s] = false
		}
	}
	e.reachBars = bars
}

func newEvaluator(p params) *evaluator {
	return &evaluator{p: p, cache: make(map[engine.SquareSet]*valueTable)}
}

// spareEvaluators holds evaluators of defaultParams between the calls that
// value one position and keep nothing (WinChances and the models'
// Chances): an evaluator is 13 KiB of reach sets, and the card's chances,
// the turning points and the coach value thousands of positions a game.
// What an evaluator keeps between uses (its reach sets and value tables)
// depends on the barricades alone, so a borrowed one answers as a new one.
var spareEvaluators = sync.Pool{New: func() any { return newEvaluator(defaultParams) }}

// maxSpareTables bounds the value tables a spare evaluator keeps.
const maxSpareTables = 64

// withEvaluator calls f with an evaluator of defaultParams and takes it
// back after: f must not keep it.
func withEvaluator[T any](f func(e *evaluator) T) T {
	e := spareEvaluators.Get().(*evaluator)
	defer func() {
		e.work, e.model, e.td, e.nn, e.attack, e.rules = 0, nil, nil, nil, nil, engine.Rules{}
		if len(e.cache) > maxSpareTables {
			clear(e.cache)
		}
		spareEvaluators.Put(e)
	}()
	return f(e)
}

// table returns the value table for the barricades bars. A table the
// evaluator has not used yet costs it tableWork, whether it is computed
// here or found among the shared tables: the work, which bounds hard's
// search, is the same either way.
func (e *evaluator) table(bars engine.SquareSet) *valueTable {
	if t, ok := e.cache[bars]; ok {
		return t
	}
	e.work += tableWork
	t, _ := sharedTables.get(bars)
	switch {
	case t != nil:
	case e.private:
		if n := len(e.spare); n > 0 {
			t, e.spare = e.spare[n-1], e.spare[:n-1]
		} else {
			t = new(valueTable)
		}
		e.own = append(e.own, t)
		e.compute(&bars, t)
	default:
		t = new(valueTable)
		e.compute(&bars, t)
		sharedTables.put(bars, t)
	}
	e.cache[bars] = t
	return t
}

// forget empties the evaluator's cache of tables; a private one keeps
// the room of its own for the next.
func (e *evaluator) forget() {
	clear(e.cache)
	e.spare = append(e.spare, e.own...)
	e.own = e.own[:0]
}

// sharedTables holds the value tables computed so far, for every
// evaluator: a table depends on the barricades alone and is not changed
// once computed. A player makes an evaluator for each decision (normal) or
// each search, which would otherwise compute the same tables again.
var sharedTables = boundedCache[engine.SquareSet, *valueTable]{max: 4096} // about 1 KiB each

// boundedCache is a concurrency-safe map, emptied when it holds max
// entries: the shared value tables, the card's chances (cardCache).
type boundedCache[K comparable, V any] struct {
	mu  sync.Mutex
	max int
	m   map[K]V
}

func (c *boundedCache[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *boundedCache[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.max {
		c.m = make(map[K]V, c.max)
	}
	c.m[k] = v
}

// solve returns the expected turns of a pawn whose best reachable value for
// each roll is m (+Inf when the roll cannot move it usefully): it waits on
// the rolls that do not improve it, so the value v satisfies
// v = 1 + (Σ_{good} m + (6-g)·v)/6, which the g smallest values minimise.
func solve(m [maxRoll]float64) float64 {
	for i := 1; i < maxRoll; i++ {
		for j := i; j > 0 && m[j] < m[j-1]; j-- {
			m[j], m[j-1] = m[j-1], m[j]
		}
	}
	best := math.Inf(1)
	sum := float64(maxRoll)
	for g := 1; g <= maxRoll; g++ {
		if math.IsInf(m[g-1], 1) {
			break
		}
		sum += m[g-1]
		if v := sum / float64(g); v < best {
			best = v
		} else {
			break
		}
	}
	return best
}

func (e *evaluator) compute(bars *engine.SquareSet, t *valueTable) {
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		e.reachOf(*bars, s)
	}
	// Squares are settled in increasing value, so the rolls that take a
	// square to settled squares arrive best first: each roll counts once,
	// with its first (smallest) value, and only while it beats waiting.
	var (
		tent    [engine.NumSquares]float64
		sum     [engine.NumSquares]float64
		good    [engine.NumSquares]uint8
		seen    [maxRoll + 1]engine.SquareSet // seen[d]: roll d has arrived
		settled engine.SquareSet
	)
	inf := math.Inf(1)
	for s := range tent {
		tent[s] = inf
	}
	tent[engine.Goal] = 0
	// open holds the squares with a finite tentative value, not yet settled.
	var openBuf [engine.NumSquares]engine.Square
	open := append(openBuf[:0], engine.Goal)
	for len(open) > 0 {
		k := 0
		for i := 1; i < len(open); i++ {
			if tent[open[i]] < tent[open[k]] {
				k = i
			}
		}
		u := open[k]
		uv := tent[u]
		open[k] = open[len(open)-1]
		open = open[:len(open)-1]
		settled.Add(u)
		t.sq[u] = uv
		for d := 1; d <= maxRoll; d++ {
			r := &e.reach[u][d]
			fresh := engine.SquareSet{r[0] &^ (settled[0] | seen[d][0]), r[1] &^ (settled[1] | seen[d][1])}
			seen[d][0] |= fresh[0]
			seen[d][1] |= fresh[1]
			for w := range fresh {
				for b := fresh[w]; b != 0; b &= b - 1 {
					s := engine.Square(w*64 + bits.TrailingZeros64(b))
					if uv >= tent[s] {
						continue // waiting beats landing on u
					}
					if good[s] == 0 {
						open = append(open, s)
					}
					good[s]++
					sum[s] += uv
					tent[s] = (maxRoll + sum[s]) / float64(good[s])
				}
			}
		}
	}
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		if !settled.Has(s) {
			t.sq[s] = unreachable
		}
	}
	for c := engine.Red; c <= engine.Blue; c++ {
		entry := engine.Entry(c)
		var m [maxRoll]float64
		m[0] = t.sq[entry]
		for d := 2; d <= maxRoll; d++ {
			m[d-1] = inf
			e.reach[entry][d-1].Each(func(s engine.Square) {
				m[d-1] = min(m[d-1], t.sq[s])
			})
		}
		t.home[c] = min(solve(m), unreachable)
	}
}

// rollsTo returns the rolls (bit d-1 for roll d) with which colour x
// could land on s, from its pawns or, when home pawns wait there, from its
// house. reach holds
// what a pawn on s could reach: paths are the same both ways.
func rollsTo(x engine.Color, home int, s engine.Square, reach *[maxRoll + 1]engine.SquareSet, pawns *engine.SquareSet) uint8 {
	var r uint8
	for d := 1; d <= maxRoll; d++ {
		if reach[d][0]&pawns[0] != 0 || reach[d][1]&pawns[1] != 0 {
			r |= 1 << (d - 1)
		}
	}
	if home > 0 {
		entry := engine.Entry(x)
		if s == entry {
			r |= 1
		}
		for d := 2; d <= maxRoll; d++ {
			if reach[d-1].Has(entry) {
				r |= 1 << (d - 1)
			}
		}
	}
	return r
}

// colorTime returns the expected turns colour c needs, given the values of
// its pawns, of which home wait in the house.
func (e *evaluator) colorTime(vals []float64, homeVal float64, home int) float64 {
	// Keep the leader and the best backups, counting the house once.
	var best [4]float64
	n := 0
	insert := func(v float64) {
		if n < len(best) {
			best[n] = v
			n++
		} else if v < best[n-1] {
			best[n-1] = v
		} else {
			return
		}
		for j := n - 1; j > 0 && best[j] < best[j-1]; j-- {
			best[j], best[j-1] = best[j-1], best[j]
		}
	}
	for _, v := range vals {
		insert(v)
	}
	if home > 0 {
		insert(homeVal)
	}
	if n == 0 {
		return unreachable
	}
	rate := 1 / best[0]
	for i := 1; i < n && i <= e.p.backups; i++ {
		rate += e.p.backup / best[i]
	}
	return 1 / rate
}

// chanceAfter returns the estimated chance to win of pos's colour to move
// once it has played m for roll under r.
func (e *evaluator) chanceAfter(pos engine.Position, m engine.Move, roll int, r engine.Rules) float64 {
	me := pos.Turn()
	pos.Play(m, roll, r)
	return e.chances(&pos)[me]
}

// chances returns each colour's estimated chance to win from b.
func (e *evaluator) chances(b *engine.Position) [engine.NumColors]float64 {
	if e.nn != nil {
		return e.nn.chances(e, b, e.rules)
	}
	if e.td != nil {
		return e.td.chances(e, b, e.rules)
	}
	if e.model != nil {
		return e.model.chances(e, b, e.rules)
	}
	var out [engine.NumColors]float64
	if w := b.Winner(); w != engine.NoColor {
		out[w] = 1
		return out
	}
	ts, order, n := e.terms(b)
	sum := 0.0
	for i := 0; i < n; i++ {
		c := order[i]
		w := math.Pow(ts[c].total, -e.p.power)
		out[c] = w
		sum += w
	}
	for i := 0; i < n; i++ {
		out[order[i]] /= sum
	}
	return out
}

// colorTerms are the evaluation's terms for one colour: the numbers that
// chances turns into a win chance, and that the learned estimator (see
// model.go) and the explanations (explain.go) read.
type colorTerms struct {
	// base is the expected turns the colour's pawns need, threats aside.
	base float64
	// total is base with the expected loss from captures and the seat's
	// delay in the round added: the time chances compares.
	total float64
	// lead is the expected turns of the colour's best pawn (or of a pawn
	// in the house when that is better).
	lead float64
	// second is the same for its second-best pawn.
	second float64
	// seat is the colour's place in the round from the colour to move,
	// 0 to n-1, divided by n.
	seat float64
	// home is how many of its pawns wait in the house.
	home int
}

// terms returns the evaluation's terms of each colour in play in b, the
// colours in seat order from the colour to move and how many there are.
// b must not be over.
func (e *evaluator) terms(b *engine.Position) (ts [engine.NumColors]colorTerms, order [engine.NumColors]engine.Color, n int) {
	e.work++
	bars := b.BarricadeSet()
	t := e.table(bars)
	// Seat order from the colour to move.
	var homes [engine.NumColors]int
	for i, turn := 0, int(b.Turn()); i < engine.NumColors; i++ {
		if c := engine.Color((turn + i) % engine.NumColors); b.InPlay(c) {
			order[n], homes[c] = c, b.Home(c)
			n++
		}
	}
	// The pawns of each colour and their values.
	var (
		vals [engine.NumColors][engine.PawnsPerColor]float64
		sqs  [engine.NumColors][engine.PawnsPerColor]engine.Square
		cnt  [engine.NumColors]int
		set  [engine.NumColors]engine.SquareSet
	)
	b.PawnSet().Each(func(s engine.Square) { // in square order, as the board
		c := b.At(s).Color()
		if k := cnt[c]; k < engine.PawnsPerColor {
			vals[c][k], sqs[c][k] = t.sq[s], s
			cnt[c]++
			set[c].Add(s)
		}
	})
	for i := 0; i < n; i++ {
		c := order[i]
		k := cnt[c]
		vals, sqs := &vals[c], &sqs[c]
		home := homes[c]
		base := e.colorTime(vals[:k], t.home[c], home)
		lead, second := unreachable+0.0, unreachable+0.0
		if home > 0 {
			lead = t.home[c]
			if home > 1 {
				second = t.home[c]
			}
		}
		for j := 0; j < k; j++ {
			if v := vals[j]; v < lead {
				lead, second = v, lead
			} else if v < second {
				second = v
			}
		}
		total := base
		if (i > 0 && e.p.threat > 0) || e.p.counter > 0 {
			for j := 0; j < k; j++ {
				safe, escapable := 1.0, 1.0
				reach := e.reachOf(bars, sqs[j])
				last := i
				if e.p.counter > 0 {
					last = n
				}
				for x := 0; x < last; x++ {
					if x == i {
						continue
					}
					r := rollsTo(order[x], homes[order[x]], sqs[j], reach, &set[order[x]])
					if e.attack != nil && r != 0 {
						e.attack[order[x]] += float64(popcount8(r)) / maxRoll * max(t.home[c]-vals[j], 0)
					}
					switch {
					case r == 0:
					case x < i:
						safe *= 1 - float64(popcount8(r))/maxRoll
					default:
						escapable *= 1 - float64(popcount8(r))/maxRoll
					}
				}
				risk := e.p.threat*(1-safe) + e.p.counter*(1-escapable)
				if risk == 0 {
					continue
				}
				saved := vals[j]
				vals[j] = t.home[c]
				lost := e.colorTime(vals[:k], t.home[c], home)
				vals[j] = saved
				total += risk * (lost - base)
			}
		}
		seat := float64(i) / float64(n)
		ts[c] = colorTerms{base: base, total: total + seat, lead: lead, second: second, seat: seat, home: home}
	}
	return ts, order, n
}

func popcount8(x uint8) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// maxRoll is the highest roll of the die.
const maxRoll = engine.MaxRoll

// reachFrom adds to out[d] every square that a pawn on the root of trie,
// the Paths of its square, could land on with a roll of d, for d up to
// maxRoll: paths visit no square twice and pass no barricade of bars (they
// may end on one). Pieces are ignored otherwise. (The caller looks trie up
// so that reachFrom stays small enough to be inlined.)
func reachFrom(bars engine.SquareSet, trie []engine.PathStep, out *[maxRoll + 1]engine.SquareSet) {
	for i := 0; i < len(trie); {
		n := &trie[i]
		out[n.Steps].Add(n.Square)
		if bars.Has(n.Square) {
			i = int(n.Skip)
		} else {
			i++
		}
	}
}
