package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
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

// claimDue runs claim query (see claim), whose RETURNING gives each row's
// id and wake_at, and returns the IDs earliest first (RETURNING gives no
// order; the schedulers expect it): the claims of due games' timers and
// of due tournaments.
func (db *DB) claimDue(ctx context.Context, query string, args []any) ([]int64, error) {
	type due struct{ id, wake int64 }
	var claimed []due
	err := db.claim(ctx, query, args, func(rows *sql.Rows) error {
		var d due
		var wake sql.NullInt64
		if err := rows.Scan(&d.id, &wake); err != nil {
			return err
		}
		d.wake = wake.Int64
		claimed = append(claimed, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(claimed, func(a, b due) int { return cmp.Or(cmp.Compare(a.wake, b.wake), cmp.Compare(a.id, b.id)) })
	ids := make([]int64, len(claimed))
	for i, d := range claimed {
		ids[i] = d.id
	}
	return ids, nil
}

// nextWake returns the earliest wake_at of table's rows (games or
// tournaments), and false when none has one.
func (db *DB) nextWake(ctx context.Context, table string) (time.Time, bool, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return time.Time{}, false, err
	}
	defer tx.Rollback()
	var at sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT wake_at FROM `+table+` WHERE wake_at IS NOT NULL ORDER BY wake_at LIMIT 1`).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, tx.Commit()
	} else if err != nil {
		return time.Time{}, false, err
	}
	return fromMillis(at), true, tx.Commit()
}
