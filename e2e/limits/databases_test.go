package limits

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/store/storetest"
)

// database is a kind of database the program can run on in a test.
type database = storetest.Backend

// databases returns SQLite, and PostgreSQL when storetest.PostgresEnv is
// set (in CI it must be).
func databases(t testing.TB) []database { return storetest.Backends(t) }

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
