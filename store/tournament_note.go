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
