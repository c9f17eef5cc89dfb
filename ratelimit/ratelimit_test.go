package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newTransport(c *clock, o Options) *Transport {
	o.Now, o.Sleep = c.Now, c.Sleep
	if o.ApplicationID == "" {
		o.ApplicationID = "77"
	}
	return New(o)
}

// perSecond returns the most requests that arrived in any one second
// (a sliding window over the arrival times of calls).
func perSecond(calls []call) int {
	most := 0
	for i, c := range calls {
		n := 0
		for _, d := range calls[i:] {
			if d.At.Sub(c.At) < time.Second {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

func TestPacingUnderTheGlobalLimit(t *testing.T) {
	for _, tc := range []struct {
		name        string
		rate        float64
		burst, reqs int
	}{
		{"defaults", 0, 0, 300},
		{"ten a second", 10, 2, 100},
		{"one a second", 1, 1, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			d := newDiscord(t, c)
			tr := newTransport(c, Options{Rate: tc.rate, Burst: tc.burst})
			for i := range tc.reqs {
				status, _, err := do(t, tr, context.Background(), "POST",
					fmt.Sprintf("%s/api/v10/channels/%d/messages", d.srv.URL, i), "{}")
				require.NoError(t, err)
				require.Equal(t, http.StatusOK, status)
			}
			rate, burst := tc.rate, tc.burst
			if rate == 0 {
				rate, burst = DefaultRate, DefaultBurst
			}
			calls := d.log()
			require.Len(t, calls, tc.reqs)
			assert.LessOrEqual(t, perSecond(calls), int(rate)+burst, "requests in one second")
			assert.LessOrEqual(t, perSecond(calls), GlobalLimit)
			took := calls[len(calls)-1].At.Sub(calls[0].At)
			assert.GreaterOrEqual(t, took.Seconds(), float64(tc.reqs-burst)/rate-0.01, "time taken on the clock")
		})
	}
}

// TestAGlobalLimitOfDiscordsIsNeverHit runs on the machine's clock: with
// eight senders at once, a jumping test clock would move between a grant
// and its request's arrival and pile a second's grants into the next one,
// which no real clock does by whole seconds. The rate leaves room for the
// scheduling delays of a loaded machine.
func TestAGlobalLimitOfDiscordsIsNeverHit(t *testing.T) {
	c := &clock{real: true}
	d := newDiscord(t, c)
	d.global, d.limit = GlobalLimit, 5
	tr := newTransport(c, Options{Rate: 40, Burst: 2})
	var wg sync.WaitGroup
	var failed atomic.Int64
	for g := range 8 {
		wg.Go(func() {
			for i := range 15 {
				_, _, err := do(t, tr, context.Background(), "POST",
					fmt.Sprintf("%s/api/v10/channels/%d/messages", d.srv.URL, g*1000+i), "{}")
				if err != nil {
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	assert.Zero(t, failed.Load())
	for _, c := range d.log() {
		require.Equal(t, http.StatusOK, c.Status, "%s %s", c.Method, c.Path)
	}
}

// TestABucketsResetReleasesNoBurst runs on the machine's clock, as
// requests wait at once. Five requests wait on one channel's spent bucket
// while requests to other channels keep the global pace: those that wait
// must not take their share of the global budget before their bucket
// lets them go, else its reset sends them all at once on top of the
// pace, and a second holds more than rate+burst globally limited
// requests (Discord's global 429s).
func TestABucketsResetReleasesNoBurst(t *testing.T) {
	c := &clock{real: true}
	d := newDiscord(t, c)
	d.limit, d.window = 5, 2*time.Second
	const rate, burst = 5, 1
	tr := newTransport(c, Options{Rate: rate, Burst: burst})
	send := func(channel int) {
		status, _, err := do(t, tr, context.Background(), "POST",
			fmt.Sprintf("%s/api/v10/channels/%d/messages", d.srv.URL, channel), "{}")
		assert.NoError(t, err)
		assert.Equal(t, http.StatusOK, status)
	}
	for range 5 {
		send(1) // channel 1's bucket is spent until 2 s after the first
	}
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() { send(1) }) // wait on channel 1's reset
	}
	for i := range 10 {
		send(100 + i) // the pace goes on meanwhile
	}
	wg.Wait()
	calls := d.log()
	require.Len(t, calls, 20)
	assert.LessOrEqual(t, perSecond(calls), rate+burst, "requests in one second")
	assert.Zero(t, d.blind)
}

func TestBucketsAreLearnedFromTheHeaders(t *testing.T) {
	c := newClock()
	d := newDiscord(t, c)
	d.limit = 5 // per 5 s per channel, as the libraries observe for messages
	var limited []string
	tr := newTransport(c, Options{Hooks: Hooks{RateLimited: func(s string) { limited = append(limited, s) }}})
	for i := range 12 {
		url := d.srv.URL + "/api/v10/channels/1/messages"
		method := "POST"
		if i%2 == 1 {
			url += "/9" // a PATCH of the same channel: the same bucket by its hash
			method = "PATCH"
		}
		status, h, err := do(t, tr, context.Background(), method, url, "{}")
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, status)
		for k := range h {
			assert.False(t, strings.HasPrefix(k, "X-Ratelimit"), "header %s handed on", k)
		}
	}
	// Another channel has a bucket of its own: it does not wait.
	before := c.Now()
	_, _, err := do(t, tr, context.Background(), "POST", d.srv.URL+"/api/v10/channels/2/messages", "{}")
	require.NoError(t, err)
	calls := d.log()
	assert.Equal(t, before, calls[len(calls)-1].At, "channel 2 waited on channel 1's bucket")
	// The first one learned nothing yet; the 429 it may have caused is
	// the only one, and none came since the bucket was named.
	assert.Empty(t, limited)
	assert.Zero(t, d.blind)
	took := calls[11].At.Sub(calls[0].At)
	assert.GreaterOrEqual(t, took, 10*time.Second, "12 requests at 5 per 5 s take two resets")
	assert.Equal(t, 4, tr.Buckets(), "two routes' hashes and two channels' buckets")
}

// TestABucketsRoundedResetIsWaitedOut: Discord gives a bucket's
// X-RateLimit-Reset-After in milliseconds, rounded, so a window may end up
// to half a millisecond after what the header says; a request sent at
// the header's reset finds the bucket still spent, and its 429 counts
// against the invalid-request limit. The transport waits past it.
func TestABucketsRoundedResetIsWaitedOut(t *testing.T) {
	c := newClock()
	d := newDiscord(t, c)
	d.limit, d.window = 2, 2*time.Second
	var limited []string
	tr := newTransport(c, Options{Hooks: Hooks{RateLimited: func(s string) { limited = append(limited, s) }}})
	send := func() {
		t.Helper()
		status, _, err := do(t, tr, context.Background(), "POST", d.srv.URL+"/api/v10/channels/1/messages", "{}")
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, status)
	}
	send() // the bucket's window: 2 s from now
	c.Advance(600 * time.Microsecond)
	send() // the bucket spent; Reset-After 1.9994 s, which reads "1.999"
	send() // after the reset
	assert.Empty(t, limited, "sent before the window's end")
	calls := d.log()
	require.Len(t, calls, 3)
	assert.False(t, calls[2].At.Before(calls[0].At.Add(2*time.Second)), "sent %v after the first", calls[2].At.Sub(calls[0].At))
}

func TestA429IsHonoured(t *testing.T) {
	for _, tc := range []struct {
		name       string
		scope      string
		stopsAll   bool // another channel's request waits too
		invalid    int
		exemptGoes bool
	}{
		{"global", ScopeGlobal, true, 1, true},
		{"user", ScopeUser, false, 1, true},
		{"shared", ScopeShared, false, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			d := newDiscord(t, c)
			var scopes []string
			tr := newTransport(c, Options{Retries: -1,
				Hooks: Hooks{RateLimited: func(s string) { scopes = append(scopes, s) }}})
			d.fault(fault{status: 429, scope: tc.scope, after: 3})
			t0 := c.Now()
			_, _, err := do(t, tr, context.Background(), "POST", d.srv.URL+"/api/v10/channels/1/messages", "{}")
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, 429, e.Status)
			assert.Equal(t, tc.scope, e.Scope)
			assert.Equal(t, 3*time.Second, e.RetryAfter)
			assert.Contains(t, e.Error(), "429 (scope "+tc.scope+")")
			assert.Equal(t, []string{tc.scope}, scopes)
			assert.Equal(t, tc.invalid, tr.Invalid())

			// A click's answer goes at once (first: the fake clock is
			// shared, and the others' waits move it on).
			_, _, err = do(t, tr, context.Background(), "POST", d.srv.URL+"/api/v10/interactions/5/tok/callback", "{}")
			require.NoError(t, err)
			// Then two at once: the same channel and another.
			var wg sync.WaitGroup
			for _, p := range []string{"/channels/1/messages", "/channels/2/messages"} {
				wg.Go(func() {
					_, _, err := do(t, tr, context.Background(), "POST", d.srv.URL+"/api/v10"+p, "{}")
					assert.NoError(t, err)
				})
			}
			wg.Wait()
			assert.Zero(t, d.blind, "sent into a window Discord gave")
			for _, call := range d.log()[1:] {
				switch {
				case strings.Contains(call.Path, "/channels/1/"):
					assert.False(t, call.At.Before(t0.Add(3*time.Second)), "the same bucket went at %v", call.At.Sub(t0))
				case strings.Contains(call.Path, "/channels/2/") && tc.stopsAll:
					assert.False(t, call.At.Before(t0.Add(3*time.Second)), "another channel went at %v", call.At.Sub(t0))
				case strings.Contains(call.Path, "/interactions/"):
					assert.Equal(t, t0, call.At, "a click's answer waited")
				}
			}
		})
	}
}

func TestInvalidRequestsAreCounted(t *testing.T) {
	for _, tc := range []struct {
		name    string
		f       fault
		invalid int
	}{
		{"401", fault{status: 401}, 1},
		{"403", fault{status: 403}, 1},
		{"404", fault{status: 404}, 0},
		{"429 user", fault{status: 429, scope: ScopeUser, after: 0.1}, 1},
		{"429 global", fault{status: 429, scope: ScopeGlobal, after: 0.1}, 1},
		{"429 shared", fault{status: 429, scope: ScopeShared, after: 0.1}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			d := newDiscord(t, c)
			var hooked []int
			tr := newTransport(c, Options{Hooks: Hooks{Invalid: func(n int) { hooked = append(hooked, n) }}})
			d.fault(tc.f)
			_, _, err := do(t, tr, context.Background(), "GET", d.srv.URL+"/api/v10/channels/1", "")
			require.NoError(t, err)
			assert.Equal(t, tc.invalid, tr.Invalid())
			assert.Len(t, hooked, tc.invalid)
			c.Advance(InvalidWindow)
			assert.Zero(t, tr.Invalid(), "the window forgets")
		})
	}
}

func TestRetriesAreBounded(t *testing.T) {
	for _, tc := range []struct {
		name    string
		f       fault
		retries int
		tries   int
		status  int
		after   time.Duration
	}{
		{"5xx, defaults", fault{status: 503}, 0, DefaultRetries + 1, 503, 2 * time.Second},
		{"5xx, one retry", fault{status: 502}, 1, 2, 502, 500 * time.Millisecond},
		{"429 user", fault{status: 429, scope: ScopeUser, after: 0.5}, 2, 3, 429, 500 * time.Millisecond},
		{"429 global", fault{status: 429, scope: ScopeGlobal, after: 1}, 2, 3, 429, time.Second},
		{"429 longer than MaxWait", fault{status: 429, scope: ScopeUser, after: 60}, 2, 1, 429, time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			d := newDiscord(t, c)
			for range 10 {
				d.fault(tc.f)
			}
			tr := newTransport(c, Options{Retries: tc.retries})
			_, _, err := do(t, tr, context.Background(), "POST", d.srv.URL+"/api/v10/channels/1/messages", `{"content":"hi"}`)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.tries, e.Tries)
			assert.Equal(t, tc.status, e.Status)
			assert.Equal(t, tc.after, e.RetryAfter)
			calls := d.log()
			require.Len(t, calls, tc.tries)
			for _, call := range calls {
				assert.Equal(t, `{"content":"hi"}`, call.Body, "the body is sent again")
			}
		})
	}
}

