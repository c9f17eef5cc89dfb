package store

import (
	"context"
	"fmt"
	"time"

	"github.com/malefiz-discord/malefiz"
)

// NoteTournament appends effects to the outbox of the open tournament t
// (sign-up, running or paused), at t.Version, changing nothing else: what
// the channel reads once a round's tables have their games (the card with
// links to their threads, say), which the round's own write could not
// know yet. ErrConflict when the version is stale or the tournament is
// over.
func (db *DB) NoteTournament(ctx context.Context, t *malefiz.Tournament, effects ...Effect) error {
	what := fmt.Sprintf("note on tournament %d", t.ID)
	return db.writeTournament(ctx, t, what, openStatus, effects, func(wtx, time.Time) error { return nil })
}

// CloseSignUp closes the sign-up of tournament t, in sign-up, at
// t.Version, with effects: it takes no more entrants than it has (its
// MaxEntrants becomes their number; a join is ErrFull from then on) and
// waits for its start. It needs two entrants at least (ErrConflict).
func (db *DB) CloseSignUp(ctx context.Context, t *malefiz.Tournament, effects ...Effect) error {
	what := fmt.Sprintf("close the sign-up of tournament %d", t.ID)
	var n int
	err := db.writeTournament(ctx, t, what, signUp, effects, func(tx wtx, _ time.Time) error {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM tournament_entrants WHERE tournament_id = ?`, t.ID).Scan(&n); err != nil {
			return err
		}
		if n < 2 {
			return fmt.Errorf("%d entrants: %w", n, ErrConflict)
		}
		_, err := tx.ExecContext(ctx, `UPDATE tournaments SET max_entrants = ? WHERE id = ?`, n, t.ID)
		return err
	})
	if err != nil {
		return err
	}
	t.Setup.MaxEntrants = n
	return nil
}
