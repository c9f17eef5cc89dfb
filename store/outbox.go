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

// Effect is one entry of a game's outbox: something that must reach Discord
// because of a change to the game, written in the change's transaction (see
// Commit) and delivered after it. Effects of one game are delivered in the
// order they were written: only the oldest pending effect of a game can be
// claimed.
type Effect struct {
	ID        int64  // set by Commit
	GameID    int64  // set by Commit
	Kind      string // what it does, for logs and metrics: "post", "edit", ...
	Payload   []byte // the request, opaque to the store
	Attempts  int    // deliveries tried before this one
	CreatedAt time.Time
	// Queue is the game's queue the effect waits in: "" the game's main
	// queue; "card" the edits of the game's scoreboard card in the
	// channel.
	Queue string
}

// EffectState is where an effect is in its life, for tests and tools.
type EffectState struct {
	Effect
	Done   bool   // delivered, or given up (Failed)
	Failed bool   // given up: Result says why
	Result string // what Discord answered (a message ID, say), or the last error
	NextAt time.Time
}

// ErrLeaseLost is returned when an effect's outcome is recorded by a process
// whose claim has run out and been taken over, or for an effect already done.
var ErrLeaseLost = errors.New("the effect is no longer claimed by this owner")

// insertEffects appends effects to game id's outbox, claimed by owner for
// lease when owner is set, and returns them with ID, GameID and CreatedAt.
func insertEffects(ctx context.Context, tx wtx, gameID int64, now time.Time, effects []Effect, owner string, lease time.Duration) ([]Effect, error) {
	if len(effects) == 0 {
		return nil, nil
	}
	out := make([]Effect, len(effects))
	var until any
	if owner != "" {
		until = now.Add(lease).UnixMilli()
	}
	insert := tx.stmt(ctx, tx.st.insertEffect)
	for i, e := range effects {
		if e.Kind == "" {
			return nil, fmt.Errorf("effect %d: empty kind", i)
		}
		if e.Payload == nil {
			e.Payload = []byte{}
		}
		err := insert.QueryRowContext(ctx,
			gameID, e.Kind, e.Payload, now.UnixMilli(), now.UnixMilli(), owner, until).Scan(&e.ID)
		if err != nil {
			return nil, fmt.Errorf("effect %d (%s): %w", i, e.Kind, err)
		}
		e.GameID, e.CreatedAt, e.Attempts = gameID, now, 0
		out[i] = e
	}
	return out, nil
}

// firstInQueue reports whether no effect of game gameID older than id is
// pending: the effects from id on are the head of the game's queue.
func firstInQueue(ctx context.Context, tx wtx, gameID, id int64) (bool, error) {
	var older int
	err := tx.stmt(ctx, tx.st.olderPending).QueryRowContext(ctx, gameID, id).Scan(&older)
	return older == 0, err
}

// ClaimEffects claims for owner, for lease, up to limit effects that are
// due: each the oldest pending effect of its game, not claimed by anyone (or
// whose claim ran out), and not to be retried later. They are returned
// oldest first. Deliver each, then record the outcome with EffectDone,
// RetryEffect or EffectFailed.
func (db *DB) ClaimEffects(ctx context.Context, owner string, lease time.Duration, limit int) ([]Effect, error) {
	if owner == "" {
		return nil, errors.New("store: claim effects: empty owner")
	}
	now := db.now()
	// On PostgreSQL the candidates are locked as they are chosen, passing
	// over those another claimer holds, and the claim's conditions are
	// checked again on each row as it is updated.
	var effects []Effect
	err := db.claim(ctx, `UPDATE outbox SET lease_owner = ?1, lease_until = ?2
		WHERE id IN (
			SELECT o.id FROM outbox AS o
			WHERE o.done_at IS NULL AND o.next_at <= ?3
				AND (o.lease_until IS NULL OR o.lease_until <= ?3)
				AND o.id = (SELECT min(p.id) FROM outbox AS p WHERE p.game_id = o.game_id AND p.done_at IS NULL)
			ORDER BY o.next_at, o.id
			LIMIT ?4%s)
			AND done_at IS NULL AND (lease_until IS NULL OR lease_until <= ?3)
		RETURNING id, game_id, kind, payload, attempts, created_at`,
		[]any{owner, now.Add(lease).UnixMilli(), now.UnixMilli(), limit},
		func(rows *sql.Rows) error {
			e, err := scanEffect(rows)
			effects = append(effects, e)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("store: claim effects: %w", err)
	}
	sortEffects(effects)
	return effects, nil
}

// ClaimedEffects returns the pending effects of a game that owner may
// deliver now, oldest first: the ones at the head of the game's queue that
// owner holds a live claim on (those a Commit with Owner just wrote). When an
// older effect of the game is someone else's, or waits for a retry, it
// returns none: the game's effects go out in order.
func (db *DB) ClaimedEffects(ctx context.Context, owner string, gameID int64) ([]Effect, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: claimed effects: %w", err)
	}
	defer tx.Rollback()
	now := db.now().UnixMilli()
	rows, err := tx.QueryContext(ctx, `SELECT id, game_id, kind, payload, attempts, created_at,
			lease_owner = ? AND coalesce(lease_until, 0) > ? AND next_at <= ?
		FROM outbox WHERE game_id = ? AND done_at IS NULL ORDER BY id`, owner, now, now, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: claimed effects: %w", err)
	}
	defer rows.Close()
	var out []Effect
	for rows.Next() {
		var e Effect
		var created int64
		var mine bool
		if err := rows.Scan(&e.ID, &e.GameID, &e.Kind, &e.Payload, &e.Attempts, &created, &mine); err != nil {
			return nil, fmt.Errorf("store: claimed effects: %w", err)
		}
		if !mine {
			break
		}
		e.CreatedAt = time.UnixMilli(created).UTC()
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: claimed effects: %w", err)
	}
	return out, tx.Commit()
}

