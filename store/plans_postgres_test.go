package store

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// PostgreSQL's queries that must stay cheap with 100,000 games can use their
// indexes. On an empty database the planner prefers reading the tables
// whole, so sequential scans are switched off for the check: what matters
// is that an index serves the query (with the figures of BenchmarkDueGames
// and BenchmarkLeaderboard on a full database).
func TestQueryPlansPostgres(t *testing.T) {
	t.Parallel()
	backends := testBackends(t)
	if len(backends) < 2 {
		t.Skip("no PostgreSQL")
	}
	db := openInternal(t, backends[1])
	conn, err := db.r.Conn(t.Context())
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(t.Context(), `SET enable_seqscan = off`)
	require.NoError(t, err)

	period, periodArgs := leaderboardSource(db.d, "g", time.Now(), 0)
	all, allArgs := leaderboardSource(db.d, "g", time.Time{}, 0)
	for _, tc := range []struct {
		name  string
		query string
		args  []any
		want  string // an index in the plan (of the period board: either; the planner picks by size)
	}{
		{"due games", `SELECT id FROM games WHERE wake_at IS NOT NULL AND wake_at <= ? ORDER BY wake_at, id LIMIT ?`,
			[]any{0, 10}, "games_wake"},
		{"next wake", `SELECT wake_at FROM games WHERE wake_at IS NOT NULL ORDER BY wake_at LIMIT 1`, nil, "games_wake"},
		{"open game", `SELECT id FROM games WHERE guild_id = ? AND channel_id = ? AND status IN ('lobby', 'running')`,
			[]any{"g", "c"}, "games_open_"},
		{"recent games", `SELECT id FROM games WHERE guild_id = ? AND status = 'finished' ORDER BY finished_at DESC, id DESC LIMIT ?`,
			[]any{"g", 10}, "games_guild_finished"},
		{"period leaderboard", `SELECT * FROM (` + period + `) AS board ORDER BY rating DESC`, periodArgs, "using results_p"},
		{"all-time leaderboard", `SELECT * FROM (` + all + `) AS board ORDER BY rating DESC, wins DESC, player LIMIT 10`,
			allArgs, "players_rank"},
		{"rating history", `SELECT game_id FROM results WHERE guild_id = ? AND player = ? ORDER BY finished_at DESC, game_id DESC LIMIT 100`,
			[]any{"g", "p"}, "results_player"},
		{"due effects", `SELECT id FROM outbox WHERE done_at IS NULL AND next_at <= ? ORDER BY next_at, id LIMIT 10`,
			[]any{0}, "outbox_due"},
		{"head of a game's main queue", `SELECT min(id) FROM outbox WHERE game_id = ? AND queue = ? AND done_at IS NULL`,
			[]any{1, ""}, "outbox_pending"},
		{"claimable effects", `SELECT o.id FROM outbox AS o WHERE o.done_at IS NULL AND o.next_at <= ?
				AND (o.lease_until IS NULL OR o.lease_until <= ?1) AND ` + claimable + ` ORDER BY o.next_at, o.id LIMIT 20`,
			[]any{0}, "outbox_pending"},
		{"older main effects", `SELECT 1 FROM outbox WHERE game_id = ? AND queue = '' AND done_at IS NULL AND id < ?`,
			[]any{1, 2}, "outbox_pending"},
		{"a queue's last claim", `SELECT max(claimed_at) FROM outbox WHERE game_id = ? AND queue = ? AND queue <> ''`,
			[]any{1, "card"}, "outbox_queue_claims"},
		{"head of a tournament's main queue", `SELECT min(id) FROM outbox WHERE tournament_id = ? AND queue = ? AND done_at IS NULL`,
			[]any{1, ""}, "outbox_tournament_pending"},
		{"a tournament queue's last claim", `SELECT max(claimed_at) FROM outbox WHERE tournament_id = ? AND queue = ? AND queue <> ''`,
			[]any{1, "card"}, "outbox_tournament_claims"},
		{"due tournaments", `SELECT id FROM tournaments WHERE wake_at IS NOT NULL AND wake_at <= ? ORDER BY wake_at, id LIMIT ?`,
			[]any{0, 10}, "tournaments_wake"},
		{"open tournaments", `SELECT id FROM tournaments
				WHERE guild_id = ? AND status IN ('signup', 'running', 'paused') AND (channel_id = ? OR ? = '') ORDER BY id`,
			[]any{"g", "c", "c"}, "tournaments_open"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := conn.QueryContext(t.Context(), `EXPLAIN `+db.d.sql(tc.query), tc.args...)
			require.NoError(t, err)
			defer rows.Close()
			var plan []string
			for rows.Next() {
				var line string
				require.NoError(t, rows.Scan(&line))
				plan = append(plan, line)
			}
			require.NoError(t, rows.Err())
			text := strings.Join(plan, "\n")
			assert.Contains(t, text, tc.want)
			assert.NotContains(t, text, "Seq Scan on results")
		})
	}
}
