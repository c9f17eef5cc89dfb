package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// A stmtCache keeps the statements a SQLite pool has run prepared, by
// their text, so that SQLite parses a query once per connection rather
// than on every run: parsing was 5 % of the bot's CPU per click in
// BenchmarkClickRate's profile (the prepared writeStmts and readStmts
// cover the move itself, this the rest: the outbox, claims, settings).
//
// A statement cannot be prepared on its pool inside a transaction (the
// transaction holds the write pool's one connection), so a query met for
// the first time runs unprepared and is prepared before the pool's next
// transaction begins, with no connection held. Within a transaction the
// statement is bound to its connection (Tx.StmtContext), where
// database/sql keeps one prepared copy per connection.
//
// PostgreSQL needs none: pgx caches the statements it has prepared.
type stmtCache struct {
	db *sql.DB

	mu      sync.Mutex
	stmts   map[string]*sql.Stmt // prepared, by the query's text
	pending map[string]bool      // met, not yet prepared
	failed  map[string]bool      // that could not be prepared: run unprepared
	closed  bool
}

// maxCachedStmts bounds the texts kept (prepared, pending or failed): the
// store's queries are a fixed set of texts, but a text built at run time
// must not grow the cache without end.
const maxCachedStmts = 256

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]*sql.Stmt{}, pending: map[string]bool{}, failed: map[string]bool{}}
}

// lookup returns the prepared statement for query, or nil, noting the
// query to be prepared before the next transaction.
func (c *stmtCache) lookup(query string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.stmts[query]; s != nil {
		return s
	}
	if !c.failed[query] && len(c.stmts)+len(c.pending)+len(c.failed) < maxCachedStmts {
		c.pending[query] = true
	}
	return nil
}

// prepare prepares the queries met since the last call. It is called
// before a transaction begins, holding no connection of the pool; a query
// that fails to prepare (a temporary table's, say) is not tried again.
func (c *stmtCache) prepare(ctx context.Context) {
	if c == nil {
		return
	}
	c.mu.Lock()
	if len(c.pending) == 0 || c.closed {
		c.mu.Unlock()
		return
	}
	queries := make([]string, 0, len(c.pending))
	for q := range c.pending {
		queries = append(queries, q)
	}
	clear(c.pending)
	c.mu.Unlock()
	for _, q := range queries {
		s, err := c.db.PrepareContext(ctx, q) // SQLite's spelling: no rewrite
		c.mu.Lock()
		switch {
		case err != nil && ctx.Err() == nil:
			c.failed[q] = true
		case err != nil:
		case c.closed || c.stmts[q] != nil:
			s.Close()
		default:
			c.stmts[q] = s
		}
		c.mu.Unlock()
	}
}

// close closes the prepared statements; lookups find none afterwards.
func (c *stmtCache) close() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var errs []error
	for q, s := range c.stmts {
		errs = append(errs, s.Close())
		delete(c.stmts, q)
	}
	return errors.Join(errs...)
}
