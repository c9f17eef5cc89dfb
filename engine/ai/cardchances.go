package ai

import (
	"hash/fnv"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
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
// tenth of a second of CPU or more, so nothing waits for them: delivery
// sends the card with the chances known at once (KnownChances) and has
// them read in the background within a share of a core (Budget), and the
// same position is read once.

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
// finished game the winner has 1. About 0.17 s of CPU on positions late
// in a game, 0.33 s on average over whole games (BenchmarkCardChances);
// the answer is kept for the next call with the same position
// (cardCache).
func CardChances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	if ch, ok := knownChances(pos, r); ok {
		return ch
	}
	key := cardKey{pos, r}
	ch := cardChances(pos, r, nil)
	cardCache.put(key, ch)
	return ch
}

// cardChances is CardChances without the cache; pace, when set, is told
// how long each rollout took, and may wait before the next.
func cardChances(pos engine.Position, r engine.Rules, pace func(took time.Duration)) [engine.NumColors]float64 {
	var out [engine.NumColors]float64
	seed := positionSeed(pos, r)
	horizon := cardRounds * len(pos.Players())
	e := cardEvaluators.Get().(*evaluator)
	defer func() {
		e.forget()
		cardEvaluators.Put(e)
	}()
	s := searcher{e: e, rules: r}
	for i := range cardRollouts {
		start := time.Now()
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
			if len(e.cache) > maxCardTables {
				e.forget()
			}
			b, _ = s.reply(&b, roll, replyPlacements)
		}
		var leaf [engine.NumColors]float64
		if b.Over() {
			leaf[b.Winner()] = 1
		} else {
			leaf = learned.chances(e, &b, r)
		}
		for c := range out {
			out[c] += leaf[c]
		}
		if pace != nil {
			pace(time.Since(start))
		} else {
			// A few milliseconds a rollout: what else the process has
			// to do goes first rather than wait for the scheduler to
			// take the processor back.
			runtime.Gosched()
		}
	}
	for c := range out {
		out[c] /= cardRollouts
	}
	return out
}

// cardEvaluators are the evaluators of the card's rollouts, each with
// tables of its own (evaluator.private) for the next estimate.
var cardEvaluators = sync.Pool{New: func() any {
	e := newEvaluator(defaultParams)
	e.private = true
	return e
}}

// maxCardTables bounds the tables a card's evaluator keeps (about 1 KiB
// each).
const maxCardTables = 1024

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

// cardCache keeps the card's chances of the positions read last (about
// 200 bytes each): a game's card, its edits and a click's answer ask for
// the same position, often more than once.
var cardCache = boundedCache[cardKey, [engine.NumColors]float64]{max: 1024}

// Budget reads the card's chances within a share of one core, in the
// background: one estimate at a time, paced (after each rollout it waits,
// so that its rollouts take at most Share of the time). A rollout takes a
// few milliseconds, so what else the process has to do (a click's answer)
// never waits behind a burst of them; an estimate takes a second or so at
// a quarter of a core, which nobody waits for: the card goes with the
// chances known at once (KnownChances) and is edited again when the
// estimate is done. Safe for concurrent use.
type Budget struct {
	// Share is the share of one core the rollouts may take: 0.25 is a
	// quarter. 0 reads none.
	Share float64
	// Sleep waits; nil is time.Sleep.
	Sleep func(time.Duration)

	run    sync.Mutex // held while an estimate runs
	misses atomic.Int64
}

// Later starts reading the card's chances of pos under r and returns
// where they will come (once, then closed), or nil when they will not:
// they are known already (KnownChances has them), or another estimate is
// running (counted in Misses), or the share is 0.
func (b *Budget) Later(pos engine.Position, r engine.Rules) <-chan [engine.NumColors]float64 {
	if _, ok := knownChances(pos, r); ok || b.Share <= 0 {
		return nil
	}
	if !b.run.TryLock() {
		b.misses.Add(1)
		return nil
	}
	out := make(chan [engine.NumColors]float64, 1)
	go func() {
		defer close(out)
		defer b.run.Unlock()
		ch := cardChances(pos, r, b.pace)
		cardCache.put(cardKey{pos, r}, ch)
		out <- ch
	}()
	return out
}

// pace waits after a rollout that took took: what keeps the rollouts to
// the share.
func (b *Budget) pace(took time.Duration) {
	wait := time.Duration(float64(took) * (1/min(b.Share, 1) - 1))
	if wait <= 0 {
		return
	}
	if b.Sleep != nil {
		b.Sleep(wait)
		return
	}
	time.Sleep(wait)
}

// Misses is how many estimates were not started, another running.
func (b *Budget) Misses() int { return int(b.misses.Load()) }

// KnownChances returns the card's chances of pos under r when they have
// been read (CardChances, a Budget), else the learned model's
// (SteadyChances): what a view that must not wait shows.
func KnownChances(pos engine.Position, r engine.Rules) [engine.NumColors]float64 {
	if ch, ok := knownChances(pos, r); ok {
		return ch
	}
	return SteadyChances(pos, r)
}

// knownChances returns the chances of a finished game, or those kept for
// pos; ok is false for a position not read yet.
func knownChances(pos engine.Position, r engine.Rules) ([engine.NumColors]float64, bool) {
	if pos.Over() {
		return won(pos.Winner()), true
	}
	return cardCache.get(cardKey{pos, r})
}