func TestARetryThatSucceeds(t *testing.T) {
	c := newClock()
	d := newDiscord(t, c)
	d.fault(fault{status: 500})
	d.fault(fault{status: 429, scope: ScopeShared, after: 0.25})
	tr := newTransport(c, Options{})
	status, _, err := do(t, tr, context.Background(), "PATCH", d.srv.URL+"/api/v10/channels/1/messages/2", `{}`)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, status)
	calls := d.log()
	require.Len(t, calls, 3)
	assert.Equal(t, serverBackoff, calls[1].At.Sub(calls[0].At))
	assert.Equal(t, 250*time.Millisecond, calls[2].At.Sub(calls[1].At))
	assert.Zero(t, tr.Invalid(), "a 500 and a shared 429 are not the bot's fault")
}

func TestRetriesAreCancellable(t *testing.T) {
	d := newDiscord(t, newClock())
	for range 10 {
		d.fault(fault{status: 429, scope: ScopeUser, after: 30})
	}
	ctx, cancel := context.WithCancel(context.Background())
	// The real clock: a sleep the context cannot cut would not return in
	// this test's lifetime with an error of the context's.
	tr := New(Options{MaxWait: time.Hour})
	go func() {
		for len(d.log()) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, _, err := do(t, tr, ctx, "POST", d.srv.URL+"/api/v10/channels/1/messages", "{}")
	require.ErrorIs(t, err, context.Canceled)
	assert.Len(t, d.log(), 1)
}

func TestInteractionRoutesAreExempt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method string
		path   string
		exempt bool
	}{
		{"callback", "POST", "/interactions/5/tok/callback", true},
		{"follow-up", "POST", "/webhooks/77/tok", true},
		{"original edit", "PATCH", "/webhooks/77/tok/messages/@original", true},
		{"another app's webhook", "POST", "/webhooks/88/tok", false},
		{"a channel", "POST", "/channels/1/messages", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			d := newDiscord(t, c)
			classes := map[string]int{}
			tr := newTransport(c, Options{Rate: 1, Burst: 1, Hooks: Hooks{Request: func(c string) { classes[c]++ }}})
			for range 5 {
				_, _, err := do(t, tr, context.Background(), tc.method, d.srv.URL+"/api/v10"+tc.path, "{}")
				require.NoError(t, err)
			}
			calls := d.log()
			paced := calls[4].At.Sub(calls[0].At) >= 4*time.Second
			assert.Equal(t, !tc.exempt, paced, "paced")
			for _, call := range calls {
				assert.Equal(t, !tc.exempt, call.Auth != "", "token sent: %q", call.Auth)
			}
			if tc.exempt {
				assert.Equal(t, map[string]int{ClassExempt: 5}, classes)
			} else {
				assert.Equal(t, map[string]int{ClassGlobal: 5}, classes)
			}
		})
	}
}

