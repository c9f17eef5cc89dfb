// Package ratelimit keeps one Discord bot token within Discord's rate
// limits (https://discord.com/developers/docs/topics/rate-limits): an
// http.RoundTripper, set as the Transport of the discordgo session's
// http.Client, that
//
//   - paces every globally limited request through a Budget just under the
//     global limit, and exempts the interaction routes (the callback and
//     the application's webhooks of interaction tokens), which it sends
//     without the bot token;
//   - learns the per-route buckets from X-RateLimit-Bucket and the route's
//     top-level resource, and waits for a bucket's reset instead of sending
//     into a 429;
//   - honours 429s (a global one stops every globally limited request, a
//     user or shared one its bucket) and never sends into a window it was
//     given;
//   - retries a 429 or a 5xx a bounded number of times, cancellable by the
//     request's context, then returns an *Error with RetryAfter;
//   - counts invalid requests (401, 403, and 429 except scope shared) in a
//     sliding 10-minute window, and near Discord's ban threshold holds back
//     the requests marked Deferrable.
//
// It hands discordgo responses without their X-RateLimit-* headers, so that
// discordgo's own buckets (kept per local key, which is per URL for a
// callback and shared by a channel's POST and PATCH) stay inert and never
// wait a second time on wrong keys: a discordgo Bucket learns its reset
// time and its global lock only from those headers, so without them it
// never sleeps. discordgo gets no 429 either (it would retry it for ever,
// with a sleep no context cuts): an *Error instead.
package ratelimit

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Discord's documented limits
// (https://discord.com/developers/docs/topics/rate-limits).
const (
	// GlobalLimit is the requests per second one bot token may make over
	// every route but the interaction endpoints.
	GlobalLimit = 50
	// InvalidLimit is the invalid requests (401, 403, 429 but scope
	// shared) an address may make in InvalidWindow before Cloudflare bans
	// it for an hour.
	InvalidLimit = 10000
	// InvalidWindow is the window of InvalidLimit.
	InvalidWindow = 10 * time.Minute
)

// The scopes of a 429 (X-RateLimit-Scope), and the brake's.
const (
	ScopeUser   = "user"
	ScopeGlobal = "global"
	ScopeShared = "shared"
	ScopeBrake  = "brake"
)

// The classes of request the hooks are told about.
const (
	ClassGlobal = "global" // under the global limit
	ClassExempt = "exempt" // an interaction route
)

// Defaults of Options.
const (
	DefaultRate       = 45 // with DefaultBurst at most 48 in any second
	DefaultBurst      = 3
	DefaultRetries    = 3
	DefaultMaxWait    = 10 * time.Second
	DefaultBrake      = InvalidLimit * 8 / 10
	DefaultBucketIdle = 5 * time.Minute
)

// serverBackoff is the wait before the first retry of a 5xx; it doubles
// with every try.
const serverBackoff = 250 * time.Millisecond

// Hooks are told what the Transport does (metrics); each may be nil.
type Hooks struct {
	// Request is called for every request sent, with its class.
	Request func(class string)
	// RateLimited is called for every 429, with its scope.
	RateLimited func(scope string)
	// Invalid is called for every invalid request, with the count in the
	// window that ends with it.
	Invalid func(inWindow int)
	// Braked is called for every request the brake holds back.
	Braked func()
}

// Options configure a Transport. The zero value is Discord's defaults
// over http.DefaultTransport.
type Options struct {
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Budget paces the globally limited requests; nil means a Bucket of
	// Rate and Burst of this process alone.
	Budget Budget
	// Rate and Burst size the Bucket made when Budget is nil: at most
	// Rate+Burst globally limited requests in any second. 0 means
	// DefaultRate and DefaultBurst.
	Rate  float64
	Burst int
	// ApplicationID is the bot's application: its webhooks carry the
	// interaction tokens, so they are exempt. SetApplicationID sets it
	// later (once READY says it).
	ApplicationID string
	// Retries is how many times a 429 or a 5xx is retried before Error; 0
	// means DefaultRetries, below 0 none.
	Retries int
	// MaxWait is the longest wait the Transport sits out for a 429 or a
	// bucket; a longer one is returned as an Error for the caller to
	// schedule. 0 means DefaultMaxWait.
	MaxWait time.Duration
	// Brake is the count of invalid requests in InvalidWindow from which
	// Deferrable requests are held back; 0 means DefaultBrake.
	Brake int
	// BucketIdle is how long a bucket unused is kept; 0 means
	// DefaultBucketIdle.
	BucketIdle time.Duration
	// Now and Sleep are the clock; tests replace them. Sleep returns the
	// context's error when it is done first.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	Hooks Hooks
}

