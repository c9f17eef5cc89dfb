package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// LeaderboardEntry is one line of a guild's leaderboard.
type LeaderboardEntry struct {
	Rank       int // 1 for the best
	Player     string
	Name       string
	Computer   bool
	Rating     float64 // the current rating, also on a leaderboard of a period
	Games      int
	Wins       int
	WinRate    float64 // Wins / Games
	Captures   int
	Barricades int
}

// Leaderboard returns the lines offset to offset+limit of a guild's
// leaderboard, and how many lines it has in all (for paging). It counts the
// games finished since since, or all games when since is zero, and lists the
// players with at least minGames of them, ranked by rating (the current one),
// then wins, then player key.
//
// The all-time board reads per-player totals kept up to date when games
// finish; a period's board adds up per-player totals of the whole months in
// it and the results before the first of them.
func (db *DB) Leaderboard(ctx context.Context, guild string, since time.Time, minGames, offset, limit int) ([]LeaderboardEntry, int, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("store: leaderboard: %w", err)
	}
	defer tx.Rollback()

	src, args := leaderboardSource(tx.d, guild, since, minGames)
	rows, err := tx.QueryContext(ctx, `SELECT player, name, is_computer, rating, games, wins,
			captures, barricades, count(*) OVER ()
		FROM (`+src+`) AS board
		ORDER BY rating DESC, wins DESC, player
		LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("store: leaderboard: %w", err)
	}
	defer rows.Close()
	var (
		entries []LeaderboardEntry
		total   int
	)
	for rows.Next() {
		var e LeaderboardEntry
		if err := rows.Scan(&e.Player, &e.Name, &e.Computer, &e.Rating, &e.Games, &e.Wins,
			&e.Captures, &e.Barricades, &total); err != nil {
			return nil, 0, fmt.Errorf("store: leaderboard: %w", err)
		}
		e.Rank = offset + len(entries) + 1
		e.WinRate = winRate(e.Wins, e.Games)
		entries = append(entries, e)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("store: leaderboard: %w", err)
	}
	if len(entries) == 0 {
		// Past the end, or no room: count separately.
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (`+src+`) AS board`, args...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("store: leaderboard: %w", err)
		}
	}
	return entries, total, tx.Commit()
}

// LeaderboardRank returns a player's line of the leaderboard Leaderboard
// describes, or ErrNotFound when the player is not on it.
func (db *DB) LeaderboardRank(ctx context.Context, guild string, since time.Time, minGames int, player string) (LeaderboardEntry, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return LeaderboardEntry{}, fmt.Errorf("store: leaderboard rank: %w", err)
	}
	defer tx.Rollback()

	src, args := leaderboardSource(tx.d, guild, since, minGames)
	var e LeaderboardEntry
	err = tx.QueryRowContext(ctx, `SELECT rank, player, name, is_computer, rating, games, wins, captures, barricades
		FROM (SELECT row_number() OVER (ORDER BY rating DESC, wins DESC, player) AS rank, *
			FROM (`+src+`) AS board) AS ranked
		WHERE player = ?`, append(args, player)...).Scan(&e.Rank, &e.Player, &e.Name, &e.Computer,
		&e.Rating, &e.Games, &e.Wins, &e.Captures, &e.Barricades)
	if errors.Is(err, sql.ErrNoRows) {
		return LeaderboardEntry{}, fmt.Errorf("store: leaderboard rank of %s: %w", player, ErrNotFound)
	} else if err != nil {
		return LeaderboardEntry{}, fmt.Errorf("store: leaderboard rank: %w", err)
	}
	e.WinRate = winRate(e.Wins, e.Games)
	return e, tx.Commit()
}

// leaderboardSource is a query of the columns player, name, is_computer,
// rating, games, wins, captures, barricades of every player on a board.
//
// A period's totals add up the months wholly in it (player_months) and the
// results from since to the first of them (periodResults). Each part is
// grouped by player on its own, so that the many result rows go straight
// from an index into their GROUP BY (a union of the rows first, grouped
// once, is slower by half).
func leaderboardSource(d *dialect, guild string, since time.Time, minGames int) (string, []any) {
	if since.IsZero() {
		return `SELECT player, name, is_computer, rating, games, wins, captures, barricades
			FROM players WHERE guild_id = ? AND games >= ?`, []any{guild, minGames}
	}
	month, monthStart := firstWholeMonth(since)
	return `SELECT p.player, p.name, p.is_computer, p.rating, r.games, r.wins, r.captures, r.barricades
		FROM (SELECT player, sum(games) AS games, sum(wins) AS wins,
				sum(captures) AS captures, sum(barricades) AS barricades
			FROM (` + periodResults(d) + `
				UNION ALL
				SELECT player, sum(games), sum(wins), sum(captures), sum(barricades)
				FROM player_months WHERE guild_id = ?1 AND month >= ?4
				GROUP BY player
			) AS parts
			GROUP BY player HAVING sum(games) >= ?3) AS r
		JOIN players AS p ON p.guild_id = ?1 AND p.player = r.player`,
		[]any{guild, since.UnixMilli(), minGames, month, monthStart.UnixMilli()}
}

// periodResults sums each player's results from ?2 to ?5 in guild ?1.
//
// SQLite's GROUP BY sorts, and sorting the 25,000 results of 30 days by
// player took half of the board's time: it reads them player by player
// instead (the guild's players in key order, CROSS JOIN keeping it to that
// order) through the covering index results_player_period, named, as
// otherwise it may prefer results_player and look up every row in the
// table. PostgreSQL hashes the groups and reads the period in one range of
// the covering index results_period: twice as fast as player by player.
func periodResults(d *dialect) string {
	if d.sortedGroups {
		return `SELECT p.player, count(*) AS games, sum(CASE WHEN r.won THEN 1 ELSE 0 END) AS wins,
				sum(r.captures) AS captures, sum(r.barricades) AS barricades
			FROM players AS p CROSS JOIN results AS r ` + d.indexedBy("results_player_period") + `
			WHERE p.guild_id = ?1 AND r.guild_id = ?1 AND r.player = p.player
				AND r.finished_at >= ?2 AND r.finished_at < ?5
			GROUP BY p.player`
	}
	return `SELECT player, count(*) AS games, sum(CASE WHEN won THEN 1 ELSE 0 END) AS wins,
			sum(captures) AS captures, sum(barricades) AS barricades
		FROM results ` + d.indexedBy("results_period") + `
		WHERE guild_id = ?1 AND finished_at >= ?2 AND finished_at < ?5
		GROUP BY player`
}

// monthOf is the key of t's calendar month (UTC) in player_months.
func monthOf(t time.Time) int {
	t = t.UTC()
	return t.Year()*12 + int(t.Month()) - 1
}

// firstWholeMonth returns the first calendar month (UTC) that begins at or
// after t: its key and its start.
func firstWholeMonth(t time.Time) (int, time.Time) {
	t = t.UTC()
	start := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	if start.Before(t) {
		start = start.AddDate(0, 1, 0)
	}
	return monthOf(start), start
}

func winRate(wins, games int) float64 {
	if games == 0 {
		return 0
	}
	return float64(wins) / float64(games)
}
