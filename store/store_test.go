package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/internal/testclock"
	"github.com/malefiz-discord/malefiz/store"
	_ "modernc.org/sqlite"
)

// t0 is the test clock's start.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// newClock is a clock the test moves, at t0.
func newClock() *testclock.Clock        { return testclock.At(t0) }
func ctxT(t testing.TB) context.Context { return t.Context() }
func dbPath(t testing.TB) string        { return filepath.Join(t.TempDir(), "malefiz.db") }
func mustOpen(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(ctxT(t), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	db.Rate = table.Elo // the bot's rule
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}

// forEachBackend runs f as a subtest on each backend the tests run on,
// in parallel (see store.ForEachBackend).
func forEachBackend(t *testing.T, f func(t *testing.T, b store.TestBackend)) {
	store.ForEachBackend(t, f)
}

// forEachBackendSerial runs f as a subtest on each backend, one after the
// other and beside no other test: for the tests that spawn processes.
func forEachBackendSerial(t *testing.T, f func(t *testing.T, b store.TestBackend)) {
	for _, b := range store.TestBackends(t) {
		t.Run(b.Name, func(t *testing.T) { f(t, b) })
	}
}

// openTest opens a new database of the backend with a test clock.
func openTest(t testing.TB, b store.TestBackend) (*store.DB, *testclock.Clock) {
	t.Helper()
	db := mustOpen(t, b.NewURL(t))
	c := newClock()
	db.Now = c.Now
	return db, c
}

// newGame returns an unsaved running game of two seats in channel.
func newGame(channel string) *malefiz.Game {
	return &malefiz.Game{
		GuildID:   "guild1",
		ChannelID: channel,
		HostID:    "u1",
		Status:    malefiz.StatusRunning,
		Options:   malefiz.Options{Seats: 2, TurnTimeout: time.Hour, SixAgain: true},
		State:     []byte("state 0"),
		Locale:    "de",
		Seats: []malefiz.Seat{
			{Color: "red", UserID: "u1", Name: "Anna"},
			{Color: "green", Computer: "easy", Name: "Computer"},
		},
	}
}

func mustCreate(t testing.TB, db *store.DB, g *malefiz.Game, events ...malefiz.Event) {
	t.Helper()
	if err := db.CreateGame(ctxT(t), g, events...); err != nil {
		t.Fatalf("CreateGame: %v", err)
	}
}

// rawDB opens the database behind the store for inspection.
func rawDB(t testing.TB, b store.TestBackend, path string) *sql.DB {
	t.Helper()
	raw, err := sql.Open(b.Driver(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}

func TestOpenMigratesOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		path := b.NewURL(t)
		for range 3 {
			db, err := store.Open(ctxT(t), path)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if err := db.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
		}
		raw := rawDB(t, b, path)
		var n int
		if err := raw.QueryRow(`SELECT count(*) FROM migrations`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob("migrations/" + b.Name + "/*.sql")
		if n != len(files) || n == 0 {
			t.Errorf("migrations recorded %d, want %d", n, len(files))
		}
		if b.Name != "sqlite" {
			return
		}
		var version int
		if err := raw.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
			t.Fatal(err)
		}
		if version != len(files) {
			t.Errorf("user_version %d; want %d", version, len(files))
		}
		var mode string
		if err := raw.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" {
			t.Errorf("journal_mode %q, want wal", mode)
		}
	})
}

func TestOpenConcurrentlyMigratesOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		path := b.NewURL(t)
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				db, err := store.Open(ctxT(t), path)
				if err == nil {
					err = db.Close()
				}
				errs <- err
			}()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Errorf("Open: %v", err)
			}
		}
		db := mustOpen(t, path)
		mustCreate(t, db, newGame("c1"))
	})
}

