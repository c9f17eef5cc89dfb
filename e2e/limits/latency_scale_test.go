package limits

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/serve"
	"github.com/malefiz-discord/malefiz/store"
)

// BenchmarkInteractionLatencyHTTP is BenchmarkInteractionLatency with the
// interactions delivered to the interactions endpoint and answered in the
// HTTP response: 50 games, 20 clicks per second. Run it with
// -benchtime=400x or more.
func BenchmarkInteractionLatencyHTTP(b *testing.B) {
	benchmarkClicks(b, newHTTPHarness, 50, 20)
}

// BenchmarkStartWith10000Games measures the time from the start of the
// program (database open, Discord connected, commands registered) to the
// first answered click, with 10,000 running games in the database. Each op
// is one restart and one Roll.
func BenchmarkStartWith10000Games(b *testing.B) {
	for _, d := range databases(b) {
		b.Run("db="+d.Name, func(b *testing.B) {
			dbURL := d.NewURL(b)
			benchmarkStart(b, newHarnessConfigured(b, func(cfg *serve.Config) { cfg.Database.Path = dbURL }))
		})
	}
}

// benchmarkStart fills h's database with 10,000 running games, then times
// restarts of the program up to the first answered click.
func benchmarkStart(b *testing.B, h *harness.Harness) {
	const games = 10000
	gameID, turn := openTwoPlayerGameB(b, h)
	sg, err := h.Main.DB().Game(h.Ctx(), gameID)
	require.NoError(b, err)
	for i := 1; i < games; i++ {
		g := *sg
		g.ID, g.Version, g.LastSeq = 0, 0, 0
		g.ChannelID = fmt.Sprintf("2200000000000%05d", i)
		g.LobbyMessageID, g.TurnMessageID = "", ""
		g.Seats = append([]malefiz.Seat(nil), sg.Seats...)
		require.NoError(b, h.Main.DB().CreateGame(h.Ctx(), &g))
	}
	n, err := h.Main.DB().RunningGames(h.Ctx())
	require.NoError(b, err)
	require.Equal(b, games, n)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		h.Stop()
		b.StartTimer()
		h.Start()
		h.Die.Set(6)
		resp := h.Click(turn.Pinged[0], turn.ID, harness.Control(b, turn, bot.ActRoll))
		b.StopTimer()
		if id := racingMoveButton(*resp.Message); id != "" {
			h.Click(turn.Pinged[0], turn.ID, id)
		}
		turn, _ = h.WaitTurn(gameID)
		b.StartTimer()
	}
}

// openTwoPlayerGameB opens a game of alice and bob and returns its first
// turn message.
func openTwoPlayerGameB(b *testing.B, h *harness.Harness) (int64, fakediscord.Message) {
	resp := h.Command(harness.Alice, "new", map[string]any{"seats": 2})
	lobby := *resp.Message
	h.Click(harness.Bob, lobby.ID, harness.Control(b, lobby, bot.ActJoin))
	id, err := bot.ParseCustomID(harness.Control(b, lobby, bot.ActStart))
	require.NoError(b, err)
	h.Click(harness.Alice, lobby.ID, harness.Control(b, lobby, bot.ActStart))
	turn, running := h.WaitTurn(id.Game)
	require.True(b, running)
	return id.Game, turn
}

// BenchmarkClickRate measures the bot alone: it runs the program as its own
// process (this test binary re-executed as `malefiz run`, see
// TestHelperProcess) in http mode against the fake Discord in the test
// process, with 100 two-player games, and offers clicks at rising rates
// (clickRates, each for the same time: b.N clicks in all). It reports
//
//   - bot-cpu-ms/click: the child's CPU (user+sys, from its rusage at exit,
//     less what it had used when the first measured click was sent, after
//     a warm-up click per game) per answered click;
//   - knee-clicks/s: the highest rate up to which every rate had a p99
//     latency within 100 ms and answered at least 90 % of its clicks;
//   - saturation-clicks/s: the clicks answered per second at the highest
//     rate offered;
//   - harness-cpu-ms/click: the test process's own CPU per answered click
//     (the fake, the clicks, the reads of the games' states), which shares
//     the machine with the bot.
//
// One sub-benchmark per database: db=sqlite, and db=postgres when
// MALEFIZ_TEST_POSTGRES_URL is set. Run it with a count of clicks, such as
// -benchtime=20000x (about 6 s per rate, a minute per database); the
// fake, the games and the test's own reads of the database are set up once
// and stay in the test process, and each run starts a new child.
func BenchmarkClickRate(b *testing.B) {
	for _, d := range databases(b) {
		var r *clickRig
		b.Run("db="+d.Name, func(sub *testing.B) {
			if r == nil {
				r = newClickRig(b, sub, d)
			}
			r.measure(sub)
		})
	}
}

