package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/malefiz-discord/malefiz"
)

// Effect is one entry of a game's outbox: something that must reach Discord
// because of a change to the game, written in the change's transaction (see
// Commit) and delivered after it. A tournament has an outbox of its own,
// which works as a game's (see TournamentID).
//
// A game's effects of the main queue (Queue "") are delivered in the order
// they were written: only the oldest pending one can be claimed. An effect
// with a Queue is in a queue of its own per game and Queue, for a state of
// which only the newest counts (the game's card in the channel, say):
//
//   - committing it replaces its queue's pending effects that nobody holds
//     (they are done, with result Superseded, and never sent), so the newest
//     state is delivered and the last one always;
//   - it is claimed only when no older effect of the game's main queue is
//     pending (an edit never overtakes the post that made its message), and
//     the main queue never waits for it;
//   - two claims of one queue are at least the DB's QueueGap apart;
//   - Commit never claims it for its Owner: ClaimEffects does, when it is
//     due, and NextEffectAt tells when that is.
type Effect struct {
	ID     int64 // set by Commit
	GameID int64 // set by Commit; 0 for a tournament's effect
	// TournamentID is set for an effect of a tournament's outbox (its
	// card), written by the tournament's writes or by Commit's
	// TournamentEffects; 0 for a game's. A tournament's outbox keeps the
	// order and the queues of a game's.
	TournamentID int64
	// Queue is the game's queue the effect waits in: "" the game's main
	// queue; "card" the edits of the game's scoreboard card in the
	// channel.
	Queue     string
	Kind      string // what it does, for logs and metrics: "post", "edit", ...
	Payload   []byte // the request, opaque to the store
	Attempts  int    // deliveries tried before this one
	CreatedAt time.Time
	// LeaseUntil is when the claim of the process that got the effect
	// runs out (set by ClaimEffects, ClaimedEffects and a Commit with an
	// Owner; RenewClaims moves it), in the store's time. Zero: not
	// claimed.
	LeaseUntil time.Time
}

// Superseded is the result of a queued effect replaced by a newer one of its
// queue before anyone claimed it: done, not failed, never sent.
const Superseded = "superseded"

// DefaultQueueGap is the DB's QueueGap unless changed: at most one edit of a
// game's card every 3 s. Discord gives a channel's messages one bucket,
// which the libraries observe at 5 requests per 5 s, shared by the turn
// posts of a game without a thread and the cards of every game in the
// channel; one card at most every 3 s takes a third of it at the very
// most, and a human turn (read, click, the next turn's post) takes longer
// than that, so a card lags its game by one state for 3 s at worst while
// the final state still goes out at once when play stops.
// https://discord.com/developers/docs/topics/rate-limits
const DefaultQueueGap = 3 * time.Second

// EffectState is where an effect is in its life, for tests and tools.
type EffectState struct {
	Effect
	Done   bool   // delivered, superseded (Result is Superseded), or given up (Failed)
	Failed bool   // given up: Result says why
	Result string // what Discord answered (a message ID, say), or the last error
	NextAt time.Time
}

// ErrLeaseLost is returned when an effect's outcome is recorded by a process
// whose claim has run out and been taken over, or for an effect already done.
var ErrLeaseLost = errors.New("the effect is no longer claimed by this owner")

// stream is the outbox an effect is in: a game's (game set) or a
// tournament's (tournament set), each with its main queue and its queues.
type stream struct{ game, tournament int64 }

// gameStream stands for any game's outbox where only the column matters.
var gameStream = stream{game: -1}

// sql returns query, written with %s for the outbox's column, for s's
// column: game_id or tournament_id.
func (s stream) sql(query string) string {
	if s.tournament != 0 {
		return fmt.Sprintf(query, "tournament_id")
	}
	return fmt.Sprintf(query, "game_id")
}

// id is the ID of the game or tournament whose outbox s is.
func (s stream) id() int64 { return s.game + s.tournament }

// ids are the values of the outbox's game_id and tournament_id columns.
func (s stream) ids() (game, tournament any) {
	if s.tournament != 0 {
		return nil, s.tournament
	}
	return s.game, nil
}

