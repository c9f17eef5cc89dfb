// Package harness runs the real program (serve.Main) in-process against
// the Discord stand-in (fakediscord) with a temporary database, for the
// end-to-end tests under e2e/: a scripted die, a clock the test moves by
// hand, the program's log, and the steps of a game (a command, a click,
// the next turn, the game as stored). Only tests import it.
package harness

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/internal/testclock"
	"github.com/malefiz-discord/malefiz/serve"
)

// Die rolls what the test set last, or a seeded random value.
type Die struct {
	mu   sync.Mutex
	next []int
	rng  *rand.Rand
}

// PanicRoll, set as a roll, makes the die panic: a stand-in for any bug
// inside an action.
const PanicRoll = -1

// Patience is how long the harness waits for the program to start, answer,
// post or store what a test waits for: long enough for a CPU the rest of the suite starves (CI runs these
// packages niced beside the race phase, where opening the store once took
// over 10 s), short enough that a hang still fails the test.
const Patience = 2 * time.Minute

// Roll rolls the next scripted value, else a random one.
func (d *Die) Roll() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.next) > 0 {
		n := d.next[0]
		d.next = d.next[1:]
		if n == PanicRoll {
			panic("the die exploded")
		}
		return n
	}
	return d.rng.IntN(6) + 1
}

// Set scripts the next rolls.
func (d *Die) Set(rolls ...int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next = append(d.next[:0], rolls...)
}

// Harness runs the real program against a fake Discord with a temp database.
type Harness struct {
	T testing.TB
	// Fake is the Discord stand-in the program talks to.
	Fake *fakediscord.Fake
	// DBPath is the program's SQLite file.
	DBPath string
	// Die is the bot's die.
	Die *Die
	// Main is the running program; nil between Stop and Start.
	Main  *serve.Main
	Clock *Clock    // nil: real time and the real scheduler
	Logs  LogBuffer // what the program logged
	// configure, when set, changes the program's configuration before
	// each start (http mode, a listener, shards).
	Configure func(*serve.Config)
	// botOptions, when set, changes the bot's configuration too.
	BotOptions func(*bot.Config)
	// coach: the coach grades the people's moves and posts its verdict
	// after the result (off unless a test turns it on, so that the result
	// stays the last message of the other tests).
	Coach bool
}

// LogBuffer keeps a program's log for the test to read.
type LogBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

// Write keeps p.
func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// String returns what was written.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Clock is a clock the test moves by hand.
type Clock = testclock.Clock

// New runs the program with the server set to play in the channel
// with a Roll button (threads off, roll button), the flow the older tests
// check; NewThreads keeps the defaults (threads on, roll auto).
func New(t testing.TB, opts ...fakediscord.Option) *Harness {
	h := NewWithClock(t, nil, opts...)
	h.PlayInChannel()
	return h
}

// WithoutMessageBuckets is the stand-in's limits for a test that plays
// many turns as fast as it can and is not about Discord's limits: the
// channels' message buckets (create and edit, 5 per 5 s each) off; the
// global limit, the interaction buckets, the invalid-request count and the
// caps on. Today's bot posts a turn card and edits the game's card in them
// every turn and discordgo waits out a spent bucket, so a game of a
// hundred turns takes minutes (TestWhoIsWinningAndWhy: 8 s without the
// buckets, 128 s with them), and a card edit held back holds back the
// turn card behind it. The bot's own limiter and its card queue land
// separately; then these tests can play with every limit on.
func WithoutMessageBuckets() fakediscord.Option {
	l := fakediscord.DefaultLimits()
	l.ChannelMessages, l.MessageEdits = fakediscord.Rate{}, fakediscord.Rate{}
	return fakediscord.WithLimits(l)
}

// NewThreads runs the program with the server's defaults.
func NewThreads(t testing.TB, opts ...fakediscord.Option) *Harness {
	return NewWithClock(t, nil, opts...)
}

