package fakediscord

import (
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Fault is an error answer the fake gives instead of serving a request.
type Fault struct {
	Status  int    // HTTP status
	Code    int    // Discord error code in the JSON body
	Message string // message in the JSON body
	// RetryAfter is the wait a 429 asks for, in the Retry-After and
	// X-RateLimit-Reset-After headers and the JSON retry_after (in
	// seconds). Zero means 50 ms.
	RetryAfter time.Duration
	// Global marks a 429 as a global rate limit.
	Global bool
	// Scope is the X-RateLimit-Scope of a 429: ScopeUser unless Global,
	// ScopeShared for a limit shared by every user of a resource, which
	// does not count as an invalid request.
	Scope string
}

// Faults as Discord gives them.
var (
	// RateLimited is a 429 with retry_after 0.05 s, which discordgo
	// waits for and retries.
	RateLimited = Fault{Status: http.StatusTooManyRequests, Message: "You are being rate limited."}
	// ServerError is a 500, which discordgo does not retry.
	ServerError = Fault{Status: http.StatusInternalServerError, Message: "500: Internal Server Error"}
	// BadGateway is a 502, which discordgo retries up to MaxRestRetries
	// times.
	BadGateway = Fault{Status: http.StatusBadGateway, Message: "502: Bad Gateway"}
	// UnknownMessage is a 404 with code 10008: the message was deleted.
	UnknownMessage = Fault{Status: http.StatusNotFound, Code: codeUnknownMessage, Message: "Unknown Message"}
	// UnknownChannel is a 404 with code 10003: the channel was deleted.
	UnknownChannel = Fault{Status: http.StatusNotFound, Code: codeUnknownChannel, Message: "Unknown Channel"}
	// UnknownInteraction is a 404 with code 10062: the interaction
	// expired.
	UnknownInteraction = Fault{Status: http.StatusNotFound, Code: codeUnknownInteraction, Message: "Unknown interaction"}
	// MissingAccess is a 403 with code 50001: the bot cannot see the
	// channel.
	MissingAccess = Fault{Status: http.StatusForbidden, Code: codeMissingAccess, Message: "Missing Access"}
	// MissingPermissions is a 403 with code 50013.
	MissingPermissions = Fault{Status: http.StatusForbidden, Code: codeMissingPermissions, Message: "Missing Permissions"}
)

// Match selects the calls a fault applies to. It sees the call's Method,
// Path, Route, Params, Body, Files and InteractionID.
type Match func(Call) bool

// OnRoute matches calls to any of the given routes (Route* constants).
func OnRoute(routes ...string) Match {
	return func(c Call) bool { return slices.Contains(routes, c.Route) }
}

// OnMessage matches calls to the channel and webhook message routes that
// address the given message ID (or "@original").
func OnMessage(messageID string) Match {
	return func(c Call) bool { return c.Param("message") == messageID }
}

// And matches calls all of ms match.
func And(ms ...Match) Match {
	return func(c Call) bool {
		for _, m := range ms {
			if !m(c) {
				return false
			}
		}
		return true
	}
}

// fault is a pending FailNext.
type fault struct {
	match Match
	fault Fault
	left  int
}

// FailNext makes the next n calls that match answer with fault instead of
// being served. Faults are consulted in the order they were added; a nil
// match matches every known route.
func (f *Fake) FailNext(match Match, ft Fault, n int) {
	if match == nil {
		match = func(Call) bool { return true }
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = append(f.faults, &fault{match: match, fault: ft, left: n})
}

// PendingFaults returns how many fault answers FailNext still has to give.
func (f *Fake) PendingFaults() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, ft := range f.faults {
		n += ft.left
	}
	return n
}

// takeFault returns the fault for c, if any, and counts it. The matchers
// run without the fake's lock held.
func (f *Fake) takeFault(c Call) (Fault, bool) {
	f.mu.Lock()
	pending := slices.Clone(f.faults)
	f.mu.Unlock()
	for _, ft := range pending {
		if !ft.match(c) {
			continue
		}
		f.mu.Lock()
		if i := slices.Index(f.faults, ft); i >= 0 && ft.left > 0 {
			ft.left--
			if ft.left == 0 {
				f.faults = slices.Delete(f.faults, i, i+1)
			}
			f.mu.Unlock()
			return ft.fault, true
		}
		f.mu.Unlock()
	}
	return Fault{}, false
}

// reply returns the status, body and headers of the fault's answer.
func (ft Fault) reply() (int, any, http.Header) {
	h := http.Header{}
	if ft.Status != http.StatusTooManyRequests {
		return ft.Status, &apiError{status: ft.Status, Code: ft.Code, Message: ft.Message}, h
	}
	wait := ft.RetryAfter
	if wait <= 0 {
		wait = 50 * time.Millisecond
	}
	secs := strconv.FormatFloat(wait.Seconds(), 'f', 3, 64)
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset-After", secs)
	h.Set("X-RateLimit-Bucket", "fake-bucket")
	h.Set("X-RateLimit-Scope", ScopeUser)
	if ft.Scope != "" {
		h.Set("X-RateLimit-Scope", ft.Scope)
	}
	if ft.Global {
		h.Set("X-RateLimit-Global", "true")
		h.Set("X-RateLimit-Scope", "global")
	}
	msg := ft.Message
	if msg == "" {
		msg = RateLimited.Message
	}
	return ft.Status, map[string]any{"message": msg, "retry_after": wait.Seconds(), "global": ft.Global, "code": ft.Code}, h
}
