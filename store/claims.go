package store

import (
	"context"
	"database/sql"
	"fmt"
)

// claim runs a claim in a write transaction of its own: query, an UPDATE
// … RETURNING of the rows taken (the timers of due games, the effects of
// the outbox), with %s where the candidates' subquery ends (PostgreSQL
// locks them there, skipping those another claimer holds). scan reads each
// returned row.
func (db *DB) claim(ctx context.Context, query string, args []any, scan func(*sql.Rows) error) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(query, tx.d.skipLocked), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	return tx.Commit()
}
