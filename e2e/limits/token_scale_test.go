package limits

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// tokenGames are the loads BenchmarkTokenThroughput offers: games played
// at once, each as fast as its players can click. The next turn card goes
// as a follow-up of the click (an interaction route: no global limit, a
// bucket per token) and a game's card edits wait in their own queue, at
// most one every few seconds; so the globally limited requests are mostly
// the cards' edits, and the load is bounded by the machine's CPU before
// the token's limit. (With the bot of 0222bf0 every turn posted its card
// and edited the channel's card with the bot token: 2.2 globally limited
// requests per turn, 10 games were under the global limit and 50 twice it.)
var tokenGames = []int{10, 50, 100}

// tokenDMs are the players' settings BenchmarkTokenThroughput measures:
// none (no sub-benchmark level), and with direct messages on
// (/malefiz notify dm:true) at 10 and 50 games: dms=on, a DM on the turn
// of a player who has not acted in the game for 10 minutes (QuietFor), so
// players clicking as fast as they can get one for their first turn only;
// dms=always, with ping:always too, a DM every turn.
var tokenDMs = []struct {
	name  string
	users malefiz.UserSettings
	games []int
}{
	{"", malefiz.UserSettings{}, tokenGames},
	{"on", malefiz.UserSettings{DM: true}, []int{10, 50}},
	{"always", malefiz.UserSettings{DM: true, PingAlways: true}, []int{10, 50}},
}

// BenchmarkTokenThroughput measures what one bot token carries against a
// Discord that enforces its limits: the bot runs as its own process (as in
// BenchmarkClickRate) in http mode against the stand-in with
// fakediscord.DefaultLimits, on games with threads, each game in a channel
// of its own, its two players clicking (Roll, then the first move, then
// the first placement) as soon as their turn card is there. Each op is one
// human turn (a click that passed the turn to the other player). It
// reports
//
//   - global/turn: the requests counted against the global limit per human
//     turn;
//   - turns/s: the human turns played per second, all games together;
//   - p99-turn-post-ms: the 99th percentile of the delay from the answer to
//     the click that ended a turn to the next turn card being in the thread
//     (the message's creation in the stand-in);
//   - 429-user/1k-req, 429-global/1k-req, 429-shared/1k-req: the 429s per
//     1,000 requests by scope;
//   - peak-invalid/10min: the most invalid requests (401, 403, 429 but
//     shared) in any ten minutes of the run, and invalid/10min-rate the
//     run's invalid requests per ten minutes at its pace.
//
// It logs the direct messages sent and the DM channels opened, and reports
// dm/turn, the DMs per human turn.
//
// Sub-benchmarks by database (db=sqlite; db=postgres with
// MALEFIZ_TEST_POSTGRES_URL), load (games=10, games=50, games=100) and
// the players' direct messages (tokenDMs: dms=on, dms=always). Run it
// with a count of turns, such as -benchtime=300x; the games are opened
// once per sub-benchmark and each run starts a new child.
func BenchmarkTokenThroughput(b *testing.B) {
	for _, d := range databases(b) {
		for _, dms := range tokenDMs {
			for _, games := range dms.games {
				name := fmt.Sprintf("db=%s/games=%d", d.Name, games)
				if dms.name != "" {
					name += "/dms=" + dms.name
				}
				var r *clickRig
				b.Run(name, func(sub *testing.B) {
					if r == nil {
						r = newRig(b, sub, d, games, true, dms.users)
					}
					r.throughput(sub)
				})
			}
		}
	}
}

// turnTimeout bounds the wait for a turn card.
const turnTimeout = time.Minute

