package ai

import (
	"hash/fnv"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/malefiz-discord/malefiz/engine"
)

// The card's chances. WinChances reads a position in a microsecond, but it
// was fitted to whole games of weak and middling players and misreads the
// positions where games end: a lone runner with four pawns at home, a wall
// of barricades before the goal, a near-goal race (issue 42 measured 7 %
// where the runner wins 38 %). The card plays the position out instead:
// short rollouts by the reply policy (what hard's search expects of every
// player), each cut after cardRounds rounds and valued there by
// WinChances, which is right more often the nearer the end. They cost a
// tenth of a second of CPU, so delivery asks for them (Budget) only as
// often as a share of a core allows, and the same position is read once.

const (
	// cardRollouts is how many rollouts the card's chances play, three
	// times each of the 36 pairs of first rolls: they keep the held-out
	// positions' chances within 8 points of the truth for 97.5 % of the
	// seats (72 rollouts: 96.4 %).
	cardRollouts = 108
	// cardRounds is after how many rounds (a turn of every colour) a
	// rollout stops and the model values the position: cut after 40
	// turns whatever the table's size, 108 rollouts brought 99 % of the
	// two-player seats near the truth but 93.5 % of the three- and
	// four-player ones; after 15 rounds 95.5 % of all, after 20 97.5 %.
	cardRounds = 20
)

// CardChances returns each colour's chance to win from pos under rules r
// as the card shows it: the mean over cardRollouts rollouts of the reply
// policy (ReplyPolicy), each played cardRounds rounds at most and then
// valued by WinChances (a finished rollout counts 1 for its winner). The
// first two rolls of the rollouts are stratified, rollout i throwing
// i mod 6 + 1 and then i/6 mod 6 + 1, and the rest of the dice are seeded
// by the position, so that the same position always reads the same.
// Indexed by colour, 0 for colours not in play, adding up to 1; in a
// finished game the winner has 1. About 0.1 s of CPU on positions late in
// a game (BenchmarkCardChances); the answer is kept for the next call with
// the same position (cardCache).
func CardChances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	if pos.Over() {
		return won(pos.Winner())
	}
	key := cardKey{pos, r}
	if ch, ok := cardCache.get(key); ok {
		return ch
	}
	ch := cardChances(pos, r)
	cardCache.put(key, ch)
	return ch
}

// cardChances is CardChances without the cache.
func cardChances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	var out [engine.NumColors]float64
	seed := positionSeed(pos, r)
	horizon := cardRounds * len(pos.Players())
	s := searcher{e: newEvaluator(defaultParams), rules: r}
	for i := range cardRollouts {
		rng := rand.New(rand.NewPCG(splitmix(seed, uint64(i)), 0x63617264)) // "card"
		b := pos
		for t := 0; t < horizon && !b.Over(); t++ {
			roll := rng.IntN(maxRoll) + 1
			switch t {
			case 0:
				roll = i%maxRoll + 1
			case 1:
				roll = (i/maxRoll)%maxRoll + 1
			}
			if len(s.e.cache) > 4096 {
				s.e.cache = make(map[engine.SquareSet]*valueTable)
			}
			b, _ = s.reply(&b, roll, replyPlacements)
		}
		var leaf [engine.NumColors]float64
		if b.Over() {
			leaf[b.Winner()] = 1
		} else {
			leaf = WinChances(b, r)
		}
		for c := range out {
			out[c] += leaf[c]
		}
	}
	for c := range out {
		out[c] /= cardRollouts
	}
	return out
}

// positionSeed is the seed of pos's rollouts under r: a hash of its text.
func positionSeed(pos engine.Position, r engine.Rules) uint64 {
	h := fnv.New64a()
	h.Write([]byte(pos.String()))
	var rules byte
	if r.SixAgain {
		rules |= 1
	}
	if r.SafeRow2 {
		rules |= 2
	}
	h.Write([]byte{rules})
	return h.Sum64()
}

// cardKey is what the card's chances depend on.
type cardKey struct {
	pos   engine.Position
	rules engine.Rules
}

// cardCache keeps the card's chances of the positions read last: a game's
// card, its live board and the Activity's viewers ask for the same
// position, often more than once.
var cardCache = chanceCache{max: 1024}

// chanceCache is a concurrency-safe map of chances by position, emptied
// when it holds max of them (about 200 bytes each).
type chanceCache struct {
	mu  sync.Mutex
	max int
	m   map[cardKey][engine.NumColors]float64
}

func (c *chanceCache) get(k cardKey) ([engine.NumColors]float64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch, ok := c.m[k]
	return ch, ok
}

func (c *chanceCache) put(k cardKey, ch [engine.NumColors]float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.max {
		c.m = make(map[cardKey][engine.NumColors]float64, c.max)
	}
	c.m[k] = ch
}

// Budget reads the card's chances within a share of one core: CardChances
// while the rollouts it ran took at most Share of the time since it was
// made (counted over the last BudgetWindow at most), one at a time; else,
// and for the position already read, what is at hand: the chances kept for
// the position, or SteadyChances, the learned model's, which cost well
// under a millisecond. A busy process thus shows the model's chances
// rather than fall behind. Safe for concurrent use.
type Budget struct {
	// Share is the share of one core the rollouts may take: 0.25 is a
	// quarter.
	Share float64
	// Now is the clock; nil is time.Now.
	Now func() time.Time

	run    sync.Mutex // held while rollouts run: one at a time
	mu     sync.Mutex
	spent  time.Duration // the rollouts' time not yet earned back
	since  time.Time     // when spent was last brought up to date
	misses int           // estimates that got the model's chances
}

// BudgetWindow is how much unused time a Budget saves up: after a quiet
// hour it allows a minute's worth of its share at once, not the hour's.
const BudgetWindow = time.Minute

// Chances returns the card's chances of pos under r within the budget.
func (b *Budget) Chances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	if pos.Over() {
		return won(pos.Winner())
	}
	key := cardKey{pos, r}
	if ch, ok := cardCache.get(key); ok {
		return ch
	}
	if !b.allowed() || !b.run.TryLock() {
		b.mu.Lock()
		b.misses++
		b.mu.Unlock()
		return SteadyChances(pos, r)
	}
	defer b.run.Unlock()
	start := b.now()
	ch := cardChances(pos, r)
	cardCache.put(key, ch)
	b.mu.Lock()
	b.spent += b.now().Sub(start)
	b.mu.Unlock()
	return ch
}

// Misses is how many estimates got the model's chances for want of time.
func (b *Budget) Misses() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.misses
}

// allowed reports whether the rollouts are within the share: the time
// they took, less Share of the time gone by, is not above zero.
func (b *Budget) allowed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if b.since.IsZero() {
		b.since = now
	}
	earned := time.Duration(b.Share * float64(now.Sub(b.since)))
	b.since = now
	b.spent -= earned
	if floor := -time.Duration(b.Share * float64(BudgetWindow)); b.spent < floor {
		b.spent = floor
	}
	return b.spent <= 0 && b.Share > 0
}

func (b *Budget) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}