func TestApplicationIDSetLater(t *testing.T) {
	c := newClock()
	d := newDiscord(t, c)
	tr := New(Options{Now: c.Now, Sleep: c.Sleep})
	_, _, err := do(t, tr, context.Background(), "POST", d.srv.URL+"/api/v10/webhooks/77/tok", "{}")
	require.NoError(t, err)
	tr.SetApplicationID("77")
	_, _, err = do(t, tr, context.Background(), "POST", d.srv.URL+"/api/v10/webhooks/77/tok", "{}")
	require.NoError(t, err)
	calls := d.log()
	assert.Equal(t, "Bot secret", calls[0].Auth)
	assert.Empty(t, calls[1].Auth)
}

func TestBucketsAreForgotten(t *testing.T) {
	c := newClock()
	d := newDiscord(t, c)
	d.limit = 1 // every callback answers with its bucket's headers
	tr := newTransport(c, Options{BucketIdle: time.Minute})
	most := 0
	const clicks = 3000
	for i := range clicks {
		_, _, err := do(t, tr, context.Background(), "POST",
			fmt.Sprintf("%s/api/v10/interactions/%d/token%d/callback", d.srv.URL, i, i), "{}")
		require.NoError(t, err)
		c.Advance(100 * time.Millisecond) // ten clicks a second
		most = max(most, tr.Buckets())
	}
	// A minute idle, swept every quarter of it: at most 75 s of clicks.
	assert.LessOrEqual(t, most, 750+1, "buckets kept at once")
	assert.Less(t, tr.Buckets(), clicks/3)
}

