package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Rating constants. Every player of a guild, computers included, starts at
// InitialRating. When a game finishes, the winner has played one Elo match
// against each other seat, which lost it: with n seats each match moves
// RatingK/(n-1) points at most, so a game moves the winner by at most
// RatingK and each loser by at most RatingK/(n-1). The winner of a match
// rated R against one rated S expects 1/(1+10^((S-R)/400)) and gains
// RatingK/(n-1) times one minus that; the loser loses as much. All matches of
// a game use the ratings from before it. Cancelled games count for nothing.
const (
	InitialRating = 1500.0
	RatingK       = 32.0
)

// historyLen is how many games of rating history PlayerStats returns.
const historyLen = 100

// FinishGame writes g as finished, with its events, one result per seat, and
// the players' new ratings and statistics, in one transaction; like
// UpdateGame it needs g.Version to be current (else ErrConflict, and nothing
// changes) and bumps it. The stored game must be open. results must name two
// or more seats of distinct colours, exactly one of which won; FinishGame
// sets their FinishedAt and ratings. See InitialRating for the rating rules.
// A player who holds several seats (a computer level, say) plays each seat's
// matches, and the game counts once per seat in their statistics.
func (db *DB) FinishGame(ctx context.Context, g *Game, results []Result, events ...Event) error {
	return db.Commit(ctx, &Commit{Game: g, Events: events, Results: results})
}

func checkResults(results []Result) error {
	if len(results) < 2 {
		return fmt.Errorf("%d results, want 2 or more", len(results))
	}
	winners := 0
	colors := map[string]bool{}
	for _, r := range results {
		if r.Player == "" || r.Color == "" {
			return errors.New("a result without player or colour")
		}
		if colors[r.Color] {
			return fmt.Errorf("two results for %s", r.Color)
		}
		colors[r.Color] = true
		if r.Won {
			winners++
		}
	}
	if winners != 1 {
		return fmt.Errorf("%d winners, want 1", winners)
	}
	return nil
}