// Transport is the http.RoundTripper that keeps a bot token within
// Discord's limits. It is safe for concurrent use.
type Transport struct {
	o     Options
	appID atomic.Pointer[string]
	queue chan struct{} // the one request asking the Budget; the rest queue

	mu          sync.Mutex
	globalUntil time.Time          // a global 429's window
	hashes      map[string]string  // route key → X-RateLimit-Bucket
	buckets     map[string]*bucket // bucket hash + major → state
	invalid     *window            // invalid requests in InvalidWindow
	swept       time.Time          // when buckets were last swept
}

// bucket is what Discord said of one bucket.
type bucket struct {
	limit     int
	remaining int
	reset     time.Time // when remaining returns to limit
	window    time.Duration
	until     time.Time // a 429's window on this bucket
	used      time.Time // last request
}

// New returns a Transport with o's settings.
func New(o Options) *Transport {
	if o.Base == nil {
		o.Base = http.DefaultTransport
	}
	if o.Rate <= 0 {
		o.Rate = DefaultRate
	}
	if o.Burst <= 0 {
		o.Burst = DefaultBurst
	}
	if o.Budget == nil {
		o.Budget = NewBucket(o.Rate, o.Burst)
	}
	switch {
	case o.Retries == 0:
		o.Retries = DefaultRetries
	case o.Retries < 0:
		o.Retries = 0
	}
	if o.MaxWait <= 0 {
		o.MaxWait = DefaultMaxWait
	}
	if o.Brake <= 0 {
		o.Brake = DefaultBrake
	}
	if o.BucketIdle <= 0 {
		o.BucketIdle = DefaultBucketIdle
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	t := &Transport{o: o, queue: make(chan struct{}, 1),
		hashes: map[string]string{}, buckets: map[string]*bucket{}, invalid: newWindow(InvalidWindow)}
	t.SetApplicationID(o.ApplicationID)
	return t
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SetApplicationID names the application whose webhooks are exempt.
func (t *Transport) SetApplicationID(id string) { t.appID.Store(&id) }

type deferrableKey struct{}

// Deferrable marks a request's context as one that can wait: when the
// invalid requests of the last 10 minutes reach the brake, the Transport
// returns an *Error of scope ScopeBrake for it at once, without sending,
// with RetryAfter the time until the count falls under the brake. The
// outbox marks the deliveries that no one is waiting on (card edits,
// notices, DMs) and schedules the effect again after RetryAfter; a click's
// answer and the next turn's post are not marked and always go.
func Deferrable(ctx context.Context) context.Context {
	return context.WithValue(ctx, deferrableKey{}, true)
}

// IsDeferrable reports whether ctx was marked by Deferrable.
func IsDeferrable(ctx context.Context) bool {
	v, _ := ctx.Value(deferrableKey{}).(bool)
	return v
}

// Invalid returns the invalid requests counted in the last 10 minutes.
func (t *Transport) Invalid() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.invalid.n(t.o.Now())
}

// Buckets returns how many buckets the Transport keeps.
func (t *Transport) Buckets() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.buckets) + len(t.hashes)
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	r := parseRoute(req.Method, req.URL.Path, *t.appID.Load())
	if IsDeferrable(ctx) {
		t.mu.Lock()
		wait := t.invalid.below(t.o.Now(), t.o.Brake)
		t.mu.Unlock()
		if wait > 0 {
			closeBody(req)
			if t.o.Hooks.Braked != nil {
				t.o.Hooks.Braked()
			}
			return nil, &Error{Method: req.Method, Route: r.key, Scope: ScopeBrake, RetryAfter: wait}
		}
	}
	class := ClassGlobal
	if r.exempt {
		class = ClassExempt
	}
	for try := 1; ; try++ {
		if err := t.wait(ctx, r); err != nil {
			closeBody(req)
			return nil, err
		}
		out, err := t.prepare(req, r, try)
		if err != nil {
			return nil, err
		}
		if t.o.Hooks.Request != nil {
			t.o.Hooks.Request(class)
		}
		res, err := t.o.Base.RoundTrip(out)
		if err != nil {
			return nil, err
		}
		retry := t.learn(r, res)
		if res.StatusCode >= 500 {
			retry = serverBackoff << min(6, try-1)
		}
		if retry < 0 {
			stripHeaders(res.Header)
			return res, nil
		}
		if try > t.o.Retries || retry > t.o.MaxWait {
			e := &Error{Method: req.Method, Route: r.key, Status: res.StatusCode,
				Scope: res.Header.Get("X-RateLimit-Scope"), Tries: try, RetryAfter: retry}
			drain(res)
			closeBody(req)
			return nil, e
		}
		drain(res)
		if res.StatusCode >= 500 {
			if err := t.o.Sleep(ctx, retry); err != nil {
				closeBody(req)
				return nil, err
			}
		}
		// A 429's window is kept by learn: the next turn of the loop
		// waits it out, as does every other request it concerns.
	}
}

