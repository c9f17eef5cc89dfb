package fakediscord

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Rate is a limit: at most N requests per window Per. A zero N turns the
// limit off.
type Rate struct {
	N   int
	Per time.Duration
}

// on reports whether the rate limits anything.
func (r Rate) on() bool { return r.N > 0 && r.Per > 0 }

// Limits are the sizes of Discord's limits the fake enforces. DefaultLimits
// gives Discord's; a test turns one down (a smaller Rate) or off (a zero
// Rate) with WithLimits, or all of them with WithoutLimits.
//
// Discord documents the global limit and the invalid-request limit
// (https://discord.com/developers/docs/topics/rate-limits). It documents no
// size of a per-route bucket ("Because we may change rate limits at any
// time ... your app should not hard code them", ibid.): those below are
// what the libraries observe in the X-RateLimit-* headers of real answers.
// discord.js (@discordjs/rest) and twilight (twilight-http-ratelimiting)
// key a bucket by method and route, shared by the route's major parameter
// (channel, guild, webhook ID and token), and learn from
// X-RateLimit-Bucket that POST and PATCH of a channel's messages are
// separate buckets: the fake keeps them separate.
type Limits struct {
	// Global is the limit of one bot token over every route except the
	// interaction routes: "All bots can make up to 50 requests per
	// second to our API" (rate-limits, Global Rate Limit), and
	// "Interaction endpoints are not bound to the bot's Global Rate
	// Limit" (ibid.). Answered with a 429 of scope global.
	Global Rate
	// ChannelMessages is the bucket of POST /channels/{channel}/messages,
	// one per channel: 5 per 5 s, as the libraries observe
	// (X-RateLimit-Limit: 5, X-RateLimit-Reset-After: 5).
	ChannelMessages Rate
	// MessageEdits is the bucket of PATCH
	// /channels/{channel}/messages/{message}, one per channel, separate
	// from ChannelMessages: 5 per 5 s observed.
	MessageEdits Rate
	// MessageDeletes is the bucket of DELETE
	// /channels/{channel}/messages/{message}, one per channel: 5 per 5 s
	// (no library agrees on more; the bot deletes rarely).
	MessageDeletes Rate
	// Interaction is the bucket of each interaction route (the callback,
	// and every method of /webhooks/{application}/{token}...), one per
	// interaction token and route: 5 per 2 s, as the libraries observe
	// for an interaction webhook. These routes count against no global
	// limit and need no bot token.
	Interaction Rate
	// Route is the bucket of every other route the fake serves, one per
	// route and major parameter (channel, guild, else the route). Discord
	// gives each of them a size of its own; the bot calls them rarely and
	// no library relies on one, so the fake's default is generous and
	// the global limit bounds them together.
	Route Rate
	// Invalid is the invalid-request limit: "IP addresses that make too
	// many invalid HTTP requests are automatically and temporarily
	// restricted from accessing the Discord API. Currently, this limit is
	// 10,000 per 10 minutes. An invalid request is one that results in
	// 401, 403, or 429 statuses" and "429 errors returned with a
	// X-RateLimit-Scope: shared header are not counted against you"
	// (rate-limits, Invalid Request Limit aka Cloudflare bans).
	Invalid Rate
	// Ban is how long the fake refuses every request once Invalid was
	// reached. The doc says "temporarily"; bots that were banned report
	// an hour, so the default is an hour. A banned request gets
	// Cloudflare's 429 (error 1015, an HTML page: no Discord JSON body,
	// no X-RateLimit-* headers), which is what a banned bot reports; the
	// doc names no status.
	Ban time.Duration
	// OldEdits is the cap on edits of messages older than OldAge, per
	// channel: past it an edit of such a message gets 400 with code 30046
	// "Maximum number of edits to messages older than 1 hour reached. Try
	// again later." (topics/opcodes-and-status-codes, JSON error codes).
	// Discord documents the code, not the cap: the fake's default of 50
	// per hour is a choice, not an observation.
	OldEdits Rate
	// OldAge is how old a message must be for its edits to count against
	// OldEdits: an hour, as code 30046 names.
	OldAge time.Duration
	// DMOpens is the cap on POST /users/@me/channels: past it the fake
	// answers 400 with code 40003 "You are opening direct messages too
	// fast" (JSON error codes). Discord documents the code, not the cap
	// nor the status: the default of 10 per 10 s is a choice, and every
	// open counts, an open of a channel already opened included.
	DMOpens Rate
}

