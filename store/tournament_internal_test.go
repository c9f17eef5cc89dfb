package store

import (
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
)

// openAt opens the database at url with the backend's migrations up to
// last only, as an older program left it, for raw writes in that schema.
func openAt(t *testing.T, b TestBackend, url, last string) (*sql.DB, *dialect) {
	t.Helper()
	db := &DB{Now: time.Now, d: sqliteDialect}
	if b.Name == "postgres" {
		cfg, err := pgx.ParseConfig(url)
		require.NoError(t, err)
		db.d, db.w = postgresDialect, stdlib.OpenDB(*cfg)
	} else {
		var err error
		db.w, err = sql.Open("sqlite", dsn(url, "_txlock=immediate"))
		require.NoError(t, err)
		db.w.SetMaxOpenConns(1)
	}
	t.Cleanup(func() { db.w.Close() })
	require.NoError(t, db.migrateTo(t.Context(), last))
	return db.w, db.d
}

// A database at migration 0016 with games in it (finished with results,
// running with effects pending in both queues of its outbox) takes 0017:
// every row is kept and reads as before, the pending effects are still
// claimed in order, and tournaments can be played on it.
func TestMigrationToTournaments(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b TestBackend) {
		ctx := t.Context()
		url := b.NewURL(t)
		raw, d := openAt(t, b, url, "0016_coach_claims.sql")
		exec := func(q string, args ...any) {
			t.Helper()
			_, err := raw.ExecContext(ctx, d.sql(q), args...)
			require.NoError(t, err)
		}
		now := time.Date(2026, 4, 1, 10, 0, 0, 0, time.UTC).UnixMilli()
		for id := 1; id <= 3; id++ {
			status := map[int]string{1: "finished", 2: "running", 3: "running"}[id]
			// IDs 1, 2, 3 as the database numbers them.
			exec(`INSERT INTO games (guild_id, channel_id, host_id, status, options, state, version, last_seq,
					created_at, updated_at, threaded)
				VALUES ('g', ?, 'u1', ?, '{"seats":2}', ?, 3, 1, ?, ?, ?)`,
				fmt.Sprint("c", id), status, []byte("state"), now, now, true)
			exec(`INSERT INTO seats (game_id, seat, color, user_id, name, computer, timeouts, has_left)
				VALUES (?, 0, 'red', 'u1', 'Ann', '', 0, ?), (?, 1, 'green', '', 'Computer', 'easy', 0, ?)`,
				id, false, id, false)
			exec(`INSERT INTO events (game_id, seq, at, kind) VALUES (?, 1, ?, 'start')`, id, now)
		}
		exec(`INSERT INTO results (game_id, color, guild_id, player, name, is_computer, won, forfeit, captures,
				captured, barricades, turns, game_turns, finished_at, rating_before, rating_after)
			VALUES (1, 'red', 'g', 'u1', 'Ann', ?, ?, ?, 1, 2, 3, 20, 40, ?, 1500, 1516),
				(1, 'green', 'g', 'ai:easy', 'Computer', ?, ?, ?, 2, 1, 0, 20, 40, ?, 1500, 1484)`,
			false, true, false, now, true, false, false, now)
		for i, e := range []struct {
			game         int
			queue, state string
		}{{1, "", "done"}, {2, "", "pending"}, {2, "card", "pending"}, {3, "", "held"}, {2, "", "pending"}} {
			var done, until any
			owner := ""
			switch e.state {
			case "done":
				done = now
			case "held":
				owner, until = "old", now+60_000
			}
			exec(`INSERT INTO outbox (game_id, queue, kind, payload, created_at, next_at, lease_owner, lease_until, done_at)
				VALUES (?, ?, 'post', ?, ?, ?, ?, ?, ?)`,
				e.game, e.queue, fmt.Appendf(nil, "effect %d", i+1), now, now, owner, until, done)
		}
		raw.Close()

		db, err := Open(ctx, url)
		require.NoError(t, err)
		defer db.Close()
		db.Now = func() time.Time { return time.UnixMilli(now).Add(time.Second) }
		counts, err := db.TableCounts(ctx)
		require.NoError(t, err)
		assert.Equal(t, int64(3), counts["games"])
		assert.Equal(t, int64(5), counts["outbox"])
		assert.Equal(t, int64(2), counts["results"])
		assert.Zero(t, counts["tournaments"])

		g, err := db.Game(ctx, 2)
		require.NoError(t, err)
		assert.Equal(t, int64(3), g.Version)
		assert.Zero(t, g.TournamentID)
		assert.Equal(t, []malefiz.Seat{{Color: "red", UserID: "u1", Name: "Ann"}, {Color: "green", Name: "Computer", Computer: "easy"}}, g.Seats)
		results, err := db.GameResults(ctx, 1)
		require.NoError(t, err)
		require.Len(t, results, 2)
		assert.Zero(t, results[0].Place, "not recorded before")
		assert.Equal(t, 1516.0, results[1].RatingAfter)
		effects, err := db.Effects(ctx, 2)
		require.NoError(t, err)
		require.Len(t, effects, 3)
		assert.Equal(t, int64(2), effects[0].GameID)
		assert.Equal(t, "card", effects[1].Queue)

		// Game 2's main queue first (its card waits behind it), game 3's
		// held by its claim.
		claimed, err := db.ClaimEffects(ctx, "new", time.Minute, 10)
		require.NoError(t, err)
		var got []string
		for _, e := range claimed {
			got = append(got, string(e.Payload))
		}
		assert.Equal(t, []string{"effect 2"}, got)

		// The schema takes tournaments, and a new game goes on after the
		// old ones.
		tour := &malefiz.Tournament{GuildID: "g", ChannelID: "c9", Name: "Cup",
			Setup:    malefiz.TournamentSetup{Format: "knockout", TableSize: 2},
			Entrants: []malefiz.TournamentEntrant{{UserID: "u1"}, {UserID: "u2"}}}
		require.NoError(t, db.CreateTournament(ctx, tour, nil))
		require.NoError(t, db.StartTournament(ctx, tour, malefiz.TournamentRound{Tables: []malefiz.TournamentTable{{Seats: []string{"u1", "u2"}}}}))
		game := &malefiz.Game{GuildID: "g", ChannelID: "c9", Status: malefiz.StatusRunning, Threaded: true,
			TournamentID: tour.ID, TournamentRound: 1, TournamentTable: 1,
			Seats: []malefiz.Seat{{Color: "red", UserID: "u1"}, {Color: "green", UserID: "u2"}}}
		require.NoError(t, db.CreateGame(ctx, game))
		assert.Equal(t, int64(4), game.ID)
		read, err := db.Tournament(ctx, tour.ID)
		require.NoError(t, err)
		assert.Equal(t, int64(4), read.Rounds[0].Tables[0].GameID)
	})
}
