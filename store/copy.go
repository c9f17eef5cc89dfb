package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"
)

// copyTable is a table Copy copies, with the key it reads it in order of
// (the events of a game must arrive in order: a trigger checks it).
type copyTable struct{ name, key string }

// copyTables are all the tables of the schema but migrations, each after
// the tables it refers to. TestCopyCoversSchema checks that none is missing.
var copyTables = []copyTable{
	{"tournaments", "id"},
	{"tournament_entrants", "tournament_id, user_id"},
	{"tournament_rounds", "tournament_id, round"},
	{"games", "id"},
	{"tournament_tables", "tournament_id, round, tbl"},
	{"tournament_seats", "tournament_id, round, tbl, seat"},
	{"seats", "game_id, seat"},
	{"events", "game_id, seq"},
	{"results", "game_id, color"},
	{"players", "guild_id, player"},
	{"player_colors", "guild_id, player, color"},
	{"player_months", "guild_id, month, player"},
	{"guild_settings", "guild_id"},
	{"outbox", "id"},
	{"user_settings", "user_id"},
	{"grades", "game_id, idx"},
	{"coaching", "game_id"},
	{"rate_budgets", "key"},
}

// TableCounts are the rows of each table, by table name.
type TableCounts map[string]int64

// Copy copies every row of every table (games, seats, events, results,
// ratings and statistics, settings, tournaments) from src into dst, which
// must hold no rows, in one transaction on dst that reads src as of one
// moment. Either backend can be either side: SQLite into PostgreSQL is
// `malefiz migrate-to`, PostgreSQL into SQLite is Backup. Then it counts
// the rows of dst and returns the counts, or an error when they differ
// from src's.
func Copy(ctx context.Context, dst, src *DB) (TableCounts, error) {
	counts, err := copyAll(ctx, dst, src)
	if err != nil {
		return nil, fmt.Errorf("store: copy %s into %s: %w", src, dst, err)
	}
	got, err := dst.TableCounts(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: copy %s into %s: %w", src, dst, err)
	}
	if !reflect.DeepEqual(got, counts) {
		return nil, fmt.Errorf("store: copy %s into %s: copied %v, but the copy has %v", src, dst, counts, got)
	}
	return counts, nil
}

func copyAll(ctx context.Context, dst, src *DB) (TableCounts, error) {
	rtx, err := src.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer rtx.Rollback()
	var counts TableCounts
	if dst.d == postgresDialect {
		counts, err = copyIntoPostgres(ctx, dst, rtx)
	} else {
		counts, err = copyIntoSQLite(ctx, dst, rtx)
	}
	if err != nil {
		return nil, err
	}
	return counts, rtx.Commit()
}

// copyIntoSQLite copies with prepared inserts, in one transaction.
func copyIntoSQLite(ctx context.Context, dst *DB, src dtx) (TableCounts, error) {
	tx, err := dst.beginWrite(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if err := checkEmpty(func(q string) (n int64, err error) {
		return n, tx.QueryRowContext(ctx, q).Scan(&n)
	}); err != nil {
		return nil, err
	}
	counts := TableCounts{}
	for _, t := range copyTables {
		probe, err := tx.QueryContext(ctx, `SELECT * FROM `+t.name+` LIMIT 0`)
		if err != nil {
			return nil, err
		}
		cols, err := probe.Columns()
		probe.Close()
		if err != nil {
			return nil, err
		}
		next, done, err := readRows(ctx, src, t, cols, nil)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", t.name, err)
		}
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ")
		insert, err := tx.PrepareContext(ctx, `INSERT INTO `+t.name+` (`+strings.Join(cols, ", ")+`) VALUES (`+marks+`)`)
		if err != nil {
			done()
			return nil, err
		}
		var n int64
		for err == nil {
			var vals []any
			if vals, err = next(); err == nil && vals == nil {
				break
			} else if err == nil {
				_, err = insert.ExecContext(ctx, vals...)
				n++
			}
		}
		insert.Close()
		done()
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", t.name, err)
		}
		counts[t.name] = n
	}
	return counts, tx.Commit()
}

