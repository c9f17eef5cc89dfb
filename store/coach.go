package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

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
	// Skipped: the roll waited past the coach's bound and was not graded
	// (its other fields but Index, Color, Turn, Roll and Move are zero).
	Skipped bool
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
	// Owner, the coach that claimed the game (ClaimGrading), renews its
	// claim for Lease, or with Release lets the game go: claimable again
	// once a commit marks it pending, or at once with Again (its grading
	// was interrupted).
	Owner   string
	Lease   time.Duration
	Release bool
	Again   bool
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
	db.coachWrites.Add(1)

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
		if _, err := tx.ExecContext(ctx, `INSERT INTO grades (game_id, idx, color, turn, roll, move, best, options, loss, chance, luck, skipped)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, idx) DO NOTHING`,
			c.GameID, g.Index, g.Color, g.Turn, g.Roll, g.Move, g.Best, g.Options, g.Loss, g.Chance, g.Luck, g.Skipped); err != nil {
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
		effects, err := insertEffects(ctx, tx, stream{game: c.GameID}, db.now(), c.Effects, "", 0)
		if err != nil {
			return fmt.Errorf("store: grades of game %d: %w", c.GameID, conflict(err))
		}
		copy(c.Effects, effects)
	}
	switch {
	case c.Release:
		if _, err := tx.ExecContext(ctx, `UPDATE coaching SET claim_owner = '', claim_until = 0,
				pending = CASE WHEN ?1 THEN ?1 ELSE pending END,
				pending_since = CASE WHEN ?1 THEN COALESCE(pending_since, ?2) ELSE pending_since END
			WHERE game_id = ?3 AND claim_owner = ?4`,
			c.Again, db.now().UnixMilli(), c.GameID, c.Owner); err != nil {
			return fmt.Errorf("store: grades of game %d: %w", c.GameID, conflict(err))
		}
	case c.Owner != "":
		if _, err := tx.ExecContext(ctx, `UPDATE coaching SET claim_until = ? WHERE game_id = ? AND claim_owner = ?`,
			db.now().Add(c.Lease).UnixMilli(), c.GameID, c.Owner); err != nil {
			return fmt.Errorf("store: grades of game %d: %w", c.GameID, conflict(err))
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: grades of game %d: %w", c.GameID, conflict(err))
	}
	return nil
}

// Claim is a game a coach took to grade (see ClaimGrading).
type Claim struct {
	GameID int64
	// Finished: the game is over (its verdict waits for the grades).
	Finished bool
	// Waited is how long its oldest ungraded commit had waited for a
	// coach when claimed.
	Waited time.Duration
}

// ClaimGrading takes for owner, for lease, the game the coach should grade
// next: a finished game before a running one, the one that has waited
// longest first; a game whose claim ran out (its coach stopped) is
// claimable again. ok is false when no game waits. The claim clears the
// game's pending mark: a commit while it is graded marks it again, so
// that it is claimed again once released.
func (db *DB) ClaimGrading(ctx context.Context, owner string, lease time.Duration) (c Claim, ok bool, err error) {
	if owner == "" {
		return Claim{}, false, errors.New("store: claim grading: empty owner")
	}
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return Claim{}, false, fmt.Errorf("store: claim grading: %w", err)
	}
	defer tx.Rollback()
	db.coachWrites.Add(1)
	now := db.now()
	var since sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT game_id, finished, pending_since FROM coaching
		WHERE final = ?1 AND claim_until <= ?2 AND (pending = ?3 OR claim_until > 0)
		ORDER BY finished DESC, COALESCE(pending_since, 0), game_id
		LIMIT 1`+tx.d.skipLocked, false, now.UnixMilli(), true).Scan(&c.GameID, &c.Finished, &since)
	if errors.Is(err, sql.ErrNoRows) {
		return Claim{}, false, tx.Commit()
	} else if err != nil {
		return Claim{}, false, fmt.Errorf("store: claim grading: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE coaching SET claim_owner = ?, claim_until = ?, pending = ?, pending_since = NULL
		WHERE game_id = ?`, owner, now.Add(lease).UnixMilli(), false, c.GameID); err != nil {
		return Claim{}, false, fmt.Errorf("store: claim grading: %w", conflict(err))
	}
	if since.Valid {
		c.Waited = max(0, now.Sub(time.UnixMilli(since.Int64)))
	}
	if err := tx.Commit(); err != nil {
		return Claim{}, false, fmt.Errorf("store: claim grading: %w", conflict(err))
	}
	return c, true, nil
}

// ResumeCoaching marks as waiting every game whose grading has begun and
// is not final: a coach that starts takes up what was committed while no
// coach ran (the commits of a process with the coach off mark nothing).
func (db *DB) ResumeCoaching(ctx context.Context) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: resume coaching: %w", err)
	}
	defer tx.Rollback()
	db.coachWrites.Add(1)
	if _, err := tx.ExecContext(ctx, `UPDATE coaching SET pending = ?1, pending_since = COALESCE(pending_since, ?2)
		WHERE final = ?3 AND pending = ?3`, true, db.now().UnixMilli(), false); err != nil {
		return fmt.Errorf("store: resume coaching: %w", conflict(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: resume coaching: %w", conflict(err))
	}
	return nil
}

// Backlog is the coach's work waiting in the database.
type Backlog struct {
	// Games waiting for a coach (pending, not claimed), of which Finished
	// are over.
	Games, Finished int
	// Oldest is how long the game waiting longest has waited.
	Oldest time.Duration
}

// CoachBacklog returns the games waiting for a coach (see Backlog).
func (db *DB) CoachBacklog(ctx context.Context) (Backlog, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return Backlog{}, fmt.Errorf("store: coach backlog: %w", err)
	}
	defer tx.Rollback()
	db.coachReads.Add(1)
	var (
		b      Backlog
		oldest sql.NullInt64
	)
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN finished THEN 1 ELSE 0 END), 0), MIN(pending_since)
		FROM coaching WHERE final = ? AND pending = ?`, false, true).Scan(&b.Games, &b.Finished, &oldest); err != nil {
		return Backlog{}, fmt.Errorf("store: coach backlog: %w", err)
	}
	if oldest.Valid {
		b.Oldest = max(0, db.now().Sub(time.UnixMilli(oldest.Int64)))
	}
	return b, tx.Commit()
}

// markCoaching marks game id as waiting for the coach within a commit
// (Commit.Coach): pending since now unless it already waited, and
// finished when the commit finishes it. A game whose grading is final
// stays so.
func markCoaching(ctx context.Context, tx wtx, id int64, finished bool, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO coaching (game_id, final, pending, finished, pending_since) VALUES (?1, ?2, ?3, ?4, ?5)
		ON CONFLICT (game_id) DO UPDATE SET pending = ?3, pending_since = COALESCE(coaching.pending_since, ?5),
			finished = CASE WHEN ?4 THEN ?4 ELSE coaching.finished END
		WHERE coaching.final = ?2`, id, false, true, finished, now.UnixMilli())
	return err
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
	db.coachReads.Add(1)

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
	rows, err := tx.QueryContext(ctx, `SELECT idx, color, turn, roll, move, best, options, loss, chance, luck, skipped
		FROM grades WHERE game_id = ? ORDER BY idx`, gameID)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var out []Grade
	for rows.Next() {
		var g Grade
		if err := rows.Scan(&g.Index, &g.Color, &g.Turn, &g.Roll, &g.Move, &g.Best, &g.Options, &g.Loss, &g.Chance, &g.Luck, &g.Skipped); err != nil {
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
