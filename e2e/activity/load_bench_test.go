package activity

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/activity"
	gametable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/game"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// The sizes of BenchmarkActivityLoad, the by default.
var (
	loadSockets = flag.Int("load-sockets", 2000, "BenchmarkActivityLoad: live sockets, two per watching user")
	loadGames   = flag.Int("load-games", 200, "BenchmarkActivityLoad: running games the sockets watch")
	loadRate    = flag.Int("load-rate", 100, "BenchmarkActivityLoad: plays a second, over all the games")
	loadSilent  = flag.Int("load-silent", 10000, "BenchmarkActivityLoad: sockets that offer no session, in the second case")
	loadPin     = flag.Bool("load-pin", false, "BenchmarkActivityLoad/silent: the silent dialer on the last CPU, the server on the others")
	// loadSilentProfile is for finding where the silent sockets' time
	// goes: the test's -cpuprofile covers the whole run, the setup
	// included.
	loadSilentProfile = flag.String("load-silent-profile", "", "BenchmarkActivityLoad/silent: write a CPU profile of the plays with the silent sockets to this file")
)

// BenchmarkActivityLoad holds the Activity's load on one process, the real
// program (the sandbox: the service, the store, the Activity's server)
// with the Discord stand-in: -load-sockets live sockets (two per user,
// each user signed in once) watching -load-games running games, while
// -load-rate plays a second are committed through the service, each on the
// next game in turn. One op is one second of plays at that rate.
//
//   - watched: push-p50-ms and push-p99-ms, from a play's start to each
//     socket of its game reading the new state; play-p99-ms, the play's
//     own time (lock, decision, commit); rss-MB of the process (the
//     server and the test's clients) with every socket open;
//     goroutines-before the sockets opened and goroutines-after they
//     closed (none left behind: TestActivityLoadLeavesNothingBehind).
//
//   - silent: what sockets that offer no session (refused before the
//     upgrade, 401), from one client address, cost the plays. Each op is three seconds of plays: a quiet
//     one; a silent one, while -load-silent/N sockets (with -benchtime 5x
//     and the default 10,000, 2,000) connect evenly over it; and a burnt
//     one, while the dialer dials nothing and only spends as much CPU
//     time as it did dialing (the mean of its silent seconds so far): the
//     attacker's CPU on these shared cores without its sockets. After a
//     second of plays unmeasured, the three take turns in every order, so
//     that each sees the same machine, whose other work comes and goes.
//     The sockets come from another process, the test binary run as a
//     bare dialer (see runSilentDialer), so that the attacker's CPU is
//     not counted as the server's. Reported: the plays' p50 and p99 of
//     each kind (suffix -silent, -burnt), play-p99-ratio (silent over
//     quiet: the issue asks for at most 1.2), play-p99-ratio-burnt
//     (burnt over quiet: the attacker's CPU alone) and
//     play-p99-silent/burnt (silent over burnt: what the server's
//     handling of the sockets costs, the attacker's CPU aside);
//     per second of each kind, its tail (the last pushes) included, for
//     the benchmark's process (the server, the watchers' sockets, the
//     plays): cpu-ms/s, its CPU time; preempted/s, the times the kernel
//     took a CPU from one of its threads that could have gone on; gc/s,
//     its GC cycles; and sched-p99-us, the 99th percentile of its
//     goroutines' waits to run once runnable; cpu-us/silent-dial, what it spent more per second
//     silent than quiet, per silent socket; dialer-cpu-ms/s, the
//     dialer's, silent and burnt; silent-asked/s and silent-offered/s,
//     the rate asked and the rate the dialer kept up (fewer when it
//     could not: it says so rather than bursting); how many it dialed,
//     how many the server took (101) and refused (401: no session; 429:
//     too many new of one user; 503: too many in all), and how many
//     failed before an answer. With -load-pin (Linux) the dialer runs on
//     the last CPU and the server (this process: the service, the store,
//     the Activity's server, and the test's own watchers and plays) on
//     the others, in every kind of second: the attacker off the server's
//     cores, as a real one is. On two CPUs the server then has one.
//
//     go test -run '^$' -bench ActivityLoad -benchtime 5x -timeout 30m ./e2e/activity
func BenchmarkActivityLoad(b *testing.B) {
	sizes := loadSizes{sockets: *loadSockets, games: *loadGames, rate: *loadRate}
	b.Run("watched", func(b *testing.B) {
		l := startLoad(b, sizes)
		b.ResetTimer()
		r := l.play(b, time.Duration(b.N)*time.Second)
		b.StopTimer()
		rss := rssMB()
		l.close(b)
		r.report(b, "")
		b.ReportMetric(rss, "rss-MB")
		b.ReportMetric(float64(l.goroutines), "goroutines-before")
		b.ReportMetric(float64(l.settled(b)), "goroutines-after")
	})
	b.Run("silent", func(b *testing.B) {
		var dialerCPUs []int
		if *loadPin {
			var err error
			dialerCPUs, err = pinServer()
			require.NoError(b, err)
		}
		l := startLoad(b, sizes)
		dialer := startSilentDialer(b, silentSpec{Addr: strings.TrimPrefix(l.srv.URL, "http://"),
			Path: fmt.Sprintf("/.proxy/api/games/%d/live", l.ids[0]), Forwarded: silentAddr, N: *loadSilent / b.N, D: time.Second,
			CPUs: dialerCPUs})
		l.play(b, time.Second) // the setup's own work settles
		b.ResetTimer()
		stopProfile := profilePhase(b, *loadSilentProfile)
		// Each op is a quiet second, a silent one, and one while the
		// dialer only burns as much CPU time as it used dialing (the
		// mean of its silent seconds so far): the attacker's CPU on these
		// shared cores, without its sockets. The three take turns in
		// every order, so that each sees the same machine, whose other
		// work comes and goes, and falls as often after each other kind.
		type kind int
		const (
			quiet kind = iota
			silent
			burnt
		)
		var (
			runs      [3]loadRun
			proc      [3]procStats // the process's
			dialerCPU [3]time.Duration
			seconds   [3]int
		)
		second := func(k kind) {
			switch k {
			case silent:
				dialer.dial(b)
			case burnt:
				dialer.burn(b, dialerCPU[silent]/time.Duration(max(1, seconds[silent])))
			}
			before := readProcStats()
			runs[k].add(l.play(b, time.Second))
			proc[k].add(readProcStats().since(before))
			if k != quiet {
				dialerCPU[k] += dialer.done(b)
			}
			seconds[k]++
		}
		orders := [][3]kind{{quiet, silent, burnt}, {burnt, silent, quiet}, {silent, quiet, burnt},
			{burnt, quiet, silent}, {quiet, burnt, silent}, {silent, burnt, quiet}} // a burnt second after a silent one
		for i := range b.N {
			for _, k := range orders[i%len(orders)] {
				second(k)
			}
		}
		stopProfile()
		res := dialer.stop(b)
		b.StopTimer()
		l.close(b)
		runs[quiet].report(b, "")
		runs[silent].report(b, "-silent")
		runs[burnt].report(b, "-burnt")
		p99 := func(k kind) float64 { return ms(runs[k].play(0.99)) }
		b.ReportMetric(p99(silent)/p99(quiet), "play-p99-ratio")
		b.ReportMetric(p99(burnt)/p99(quiet), "play-p99-ratio-burnt")
		// The sockets' cost to the plays, the attacker's CPU aside: silent
		// over burnt, both with the dialer spending the same CPU time.
		b.ReportMetric(p99(silent)/p99(burnt), "play-p99-silent/burnt")
		// Per second of plays asked, its tail (the last pushes) included:
		// a second that runs late is not made to look cheaper.
		cpuPerSecond := func(k kind) float64 { return ms(proc[k].cpu) / float64(seconds[k]) }
		for k, suffix := range []string{"", "-silent", "-burnt"} {
			n := float64(seconds[k])
			b.ReportMetric(cpuPerSecond(kind(k)), "cpu-ms/s"+suffix)
			b.ReportMetric(float64(proc[k].preempted)/n, "preempted/s"+suffix)
			b.ReportMetric(float64(proc[k].gcs)/n, "gc/s"+suffix)
			b.ReportMetric(float64(proc[k].schedP99())/float64(time.Microsecond), "sched-p99-us"+suffix)
		}
		b.ReportMetric(ms(dialerCPU[silent])/float64(seconds[silent]), "dialer-cpu-ms/s-silent")
		b.ReportMetric(ms(dialerCPU[burnt])/float64(seconds[burnt]), "dialer-cpu-ms/s-burnt")
		// What a silent socket costs the process: its CPU time more in
		// the silent seconds than in the quiet ones, per socket dialed.
		b.ReportMetric((cpuPerSecond(silent)-cpuPerSecond(quiet))*1000/
			(float64(res.Offered)/float64(seconds[silent])), "cpu-us/silent-dial")
		b.ReportMetric(float64(*loadSilent/b.N), "silent-asked/s")
		b.ReportMetric(float64(res.Offered)/res.Took.Seconds(), "silent-offered/s")
		b.ReportMetric(float64(res.Offered), "silent-dialed")
		b.ReportMetric(float64(res.Statuses[http.StatusSwitchingProtocols]), "silent-accepted")
		b.ReportMetric(float64(res.Statuses[http.StatusUnauthorized]), "silent-401")
		b.ReportMetric(float64(res.Statuses[http.StatusTooManyRequests]), "silent-429")
		b.ReportMetric(float64(res.Statuses[http.StatusServiceUnavailable]), "silent-503")
		b.ReportMetric(float64(res.Failed), "silent-failed")
	})
}

