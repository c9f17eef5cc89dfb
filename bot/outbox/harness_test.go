package outbox

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/internal/testclock"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// toFake sends every request discordgo makes to the fake.
type toFake struct{ base *url.URL }

func (t toFake) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = t.base.Scheme, t.base.Host, t.base.Host
	return http.DefaultTransport.RoundTrip(r)
}

// env is a sender against real SQLite in t.TempDir() and the Discord
// stand-in, with one running game in the stand-in's channel.
type env struct {
	t     *testing.T
	fake  *fakediscord.Fake
	db    *store.DB
	clock *testclock.Clock // the store's: a retry's wait passes by Advance
	dc    *discordgo.Session
	s     *Sender
	game  *malefiz.Game
	logs  *lockedBuffer
}

func newEnv(t *testing.T, cfg ...func(*Config)) *env {
	t.Helper()
	// The sender's rules are tested here with Discord's faults injected;
	// the channels' message buckets (5 per 5 s, waited out in real time)
	// are the limiter's and the end-to-end tests' concern, and would make
	// the outage's hundreds of retries take minutes.
	limits := fakediscord.DefaultLimits()
	limits.ChannelMessages, limits.MessageEdits = fakediscord.Rate{}, fakediscord.Rate{}
	fake := fakediscord.New(t, fakediscord.WithLimits(limits))
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "malefiz.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	c := testclock.At(time.Now().UTC())
	db.Now = c.Now
	e := &env{t: t, fake: fake, db: db, clock: c, logs: &lockedBuffer{}}
	e.dc = e.session()
	e.s = e.sender("p1", cfg...)
	e.game = &malefiz.Game{GuildID: fake.GuildID, ChannelID: fake.ChannelID, HostID: "1", Status: malefiz.StatusRunning,
		Options: malefiz.Options{Seats: 2, TurnTimeout: time.Hour}, State: []byte("s"), Locale: "en",
		Seats: []malefiz.Seat{{Color: "red", UserID: "1", Name: "Anna"}, {Color: "green", Computer: "easy", Name: "Computer"}}}
	require.NoError(t, db.CreateGame(t.Context(), e.game))
	return e
}

// session is a discordgo session whose requests go to the fake.
func (e *env) session() *discordgo.Session {
	dc, err := discordgo.New("Bot " + e.fake.Token())
	require.NoError(e.t, err)
	base, err := url.Parse(e.fake.URL())
	require.NoError(e.t, err)
	dc.Client = &http.Client{Transport: toFake{base}, Timeout: 10 * time.Second}
	dc.MaxRestRetries = 0
	return dc
}

// sender returns a sender of the env's database, as process owner, with
// a Discord session of its own (a process of its own).
func (e *env) sender(owner string, cfg ...func(*Config)) *Sender {
	dc := e.dc
	if dc == nil || owner != "p1" {
		dc = e.session()
	}
	c := Config{Store: e.db, Discord: dc, Owner: owner,
		Log: slog.New(slog.NewTextHandler(e.logs, nil)),
		Board: func(render.Scene) (*discordgo.File, error) {
			return &discordgo.File{Name: BoardFile, ContentType: "image/png", Reader: bytes.NewReader([]byte("png"))}, nil
		},
		Chart: func(json.RawMessage) (*discordgo.File, error) {
			return &discordgo.File{Name: ChartFile, ContentType: "image/png", Reader: bytes.NewReader([]byte("png"))}, nil
		},
	}
	for _, f := range cfg {
		f(&c)
	}
	return New(c)
}

// commit commits efs for the env's game, claimed by s's owner as the bot
// does, and returns the reserved delivery.
func (e *env) commit(s *Sender, efs ...queue.Effect) (*store.Commit, queue.Reservation) {
	e.t.Helper()
	c := &store.Commit{Game: e.game, Owner: s.owner, Lease: queue.Lease}
	for _, ef := range efs {
		if ef.Channel == "" {
			ef.Channel = e.game.ChannelID
		}
		se, err := ef.Stored()
		require.NoError(e.t, err)
		c.Effects = append(c.Effects, se)
	}
	require.NoError(e.t, e.db.Commit(e.t.Context(), c))
	for i := range efs {
		if efs[i].Channel == "" {
			efs[i].Channel = e.game.ChannelID
		}
	}
	return c, s.Reserve(c, efs)
}

// deliver commits efs and delivers them as the bot does after an answer.
// The game is loaded first, as a change does.
func (e *env) deliver(efs ...queue.Effect) error {
	e.t.Helper()
	e.game = e.stored()
	loaded := time.Now()
	_, d := e.commit(e.s, efs...)
	return d.Deliver(loaded, false)
}

// effects are the game's outbox.
func (e *env) effects() []store.EffectState {
	e.t.Helper()
	states, err := e.db.Effects(e.t.Context(), e.game.ID)
	require.NoError(e.t, err)
	return states
}

// stored is the game as stored.
func (e *env) stored() *malefiz.Game {
	e.t.Helper()
	g, err := e.db.Game(e.t.Context(), e.game.ID)
	require.NoError(e.t, err)
	return g
}

// pass runs the loop's pass at the store's time after wait.
func (e *env) pass(s *Sender, wait time.Duration) int {
	e.t.Helper()
	e.clock.Advance(wait)
	n, err := s.Pass(e.t.Context())
	require.NoError(e.t, err)
	return n
}

// calls counts the calls of route that Discord took: not those its rate
// limits refused, which discordgo makes again after the wait. A bucket's
// X-RateLimit-Reset-After comes in milliseconds and discordgo truncates
// it, so a request made the moment the bucket resets may still find it
// spent: TestAdoptionWaitsForTheAnswer's sixth look at @original (the
// interaction's bucket holds five per 2 s) was refused once in CI and
// counted 7.
func (e *env) calls(route string) int {
	n := 0
	for _, c := range e.fake.Calls() {
		if c.Route == route && c.Limited == "" {
			n++
		}
	}
	return n
}

// messages are the contents of the messages in channel, oldest first.
func (e *env) messages(channel string) []string {
	var out []string
	for _, m := range e.fake.ChannelMessages(channel) {
		out = append(out, m.Content)
	}
	return out
}

// text is a message body with content.
func text(content string) json.RawMessage {
	return mustJSON(map[string]any{"content": content, "allowed_mentions": map[string]any{"parse": []string{}}})
}

// post is a post of content recording its ID as role.
func post(content string, role malefiz.MessageRole) queue.Effect {
	return queue.Effect{Op: queue.Post, InPlay: true, Body: text(content), Record: role}
}

// ctx is a context for a call of the test.
func ctx(t *testing.T) context.Context { return t.Context() }

// contextWithCancel is a context of the test with its cancel.
func contextWithCancel(t *testing.T) (context.Context, context.CancelFunc) {
	return context.WithCancel(t.Context())
}

// lockedBuffer is the senders' log, written from the fake's goroutines
// too.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