// String names the outbox, for errors.
func (s stream) String() string {
	if s.tournament != 0 {
		return fmt.Sprintf("tournament %d", s.tournament)
	}
	return fmt.Sprintf("game %d", s.game)
}

// The queries of one outbox, with %s for its column (see stream.sql).
// Only what nobody holds is superseded (a claim that ran out is still
// someone's delivery, maybe under way): the queue stays in order.
const (
	olderPendingQuery = `SELECT count(*) FROM outbox WHERE %s = ? AND queue = '' AND done_at IS NULL AND id < ?`
	supersedeQuery    = `UPDATE outbox SET done_at = ?1, result = ?2
		WHERE %s = ?3 AND queue = ?4 AND done_at IS NULL AND lease_until IS NULL
		RETURNING next_at`
	lastClaimQuery = `SELECT max(claimed_at) FROM outbox WHERE %s = ? AND queue = ? AND queue <> ''`
)

// outboxStmt returns a statement of s's outbox: for a game's the one
// prepared (stmt), for a tournament's query prepared in the transaction.
func (tx wtx) outboxStmt(ctx context.Context, s stream, stmt *sql.Stmt, query string) (*sql.Stmt, error) {
	if s.tournament == 0 {
		return tx.stmt(ctx, stmt), nil
	}
	return tx.PrepareContext(ctx, s.sql(query))
}

// insertEffects appends effects to the outbox s, those of the main queue
// claimed by owner for lease when owner is set, and returns them with ID,
// GameID or TournamentID and CreatedAt. A queued effect replaces the
// pending ones of its queue that nobody holds (see Effect).
func insertEffects(ctx context.Context, tx wtx, s stream, now time.Time, effects []Effect, owner string, lease time.Duration) ([]Effect, error) {
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
		next, by, held := now, owner, until
		if e.Queue != "" {
			var err error
			if next, err = queueNext(ctx, tx, s, e.Queue, now); err != nil {
				return nil, fmt.Errorf("effect %d (%s): %w", i, e.Kind, err)
			}
			by, held = "", nil
		}
		game, tournament := s.ids()
		err := insert.QueryRowContext(ctx,
			game, tournament, e.Queue, e.Kind, e.Payload, now.UnixMilli(), next.UnixMilli(), by, held).Scan(&e.ID)
		if err != nil {
			return nil, fmt.Errorf("effect %d (%s): %w", i, e.Kind, err)
		}
		e.GameID, e.TournamentID, e.CreatedAt, e.Attempts = s.game, s.tournament, now, 0
		if held != nil {
			e.LeaseUntil = now.Add(lease)
		}
		out[i] = e
	}
	return out, nil
}

// queueNext supersedes the pending effects of the outbox s's queue that
// nobody holds and returns when the queue's new effect may be claimed: now,
// or QueueGap after the queue's last claim, or when the effect it replaces
// was to be tried again (it waits out Discord's refusal as that one would
// have), whichever is latest.
func queueNext(ctx context.Context, tx wtx, s stream, queue string, now time.Time) (time.Time, error) {
	next := now.UnixMilli()
	supersede, err := tx.outboxStmt(ctx, s, tx.st.supersede, supersedeQuery)
	if err != nil {
		return time.Time{}, err
	}
	rows, err := supersede.QueryContext(ctx, now.UnixMilli(), Superseded, s.id(), queue)
	if err != nil {
		return time.Time{}, err
	}
	defer rows.Close()
	for rows.Next() {
		var at int64
		if err := rows.Scan(&at); err != nil {
			return time.Time{}, err
		}
		next = max(next, at)
	}
	if err := rows.Err(); err != nil {
		return time.Time{}, err
	}
	rows.Close()
	// Read after superseding: on PostgreSQL a claim that the supersede
	// had to wait for has committed by then, and this statement's snapshot
	// sees its claimed_at. (A claim that runs out and is taken again later
	// does not move this effect's time: it waits for that one anyway, in
	// order, but may follow it sooner than the gap.)
	var last sql.NullInt64
	lastClaim, err := tx.outboxStmt(ctx, s, tx.st.lastClaim, lastClaimQuery)
	if err != nil {
		return time.Time{}, err
	}
	if err := lastClaim.QueryRowContext(ctx, s.id(), queue).Scan(&last); err != nil {
		return time.Time{}, err
	}
	if last.Valid {
		next = max(next, last.Int64+tx.db.QueueGap.Milliseconds())
	}
	return time.UnixMilli(next).UTC(), nil
}