// pinServer puts this process, the server, on every CPU but the last, once
// (the benchmark's function runs again with a larger b.N), and returns the
// last, the silent dialer's (-load-pin).
var pinServer = sync.OnceValues(func() ([]int, error) {
	server, dialer, err := splitCPUs()
	if err == nil {
		err = pinProcess(server)
	}
	return dialer, err
})

// procStats is what the process spent over a time: its CPU time, the
// times the kernel took a CPU from one of its threads that could have
// gone on (involuntary context switches), its GC cycles, and how long its
// goroutines waited to run once runnable (a histogram of
// runtime/metrics' /sched/latencies:seconds).
type procStats struct {
	cpu       time.Duration
	preempted int64
	gcs       uint64
	sched     []uint64 // counts of schedBuckets
}

var schedBuckets []float64 // the histogram's boundaries, in seconds

// readProcStats reads the process's procStats so far.
func readProcStats() procStats {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	m := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/sched/latencies:seconds"}}
	metrics.Read(m)
	h := m[1].Value.Float64Histogram()
	schedBuckets = h.Buckets
	return procStats{cpu: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), preempted: ru.Nivcsw,
		gcs: m[0].Value.Uint64(), sched: slices.Clone(h.Counts)}
}

// since is what p spent more than before.
func (p procStats) since(before procStats) procStats {
	d := procStats{cpu: p.cpu - before.cpu, preempted: p.preempted - before.preempted, gcs: p.gcs - before.gcs,
		sched: make([]uint64, len(p.sched))}
	for i := range p.sched {
		d.sched[i] = p.sched[i] - before.sched[i]
	}
	return d
}