// DefaultLimits returns Discord's limits: what the fake enforces unless
// WithLimits or WithoutLimits says otherwise.
func DefaultLimits() Limits {
	return Limits{
		Global:          Rate{50, time.Second},
		ChannelMessages: Rate{5, 5 * time.Second},
		MessageEdits:    Rate{5, 5 * time.Second},
		MessageDeletes:  Rate{5, 5 * time.Second},
		Interaction:     Rate{5, 2 * time.Second},
		Route:           Rate{50, time.Second},
		Invalid:         Rate{10000, 10 * time.Minute},
		Ban:             time.Hour,
		OldEdits:        Rate{50, time.Hour},
		OldAge:          time.Hour,
		DMOpens:         Rate{10, 10 * time.Second},
	}
}

// WithLimits sets the limits the fake enforces (default DefaultLimits). A
// test that is not about a limit and cannot yet stay within it turns that
// one limit down or off:
//
//	l := fakediscord.DefaultLimits()
//	l.Global = fakediscord.Rate{} // off
//	fake := fakediscord.New(t, fakediscord.WithLimits(l))
func WithLimits(l Limits) Option {
	return func(c *config) { c.limits = l }
}

// WithoutLimits turns every limit off: no bucket, no 429 but injected
// ones, no ban. The rate-limit headers are still sent where a bucket
// would be, with a limit large enough never to be reached.
func WithoutLimits() Option {
	return func(c *config) { c.limits = Limits{} }
}

// WithLimitClock sets the clock the limits run on (default time.Now):
// buckets, the global window, the invalid-request count and its ban, and
// the age of a message for OldEdits. It is not WithClock's: a client waits
// out a bucket's X-RateLimit-Reset-After in real time, so a test that
// freezes the threads' clock must not freeze the buckets. A test of the
// ban passes a clock it can move on.
func WithLimitClock(now func() time.Time) Option {
	return func(c *config) { c.limitClock = now }
}

// The scopes of a 429 (X-RateLimit-Scope, rate-limits, Header Format), and
// the fake's name for Cloudflare's answer to a banned address.
const (
	ScopeUser       = "user"
	ScopeGlobal     = "global"
	ScopeShared     = "shared"
	ScopeCloudflare = "cloudflare"
)

// LimitStats counts what the limits saw, for a benchmark or a test.
type LimitStats struct {
	// Requests counts the REST requests to the fake's API.
	Requests int
	// GlobalCounted counts those counted against the global limit (with
	// the bot token, not on an interaction route), Exempt those on the
	// interaction routes.
	GlobalCounted int
	Exempt        int
	// Limited counts the 429s by scope: ScopeUser, ScopeGlobal,
	// ScopeShared, and ScopeCloudflare for requests refused by a ban.
	// Injected 429s (FailNext) count too.
	Limited map[string]int
	// Invalid counts the invalid requests: answered 401, 403 or 429 of a
	// scope other than shared (a banned request is not counted again).
	Invalid int
	// PeakInvalid is the most invalid requests that fell within any one
	// window of Limits.Invalid.Per (10 minutes).
	PeakInvalid int
	// Banned reports whether the token is banned now; BannedUntil until
	// when, on the limit clock.
	Banned      bool
	BannedUntil time.Time
}

// window is a fixed window of a bucket: count requests since it opened,
// reset when it closes.
type window struct {
	count int
	reset time.Time
}

// limiter holds the state of the limits. Its own lock, so that a handler
// holding f.mu never waits on it nor the reverse.
type limiter struct {
	mu          sync.Mutex
	buckets     map[string]*window // by bucket key
	oldEdits    map[string]*window // by channel
	dmOpens     window
	global      window
	invalid     []time.Time // invalid requests within the last Invalid.Per
	bannedUntil time.Time
	stats       LimitStats
}

// verdict is what the limits decided on a request.
type verdict struct {
	header http.Header // the bucket's headers, on every answer
	status int         // 0: serve the request
	body   any
	scope  string // of a 429
}

// limitNow returns the time on the limit clock.
func (f *Fake) limitNow() time.Time { return f.cfg.limitClock() }

// exemptRoute reports whether a route is an interaction route: no global
// limit, no bot token needed (rate-limits, Global Rate Limit).
func exemptRoute(route string) bool {
	return route == RouteInteractionCallback || strings.Contains(route, " /webhooks/{app}/{token}")
}

// bucketOf returns the rate of a route's bucket and its key (the route
// and its major parameter).
func (f *Fake) bucketOf(c *Call) (Rate, string) {
	l := f.cfg.limits
	switch {
	case c.Route == RouteInteractionCallback:
		return l.Interaction, c.Route + " " + c.Param("token")
	case exemptRoute(c.Route):
		return l.Interaction, c.Route + " " + c.Param("app") + "/" + c.Param("token")
	case c.Route == RouteMessageCreate:
		return l.ChannelMessages, c.Route + " " + c.Param("channel")
	case c.Route == RouteMessageEdit:
		return l.MessageEdits, c.Route + " " + c.Param("channel")
	case c.Route == RouteMessageDelete:
		return l.MessageDeletes, c.Route + " " + c.Param("channel")
	}
	for _, major := range []string{"channel", "guild"} {
		if v := c.Param(major); v != "" {
			return l.Route, c.Route + " " + v
		}
	}
	return l.Route, c.Route
}

