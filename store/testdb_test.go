package store

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

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for raw access in tests
	_ "modernc.org/sqlite"
)

// TestBackend is one kind of database the store's tests run on.
type TestBackend struct {
	// Name is "sqlite" or "postgres".
	Name string
	// NewURL returns what Open takes to open a new, empty database that
	// belongs to the test alone (and is deleted after it).
	NewURL func(t testing.TB) string
}

// Driver is the database/sql driver for raw access to the backend.
func (b TestBackend) Driver() string {
	if b.Name == "postgres" {
		return "pgx"
	}
	return "sqlite"
}

// postgresEnv names the variable with the URL of a PostgreSQL server the
// tests may create databases on (scripts/test-postgres.sh sets it).
const postgresEnv = "MALEFIZ_TEST_POSTGRES_URL"

// testBackends returns the backends to test: SQLite always, PostgreSQL when
// postgresEnv is set. In CI (CI set) a missing PostgreSQL fails the test
// rather than skipping it.
func testBackends(t testing.TB) []TestBackend {
	backends := []TestBackend{{Name: "sqlite", NewURL: func(t testing.TB) string {
		return filepath.Join(t.TempDir(), "malefiz.db")
	}}}
	if os.Getenv(postgresEnv) != "" {
		backends = append(backends, TestBackend{Name: "postgres", NewURL: newPostgresDatabase})
	} else if os.Getenv("CI") != "" {
		t.Fatalf("%s is not set: in CI the PostgreSQL tests must run (scripts/test-postgres.sh)", postgresEnv)
	} else {
		warnOnce.Do(func() {
			fmt.Fprintf(os.Stderr, "store: %s not set: testing SQLite only (see scripts/test-postgres.sh)\n", postgresEnv)
		})
	}
	return backends
}

var (
	warnOnce  sync.Once
	adminOnce sync.Once
	admin     *sql.DB
	adminErr  error
	databases atomic.Int64
)

// newPostgresDatabase creates a database of its own for the test on the
// server of postgresEnv, drops it after the test, and returns its URL.
func newPostgresDatabase(t testing.TB) string {
	t.Helper()
	base := os.Getenv(postgresEnv)
	adminOnce.Do(func() {
		admin, adminErr = sql.Open("pgx", base)
		if adminErr == nil {
			adminErr = admin.PingContext(context.Background())
		}
	})
	if adminErr != nil {
		t.Fatalf("PostgreSQL at %s: %v", redact(base), adminErr)
	}
	name := fmt.Sprintf("t%d_%d_%s", os.Getpid(), databases.Add(1),
		strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "_")))
	name = name[:min(len(name), 63)]
	if _, err := admin.Exec(`CREATE DATABASE "` + name + `"`); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(`DROP DATABASE "` + name + `" WITH (FORCE)`); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// forEachBackend runs f as a subtest on each backend.
func forEachBackend(t *testing.T, f func(t *testing.T, b TestBackend)) {
	for _, b := range testBackends(t) {
		t.Run(b.Name, func(t *testing.T) { f(t, b) })
	}
}
