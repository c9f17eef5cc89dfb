// Package storetest gives tests the databases the store runs on: a SQLite
// file in the test's temporary directory, and a PostgreSQL database of the
// test's own on the server that MALEFIZ_TEST_POSTGRES_URL names (started by
// scripts/test-postgres.sh). The store's tests and the program's end-to-end
// tests both use it.
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	_ "modernc.org/sqlite"
)

// PostgresEnv names the variable with the URL of a PostgreSQL server the
// tests may create databases on.
const PostgresEnv = "MALEFIZ_TEST_POSTGRES_URL"

// Backend is one kind of database a test runs on.
type Backend struct {
	// Name is "sqlite" or "postgres".
	Name string
	// NewURL returns what store.Open takes to open a new, empty database
	// that belongs to the test alone (and is deleted after it).
	NewURL func(t testing.TB) string
}

// Driver is the database/sql driver for raw access to the backend.
func (b Backend) Driver() string {
	if b.Name == "postgres" {
		return "pgx"
	}
	return "sqlite"
}

// Backends returns the backends to test: SQLite always, PostgreSQL when
// PostgresEnv is set. In CI (CI set) a missing PostgreSQL fails the test
// rather than skipping it.
func Backends(t testing.TB) []Backend {
	backends := []Backend{{Name: "sqlite", NewURL: func(t testing.TB) string {
		return filepath.Join(t.TempDir(), "malefiz.db")
	}}}
	if os.Getenv(PostgresEnv) != "" {
		backends = append(backends, Backend{Name: "postgres", NewURL: NewPostgresURL})
	} else if os.Getenv("CI") != "" {
		t.Fatalf("%s is not set: in CI the PostgreSQL tests must run (scripts/test-postgres.sh)", PostgresEnv)
	} else {
		warnOnce.Do(func() {
			fmt.Fprintf(os.Stderr, "%s not set: testing SQLite only (see scripts/test-postgres.sh)\n", PostgresEnv)
		})
	}
	return backends
}

var (
	warnOnce  sync.Once
	adminOnce sync.Once
	admin     *sql.DB
	adminErr  error
	created   atomic.Int64
)

// NewPostgresURL creates a database of its own for the test on the server
// of PostgresEnv, drops it after the test, and returns its URL. It skips the
// test when PostgresEnv is not set.
func NewPostgresURL(t testing.TB) string {
	t.Helper()
	if os.Getenv(PostgresEnv) == "" {
		t.Skipf("%s is not set: no PostgreSQL (see scripts/test-postgres.sh)", PostgresEnv)
	}
	name := strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "_"))
	dbURL, drop, err := CreatePostgres(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := drop(); err != nil {
			t.Error(err)
		}
	})
	return dbURL
}

// CreatePostgres creates an empty database named after name (made unique)
// on the server of PostgresEnv and returns its URL and the function that
// drops it, for databases that outlive one test (a benchmark's).
func CreatePostgres(name string) (dbURL string, drop func() error, err error) {
	base := os.Getenv(PostgresEnv)
	if base == "" {
		return "", nil, fmt.Errorf("%s is not set: no PostgreSQL (see scripts/test-postgres.sh)", PostgresEnv)
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", PostgresEnv, err)
	}
	adminOnce.Do(func() {
		admin, adminErr = sql.Open("pgx", base)
		if adminErr == nil {
			adminErr = admin.PingContext(context.Background())
		}
	})
	if adminErr != nil {
		return "", nil, fmt.Errorf("PostgreSQL at %s: %w", u.Redacted(), adminErr)
	}
	db := fmt.Sprintf("t%d_%d_%s", os.Getpid(), created.Add(1), name)
	db = db[:min(len(db), 63)]
	if _, err := admin.Exec(`CREATE DATABASE "` + db + `"`); err != nil {
		return "", nil, fmt.Errorf("create database %s: %w", db, err)
	}
	u.Path = "/" + db
	return u.String(), func() error {
		if _, err := admin.Exec(`DROP DATABASE "` + db + `" WITH (FORCE)`); err != nil {
			return fmt.Errorf("drop database %s: %w", db, err)
		}
		return nil
	}, nil
}