// prepare returns the request to send for the try'th time: a clone with a
// fresh body, and without the bot token on an exempt route.
func (t *Transport) prepare(req *http.Request, r route, try int) (*http.Request, error) {
	out := req.Clone(req.Context())
	if try > 1 && req.Body != nil && req.Body != http.NoBody {
		if req.GetBody == nil {
			return nil, fmt.Errorf("ratelimit: %s %s: cannot send the body again", req.Method, r.key)
		}
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		out.Body = body
	}
	if r.exempt {
		out.Header.Del("Authorization")
	}
	return out, nil
}

// wait blocks until r may be sent: past its bucket's reset or 429 window,
// then past a global 429's window and the Budget for a globally limited
// route. It takes the request's place in the bucket. A wait longer than
// MaxWait is returned as an *Error.
//
// The bucket comes first: a request that took its share of the Budget and
// then sat out its bucket would be sent seconds after the Budget counted
// it, and a bucket's reset would send every request that waited on it at
// once, on top of the requests the Budget grants then (more than
// rate+burst in a second, Discord's global 429s). When another request
// took the bucket's room while this one waited for the Budget, the share
// it took is dropped and it waits again: the Budget errs toward fewer
// requests, never more.
func (t *Transport) wait(ctx context.Context, r route) error {
	for {
		if err := t.waitBucket(ctx, r); err != nil {
			return err
		}
		if !r.exempt {
			if err := t.waitGlobal(ctx, r); err != nil {
				return err
			}
		}
		now := t.o.Now()
		t.mu.Lock()
		b := t.bucketLocked(r)
		if b.wait(now) <= 0 {
			b.used = now
			if b.limit > 0 {
				b.remaining--
			}
			t.mu.Unlock()
			return nil
		}
		t.mu.Unlock()
	}
}

// waitBucket blocks until r's bucket has room, without taking it.
func (t *Transport) waitBucket(ctx context.Context, r route) error {
	for {
		now := t.o.Now()
		t.mu.Lock()
		t.sweep(now)
		d := t.bucketLocked(r).wait(now)
		t.mu.Unlock()
		if d <= 0 {
			return nil
		}
		if d > t.o.MaxWait {
			return &Error{Method: r.method(), Route: r.key, Scope: ScopeUser, RetryAfter: d}
		}
		if err := t.o.Sleep(ctx, d); err != nil {
			return err
		}
	}
}

// waitGlobal waits out a global 429's window, then the Budget. One request
// at a time asks the Budget; the others queue behind it.
func (t *Transport) waitGlobal(ctx context.Context, r route) error {
	select {
	case t.queue <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-t.queue }()
	for {
		now := t.o.Now()
		t.mu.Lock()
		d := t.globalUntil.Sub(now)
		t.mu.Unlock()
		if d > t.o.MaxWait {
			return &Error{Method: r.method(), Route: r.key, Scope: ScopeGlobal, RetryAfter: d}
		}
		if d <= 0 {
			var err error
			if d, err = t.o.Budget.Take(ctx, now); err != nil {
				return err
			}
			if d <= 0 {
				return nil
			}
		}
		if err := t.o.Sleep(ctx, d); err != nil {
			return err
		}
	}
}

// bucketLocked returns r's bucket, made when new. t.mu is held.
func (t *Transport) bucketLocked(r route) *bucket {
	key := t.keyLocked(r)
	b := t.buckets[key]
	if b == nil {
		b = &bucket{}
		t.buckets[key] = b
	}
	return b
}

// keyLocked is r's bucket key: the bucket Discord named for its route (the
// route itself until it does) and its top-level resource.
func (t *Transport) keyLocked(r route) string {
	hash, ok := t.hashes[r.key]
	if !ok {
		hash = r.key
	}
	return hash + " " + r.major
}

// wait returns how long the bucket must wait at now (0: it may go).
func (b *bucket) wait(now time.Time) time.Duration {
	if now.Before(b.until) {
		return b.until.Sub(now)
	}
	if b.limit == 0 {
		return 0 // nothing known: send, and learn from the answer
	}
	if !now.Before(b.reset) {
		// The window has passed: a new one begins with this request.
		b.remaining = b.limit
		b.reset = now.Add(b.window)
	}
	if b.remaining > 0 {
		return 0
	}
	return b.reset.Sub(now)
}