// scanEffect reads an effect's row: id, game_id, kind, payload, attempts,
// created_at.
func scanEffect(rows *sql.Rows) (Effect, error) {
	var e Effect
	var created int64
	if err := rows.Scan(&e.ID, &e.GameID, &e.Kind, &e.Payload, &e.Attempts, &created); err != nil {
		return e, err
	}
	e.CreatedAt = time.UnixMilli(created).UTC()
	return e, nil
}

// sortEffects orders effects by ID (RETURNING gives no order).
func sortEffects(effects []Effect) {
	slices.SortFunc(effects, func(a, b Effect) int { return cmp.Compare(a.ID, b.ID) })
}

// EffectDone records that owner delivered effect id: result is what Discord
// answered; rec, when not nil, stores the new message's ID on the game
// (without changing the game's version, so that no action in flight
// conflicts with it). ErrLeaseLost when owner's claim ran out and someone
// else took the effect, or it is done already.
func (db *DB) EffectDone(ctx context.Context, owner string, id int64, result string, rec *MessageRecord) error {
	return db.finishEffect(ctx, owner, id, false, result, rec)
}

// EffectFailed gives effect id up: Discord refused it for good (a missing
// permission, an unknown channel). reason is kept; the game's next effect
// becomes due.
func (db *DB) EffectFailed(ctx context.Context, owner string, id int64, reason string) error {
	return db.finishEffect(ctx, owner, id, true, reason, nil)
}

func (db *DB) finishEffect(ctx context.Context, owner string, id int64, failed bool, result string, rec *MessageRecord) error {
	return db.RecordDeliveries(ctx, owner, []Delivery{{ID: id, Failed: failed, Result: result, Record: rec}})
}

// Delivery is the outcome of one effect's delivery.
type Delivery struct {
	ID     int64
	Failed bool           // given up (see EffectFailed); else delivered (see EffectDone)
	Result string         // what Discord answered, or why it was given up
	Record *MessageRecord // delivered: where the new message's ID goes, if anywhere
}

// RecordDeliveries records the outcomes of several effects delivered by
// owner in one transaction, as EffectDone and EffectFailed each do. When one
// of them is no longer owner's (ErrLeaseLost), nothing is recorded.
func (db *DB) RecordDeliveries(ctx context.Context, owner string, deliveries []Delivery) error {
	if len(deliveries) == 0 {
		return nil
	}
	first := deliveries[0].ID
	now := db.now()
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: effect %d: %w", first, err)
	}
	defer tx.Rollback()
	done := tx.stmt(ctx, tx.st.effectDone)
	for _, d := range deliveries {
		var gameID int64
		err = done.QueryRowContext(ctx, now.UnixMilli(), d.Failed, d.Result, d.ID, owner).Scan(&gameID)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: effect %d: %w", d.ID, ErrLeaseLost)
		} else if err != nil {
			return fmt.Errorf("store: effect %d: %w", d.ID, err)
		}
		if d.Record != nil {
			if err := setMessageID(ctx, tx, gameID, d.Record.Role, d.Record.MessageID); err != nil {
				return fmt.Errorf("store: effect %d: %w", d.ID, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: effect %d: %w", first, err)
	}
	return nil
}

// RetryEffect records a failed attempt of effect id and puts it back for
// another try after wait; owner's claims on the game's later effects are
// released too, since they wait for this one.
func (db *DB) RetryEffect(ctx context.Context, owner string, id int64, wait time.Duration, reason string) error {
	at := db.now().Add(wait)
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: retry effect %d: %w", id, err)
	}
	defer tx.Rollback()

	var gameID int64
	err = tx.QueryRowContext(ctx, `UPDATE outbox SET attempts = attempts + 1, next_at = ?, result = ?,
			lease_owner = '', lease_until = NULL
		WHERE id = ? AND done_at IS NULL AND lease_owner = ?
		RETURNING game_id`, at.UnixMilli(), reason, id, owner).Scan(&gameID)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: retry effect %d: %w", id, ErrLeaseLost)
	} else if err != nil {
		return fmt.Errorf("store: retry effect %d: %w", id, err)
	}
	if err := releaseClaims(ctx, tx, owner, gameID); err != nil {
		return fmt.Errorf("store: retry effect %d: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: retry effect %d: %w", id, err)
	}
	return nil
}

