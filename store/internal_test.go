package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/table"
)

func openInternal(t testing.TB, b TestBackend) *DB {
	t.Helper()
	db, err := Open(t.Context(), b.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	db.Rate = table.Elo
	t.Cleanup(func() { db.Close() })
	return db
}

func TestEventsAppendOnly(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b TestBackend) {
		db := openInternal(t, b)
		ctx := t.Context()
		g := &malefiz.Game{GuildID: "g", ChannelID: "c", Status: malefiz.StatusRunning}
		if err := db.CreateGame(ctx, g, malefiz.Event{Kind: malefiz.EventStart}, malefiz.Event{Kind: malefiz.EventRoll}); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`UPDATE events SET data = 'x'`,
			`DELETE FROM events`,
			`INSERT INTO events (game_id, seq, at, kind) VALUES (1, 4, 0, 'roll')`, // a gap
			`INSERT INTO events (game_id, seq, at, kind) VALUES (1, 2, 0, 'roll')`, // a duplicate
		} {
			if _, err := db.w.ExecContext(ctx, q); err == nil {
				t.Errorf("%s succeeded", q)
			}
		}
		if _, err := db.w.ExecContext(ctx, `INSERT INTO events (game_id, seq, at, kind) VALUES (1, 3, 0, 'roll')`); err != nil {
			t.Errorf("appending the next event: %v", err)
		}
	})
}

