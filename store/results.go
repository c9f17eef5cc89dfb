package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/malefiz-discord/malefiz"
)

// InitialRating is where every player of a guild, computers included,
// starts. How a finished game changes the ratings is the caller's rule
// (Rating; the bot's is the game table's Elo); the store applies it within
// the transaction that finishes the game, to the ratings it holds.
const InitialRating = 1500.0

// Rating is a rule that rates a finished game: the change of each seat's
// rating, given the ratings before the game and the winner's index. All
// seats of a game are rated from the ratings before it; a player who holds
// several seats adds up their changes. Cancelled games count for nothing.
type Rating func(before []float64, winner int) []float64

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
func (db *DB) FinishGame(ctx context.Context, g *malefiz.Game, results []malefiz.Result, events ...malefiz.Event) error {
	return db.Commit(ctx, &Commit{Game: g, Events: events, Results: results})
}

func checkResults(results []malefiz.Result) error {
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
	// Places are all recorded or none: then 1, 2, … once each, the
	// winner 1.
	places := map[int]bool{}
	for _, r := range results {
		switch {
		case r.Place == 0 && len(places) == 0:
			continue
		case r.Place < 1 || r.Place > len(results) || places[r.Place] || r.Won != (r.Place == 1):
			return fmt.Errorf("place %d of %s: want each of 1 to %d once, the winner 1", r.Place, r.Color, len(results))
		}
		places[r.Place] = true
	}
	if len(places) != 0 && len(places) != len(results) {
		return fmt.Errorf("places for %d of %d results", len(places), len(results))
	}
	return nil
}

// recordResults rates the players, inserts the results and updates the
// per-player aggregates. It returns the results with their ratings set.
func recordResults(ctx context.Context, tx dtx, gameID int64, guild string, now time.Time, results []malefiz.Result, rate Rating) ([]malefiz.Result, error) {
	results = slices.Clone(results)
	ratings, err := lockPlayers(ctx, tx, guild, now, results)
	if err != nil {
		return nil, err
	}
	before := make([]float64, len(results))
	for i, r := range results {
		before[i] = ratings[r.Player]
	}
	delta := make([]float64, len(results)) // no rule: the ratings stay
	if rate != nil {
		delta = rate(before, slices.IndexFunc(results, func(r malefiz.Result) bool { return r.Won }))
	}
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
				finished_at, rating_before, rating_after, place)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			gameID, r.Color, guild, r.Player, r.Name, r.Computer, r.Won, r.Forfeit,
			r.Captures, r.Captured, r.Barricades, r.Turns, r.GameTurns,
			now.UnixMilli(), r.RatingBefore, r.RatingAfter, r.Place); err != nil {
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
func lockPlayers(ctx context.Context, tx dtx, guild string, now time.Time, results []malefiz.Result) (map[string]float64, error) {
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
