package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/malefiz-discord/malefiz"
)

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
	// Accuracy is the mean of the coach's accuracy over the player's
	// graded games (0 to 100), GradedGames how many there are.
	Accuracy    float64
	GradedGames int
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

	var accuracy sql.NullFloat64
	if err := tx.QueryRowContext(ctx, `SELECT avg(accuracy), count(accuracy) FROM results
		WHERE guild_id = ? AND player = ? AND accuracy IS NOT NULL`, guild, player).Scan(&accuracy, &s.GradedGames); err != nil {
		return nil, err
	}
	s.Accuracy = accuracy.Float64

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
	Turns      int              // the length of the game in turns
	Results    []malefiz.Result // in seat order; the winner has Won set
}

// Winner returns the winning seat's result.
func (f FinishedGame) Winner() malefiz.Result {
	for _, r := range f.Results {
		if r.Won {
			return r
		}
	}
	return malefiz.Result{}
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
func gameResults(ctx context.Context, tx dtx, gameIDs []int64) (map[int64][]malefiz.Result, error) {
	results := map[int64][]malefiz.Result{}
	if len(gameIDs) == 0 {
		return results, nil
	}
	args := make([]any, len(gameIDs))
	for i, id := range gameIDs {
		args[i] = id
	}
	return scanResults(tx.QueryContext(ctx, `SELECT `+resultColumns+`
		FROM results AS r LEFT JOIN seats AS s ON s.game_id = r.game_id AND s.color = r.color
		WHERE r.game_id IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ")+`)
		ORDER BY r.game_id, s.seat IS NOT NULL, s.seat, r.color`, args...))
}

// resultColumns are the columns of a result r with its seat s (LEFT JOIN
// seats AS s), as scanResults reads them: the seat says whether its
// player left.
const resultColumns = `r.game_id, r.player, r.name, r.is_computer, r.color, r.won,
	r.forfeit, r.captures, r.captured, r.barricades, r.turns, r.game_turns, r.finished_at,
	r.rating_before, r.rating_after, r.place,
	coalesce(s.has_left OR (s.user_id <> '' AND s.computer <> ''), false)`

// scanResults reads the rows of resultColumns into each game's results, in
// the rows' order.
func scanResults(rows *sql.Rows, err error) (map[int64][]malefiz.Result, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	results := map[int64][]malefiz.Result{}
	for rows.Next() {
		var r malefiz.Result
		var id, at int64
		if err := rows.Scan(&id, &r.Player, &r.Name, &r.Computer, &r.Color, &r.Won, &r.Forfeit,
			&r.Captures, &r.Captured, &r.Barricades, &r.Turns, &r.GameTurns, &at,
			&r.RatingBefore, &r.RatingAfter, &r.Place, &r.Left); err != nil {
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
func (db *DB) GameResults(ctx context.Context, gameID int64) ([]malefiz.Result, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: results of game %d: %w", gameID, err)
	}
	defer tx.Rollback()
	results, err := scanResults(tx.QueryContext(ctx, `SELECT `+resultColumns+`
		FROM results AS r LEFT JOIN seats AS s ON s.game_id = r.game_id AND s.color = r.color
		WHERE r.game_id = ? ORDER BY r.color`, gameID))
	if err != nil {
		return nil, fmt.Errorf("store: results of game %d: %w", gameID, err)
	}
	return results[gameID], tx.Commit()
}