// add adds o to p.
func (p *procStats) add(o procStats) {
	p.cpu, p.preempted, p.gcs = p.cpu+o.cpu, p.preempted+o.preempted, p.gcs+o.gcs
	if p.sched == nil {
		p.sched = make([]uint64, len(o.sched))
	}
	for i := range o.sched {
		p.sched[i] += o.sched[i]
	}
}

// schedP99 is the 99th percentile of the goroutines' waits to run: the
// upper bound of the histogram's bucket it falls in.
func (p procStats) schedP99() time.Duration {
	var total uint64
	for _, c := range p.sched {
		total += c
	}
	var seen uint64
	for i, c := range p.sched {
		seen += c
		if seen*100 >= total*99 && total > 0 {
			upper := schedBuckets[i+1]
			if math.IsInf(upper, 1) {
				upper = schedBuckets[i]
			}
			return time.Duration(upper * float64(time.Second))
		}
	}
	return 0
}

// profilePhase writes a CPU profile of the phase that follows to path,
// until the returned func is called; nothing when path is "".
func profilePhase(tb testing.TB, path string) (stop func()) {
	tb.Helper()
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	require.NoError(tb, err)
	require.NoError(tb, pprof.StartCPUProfile(f), "the test's own -cpuprofile and -load-silent-profile exclude each other")
	return func() {
		pprof.StopCPUProfile()
		require.NoError(tb, f.Close())
	}
}