// clickRates are the rates, in clicks per second in all, that
// BenchmarkClickRate offers in turn.
var clickRates = []int{50, 100, 150, 200, 250, 300, 400, 500, 600, 800}

const (
	clickRigGames = 100
	// kneeP99 is the latency the 99th percentile must stay within for a
	// rate to be below the knee; kneeAnswered the share of the offered
	// clicks that must be answered.
	kneeP99      = 100 * time.Millisecond
	kneeAnswered = 0.9
	// clickTimeout bounds one click; stepGrace how long a rate's clicks
	// in flight may take after its last tick.
	clickTimeout = 5 * time.Second
	stepGrace    = 10 * time.Second
)

// clickRig is what BenchmarkClickRate keeps across its runs: the fake
// Discord, the database (the test's own connection, for reading the games'
// states) and the games.
type clickRig struct {
	owner  testing.TB // the parent benchmark: the fake and the database live until it ends
	fake   *fakediscord.Fake
	dbURL  string
	db     *store.DB
	dir    string
	tables []*clickTable
}

// clickTable is one game and its two players; mu is held while one of its
// clicks is in flight.
type clickTable struct {
	mu      sync.Mutex
	id      int64
	players [2]string
}

// newClickRig starts the fake and creates the database; the first child
// opens the 100 games. BenchmarkClickRate measures the bot's CPU, not
// Discord's limits: at its rates the stand-in's global limit (50 requests
// per second) would measure discordgo's waits instead, so its limits are
// off (BenchmarkTokenThroughput measures them).
func newClickRig(owner testing.TB, b *testing.B, d database) *clickRig {
	return newRig(owner, b, d, clickRigGames, false, malefiz.UserSettings{}, fakediscord.WithoutLimits())
}

// newRig starts the fake with opts and creates the database, and a first
// child opens the given number of two-player games, each in a channel of
// its own, with or without threads; every player has the settings users
// (/malefiz notify).
func newRig(owner testing.TB, b *testing.B, d database, games int, threads bool, users malefiz.UserSettings, opts ...fakediscord.Option) *clickRig {
	channels := make([]string, games)
	for i := range channels {
		channels[i] = fmt.Sprintf("2000000000000%05d", i)
	}
	// A short nonce window keeps the fake's nonce check (a scan of the
	// window's messages) off the measurement.
	opts = append([]fakediscord.Option{fakediscord.WithGuild(fakediscord.Guild{Channels: channels}),
		fakediscord.WithHTTPInteractions(nil), fakediscord.WithNonceWindow(10 * time.Second)}, opts...)
	r := &clickRig{owner: owner, dir: owner.TempDir(), fake: fakediscord.New(owner, opts...)}
	r.dbURL = d.NewURL(owner)
	db, err := store.Open(b.Context(), r.dbURL)
	require.NoError(b, err)
	owner.Cleanup(func() { db.Close() })
	r.db = db
	s := malefiz.DefaultGuildSettings()
	s.Threads, s.Roll = threads, "button"
	require.NoError(b, db.SetGuildSettings(b.Context(), r.fake.GuildID, s))

	child := r.start(b)
	defer child.stop(b)
	ctx, cancel := context.WithTimeout(b.Context(), time.Minute)
	defer cancel()
	for i, ch := range channels {
		a, c := fmt.Sprintf("3000000000000%05d", 2*i), fmt.Sprintf("3000000000000%05d", 2*i+1)
		if users != (malefiz.UserSettings{}) {
			require.NoError(b, db.SetUserSettings(b.Context(), a, users))
			require.NoError(b, db.SetUserSettings(b.Context(), c, users))
		}
		resp, err := r.fake.SlashCommand(ctx, fakediscord.Invocation{User: a, Channel: ch, Name: "malefiz", Sub: "new", Options: map[string]any{"seats": 2}})
		require.NoError(b, err, child.stderr.String())
		lobby := *resp.Message
		_, err = r.fake.Click(ctx, fakediscord.Invocation{User: c, MessageID: lobby.ID, CustomID: harness.Control(b, lobby, bot.ActJoin)})
		require.NoError(b, err)
		id, err := bot.ParseCustomID(harness.Control(b, lobby, bot.ActStart))
		require.NoError(b, err)
		_, err = r.fake.Click(ctx, fakediscord.Invocation{User: a, MessageID: lobby.ID, CustomID: harness.Control(b, lobby, bot.ActStart)})
		require.NoError(b, err)
		r.tables = append(r.tables, &clickTable{id: id.Game, players: [2]string{a, c}})
	}
	return r
}

