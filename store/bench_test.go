package store

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store/storetest"
)

// Run with, e.g.:
//
//	scripts/test-postgres.sh go test -run '^$' -bench . -benchtime 2s -count 5 ./store
//
// Every benchmark runs on each backend (sqlite, and postgres when
// MALEFIZ_TEST_POSTGRES_URL is set), side by side. The statistics benchmarks
// share one database of benchGames finished games in one guild, built once
// per process in SQLite (some seconds) and copied into PostgreSQL with Copy,
// as `malefiz migrate-to` does (BenchmarkMigrateTo times and checks that).

const (
	benchGames   = 100_000
	benchPlayers = 1000   // humans; plus three computer levels
	benchOpen    = 10_000 // running games with timers
)

var benchNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

var (
	benchOnce   sync.Once
	benchDir    string
	benchErr    error
	pgBenchOnce sync.Once
	pgBenchURL  string
	pgBenchErr  error
	pgBenchDBs  = map[string]func() error{} // databases to drop at the end, by URL
)

// storeParallel is how many of the store's parallel tests run at once
// unless -test.parallel says otherwise: they wait on the databases (a
// PostgreSQL database created and dropped for each, a commit's fsync), so
// GOMAXPROCS at a time (go test's default, 2 on CI's two cores) would
// leave the cores idle.
const storeParallel = 8

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(storeParallel)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	for _, drop := range pgBenchDBs {
		if err := drop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.Exit(code)
}

// forEachBench runs f as a sub-benchmark on each backend.
func forEachBench(b *testing.B, f func(b *testing.B, backend TestBackend)) {
	for _, backend := range testBackends(b) {
		b.Run(backend.Name, func(b *testing.B) { f(b, backend) })
	}
}

