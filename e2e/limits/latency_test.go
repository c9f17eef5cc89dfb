package limits

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/serve"
	"github.com/malefiz-discord/malefiz/store"
)

// BenchmarkInteractionLatency measures the time from an interaction's
// dispatch by the fake Discord to the bot's answer (load, rules, render,
// commit, respond) with 50 games running and clicks arriving at 20 per
// second in all, spread over the games. Each op is one click; run it with
// -benchtime=400x or more for a stable 99th percentile. Per click it also
// reports the boards drawn (renders/click), the read and write
// transactions of the bot (reads/click, writes/click, the outbox's
// delivery records included; the benchmark reads the game for its next
// click through a handle of its own, which is not counted) and the REST
// calls Discord got (rest/click, the answer included). It runs twice: with
// the coach off, and on (coach=on), where every move of the two people of
// each game is graded in the background; graded/click is the rolls graded
// by the end of the run per click.
func BenchmarkInteractionLatency(b *testing.B) {
	for _, coach := range []bool{false, true} {
		name := "coach=off"
		if coach {
			name = "coach=on"
		}
		b.Run(name, func(b *testing.B) { benchmarkClicksCoached(b, harness.New, 50, 20, coach) })
	}
}

// benchmarkClicks runs the program made by newH with games two-player
// games and sends clicks at perSecond in all, spread over the games; it
// reports the latency percentiles of the answered clicks.
func benchmarkClicks(b *testing.B, newH func(testing.TB, ...fakediscord.Option) *harness.Harness, games, perSecond int) {
	benchmarkClicksCoached(b, newH, games, perSecond, false)
}

// BenchmarkCoachKeepsUp plays clicks at 50, 100 and 200 a second with the
// coach on, over as many two-player games as clicks a second (each game
// about a click a second), and samples the coach's backlog each second:
// the games waiting for it and how long the oldest has waited. With
// [game] coach_behind at 5 s (10 minutes by default) the wait stays near
// that bound however far the clicks outrun the coach: past it a game's
// waiting moves are skipped, not graded. Per click it reports the bot's
// reads and writes apart from the coach's, the rolls graded and skipped by
// the end, and the backlog's largest figures; -v logs the backlog second
// by second. One op is one click: -benchtime 4000x plays 80, 40 and 20 s.
func BenchmarkCoachKeepsUp(b *testing.B) {
	for _, rate := range []int{50, 100, 200} {
		b.Run(fmt.Sprintf("clicks=%d/s", rate), func(b *testing.B) {
			newH := func(tb testing.TB, opts ...fakediscord.Option) *harness.Harness {
				h := harness.New(tb, opts...)
				h.Configure = func(c *serve.Config) { c.Game.CoachBehind = 5 * time.Second }
				return h
			}
			benchmarkClicksCoached(b, newH, rate, rate, true)
		})
	}
}

