package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/malefiz-discord/malefiz"
)

// Grade is one graded roll of a human player, as the coach stores it (see
// engine/ai's Grade): the move played and the best one in the engine's
// notation, the losses and chances in points.
type Grade struct {
	Index   int    // the roll's record in the game's history
	Color   string // the player's colour
	Turn    int
	Roll    int
	Move    string // "" for a pass
	Best    string
	Options int // distinct outcomes of the roll; graded when more than one
	Loss    float64
	Chance  float64
	Luck    float64
}

// Accuracy is a player's accuracy in a finished game, written to its
// result when the game's grading is final.
type Accuracy struct {
	Color    string
	Accuracy float64
}

// Coaching is a graded batch of a game to store (see SaveGrades).
type Coaching struct {
	GameID int64
	// Grades are added to the game's; a roll graded already keeps its
	// grade.
	Grades []Grade
	// Final: the game's grading is complete. Accuracies go to its results
	// and Effects (the coach's report) to its outbox, in the same
	// transaction, for the sender to deliver.
	Final      bool
	Accuracies []Accuracy
	Effects    []Effect
}

// SaveGrades writes c in one transaction: the grades, the game's mark as
// coached (final or not), and when final the accuracies and effects. A
// game marked final stays so: a second final save writes nothing and
// returns ErrConflict, so that its report is queued once.
func (db *DB) SaveGrades(ctx context.Context, c *Coaching) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: grades of game %d: %w", c.GameID, err)
	}
	defer tx.Rollback()

	var final bool
	err = tx.QueryRowContext(ctx, `SELECT final FROM coaching WHERE game_id = ?`, c.GameID).Scan(&final)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO coaching (game_id, final) VALUES (?, ?) ON CONFLICT (game_id) DO NOTHING`,
			c.GameID, false); err != nil {
			return fmt.Errorf("store: grades of game %d: %w", c.GameID, conflict(err))
		}
	case err != nil:
		return fmt.Errorf("store: grades of game %d: %w", c.GameID, err)
	case final:
		return fmt.Errorf("store: grades of game %d: graded already: %w", c.GameID, ErrConflict)
	}
	for _, g := range c.Grades {
		if _, err := tx.ExecContext(ctx, `INSERT INTO grades (game_id, idx, color, turn, roll, move, best, options, loss, chance, luck)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, idx) DO NOTHING`,
			c.GameID, g.Index, g.Color, g.Turn, g.Roll, g.Move, g.Best, g.Options, g.Loss, g.Chance, g.Luck); err != nil {
			return fmt.Errorf("store: grades of game %d: %w", c.GameID, conflict(err))
		}
	}
	if c.Final {
		// Two graders finishing at once: the row's lock lets one through.
		res, err := tx.ExecContext(ctx, `UPDATE coaching SET final = ? WHERE game_id = ? AND final = ?`, true, c.GameID, false)
		if err != nil {
			return fmt.Errorf("store: grades of game %d: %w", c.GameID, conflict(err))
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("store: grades of game %d: graded already: %w", c.GameID, ErrConflict)
		}
		for _, a := range c.Accuracies {
			if _, err := tx.ExecContext(ctx, `UPDATE results SET accuracy = ? WHERE game_id = ? AND color = ?`,
				a.Accuracy, c.GameID, a.Color); err != nil {
				return fmt.Errorf("store: grades of game %d: %w", c.GameID, conflict(err))
			}
		}
		effects, err := insertEffects(ctx, tx, c.GameID, db.now(), c.Effects, "", 0)
		if err != nil {
			return fmt.Errorf("store: grades of game %d: %w", c.GameID, conflict(err))
		}
		copy(c.Effects, effects)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: grades of game %d: %w", c.GameID, conflict(err))
	}
	return nil
}

// Grading is a game as the coach reads it, in one read: the game, its
// log, its grades in the order of its history, and whether its grading
// is final.
type Grading struct {
	Game   *malefiz.Game
	Events []malefiz.Event
	Grades []Grade
	Final  bool
}

// Grading returns game id with its log and grades (see Grading).
func (db *DB) Grading(ctx context.Context, gameID int64) (*Grading, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: grading of game %d: %w", gameID, err)
	}
	defer tx.Rollback()

	g := &Grading{}
	if g.Game, err = findGame(ctx, tx, `WHERE id = ?`, gameID); err != nil {
		return nil, fmt.Errorf("store: grading of game %d: %w", gameID, err)
	}
	if g.Events, err = findEvents(ctx, tx, gameID); err != nil {
		return nil, fmt.Errorf("store: grading of game %d: %w", gameID, err)
	}
	if g.Grades, g.Final, err = grades(ctx, tx, gameID); err != nil {
		return nil, fmt.Errorf("store: grading of game %d: %w", gameID, err)
	}
	return g, tx.Commit()
}

// Grades returns game id's grades in the order of its history, and
// whether its grading is final.
func (db *DB) Grades(ctx context.Context, gameID int64) ([]Grade, bool, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("store: grades of game %d: %w", gameID, err)
	}
	defer tx.Rollback()

	out, final, err := grades(ctx, tx, gameID)
	if err != nil {
		return nil, false, fmt.Errorf("store: grades of game %d: %w", gameID, err)
	}
	return out, final, tx.Commit()
}

// grades reads game id's grades and whether they are final within tx.
func grades(ctx context.Context, tx dtx, gameID int64) ([]Grade, bool, error) {
	var final bool
	if err := tx.QueryRowContext(ctx, `SELECT final FROM coaching WHERE game_id = ?`, gameID).Scan(&final); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, false, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT idx, color, turn, roll, move, best, options, loss, chance, luck
		FROM grades WHERE game_id = ? ORDER BY idx`, gameID)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var out []Grade
	for rows.Next() {
		var g Grade
		if err := rows.Scan(&g.Index, &g.Color, &g.Turn, &g.Roll, &g.Move, &g.Best, &g.Options, &g.Loss, &g.Chance, &g.Luck); err != nil {
			return nil, false, err
		}
		out = append(out, g)
	}
	return out, final, rows.Err()
}

// CoachingOpen returns the games whose grading has begun and is not final,
// oldest first: the coach's work after a restart.
func (db *DB) CoachingOpen(ctx context.Context) ([]int64, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: open coaching: %w", err)
	}
	defer tx.Rollback()

	rows, err := tx.QueryContext(ctx, `SELECT game_id FROM coaching WHERE final = ? ORDER BY game_id`, false)
	if err != nil {
		return nil, fmt.Errorf("store: open coaching: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: open coaching: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: open coaching: %w", err)
	}
	return ids, tx.Commit()
}