// TestActivityLoadLeavesNothingBehind is BenchmarkActivityLoad in small:
// 40 sockets watching 4 games while 20 plays a second go on for a second.
// Every socket ends showing its game's last play, and once the sockets
// close no goroutine is left behind: the count is back where it was
// before they opened.
func TestActivityLoadLeavesNothingBehind(t *testing.T) {
	l := startLoad(t, loadSizes{sockets: 40, games: 4, rate: 20})
	r := l.play(t, time.Second)
	require.NotEmpty(t, r.plays)
	assert.True(t, l.caughtUp(), "every socket saw its game's last play")
	assert.GreaterOrEqual(t, len(r.pushes), len(r.plays), "pushes read")
	l.close(t)
	assert.LessOrEqual(t, l.settled(t), l.goroutines, "goroutines after the sockets closed")
}

// loadSizes are the sizes of a load.
type loadSizes struct{ sockets, games, rate int }

// load is the program under load: running games of Alice and Bob, and the
// sockets of the watchers, each reading the game's pushes.
type load struct {
	app   *sandbox.App
	srv   *httptest.Server
	users []sandbox.User // Alice and Bob, who play
	rate  int            // plays a second
	ids   []int64
	// per game: the play being pushed (its number and start, UnixNano)
	seq, start []atomic.Int64
	conns      []*websocket.Conn
	watched    []int          // per socket: its game
	seen       []atomic.Int64 // per socket: the last play it saw pushed
	readers    sync.WaitGroup
	mu         sync.Mutex
	pushes     []time.Duration // of the current run
	// goroutines before the sockets opened (the program and its games
	// running)
	goroutines int
}