func TestReopenKeepsGames(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		path := b.NewURL(t)
		db, err := store.Open(ctxT(t), path)
		if err != nil {
			t.Fatal(err)
		}
		c := newClock()
		db.Now = c.Now
		var want []*malefiz.Game
		for i, ch := range []string{"c1", "c2", "c3"} {
			g := newGame(ch)
			g.Deadline = t0.Add(time.Duration(i+1) * time.Hour)
			g.WakeAt = g.Deadline
			mustCreate(t, db, g, malefiz.Event{Kind: malefiz.EventStart, Data: "red"})
			c.Advance(time.Minute)
			g.State = []byte("state 1")
			if err := db.UpdateGame(ctxT(t), g, malefiz.Event{Kind: malefiz.EventRoll, Color: "red", Data: "4"}); err != nil {
				t.Fatal(err)
			}
			if err := db.SetMessageID(ctxT(t), g.ID, malefiz.RoleTurn, "m"+ch); err != nil {
				t.Fatal(err)
			}
			g.TurnMessageID = "m" + ch
			want = append(want, g)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}

		db = mustOpen(t, path)
		for _, w := range want {
			got, err := db.Game(ctxT(t), w.ID)
			if err != nil {
				t.Fatalf("Game(%d): %v", w.ID, err)
			}
			if !reflect.DeepEqual(got, w) {
				t.Errorf("after reopening, game %d is\n%+v\nwant\n%+v", w.ID, got, w)
			}
			events, err := db.Events(ctxT(t), w.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(events) != 2 || events[1].Data != "4" {
				t.Errorf("after reopening, events %+v", events)
			}
		}
	})
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		path := b.NewURL(t)
		db, err := store.Open(ctxT(t), path)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		raw := rawDB(t, b, path)
		if _, err := raw.Exec(`INSERT INTO migrations (name, applied_at) VALUES ('9999_from_the_future.sql', 0)`); err != nil {
			t.Fatal(err)
		}
		raw.Close()

		db, err = store.Open(ctxT(t), path)
		if err == nil {
			db.Close()
			t.Fatal("Open of a newer database succeeded")
		}
		if !errors.Is(err, store.ErrNewerSchema) || !strings.Contains(err.Error(), "9999_from_the_future.sql") {
			t.Errorf("Open: %v, want ErrNewerSchema naming the migration", err)
		}
	})
}

func TestOpenNotADatabase(t *testing.T) {
	path := dbPath(t)
	if err := os.WriteFile(path, []byte(strings.Repeat("this is not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctxT(t), path)
	if err == nil {
		db.Close()
		t.Fatal("Open of a text file succeeded")
	}
	if !strings.Contains(err.Error(), "not a SQLite database") || !strings.Contains(err.Error(), path) {
		t.Errorf("Open: %v, want an error naming the file and saying it is not a database", err)
	}
}

func TestOpenBadPath(t *testing.T) {
	for name, path := range map[string]string{
		"empty":             "",
		"missing directory": filepath.Join(t.TempDir(), "no", "such", "dir", "x.db"),
		"directory":         t.TempDir(),
	} {
		t.Run(name, func(t *testing.T) {
			db, err := store.Open(ctxT(t), path)
			if err == nil {
				db.Close()
				t.Fatalf("Open(%q) succeeded", path)
			}
			t.Logf("Open(%q): %v", path, err)
		})
	}
}

func TestCreateGame(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		mustCreate(t, db, g, malefiz.Event{Kind: malefiz.EventJoin, UserID: "u1", Color: "red"})
		if g.ID == 0 || g.Version != 1 || g.LastSeq != 1 || !g.CreatedAt.Equal(t0) || !g.UpdatedAt.Equal(t0) {
			t.Errorf("after CreateGame: ID %d, Version %d, LastSeq %d, CreatedAt %v, UpdatedAt %v",
				g.ID, g.Version, g.LastSeq, g.CreatedAt, g.UpdatedAt)
		}
		got, err := db.Game(ctxT(t), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, g) {
			t.Errorf("Game is\n%+v\nwant\n%+v", got, g)
		}
		got, err = db.OpenGame(ctxT(t), "guild1", "c1")
		if err != nil || got.ID != g.ID {
			t.Errorf("OpenGame: %v, %v; want game %d", got, err, g.ID)
		}
	})
}

func TestCreateGameInvalid(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		for name, mod := range map[string]func(*malefiz.Game){
			"no guild":     func(g *malefiz.Game) { g.GuildID = "" },
			"no channel":   func(g *malefiz.Game) { g.ChannelID = "" },
			"finished":     func(g *malefiz.Game) { g.Status = malefiz.StatusFinished },
			"no status":    func(g *malefiz.Game) { g.Status = "" },
			"colour twice": func(g *malefiz.Game) { g.Seats[1].Color = "red" },
			"bogus status": func(g *malefiz.Game) { g.Status = "paused" },
		} {
			t.Run(name, func(t *testing.T) {
				g := newGame("c-" + name)
				mod(g)
				if err := db.CreateGame(ctxT(t), g); err == nil {
					t.Errorf("CreateGame succeeded")
				}
			})
		}
		if _, err := db.OpenGame(ctxT(t), "guild1", "c-colour twice"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a failed CreateGame left a game behind: %v", err)
		}
	})
}

