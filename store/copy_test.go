package store

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
)

// Both backends have the same migrations, by name.
func TestMigrationsMatch(t *testing.T) {
	sqlite, err := migrationNames("sqlite")
	require.NoError(t, err)
	postgres, err := migrationNames("postgres")
	require.NoError(t, err)
	assert.NotEmpty(t, sqlite)
	assert.Equal(t, sqlite, postgres, "every migration needs its PostgreSQL twin in migrations/postgres")
}

// Copy knows every table of the schema.
func TestCopyCoversSchema(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b TestBackend) {
		db := openInternal(t, b)
		q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
		if b.Name == "postgres" {
			q = `SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`
		}
		rows, err := db.r.QueryContext(t.Context(), q)
		require.NoError(t, err)
		defer rows.Close()
		var tables []string
		for rows.Next() {
			var name string
			require.NoError(t, rows.Scan(&name))
			if name != "migrations" {
				tables = append(tables, name)
			}
		}
		require.NoError(t, rows.Err())
		var known []string
		for _, ct := range copyTables {
			known = append(known, ct.name)
		}
		slices.Sort(tables)
		slices.Sort(known)
		assert.Equal(t, tables, known, "add the table to copyTables")
	})
}

// fillForCopy writes finished, running and cancelled games with events,
// results, settings and outbox effects, and a tournament.
func fillForCopy(t *testing.T, db *DB) {
	t.Helper()
	ctx := t.Context()
	now := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	rng := rand.New(rand.NewPCG(8, 9))
	colors := []string{"red", "green", "yellow", "blue"}
	for i := range 40 {
		now = now.Add(time.Duration(rng.IntN(48)) * time.Hour)
		g := &malefiz.Game{GuildID: []string{"g1", "g2"}[i%2], ChannelID: fmt.Sprint("c", i), Status: malefiz.StatusRunning,
			State: []byte{byte(i), 0, 1}, Seats: []malefiz.Seat{{Color: "red", UserID: "u1"}, {Color: "green", Computer: "easy", Left: i%3 == 0}},
			WakeAt: now.Add(time.Hour), ReminderSent: i%2 == 0}
		require.NoError(t, db.Commit(ctx, &Commit{Game: g, Events: []malefiz.Event{{Kind: malefiz.EventStart, Data: "red"}},
			Effects: []Effect{{Kind: "post", Payload: []byte("lobby")}}}))
		require.NoError(t, db.UpdateGame(ctx, g, malefiz.Event{Kind: malefiz.EventRoll, Data: "3"}, malefiz.Event{Kind: malefiz.EventMove, Data: "a1-b2"}))
		switch i % 4 {
		case 3: // left running
		case 2:
			g.Status = malefiz.StatusCancelled
			require.NoError(t, db.UpdateGame(ctx, g, malefiz.Event{Kind: malefiz.EventCancel}))
		default:
			require.NoError(t, db.FinishGame(ctx, g, randomResults(rng, colors[:2+rng.IntN(3)], 9), malefiz.Event{Kind: malefiz.EventWin}))
		}
	}
	require.NoError(t, db.SetGuildSettings(ctx, "g1", malefiz.GuildSettings{TurnTimeout: time.Hour}))
	effects, err := db.ClaimEffects(ctx, "p1", time.Minute, 5)
	require.NoError(t, err)
	require.NoError(t, db.EffectDone(ctx, "p1", effects[0].ID, "m1", nil))
	require.NoError(t, db.EffectFailed(ctx, "p1", effects[1].ID, "gone"))

	// A tournament: its entrants, a round of a table and a bye, the
	// table's game finished, its card in its outbox.
	tour := &malefiz.Tournament{GuildID: "g1", ChannelID: "t1", Name: "Cup",
		Setup:    malefiz.TournamentSetup{Format: "swiss", TableSize: 2, Rules: malefiz.HouseRules{SafeRow2: true}},
		Entrants: []malefiz.TournamentEntrant{{UserID: "u1", Rating: 1510}, {UserID: "u2"}, {UserID: "u3"}}}
	require.NoError(t, db.CreateTournament(ctx, tour, func(id int64) ([]Effect, error) {
		return []Effect{{Kind: "post", Payload: []byte("sign-up")}}, nil
	}))
	require.NoError(t, db.StartTournament(ctx, tour, malefiz.TournamentRound{Deadline: now.Add(time.Hour),
		Tables: []malefiz.TournamentTable{{Seats: []string{"u1", "u2"}}, {Seats: []string{"u3"}}}}, Effect{Queue: "card", Kind: "edit", Payload: []byte("round 1")}))
	g := &malefiz.Game{GuildID: "g1", ChannelID: "t1", Status: malefiz.StatusRunning, Threaded: true,
		TournamentID: tour.ID, TournamentRound: 1, TournamentTable: 1,
		Seats: []malefiz.Seat{{Color: "red", UserID: "u1"}, {Color: "green", UserID: "u2", Left: true}}}
	require.NoError(t, db.CreateGame(ctx, g))
	require.NoError(t, db.FinishGame(ctx, g, []malefiz.Result{
		{Player: "u1", Color: "red", Won: true, Place: 1}, {Player: "u2", Color: "green", Place: 2}}))
}

