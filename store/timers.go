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

// ClaimDueGames claims for owner, for lease, up to limit games whose WakeAt
// is at or before now (the caller's clock, as for DueGames) and that no
// other process holds (owner's own claims may be
// taken again at once), earliest first, and returns their IDs. Handling a claimed game's timer is a write like any other (its
// version check still decides); the claim only keeps several processes from
// working on the same game at once, and lapses by itself when its holder
// dies.
func (db *DB) ClaimDueGames(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]int64, error) {
	if owner == "" {
		return nil, errors.New("store: claim due games: empty owner")
	}
	type due struct{ id, wake int64 }
	var claimed []due
	err := db.claim(ctx, `UPDATE games SET timer_owner = ?1, timer_until = ?2
		WHERE id IN (
			SELECT id FROM games
			WHERE wake_at IS NOT NULL AND wake_at <= ?3
				AND (timer_until IS NULL OR timer_until <= ?3 OR timer_owner = ?1)
			ORDER BY wake_at, id
			LIMIT ?4%s)
			AND (timer_until IS NULL OR timer_until <= ?3 OR timer_owner = ?1)
		RETURNING id, wake_at`, []any{owner, now.Add(lease).UnixMilli(), now.UnixMilli(), limit},
		func(rows *sql.Rows) error {
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
		return nil, fmt.Errorf("store: claim due games: %w", err)
	}
	// RETURNING gives no order: earliest first, as the scheduler expects.
	slices.SortFunc(claimed, func(a, b due) int { return cmp.Or(cmp.Compare(a.wake, b.wake), cmp.Compare(a.id, b.id)) })
	ids := make([]int64, len(claimed))
	for i, d := range claimed {
		ids[i] = d.id
	}
	return ids, nil
}
