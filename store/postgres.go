package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// postgresConns is the size of a PostgreSQL handle's pool of connections.
const postgresConns = 8

// postgresDialect is PostgreSQL's spelling.
var postgresDialect = &dialect{
	name:       "postgres",
	dollar:     true,
	read:       &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead},
	forUpdate:  " FOR UPDATE",
	skipLocked: " FOR UPDATE SKIP LOCKED",
	indexedBy:  func(string) string { return "" },
}

// isPostgresURL reports whether s names a PostgreSQL database.
func isPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// openPostgres opens the PostgreSQL database at the URL s through pgx and
// brings its schema up to date. Its connections form one pool for reads and
// writes; statements are prepared once per connection (pgx caches them).
// Reads are READ ONLY transactions in REPEATABLE READ, so that a game and
// its seats come from one snapshot; writes are READ COMMITTED and rely on
// the version check of the game's row and on row locks (FOR UPDATE) where a
// write reads what it then overwrites.
func openPostgres(ctx context.Context, s string) (*DB, error) {
	cfg, err := pgx.ParseConfig(s)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", redact(s), err)
	}
	db := &DB{Now: time.Now, d: postgresDialect, path: s}
	db.w = stdlib.OpenDB(*cfg)
	db.w.SetMaxOpenConns(postgresConns)
	db.w.SetMaxIdleConns(postgresConns)
	db.w.SetConnMaxIdleTime(5 * time.Minute)
	db.r = db.w
	if err := db.w.PingContext(ctx); err != nil {
		db.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", redact(s), err)
	}
	if err := db.migrate(ctx); err != nil {
		db.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", redact(s), err)
	}
	if db.st, err = prepareWrites(ctx, db.w, db.d); err != nil {
		db.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", redact(s), err)
	}
	return db, nil
}

// redact is a database URL without its password, for messages.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "the PostgreSQL database"
	}
	return u.Redacted()
}

// String names the database: the SQLite file, or the PostgreSQL URL
// without its password.
func (db *DB) String() string {
	if db.d == sqliteDialect {
		return db.path
	}
	return redact(db.path)
}