// PlayInChannel sets the server to threads off and roll button.
func (h *Harness) PlayInChannel() {
	h.T.Helper()
	s := malefiz.DefaultGuildSettings()
	s.Threads, s.Roll = false, "button"
	require.NoError(h.T, h.Main.DB().SetGuildSettings(context.Background(), h.Fake.GuildID, s))
}

// NewWithClock runs the program with a fake clock whose timers the test
// drives with Tick.
func NewWithClock(t testing.TB, clock *Clock, opts ...fakediscord.Option) *Harness {
	h := &Harness{T: t, Fake: fakediscord.New(t, opts...), DBPath: filepath.Join(t.TempDir(), "malefiz.db"),
		Die: NewDie(), Clock: clock}
	h.Start()
	t.Cleanup(h.Stop)
	t.Cleanup(func() { LogRateLimited(t, h.Fake) })
	return h
}

// LogRateLimited logs the 429s the stand-in answered, by route and scope,
// so that a test slowed by a limit says which.
func LogRateLimited(t testing.TB, fake *fakediscord.Fake) {
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

// Start runs the program; Stop ends it.
func (h *Harness) Start() {
	h.T.Helper()
	cfg := serve.DefaultConfig()
	cfg.Discord.Token = h.Fake.Token()
	cfg.Discord.APIURL = h.Fake.URL()
	cfg.Discord.GuildIDs = []string{h.Fake.GuildID}
	cfg.Database.Path = h.DBPath
	if h.Configure != nil {
		h.Configure(&cfg)
	}
	h.Main = &serve.Main{Config: cfg, Logger: Logger(&h.Logs), Options: func(c *bot.Config) {
		c.Dice = h.Die
		c.Draw = func(int) int { return 0 }
		c.CoachOff = !h.Coach
		if h.Clock != nil {
			c.Now = h.Clock.Now
		}
		if h.BotOptions != nil {
			h.BotOptions(c)
		}
	}, ManualTimers: h.Clock != nil}
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	if err := h.Main.Run(ctx); err != nil {
		h.T.Fatalf("start: %v", err)
	}
	if cfg.Discord.Interactions == serve.InteractionsHTTP {
		h.Fake.SetInteractionEndpoints("http://" + h.Main.HTTPAddr() + "/interactions")
	}
	// The commands are registered on READY; wait for them.
	h.await("the bot registered no commands", func() bool { return len(h.Fake.Commands(h.Fake.GuildID)) > 0 })
}

// await polls ok until it holds, and fails the test with failure once
// Patience has passed without.
func (h *Harness) await(failure string, ok func() bool) {
	h.T.Helper()
	for deadline := time.Now().Add(Patience); !ok(); SleepShort() {
		if time.Now().After(deadline) {
			h.T.Fatal(failure)
		}
	}
}

// Stop closes the program (Start starts it again on the same database).
func (h *Harness) Stop() {
	if h.Main != nil {
		if err := h.Main.Close(); err != nil {
			h.T.Errorf("close: %v", err)
		}
		h.Main = nil
	}
}

// Ctx returns a context that ends after Patience or with the test.
func (h *Harness) Ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	h.T.Cleanup(cancel)
	return ctx
}

// Command runs /malefiz SUB as user.
func (h *Harness) Command(user, sub string, opts map[string]any) *fakediscord.Response {
	h.T.Helper()
	resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: user, Name: "malefiz", Sub: sub, Options: opts})
	if err != nil {
		h.T.Fatalf("/malefiz %s by %s: %v", sub, user, err)
	}
	return resp
}

// Click presses a control of message msgID as user.
func (h *Harness) Click(user, msgID, customID string, values ...string) *fakediscord.Response {
	h.T.Helper()
	resp, err := h.Fake.Click(h.Ctx(), fakediscord.Invocation{User: user, MessageID: msgID, CustomID: customID, Values: values})
	if err != nil {
		h.T.Fatalf("click %s by %s: %v", customID, user, err)
	}
	return resp
}