// startLoad starts the program with sizes.games running games and
// sizes.sockets sockets watching them, each having read its first state.
func startLoad(tb testing.TB, sizes loadSizes) *load {
	tb.Helper()
	watchers := sizes.sockets / 2
	app, srv, users, _ := activitySandboxWith(tb, 5, func(c *activity.Config) {
		// Every watcher signs in from this one address: the sign-in's
		// bounds are not what is measured. Its sockets are bounded per
		// user only (two each, at once: within the defaults).
		c.SignInsPerMinute, c.ExchangesPerMinute = 1<<20, 1<<20
	})
	l := &load{app: app, srv: srv, users: users[:2], rate: sizes.rate}
	games := app.Main.Bot().Games()
	alice, bob := gametable.Actor{UserID: users[0].ID, Name: users[0].Name, Lang: "en"}, gametable.Actor{UserID: users[1].ID, Name: users[1].Name, Lang: "en"}
	for range sizes.games {
		o, err := games.Open(tb.Context(), game.NewLobby{Guild: app.Fake.GuildID, Channel: app.Fake.ChannelID, User: alice, Lang: "en",
			Threads: true, Values: map[string]any{"seats": 2.0}})
		require.NoError(tb, err)
		games.Later(o)
		id := o.Table.Game.ID
		for _, c := range []struct {
			u gametable.Actor
			a game.Action
		}{{bob, game.Join{}}, {alice, game.Start{}}} {
			_, err := games.Apply(tb.Context(), game.Command{Game: id, Guild: app.Fake.GuildID, User: c.u, Action: c.a})
			require.NoError(tb, err)
		}
		l.ids = append(l.ids, id)
	}
	l.seq, l.start = make([]atomic.Int64, len(l.ids)), make([]atomic.Int64, len(l.ids))

	sessions := make([]string, watchers)
	var wg sync.WaitGroup
	work := make(chan int)
	for range 8 {
		wg.Go(func() {
			for k := range work {
				u := sandbox.User{ID: strconv.Itoa(300000000000000000 + k), Name: fmt.Sprint("Watcher ", k)}
				require.NoError(tb, app.Fake.AddMember(app.Fake.GuildID, fakediscord.Member{ID: u.ID, Name: u.Name}))
				sessions[k] = signIn(tb, app, srv, u)
			}
		})
	}
	for k := range watchers {
		work <- k
	}
	close(work)
	wg.Wait()

	runtime.GC()
	l.goroutines = runtime.NumGoroutine()
	l.seen = make([]atomic.Int64, 2*len(sessions))
	for k, session := range sessions {
		for j := range 2 {
			g := (2*k + j) % len(l.ids)
			dialer := websocket.Dialer{Subprotocols: activity.LiveProtocols(session)}
			conn, resp, err := dialer.Dial(l.wsURL(l.ids[g]), nil)
			require.NoError(tb, err, "socket %d", len(l.conns))
			resp.Body.Close()
			_, _, err = conn.ReadMessage() // the state when opened
			require.NoError(tb, err)
			i := len(l.conns)
			l.conns, l.watched = append(l.conns, conn), append(l.watched, g)
			l.readers.Go(func() { l.read(conn, g, &l.seen[i]) })
		}
	}
	tb.Cleanup(func() { l.close(tb) })
	return l
}

// silentAddr is the one client address the silent sockets name
// (X-Forwarded-For; no proxy is trusted, and no bound is per address).
const silentAddr = "203.0.113.7"

// wsURL is the socket of game id.
func (l *load) wsURL(id int64) string {
	return "ws" + strings.TrimPrefix(l.srv.URL, "http") + fmt.Sprintf("/.proxy/api/games/%d/live", id)
}

// read reads the pushes of game g on conn until it closes: the first push
// after a play is that play's, its latency recorded (a push may carry
// more than one play: the server sends a socket that is behind only the
// latest state), and the play is recorded in seen.
func (l *load) read(conn *websocket.Conn, g int, seen *atomic.Int64) {
	for {
		if _, _, err := conn.ReadMessage(); err != nil {
			return
		}
		at := time.Now()
		if seq := l.seq[g].Load(); seq > seen.Load() {
			seen.Store(seq)
			d := at.Sub(time.Unix(0, l.start[g].Load()))
			l.mu.Lock()
			l.pushes = append(l.pushes, d)
			l.mu.Unlock()
		}
	}
}

// loadRun is what one run of plays measured.
type loadRun struct {
	plays, pushes []time.Duration
	late          int // ticks with their game's last play still going
}

// play plays at the load's rate for d, each play on the next game in
// turn, and waits for the pushes of the last plays.
func (l *load) play(tb testing.TB, d time.Duration) loadRun {
	tb.Helper()
	l.mu.Lock()
	l.pushes = nil
	l.mu.Unlock()
	games := l.app.Main.Bot().Games()
	var (
		run   loadRun
		mu    sync.Mutex
		wg    sync.WaitGroup
		busy  = make([]atomic.Bool, len(l.ids))
		n     = int(d/time.Second) * l.rate
		every = time.Second / time.Duration(l.rate)
	)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for i := range n {
		<-tick.C
		g := i % len(l.ids)
		if !busy[g].CompareAndSwap(false, true) {
			run.late++
			continue
		}
		wg.Go(func() {
			defer busy[g].Store(false)
			id := l.ids[g]
			actor, play, ok := l.next(tb, id)
			if !ok {
				return // the game is over
			}
			start := time.Now()
			l.start[g].Store(start.UnixNano())
			l.seq[g].Add(1)
			_, err := games.Apply(context.Background(), game.Command{Game: id, Guild: l.app.Fake.GuildID, User: actor, Action: game.Play{ID: play}})
			took := time.Since(start)
			if err != nil {
				tb.Errorf("game %d: %v", id, err)
				return
			}
			mu.Lock()
			run.plays = append(run.plays, took)
			mu.Unlock()
		})
	}
	wg.Wait()
	// The pushes of the last plays.
	for deadline := time.Now().Add(5 * time.Second); !l.caughtUp() && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	l.mu.Lock()
	run.pushes = slices.Clone(l.pushes)
	l.mu.Unlock()
	slices.Sort(run.plays)
	slices.Sort(run.pushes)
	return run
}