// botProcess is the bot running as a child process.
type botProcess struct {
	cmd    *exec.Cmd
	stderr *harness.LogBuffer
	done   chan struct{}
	err    error // of Wait, once done is closed
}

// start runs the bot as a child process on the rig's database and waits
// until it has registered its commands.
func (r *clickRig) start(b *testing.B) *botProcess {
	b.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	addr := l.Addr().String()
	require.NoError(b, l.Close())
	before := len(r.fake.Calls())

	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	// The test's environment without the program's own settings (a
	// MALEFIZ_DATABASE_URL there would win over the path).
	var environ []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MALEFIZ_") {
			environ = append(environ, kv)
		}
	}
	cmd.Env = append(environ, "MALEFIZ_HELPER_PROCESS=1",
		"MALEFIZ_DISCORD_TOKEN="+r.fake.Token(), "MALEFIZ_DISCORD_API_URL="+r.fake.URL(),
		"MALEFIZ_GUILD_IDS="+r.fake.GuildID, "MALEFIZ_DATABASE_PATH="+r.dbURL,
		"MALEFIZ_DISCORD_INTERACTIONS=http", "MALEFIZ_HTTP_LISTEN="+addr,
		"MALEFIZ_DISCORD_PUBLIC_KEY="+hex.EncodeToString(r.fake.PublicKey()),
		"MALEFIZ_LOG_LEVEL=warn")
	if path := os.Getenv("MALEFIZ_TEST_CPUPROFILE"); path != "" {
		cmd.Env = append(cmd.Env, "MALEFIZ_TEST_CPUPROFILE="+path)
	}
	cmd.Dir = r.dir
	p := &botProcess{cmd: cmd, stderr: new(harness.LogBuffer), done: make(chan struct{})}
	cmd.Stderr = p.stderr
	require.NoError(b, cmd.Start())
	go func() { p.err = cmd.Wait(); close(p.done) }()
	r.owner.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	ctx, cancel := context.WithTimeout(b.Context(), 30*time.Second)
	defer cancel()
	_, err = r.fake.WaitFor(ctx, func(c fakediscord.Call) bool {
		return c.Seq > before && c.Route == fakediscord.RouteGuildCommands && c.OK()
	})
	select {
	case <-p.done:
		b.Fatalf("the bot stopped: %v; stderr: %s", p.err, p.stderr)
	default:
	}
	require.NoError(b, err, "the bot registered no commands; stderr: %s", p.stderr)
	r.fake.SetInteractionEndpoints("http://" + addr + "/interactions")
	return p
}

// stop ends the child with SIGTERM, as a supervisor would, and returns its
// CPU time (user+sys) from its rusage.
func (p *botProcess) stop(b *testing.B) time.Duration {
	b.Helper()
	require.NoError(b, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		_ = p.cmd.Process.Kill()
		b.Fatalf("the bot did not stop within 20 s of SIGTERM; stderr: %s", p.stderr)
	}
	require.NoError(b, p.err, "exit of the bot; stderr: %s", p.stderr)
	ru, ok := p.cmd.ProcessState.SysUsage().(*syscall.Rusage)
	require.True(b, ok, "no rusage")
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpu returns the CPU time (user+sys) the running child has used so far,
// from /proc/PID/stat; 0 when that cannot be read.
func (p *botProcess) cpu() time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses:
	// utime and stime are the 14th and 15th fields, in clock ticks.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	const clockTick = 10 * time.Millisecond // USER_HZ is 100 on Linux
	return time.Duration(utime+stime) * clockTick
}

// selfCPU returns the CPU time (user+sys) the test process has used: the
// fake Discord, the clicks and the test's reads of the database.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rateStep is what one rate of a run measured.
type rateStep struct {
	rate, offered int
	latencies     []time.Duration
	elapsed       time.Duration
	cpu           time.Duration // the child's, from /proc
}

func (s rateStep) answeredPerSecond() float64 {
	return float64(len(s.latencies)) / s.elapsed.Seconds()
}