// firstInQueue reports whether no effect of the outbox s's main queue
// older than id is pending: the main effects from id on are the head of
// the queue.
func firstInQueue(ctx context.Context, tx wtx, s stream, id int64) (bool, error) {
	olderPending, err := tx.outboxStmt(ctx, s, tx.st.olderPending, olderPendingQuery)
	if err != nil {
		return false, err
	}
	var older int
	err = olderPending.QueryRowContext(ctx, s.id(), id).Scan(&older)
	return older == 0, err
}

// claimable is the condition on an outbox row o (pending) that it heads its
// queue: the oldest pending effect of its game's (or tournament's) main
// queue, or of its own queue with no older effect of the main queue
// pending. A row is a game's or a tournament's: the game's subqueries find
// nothing for a tournament's row (its game_id is NULL), and the
// tournament's are not run for a game's (coalesce stops at the first).
const claimable = `o.id = coalesce((SELECT min(p.id) FROM outbox AS p
			WHERE p.game_id = o.game_id AND p.queue = o.queue AND p.done_at IS NULL),
		(SELECT min(p.id) FROM outbox AS p
			WHERE p.tournament_id = o.tournament_id AND p.queue = o.queue AND p.done_at IS NULL))
	AND (o.queue = '' OR NOT EXISTS (SELECT 1 FROM outbox AS m
			WHERE m.game_id = o.game_id AND m.queue = '' AND m.done_at IS NULL AND m.id < o.id)
		AND NOT EXISTS (SELECT 1 FROM outbox AS m
			WHERE m.tournament_id = o.tournament_id AND m.queue = '' AND m.done_at IS NULL AND m.id < o.id))`

// ClaimEffects claims for owner, for lease, up to limit effects that are
// due: each the head of its game's main queue or of one of its game's
// queues (see Effect), not claimed by anyone (or whose claim ran out), and
// not to be retried later. They are returned oldest first; a game may have
// one of each of its queues among them, which do not wait for each other. Deliver each, then record the outcome with EffectDone,
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
	err := db.claim(ctx, `UPDATE outbox SET lease_owner = ?1, lease_until = ?2, claimed_at = ?3
		WHERE id IN (
			SELECT o.id FROM outbox AS o
			WHERE o.done_at IS NULL AND o.next_at <= ?3
				AND (o.lease_until IS NULL OR o.lease_until <= ?3)
				AND `+claimable+`
			ORDER BY o.next_at, o.id
			LIMIT ?4%s)
			AND done_at IS NULL AND (lease_until IS NULL OR lease_until <= ?3)
		RETURNING `+effectColumns,
		[]any{owner, now.Add(lease).UnixMilli(), now.UnixMilli(), limit},
		func(rows *sql.Rows) error {
			e, err := scanEffect(rows)
			e.LeaseUntil = now.Add(lease)
			effects = append(effects, e)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("store: claim effects: %w", err)
	}
	sortEffects(effects)
	return effects, nil
}

// ClaimedEffects returns the pending effects of a game's main queue that
// owner may deliver now, oldest first: the ones at the head of the queue
// that owner holds a live claim on (those a Commit with Owner just wrote).
// When an older effect of the queue is someone else's, or waits for a
// retry, it returns none: the game's effects go out in order. Queued
// effects are ClaimEffects' alone.
func (db *DB) ClaimedEffects(ctx context.Context, owner string, gameID int64) ([]Effect, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: claimed effects: %w", err)
	}
	defer tx.Rollback()
	now := db.now().UnixMilli()
	rows, err := tx.QueryContext(ctx, `SELECT `+effectColumns+`,
			lease_owner = ? AND coalesce(lease_until, 0) > ? AND next_at <= ?, coalesce(lease_until, 0)
		FROM outbox WHERE game_id = ? AND queue = '' AND done_at IS NULL ORDER BY id`, owner, now, now, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: claimed effects: %w", err)
	}
	defer rows.Close()
	var out []Effect
	for rows.Next() {
		var e Effect
		var created, until int64
		var mine bool
		if err := rows.Scan(&e.ID, &e.GameID, &e.TournamentID, &e.Queue, &e.Kind, &e.Payload, &e.Attempts, &created, &mine, &until); err != nil {
			return nil, fmt.Errorf("store: claimed effects: %w", err)
		}
		if !mine {
			break
		}
		e.CreatedAt = time.UnixMilli(created).UTC()
		e.LeaseUntil = time.UnixMilli(until).UTC()
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: claimed effects: %w", err)
	}
	return out, tx.Commit()
}