func TestTheBrakeHoldsBackWhatCanWait(t *testing.T) {
	c := newClock()
	d := newDiscord(t, c)
	var braked int
	tr := newTransport(c, Options{Brake: 3, Hooks: Hooks{Braked: func() { braked++ }}})
	url := d.srv.URL + "/api/v10/channels/1/messages"
	for range 3 {
		d.fault(fault{status: 403})
		status, _, err := do(t, tr, context.Background(), "POST", url, "{}")
		require.NoError(t, err)
		require.Equal(t, 403, status)
		c.Advance(time.Minute)
	}
	_, _, err := do(t, tr, Deferrable(context.Background()), "POST", url, "{}")
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, ScopeBrake, e.Scope)
	assert.Equal(t, 7*time.Minute, e.RetryAfter, "until the first of the three leaves the window")
	assert.Contains(t, e.Error(), "held back")
	assert.Len(t, d.log(), 3, "sent nothing")
	assert.Equal(t, 1, braked)

	status, _, err := do(t, tr, context.Background(), "POST", url, "{}")
	require.NoError(t, err, "what cannot wait goes")
	assert.Equal(t, http.StatusOK, status)

	c.Advance(e.RetryAfter)
	status, _, err = do(t, tr, Deferrable(context.Background()), "POST", url, "{}")
	require.NoError(t, err, "the window has cooled down")
	assert.Equal(t, http.StatusOK, status)
	assert.True(t, IsDeferrable(Deferrable(context.Background())))
	assert.False(t, IsDeferrable(context.Background()))
}