// ReleaseEffects gives up owner's claims on a game's pending effects, so
// that the sender takes them at once (a process that stops delivering).
func (db *DB) ReleaseEffects(ctx context.Context, owner string, gameID int64) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: release effects: %w", err)
	}
	defer tx.Rollback()
	if err := releaseClaims(ctx, tx, owner, gameID); err != nil {
		return fmt.Errorf("store: release effects: %w", err)
	}
	return tx.Commit()
}

func releaseClaims(ctx context.Context, tx wtx, owner string, gameID int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE outbox SET lease_owner = '', lease_until = NULL
		WHERE game_id = ? AND done_at IS NULL AND lease_owner = ?`, gameID, owner)
	return err
}

// SetMessageID records the ID of one of a game's messages without changing
// the game's version.
func (db *DB) SetMessageID(ctx context.Context, gameID int64, role MessageRole, messageID string) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: message of game %d: %w", gameID, err)
	}
	defer tx.Rollback()
	if err := setMessageID(ctx, tx, gameID, role, messageID); err != nil {
		return fmt.Errorf("store: message of game %d: %w", gameID, err)
	}
	return tx.Commit()
}

func setMessageID(ctx context.Context, tx wtx, gameID int64, role MessageRole, messageID string) error {
	var column string
	switch role {
	case RoleLobby:
		column = "lobby_message_id"
	case RoleTurn:
		column = "turn_message_id"
	case RoleThread:
		column = "thread_id"
	case RoleReminder:
		column = "reminder_message_id"
	default:
		return fmt.Errorf("unknown message role %q", role)
	}
	res, err := tx.ExecContext(ctx, `UPDATE games SET `+column+` = ? WHERE id = ?`, messageID, gameID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrNotFound
	}
	return nil
}

// NextEffectAt returns when the earliest claimable effect (the head of a
// game's queue) may be claimed (its retry time, or the end of its claim),
// and false when none is pending: how long the sender may sleep.
func (db *DB) NextEffectAt(ctx context.Context) (time.Time, bool, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next effect: %w", err)
	}
	defer tx.Rollback()
	var at sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT min(CASE WHEN o.lease_until > o.next_at THEN o.lease_until ELSE o.next_at END) FROM outbox AS o
		WHERE o.done_at IS NULL
			AND o.id = (SELECT min(p.id) FROM outbox AS p WHERE p.game_id = o.game_id AND p.done_at IS NULL)`).Scan(&at)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next effect: %w", err)
	}
	if !at.Valid {
		return time.Time{}, false, tx.Commit()
	}
	return time.UnixMilli(at.Int64).UTC(), true, tx.Commit()
}

// PendingEffects counts the effects not yet delivered nor given up.
func (db *DB) PendingEffects(ctx context.Context) (int, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: pending effects: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM outbox WHERE done_at IS NULL`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: pending effects: %w", err)
	}
	return n, tx.Commit()
}

// Effects returns a game's outbox, oldest first, delivered ones included.
func (db *DB) Effects(ctx context.Context, gameID int64) ([]EffectState, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: effects of game %d: %w", gameID, err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT id, game_id, kind, payload, attempts, created_at,
			done_at IS NOT NULL, failed, result, next_at
		FROM outbox WHERE game_id = ? ORDER BY id`, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: effects of game %d: %w", gameID, err)
	}
	defer rows.Close()
	var out []EffectState
	for rows.Next() {
		var e EffectState
		var created, next int64
		if err := rows.Scan(&e.ID, &e.GameID, &e.Kind, &e.Payload, &e.Attempts, &created,
			&e.Done, &e.Failed, &e.Result, &next); err != nil {
			return nil, fmt.Errorf("store: effects of game %d: %w", gameID, err)
		}
		e.CreatedAt, e.NextAt = time.UnixMilli(created).UTC(), time.UnixMilli(next).UTC()
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: effects of game %d: %w", gameID, err)
	}
	return out, tx.Commit()
}

// PruneEffects deletes the effects done before before and returns how many:
// the outbox keeps what is pending and a little history.
func (db *DB) PruneEffects(ctx context.Context, before time.Time) (int64, error) {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: prune effects: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM outbox WHERE done_at IS NOT NULL AND done_at < ?`, before.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("store: prune effects: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: prune effects: %w", err)
	}
	return n, tx.Commit()
}