// HeldElsewhere reports whether the oldest pending effect of a game's
// main queue is claimed by another owner than owner, the claim live: that
// process is delivering it, and the effects behind it go out once it
// records the outcome. It is false when there is none, when owner holds
// it, and when it waits for a retry or for anyone's claim.
func (db *DB) HeldElsewhere(ctx context.Context, owner string, gameID int64) (bool, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return false, fmt.Errorf("store: held elsewhere: %w", err)
	}
	defer tx.Rollback()
	var held bool
	err = tx.QueryRowContext(ctx, `SELECT coalesce(lease_owner, '') NOT IN ('', ?) AND coalesce(lease_until, 0) > ?
		FROM outbox WHERE game_id = ? AND queue = '' AND done_at IS NULL ORDER BY id LIMIT 1`,
		owner, db.now().UnixMilli(), gameID).Scan(&held)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("store: held elsewhere: %w", err)
	}
	return held, tx.Commit()
}

// Outdated reports whether effect e of a queue (see Effect) is out of date:
// a newer effect of its game's queue is pending, so that the state e would
// show is not the last one. An effect of the main queue never is.
func (db *DB) Outdated(ctx context.Context, e Effect) (bool, error) {
	return db.newerInQueue(ctx, e, "outdated", ` AND done_at IS NULL`)
}

// Superseded reports whether effect e of a queue has a newer effect in
// its game's queue, delivered or not: the message e changed shows, or
// will show, a later state. An effect of the main queue never has.
func (db *DB) Superseded(ctx context.Context, e Effect) (bool, error) {
	return db.newerInQueue(ctx, e, "superseded", "")
}

// newerInQueue reports whether effect e's game's queue holds a newer
// effect than e that also meets and (SQL, empty or starting with AND);
// what names the question in errors.
func (db *DB) newerInQueue(ctx context.Context, e Effect, what, and string) (bool, error) {
	if e.Queue == "" {
		return false, nil
	}
	tx, err := db.beginRead(ctx)
	if err != nil {
		return false, fmt.Errorf("store: %s: %w", what, err)
	}
	defer tx.Rollback()
	var id int64
	s := stream{game: e.GameID, tournament: e.TournamentID}
	err = tx.QueryRowContext(ctx, s.sql(`SELECT id FROM outbox WHERE %s = ? AND queue = ? AND id > ?`+and+` LIMIT 1`),
		s.id(), e.Queue, e.ID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, tx.Commit()
	}
	if err != nil {
		return false, fmt.Errorf("store: %s: %w", what, err)
	}
	return true, tx.Commit()
}

// effectColumns are the columns of an Effect, as scanEffect reads them.
const effectColumns = `id, coalesce(game_id, 0), coalesce(tournament_id, 0), queue, kind, payload, attempts, created_at`

