// Package testclock is a clock a test moves by hand: give its Now to the
// code under test (the game service, the delivery, the store, the Discord
// stand-in, the whole program) and move it on with Advance, so that a
// deadline, a retry's wait or an archived thread comes due at once.
package testclock

import (
	"sync"
	"time"
)

// Clock is a time that moves only when Advance moves it. Safe for
// concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// At returns a clock that reads t.
func At(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