// Control returns the custom ID of the first control of m whose custom ID
// has the action prefix mf/ACTION/.
func Control(t testing.TB, m fakediscord.Message, action bot.Action) string {
	t.Helper()
	for _, id := range m.CustomIDs() {
		if strings.HasPrefix(id, "mf/"+string(action)+"/") {
			return id
		}
	}
	t.Fatalf("message %s has no %s control; it has %v", m.ID, action, m.CustomIDs())
	return ""
}

// HasControl reports whether m has a control of the action.
func HasControl(m fakediscord.Message, action bot.Action) bool {
	for _, id := range m.CustomIDs() {
		if strings.HasPrefix(id, "mf/"+string(action)+"/") {
			return true
		}
	}
	return false
}

// Game reads a game from the database: the stored game and the engine game
// replayed from its event log, with its whole history. Every time, it checks
// that the stored snapshot is the state the log replays to.
func (h *Harness) Game(id int64) (*malefiz.Game, *engine.Game) {
	h.T.Helper()
	for {
		sg, err := h.Main.DB().Game(context.Background(), id)
		require.NoError(h.T, err, "game %d", id)
		events, err := h.Main.DB().Events(context.Background(), id)
		require.NoError(h.T, err, "events of game %d", id)
		if int64(len(events)) != sg.LastSeq {
			continue // a write came between the two reads
		}
		g, err := bot.Replay(sg, events)
		require.NoError(h.T, err)
		if len(sg.State) == 0 {
			require.Nil(h.T, g, "game %d has events of a started game but no state", id)
			return sg, nil
		}
		var snap engine.Game
		require.NoError(h.T, snap.UnmarshalSnapshot(sg.State))
		require.NotNil(h.T, g, "game %d has a state but never started", id)
		require.Equal(h.T, g.Position(), snap.Position(), "game %d: snapshot and replay differ", id)
		require.Equal(h.T, g.Phase(), snap.Phase(), "game %d: snapshot and replay differ", id)
		require.Equal(h.T, g.TurnNumber(), snap.TurnNumber(), "game %d: snapshot and replay differ", id)
		require.Equal(h.T, g.Rolled(), snap.Rolled(), "game %d: snapshot and replay differ", id)
		require.Equal(h.T, g.Winner(), snap.Winner(), "game %d: snapshot and replay differ", id)
		return sg, g
	}
}

// LastMessage is the newest message of the default channel.
func (h *Harness) LastMessage() fakediscord.Message {
	h.T.Helper()
	m, ok := h.Fake.LastMessage(h.Fake.ChannelID)
	if !ok {
		h.T.Fatal("no message in the channel")
	}
	return m
}

// HasBoard reports whether m carries the board PNG.
func HasBoard(m fakediscord.Message) bool {
	for _, a := range m.Attachments {
		if a.Filename == "board.png" && len(a.Data) > 8 && string(a.Data[1:4]) == "PNG" {
			return true
		}
	}
	return false
}

