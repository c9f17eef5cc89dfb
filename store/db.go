// Package store keeps every game in one database: games and their seats,
// the append-only event log of each game, per-guild settings, and the
// statistics of finished games (results, ratings, leaderboards). The types
// of games, seats, events and settings are the domain's (package malefiz);
// the store knows nothing of Discord or of the game's rules. Files: db.go
// opens, migrate.go migrates, tx.go begins and counts the transactions,
// commit.go writes a change, game.go and load.go read games, outbox.go and
// claims.go keep the outbox, results.go, leaderboard.go and stats.go the
// statistics, tournament.go the tournaments, backup.go and copy.go the
// copies.
//
// The database is a SQLite file (the default: one process, nothing to
// install, a backup is a file copy) or PostgreSQL (one database that several
// processes share). Both offer the same API, errors and guarantees; Open
// picks the backend from its argument. The SQL is written once, in SQLite's
// spelling of parameters, and rewritten for PostgreSQL (dialect.go); each
// backend has its own migrations (migrations/sqlite, migrations/postgres,
// with the same names) and a few specifics: SQLite writes through one
// connection with BEGIN IMMEDIATE and is told which index to use where its
// planner errs; PostgreSQL uses a pool, reads in REPEATABLE READ snapshots
// and locks the rows a write reads to compute another (SELECT … FOR UPDATE).
//
// The PostgreSQL schema and SQL keep to what PostgreSQL-compatible
// distributed databases (CockroachDB, YugabyteDB) accept as well: no
// advisory locks, no LOCK TABLE, no sequences used directly (identity
// columns), no NOTIFY (processes wake on their timers instead). Work that
// must happen once across processes is decided by a row: a version check on
// the game (UPDATE … WHERE version = ?); a lease on an outbox effect, whose
// candidates are chosen with SELECT … FOR UPDATE SKIP LOCKED and the claim's
// condition checked again as the row is updated; for migrations, the first
// insert of the migration's record, which a second process waits on and
// then finds taken. A serialization failure or
// a deadlock, which such databases report instead of waiting, comes back as
// ErrConflict, like a stale version. The append-only event log is enforced
// by triggers (PL/pgSQL), which CockroachDB supports since 24.3.
//
// Every exported method is one transaction, committed to disk before it
// returns. Writes that change a game are optimistic: they name the version
// they were computed from (Game.Version) and fail with ErrConflict, changing
// nothing, when someone else acted first; the caller reads the game again and
// decides anew. A turn is one UpdateGame: the new engine state, the turn's
// events and the version bump together.
//
// Timers live in the game: Deadline, RemindAt and ReminderSent say what is
// pending, and WakeAt, which the caller sets to the earliest of them (or to
// the lobby's expiry), is what the scheduler watches: NextWake says how long
// it may sleep, DueGames which games to handle. Handling a timer is an
// UpdateGame like any other, so it happens once even across restarts.
//
// The outbox holds what must reach Discord because of a change: Commit
// writes a game's change, its events and its effects in one transaction, so
// that an effect exists exactly when its change does. Effects of a game's
// main queue are delivered in order: only the oldest pending one can be
// claimed. An effect may name a queue of its own instead (the edits of a
// game's card), where the newest replaces what is not yet claimed, which
// waits for the game's older main effects but holds none back, and whose
// claims are QueueGap apart (see Effect). A claim is
// a lease (ClaimEffects, or Commit with an Owner); its holder records the
// outcome (EffectDone, RetryEffect, EffectFailed), and when it dies the lease
// runs out and anyone takes the effect. A delivery records the new message's
// ID on the game (SetMessageID) without a new version, so no action in
// flight conflicts with it.
//
// A tournament (tournament.go) is kept like a game: its writes are
// optimistic on its version, each one transaction with the effects it adds
// to the tournament's own outbox (an outbox row is a game's or a
// tournament's, with the same order and queues); its tables' games are
// games like any other, which name their tournament, round and table and
// are linked to the table when created. When its round opener is due is
// kept by the store (Tournament.WakeAt), and replicas claim a due
// tournament as they claim a due game (ClaimDueTournaments).
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Sentinel errors, compared with errors.Is.
var (
	// ErrNotFound: there is no such game (or player, for statistics).
	ErrNotFound = errors.New("not found")
	// ErrConflict: the game changed since it was read (a stale version),
	// or it is no longer in a state the write assumed. Nothing was changed.
	ErrConflict = errors.New("conflict: the game changed meanwhile")
	// ErrChannelBusy: the channel already has an open (lobby or running) game.
	ErrChannelBusy = errors.New("the channel already has an open game")
	// ErrFull: the tournament has as many entrants as it takes.
	ErrFull = errors.New("the tournament is full")
	// ErrNewerSchema: the database was written by a newer version of the
	// program (it has migrations this one does not know); it is not opened.
	ErrNewerSchema = errors.New("database schema is newer than this program")
)

