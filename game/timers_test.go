package game

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newTimerBot returns a bot on a fresh database with a fixed clock, and no
// Discord: the timers exercised here (lobby expiry without a message) make
// no Discord call.
func newTimerService(tb testing.TB) (*Service, *store.DB, time.Time) {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "t.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	b := New(Config{Store: db, Outbox: outbox.New(outbox.Config{Store: db, Owner: "test"}), Layout: textLayout{}, Owner: "test",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: func() time.Time { return now }})
	return b, db, now
}

// addLobbies stores n lobbies waking at wake, in channels named from prefix.
func addLobbies(tb testing.TB, db *store.DB, n int, prefix string, wake time.Time) []int64 {
	tb.Helper()
	var ids []int64
	for i := range n {
		g := &malefiz.Game{GuildID: "1", ChannelID: fmt.Sprintf("%s%d", prefix, i), HostID: "9", Status: malefiz.StatusLobby,
			Options: malefiz.Options{Seats: 2}, WakeAt: wake, Seats: []malefiz.Seat{{Color: "red", UserID: "9", Name: "host"}}}
		if err := db.CreateGame(context.Background(), g); err != nil {
			tb.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	return ids
}

func TestTickTouchesOnlyDueGames(t *testing.T) {
	b, db, now := newTimerService(t)
	pending := addLobbies(t, db, 50, "p", now.Add(time.Hour))
	due := addLobbies(t, db, 3, "d", now.Add(-time.Second))
	n, err := b.Tick(context.Background())
	if err != nil || n != 3 {
		t.Fatalf("Tick = %d, %v; want 3 due games", n, err)
	}
	for _, id := range due {
		if g, _ := db.Game(context.Background(), id); g.Status != malefiz.StatusCancelled {
			t.Errorf("due lobby %d is %s, want cancelled", id, g.Status)
		}
	}
	for _, id := range pending {
		if g, _ := db.Game(context.Background(), id); g.Version != 1 || g.Status != malefiz.StatusLobby {
			t.Errorf("pending lobby %d was touched: version %d status %s", id, g.Version, g.Status)
		}
	}
	if n, _ := b.Tick(context.Background()); n != 0 {
		t.Errorf("second pass found %d due games, want 0", n)
	}
}

// BenchmarkSchedulerPass is one scheduler pass with 10,000 games waiting on
// timers and 10 of them due.
func BenchmarkSchedulerPass(b *testing.B) {
	bot, db, now := newTimerService(b)
	addLobbies(b, db, 10000, "p", now.Add(time.Hour))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		addLobbies(b, db, 10, fmt.Sprintf("d%d-", i), now.Add(-time.Second))
		b.StartTimer()
		n, err := bot.Tick(context.Background())
		if err != nil || n != 10 {
			b.Fatalf("Tick = %d, %v", n, err)
		}
	}
}

// TestTheSchedulerRunsDueTimers: the scheduler started with games waiting
// runs the timer that falls due (a lobby past its life closes) and stops
// with its context.
func TestTheSchedulerRunsDueTimers(t *testing.T) {
	s, db, now := newTimerService(t)
	due := addLobbies(t, db, 2, "d", now.Add(-time.Second))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { s.RunScheduler(ctx); close(done) }()
	require.Eventually(t, func() bool {
		for _, id := range due {
			if g, _ := db.Game(context.Background(), id); g.Status != malefiz.StatusCancelled {
				return false
			}
		}
		return true
	}, 10*time.Second, 10*time.Millisecond)
	s.nudgeScheduler(now.Add(time.Second)) // wakes it: nothing due, it sleeps again
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the scheduler did not stop with its context")
	}
}

// TestATimerThatPanicsIsSkipped: a game whose timer panics is logged and
// left alone for a while; the other games' timers run.
func TestATimerThatPanicsIsSkipped(t *testing.T) {
	s, db, now := newTimerService(t)
	ids := addLobbies(t, db, 2, "d", now.Add(-time.Second))
	s.db = panicsOn{Store: db, game: ids[0]}
	n, err := s.Tick(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.True(t, s.skip.has(ids[0], now), "the bad game is skipped")
	assert.False(t, s.skip.has(ids[1], now))
	assert.False(t, s.skip.has(ids[0], now.Add(skipAfterPanic)), "for a while")
	g, err := db.Game(t.Context(), ids[1])
	require.NoError(t, err)
	assert.Equal(t, malefiz.StatusCancelled, g.Status, "the other game's timer ran")
}

// panicsOn is a store whose commits of one game panic: a stand-in for any
// bug on a timer's path.
type panicsOn struct {
	Store
	game int64
}

func (p panicsOn) Commit(ctx context.Context, c *store.Commit) error {
	if c.Game != nil && c.Game.ID == p.game {
		panic("a bad game")
	}
	return p.Store.Commit(ctx, c)
}
