package ratelimit

import (
	"fmt"
	"time"
)

// Error is what the Transport returns instead of a response when a request
// could not be sent within Discord's limits: its 429s or 5xx answers
// outlasted the retries, a wait it was told was longer than the Transport
// waits, or the brake held a deferrable request back. It is an error, not
// the 429 response, because discordgo would retry a 429 forever; the
// caller (the outbox) tries again after RetryAfter.
type Error struct {
	Method string
	Route  string // the route, IDs and tokens replaced
	// Status is Discord's last answer: 429, a 5xx, or 0 when the request
	// was not sent (the brake, or a wait longer than MaxWait).
	Status int
	// Scope is a 429's X-RateLimit-Scope: "user", "global" or "shared";
	// "brake" when the invalid-request brake held the request back.
	Scope string
	// Tries is how many times the request was sent.
	Tries int
	// RetryAfter is how long from the error until the request may go again.
	RetryAfter time.Duration
}

// Error implements error.
func (e *Error) Error() string {
	switch {
	case e.Scope == ScopeBrake:
		return fmt.Sprintf("ratelimit: %s %s held back: too many invalid requests in 10 minutes; try again in %v",
			e.Method, e.Route, e.RetryAfter.Round(time.Millisecond))
	case e.Tries == 0:
		return fmt.Sprintf("ratelimit: %s %s not sent: limited (scope %s) for %v",
			e.Method, e.Route, e.Scope, e.RetryAfter.Round(time.Millisecond))
	case e.Status == 429:
		return fmt.Sprintf("ratelimit: %s %s: 429 (scope %s) after %d tries; try again in %v",
			e.Method, e.Route, e.Scope, e.Tries, e.RetryAfter.Round(time.Millisecond))
	default:
		return fmt.Sprintf("ratelimit: %s %s: HTTP %d after %d tries; try again in %v",
			e.Method, e.Route, e.Status, e.Tries, e.RetryAfter.Round(time.Millisecond))
	}
}

// Temporary reports true: the request may succeed later.
func (e *Error) Temporary() bool { return true }
