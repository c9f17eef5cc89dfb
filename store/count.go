package store

import (
	"context"
	"fmt"
)

// RunningGames counts the games being played (lobbies not included).
func (db *DB) RunningGames(ctx context.Context) (int, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: running games: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE status = 'running'`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: running games: %w", err)
	}
	return n, tx.Commit()
}