func TestTransportErrorsPassThrough(t *testing.T) {
	boom := errors.New("boom")
	tr := New(Options{Base: roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, boom })})
	_, _, err := do(t, tr, context.Background(), "GET", "http://x/api/v10/channels/1", "")
	require.ErrorIs(t, err, boom)
}

func TestParseRoute(t *testing.T) {
	for _, tc := range []struct {
		name, method, path string
		want               route
	}{
		{"message", "POST", "/api/v10/channels/1/messages", route{key: "POST /channels/{id}/messages", major: "channels/1"}},
		{"edit", "PATCH", "/api/v9/channels/1/messages/2", route{key: "PATCH /channels/{id}/messages/{id}", major: "channels/1"}},
		{"guild", "PUT", "/api/v9/applications/7/guilds/3/commands", route{key: "PUT /applications/{id}/guilds/{id}/commands"}},
		{"guild major", "GET", "/api/v9/guilds/3/members/4", route{key: "GET /guilds/{id}/members/{id}", major: "guilds/3"}},
		{"callback", "POST", "/api/v9/interactions/5/tok/callback",
			route{key: "POST /interactions/{id}/{token}/callback", major: "interactions/5/tok", exempt: true}},
		{"follow-up", "POST", "/api/v9/webhooks/77/tok", route{key: "POST /webhooks/{id}/{token}", major: "webhooks/77/tok", exempt: true}},
		{"reaction", "PUT", "/api/v9/channels/1/messages/2/reactions/x/@me",
			route{key: "PUT /channels/{id}/messages/{id}/reactions/{emoji}/@me", major: "channels/1"}},
		{"no version", "GET", "/gateway/bot", route{key: "GET /gateway/bot"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, parseRoute(tc.method, tc.path, "77"))
		})
	}
}

func TestWindow(t *testing.T) {
	w := newWindow(InvalidWindow) // slots of a second
	t0 := time.Unix(100, 0)
	for i := range 10 {
		w.add(t0.Add(time.Duration(i) * time.Minute))
	}
	now := t0.Add(9 * time.Minute)
	assert.Equal(t, 10, w.n(now))
	assert.Zero(t, w.below(now, 11))
	assert.Equal(t, time.Minute, w.below(now, 10), "the first leaves at 10 minutes")
	assert.Equal(t, 5*time.Minute, w.below(now, 6))
	assert.Equal(t, 5, w.n(now.Add(5*time.Minute)))
	assert.Zero(t, w.n(now.Add(time.Hour)))
}

func TestBucketBudget(t *testing.T) {
	b := NewBucket(10, 2)
	now := time.Unix(0, 0)
	for range 2 {
		d, err := b.Take(context.Background(), now)
		require.NoError(t, err)
		assert.Zero(t, d)
	}
	d, err := b.Take(context.Background(), now)
	require.NoError(t, err)
	assert.Equal(t, 100*time.Millisecond, d)
	d, err = b.Take(context.Background(), now.Add(100*time.Millisecond))
	require.NoError(t, err)
	assert.Zero(t, d)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// BenchmarkTransport is the limiter's cost per request over a base that
// answers at once with Discord's headers: the route parsed, the budget
// taken, the bucket waited on and learned, the headers stripped.
func BenchmarkTransport(b *testing.B) {
	for _, bc := range []struct {
		name string
		path string
	}{
		{"global", "/api/v10/channels/1/messages"},
		{"exempt", "/api/v10/interactions/5/tok/callback"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				h := http.Header{}
				h.Set("X-RateLimit-Limit", "1000000000")
				h.Set("X-RateLimit-Remaining", "999999999")
				h.Set("X-RateLimit-Reset-After", "60")
				h.Set("X-RateLimit-Bucket", "abc")
				return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(strings.NewReader(""))}, nil
			})
			tr := New(Options{Base: base, Rate: 1e12, Burst: 1 << 30, ApplicationID: "77"})
			req, _ := http.NewRequest("POST", "https://discord.com"+bc.path, nil)
			req.Header.Set("Authorization", "Bot x")
			b.ReportAllocs()
			for b.Loop() {
				res, err := tr.RoundTrip(req)
				if err != nil {
					b.Fatal(err)
				}
				res.Body.Close()
			}
		})
	}
}

