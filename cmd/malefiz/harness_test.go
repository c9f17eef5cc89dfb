package main

import (
	"context"
	"github.com/bwmarrin/discordgo"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// scriptedDie rolls what the test set last, or a seeded random value.
type scriptedDie struct {
	mu   sync.Mutex
	next []int
	rng  *rand.Rand
}

// panicRoll, set as a roll, makes the die panic: a stand-in for any bug
// inside an action.
const panicRoll = -1

func (d *scriptedDie) Roll() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.next) > 0 {
		n := d.next[0]
		d.next = d.next[1:]
		if n == panicRoll {
			panic("the die exploded")
		}
		return n
	}
	return d.rng.IntN(6) + 1
}

func (d *scriptedDie) set(rolls ...int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next = append(d.next[:0], rolls...)
}

// harness runs the real program against a fake Discord with a temp database.
type harness struct {
	t      testing.TB
	fake   *fakediscord.Fake
	dbPath string
	die    *scriptedDie
	main   *Main
	clock  *fakeClock // nil: real time and the real scheduler
	logs   logBuffer  // what the program logged
	// configure, when set, changes the program's configuration before
	// each start (http mode, a listener, shards).
	configure func(*Config)
	// botOptions, when set, changes the bot's configuration too.
	botOptions func(*bot.Config)
	// coach: the coach grades the people's moves and posts its verdict
	// after the result (off unless a test turns it on, so that the result
	// stays the last message of the other tests).
	coach bool
}

// logBuffer keeps a program's log for the test to read.
type logBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// newHarness runs the program with the server set to play in the channel
// with a Roll button (threads off, roll button), the flow the older tests
// check; newThreadHarness keeps the defaults (threads on, roll auto).
func newHarness(t testing.TB, opts ...fakediscord.Option) *harness {
	h := newHarnessClock(t, nil, opts...)
	h.playInChannel()
	return h
}

// withoutMessageBuckets is the stand-in's limits for a test that plays
// many turns as fast as it can and is not about Discord's limits: the
// channels' message buckets (create and edit, 5 per 5 s each) off; the
// global limit, the interaction buckets, the invalid-request count and the
// caps on. Today's bot posts a turn card and edits the game's card in them
// every turn and discordgo waits out a spent bucket, so a game of a
// hundred turns takes minutes (TestWhoIsWinningAndWhy: 8 s without the
// buckets, 128 s with them), and a card edit held back holds back the
// turn card behind it. The bot's own limiter and its card queue land
// separately; then these tests can play with every limit on.
func withoutMessageBuckets() fakediscord.Option {
	l := fakediscord.DefaultLimits()
	l.ChannelMessages, l.MessageEdits = fakediscord.Rate{}, fakediscord.Rate{}
	return fakediscord.WithLimits(l)
}

// newThreadHarness runs the program with the server's defaults.
func newThreadHarness(t testing.TB, opts ...fakediscord.Option) *harness {
	return newHarnessClock(t, nil, opts...)
}

// playInChannel sets the server to threads off and roll button.
func (h *harness) playInChannel() {
	h.t.Helper()
	s := malefiz.DefaultGuildSettings()
	s.Threads, s.Roll = false, "button"
	require.NoError(h.t, h.main.db.SetGuildSettings(context.Background(), h.fake.GuildID, s))
}

// newHarnessClock runs the program with a fake clock whose timers the test
// drives with tick.
func newHarnessClock(t testing.TB, clock *fakeClock, opts ...fakediscord.Option) *harness {
	h := &harness{t: t, fake: fakediscord.New(t, opts...), dbPath: filepath.Join(t.TempDir(), "malefiz.db"),
		die: &scriptedDie{rng: rand.New(rand.NewPCG(7, 11))}, clock: clock}
	h.start()
	t.Cleanup(h.stop)
	t.Cleanup(func() { logRateLimited(t, h.fake) })
	return h
}

// logRateLimited logs the 429s the stand-in answered, by route and scope,
// so that a test slowed by a limit says which.
func logRateLimited(t testing.TB, fake *fakediscord.Fake) {
	counts := map[string]int{}
	for _, c := range fake.Calls() {
		if c.Limited != "" {
			counts[c.Route+" "+c.Limited]++
		}
	}
	if len(counts) > 0 {
		t.Logf("fakediscord: 429s by route and scope: %v", counts)
	}
}

