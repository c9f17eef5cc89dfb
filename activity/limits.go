package activity

import (
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/malefiz-discord/malefiz/bot/locales"
)

// limiter is a token bucket per key (a user, an address; "" for a bound
// over everyone): burst at once, then one per per.
type limiter struct {
	mu    sync.Mutex
	per   time.Duration
	burst int
	now   func() time.Time
	next  map[string]time.Time // when the key's bucket is full again
}

// allow reports whether key may act now, and takes a token.
func (l *limiter) allow(key string) bool {
	ok, _ := l.take(key)
	return ok
}

// take takes a token of key's bucket if it has one; else it reports how
// long until it has.
func (l *limiter) take(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.next == nil {
		l.next = map[string]time.Time{}
	}
	now := l.now()
	full := l.next[key]
	if full.Before(now) || full.Sub(now) > time.Duration(l.burst)*l.per {
		// Full again; or emptier than empty, which only a clock set back
		// makes (the tests' clock; a wall clock stepped back): then it
		// starts afresh rather than refuse for as long as the step.
		full = now
	}
	if ahead := full.Sub(now) - time.Duration(l.burst-1)*l.per; ahead > 0 { // burst taken
		return false, ahead
	}
	l.next[key] = full.Add(l.per)
	if len(l.next) > 10000 { // forget the keys whose buckets are full
		for k, t := range l.next {
			if t.Before(now) {
				delete(l.next, k)
			}
		}
	}
	return true, 0
}

// signInAllowed takes a token of key's bucket in l, or refuses the
// sign-in (429, Retry-After) in the sign-in's words, logging why.
func (s *Server) signInAllowed(w http.ResponseWriter, r *http.Request, l *limiter, key, lang, why string) bool {
	ok, wait := l.take(key)
	if ok {
		return true
	}
	secs := max(1, int(math.Ceil(wait.Seconds())))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	s.log.Info("activity refused", "path", r.URL.Path, "why", why, "retry_after_s", secs)
	writeJSON(w, http.StatusTooManyRequests, map[string]string{"error": locales.Tr(lang, locales.ActivityTooManySignIns, secs)})
	return false
}

// authCode reports whether code can be an OAuth2 authorization code:
// 1 to 200 characters of the URL-safe set Discord's codes are made of.
func authCode(code string) bool {
	if code == "" || len(code) > 200 {
		return false
	}
	for _, c := range code {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-._~", c)
		if !ok {
			return false
		}
	}
	return true
}

// bearer is the token of the request's Authorization header, "" when it
// has none.
func bearer(r *http.Request) string {
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return token
}

// clientAddr is the address a request came from: the peer's, or, when
// the peer is a proxy the config trusts, the rightmost address of
// X-Forwarded-For that is not itself a trusted proxy. Inside Discord every
// request comes through Discord's proxy, so without a trusted proxy
// naming its client this bounds what the proxy passes as a whole.
func (s *Server) clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !s.trusted(peer) {
		return host
	}
	forwarded := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(forwarded) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(forwarded[i]))
		if err != nil {
			return peer.String() // a proxy we trust wrote nonsense: count it as itself
		}
		a = a.Unmap()
		if !s.trusted(a) {
			return a.String()
		}
	}
	return peer.String()
}

// trusted reports whether a is one of the config's trusted proxies.
func (s *Server) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ParseProxies reads the CIDRs (or single addresses) of trusted proxies,
// as the config file lists them.
func ParseProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		s = strings.TrimSpace(s)
		if !strings.Contains(s, "/") {
			a, err := netip.ParseAddr(s)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: not an address or a CIDR", s)
			}
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: not an address or a CIDR", s)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// quietLog bounds the lines logged of requests nobody is known for (no
// valid session): at most burst a minute; the first line after a quiet
// spell says how many were left out.
type quietLog struct {
	mu         sync.Mutex
	now        func() time.Time
	burst      int
	window     time.Time // start of the current minute
	logged     int       // lines logged in it
	suppressed int       // lines left out since the last logged
}

// log logs msg with args at info unless the minute's lines are spent.
func (q *quietLog) log(l *slog.Logger, msg string, args ...any) {
	q.mu.Lock()
	now := q.now()
	if now.Sub(q.window) >= time.Minute {
		q.window, q.logged = now, 0
	}
	if q.logged >= q.burst {
		q.suppressed++
		q.mu.Unlock()
		return
	}
	q.logged++
	left := q.suppressed
	q.suppressed = 0
	q.mu.Unlock()
	if left > 0 {
		args = append(args, "suppressed_before", left)
	}
	l.Info(msg, args...)
}
