package store

import (
	"context"
	"database/sql"
	"fmt"
)

// What delivery writes besides the outbox's outcomes, and the upgrade of
// effects committed by an older version.

// MarkDMRefused records that Discord refused a direct message to userID
// (the user's DMs are closed): the user is told the next time they act on
// a game. It changes nothing else of the user's settings, so it never
// undoes a change the user made while the message was on its way.
func (db *DB) MarkDMRefused(ctx context.Context, userID string) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: refused DM of user %s: %w", userID, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO user_settings (user_id, dm, dm_refused) VALUES (?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET dm_refused = excluded.dm_refused`, userID, true, true); err != nil {
		return fmt.Errorf("store: refused DM of user %s: %w", userID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: refused DM of user %s: %w", userID, err)
	}
	return nil
}

// UndeliveredEffects returns the effects of kind not delivered yet, oldest
// first, claimed or not: what an upgrade of their payload looks at.
func (db *DB) UndeliveredEffects(ctx context.Context, kind string) ([]Effect, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: undelivered effects: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT `+effectColumns+` FROM outbox
		WHERE done_at IS NULL AND kind = ? ORDER BY id`, kind)
	if err != nil {
		return nil, fmt.Errorf("store: undelivered effects: %w", err)
	}
	defer rows.Close()
	var out []Effect
	for rows.Next() {
		e, err := scanEffect(rows)
		if err != nil {
			return nil, fmt.Errorf("store: undelivered effects: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: undelivered effects: %w", err)
	}
	return out, tx.Commit()
}

// RewriteEffect replaces the payload of effect id while it is not
// delivered; it reports whether it did (false: delivered meanwhile).
func (db *DB) RewriteEffect(ctx context.Context, id int64, payload []byte) (bool, error) {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return false, fmt.Errorf("store: rewrite effect %d: %w", id, err)
	}
	defer tx.Rollback()
	var res sql.Result
	if res, err = tx.ExecContext(ctx, `UPDATE outbox SET payload = ? WHERE id = ? AND done_at IS NULL`, payload, id); err != nil {
		return false, fmt.Errorf("store: rewrite effect %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: rewrite effect %d: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("store: rewrite effect %d: %w", id, err)
	}
	return n == 1, nil
}