func TestCreateGameChannelBusy(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		g.Status = malefiz.StatusLobby
		mustCreate(t, db, g)

		if err := db.CreateGame(ctxT(t), newGame("c1")); !errors.Is(err, store.ErrChannelBusy) {
			t.Errorf("second game in the channel: %v, want ErrChannelBusy", err)
		}
		mustCreate(t, db, newGame("c2"))
		other := newGame("c1")
		other.GuildID = "guild2"
		mustCreate(t, db, other)

		g.Status = malefiz.StatusCancelled
		if err := db.UpdateGame(ctxT(t), g, malefiz.Event{Kind: malefiz.EventCancel}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.OpenGame(ctxT(t), "guild1", "c1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("OpenGame after cancel: %v, want ErrNotFound", err)
		}
		mustCreate(t, db, newGame("c1"))
	})
}

func TestNotFound(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		if _, err := db.Game(ctxT(t), 42); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Game: %v", err)
		}
		if _, err := db.OpenGame(ctxT(t), "guild1", "c1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("OpenGame: %v", err)
		}
		if _, err := db.Events(ctxT(t), 42); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Events: %v", err)
		}
		g := newGame("c1")
		g.ID, g.Version = 42, 1
		if err := db.UpdateGame(ctxT(t), g); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UpdateGame: %v", err)
		}
		if err := db.FinishGame(ctxT(t), g, twoResults()); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("FinishGame: %v", err)
		}
	})
}

func TestUpdateGame(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		g := newGame("c1")
		mustCreate(t, db, g, malefiz.Event{Kind: malefiz.EventStart, Data: "red"})

		c.Advance(time.Minute)
		g.State = []byte("state 1")
		g.HostID = "u2"
		g.Options.SafeRow2 = true
		g.Locale = "en-US"
		g.Deadline = c.Now().Add(24 * time.Hour)
		g.RemindAt = c.Now().Add(12 * time.Hour)
		g.WakeAt = g.RemindAt
		g.ReminderSent = true
		g.Seats[0].Timeouts = 2
		g.Seats = append(g.Seats, malefiz.Seat{Color: "yellow", UserID: "u3", Name: "Cem", Left: true})
		if err := db.UpdateGame(ctxT(t), g,
			malefiz.Event{Kind: malefiz.EventRoll, UserID: "u1", Color: "red", Data: "6"},
			malefiz.Event{Kind: malefiz.EventMove, UserID: "u1", Color: "red", Data: "c1-e3/h11", At: t0.Add(time.Hour)},
		); err != nil {
			t.Fatal(err)
		}
		if g.Version != 2 || g.LastSeq != 3 || !g.UpdatedAt.Equal(c.Now()) {
			t.Errorf("after UpdateGame: Version %d, LastSeq %d, UpdatedAt %v", g.Version, g.LastSeq, g.UpdatedAt)
		}
		// Message IDs are recorded apart, without a new version.
		require.NoError(t, db.SetMessageID(ctxT(t), g.ID, malefiz.RoleLobby, "m1"))
		require.NoError(t, db.SetMessageID(ctxT(t), g.ID, malefiz.RoleTurn, "m2"))
		g.LobbyMessageID, g.TurnMessageID = "m1", "m2"
		got, err := db.Game(ctxT(t), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, g) {
			t.Errorf("Game is\n%+v\nwant\n%+v", got, g)
		}

		events, err := db.Events(ctxT(t), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := []malefiz.Event{
			{Seq: 1, At: t0, Kind: "start", Data: "red"},
			{Seq: 2, At: c.Now(), Kind: "roll", UserID: "u1", Color: "red", Data: "6"},
			{Seq: 3, At: t0.Add(time.Hour), Kind: "move", UserID: "u1", Color: "red", Data: "c1-e3/h11"},
		}
		if !reflect.DeepEqual(events, want) {
			t.Errorf("Events:\n%+v\nwant\n%+v", events, want)
		}

		// Seats can go too.
		g.Seats = g.Seats[:1]
		if err := db.UpdateGame(ctxT(t), g); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.Game(ctxT(t), g.ID); len(got.Seats) != 1 || got.LastSeq != 3 {
			t.Errorf("after removing seats: %+v", got)
		}
	})
}