// scanEffect reads an effect's row: effectColumns.
func scanEffect(rows *sql.Rows) (Effect, error) {
	var e Effect
	var created int64
	if err := rows.Scan(&e.ID, &e.GameID, &e.TournamentID, &e.Queue, &e.Kind, &e.Payload, &e.Attempts, &created); err != nil {
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
// answered; rec, when not nil, stores the new message's ID on the game, or
// on the tournament for a tournament's effect (without changing its
// version, so that no action in flight conflicts with it). ErrLeaseLost when owner's claim ran out and someone
// else took the effect, or it is done already.
func (db *DB) EffectDone(ctx context.Context, owner string, id int64, result string, rec *malefiz.MessageRecord) error {
	return db.finishEffect(ctx, owner, id, false, result, rec)
}

// EffectFailed gives effect id up: Discord refused it for good (a missing
// permission, an unknown channel). reason is kept; the game's next effect
// becomes due.
func (db *DB) EffectFailed(ctx context.Context, owner string, id int64, reason string) error {
	return db.finishEffect(ctx, owner, id, true, reason, nil)
}

func (db *DB) finishEffect(ctx context.Context, owner string, id int64, failed bool, result string, rec *malefiz.MessageRecord) error {
	return db.RecordDeliveries(ctx, owner, []Delivery{{ID: id, Failed: failed, Result: result, Record: rec}})
}

// Delivery is the outcome of one effect's delivery.
type Delivery struct {
	ID     int64
	Failed bool                   // given up (see EffectFailed); else delivered (see EffectDone)
	Result string                 // what Discord answered, or why it was given up
	Record *malefiz.MessageRecord // delivered: where the new message's ID goes, if anywhere
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
		var gameID, tournamentID int64
		err = done.QueryRowContext(ctx, now.UnixMilli(), d.Failed, d.Result, d.ID, owner).Scan(&gameID, &tournamentID)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: effect %d: %w", d.ID, ErrLeaseLost)
		} else if err != nil {
			return fmt.Errorf("store: effect %d: %w", d.ID, err)
		}
		switch {
		case d.Record == nil:
		case tournamentID != 0:
			err = setTournamentMessageID(ctx, tx, tournamentID, d.Record.Role, d.Record.MessageID) // tournament.go
		default:
			err = setMessageID(ctx, tx, gameID, d.Record.Role, d.Record.MessageID)
		}
		if err != nil {
			return fmt.Errorf("store: effect %d: %w", d.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: effect %d: %w", first, err)
	}
	return nil
}

// RenewClaims keeps owner's live claims on the effects ids for lease from
// now, and returns when they run out then: a process whose delivery of
// several effects outlasts half its claim keeps the rest from another
// process, which would send them again. When one of them is no longer
// owner's (its claim ran out, or it was recorded), none is renewed
// (ErrLeaseLost).
func (db *DB) RenewClaims(ctx context.Context, owner string, ids []int64, lease time.Duration) (time.Time, error) {
	now := db.now()
	until := now.Add(lease)
	if len(ids) == 0 {
		return until, nil
	}
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: renew claims: %w", err)
	}
	defer tx.Rollback()
	for _, id := range ids {
		res, err := tx.ExecContext(ctx, `UPDATE outbox SET lease_until = ?
			WHERE id = ? AND lease_owner = ? AND done_at IS NULL AND lease_until > ?`,
			until.UnixMilli(), id, owner, now.UnixMilli())
		if err != nil {
			return time.Time{}, fmt.Errorf("store: renew claims: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return time.Time{}, fmt.Errorf("store: renew claims: %w", err)
		} else if n == 0 {
			return time.Time{}, fmt.Errorf("store: renew claim of effect %d: %w", id, ErrLeaseLost)
		}
	}
	if err := tx.Commit(); err != nil {
		return time.Time{}, fmt.Errorf("store: renew claims: %w", err)
	}
	return until, nil
}

// RetryEffect records a failed attempt of effect id and puts it back for
// another try after wait; owner's claims on the later effects of its game
// (or tournament) and queue are released too, since they wait for this one
// (those of the other queues do not).
func (db *DB) RetryEffect(ctx context.Context, owner string, id int64, wait time.Duration, reason string) error {
	at := db.now().Add(wait)
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: retry effect %d: %w", id, err)
	}
	defer tx.Rollback()

	var s stream
	var queue string
	err = tx.QueryRowContext(ctx, `UPDATE outbox SET attempts = attempts + 1, next_at = ?, result = ?,
			lease_owner = '', lease_until = NULL
		WHERE id = ? AND done_at IS NULL AND lease_owner = ?
		RETURNING coalesce(game_id, 0), coalesce(tournament_id, 0), queue`,
		at.UnixMilli(), reason, id, owner).Scan(&s.game, &s.tournament, &queue)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: retry effect %d: %w", id, ErrLeaseLost)
	} else if err != nil {
		return fmt.Errorf("store: retry effect %d: %w", id, err)
	}
	// The effects after it in its queue wait for it; those before it that
	// owner still holds were delivered in the same pass and are being
	// recorded by owner (releasing them would lose that record and send
	// them again).
	if _, err := tx.ExecContext(ctx, s.sql(`UPDATE outbox SET lease_owner = '', lease_until = NULL
		WHERE %s = ? AND queue = ? AND id > ? AND done_at IS NULL AND lease_owner = ?`), s.id(), queue, id, owner); err != nil {
		return fmt.Errorf("store: retry effect %d: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: retry effect %d: %w", id, err)
	}
	return nil
}