// throughput starts a child, plays every game until b.N human turns ended
// in all (or the games are over), and reports the figures.
func (r *clickRig) throughput(b *testing.B) {
	child := r.start(b)
	defer child.stop(b)
	before := r.fake.LimitStats()
	callsBefore := len(r.fake.Calls())
	var (
		mu      sync.Mutex
		delays  []time.Duration
		turns   atomic.Int64
		failed  atomic.Int64
		wg      sync.WaitGroup
		ctx, cc = context.WithTimeout(b.Context(), 10*time.Minute)
	)
	defer cc()
	b.ResetTimer()
	began := time.Now()
	for _, t := range r.tables {
		wg.Go(func() {
			for turns.Load() < int64(b.N) && ctx.Err() == nil {
				d, ended, over := r.playClick(ctx, t)
				switch {
				case over:
					return
				case d < 0:
					failed.Add(1)
				case ended:
					turns.Add(1)
					mu.Lock()
					delays = append(delays, d)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(began)
	b.StopTimer()
	after := r.fake.LimitStats()
	n := turns.Load()
	require.Positive(b, n, "no turn was played; stderr: %s", child.stderr)

	requests := after.Requests - before.Requests
	per1k := func(scope string) float64 {
		return 1000 * float64(after.Limited[scope]-before.Limited[scope]) / float64(max(requests, 1))
	}
	slices.Sort(delays)
	p99 := time.Duration(0)
	if len(delays) > 0 {
		p99 = delays[int(0.99*float64(len(delays)-1))]
	}
	invalid := after.Invalid - before.Invalid
	opens, refusedOpens, dms := r.directMessages(callsBefore)
	b.Logf("%d games: %d human turns in %v, %d clicks refused or lost, %d requests (%d global, %d exempt; %d DMs, %d DM channels opened, %d opens refused), 429s user %d global %d shared %d, %d invalid, banned %v",
		len(r.tables), n, elapsed.Round(time.Millisecond), failed.Load(), requests, after.GlobalCounted-before.GlobalCounted,
		after.Exempt-before.Exempt, dms, opens, refusedOpens, after.Limited[fakediscord.ScopeUser]-before.Limited[fakediscord.ScopeUser],
		after.Limited[fakediscord.ScopeGlobal]-before.Limited[fakediscord.ScopeGlobal],
		after.Limited[fakediscord.ScopeShared]-before.Limited[fakediscord.ScopeShared], invalid, after.Banned)
	b.ReportMetric(float64(after.GlobalCounted-before.GlobalCounted)/float64(n), "global/turn")
	b.ReportMetric(float64(dms)/float64(n), "dm/turn")
	b.ReportMetric(float64(n)/elapsed.Seconds(), "turns/s")
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-turn-post-ms")
	b.ReportMetric(per1k(fakediscord.ScopeUser), "429-user/1k-req")
	b.ReportMetric(per1k(fakediscord.ScopeGlobal), "429-global/1k-req")
	b.ReportMetric(per1k(fakediscord.ScopeShared), "429-shared/1k-req")
	b.ReportMetric(float64(after.PeakInvalid), "peak-invalid/10min")
	b.ReportMetric(float64(invalid)/elapsed.Minutes()*10, "invalid/10min-rate")
}

// directMessages counts, in the fake's calls from the index from on, the
// DM channels opened, the opens Discord refused (40003, opened too fast:
// the DM waits for a retry) and the direct messages posted to the players.
func (r *clickRig) directMessages(from int) (opens, refused, dms int) {
	channels := map[string]bool{}
	for _, t := range r.tables {
		for _, p := range t.players {
			if ch, ok := r.fake.DMChannel(p); ok {
				channels[ch] = true
			}
		}
	}
	for _, c := range r.fake.Calls()[from:] {
		switch {
		case c.Route == fakediscord.RouteDMCreate && c.OK():
			opens++
		case c.Route == fakediscord.RouteDMCreate && c.Status == http.StatusBadRequest:
			refused++
		case c.Route == fakediscord.RouteMessageCreate && c.OK() && channels[c.Param("channel")]:
			dms++
		}
	}
	return opens, refused, dms
}

// playClick makes the next click of a game. It returns whether the click
// ended a human turn and, if so, the delay from its answer to the next turn
// card in the thread; over when the game is over; a negative delay when no
// click could be made or it was not answered.
func (r *clickRig) playClick(ctx context.Context, t *clickTable) (delay time.Duration, ended, over bool) {
	sg, err := r.db.Game(ctx, t.id)
	if err != nil || len(sg.State) == 0 {
		return -1, false, ctx.Err() != nil
	}
	var g engine.Game
	if err := g.UnmarshalSnapshot(sg.State); err != nil {
		return -1, false, true
	}
	if g.Over() {
		return 0, false, true
	}
	turn, card := g.TurnNumber(), sg.TurnMessageID
	inv, ok := nextClick(ctx, r.db, r.fake, t.id, t.players)
	if !ok {
		time.Sleep(10 * time.Millisecond) // the turn card is on its way
		return 0, false, false
	}
	cctx, cancel := context.WithTimeout(ctx, clickTimeout)
	_, err = r.fake.Click(cctx, inv)
	cancel()
	answered := time.Now()
	if err != nil {
		time.Sleep(10 * time.Millisecond)
		return -1, false, false
	}
	for wait := time.Now().Add(turnTimeout); time.Now().Before(wait) && ctx.Err() == nil; time.Sleep(5 * time.Millisecond) {
		sg, err = r.db.Game(ctx, t.id)
		if err != nil || g.UnmarshalSnapshot(sg.State) != nil {
			continue
		}
		if g.TurnNumber() == turn && !g.Over() {
			return 0, false, false // the turn goes on: a roll, a move before its placement
		}
		if g.Over() {
			return 0, true, true
		}
		if sg.TurnMessageID == "" || sg.TurnMessageID == card {
			continue // the next turn card is not posted yet
		}
		m, ok := r.fake.Message(sg.TurnMessageID)
		if !ok {
			continue
		}
		return max(m.Created.Sub(answered), 0), true, false
	}
	return -1, false, false
}