func TestUpdateGameConflict(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		mustCreate(t, db, g)

		mine, _ := db.Game(ctxT(t), g.ID)
		theirs, _ := db.Game(ctxT(t), g.ID)
		theirs.State = []byte("theirs")
		if err := db.UpdateGame(ctxT(t), theirs, malefiz.Event{Kind: malefiz.EventRoll, Data: "1"}); err != nil {
			t.Fatal(err)
		}
		before := *mine
		mine.State = []byte("mine")
		err := db.UpdateGame(ctxT(t), mine, malefiz.Event{Kind: malefiz.EventRoll, Data: "2"})
		if !errors.Is(err, store.ErrConflict) {
			t.Fatalf("stale UpdateGame: %v, want ErrConflict", err)
		}
		if mine.Version != before.Version || mine.LastSeq != before.LastSeq {
			t.Errorf("a failed UpdateGame changed the game: version %d, last seq %d", mine.Version, mine.LastSeq)
		}
		if err := db.FinishGame(ctxT(t), mine, twoResults()); !errors.Is(err, store.ErrConflict) {
			t.Errorf("stale FinishGame: %v, want ErrConflict", err)
		}
		got, _ := db.Game(ctxT(t), g.ID)
		if string(got.State) != "theirs" || got.Version != 2 {
			t.Errorf("stored state %q version %d, want theirs, 2", got.State, got.Version)
		}
		events, _ := db.Events(ctxT(t), g.ID)
		if len(events) != 1 || events[0].Data != "1" {
			t.Errorf("events %+v, want the one roll of 1", events)
		}
		if _, err := db.PlayerStats(ctxT(t), "guild1", "u1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a stale FinishGame recorded statistics: %v", err)
		}
	})
}

func TestUpdateGameStatus(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		g.Status = malefiz.StatusLobby
		mustCreate(t, db, g)

		g.Status = malefiz.StatusFinished
		if err := db.UpdateGame(ctxT(t), g); err == nil || errors.Is(err, store.ErrConflict) {
			t.Errorf("UpdateGame to finished: %v, want an error pointing to FinishGame", err)
		}
		g.Status = malefiz.StatusRunning
		if err := db.UpdateGame(ctxT(t), g); err != nil {
			t.Fatal(err)
		}
		g.Status = malefiz.StatusCancelled
		g.WakeAt = t0.Add(time.Hour)
		if err := db.UpdateGame(ctxT(t), g); err != nil {
			t.Fatal(err)
		}
		if !g.WakeAt.IsZero() || g.FinishedAt.IsZero() {
			t.Errorf("cancelled: WakeAt %v, FinishedAt %v; want none, set", g.WakeAt, g.FinishedAt)
		}
		// Still writable as cancelled, but not reopened.
		g.TurnMessageID = "m9"
		if err := db.UpdateGame(ctxT(t), g); err != nil {
			t.Errorf("UpdateGame of a cancelled game: %v", err)
		}
		g.Status = malefiz.StatusRunning
		if err := db.UpdateGame(ctxT(t), g); err == nil {
			t.Errorf("a cancelled game was reopened")
		}
		g.Status = malefiz.StatusCancelled
		if err := db.FinishGame(ctxT(t), g, twoResults()); err == nil {
			t.Errorf("a cancelled game was finished")
		}
		if _, err := db.PlayerStats(ctxT(t), "guild1", "u1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a cancelled game counted: %v", err)
		}
	})
}

