package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// beginRead starts a read-only transaction that sees one snapshot (on
// SQLite deferred: it takes no lock a writer waits for).
func (db *DB) beginRead(ctx context.Context) (dtx, error) {
	db.reads.Add(1)
	tx, err := db.r.BeginTx(ctx, db.d.read)
	return dtx{Tx: tx, d: db.d}, err
}

// wtx is a write transaction, with the write connection's prepared
// statements at hand.
type wtx struct {
	dtx
	st *writeStmts
	db *DB
}

// Commit commits the transaction and counts it.
func (tx wtx) Commit() error {
	if err := tx.Tx.Commit(); err != nil {
		return err
	}
	tx.db.writes.Add(1)
	return nil
}

// stmt returns s for use within the transaction.
func (tx wtx) stmt(ctx context.Context, s *sql.Stmt) *sql.Stmt { return tx.StmtContext(ctx, s) }

// beginWrite starts a write transaction (on SQLite, on the one write
// connection).
func (db *DB) beginWrite(ctx context.Context) (wtx, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	return wtx{dtx: dtx{Tx: tx, d: db.d}, st: db.st, db: db}, err
}

// writeStmts are the statements of a move and of its deliveries, prepared
// once: parsing them would take a third of a move's time.
type writeStmts struct {
	updateGame, gameSeats, deleteSeats, insertSeat, insertEvent *sql.Stmt
	// insertEffect, olderPending and effectDone are the outbox's: a
	// commit's effects, whether they head their game's main queue, and
	// each delivery's record; supersede and lastClaim are a queued
	// effect's: the pending ones it replaces, and when its queue was last
	// claimed.
	insertEffect, olderPending, effectDone, supersede, lastClaim *sql.Stmt
}

func prepareWrites(ctx context.Context, w *sql.DB, d *dialect) (*writeStmts, error) {
	var st writeStmts
	for _, p := range []struct {
		s     **sql.Stmt
		query string
	}{
		// ?15: finishing; then the stored game must be open. Else it must
		// have the new status already, or be open and become open or
		// cancelled. The message IDs are not written here: deliveries
		// record them (see SetMessageID).
		{&st.updateGame, `UPDATE games SET status = ?1, host_id = ?2, options = ?3, state = ?4,
				locale = ?5, deadline = ?6, remind_at = ?7,
				reminder_sent = ?8, wake_at = ?9, updated_at = ?10, finished_at = ?11,
				version = version + 1, last_seq = last_seq + ?12
			WHERE id = ?13 AND version = ?14 AND CASE
				WHEN ?15 THEN status IN ('lobby', 'running') AND ?1 = 'finished'
				ELSE status = ?1 OR (status IN ('lobby', 'running') AND ?1 IN ('lobby', 'running', 'cancelled'))
			END
			RETURNING version, last_seq, coalesce(tournament_id, 0)`},
		{&st.gameSeats, seatsQuery},
		{&st.deleteSeats, `DELETE FROM seats WHERE game_id = ?`},
		{&st.insertSeat, `INSERT INTO seats (game_id, seat, color, user_id, name, computer, timeouts, has_left, acted_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&st.insertEvent, `INSERT INTO events (game_id, seq, at, kind, user_id, color, data)
			VALUES (?, ?, ?, ?, ?, ?, ?)`},
		{&st.insertEffect, `INSERT INTO outbox (game_id, tournament_id, queue, kind, payload, created_at, next_at,
				lease_owner, lease_until)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			RETURNING id`},
		// The statements of one outbox (see stream) are written for a
		// game's and prepared so; a tournament's runs their text.
		{&st.olderPending, gameStream.sql(olderPendingQuery)},
		{&st.supersede, gameStream.sql(supersedeQuery)},
		{&st.lastClaim, gameStream.sql(lastClaimQuery)},
		{&st.effectDone, `UPDATE outbox SET done_at = ?, failed = ?, result = ?, lease_until = NULL,
				attempts = attempts + 1
			WHERE id = ? AND done_at IS NULL AND lease_owner = ?
			RETURNING coalesce(game_id, 0), coalesce(tournament_id, 0)`},
	} {
		var err error
		if *p.s, err = w.PrepareContext(ctx, d.sql(p.query)); err != nil {
			st.close()
			return nil, fmt.Errorf("prepare %q: %w", p.query, err)
		}
	}
	return &st, nil
}

func (st *writeStmts) close() error {
	var errs []error
	for _, s := range []*sql.Stmt{st.updateGame, st.gameSeats, st.deleteSeats, st.insertSeat, st.insertEvent,
		st.insertEffect, st.olderPending, st.effectDone, st.supersede, st.lastClaim} {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	return errors.Join(errs...)
}

// readStmts are the statements of LoadGame, the read every click starts
// with, prepared once on the readers.
type readStmts struct {
	game, seats, guild *sql.Stmt
	// users reads the settings of up to loadUsers users; unused
	// parameters are given the empty ID, which no user has.
	users *sql.Stmt
}

// loadUsers is how many users' settings readStmts.users reads at once:
// the four seats and the one who acts.
const loadUsers = 5

func prepareReads(ctx context.Context, r *sql.DB, d *dialect) (*readStmts, error) {
	var st readStmts
	for _, p := range []struct {
		s     **sql.Stmt
		query string
	}{
		{&st.game, `SELECT ` + gameColumns + ` FROM games WHERE id = ?`},
		{&st.seats, seatsQuery},
		{&st.guild, guildSettingsQuery},
		{&st.users, usersSettingsQuery(loadUsers)},
	} {
		var err error
		if *p.s, err = r.PrepareContext(ctx, d.sql(p.query)); err != nil {
			st.close()
			return nil, fmt.Errorf("prepare %q: %w", p.query, err)
		}
	}
	return &st, nil
}

func (st *readStmts) close() error {
	var errs []error
	for _, s := range []*sql.Stmt{st.game, st.seats, st.guild, st.users} {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	return errors.Join(errs...)
}