// benchSQLite returns the path of the shared statistics database in SQLite.
func benchSQLite(b *testing.B) string {
	benchOnce.Do(func() {
		if benchDir, benchErr = os.MkdirTemp("", "store-bench-"); benchErr != nil {
			return
		}
		start := time.Now()
		benchErr = buildStats(context.Background(), filepath.Join(benchDir, "stats.db"))
		fmt.Fprintf(os.Stderr, "built %d finished games in %v\n", benchGames, time.Since(start).Round(time.Millisecond))
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return filepath.Join(benchDir, "stats.db")
}

// benchPostgres returns the URL of the shared statistics database in
// PostgreSQL: the SQLite one copied, vacuumed and analyzed.
func benchPostgres(b *testing.B) string {
	path := benchSQLite(b)
	pgBenchOnce.Do(func() {
		var url string
		if url, pgBenchErr = newBenchDatabase(); pgBenchErr != nil {
			return
		}
		start := time.Now()
		if pgBenchErr = copyBench(context.Background(), url, path); pgBenchErr != nil {
			return
		}
		db, err := sql.Open("pgx", url)
		if err != nil {
			pgBenchErr = err
			return
		}
		defer db.Close()
		if _, pgBenchErr = db.Exec(`VACUUM ANALYZE`); pgBenchErr != nil {
			return
		}
		fmt.Fprintf(os.Stderr, "copied them into PostgreSQL in %v\n", time.Since(start).Round(time.Millisecond))
		pgBenchURL = url
	})
	if pgBenchErr != nil {
		b.Fatal(pgBenchErr)
	}
	return pgBenchURL
}

// newBenchDatabase creates an empty PostgreSQL database that TestMain drops.
func newBenchDatabase() (string, error) {
	dbURL, drop, err := storetest.CreatePostgres("bench")
	if err != nil {
		return "", err
	}
	pgBenchDBs[dbURL] = drop
	return dbURL, nil
}

// dropBenchDatabase drops a database of newBenchDatabase at once.
func dropBenchDatabase(dbURL string) error {
	drop, ok := pgBenchDBs[dbURL]
	if !ok {
		return fmt.Errorf("no bench database %s", dbURL)
	}
	delete(pgBenchDBs, dbURL)
	return drop()
}

// copyBench copies the SQLite database at path into the one at url.
func copyBench(ctx context.Context, url, path string) error {
	src, err := Open(ctx, path)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := Open(ctx, url)
	if err != nil {
		return err
	}
	defer dst.Close()
	_, err = Copy(ctx, dst, src)
	return err
}

// benchStats returns the shared statistics database on the backend.
func benchStats(b *testing.B, backend TestBackend) *DB {
	where := benchSQLite(b)
	if backend.Name == "postgres" {
		where = benchPostgres(b)
	}
	db, err := Open(b.Context(), where)
	if err != nil {
		b.Fatal(err)
	}
	db.Now = func() time.Time { return benchNow }
	b.Cleanup(func() { db.Close() })
	return db
}

// buildStats writes benchGames finished games of guild "g", spread over the
// year before benchNow, between benchPlayers people and three computer
// levels, rated as FinishGame rates them, and benchOpen running games whose
// timers fall within a day of benchNow. It inserts the rows directly, in one
// transaction, and then computes the per-player aggregates from the results
// (TestAggregatesMatchResults checks that these agree with FinishGame's).
func buildStats(ctx context.Context, path string) error {
	db, err := Open(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	game, err := tx.PrepareContext(ctx, `INSERT INTO games (id, guild_id, channel_id, host_id, status,
			version, created_at, updated_at, finished_at, wake_at)
		VALUES (?, 'g', ?, 'u0', ?, 2, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	result, err := tx.PrepareContext(ctx, `INSERT INTO results (game_id, color, guild_id, player, name,
			is_computer, won, forfeit, captures, captured, barricades, turns, game_turns, finished_at,
			rating_before, rating_after)
		VALUES (?, ?, 'g', ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(7, 7))
	colors := []string{"red", "green", "yellow", "blue"}
	rating := map[string]float64{}
	year := 365 * 24 * time.Hour
	for i := range benchGames {
		id := int64(i + 1)
		finished := benchNow.Add(-year + year/benchGames*time.Duration(i)).UnixMilli()
		if _, err := game.ExecContext(ctx, id, fmt.Sprint("c", i%500), malefiz.StatusFinished,
			finished-3_600_000, finished, finished, nil); err != nil {
			return err
		}
		results := randomResults(rng, colors[:2+rng.IntN(3)], benchPlayers)
		before := make([]float64, len(results))
		for j, r := range results {
			before[j] = InitialRating
			if v, ok := rating[r.Player]; ok {
				before[j] = v
			}
		}
		delta := table.Elo(before, slices.IndexFunc(results, func(r malefiz.Result) bool { return r.Won }))
		for j, r := range results {
			rating[r.Player] = before[j] + delta[j]
			if _, err := result.ExecContext(ctx, id, r.Color, r.Player, r.Name, r.Computer, r.Won,
				r.Captures, r.Captured, r.Barricades, r.Turns, r.GameTurns, finished,
				before[j], rating[r.Player]); err != nil {
				return err
			}
		}
	}
	for i := range benchOpen {
		wake := benchNow.Add(time.Duration(rng.IntN(48)-24) * time.Hour).UnixMilli()
		if _, err := game.ExecContext(ctx, benchGames+i+1, fmt.Sprint("open", i), malefiz.StatusRunning,
			benchNow.UnixMilli(), benchNow.UnixMilli(), nil, wake); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return rebuildAggregates(ctx, db)
}

// benchGame opens a new database of backend, closed when b ends, with a
// running game of two people and a computer whose state has size bytes.
func benchGame(b *testing.B, backend TestBackend, size int) (*DB, *malefiz.Game) {
	db, err := Open(b.Context(), backend.NewURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	g := &malefiz.Game{GuildID: "g", ChannelID: "c", Status: malefiz.StatusRunning, State: make([]byte, size),
		Seats: []malefiz.Seat{{Color: "red", UserID: "u1"}, {Color: "green", UserID: "u2"}, {Color: "yellow", Computer: "easy"}}}
	if err := db.CreateGame(b.Context(), g, malefiz.Event{Kind: malefiz.EventStart, Data: "red"}); err != nil {
		b.Fatal(err)
	}
	return db, g
}

// One move persisted: state, two events (roll and move), version, seats,
// with synchronous=FULL. Reports the median and 99th percentile.
func BenchmarkMove(b *testing.B) {
	forEachBench(b, func(b *testing.B, backend TestBackend) {
		for _, size := range []int{2 << 10, 16 << 10} {
			b.Run(fmt.Sprintf("state=%dKiB", size>>10), func(b *testing.B) {
				db, g := benchGame(b, backend, size)
				rng := rand.New(rand.NewPCG(1, 1))
				times := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					g.State[rng.IntN(size)]++
					g.Deadline = benchNow.Add(time.Duration(i) * time.Minute)
					g.WakeAt = g.Deadline
					start := time.Now()
					if err := db.UpdateGame(b.Context(), g,
						malefiz.Event{Kind: malefiz.EventRoll, UserID: "u1", Color: "red", Data: "4"},
						malefiz.Event{Kind: malefiz.EventMove, UserID: "u1", Color: "red", Data: "c1-e3/h11"}); err != nil {
						b.Fatal(err)
					}
					times = append(times, time.Since(start))
				}
				reportPercentiles(b, times)
			})
		}
	})
}

// BenchmarkClick is the store's part of a click: LoadGame (the game, its
// server's and its players' settings), a Commit of the move with its two
// events and two effects claimed by the writer, and RecordDeliveries of
// both, one of them recording its message's ID.
func BenchmarkClick(b *testing.B) {
	forEachBench(b, func(b *testing.B, backend TestBackend) {
		db, g := benchGame(b, backend, 2<<10)
		b.ReportAllocs()
		cpu0 := processCPU(b)
		n := 0
		for i := 0; b.Loop(); i++ {
			n++
			l, err := db.LoadGame(b.Context(), g.ID, "u1")
			if err != nil {
				b.Fatal(err)
			}
			g := l.Game
			g.State[i%len(g.State)]++
			c := &Commit{Game: g,
				Events: []malefiz.Event{{Kind: malefiz.EventRoll, UserID: "u1", Color: "red", Data: "4"},
					{Kind: malefiz.EventMove, UserID: "u1", Color: "red", Data: "c1-e3/h11"}},
				Effects: []Effect{{Kind: "post", Payload: []byte("turn")}, {Kind: "edit", Payload: []byte("card")}},
				Owner:   "p1", Lease: time.Minute}
			if err := db.Commit(b.Context(), c); err != nil {
				b.Fatal(err)
			}
			if err := db.RecordDeliveries(b.Context(), "p1", []Delivery{
				{ID: c.Effects[0].ID, Result: "m", Record: &malefiz.MessageRecord{Role: malefiz.RoleTurn, MessageID: fmt.Sprint(i)}},
				{ID: c.Effects[1].ID, Result: "ok"}}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((processCPU(b)-cpu0).Microseconds())/1000/float64(n), "cpu-ms/op")
	})
}

// processCPU returns the CPU time the process has used, user and system
// (on PostgreSQL, not the server's).
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportPercentiles(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-p50")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "ms-p99")
}

// Finishing a four-seat game: status, results, ratings and aggregates.
func BenchmarkFinishGame(b *testing.B) {
	forEachBench(b, func(b *testing.B, backend TestBackend) {
		db, err := Open(b.Context(), backend.NewURL(b))
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		rng := rand.New(rand.NewPCG(1, 1))
		colors := []string{"red", "green", "yellow", "blue"}
		for b.Loop() {
			b.StopTimer()
			g := &malefiz.Game{GuildID: "g", ChannelID: "c", Status: malefiz.StatusRunning}
			if err := db.CreateGame(b.Context(), g); err != nil {
				b.Fatal(err)
			}
			results := randomResults(rng, colors, 100)
			b.StartTimer()
			if err := db.FinishGame(b.Context(), g, results, malefiz.Event{Kind: malefiz.EventWin}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The leaderboard of a guild with 100,000 finished games: all time, the
// last 30 days (about 8,200 games) and the whole year by period.
func BenchmarkLeaderboard(b *testing.B) {
	forEachBench(b, func(b *testing.B, backend TestBackend) {
		db := benchStats(b, backend)
		for _, tc := range []struct {
			name  string
			since time.Time
		}{
			{"all-time", time.Time{}},
			{"30-days", benchNow.AddDate(0, 0, -30)},
			{"365-days", benchNow.AddDate(-1, 0, 0)},
		} {
			b.Run(tc.name, func(b *testing.B) {
				for b.Loop() {
					lines, total, err := db.Leaderboard(b.Context(), "g", tc.since, 5, 0, 10)
					if err != nil || len(lines) != 10 || total < 100 {
						b.Fatalf("Leaderboard: %d lines of %d, %v", len(lines), total, err)
					}
				}
			})
		}
	})
}

func BenchmarkLeaderboardRank(b *testing.B) {
	forEachBench(b, func(b *testing.B, backend TestBackend) {
		db := benchStats(b, backend)
		for _, tc := range []struct {
			name  string
			since time.Time
		}{
			{"all-time", time.Time{}},
			{"30-days", benchNow.AddDate(0, 0, -30)},
		} {
			b.Run(tc.name, func(b *testing.B) {
				for b.Loop() {
					if _, err := db.LeaderboardRank(b.Context(), "g", tc.since, 0, "u500"); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}

func BenchmarkPlayerStats(b *testing.B) {
	forEachBench(b, func(b *testing.B, backend TestBackend) {
		db := benchStats(b, backend)
		for _, player := range []string{"u500", "ai:normal"} {
			b.Run(player, func(b *testing.B) {
				for b.Loop() {
					if _, err := db.PlayerStats(b.Context(), "g", player); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}

func BenchmarkRecentGames(b *testing.B) {
	forEachBench(b, func(b *testing.B, backend TestBackend) {
		db := benchStats(b, backend)
		for b.Loop() {
			if games, err := db.RecentGames(b.Context(), "g", 10); err != nil || len(games) != 10 {
				b.Fatal(len(games), err)
			}
		}
	})
}

// The scheduler's queries among 110,000 games, 10,000 of them with timers
// (about half of them due).
func BenchmarkDueGames(b *testing.B) {
	forEachBench(b, func(b *testing.B, backend TestBackend) {
		db := benchStats(b, backend)
		b.Run("DueGames", func(b *testing.B) {
			for b.Loop() {
				if games, err := db.DueGames(b.Context(), benchNow, 20); err != nil || len(games) != 20 {
					b.Fatal(len(games), err)
				}
			}
		})
		b.Run("ClaimDueGames", func(b *testing.B) {
			// What the scheduler runs: the same owner takes its claims
			// again each pass.
			for b.Loop() {
				if ids, err := db.ClaimDueGames(b.Context(), "bench", benchNow, time.Minute, 20); err != nil || len(ids) != 20 {
					b.Fatal(len(ids), err)
				}
			}
		})
		b.Run("NextWake", func(b *testing.B) {
			for b.Loop() {
				if _, ok, err := db.NextWake(b.Context()); err != nil || !ok {
					b.Fatal(ok, err)
				}
			}
		})
	})
}

// `malefiz migrate-to` of the 100,000-game database: Copy from SQLite into
// an empty PostgreSQL database, then CompareLeaderboards (every count, and
// the leaderboards of all time and of 30 days, line by line). It fails when
// they differ.
func BenchmarkMigrateTo(b *testing.B) {
	backends := testBackends(b)
	if len(backends) < 2 {
		b.Skip("no PostgreSQL")
	}
	path := benchSQLite(b)
	src, err := Open(b.Context(), path)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	for b.Loop() {
		b.StopTimer()
		url, err := newBenchDatabase()
		if err != nil {
			b.Fatal(err)
		}
		dst, err := Open(b.Context(), url)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		counts, err := Copy(b.Context(), dst, src)
		if err != nil {
			b.Fatal(err)
		}
		if err := CompareLeaderboards(b.Context(), dst, src, benchNow); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(counts["games"]), "games")
		b.ReportMetric(float64(counts["results"]), "results")
		b.StopTimer()
		dst.Close()
		if err := dropBenchDatabase(url); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkCommitAndClaim is the outbox under fast play, as the sender loop
// sees it: benchOutboxGames running games take turns, one commit per
// operation (the move's two events, the turn post and the scoreboard card's
// edit, claimed by nobody), the store's clock moving benchOutboxStep per
// commit (so each game commits once a second), and after each commit one
// ClaimEffects of up to 20 and RecordDeliveries of what it took. sends/op
// is the effects delivered per commit, cpu-ms/op the process's CPU time
// per commit (on PostgreSQL without the server's). card=main puts the card's edit in
// the game's main queue (as before the queues), card=queued in the "card"
// queue with the default gap: most edits are superseded, and a card is
// edited at most every 3 s.
func BenchmarkCommitAndClaim(b *testing.B) {
	forEachBench(b, func(b *testing.B, backend TestBackend) {
		for _, queue := range []string{"", "card"} {
			name := "card=main"
			if queue != "" {
				name = "card=queued"
			}
			b.Run(name, func(b *testing.B) { benchCommitAndClaim(b, backend, queue) })
		}
	})
}

func benchCommitAndClaim(b *testing.B, backend TestBackend, queue string) {
	db, err := Open(b.Context(), backend.NewURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	now := benchNow
	db.Now = func() time.Time { return now }
	games := make([]*malefiz.Game, benchOutboxGames)
	for i := range games {
		games[i] = &malefiz.Game{GuildID: "g", ChannelID: fmt.Sprint("c", i), Status: malefiz.StatusRunning, State: make([]byte, 2<<10),
			Seats: []malefiz.Seat{{Color: "red", UserID: "u1"}, {Color: "green", UserID: "u2"}}}
		if err := db.CreateGame(b.Context(), games[i], malefiz.Event{Kind: malefiz.EventStart, Data: "red"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	sends := 0
	cpu0 := processCPU(b)
	for i := 0; b.Loop(); i++ {
		now = now.Add(benchOutboxStep)
		g := games[i%len(games)]
		g.State[i%len(g.State)]++
		c := &Commit{Game: g,
			Events: []malefiz.Event{{Kind: malefiz.EventRoll, UserID: "u1", Color: "red", Data: "4"},
				{Kind: malefiz.EventMove, UserID: "u1", Color: "red", Data: "c1-e3/h11"}},
			Effects: []Effect{{Kind: "post", Payload: []byte("turn")}, {Queue: queue, Kind: "edit", Payload: []byte("card")}}}
		if err := db.Commit(b.Context(), c); err != nil {
			b.Fatal(err)
		}
		claimed, err := db.ClaimEffects(b.Context(), "sender", time.Minute, 20)
		if err != nil {
			b.Fatal(err)
		}
		done := make([]Delivery, len(claimed))
		for j, e := range claimed {
			done[j] = Delivery{ID: e.ID, Result: "ok"}
		}
		if err := db.RecordDeliveries(b.Context(), "sender", done); err != nil {
			b.Fatal(err)
		}
		sends += len(claimed)
	}
	b.ReportMetric(float64(sends)/float64(b.N), "sends/op")
	b.ReportMetric(float64((processCPU(b)-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

const (
	benchOutboxGames = 50
	benchOutboxStep  = time.Second / benchOutboxGames
)

// BenchmarkNextEffectAt is the question the sender asks when it goes idle,
// which weighs the outbox's claimable condition on every pending effect: a
// backlog of benchBacklog games, each with three posts and a card edit
// pending (Discord unreachable for a while, say).
func BenchmarkNextEffectAt(b *testing.B) {
	forEachBench(b, func(b *testing.B, backend TestBackend) {
		db, err := Open(b.Context(), backend.NewURL(b))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		db.Now = func() time.Time { return benchNow }
		for i := range benchBacklog {
			g := &malefiz.Game{GuildID: "g", ChannelID: fmt.Sprint("c", i), Status: malefiz.StatusRunning,
				Seats: []malefiz.Seat{{Color: "red", UserID: "u1"}, {Color: "green", UserID: "u2"}}}
			effects := []Effect{{Kind: "post", Payload: []byte("lobby")}, {Kind: "post", Payload: []byte("turn")},
				{Queue: "card", Kind: "edit", Payload: []byte("card")}, {Kind: "post", Payload: []byte("turn")}}
			if err := db.Commit(b.Context(), &Commit{Game: g, Effects: effects}); err != nil {
				b.Fatal(err)
			}
		}
		b.ResetTimer()
		for b.Loop() {
			if _, ok, err := db.NextEffectAt(b.Context()); err != nil || !ok {
				b.Fatal(ok, err)
			}
		}
	})
}

const benchBacklog = 200
