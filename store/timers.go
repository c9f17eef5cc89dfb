package store

import (
	"context"
	"errors"
	"fmt"
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
	ids, err := db.claimDue(ctx, `UPDATE games SET timer_owner = ?1, timer_until = ?2
		WHERE id IN (
			SELECT id FROM games
			WHERE wake_at IS NOT NULL AND wake_at <= ?3
				AND (timer_until IS NULL OR timer_until <= ?3 OR timer_owner = ?1)
			ORDER BY wake_at, id
			LIMIT ?4%s)
			AND (timer_until IS NULL OR timer_until <= ?3 OR timer_owner = ?1)
		RETURNING id, wake_at`, []any{owner, now.Add(lease).UnixMilli(), now.UnixMilli(), limit})
	if err != nil {
		return nil, fmt.Errorf("store: claim due games: %w", err)
	}
	return ids, nil
}