func TestDueGamesAndNextWake(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		if _, ok, err := db.NextWake(ctxT(t)); ok || err != nil {
			t.Errorf("NextWake of an empty database: %v, %v", ok, err)
		}
		wakes := []time.Duration{3 * time.Hour, time.Hour, 0, 2 * time.Hour, 5 * time.Hour}
		ids := map[time.Duration]int64{}
		for i, w := range wakes {
			g := newGame(string(rune('a' + i)))
			if w != 0 {
				g.WakeAt = t0.Add(w)
			}
			mustCreate(t, db, g)
			ids[w] = g.ID
		}
		next, ok, err := db.NextWake(ctxT(t))
		if err != nil || !ok || !next.Equal(t0.Add(time.Hour)) {
			t.Errorf("NextWake: %v, %v, %v; want %v", next, ok, err, t0.Add(time.Hour))
		}

		due, err := db.DueGames(ctxT(t), t0.Add(3*time.Hour), 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, g := range due {
			got = append(got, g.ID)
			if len(g.Seats) != 2 {
				t.Errorf("due game %d without its seats", g.ID)
			}
		}
		want := []int64{ids[time.Hour], ids[2*time.Hour], ids[3*time.Hour]}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("DueGames: %v, want %v", got, want)
		}
		if due, _ := db.DueGames(ctxT(t), t0.Add(3*time.Hour), 2); len(due) != 2 {
			t.Errorf("DueGames with limit 2: %d games", len(due))
		}

		// Handling a timer moves it on; ending a game drops it.
		g := due[0]
		g.WakeAt = t0.Add(10 * time.Hour)
		if err := db.UpdateGame(ctxT(t), g); err != nil {
			t.Fatal(err)
		}
		g = due[1]
		if err := db.FinishGame(ctxT(t), g, twoResults()); err != nil {
			t.Fatal(err)
		}
		due, _ = db.DueGames(ctxT(t), t0.Add(3*time.Hour), 10)
		if len(due) != 1 || due[0].ID != ids[3*time.Hour] {
			t.Errorf("DueGames after handling two: %v", due)
		}
	})
}

func TestEvents(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		mustCreate(t, db, g)
		if events, err := db.Events(ctxT(t), g.ID); err != nil || len(events) != 0 {
			t.Errorf("Events of a game without: %v, %v", events, err)
		}
		if err := db.UpdateGame(ctxT(t), g, malefiz.Event{}); err == nil {
			t.Errorf("UpdateGame with an event without kind succeeded")
		}
	})
}