//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrationFS embed.FS

// busyTimeout is how long a connection waits for a lock held by another
// process (another connection of this process never holds the write lock
// while one waits: writes share one connection).
const busyTimeout = 5 * time.Second

// readers is the size of the pool of read connections.
const readers = 4

// DB is a database holding games and statistics. It is safe for concurrent
// use.
//
// On SQLite, writes go through a single connection, so goroutines of this process queue
// for it (honouring their context) instead of spinning in SQLite's busy
// handler; each write transaction begins IMMEDIATE so that a second process
// (a backup, say) cannot deadlock it. Reads use a pool of their own and, in
// WAL mode, never wait for the writer.
type DB struct {
	// Now returns the current time; tests replace it. Open sets time.Now.
	Now func() time.Time
	// Rate rates the finished games whose Commit names no rule (FinishGame);
	// nil leaves the ratings as they are.
	Rate Rating
	// QueueGap is the least time between two claims of one queue of a
	// game's outbox (see Effect); Open sets DefaultQueueGap. It applies to
	// the effects committed after it is set.
	QueueGap time.Duration

	d         *dialect
	path      string      // SQLite: the file; PostgreSQL: the URL
	w         *sql.DB     // SQLite: one connection, BEGIN IMMEDIATE; PostgreSQL: the pool
	st        *writeStmts // prepared on w
	rst       *readStmts  // prepared on r
	r         *sql.DB     // read-only transactions; PostgreSQL: the pool again
	closeOnce sync.Once
	closeErr  error

	changes atomic.Int64 // committed Commits
	writes  atomic.Int64 // committed write transactions of any kind
	reads   atomic.Int64 // read transactions begun

	coachWrites atomic.Int64 // of writes, the coach's (claims, grades)
	coachReads  atomic.Int64 // of reads, the coach's (Grading, CoachBacklog)
}

// Counts are the transactions of a DB since it was opened.
type Counts struct {
	Changes int64 // Commit (CreateGame, UpdateGame, FinishGame): a game changed
	Writes  int64 // every write transaction: changes, outbox bookkeeping, settings
	Reads   int64 // every read transaction
	// CoachWrites and CoachReads are, of Writes and Reads, the coach's:
	// its claims and grades, its reads of the games it grades. They run
	// beside the clicks, not in their path.
	CoachWrites, CoachReads int64
}

// Counts returns the transactions so far.
func (db *DB) Counts() Counts {
	return Counts{Changes: db.changes.Load(), Writes: db.writes.Load(), Reads: db.reads.Load(),
		CoachWrites: db.coachWrites.Load(), CoachReads: db.coachReads.Load()}
}

// Open opens the database that s names and brings its schema up to date:
// a URL postgres://… or postgresql://… is a PostgreSQL database (see
// openPostgres); anything else, a plain path or sqlite:PATH, is a SQLite
// file, created if it does not exist. A database that has migrations this
// program does not know is refused with ErrNewerSchema.
//
// A SQLite database runs in WAL mode with foreign keys on, synchronous=FULL
// (a commit that returned survives a power loss) and a busy timeout. A file
// that is not a SQLite database, or that cannot be written, is refused with
// an error saying so.
func Open(ctx context.Context, s string) (*DB, error) {
	open := func() (*DB, error) { return openSQLite(ctx, strings.TrimPrefix(s, "sqlite:")) }
	if isPostgresURL(s) {
		open = func() (*DB, error) { return openPostgres(ctx, s) }
	}
	db, err := open()
	if err != nil {
		return nil, err
	}
	db.QueueGap = DefaultQueueGap
	if db.rst, err = prepareReads(ctx, db.r, db.d); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open: %w", err)
	}
	return db, nil
}

// sqliteDialect is SQLite's spelling.
var sqliteDialect = &dialect{
	name:         "sqlite",
	read:         &sql.TxOptions{ReadOnly: true},
	indexedBy:    func(index string) string { return "INDEXED BY " + index },
	sortedGroups: true,
}