// p99 is the 99th percentile of the answered clicks' latencies.
func (s rateStep) p99() time.Duration {
	if len(s.latencies) == 0 {
		return time.Hour
	}
	l := slices.Sorted(slices.Values(s.latencies))
	return l[int(0.99*float64(len(l)-1))]
}

// underKnee reports whether the step kept up: p99 within kneeP99 and most
// clicks answered.
func (s rateStep) underKnee() bool {
	return s.p99() <= kneeP99 && float64(len(s.latencies)) >= kneeAnswered*float64(s.offered)
}

// measure starts a child, offers b.N clicks over the rates, stops the
// child and reports the figures.
func (r *clickRig) measure(b *testing.B) {
	sum := 0
	for _, rate := range clickRates {
		sum += rate
	}
	child := r.start(b)
	stopped := false
	defer func() {
		if !stopped {
			child.stop(b)
		}
	}()
	// Warm up the new process (its caches, its connections, the
	// runtime's heap) with a click per game at the lowest rate, not
	// counted.
	r.offer(b, clickRates[0], min(b.N, clickRigGames))
	cpuBefore, harnessBefore := child.cpu(), selfCPU()
	b.ResetTimer()
	var steps []rateStep
	answered, last := 0, cpuBefore
	for _, rate := range clickRates {
		n := max(1, b.N*rate/sum)
		s := r.offer(b, rate, n)
		now := child.cpu()
		s.cpu, last = now-last, now
		steps = append(steps, s)
		answered += len(s.latencies)
	}
	b.StopTimer()
	harness := selfCPU() - harnessBefore
	total := child.stop(b) - cpuBefore
	stopped = true
	require.Positive(b, answered, "no click was answered")

	knee := 0
	for _, s := range steps {
		if !s.underKnee() {
			break
		}
		knee = s.rate
	}
	// One line (benchmark logs are cut at ten): rate, answered/s, p99 and
	// the bot's CPU per click of each rate.
	var line strings.Builder
	line.WriteString("rate/s: answered/s p99 bot-cpu-ms/click:")
	for _, s := range steps {
		perClick := 0.0
		if len(s.latencies) > 0 {
			perClick = float64(s.cpu.Microseconds()) / 1000 / float64(len(s.latencies))
		}
		fmt.Fprintf(&line, " | %d: %.0f %v %.2f", s.rate, s.answeredPerSecond(), s.p99().Round(100*time.Microsecond), perClick)
	}
	b.Log(line.String())
	b.ReportMetric(float64(total.Microseconds())/1000/float64(answered), "bot-cpu-ms/click")
	b.ReportMetric(float64(knee), "knee-clicks/s")
	b.ReportMetric(float64(harness.Microseconds())/1000/float64(answered), "harness-cpu-ms/click")
	b.ReportMetric(steps[len(steps)-1].answeredPerSecond(), "saturation-clicks/s")
}

// offer sends n clicks at rate per second in all, one game after the other;
// a game whose click is still in flight lets its tick pass, as a player
// cannot click before the answer. It waits for the clicks in flight (at
// most stepGrace) and returns what it measured.
func (r *clickRig) offer(b *testing.B, rate, n int) rateStep {
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	s := rateStep{rate: rate, offered: n}
	ctx, cancel := context.WithTimeout(b.Context(), time.Duration(n)*time.Second/time.Duration(rate)+stepGrace)
	defer cancel()
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	began := time.Now()
	for i := range n {
		select {
		case <-tick.C:
		case <-ctx.Done():
			b.Fatalf("rate %d/s: ran out of time", rate)
		}
		t := r.tables[i%len(r.tables)]
		if !t.mu.TryLock() {
			continue
		}
		wg.Go(func() {
			defer t.mu.Unlock()
			if d, ok := r.click(ctx, t); ok {
				mu.Lock()
				s.latencies = append(s.latencies, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	s.elapsed = time.Since(began)
	return s
}

// click performs the next click of a game: Roll on the turn message, or
// the first move on the message showing the moves. It reads the game's
// stored snapshot (not its whole log: the test's own work takes CPU from
// the machine the bot runs on).
func (r *clickRig) click(ctx context.Context, t *clickTable) (time.Duration, bool) {
	inv, ok := nextClick(ctx, r.db, r.fake, t.id, t.players)
	if !ok {
		return 0, false
	}
	ctx, cancel := context.WithTimeout(ctx, clickTimeout)
	defer cancel()
	resp, err := r.fake.Click(ctx, inv)
	if err != nil {
		return 0, false
	}
	return resp.Latency, true
}
