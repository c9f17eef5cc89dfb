package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the live database to path, a SQLite
// file, while games go on. The copy is written beside path, synced, and
// renamed over it, so path holds either the old file or a complete copy.
//
// SQLite copies itself with VACUUM INTO. From PostgreSQL, Backup copies
// every table as it was at one moment (a REPEATABLE READ snapshot) into a
// new SQLite file, as Copy does, and checks the counts: a file that Open
// reads as it is and that Copy can bring back into an empty PostgreSQL
// database. pg_dump remains the tool for a dump of the PostgreSQL database
// itself.
func (db *DB) Backup(ctx context.Context, path string) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("store: backup to %s: %w", path, err)
		}
	}()
	if db.d != sqliteDialect {
		return db.backupToSQLite(ctx, path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name) // after a successful rename there is nothing there
	if err := tmp.Close(); err != nil {
		return err
	}
	// VACUUM INTO wants a file that does not exist or is empty; it is empty.
	// It reads within one read transaction, so the writer is not held up.
	// The readers are query_only, which forbids VACUUM INTO: a connection of
	// its own.
	conn, err := sql.Open("sqlite", dsn(db.path))
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `VACUUM INTO ?`, name); err != nil {
		return err
	}
	// SQLite does not sync the file VACUUM INTO writes.
	return installFile(name, path)
}

// installFile makes the finished file name the file at path: name synced,
// renamed over path, and the rename synced, so that path holds the old file
// or the whole new one, even after a power loss.
func installFile(name, path string) error {
	if err := syncFile(name); err != nil {
		return err
	}
	if err := os.Rename(name, path); err != nil {
		return err
	}
	return syncFile(filepath.Dir(path))
}

func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
