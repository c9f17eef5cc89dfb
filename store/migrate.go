package store

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
)

// migrate applies the embedded migrations of the backend that the database
// lacks, in name order, each in its own transaction together with its record
// in the migrations table. It refuses a database that has migrations it does
// not know.
func (db *DB) migrate(ctx context.Context) error { return db.migrateTo(ctx, "") }

// migrateTo applies the migrations as migrate does, up to the one named
// last ("" for all): a database of an older schema, for the tests of a
// migration.
func (db *DB) migrateTo(ctx context.Context, last string) error {
	if err := db.createMigrationsTable(ctx); err != nil {
		return fmt.Errorf("migrations table: %w", err)
	}
	names, err := migrationNames(db.d.name)
	if err != nil {
		return err
	}
	for _, name := range names {
		if last != "" && name > last {
			break
		}
		if err := db.migrateFile(ctx, name, names); err != nil {
			return err
		}
	}
	return nil
}

// migrationNames returns the names of a backend's migrations, in order.
func migrationNames(backend string) ([]string, error) {
	names, err := fs.Glob(migrationFS, "migrations/"+backend+"/*.sql")
	if err != nil {
		return nil, err
	}
	for i, name := range names {
		names[i] = filepath.Base(name)
	}
	slices.Sort(names)
	return names, nil
}

// createMigrationsTable creates the table of applied migrations unless it
// exists. Two PostgreSQL sessions creating it at once can fail although
// both said IF NOT EXISTS (the check and the catalog insert are not atomic):
// then the other one made it, and the next try finds it.
func (db *DB) createMigrationsTable(ctx context.Context) error {
	var err error
	for range 5 {
		var tx wtx
		if tx, err = db.beginWrite(ctx); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (
			name       TEXT   PRIMARY KEY,
			applied_at BIGINT NOT NULL
		)`)
		if err == nil {
			err = tx.Commit()
		}
		tx.Rollback()
		if err == nil || !isDuplicateCreation(err) {
			return err
		}
	}
	return err
}

// migrateFile applies one migration unless it is recorded as applied.
func (db *DB) migrateFile(ctx context.Context, name string, known []string) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	// Checked inside the write transaction, so that two processes opening
	// the same database at once cannot both apply a migration: SQLite's
	// write lock admits one, and on PostgreSQL the record is inserted
	// first, so that a second process waits for the first one's
	// transaction on the record's key and then finds it taken.
	applied, err := appliedMigrations(ctx, tx.dtx)
	if err != nil {
		return err
	}
	for _, a := range applied {
		if !slices.Contains(known, a) {
			return fmt.Errorf("%w: it has migration %q, which this program does not know; upgrade malefiz", ErrNewerSchema, a)
		}
	}
	if slices.Contains(applied, name) {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO migrations (name, applied_at) VALUES (?, ?)`,
		name, db.Now().UnixMilli()); isUniqueViolation(err) {
		return nil // applied by another process meanwhile
	} else if err != nil {
		return fmt.Errorf("migration %s: %w", name, err)
	}

	text, err := fs.ReadFile(migrationFS, "migrations/"+db.d.name+"/"+name)
	if err != nil {
		return err
	}
	if _, err := tx.Tx.ExecContext(ctx, string(text)); err != nil {
		return fmt.Errorf("migration %s: %w", name, err)
	}
	if db.d == sqliteDialect {
		// user_version mirrors the count, for tools that look there.
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, len(applied)+1)); err != nil {
			return fmt.Errorf("migration %s: %w", name, err)
		}
	}
	return tx.Commit()
}

func appliedMigrations(ctx context.Context, tx dtx) ([]string, error) {
	return queryStrings(ctx, tx, `SELECT name FROM migrations ORDER BY name`)
}

// queryStrings runs a query of one text column and returns its values.
func queryStrings(ctx context.Context, tx dtx, query string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