// Copy from each backend into each: every row arrives, the leaderboards
// agree, the copy goes on numbering games after the copied ones, and a copy
// into a database that holds rows is refused.
func TestCopy(t *testing.T) {
	t.Parallel()
	for _, from := range testBackends(t) {
		for _, to := range testBackends(t) {
			t.Run(from.Name+"-to-"+to.Name, func(t *testing.T) {
				t.Parallel()
				src := openInternal(t, from)
				fillForCopy(t, src)
				dst := openInternal(t, to)
				counts, err := Copy(t.Context(), dst, src)
				require.NoError(t, err)
				assert.Equal(t, int64(41), counts["games"])
				assert.Positive(t, counts["outbox"])
				require.NoError(t, CompareLeaderboards(t.Context(), dst, src, src.Now()))

				for _, id := range []int64{1, 2, 3, 4} {
					want, err := src.Game(t.Context(), id)
					require.NoError(t, err)
					got, err := dst.Game(t.Context(), id)
					require.NoError(t, err)
					assert.Equal(t, want, got)
					wantEvents, _ := src.Events(t.Context(), id)
					gotEvents, err := dst.Events(t.Context(), id)
					require.NoError(t, err)
					assert.Equal(t, wantEvents, gotEvents)
					wantEffects, _ := src.Effects(t.Context(), id)
					gotEffects, err := dst.Effects(t.Context(), id)
					require.NoError(t, err)
					assert.Equal(t, wantEffects, gotEffects)
				}
				for _, p := range []string{"u1", "u2"} {
					want, err := src.PlayerStats(t.Context(), "g1", p)
					require.NoError(t, err)
					got, err := dst.PlayerStats(t.Context(), "g1", p)
					require.NoError(t, err)
					assert.Equal(t, want, got)
				}
				s, err := dst.GuildSettings(t.Context(), "g1")
				require.NoError(t, err)
				assert.Equal(t, time.Hour, s.TurnTimeout)

				for _, table := range []string{"tournaments", "tournament_entrants", "tournament_rounds",
					"tournament_tables", "tournament_seats"} {
					assert.Positive(t, counts[table], table)
				}
				want, err := src.Tournament(t.Context(), 1)
				require.NoError(t, err)
				got, err := dst.Tournament(t.Context(), 1)
				require.NoError(t, err)
				assert.Equal(t, want, got)
				assert.Equal(t, 1, got.Entrants[1].Forfeits)
				wantEffects, _ := src.TournamentEffects(t.Context(), 1)
				gotEffects, err := dst.TournamentEffects(t.Context(), 1)
				require.NoError(t, err)
				assert.Equal(t, wantEffects, gotEffects)

				g := &malefiz.Game{GuildID: "g1", ChannelID: "new", Status: malefiz.StatusLobby}
				require.NoError(t, dst.CreateGame(t.Context(), g))
				assert.Equal(t, int64(42), g.ID)
				tour := &malefiz.Tournament{GuildID: "g1", ChannelID: "new", Name: "Next", Setup: malefiz.TournamentSetup{Format: "knockout", TableSize: 2}}
				require.NoError(t, dst.CreateTournament(t.Context(), tour, nil))
				assert.Equal(t, int64(2), tour.ID)

				_, err = Copy(t.Context(), dst, src)
				assert.ErrorContains(t, err, "not empty")
			})
		}
	}
}

// A PostgreSQL database backs up into a SQLite file that opens as a store.
func TestBackupPostgres(t *testing.T) {
	t.Parallel()
	backends := testBackends(t)
	if len(backends) < 2 {
		t.Skip("no PostgreSQL")
	}
	src := openInternal(t, backends[1])
	fillForCopy(t, src)
	out := filepath.Join(t.TempDir(), "backup.db")
	require.NoError(t, src.Backup(t.Context(), out))
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "*"))
	assert.Equal(t, []string{out}, matches, "the backup is one file")
	copied, err := Open(t.Context(), "sqlite:"+out)
	require.NoError(t, err)
	defer copied.Close()
	require.NoError(t, CompareLeaderboards(t.Context(), copied, src, src.Now()))
}