// bucketHash is the opaque X-RateLimit-Bucket of a route: one per bucket
// shape, the same for every channel ("a unique string denoting the rate
// limit being encountered (non-inclusive of top-level resources in the
// path)", rate-limits, Header Format).
func bucketHash(route string) string {
	sum := sha256.Sum256([]byte(route))
	return hex.EncodeToString(sum[:8])
}

// secs formats a duration in seconds with milliseconds, as Discord does.
func secs(d time.Duration) string {
	return strconv.FormatFloat(math.Max(d.Seconds(), 0), 'f', 3, 64)
}

// epoch formats a time as Unix seconds with milliseconds
// (X-RateLimit-Reset, "Epoch time (seconds since 00:00:00 UTC on January 1,
// 1970) at which the rate limit resets", rate-limits, Header Format).
func epoch(t time.Time) string {
	return strconv.FormatFloat(float64(t.UnixMilli())/1000, 'f', 3, 64)
}

// limit decides whether the limits let c through. It runs before the
// handler, so a refused request changes nothing.
func (f *Fake) limit(c *Call, auth bool) verdict {
	l := f.cfg.limits
	now := f.limitNow()
	lim := &f.lim
	lim.mu.Lock()
	defer lim.mu.Unlock()
	exempt := exemptRoute(c.Route)
	if exempt {
		lim.stats.Exempt++
	}
	botToken := c.Header.Get("Authorization") == "Bot "+f.token
	if auth && !botToken {
		return verdict{} // the handler's 401
	}
	if !exempt && botToken {
		lim.stats.GlobalCounted++
		if l.Global.on() {
			w := &lim.global
			if !now.Before(w.reset) {
				*w = window{reset: now.Add(l.Global.Per)}
			}
			if w.count >= l.Global.N {
				wait := w.reset.Sub(now)
				h := http.Header{}
				h.Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
				h.Set("X-RateLimit-Global", "true")
				h.Set("X-RateLimit-Scope", ScopeGlobal)
				return verdict{status: http.StatusTooManyRequests, scope: ScopeGlobal, header: h,
					body: rateLimitBody{Message: "You are being rate limited.", RetryAfter: wait.Seconds(), Global: true}}
			}
			w.count++
		}
	}
	rate, key := f.bucketOf(c)
	h := http.Header{}
	h.Set("X-RateLimit-Bucket", bucketHash(c.Route))
	if !rate.on() {
		// No limit: headers of a bucket that is never reached.
		h.Set("X-RateLimit-Limit", "1000000")
		h.Set("X-RateLimit-Remaining", "999999")
		h.Set("X-RateLimit-Reset", epoch(now.Add(time.Second)))
		h.Set("X-RateLimit-Reset-After", secs(time.Second))
		return verdict{header: h}
	}
	if lim.buckets == nil {
		lim.buckets = map[string]*window{}
	}
	w := lim.buckets[key]
	if w == nil || !now.Before(w.reset) {
		w = &window{reset: now.Add(rate.Per)}
		lim.buckets[key] = w
	}
	wait := w.reset.Sub(now)
	h.Set("X-RateLimit-Limit", strconv.Itoa(rate.N))
	h.Set("X-RateLimit-Reset", epoch(w.reset))
	h.Set("X-RateLimit-Reset-After", secs(wait))
	if w.count >= rate.N {
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		h.Set("X-RateLimit-Scope", ScopeUser)
		return verdict{status: http.StatusTooManyRequests, scope: ScopeUser, header: h,
			body: rateLimitBody{Message: "You are being rate limited.", RetryAfter: wait.Seconds()}}
	}
	w.count++
	h.Set("X-RateLimit-Remaining", strconv.Itoa(rate.N-w.count))
	if v := f.capLocked(c, now); v != nil {
		v.header = h
		return *v
	}
	return verdict{header: h}
}

// banned counts an API request and reports whether the address is banned:
// then Cloudflare answers it, whatever its route, before Discord sees it.
func (f *Fake) banned() bool {
	now := f.limitNow()
	f.lim.mu.Lock()
	defer f.lim.mu.Unlock()
	f.lim.stats.Requests++
	return now.Before(f.lim.bannedUntil)
}