// benchmarkClicksCoached is benchmarkClicks with the coach on or off.
func benchmarkClicksCoached(b *testing.B, newH func(testing.TB, ...fakediscord.Option) *harness.Harness, games, perSecond int, coach bool) {
	channels := make([]string, games)
	for i := range channels {
		channels[i] = fmt.Sprintf("2000000000000%05d", i)
	}
	var renders atomic.Int64
	h := newH(b, fakediscord.WithGuild(fakediscord.Guild{Channels: channels}))
	h.Stop()
	h.Coach = coach
	h.BotOptions = func(c *bot.Config) {
		render := c.Hooks.Render
		c.Hooks.Render = func(d time.Duration) {
			renders.Add(1)
			if render != nil {
				render(d)
			}
		}
	}
	h.Start()
	// The benchmark's own reads go through a handle of their own, so that
	// the program's counts are the bot's.
	reader, err := store.Open(context.Background(), h.Main.Config.Database.Path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { reader.Close() })
	type table struct {
		mu      sync.Mutex
		id      int64
		players [2]string
	}
	tables := make([]*table, games)
	for i, ch := range channels {
		a, c := fmt.Sprintf("3000000000000%05d", 2*i), fmt.Sprintf("3000000000000%05d", 2*i+1)
		resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: a, Channel: ch, Name: "malefiz", Sub: "new", Options: map[string]any{"seats": 2}})
		if err != nil {
			b.Fatal(err)
		}
		lobby := *resp.Message
		h.Click(c, lobby.ID, harness.Control(b, lobby, bot.ActJoin))
		id, _ := bot.ParseCustomID(harness.Control(b, lobby, bot.ActStart))
		h.Click(a, lobby.ID, harness.Control(b, lobby, bot.ActStart))
		tables[i] = &table{id: id.Game, players: [2]string{a, c}}
	}
	// step performs the next click of a game: Roll on the turn message, or
	// the first move on the message showing the moves.
	step := func(t *table) (time.Duration, bool) {
		t.mu.Lock()
		defer t.mu.Unlock()
		inv, ok := nextClick(context.Background(), reader, h.Fake, t.id, t.players)
		if !ok {
			return 0, false
		}
		resp, err := h.Fake.Click(h.Ctx(), inv)
		if err != nil {
			return 0, false
		}
		return resp.Latency, true
	}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		wg        sync.WaitGroup
	)
	// The coach's backlog, sampled each second through the benchmark's
	// own handle.
	var (
		backlogs   []store.Backlog
		sampleDone = make(chan struct{})
		stopSample = make(chan struct{})
	)
	if coach {
		go func() {
			defer close(sampleDone)
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-stopSample:
					return
				case <-t.C:
				}
				bl, err := reader.CoachBacklog(context.Background())
				if err != nil {
					b.Error(err)
					return
				}
				backlogs = append(backlogs, bl)
			}
		}()
	} else {
		close(sampleDone)
	}
	tick := time.NewTicker(time.Second / time.Duration(perSecond))
	defer tick.Stop()
	before := h.Main.DB().Counts()
	rendersBefore, restBefore := renders.Load(), len(h.Fake.Calls())
	began := time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		<-tick.C
		wg.Add(1)
		go func(t *table) {
			defer wg.Done()
			if d, ok := step(t); ok {
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
			}
		}(tables[i%games])
	}
	wg.Wait()
	b.StopTimer()
	elapsed := time.Since(began)
	close(stopSample)
	<-sampleDone
	if len(latencies) == 0 {
		b.Fatal("no click was answered")
	}
	slices.Sort(latencies)
	pct := func(p float64) float64 {
		return float64(latencies[int(p*float64(len(latencies)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(len(latencies)), "clicks")
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "answered/s")
	// Let the deliveries of the last clicks finish before counting.
	time.Sleep(500 * time.Millisecond)
	after := h.Main.DB().Counts()
	clicks := float64(len(latencies))
	// Per click: boards drawn, read transactions, commits of a change
	// (state, events and effects together), every write transaction (the
	// outbox's delivery records included) and the REST calls Discord got
	// (the interaction's answer included).
	b.ReportMetric(float64(renders.Load()-rendersBefore)/clicks, "renders/click")
	// The coach's own reads and writes (its claims, its reads of the
	// games it grades, its grades) run beside the clicks: reported apart.
	coachReads, coachWrites := after.CoachReads-before.CoachReads, after.CoachWrites-before.CoachWrites
	b.ReportMetric(float64(after.Reads-before.Reads-coachReads)/clicks, "reads/click")
	b.ReportMetric(float64(after.Changes-before.Changes)/clicks, "commits/click")
	b.ReportMetric(float64(after.Writes-before.Writes-coachWrites)/clicks, "writes/click")
	b.ReportMetric(float64(len(h.Fake.Calls())-restBefore)/clicks, "rest/click")
	if coach {
		b.ReportMetric(float64(coachReads)/clicks, "coach-reads/click")
		b.ReportMetric(float64(coachWrites)/clicks, "coach-writes/click")
		graded, skipped := 0, 0
		for _, t := range tables {
			grades, _, err := reader.Grades(context.Background(), t.id)
			if err != nil {
				b.Fatal(err)
			}
			for _, g := range grades {
				if g.Skipped {
					skipped++
				} else {
					graded++
				}
			}
		}
		b.ReportMetric(float64(graded)/clicks, "graded/click")
		b.ReportMetric(float64(skipped)/clicks, "skipped/click")
		var most store.Backlog
		for i, bl := range backlogs {
			b.Logf("%3d s: %d games wait for the coach (%d finished), the oldest %.1f s", i+1, bl.Games, bl.Finished, bl.Oldest.Seconds())
			most.Games, most.Oldest = max(most.Games, bl.Games), max(most.Oldest, bl.Oldest)
		}
		b.ReportMetric(float64(most.Games), "backlog-max-games")
		b.ReportMetric(most.Oldest.Seconds(), "backlog-max-wait-s")
	}
}

// nextClick is the next click of a benchmark's two-player game: Roll on its
// turn message, or the first move (or square) on the message showing the
// moves; false once the game is over or while its next turn message is on
// its way. It reads the game's stored snapshot, not its whole log: the
// test's own work takes CPU from the bot it measures. Games played so never
// end (40 two-player games of first moves, random rolls: no winner after
// 3,000 turns each): a test that needs games to end races instead
// (racingMoveButton, playRacing).
func nextClick(ctx context.Context, db *store.DB, fake *fakediscord.Fake, id int64, players [2]string) (fakediscord.Invocation, bool) {
	sg, err := db.Game(ctx, id)
	if err != nil || len(sg.State) == 0 {
		return fakediscord.Invocation{}, false
	}
	var g engine.Game
	if err := g.UnmarshalSnapshot(sg.State); err != nil || g.Over() {
		return fakediscord.Invocation{}, false
	}
	m, ok := fake.Message(sg.TurnMessageID)
	if !ok {
		return fakediscord.Invocation{}, false
	}
	var customID string
	for _, cid := range m.CustomIDs() {
		if strings.HasPrefix(cid, "mf/roll/") || strings.HasPrefix(cid, "mf/move/") || strings.HasPrefix(cid, "mf/place/") {
			customID = cid
			break
		}
	}
	if customID == "" {
		return fakediscord.Invocation{}, false
	}
	player := players[0]
	if g.Turn() != 0 {
		player = players[1]
	}
	inv := fakediscord.Invocation{User: player, MessageID: m.ID, CustomID: customID}
	if c, _ := m.Component(customID); len(c.Options) > 0 {
		inv.Values = []string{c.Options[0].Value}
	}
	return inv, true
}