// recordResults rates the players, inserts the results and updates the
// per-player aggregates. It returns the results with their ratings set.
func recordResults(ctx context.Context, tx dtx, gameID int64, guild string, now time.Time, results []Result) ([]Result, error) {
	results = slices.Clone(results)
	ratings, err := lockPlayers(ctx, tx, guild, now, results)
	if err != nil {
		return nil, err
	}
	before := make([]float64, len(results))
	for i, r := range results {
		before[i] = ratings[r.Player]
	}
	delta := ratingChanges(before, slices.IndexFunc(results, func(r Result) bool { return r.Won }))
	// A player's new rating adds up the changes of all their seats.
	after := map[string]float64{}
	for i, r := range results {
		if _, ok := after[r.Player]; !ok {
			after[r.Player] = before[i]
		}
		after[r.Player] += delta[i]
	}

	for i := range results {
		r := &results[i]
		r.FinishedAt, r.RatingBefore, r.RatingAfter = now, before[i], after[r.Player]
		if _, err := tx.ExecContext(ctx, `INSERT INTO results (game_id, color, guild_id, player, name,
				is_computer, won, forfeit, captures, captured, barricades, turns, game_turns,
				finished_at, rating_before, rating_after)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			gameID, r.Color, guild, r.Player, r.Name, r.Computer, r.Won, r.Forfeit,
			r.Captures, r.Captured, r.Barricades, r.Turns, r.GameTurns,
			now.UnixMilli(), r.RatingBefore, r.RatingAfter); err != nil {
			return nil, fmt.Errorf("result %s: %w", r.Color, err)
		}

		won, winTurns, fastest, streak := 0, 0, any(nil), -1
		if r.Won {
			won, winTurns, fastest, streak = 1, r.Turns, r.Turns, 1
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO players (guild_id, player, name, is_computer,
				rating, games, wins, captures, captured, barricades, win_turns, fastest_win, streak,
				last_played)
			VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
			ON CONFLICT (guild_id, player) DO UPDATE SET
				name = excluded.name,
				is_computer = excluded.is_computer,
				rating = excluded.rating,
				games = players.games + 1,
				wins = players.wins + excluded.wins,
				captures = players.captures + excluded.captures,
				captured = players.captured + excluded.captured,
				barricades = players.barricades + excluded.barricades,
				win_turns = players.win_turns + excluded.win_turns,
				fastest_win = CASE
					WHEN excluded.fastest_win IS NULL THEN players.fastest_win
					WHEN players.fastest_win IS NULL OR excluded.fastest_win < players.fastest_win
						THEN excluded.fastest_win
					ELSE players.fastest_win END,
				streak = CASE
					WHEN excluded.streak > 0 THEN CASE WHEN players.streak > 0 THEN players.streak + 1 ELSE 1 END
					ELSE CASE WHEN players.streak < 0 THEN players.streak - 1 ELSE -1 END END,
				last_played = excluded.last_played`,
			guild, r.Player, r.Name, r.Computer, r.RatingAfter, won, r.Captures, r.Captured,
			r.Barricades, winTurns, fastest, streak, now.UnixMilli()); err != nil {
			return nil, fmt.Errorf("player %s: %w", r.Player, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO player_months (guild_id, month, player, games, wins,
				captures, barricades)
			VALUES (?, ?, ?, 1, ?, ?, ?)
			ON CONFLICT (guild_id, month, player) DO UPDATE SET
				games = player_months.games + 1,
				wins = player_months.wins + excluded.wins,
				captures = player_months.captures + excluded.captures,
				barricades = player_months.barricades + excluded.barricades`,
			guild, monthOf(now), r.Player, won, r.Captures, r.Barricades); err != nil {
			return nil, fmt.Errorf("player %s: %w", r.Player, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO player_colors (guild_id, player, color, games)
			VALUES (?, ?, ?, 1)
			ON CONFLICT (guild_id, player, color) DO UPDATE SET games = player_colors.games + 1`,
			guild, r.Player, r.Color); err != nil {
			return nil, fmt.Errorf("player %s: %w", r.Player, err)
		}
	}
	return results, nil
}

// lockPlayers returns the current rating of each player of results, and
// holds their rows until the transaction ends, so that two games finishing
// at once, on PostgreSQL, rate a common player one after the other rather
// than both from the same rating. A player without a row gets one, empty
// (no games) and at InitialRating, which the transaction then fills in; the
// rows are taken in the order of the players' keys, so that two such
// transactions cannot deadlock.
func lockPlayers(ctx context.Context, tx dtx, guild string, now time.Time, results []Result) (map[string]float64, error) {
	ratings := map[string]float64{}
	computer := map[string]bool{}
	var players []string
	for _, r := range results {
		if _, ok := ratings[r.Player]; !ok {
			players = append(players, r.Player)
			ratings[r.Player] = InitialRating
		}
		computer[r.Player] = r.Computer
	}
	slices.Sort(players)
	// One statement each, whatever the number of players.
	values := make([]string, len(players))
	args := []any{guild, InitialRating, now.UnixMilli()}
	marks := make([]string, len(players))
	keys := []any{guild}
	for i, p := range players {
		values[i] = fmt.Sprintf("(?1, ?%d, ?%d, ?2, 0, 0, 0, 0, 0, 0, 0, ?3)", len(args)+1, len(args)+2)
		args = append(args, p, computer[p])
		marks[i] = "?"
		keys = append(keys, p)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO players (guild_id, player, is_computer, rating, games,
			wins, captures, captured, barricades, win_turns, streak, last_played)
		VALUES `+strings.Join(values, ", ")+`
		ON CONFLICT (guild_id, player) DO NOTHING`, args...); err != nil {
		return nil, fmt.Errorf("players: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT player, rating FROM players
		WHERE guild_id = ?1 AND player IN (`+strings.Join(marks, ", ")+`)
		ORDER BY player`+tx.d.forUpdate, keys...)
	if err != nil {
		return nil, fmt.Errorf("players: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var rating float64
		if err := rows.Scan(&p, &rating); err != nil {
			return nil, fmt.Errorf("players: %w", err)
		}
		ratings[p] = rating
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("players: %w", err)
	}
	return ratings, nil
}

// ratingChanges returns the change of rating of each seat of a game, given
// the ratings before it and the winner's index: Elo, the winner against each
// other seat, as InitialRating's comment describes.
func ratingChanges(before []float64, winner int) []float64 {
	delta := make([]float64, len(before))
	k := RatingK / float64(len(before)-1)
	for i := range before {
		if i == winner {
			continue
		}
		expected := 1 / (1 + math.Pow(10, (before[i]-before[winner])/400))
		d := k * (1 - expected)
		delta[winner] += d
		delta[i] -= d
	}
	return delta
}

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

// PlayerStats is one player's record in a guild.
type PlayerStats struct {
	Player     string
	Name       string // as of the last game
	Computer   bool
	Rating     float64
	Rank       int // among all players of the guild, by rating as on the all-time leaderboard
	Games      int
	Wins       int
	WinRate    float64
	Captures   int // made
	Captured   int // suffered
	Barricades int // moved
	// AvgTurnsToWin is the mean of the player's own turns over the games
	// they won; 0 without a win.
	AvgTurnsToWin float64
	// FastestWin is the fewest own turns to a win; 0 without a win.
	FastestWin int
	// Streak is the current run: n > 0 for the last n games won, -n for
	// the last n lost.
	Streak int
	// FavoriteColor is the colour played most often (of equals, the first
	// by name).
	FavoriteColor string
	// History is the rating after each of the player's last games (at most
	// 100), oldest first.
	History []RatingPoint
	// LastPlayed is when the player's last game finished.
	LastPlayed time.Time
}

// RatingPoint is a player's rating after one game.
type RatingPoint struct {
	GameID int64
	At     time.Time
	Rating float64
	Won    bool
}

// PlayerStats returns a player's record in a guild, or ErrNotFound when the
// player has finished no game there.
func (db *DB) PlayerStats(ctx context.Context, guild, player string) (*PlayerStats, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: stats of %s: %w", player, err)
	}
	defer tx.Rollback()

	s, err := playerStats(ctx, tx, guild, player)
	if err != nil {
		return nil, fmt.Errorf("store: stats of %s: %w", player, err)
	}
	return s, tx.Commit()
}

func playerStats(ctx context.Context, tx dtx, guild, player string) (*PlayerStats, error) {
	s := &PlayerStats{Player: player}
	var (
		winTurns   int
		fastest    sql.NullInt64
		lastPlayed int64
	)
	err := tx.QueryRowContext(ctx, `SELECT name, is_computer, rating, games, wins, captures, captured,
			barricades, win_turns, fastest_win, streak, last_played
		FROM players WHERE guild_id = ? AND player = ?`, guild, player).Scan(&s.Name, &s.Computer,
		&s.Rating, &s.Games, &s.Wins, &s.Captures, &s.Captured, &s.Barricades, &winTurns, &fastest,
		&s.Streak, &lastPlayed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	} else if err != nil {
		return nil, err
	}
	s.WinRate = winRate(s.Wins, s.Games)
	if s.Wins > 0 {
		s.AvgTurnsToWin = float64(winTurns) / float64(s.Wins)
	}
	s.FastestWin = int(fastest.Int64)
	s.LastPlayed = time.UnixMilli(lastPlayed).UTC()

	if err := tx.QueryRowContext(ctx, `SELECT count(*) + 1 FROM players
		WHERE guild_id = ?1 AND (rating > ?2 OR (rating = ?2 AND (wins > ?3 OR (wins = ?3 AND player < ?4))))`,
		guild, s.Rating, s.Wins, player).Scan(&s.Rank); err != nil {
		return nil, err
	}
	err = tx.QueryRowContext(ctx, `SELECT color FROM player_colors WHERE guild_id = ? AND player = ?
		ORDER BY games DESC, color LIMIT 1`, guild, player).Scan(&s.FavoriteColor)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}

	rows, err := tx.QueryContext(ctx, `SELECT game_id, finished_at, rating_after, won FROM results
		WHERE guild_id = ? AND player = ? ORDER BY finished_at DESC, game_id DESC LIMIT ?`,
		guild, player, historyLen)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var p RatingPoint
		var at int64
		if err := rows.Scan(&p.GameID, &at, &p.Rating, &p.Won); err != nil {
			return nil, err
		}
		p.At = time.UnixMilli(at).UTC()
		s.History = append(s.History, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.Reverse(s.History)
	return s, nil
}

// FinishedGame is one line of a guild's history of games.
type FinishedGame struct {
	GameID     int64
	ChannelID  string
	FinishedAt time.Time
	Turns      int      // the length of the game in turns
	Results    []Result // in seat order; the winner has Won set
}

// Winner returns the winning seat's result.
func (f FinishedGame) Winner() Result {
	for _, r := range f.Results {
		if r.Won {
			return r
		}
	}
	return Result{}
}

// RecentGames returns a guild's last limit finished games, newest first.
func (db *DB) RecentGames(ctx context.Context, guild string, limit int) ([]FinishedGame, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: recent games: %w", err)
	}
	defer tx.Rollback()

	games, err := recentGames(ctx, tx, guild, limit)
	if err != nil {
		return nil, fmt.Errorf("store: recent games: %w", err)
	}
	return games, tx.Commit()
}