// The queries that must stay cheap with 100,000 games use their indexes.
func TestQueryPlans(t *testing.T) {
	t.Parallel()
	db := openInternal(t, testBackends(t)[0])
	since := time.Now()
	period, periodArgs := leaderboardSource(db.d, "g", since, 0)
	all, allArgs := leaderboardSource(db.d, "g", time.Time{}, 0)
	for _, tc := range []struct {
		name  string
		query string
		args  []any
		want  []string // in the plan
		not   []string
	}{
		{"due games", `SELECT id FROM games WHERE wake_at IS NOT NULL AND wake_at <= ? ORDER BY wake_at, id LIMIT ?`,
			[]any{0, 10}, []string{"games_wake"}, []string{"SCAN games"}},
		{"next wake", `SELECT wake_at FROM games WHERE wake_at IS NOT NULL ORDER BY wake_at LIMIT 1`,
			nil, []string{"games_wake"}, []string{"SCAN games", "TEMP B-TREE"}},
		{"open game", `SELECT id FROM games WHERE guild_id = ? AND channel_id = ? AND status IN ('lobby', 'running')`,
			[]any{"g", "c"}, []string{"games_open_place"}, []string{"SCAN games"}},
		{"recent games", `SELECT id FROM games WHERE guild_id = ? AND status = 'finished' ORDER BY finished_at DESC, id DESC LIMIT ?`,
			[]any{"g", 10}, []string{"games_guild_finished"}, []string{"SCAN games"}},
		{"period leaderboard", `SELECT * FROM (` + period + `) ORDER BY rating DESC`,
			periodArgs, []string{"COVERING INDEX results_player_period"}, []string{"SCAN results"}},
		{"all-time leaderboard", `SELECT * FROM (` + all + `) ORDER BY rating DESC, wins DESC, player LIMIT 10`,
			allArgs, []string{"players_rank"}, []string{"SCAN players", "TEMP B-TREE"}},
		{"rating history", `SELECT game_id FROM results WHERE guild_id = ? AND player = ? ORDER BY finished_at DESC, game_id DESC LIMIT 100`,
			[]any{"g", "p"}, []string{"results_player"}, []string{"SCAN results"}},
		{"claimable effects", `SELECT o.id FROM outbox AS o WHERE o.done_at IS NULL AND o.next_at <= ?3
				AND (o.lease_until IS NULL OR o.lease_until <= ?3) AND ` + claimable + ` ORDER BY o.next_at, o.id LIMIT 20`,
			[]any{nil, nil, 0}, []string{"outbox_due", "outbox_pending"}, []string{"SCAN o", "SCAN p", "SCAN m", "TEMP B-TREE"}},
		{"a queue's last claim", `SELECT max(claimed_at) FROM outbox WHERE game_id = ? AND queue = ? AND queue <> ''`,
			[]any{1, "card"}, []string{"outbox_queue_claims"}, []string{"SCAN outbox"}},
		{"older main effects", `SELECT count(*) FROM outbox WHERE game_id = ? AND queue = '' AND done_at IS NULL AND id < ?`,
			[]any{1, 2}, []string{"outbox_pending"}, []string{"SCAN outbox"}},
		{"superseded effects", `UPDATE outbox SET done_at = ?1, result = ?2
				WHERE game_id = ?3 AND queue = ?4 AND done_at IS NULL AND lease_until IS NULL`,
			[]any{0, "superseded", 1, "card"}, []string{"outbox_pending"}, []string{"SCAN outbox"}},
		{"a tournament's older main effects", `SELECT count(*) FROM outbox WHERE tournament_id = ? AND queue = '' AND done_at IS NULL AND id < ?`,
			[]any{1, 2}, []string{"outbox_tournament_pending"}, []string{"SCAN outbox"}},
		{"a tournament queue's last claim", `SELECT max(claimed_at) FROM outbox WHERE tournament_id = ? AND queue = ? AND queue <> ''`,
			[]any{1, "card"}, []string{"outbox_tournament_claims"}, []string{"SCAN outbox"}},
		{"due tournaments", `SELECT id FROM tournaments WHERE wake_at IS NOT NULL AND wake_at <= ? ORDER BY wake_at, id LIMIT ?`,
			[]any{0, 10}, []string{"tournaments_wake"}, []string{"SCAN tournaments"}},
		{"open tournaments", `SELECT id FROM tournaments
				WHERE guild_id = ? AND status IN ('signup', 'running', 'paused') AND (channel_id = ? OR ? = '') ORDER BY id`,
			[]any{"g", "c", "c"}, []string{"tournaments_open"}, []string{"SCAN tournaments"}},
		{"a round's tables", `SELECT count(*) FROM tournament_tables AS tt LEFT JOIN games AS g ON g.id = tt.game_id
				WHERE tt.tournament_id = ? AND tt.round = ?`,
			[]any{1, 1}, []string{"SEARCH tt", "SEARCH g"}, []string{"SCAN"}},
		{"a tournament's results", `SELECT ` + resultColumns + `
				FROM tournament_tables AS tt JOIN results AS r ON r.game_id = tt.game_id
					LEFT JOIN seats AS s ON s.game_id = r.game_id AND s.color = r.color
				WHERE tt.tournament_id = ?`,
			[]any{1}, []string{"SEARCH tt", "SEARCH r", "SEARCH s"}, []string{"SCAN"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := queryPlan(t, db, tc.query, tc.args...)
			for _, w := range tc.want {
				if !strings.Contains(plan, w) {
					t.Errorf("plan lacks %q:\n%s", w, plan)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(plan, n) {
					t.Errorf("plan has %q:\n%s", n, plan)
				}
			}
		})
	}
}

func queryPlan(t *testing.T, db *DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.r.QueryContext(t.Context(), `EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, detail)
	}
	return strings.Join(lines, "\n")
}

// The per-player aggregates kept by FinishGame equal those computed from the
// results, and each player's rating is the last rating_after.
func TestAggregatesMatchResults(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b TestBackend) {
		db := openInternal(t, b)
		ctx := t.Context()
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		db.Now = func() time.Time { return now }
		rng := rand.New(rand.NewPCG(1, 2))
		colors := []string{"red", "green", "yellow", "blue"}
		for i := range 60 {
			now = now.Add(time.Hour)
			g := &malefiz.Game{GuildID: "g", ChannelID: "c", Status: malefiz.StatusRunning}
			if err := db.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			results := randomResults(rng, colors[:2+rng.IntN(3)], 12)
			if err := db.FinishGame(ctx, g, results); err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
		}
		kept := dumpAggregates(t, db)
		if _, err := db.w.ExecContext(ctx, `DELETE FROM players; DELETE FROM player_colors; DELETE FROM player_months`); err != nil {
			t.Fatal(err)
		}
		if err := rebuildAggregates(ctx, db); err != nil {
			t.Fatal(err)
		}
		rebuilt := dumpAggregates(t, db)
		if len(kept) == 0 || !reflect.DeepEqual(kept, rebuilt) {
			t.Errorf("aggregates kept by FinishGame:\n%v\nrebuilt from results:\n%v", kept, rebuilt)
		}
	})
}

// randomResults returns the results of a game of the given colours among
// players random players (some of them computers).
func randomResults(rng *rand.Rand, colors []string, players int) []malefiz.Result {
	winner := rng.IntN(len(colors))
	length := 20 + rng.IntN(200)
	var results []malefiz.Result
	seen := map[string]bool{}
	for i, c := range colors {
		p := fmt.Sprint("u", rng.IntN(players))
		for seen[p] {
			p = fmt.Sprint("u", rng.IntN(players))
		}
		seen[p] = true
		r := malefiz.Result{Player: p, Name: "Player " + p, Color: c, Won: i == winner,
			Captures: rng.IntN(5), Captured: rng.IntN(5), Barricades: rng.IntN(4),
			Turns: length / len(colors), GameTurns: length}
		if rng.IntN(5) == 0 {
			level := []string{"easy", "normal", "hard"}[rng.IntN(3)]
			r.Player, r.Name, r.Computer = "ai:"+level, "Computer", true
			if seen[r.Player] {
				r.Player = p // one seat per computer level here
				r.Computer = false
			}
			seen[r.Player] = true
		}
		results = append(results, r)
	}
	return results
}

// rebuildAggregates recomputes players and player_colors from results.
func rebuildAggregates(ctx context.Context, db *DB) error {
	_, err := db.w.ExecContext(ctx, `
		INSERT INTO players (guild_id, player, name, is_computer, rating, games, wins, captures,
			captured, barricades, win_turns, fastest_win, streak, last_played)
		SELECT guild_id, player,
			(SELECT name FROM results AS l WHERE l.guild_id = r.guild_id AND l.player = r.player
				ORDER BY finished_at DESC, game_id DESC LIMIT 1),
			max(CASE WHEN is_computer THEN 1 ELSE 0 END) = 1,
			(SELECT rating_after FROM results AS l WHERE l.guild_id = r.guild_id AND l.player = r.player
				ORDER BY finished_at DESC, game_id DESC LIMIT 1),
			count(*), sum(CASE WHEN won THEN 1 ELSE 0 END), sum(captures), sum(captured), sum(barricades),
			sum(CASE WHEN won THEN turns ELSE 0 END),
			min(CASE WHEN won THEN turns END),
			0, max(finished_at)
		FROM results AS r GROUP BY guild_id, player;

		INSERT INTO player_colors (guild_id, player, color, games)
		SELECT guild_id, player, color, count(*) FROM results GROUP BY guild_id, player, color;`)
	if err != nil {
		return err
	}
	// As migration 0004 backfills it.
	backfill, err := migrationFS.ReadFile("migrations/" + db.d.name + "/0004_player_months.sql")
	if err != nil {
		return err
	}
	_, err = db.w.ExecContext(ctx, string(backfill[strings.Index(string(backfill), "INSERT INTO player_months"):]))
	if err != nil {
		return err
	}
	// The streak: the run of equal outcomes at the end.
	rows, err := db.r.QueryContext(ctx, `SELECT guild_id, player, won FROM results
		ORDER BY guild_id, player, finished_at DESC, game_id DESC`)
	if err != nil {
		return err
	}
	type key struct{ guild, player string }
	streaks := map[key]int{}
	done := map[key]bool{}
	for rows.Next() {
		var k key
		var won bool
		if err := rows.Scan(&k.guild, &k.player, &won); err != nil {
			return err
		}
		s := streaks[k]
		switch {
		case done[k]:
		case won && s >= 0:
			streaks[k]++
		case !won && s <= 0:
			streaks[k]--
		default:
			done[k] = true
		}
	}
	rows.Close()
	for k, s := range streaks {
		if _, err := db.w.ExecContext(ctx, db.d.sql(`UPDATE players SET streak = ? WHERE guild_id = ? AND player = ?`),
			s, k.guild, k.player); err != nil {
			return err
		}
	}
	return nil
}

func dumpAggregates(t *testing.T, db *DB) []string {
	t.Helper()
	// The rows of a table of the player, joined in order.
	joined := func(expr, table, order string) string {
		where := `x.guild_id = p.guild_id AND x.player = p.player`
		if db.d == postgresDialect {
			return `(SELECT string_agg(` + expr + `, ',' ORDER BY ` + order + `) FROM ` + table + ` AS x WHERE ` + where + `)`
		}
		return `(SELECT group_concat(` + expr + `, ',') FROM (SELECT * FROM ` + table + ` AS x WHERE ` + where + ` ORDER BY ` + order + `))`
	}
	rows, err := db.r.QueryContext(t.Context(), `SELECT p.guild_id, player, name, is_computer, round(CAST(rating AS NUMERIC), 6),
			games, wins, captures, captured, barricades, win_turns, coalesce(fastest_win, -1), streak,
			last_played, `+joined(`color || '=' || games`, "player_colors", "color")+`,
			`+joined(`month || ':' || games || '/' || wins || '/' || captures || '/' || barricades`, "player_months", "month")+`
		FROM players AS p ORDER BY p.guild_id, player`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals...))
	}
	return out
}

// A period's leaderboard, which adds up whole months and the results before
// them, equals the sums of the results in the period, wherever the period
// begins.
func TestLeaderboardPeriods(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b TestBackend) {
		db := openInternal(t, b)
		ctx := t.Context()
		start := time.Date(2026, 1, 20, 0, 0, 0, 0, time.UTC)
		now := start
		db.Now = func() time.Time { return now }
		rng := rand.New(rand.NewPCG(3, 4))
		colors := []string{"red", "green", "yellow", "blue"}
		for range 80 {
			now = now.Add(time.Duration(rng.IntN(72)) * time.Hour)
			g := &malefiz.Game{GuildID: "g", ChannelID: "c", Status: malefiz.StatusRunning}
			if err := db.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			if err := db.FinishGame(ctx, g, randomResults(rng, colors[:2+rng.IntN(3)], 8)); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("games from %v to %v", start, now)
		for _, since := range []time.Time{
			start.Add(-time.Hour),
			time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), // a month's start
			time.Date(2026, 2, 1, 0, 0, 0, 1e6, time.UTC),
			time.Date(2026, 2, 14, 13, 0, 0, 0, time.UTC),
			time.Date(2026, 3, 31, 23, 0, 0, 0, time.UTC),
			now.Add(-30 * 24 * time.Hour),
			now,
			now.Add(time.Hour),
		} {
			for _, minGames := range []int{0, 4} {
				got, total, err := db.Leaderboard(ctx, "g", since, minGames, 0, 1000)
				if err != nil {
					t.Fatal(err)
				}
				want := periodFromResults(t, db, since, minGames)
				if total != len(want) || len(got) != len(want) {
					t.Errorf("since %v, min %d: %d lines of %d, want %d", since, minGames, len(got), total, len(want))
					continue
				}
				for _, e := range got {
					w := want[e.Player]
					if e.Games != w[0] || e.Wins != w[1] || e.Captures != w[2] || e.Barricades != w[3] {
						t.Errorf("since %v: %s has %d games, %d wins, %d captures, %d barricades; want %v",
							since, e.Player, e.Games, e.Wins, e.Captures, e.Barricades, w)
					}
				}
			}
		}
	})
}

// periodFromResults sums the results since since per player.
func periodFromResults(t *testing.T, db *DB, since time.Time, minGames int) map[string][4]int {
	t.Helper()
	rows, err := db.r.QueryContext(t.Context(), db.d.sql(`SELECT player, count(*), sum(CASE WHEN won THEN 1 ELSE 0 END),
			sum(captures), sum(barricades)
		FROM results WHERE guild_id = 'g' AND finished_at >= ? GROUP BY player HAVING count(*) >= ?`),
		since.UnixMilli(), minGames)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	m := map[string][4]int{}
	for rows.Next() {
		var p string
		var v [4]int
		if err := rows.Scan(&p, &v[0], &v[1], &v[2], &v[3]); err != nil {
			t.Fatal(err)
		}
		m[p] = v
	}
	return m
}

// A database from before migration 0004 gets its months backfilled.
func TestMigrationBackfillsMonths(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b TestBackend) {
		path := b.NewURL(t)
		db, err := Open(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		db.Now = func() time.Time { return now }
		rng := rand.New(rand.NewPCG(5, 6))
		for range 30 {
			now = now.Add(100 * time.Hour)
			g := &malefiz.Game{GuildID: "g", ChannelID: "c", Status: malefiz.StatusRunning}
			if err := db.CreateGame(t.Context(), g); err != nil {
				t.Fatal(err)
			}
			if err := db.FinishGame(t.Context(), g, randomResults(rng, []string{"red", "green", "blue"}, 6)); err != nil {
				t.Fatal(err)
			}
		}
		want := dumpAggregates(t, db)
		// Back to schema 0003.
		if _, err := db.w.ExecContext(t.Context(), `DROP TABLE player_months;
			DELETE FROM migrations WHERE name = '0004_player_months.sql'`); err != nil {
			t.Fatal(err)
		}
		if b.Name == "sqlite" {
			if _, err := db.w.ExecContext(t.Context(), `PRAGMA user_version = 3`); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()

		db, err = Open(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if got := dumpAggregates(t, db); !reflect.DeepEqual(got, want) {
			t.Errorf("after migrating:\n%v\nwant\n%v", got, want)
		}
	})
}