func TestGuildSettings(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		s, err := db.GuildSettings(ctxT(t), "guild1")
		if err != nil {
			t.Fatal(err)
		}
		if want := (malefiz.GuildSettings{TurnTimeout: 24 * time.Hour, Reminders: true, Threads: true, Roll: "auto", Chances: true}); s != want {
			t.Errorf("default settings %+v, want %+v", s, want)
		}
		set := malefiz.GuildSettings{TurnTimeout: 90 * time.Minute, Reminders: false, Threads: false, Roll: "button"}
		if err := db.SetGuildSettings(ctxT(t), "guild1", set); err != nil {
			t.Fatal(err)
		}
		if s, _ := db.GuildSettings(ctxT(t), "guild1"); s != set {
			t.Errorf("settings %+v, want %+v", s, set)
		}
		set.Chances = true
		require.NoError(t, db.SetGuildSettings(ctxT(t), "guild1", set))
		s, err = db.GuildSettings(ctxT(t), "guild1")
		require.NoError(t, err)
		require.True(t, s.Chances, "chances on again")
		if s, _ := db.GuildSettings(ctxT(t), "guild2"); s != malefiz.DefaultGuildSettings() {
			t.Errorf("another guild's settings %+v", s)
		}
		if err := db.SetGuildSettings(ctxT(t), "guild1", malefiz.GuildSettings{}); err == nil {
			t.Errorf("SetGuildSettings with no timeout succeeded")
		}
	})
}

func TestBackup(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		for i := range 20 {
			mustCreate(t, db, newGame(string(rune('a'+i))))
		}
		dir := t.TempDir()
		out := filepath.Join(dir, "backup.db")
		if err := os.WriteFile(out, []byte("an older backup"), 0o644); err != nil {
			t.Fatal(err)
		}

		// Writers go on during the backup.
		stop := make(chan struct{})
		done := make(chan error)
		go func() {
			g := newGame("busy")
			err := db.CreateGame(ctxT(t), g)
			for err == nil {
				select {
				case <-stop:
					done <- nil
					return
				default:
				}
				err = db.UpdateGame(ctxT(t), g, malefiz.Event{Kind: malefiz.EventRoll, Data: "3"})
			}
			done <- err
		}()
		err := db.Backup(ctxT(t), out)
		close(stop)
		if werr := <-done; werr != nil {
			t.Errorf("writer during backup: %v", werr)
		}
		if err != nil {
			t.Fatalf("Backup: %v", err)
		}

		raw := rawDB(t, store.TestBackend{Name: "sqlite"}, out) // a backup is a SQLite file
		var check string
		if err := raw.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
			t.Errorf("integrity_check of the backup: %q, %v", check, err)
		}
		raw.Close()
		copyDB := mustOpen(t, out)
		for i := range 20 {
			if _, err := copyDB.OpenGame(ctxT(t), "guild1", string(rune('a'+i))); err != nil {
				t.Errorf("backup lacks a game: %v", err)
			}
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp")); len(left) != 0 {
			t.Errorf("backup left %v behind", left)
		}

		if err := db.Backup(ctxT(t), filepath.Join(dir, "no", "such", "dir.db")); err == nil {
			t.Errorf("Backup into a missing directory succeeded")
		}
	})
}

func TestOpenCorrupt(t *testing.T) {
	t.Parallel()
	for name, corrupt := range map[string]func(*os.File) error{
		"garbage pages": func(f *os.File) error {
			_, err := f.WriteAt(bytes.Repeat([]byte{0xab}, 3*4096), 2*4096)
			return err
		},
		"truncated": func(f *os.File) error { return f.Truncate(3 * 4096) },
	} {
		t.Run(name, func(t *testing.T) {
			path := dbPath(t)
			db, err := store.Open(ctxT(t), path)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for i := range 100 {
				g := newGame(fmt.Sprint("c", i))
				g.State = bytes.Repeat([]byte{byte(i)}, 500)
				mustCreate(t, db, g, malefiz.Event{Kind: malefiz.EventStart})
				ids = append(ids, g.ID)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := corrupt(f); err != nil {
				t.Fatal(err)
			}
			f.Close()

			db, err = store.Open(ctxT(t), path)
			if err != nil {
				t.Logf("Open: %v", err)
				return
			}
			defer db.Close()
			var failed error
			for _, id := range ids {
				if _, err := db.Game(ctxT(t), id); err != nil {
					failed = err
				}
			}
			if _, err := db.DueGames(ctxT(t), t0, 1000); err != nil {
				failed = err
			}
			if failed == nil {
				t.Errorf("a corrupt database reads without error")
			}
			t.Logf("reading: %v", failed)
		})
	}
}