func recentGames(ctx context.Context, tx dtx, guild string, limit int) ([]FinishedGame, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, channel_id, finished_at FROM games
		WHERE guild_id = ? AND status = 'finished'
		ORDER BY finished_at DESC, id DESC LIMIT ?`, guild, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var games []FinishedGame
	for rows.Next() {
		var f FinishedGame
		var at int64
		if err := rows.Scan(&f.GameID, &f.ChannelID, &at); err != nil {
			return nil, err
		}
		f.FinishedAt = time.UnixMilli(at).UTC()
		games = append(games, f)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()

	ids := make([]int64, len(games))
	for i, f := range games {
		ids[i] = f.GameID
	}
	results, err := gameResults(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	for i := range games {
		f := &games[i]
		f.Results = results[f.GameID]
		if len(f.Results) > 0 {
			f.Turns = f.Results[0].GameTurns
		}
	}
	return games, nil
}

// gameResults returns the results of games, each game's in seat order (a
// result whose seat is gone first), in one query.
func gameResults(ctx context.Context, tx dtx, gameIDs []int64) (map[int64][]Result, error) {
	results := map[int64][]Result{}
	if len(gameIDs) == 0 {
		return results, nil
	}
	args := make([]any, len(gameIDs))
	for i, id := range gameIDs {
		args[i] = id
	}
	rows, err := tx.QueryContext(ctx, `SELECT r.game_id, r.player, r.name, r.is_computer, r.color, r.won,
			r.forfeit, r.captures, r.captured, r.barricades, r.turns, r.game_turns, r.finished_at,
			r.rating_before, r.rating_after
		FROM results AS r LEFT JOIN seats AS s ON s.game_id = r.game_id AND s.color = r.color
		WHERE r.game_id IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ")+`)
		ORDER BY r.game_id, s.seat IS NOT NULL, s.seat, r.color`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r Result
		var id, at int64
		if err := rows.Scan(&id, &r.Player, &r.Name, &r.Computer, &r.Color, &r.Won, &r.Forfeit,
			&r.Captures, &r.Captured, &r.Barricades, &r.Turns, &r.GameTurns, &at,
			&r.RatingBefore, &r.RatingAfter); err != nil {
			return nil, err
		}
		r.FinishedAt = time.UnixMilli(at).UTC()
		results[id] = append(results[id], r)
	}
	return results, rows.Err()
}

// GameResults returns the results of a finished game, in seat colour
// order as stored, with the ratings before and after; none for a game that
// did not finish.
func (db *DB) GameResults(ctx context.Context, gameID int64) ([]Result, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: results of game %d: %w", gameID, err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT player, name, is_computer, color, won, forfeit, captures, captured,
			barricades, turns, game_turns, finished_at, rating_before, rating_after
		FROM results WHERE game_id = ?`, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: results of game %d: %w", gameID, err)
	}
	defer rows.Close()
	var out []Result
	for rows.Next() {
		var r Result
		var finished int64
		if err := rows.Scan(&r.Player, &r.Name, &r.Computer, &r.Color, &r.Won, &r.Forfeit, &r.Captures, &r.Captured,
			&r.Barricades, &r.Turns, &r.GameTurns, &finished, &r.RatingBefore, &r.RatingAfter); err != nil {
			return nil, fmt.Errorf("store: results of game %d: %w", gameID, err)
		}
		r.FinishedAt = time.UnixMilli(finished).UTC()
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: results of game %d: %w", gameID, err)
	}
	return out, tx.Commit()
}