// BestRoll picks, for the player to move, the roll and move that a racing
// player would love: a capture when want allows, else the move that ends
// closest to the goal.
func BestRoll(p engine.Position, r engine.Rules, wantCapture bool) (int, engine.Move) {
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

// WaitTurn waits until the bot has posted the message of the game's current
// turn (or finished the game) and returns the turn message: with a Roll
// button, or already rolled with the move buttons (roll auto).
func (h *Harness) WaitTurn(gameID int64) (m fakediscord.Message, turn bool) {
	h.T.Helper()
	h.await(fmt.Sprintf("game %d: the bot did not post the next turn", gameID), func() bool {
		var posted bool
		m, turn, posted = h.turnPosted(gameID)
		return posted
	})
	return m, turn
}

// turnPosted is WaitTurn's poll: the message of the game's current turn
// (turn true) or its result (turn false), once posted.
func (h *Harness) turnPosted(gameID int64) (m fakediscord.Message, turn, posted bool) {
	sg, g := h.Game(gameID)
	if sg.Status == malefiz.StatusFinished {
		// Wait for the result message too.
		if m, ok := h.Fake.LastMessage(Place(sg)); ok && (strings.HasPrefix(Title(m), "🏆") || strings.HasPrefix(Title(m), "🎓")) {
			return m, false, true
		}
	} else if g != nil && (g.Phase() == engine.PhaseRoll || g.Phase() == engine.PhaseMove) {
		if m, ok := h.Fake.Message(sg.TurnMessageID); ok {
			for _, id := range m.CustomIDs() {
				c, err := bot.ParseCustomID(id)
				if err != nil || c.Turn != g.TurnNumber() {
					continue
				}
				if (c.Action == bot.ActRoll) == (g.Phase() == engine.PhaseRoll) {
					return m, true, true
				}
			}
		}
	}
	return fakediscord.Message{}, false, false
}

// Place is where a game plays: its thread, else its channel.
func Place(sg *malefiz.Game) string {
	if sg.ThreadID != "" {
		return sg.ThreadID
	}
	return sg.ChannelID
}

// SleepShort waits a moment between two polls.
func SleepShort() { time.Sleep(5 * time.Millisecond) }

// Logger keeps the program's log in buf, and also prints it when
// MALEFIZ_TEST_LOG is set.
func Logger(buf *LogBuffer) *slog.Logger {
	var w io.Writer = buf
	if os.Getenv("MALEFIZ_TEST_LOG") != "" {
		w = io.MultiWriter(buf, os.Stderr)
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// Tick runs one scheduler pass at the fake clock's time and waits for the
// messages it posts.
func (h *Harness) Tick() int {
	h.T.Helper()
	n, err := h.Main.Bot().Games().Tick(h.Ctx())
	if err != nil {
		h.T.Fatalf("tick: %v", err)
	}
	return n
}

// TickTournaments runs one pass of the round opener at the fake clock's
// time (the tournaments due: a start, a round over, tables to open) and
// returns how many tournaments it claimed.
func (h *Harness) TickTournaments() int {
	h.T.Helper()
	// Opening a round's tables takes longer than a click: up to two
	// minutes (a loaded machine, the race detector).
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	n, err := h.Main.Bot().Games().TickTournaments(ctx)
	if err != nil {
		h.T.Fatalf("tick tournaments: %v", err)
	}
	return n
}

// Invocation is user's click on the control customID of message msgID.
func Invocation(user, msgID, customID string) fakediscord.Invocation {
	return fakediscord.Invocation{User: user, MessageID: msgID, CustomID: customID}
}

// Title is the heading of a message: the first embed's title, or in a V2
// message the first "### " line of its text displays.
func Title(m fakediscord.Message) string {
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

// NewDie returns the harness's die: scripted, else seeded.
func NewDie() *Die { return NewSeededDie(7, 11) }

// NewSeededDie returns a die that rolls what a test set last, else values
// drawn from the seed.
func NewSeededDie(seed1, seed2 uint64) *Die { return &Die{rng: rand.New(rand.NewPCG(seed1, seed2))} }

// ClockAt returns a clock that stands at t until advanced.
func ClockAt(t time.Time) *Clock { return testclock.At(t) }

// Thread returns the fake's channel id, which must be a thread.
func (h *Harness) Thread(id string) fakediscord.Channel {
	h.T.Helper()
	for _, c := range h.Fake.Channels() {
		if c.ID == id {
			require.True(h.T, c.Thread, "channel %s is not a thread", id)
			return c
		}
	}
	h.T.Fatalf("no thread %s", id)
	return fakediscord.Channel{}
}

// WaitLobbyID waits until the store knows the lobby message's ID.
func (h *Harness) WaitLobbyID(id string) {
	h.T.Helper()
	ctx := h.Ctx()
	h.await("the lobby message ID was never stored", func() bool {
		sg, err := h.Main.DB().OpenGame(ctx, h.Fake.GuildID, h.Fake.ChannelID)
		return err == nil && sg.LobbyMessageID == id
	})
}