// copyIntoPostgres copies with COPY, in one transaction of pgx's own on one
// connection of the pool.
func copyIntoPostgres(ctx context.Context, dst *DB, src dtx) (TableCounts, error) {
	conn, err := dst.w.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	counts := TableCounts{}
	err = conn.Raw(func(dc any) error {
		tx, err := dc.(*stdlib.Conn).Conn().Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx)
		if err := checkEmpty(func(q string) (n int64, err error) {
			return n, tx.QueryRow(ctx, q).Scan(&n)
		}); err != nil {
			return err
		}
		for _, t := range copyTables {
			probe, err := tx.Query(ctx, `SELECT * FROM `+t.name+` LIMIT 0`)
			if err != nil {
				return err
			}
			var cols []string
			var boolean []bool
			for _, f := range probe.FieldDescriptions() {
				cols = append(cols, f.Name)
				boolean = append(boolean, f.DataTypeOID == pgtype.BoolOID)
			}
			probe.Close()
			next, done, err := readRows(ctx, src, t, cols, boolean)
			if err != nil {
				return fmt.Errorf("table %s: %w", t.name, err)
			}
			var readErr error
			n, err := tx.CopyFrom(ctx, pgx.Identifier{t.name}, cols, pgx.CopyFromFunc(func() ([]any, error) {
				var vals []any
				vals, readErr = next()
				return vals, readErr
			}))
			done()
			if err = errors.Join(err, readErr); err != nil {
				return fmt.Errorf("table %s: %w", t.name, err)
			}
			counts[t.name] = n
		}
		// The identity columns go on after the copied IDs.
		for _, table := range []string{"games", "outbox", "tournaments"} {
			if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence('`+table+`', 'id'), max(id)) FROM `+table+`
				HAVING count(*) > 0`); err != nil {
				return err
			}
		}
		return tx.Commit(ctx)
	})
	return counts, err
}

// checkEmpty fails unless every table has no rows; count runs a query of
// one count.
func checkEmpty(count func(query string) (int64, error)) error {
	for _, t := range copyTables {
		n, err := count(`SELECT count(*) FROM ` + t.name)
		if err != nil {
			return fmt.Errorf("table %s: %w", t.name, err)
		}
		if n > 0 {
			return fmt.Errorf("the destination is not empty: table %s has %d rows", t.name, n)
		}
	}
	return nil
}

// readRows reads the columns cols of a table in key order: next returns
// the values of the next row, or nil after the last; done releases the
// rows. The values of the columns marked boolean come as bool (SQLite keeps
// booleans as integers).
func readRows(ctx context.Context, src dtx, t copyTable, cols []string, boolean []bool) (next func() ([]any, error), done func(), err error) {
	rows, err := src.QueryContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+t.name+` ORDER BY `+t.key)
	if err != nil {
		return nil, nil, err
	}
	next = func() ([]any, error) {
		if !rows.Next() {
			return nil, rows.Err()
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			if n, ok := v.(int64); ok && i < len(boolean) && boolean[i] {
				vals[i] = n != 0
			}
		}
		return vals, nil
	}
	return next, func() { rows.Close() }, nil
}

// TableCounts returns the number of rows of each table.
func (db *DB) TableCounts(ctx context.Context) (TableCounts, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: table counts: %w", err)
	}
	defer tx.Rollback()
	c, err := countRows(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("store: table counts: %w", err)
	}
	return c, tx.Commit()
}

func countRows(ctx context.Context, tx dtx) (TableCounts, error) {
	c := TableCounts{}
	for _, t := range copyTables {
		var n int64
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+t.name).Scan(&n); err != nil {
			return nil, fmt.Errorf("table %s: %w", t.name, err)
		}
		c[t.name] = n
	}
	return c, nil
}

// CompareLeaderboards checks that a and b hold the same games, results and
// ratings as far as anyone can see: the same counts of rows, and for every
// guild the same leaderboards of all time and of the 30 days before now,
// line by line. It returns nil when they agree, else an error naming the
// first difference.
func CompareLeaderboards(ctx context.Context, a, b *DB, now time.Time) error {
	ca, err := a.TableCounts(ctx)
	if err != nil {
		return err
	}
	cb, err := b.TableCounts(ctx)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(ca, cb) {
		return fmt.Errorf("store: %s has %v, %s has %v", a, ca, b, cb)
	}
	guilds, err := a.guilds(ctx)
	if err != nil {
		return err
	}
	for _, g := range guilds {
		for _, since := range []time.Time{{}, now.AddDate(0, 0, -30)} {
			la, na, err := a.Leaderboard(ctx, g, since, 0, 0, 1<<30)
			if err != nil {
				return err
			}
			lb, nb, err := b.Leaderboard(ctx, g, since, 0, 0, 1<<30)
			if err != nil {
				return err
			}
			if na != nb || !reflect.DeepEqual(la, lb) {
				return fmt.Errorf("store: the leaderboards of guild %s since %v differ: %d lines in %s, %d in %s",
					g, since, na, a, nb, b)
			}
		}
	}
	return nil
}

// guilds returns the guilds that have players.
func (db *DB) guilds(ctx context.Context) ([]string, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return queryStrings(ctx, tx, `SELECT DISTINCT guild_id FROM players ORDER BY guild_id`)
}

// backupToSQLite writes a PostgreSQL database into a new SQLite file at
// path (see Backup).
func (db *DB) backupToSQLite(ctx context.Context, path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	if err := tmp.Close(); err != nil {
		return err
	}
	os.Remove(name) // SQLite creates it, with its -wal and -shm beside it
	defer func() {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(name + suffix)
		}
	}()
	out, err := openSQLite(ctx, name)
	if err != nil {
		return err
	}
	if _, err := Copy(ctx, out, db); err != nil {
		out.Close()
		return err
	}
	// Fold the WAL into the file, so that the file alone is the backup.
	if _, err := out.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return installFile(name, path)
}
