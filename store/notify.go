package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// gameChannel is the PostgreSQL channel on which every committed change of
// a game is announced, as "ID OWNER": the game and the process that
// committed it (the Commit's Owner, which may hold spaces).
const gameChannel = "malefiz_game"

// notifyGame announces, in the commit's transaction, that game id changed:
// PostgreSQL delivers the notification when the transaction commits, and
// never when it rolls back. SQLite is one process: nothing to announce.
func notifyGame(ctx context.Context, tx wtx, d *dialect, owner string, id int64) error {
	if d != postgresDialect {
		return nil
	}
	_, err := tx.ExecContext(ctx, "SELECT pg_notify($1, $2)", gameChannel, strconv.FormatInt(id, 10)+" "+owner)
	return err
}

// ErrNoListen is returned by ListenGames on a database that announces no
// changes (SQLite, one process).
var ErrNoListen = errors.New("store: this database announces no changes")

// ListenGames calls changed with the ID of each game whose change another
// process committed (its Commit's Owner other than owner), until ctx ends;
// it then returns nil. It holds one PostgreSQL connection of its own, out
// of the pool (LISTEN); an error of that connection ends it, for the
// caller to listen again. SQLite returns ErrNoListen at once.
func (db *DB) ListenGames(ctx context.Context, owner string, changed func(id int64)) error {
	if db.d != postgresDialect {
		return ErrNoListen
	}
	conn, err := pgx.Connect(ctx, db.path)
	if err != nil {
		return fmt.Errorf("store: listen: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+gameChannel); err != nil {
		return fmt.Errorf("store: listen: %w", err)
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("store: listen: %w", err)
		}
		idText, from, ok := strings.Cut(n.Payload, " ")
		id, err := strconv.ParseInt(idText, 10, 64)
		if !ok || err != nil || from == owner {
			continue
		}
		changed(id)
	}
}