func openSQLite(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("store: open: empty path")
	}
	if err := checkWritable(path); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db := &DB{Now: time.Now, d: sqliteDialect, path: path}

	var err error
	if db.w, err = sql.Open("sqlite", dsn(path, "_txlock=immediate")); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.w.SetMaxOpenConns(1)
	db.w.SetMaxIdleConns(1)
	db.w.SetConnMaxLifetime(0)
	db.w.SetConnMaxIdleTime(0)
	// Two processes opening a new file at once can meet in SQLite's
	// locks where it reports SQLITE_BUSY at once rather than wait (both
	// switching the file to WAL, say): try again until the busy timeout.
	err = retryBusy(ctx, func() error {
		if err := db.w.PingContext(ctx); err != nil {
			return err
		}
		return db.migrate(ctx)
	})
	if err != nil {
		db.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, explain(err))
	}
	if db.st, err = prepareWrites(ctx, db.w, db.d); err != nil {
		db.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}

	if db.r, err = sql.Open("sqlite", dsn(path, "_pragma=query_only(1)")); err != nil {
		db.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.r.SetMaxOpenConns(readers)
	db.r.SetMaxIdleConns(readers)
	if err := db.r.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, explain(err))
	}
	return db, nil
}

// dsn is the driver's name for path with the pragmas every pooled connection
// needs, plus extra query parameters.
func dsn(path string, extra ...string) string {
	// A "file:" URI, so that '?' and '#' in the path are escaped rather than
	// taken for the query.
	// Cleaned, so that a leading "//" is not read as a URI's authority.
	path = filepath.Clean(path)
	r := strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23")
	q := []string{
		fmt.Sprintf("_pragma=busy_timeout(%d)", busyTimeout.Milliseconds()),
		"_pragma=journal_mode(WAL)",
		"_pragma=foreign_keys(1)",
		"_pragma=synchronous(FULL)",
	}
	return "file:" + r.Replace(path) + "?" + strings.Join(append(q, extra...), "&")
}

// checkWritable refuses an existing file that this process cannot open for
// writing. SQLite would open it read-only and fail only at the first write.
func checkWritable(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // created by SQLite; it reports a missing directory itself
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("database file is not writable: %w", err)
	case err != nil:
		return err
	}
	return f.Close()
}

// retryBusy runs f until it returns anything but SQLITE_BUSY, for at most
// busyTimeout.
func retryBusy(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(busyTimeout)
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		err := f()
		var se *sqlite.Error
		if !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
	}
}

// explain makes the driver's errors on opening say what they mean.
func explain(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	if se.Code() == sqlite3.SQLITE_READONLY_DIRECTORY {
		return fmt.Errorf("directory is not writable (SQLite keeps -wal and -shm files beside the database): %w", err)
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("not a SQLite database: %w", err)
	case sqlite3.SQLITE_CORRUPT:
		return fmt.Errorf("database file is corrupt (restore a backup): %w", err)
	case sqlite3.SQLITE_READONLY:
		return fmt.Errorf("database is read-only: %w", err)
	case sqlite3.SQLITE_CANTOPEN:
		return fmt.Errorf("cannot open the database file (missing directory or no permission?): %w", err)
	}
	return err
}

// Close closes the database; calls after the first do nothing. Calls in
// progress may fail. It returns once every connection is closed (or after
// closeWait), so that no file of the database is open any more.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		var errs []error
		if db.rst != nil {
			errs = append(errs, db.rst.close())
		}
		if db.r != nil && db.r != db.w {
			errs = append(errs, db.r.Close())
			waitClosed(db.r)
		}
		if db.st != nil {
			errs = append(errs, db.st.close())
		}

		if db.w != nil {
			if db.d == sqliteDialect {
				// Let SQLite refresh the statistics its planner uses,
				// as it advises before closing a connection that wrote.
				_, err := db.w.Exec(`PRAGMA optimize`)
				errs = append(errs, err)
			}
			errs = append(errs, db.w.Close())
			waitClosed(db.w)
		}
		db.closeErr = errors.Join(errs...)
	})
	return db.closeErr
}

// closeWait bounds how long Close waits for the connections in use.
const closeWait = 10 * time.Second

// waitClosed waits until pool, closed, has no connection open, at most
// closeWait. sql.DB.Close closes the idle connections and leaves those in
// use to close when they are given back; and a transaction whose context
// ends is rolled back, and its connection closed, by a goroutine of
// database/sql's own, after the caller's Rollback has returned. Until the
// last connection closes, SQLite keeps the -wal and -shm files, which
// `malefiz run` that could not start took for another process's: it left
// its new database behind (TestFailedRunLeavesNoDatabase, once in CI).
func waitClosed(pool *sql.DB) {
	for end := time.Now().Add(closeWait); pool.Stats().OpenConnections > 0 && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
}

// Time is the store's time: Now to the millisecond, in UTC (the outbox's
// times are in it).
func (db *DB) Time() time.Time { return db.now() }

// now is db.Now to the millisecond, in UTC: what a time column stores.
func (db *DB) now() time.Time {
	return time.UnixMilli(db.Now().UnixMilli()).UTC()
}

// millis is t as a nullable time column: NULL for the zero time.
func millis(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}

// fromMillis reads a nullable time column.
func fromMillis(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.UnixMilli(n.Int64).UTC()
}
