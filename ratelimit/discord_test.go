package ratelimit

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a fake clock: Sleep returns at once, the clock set to at least
// the end of the sleep, so that waits cost no real time and a test counts
// requests per second of this clock, never of the machine's.
type clock struct {
	mu   sync.Mutex
	t    time.Time
	real bool // the machine's clock: Now is time.Now, Sleep sleeps
}

func newClock() *clock { return &clock{t: time.Unix(1_700_000_000, 0)} }

func (c *clock) Now() time.Time {
	if c.real {
		return time.Now()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if c.real {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
			return nil
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if end := c.t.Add(d); end.After(c.t) {
		c.t = end
	}
	return nil
}

// call is one request the test Discord saw.
type call struct {
	Method, Path, Auth, Body string
	At                       time.Time
	Status                   int
}

// discord answers as Discord's documentation says
// (https://discord.com/developers/docs/topics/rate-limits): every route
// of a top-level resource has a bucket (limit per window, its hash in
// X-RateLimit-Bucket, the other X-RateLimit-* headers on every answer),
// the bot token's global limit (per second of the clock) over every route
// but the interaction endpoints, and 429s with X-RateLimit-Scope and the
// JSON body {"message", "retry_after", "global"}. Tests may queue answers
// of their own (faults) in front.
type discord struct {
	clock *clock
	srv   *httptest.Server

	mu      sync.Mutex
	calls   []call
	limit   int           // per bucket and window; 0: no buckets
	window  time.Duration // a bucket's window
	global  int           // global requests per second; 0: none
	buckets map[string]*testBucket
	seconds map[int64]int // global requests per second of the clock
	faults  []fault
	blind   int // requests sent into a window Discord had given
	until   time.Time
	stops   map[string]time.Time // bucket → end of a 429's window
}

type testBucket struct {
	used  int
	reset time.Time
}

// fault is a queued answer: status, scope and retry_after.
type fault struct {
	status int
	scope  string
	after  float64
	match  string // a path substring; "" any request
}

func newDiscord(t testing.TB, c *clock) *discord {
	d := &discord{clock: c, window: 5 * time.Second, buckets: map[string]*testBucket{},
		seconds: map[int64]int{}, stops: map[string]time.Time{}}
	d.srv = httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *discord) fault(f fault) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.faults = append(d.faults, f)
}

func (d *discord) log() []call {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]call(nil), d.calls...)
}

func (d *discord) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	now := d.clock.Now()
	rt := parseRoute(r.Method, r.URL.Path, "77")
	d.mu.Lock()
	defer d.mu.Unlock()
	c := call{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Body: string(body), At: now}
	status, scope, after := http.StatusOK, "", 0.0
	hash := "h:" + rt.key
	if strings.Contains(rt.key, "/messages") && strings.HasPrefix(rt.major, "channels/") {
		hash = "messages" // a channel's POST and PATCH share one bucket
	}
	key := hash + " " + rt.major
	if now.Before(d.until) && !rt.exempt || now.Before(d.stops[key]) {
		d.blind++
	}
	for i, f := range d.faults {
		if f.match == "" || strings.Contains(r.URL.Path, f.match) {
			status, scope, after = f.status, f.scope, f.after
			d.faults = append(d.faults[:i], d.faults[i+1:]...)
			break
		}
	}
	sec := now.Unix()
	if status == http.StatusOK && d.global > 0 && !rt.exempt {
		if d.seconds[sec] >= d.global {
			status, scope, after = http.StatusTooManyRequests, ScopeGlobal, float64(time.Duration(sec+1)*time.Second-time.Duration(now.UnixNano()))/1e9
		}
	}
	b := d.buckets[key]
	if b == nil || !now.Before(b.reset) {
		b = &testBucket{reset: now.Add(d.window)}
		d.buckets[key] = b
	}
	if status == http.StatusOK && d.limit > 0 && b.used >= d.limit {
		status, scope, after = http.StatusTooManyRequests, ScopeUser, b.reset.Sub(now).Seconds()
	}
	h := w.Header()
	if d.limit > 0 {
		if status == http.StatusOK {
			b.used++
		}
		h.Set("X-RateLimit-Limit", strconv.Itoa(d.limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, d.limit-b.used)))
		h.Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(b.reset.UnixMilli())/1000))
		h.Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", b.reset.Sub(now).Seconds()))
		h.Set("X-RateLimit-Bucket", hash)
	}
	if status == http.StatusOK && !rt.exempt {
		d.seconds[sec]++
	}
	c.Status = status
	d.calls = append(d.calls, c)
	if status == http.StatusTooManyRequests {
		end := now.Add(time.Duration(after * float64(time.Second)))
		switch scope {
		case ScopeGlobal:
			h.Set("X-RateLimit-Global", "true")
			d.until = end
		default:
			d.stops[key] = end
		}
		h.Set("X-RateLimit-Scope", scope)
		h.Set("Retry-After", strconv.Itoa(int(after+0.999)))
		h.Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": "You are being rate limited.",
			"retry_after": after, "global": scope == ScopeGlobal})
		return
	}
	w.WriteHeader(status)
	if status < 300 {
		_, _ = io.WriteString(w, `{"id":"1"}`)
	} else {
		_, _ = fmt.Fprintf(w, `{"message":"%d","code":0}`, status)
	}
}

// do sends one request through tr and returns the status or the error.
func do(t *testing.T, tr http.RoundTripper, ctx context.Context, method, url, body string) (int, http.Header, error) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bot secret")
	res, err := tr.RoundTrip(req)
	if err != nil {
		return 0, nil, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, res.Header, nil
}
