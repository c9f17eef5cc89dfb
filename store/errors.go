package store

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// PostgreSQL's error codes (SQLSTATE) that the store tells apart.
const (
	pgUniqueViolation      = "23505"
	pgSerializationFailure = "40001"
	pgDeadlockDetected     = "40P01"
	pgDuplicateTable       = "42P07"
	pgDuplicateObject      = "42710"
)

// isUniqueViolation reports whether err is a UNIQUE constraint failure, on
// either backend.
func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == pgUniqueViolation
}

// isDuplicateCreation reports whether err says that a CREATE lost a race
// with another PostgreSQL session creating the same object: depending on when
// the two catalog inserts meet, PostgreSQL reports the table (42P07), its row
// type (42710) or the catalog's unique index (23505) as already there.
func isDuplicateCreation(err error) bool {
	if isUniqueViolation(err) {
		return true
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == pgDuplicateTable || pe.Code == pgDuplicateObject)
}

// isRetryable reports whether err says that another transaction wrote the
// same rows first (a serialization failure or a deadlock): the transaction
// changed nothing and may be tried again from a fresh read.
func isRetryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == pgSerializationFailure || pe.Code == pgDeadlockDetected)
}

// conflict reports a retryable err as ErrConflict, keeping its text; other
// errors pass unchanged.
func conflict(err error) error {
	if isRetryable(err) {
		return fmt.Errorf("%w (%v)", ErrConflict, err)
	}
	return err
}
