package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// postgresURLEnv names the URL of a PostgreSQL server the tests may create
// databases on (scripts/test-postgres.sh sets it).
const postgresURLEnv = "MALEFIZ_TEST_POSTGRES_URL"

// database is a kind of database the program can run on in a test.
type database struct {
	name string
	// newURL returns what [database] path (or url) takes for a new, empty
	// database of the test's own.
	newURL func(t testing.TB) string
}

// databases returns SQLite, and PostgreSQL when postgresURLEnv is set.
func databases() []database {
	dbs := []database{{"sqlite", func(t testing.TB) string { return filepath.Join(t.TempDir(), "malefiz.db") }}}
	if os.Getenv(postgresURLEnv) != "" {
		dbs = append(dbs, database{"postgres", newPostgresDB})
	}
	return dbs
}

var (
	pgAdminOnce sync.Once
	pgAdmin     *sql.DB
	pgAdminErr  error
	pgCreated   atomic.Int64
)

// newPostgresDB creates a database for the test alone on the server
// of postgresURLEnv, drops it after the test, and returns its URL. It skips
// the test when postgresURLEnv is not set.
func newPostgresDB(t testing.TB) string {
	t.Helper()
	base := os.Getenv(postgresURLEnv)
	if base == "" {
		t.Skipf("%s is not set: no PostgreSQL (see scripts/test-postgres.sh)", postgresURLEnv)
	}
	pgAdminOnce.Do(func() {
		pgAdmin, pgAdminErr = sql.Open("pgx", base) // the store registers pgx
		if pgAdminErr == nil {
			pgAdminErr = pgAdmin.PingContext(context.Background())
		}
	})
	require.NoError(t, pgAdminErr, "PostgreSQL of %s", postgresURLEnv)
	name := fmt.Sprintf("cmd%d_%d_%s", os.Getpid(), pgCreated.Add(1),
		strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "_")))
	name = name[:min(len(name), 63)]
	_, err := pgAdmin.Exec(`CREATE DATABASE "` + name + `"`)
	require.NoError(t, err)
	t.Cleanup(func() {
		if _, err := pgAdmin.Exec(`DROP DATABASE "` + name + `" WITH (FORCE)`); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	require.NoError(t, err)
	u.Path = "/" + name
	return u.String()
}

// cutProxy forwards TCP connections to a server until cut: then it closes
// every connection and refuses new ones, as a database gone would, until
// restored on the same address.
type cutProxy struct {
	t      testing.TB
	target string
	addr   string

	mu    sync.Mutex
	l     net.Listener
	conns map[net.Conn]bool
}

// newCutProxy starts a proxy to target (host:port).
func newCutProxy(t testing.TB, target string) *cutProxy {
	p := &cutProxy{t: t, target: target, conns: map[net.Conn]bool{}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p.addr = l.Addr().String()
	p.serve(l)
	t.Cleanup(p.cut)
	return p
}

func (p *cutProxy) serve(l net.Listener) {
	p.mu.Lock()
	p.l = l
	p.mu.Unlock()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go p.forward(c)
		}
	}()
}

func (p *cutProxy) forward(c net.Conn) {
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.l == nil {
		p.mu.Unlock()
		c.Close()
		s.Close()
		return
	}
	p.conns[c], p.conns[s] = true, true
	p.mu.Unlock()
	go func() { _, _ = io.Copy(s, c); s.Close() }()
	_, _ = io.Copy(c, s)
	c.Close()
}

// cut closes the listener and every connection.
func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.l != nil {
		p.l.Close()
		p.l = nil
	}
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// restore listens again on the same address.
func (p *cutProxy) restore() {
	l, err := net.Listen("tcp", p.addr)
	require.NoError(p.t, err)
	p.serve(l)
}

// through returns the database URL u with its host replaced by the proxy's.
func (p *cutProxy) through(u string) string {
	parsed, err := url.Parse(u)
	require.NoError(p.t, err)
	parsed.Host = p.addr
	return parsed.String()
}

// hostOf returns the host:port of a database URL.
func hostOf(t testing.TB, u string) string {
	parsed, err := url.Parse(u)
	require.NoError(t, err)
	return parsed.Host
}