// learn reads res: the bucket's headers, and a 429's window or a 5xx. It
// returns how long to wait before the retry of a 429 or a 5xx, or -1 when
// res is the answer.
func (t *Transport) learn(r route, res *http.Response) time.Duration {
	now := t.o.Now()
	h := res.Header
	t.mu.Lock()
	defer t.mu.Unlock()
	if hash := h.Get("X-RateLimit-Bucket"); hash != "" && t.hashes[r.key] != hash {
		old := t.keyLocked(r)
		t.hashes[r.key] = hash
		if b := t.buckets[old]; b != nil {
			delete(t.buckets, old)
			if t.buckets[t.keyLocked(r)] == nil {
				t.buckets[t.keyLocked(r)] = b
			}
		}
	}
	b := t.bucketLocked(r)
	b.used = now
	if limit, err := strconv.Atoi(h.Get("X-RateLimit-Limit")); err == nil && limit > 0 {
		b.limit = limit
	}
	if rem, err := strconv.Atoi(h.Get("X-RateLimit-Remaining")); err == nil && b.limit > 0 {
		if now.Before(b.reset) {
			// The window the limiter counts in: the answer may be older
			// than requests sent since (each took one), so it never
			// raises the count.
			b.remaining = min(b.remaining, rem)
		} else {
			b.remaining = rem
		}
	}
	if after, ok := seconds(h.Get("X-RateLimit-Reset-After")); ok && b.limit > 0 {
		b.reset = now.Add(after + resetRounding)
		if b.remaining == b.limit-1 || after > b.window {
			b.window = after
		}
	}
	switch {
	case res.StatusCode == http.StatusTooManyRequests:
		return t.limitedLocked(b, res, now)
	case res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden:
		t.countInvalidLocked(now)
	case res.StatusCode >= 500:
		return 0 // RoundTrip's backoff
	}
	return -1
}

// limitedLocked reads a 429: its scope and Retry-After, and keeps its
// window on the bucket, or on every globally limited request.
func (t *Transport) limitedLocked(b *bucket, res *http.Response, now time.Time) time.Duration {
	var body struct {
		Global     bool    `json:"global"`
		RetryAfter float64 `json:"retry_after"`
	}
	data, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	res.Body.Close()
	_ = json.Unmarshal(data, &body)
	scope := res.Header.Get("X-RateLimit-Scope")
	if scope == "" {
		scope = ScopeUser
		if body.Global || strings.EqualFold(res.Header.Get("X-RateLimit-Global"), "true") {
			scope = ScopeGlobal
		}
	}
	after, ok := seconds(res.Header.Get("Retry-After"))
	if body.RetryAfter > 0 {
		after, ok = time.Duration(body.RetryAfter*float64(time.Second)), true
	}
	if !ok || after <= 0 {
		after = time.Second
	}
	until := now.Add(after)
	if scope == ScopeGlobal || body.Global {
		t.globalUntil = later(t.globalUntil, until)
	} else {
		b.until = later(b.until, until)
		if b.limit > 0 {
			b.remaining, b.reset = 0, later(b.reset, until)
		}
	}
	if t.o.Hooks.RateLimited != nil {
		t.o.Hooks.RateLimited(scope)
	}
	if scope != ScopeShared {
		t.countInvalidLocked(now)
	}
	return after
}

// countInvalidLocked counts an invalid request at now.
func (t *Transport) countInvalidLocked(now time.Time) {
	t.invalid.add(now)
	if t.o.Hooks.Invalid != nil {
		t.o.Hooks.Invalid(t.invalid.n(now))
	}
}

// sweep forgets the buckets unused for BucketIdle, at most once a
// BucketIdle/4, so that a bucket per interaction token or per channel
// does not stay for ever. t.mu is held.
func (t *Transport) sweep(now time.Time) {
	if now.Sub(t.swept) < t.o.BucketIdle/4 {
		return
	}
	t.swept = now
	for k, b := range t.buckets {
		if now.Sub(b.used) > t.o.BucketIdle && !now.Before(b.until) && !now.Before(b.reset) {
			delete(t.buckets, k)
		}
	}
	if len(t.buckets) == 0 {
		clear(t.hashes) // learned again from the next answers
	}
}

// resetRounding is how much later than X-RateLimit-Reset-After says a
// bucket's window is taken to end. Discord gives it in milliseconds
// ("Can have decimals to match previous millisecond ratelimit precision",
// rate-limits, Header Format), rounded: the window may end up to half a
// millisecond after the header's figure, and a request sent at that
// figure finds the bucket still spent (a 429, one more invalid request).
const resetRounding = time.Millisecond

// seconds parses a count of seconds with a fraction ("1.5").
func seconds(s string) (time.Duration, bool) {
	if s == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return time.Duration(f * float64(time.Second)), true
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// stripHeaders removes the X-RateLimit-* headers from what discordgo sees.
func stripHeaders(h http.Header) {
	for k := range h {
		if strings.HasPrefix(k, "X-Ratelimit-") {
			delete(h, k)
		}
	}
}

// drain reads what is left of res's body and closes it, so that its
// connection is reused.
func drain(res *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
	res.Body.Close()
}

// closeBody closes req's body, as a RoundTripper must even on an error.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