// ReleaseEffects gives up owner's claims on a game's pending effects, of
// every queue, so that the sender takes them at once (a process that stops
// delivering).
func (db *DB) ReleaseEffects(ctx context.Context, owner string, gameID int64) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: release effects: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE outbox SET lease_owner = '', lease_until = NULL
		WHERE game_id = ? AND done_at IS NULL AND lease_owner = ?`, gameID, owner); err != nil {
		return fmt.Errorf("store: release effects: %w", err)
	}
	return tx.Commit()
}

// SetMessageID records the ID of one of a game's messages without changing
// the game's version.
func (db *DB) SetMessageID(ctx context.Context, gameID int64, role malefiz.MessageRole, messageID string) error {
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

func setMessageID(ctx context.Context, tx wtx, gameID int64, role malefiz.MessageRole, messageID string) error {
	var column string
	switch role {
	case malefiz.RoleLobby:
		column = "lobby_message_id"
	case malefiz.RoleTurn:
		column = "turn_message_id"
	case malefiz.RoleThread:
		column = "thread_id"
	case malefiz.RoleReminder:
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
// game's main queue, or of one of its queues that waits for no main effect)
// may be claimed (its retry time, the end of its queue's gap, or the end
// of its claim), and false when none is pending: how long the sender may
// sleep. A queued effect that waits for an older main effect is not
// counted: that main effect is.
func (db *DB) NextEffectAt(ctx context.Context) (time.Time, bool, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next effect: %w", err)
	}
	defer tx.Rollback()
	var at sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT min(CASE WHEN o.lease_until > o.next_at THEN o.lease_until ELSE o.next_at END) FROM outbox AS o
		WHERE o.done_at IS NULL AND `+claimable).Scan(&at)
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
	return db.effects(ctx, stream{game: gameID})
}

// TournamentEffects returns a tournament's outbox, oldest first, delivered
// ones included.
func (db *DB) TournamentEffects(ctx context.Context, tournamentID int64) ([]EffectState, error) {
	return db.effects(ctx, stream{tournament: tournamentID})
}

func (db *DB) effects(ctx context.Context, s stream) ([]EffectState, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: effects of %v: %w", s, err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, s.sql(`SELECT `+effectColumns+`,
			done_at IS NOT NULL, failed, result, next_at
		FROM outbox WHERE %s = ? ORDER BY id`), s.id())
	if err != nil {
		return nil, fmt.Errorf("store: effects of %v: %w", s, err)
	}
	defer rows.Close()
	var out []EffectState
	for rows.Next() {
		var e EffectState
		var created, next int64
		if err := rows.Scan(&e.ID, &e.GameID, &e.TournamentID, &e.Queue, &e.Kind, &e.Payload, &e.Attempts, &created,
			&e.Done, &e.Failed, &e.Result, &next); err != nil {
			return nil, fmt.Errorf("store: effects of %v: %w", s, err)
		}
		e.CreatedAt, e.NextAt = time.UnixMilli(created).UTC(), time.UnixMilli(next).UTC()
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: effects of %v: %w", s, err)
	}
	return out, tx.Commit()
}

// PruneEffects deletes the effects done before before and returns how many:
// the outbox keeps what is pending, however old (an effect is never given
// up by the store: only its sender does that, with EffectFailed), and a
// little history.
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