// refuseBanned answers c with Cloudflare's page.
func (f *Fake) refuseBanned(w http.ResponseWriter, c *Call) {
	c.Limited = ScopeCloudflare
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	f.write(w, c, http.StatusTooManyRequests, cloudflareBan, nil)
}

// capLocked checks the caps that are not buckets: 30046 for an edit of an
// old message, 40003 for DM channels opened too fast. f.lim.mu must be
// held; it takes f.mu for the message.
func (f *Fake) capLocked(c *Call, now time.Time) *verdict {
	l := f.cfg.limits
	switch {
	case c.Route == RouteMessageEdit && l.OldEdits.on():
		f.mu.Lock()
		m := f.liveLocked(c.Param("message"))
		old := m != nil && m.ChannelID == c.Param("channel") && now.Sub(m.Created) > l.OldAge
		f.mu.Unlock()
		if !old {
			return nil
		}
		if f.lim.oldEdits == nil {
			f.lim.oldEdits = map[string]*window{}
		}
		w := f.lim.oldEdits[c.Param("channel")]
		if w == nil || !now.Before(w.reset) {
			w = &window{reset: now.Add(l.OldEdits.Per)}
			f.lim.oldEdits[c.Param("channel")] = w
		}
		if w.count >= l.OldEdits.N {
			return &verdict{status: http.StatusBadRequest, body: &apiError{status: http.StatusBadRequest, Code: codeOldEdits,
				Message: "Maximum number of edits to messages older than 1 hour reached. Try again later."}}
		}
		w.count++
	case c.Route == RouteDMCreate && l.DMOpens.on():
		w := &f.lim.dmOpens
		if !now.Before(w.reset) {
			*w = window{reset: now.Add(l.DMOpens.Per)}
		}
		if w.count >= l.DMOpens.N {
			return &verdict{status: http.StatusBadRequest, body: &apiError{status: http.StatusBadRequest, Code: codeDMsTooFast,
				Message: "You are opening direct messages too fast"}}
		}
		w.count++
	}
	return nil
}

// countAnswer counts an answer the fake gave: a 429 by its scope, an
// invalid request in the invalid-request window, and the ban once the
// window holds Limits.Invalid.N of them.
func (f *Fake) countAnswer(status int, scope string) {
	if status != http.StatusUnauthorized && status != http.StatusForbidden && status != http.StatusTooManyRequests {
		return
	}
	l := f.cfg.limits
	now := f.limitNow()
	lim := &f.lim
	lim.mu.Lock()
	defer lim.mu.Unlock()
	if status == http.StatusTooManyRequests {
		if scope == "" {
			scope = ScopeUser
		}
		if lim.stats.Limited == nil {
			lim.stats.Limited = map[string]int{}
		}
		lim.stats.Limited[scope]++
		if scope == ScopeShared || scope == ScopeCloudflare {
			return
		}
	}
	lim.stats.Invalid++
	per := l.Invalid.Per
	if per <= 0 {
		per = 10 * time.Minute
	}
	cut := 0
	for cut < len(lim.invalid) && !lim.invalid[cut].After(now.Add(-per)) {
		cut++
	}
	lim.invalid = append(lim.invalid[cut:], now)
	lim.stats.PeakInvalid = max(lim.stats.PeakInvalid, len(lim.invalid))
	if l.Invalid.on() && len(lim.invalid) >= l.Invalid.N && !now.Before(lim.bannedUntil) {
		ban := l.Ban
		if ban <= 0 {
			ban = time.Hour
		}
		lim.bannedUntil = now.Add(ban)
	}
}

// LimitStats returns what the limits counted so far.
func (f *Fake) LimitStats() LimitStats {
	now := f.limitNow()
	f.lim.mu.Lock()
	defer f.lim.mu.Unlock()
	s := f.lim.stats
	s.Limited = map[string]int{}
	for k, v := range f.lim.stats.Limited {
		s.Limited[k] = v
	}
	s.BannedUntil = f.lim.bannedUntil
	s.Banned = now.Before(f.lim.bannedUntil)
	return s
}

// rateLimitBody is the JSON body of a 429 (rate-limits, Rate Limit
// Response Structure): code only for the limits that send one.
type rateLimitBody struct {
	Message    string  `json:"message"`
	RetryAfter float64 `json:"retry_after"`
	Global     bool    `json:"global"`
	Code       int     `json:"code,omitempty"`
}

// cloudflareBan is the page Cloudflare answers a banned address with.
var cloudflareBan = rawBody("<!DOCTYPE html><html><head><title>Access denied | discord.com used Cloudflare to restrict access</title></head>" +
	"<body><h1>Error 1015</h1><p>You are being rate limited</p></body></html>")

// rawBody is an answer body written as it is, not as JSON.
type rawBody string