// start runs the program; stop ends it.
func (h *harness) start() {
	h.t.Helper()
	cfg := DefaultConfig()
	cfg.Discord.Token = h.fake.Token()
	cfg.Discord.APIURL = h.fake.URL()
	cfg.Discord.GuildIDs = []string{h.fake.GuildID}
	cfg.Database.Path = h.dbPath
	if h.configure != nil {
		h.configure(&cfg)
	}
	h.main = &Main{Config: cfg, Logger: testLogger(&h.logs), Options: func(c *bot.Config) {
		c.Dice = h.die
		c.Draw = func(int) int { return 0 }
		c.CoachOff = !h.coach
		if h.clock != nil {
			c.Now = h.clock.Now
		}
		if h.botOptions != nil {
			h.botOptions(c)
		}
	}, ManualTimers: h.clock != nil}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.main.Run(ctx); err != nil {
		h.t.Fatalf("start: %v", err)
	}
	if cfg.Discord.Interactions == InteractionsHTTP {
		h.fake.SetInteractionEndpoints("http://" + h.main.HTTPAddr() + "/interactions")
	}
	// The commands are registered on READY; wait for them.
	for i := 0; len(h.fake.Commands(h.fake.GuildID)) == 0; i++ {
		if i > 500 {
			h.t.Fatal("the bot registered no commands")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (h *harness) stop() {
	if h.main != nil {
		if err := h.main.Close(); err != nil {
			h.t.Errorf("close: %v", err)
		}
		h.main = nil
	}
}

func (h *harness) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	h.t.Cleanup(cancel)
	return ctx
}

// command runs /malefiz SUB as user.
func (h *harness) command(user, sub string, opts map[string]any) *fakediscord.Response {
	h.t.Helper()
	resp, err := h.fake.SlashCommand(h.ctx(), fakediscord.Invocation{User: user, Name: "malefiz", Sub: sub, Options: opts})
	if err != nil {
		h.t.Fatalf("/malefiz %s by %s: %v", sub, user, err)
	}
	return resp
}

// click presses a control of message msgID as user.
func (h *harness) click(user, msgID, customID string, values ...string) *fakediscord.Response {
	h.t.Helper()
	resp, err := h.fake.Click(h.ctx(), fakediscord.Invocation{User: user, MessageID: msgID, CustomID: customID, Values: values})
	if err != nil {
		h.t.Fatalf("click %s by %s: %v", customID, user, err)
	}
	return resp
}

// control returns the custom ID of the first control of m whose custom ID
// has the action prefix mf/ACTION/.
func control(t testing.TB, m fakediscord.Message, action bot.Action) string {
	t.Helper()
	for _, id := range m.CustomIDs() {
		if strings.HasPrefix(id, "mf/"+string(action)+"/") {
			return id
		}
	}
	t.Fatalf("message %s has no %s control; it has %v", m.ID, action, m.CustomIDs())
	return ""
}

func hasControl(m fakediscord.Message, action bot.Action) bool {
	for _, id := range m.CustomIDs() {
		if strings.HasPrefix(id, "mf/"+string(action)+"/") {
			return true
		}
	}
	return false
}

// game reads a game from the database: the stored game and the engine game
// replayed from its event log, with its whole history. Every time, it checks
// that the stored snapshot is the state the log replays to.
func (h *harness) game(id int64) (*malefiz.Game, *engine.Game) {
	h.t.Helper()
	for {
		sg, err := h.main.db.Game(context.Background(), id)
		require.NoError(h.t, err, "game %d", id)
		events, err := h.main.db.Events(context.Background(), id)
		require.NoError(h.t, err, "events of game %d", id)
		if int64(len(events)) != sg.LastSeq {
			continue // a write came between the two reads
		}
		g, err := bot.Replay(sg, events)
		require.NoError(h.t, err)
		if len(sg.State) == 0 {
			require.Nil(h.t, g, "game %d has events of a started game but no state", id)
			return sg, nil
		}
		var snap engine.Game
		require.NoError(h.t, snap.UnmarshalSnapshot(sg.State))
		require.NotNil(h.t, g, "game %d has a state but never started", id)
		require.Equal(h.t, g.Position(), snap.Position(), "game %d: snapshot and replay differ", id)
		require.Equal(h.t, g.Phase(), snap.Phase(), "game %d: snapshot and replay differ", id)
		require.Equal(h.t, g.TurnNumber(), snap.TurnNumber(), "game %d: snapshot and replay differ", id)
		require.Equal(h.t, g.Rolled(), snap.Rolled(), "game %d: snapshot and replay differ", id)
		require.Equal(h.t, g.Winner(), snap.Winner(), "game %d: snapshot and replay differ", id)
		return sg, g
	}
}

// lastMessage is the newest message of the default channel.
func (h *harness) lastMessage() fakediscord.Message {
	h.t.Helper()
	m, ok := h.fake.LastMessage(h.fake.ChannelID)
	if !ok {
		h.t.Fatal("no message in the channel")
	}
	return m
}

// hasBoard reports whether m carries the board PNG.
func hasBoard(m fakediscord.Message) bool {
	for _, a := range m.Attachments {
		if a.Filename == "board.png" && len(a.Data) > 8 && string(a.Data[1:4]) == "PNG" {
			return true
		}
	}
	return false
}

// bestRoll picks, for the player to move, the roll and move that a racing
// player would love: a capture when want allows, else the move that ends
// closest to the goal.
func bestRoll(p engine.Position, r engine.Rules, wantCapture bool) (int, engine.Move) {
	bestScore, bestRoll, best := 1<<30, 0, engine.Move{}
	for roll := 1; roll <= 6; roll++ {
		for _, m := range p.Moves(roll, r) {
			score := engine.DistanceToGoal(m.To) * 10
			if piece := p.At(m.To); wantCapture && piece.IsPawn() && piece.Color() != p.Turn() {
				score = -1000
			}
			if score < bestScore {
				bestScore, bestRoll, best = score, roll, m
			}
		}
	}
	return bestRoll, best
}

// waitTurn waits until the bot has posted the message of the game's current
// turn (or finished the game) and returns the turn message: with a Roll
// button, or already rolled with the move buttons (roll auto).
func (h *harness) waitTurn(gameID int64) (fakediscord.Message, bool) {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		sg, g := h.game(gameID)
		if sg.Status == malefiz.StatusFinished {
			// Wait for the result message too.
			if m, ok := h.fake.LastMessage(place(sg)); ok && (strings.HasPrefix(title(m), "🏆") || strings.HasPrefix(title(m), "🎓")) {
				return m, false
			}
		} else if g != nil && (g.Phase() == engine.PhaseRoll || g.Phase() == engine.PhaseMove) {
			if m, ok := h.fake.Message(sg.TurnMessageID); ok {
				for _, id := range m.CustomIDs() {
					c, err := bot.ParseCustomID(id)
					if err != nil || c.Turn != g.TurnNumber() {
						continue
					}
					if (c.Action == bot.ActRoll) == (g.Phase() == engine.PhaseRoll) {
						return m, true
					}
				}
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.t.Fatalf("game %d: the bot did not post the next turn", gameID)
	return fakediscord.Message{}, false
}

// place is where a game plays: its thread, else its channel.
func place(sg *malefiz.Game) string {
	if sg.ThreadID != "" {
		return sg.ThreadID
	}
	return sg.ChannelID
}

func sleepShort() { time.Sleep(5 * time.Millisecond) }

// testLogger keeps the program's log in buf, and also prints it when
// MALEFIZ_TEST_LOG is set.
func testLogger(buf *logBuffer) *slog.Logger {
	var w io.Writer = buf
	if os.Getenv("MALEFIZ_TEST_LOG") != "" {
		w = io.MultiWriter(buf, os.Stderr)
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// tick runs one scheduler pass at the fake clock's time and waits for the
// messages it posts.
func (h *harness) tick() int {
	h.t.Helper()
	n, err := h.main.Bot().Games().Tick(h.ctx())
	if err != nil {
		h.t.Fatalf("tick: %v", err)
	}
	return n
}

func fakeInvocation(user, msgID, customID string) fakediscord.Invocation {
	return fakediscord.Invocation{User: user, MessageID: msgID, CustomID: customID}
}

// title is the heading of a message: the first embed's title, or in a V2
// message the first "### " line of its text displays.
func title(m fakediscord.Message) string {
	if len(m.Embeds) > 0 {
		return m.Embeds[0].Title
	}
	for _, c := range m.ComponentsOfType(discordgo.TextDisplayComponent) {
		for _, line := range strings.Split(c.Content, "\n") {
			if h, ok := strings.CutPrefix(line, "### "); ok {
				return h
			}
		}
	}
	return ""
}