// caughtUp reports whether every socket saw its game's last play.
func (l *load) caughtUp() bool {
	for i, g := range l.watched {
		if l.seen[i].Load() < l.seq[g].Load() {
			return false
		}
	}
	return true
}

// next is the play of game id's player to move: the die rolled, the
// first piece placed, or the move that goes furthest; false once the game
// is over.
func (l *load) next(tb testing.TB, id int64) (gametable.Actor, gametable.CustomID, bool) {
	games := l.app.Main.Bot().Games()
	for _, u := range l.users {
		live, err := games.Live(context.Background(), id, l.app.Fake.GuildID, u.ID, "en")
		if err != nil {
			tb.Errorf("game %d: %v", id, err)
			return gametable.Actor{}, gametable.CustomID{}, false
		}
		if !live.YourTurn {
			continue
		}
		return gametable.Actor{UserID: u.ID, Name: u.Name, Lang: "en"}, playOf(id, live), true
	}
	return gametable.Actor{}, gametable.CustomID{}, false
}

// close closes every socket and waits for their readers.
func (l *load) close(tb testing.TB) {
	tb.Helper()
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
	l.readers.Wait()
	l.watched = nil
}

// settled is the count of goroutines once the plays' deliveries to the
// stand-in are done (they queue behind Discord's limits: up to 2 min) and
// the closed sockets' goroutines on the server's side are gone too
// (waiting up to 10 s for them).
func (l *load) settled(tb testing.TB) int {
	tb.Helper()
	delivered := make(chan struct{})
	go func() {
		l.app.Main.Bot().Games().Wait()
		close(delivered)
	}()
	select {
	case <-delivered:
	case <-time.After(2 * time.Minute):
		tb.Errorf("the plays' deliveries still running after 2 min")
	}
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); n > l.goroutines && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(20 * time.Millisecond)
	}
	return n
}

// report reports the run's percentiles, each metric's unit ending in
// suffix.
func (r loadRun) report(b *testing.B, suffix string) {
	if len(r.pushes) > 0 {
		b.ReportMetric(ms(quantile(r.pushes, 0.5)), "push-p50-ms"+suffix)
		b.ReportMetric(ms(quantile(r.pushes, 0.99)), "push-p99-ms"+suffix)
	}
	if len(r.plays) > 0 {
		b.ReportMetric(ms(r.play(0.5)), "play-p50-ms"+suffix)
		b.ReportMetric(ms(r.play(0.99)), "play-p99-ms"+suffix)
	}
	b.ReportMetric(float64(len(r.plays)), "plays"+suffix)
	b.ReportMetric(float64(r.late), "late-ticks"+suffix)
}

// add adds the plays and pushes of o to r (sorted again).
func (r *loadRun) add(o loadRun) {
	r.plays, r.pushes = append(r.plays, o.plays...), append(r.pushes, o.pushes...)
	r.late += o.late
	slices.Sort(r.plays)
	slices.Sort(r.pushes)
}

// play is the run's play time at quantile q.
func (r loadRun) play(q float64) time.Duration { return quantile(r.plays, q) }

// quantile is the q quantile of sorted ds.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[int(q*float64(len(ds)-1))]
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// rssMB is the process's resident memory in MB (Linux; 0 elsewhere).
func rssMB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024
		}
	}
	return 0
}