func TestLongWaitsAreNotSatOut(t *testing.T) {
	for _, tc := range []struct {
		name, scope, next string
	}{
		{"a bucket's", ScopeUser, "/channels/1/messages"},
		{"the global", ScopeGlobal, "/channels/2/messages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			d := newDiscord(t, c)
			d.fault(fault{status: 429, scope: tc.scope, after: 60})
			tr := newTransport(c, Options{})
			_, _, err := do(t, tr, context.Background(), "POST", d.srv.URL+"/api/v10/channels/1/messages", "{}")
			require.Error(t, err)
			c.Advance(30 * time.Second)
			_, _, err = do(t, tr, context.Background(), "POST", d.srv.URL+"/api/v10"+tc.next, "{}")
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Zero(t, e.Tries)
			assert.Equal(t, tc.scope, e.Scope)
			assert.Equal(t, 30*time.Second, e.RetryAfter)
			assert.Contains(t, e.Error(), "not sent")
			assert.Len(t, d.log(), 1, "nothing sent into the window")
		})
	}
}

func TestAnOldAnswerDoesNotRaiseTheCount(t *testing.T) {
	c := newClock()
	tr := newTransport(c, Options{})
	r := parseRoute("POST", "/api/v10/channels/1/messages", "")
	answer := func(remaining string) *http.Response {
		h := http.Header{}
		h.Set("X-RateLimit-Limit", "5")
		h.Set("X-RateLimit-Remaining", remaining)
		h.Set("X-RateLimit-Reset-After", "5")
		h.Set("X-RateLimit-Bucket", "abc")
		return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(strings.NewReader(""))}
	}
	require.Negative(t, tr.learn(r, answer("4")))
	for range 4 {
		require.NoError(t, tr.wait(context.Background(), r)) // four sent, none answered
	}
	require.Negative(t, tr.learn(r, answer("3"))) // the answer to the first of them
	before := c.Now()
	require.NoError(t, tr.wait(context.Background(), r))
	assert.Equal(t, before.Add(5*time.Second+resetRounding), c.Now(), "the fifth waits for the reset")
}

// BenchmarkStorm offers globally limited requests at twice Discord's
// global limit (100 a second, each to a channel of its own) to a Discord
// that enforces 50 a second per second of the machine's clock, for b.N
// requests (-benchtime 500x is 5 s), with and without the limiter, and
// reports the global 429s a second and the requests a second that got
// through.
func BenchmarkStorm(b *testing.B) {
	for _, bc := range []struct {
		name    string
		limiter bool
	}{{"none", false}, {"limiter", true}} {
		b.Run(bc.name, func(b *testing.B) {
			d := newDiscord(b, &clock{real: true})
			d.global = GlobalLimit
			var tr http.RoundTripper = http.DefaultTransport
			if bc.limiter {
				tr = New(Options{})
			}
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			var wg sync.WaitGroup
			start := time.Now()
			i := 0
			for b.Loop() {
				<-tick.C
				i++
				wg.Go(func() {
					req, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/v10/channels/%d/messages", d.srv.URL, i), strings.NewReader("{}"))
					if res, err := tr.RoundTrip(req); err == nil {
						_, _ = io.Copy(io.Discard, res.Body)
						res.Body.Close()
					}
				})
			}
			wg.Wait()
			secs := time.Since(start).Seconds()
			limited, ok := 0, 0
			for _, call := range d.log() {
				switch call.Status {
				case http.StatusTooManyRequests:
					limited++
				case http.StatusOK:
					ok++
				}
			}
			b.ReportMetric(float64(limited)/secs, "global429/s")
			b.ReportMetric(float64(ok)/secs, "sent/s")
		})
	}
}
