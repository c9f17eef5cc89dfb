package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
)

// Adding to the store, for both backends:
//
//   - Write a query once, with ? or ?N parameters, through a dtx or wtx
//     (their methods rewrite it for PostgreSQL). Keep to SQL both accept:
//     no scalar min(a, b)/max(a, b) (use CASE); qualify the table's columns
//     in ON CONFLICT … DO UPDATE (players.games + 1); give every subquery in
//     FROM an alias; booleans are BOOLEAN on PostgreSQL, so count them with
//     sum(CASE WHEN won THEN 1 ELSE 0 END) and pass Go bools.
//   - A migration goes into migrations/sqlite and migrations/postgres under
//     the same name (TestMigrationsMatch); PostgreSQL's in its own types
//     (BIGINT times, BOOLEAN, BYTEA, identity columns).
//   - A new table goes into copyTables (TestCopyCoversSchema), so that Copy,
//     Backup and migrate-to carry it.
//   - Rows that processes claim are chosen with tx.d.skipLocked and the
//     claim's condition checked again in the UPDATE (see ClaimEffects); a
//     row read to compute what is written back is read with tx.d.forUpdate.
//   - Tests run on every backend with forEachBackend.

// dialect is what differs between the backends where the SQL is shared.
// Queries are written once, in SQLite's spelling of parameters (? and ?N);
// a dialect that numbers them as $N gets them rewritten, once per text.
type dialect struct {
	// name is "sqlite" or "postgres"; the migrations live in
	// migrations/NAME.
	name string
	// dollar: parameters are $1, $2, … (PostgreSQL).
	dollar bool
	// read are the options of a read transaction: a snapshot.
	read *sql.TxOptions
	// forUpdate is what a SELECT ends with to lock the rows it reads
	// until the transaction ends; "" where a write transaction holds the
	// whole database (SQLite).
	forUpdate string
	// skipLocked is what a SELECT of rows to claim ends with, so that two
	// processes claiming at once take different rows: the rows another
	// transaction holds are passed over; "" on SQLite.
	skipLocked string
	// indexedBy names the index a query must read a table through, where
	// the planner needs telling (SQLite); "" elsewhere.
	indexedBy func(index string) string
	// sortedGroups: GROUP BY sorts its rows (SQLite), rather than hashing
	// them (PostgreSQL), so a large GROUP BY is better read in the group's
	// order from an index.
	sortedGroups bool

	rewritten sync.Map // query text → its $N spelling
}

// sql returns q in the dialect's spelling.
func (d *dialect) sql(q string) string {
	if !d.dollar {
		return q
	}
	if s, ok := d.rewritten.Load(q); ok {
		return s.(string)
	}
	s := dollarParams(q)
	d.rewritten.Store(q, s)
	return s
}

// dollarParams rewrites SQLite's parameters ?N and ? as $N, outside string
// literals and quoted names. A bare ? is numbered one past the largest number
// so far, as SQLite numbers it.
func dollarParams(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 8)
	largest := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch c {
		case '\'', '"':
			end := strings.IndexByte(q[i+1:], c)
			if end < 0 {
				b.WriteString(q[i:])
				return b.String()
			}
			b.WriteString(q[i : i+end+2])
			i += end + 1
		case '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			n := largest + 1
			if j > i+1 {
				n, _ = strconv.Atoi(q[i+1 : j])
			}
			largest = max(largest, n)
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// dtx is a transaction that speaks the dialect: its queries are written in
// the shared spelling.
type dtx struct {
	*sql.Tx
	d *dialect
}

// ExecContext runs a statement written in the shared spelling.
func (tx dtx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return tx.Tx.ExecContext(ctx, tx.d.sql(query), args...)
}

// QueryContext runs a query written in the shared spelling.
func (tx dtx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return tx.Tx.QueryContext(ctx, tx.d.sql(query), args...)
}

// QueryRowContext runs a query written in the shared spelling.
func (tx dtx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return tx.Tx.QueryRowContext(ctx, tx.d.sql(query), args...)
}

// PrepareContext prepares a statement written in the shared spelling.
func (tx dtx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return tx.Tx.PrepareContext(ctx, tx.d.sql(query))
}
