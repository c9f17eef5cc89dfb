package sandbox

import (
	"sync"
	"time"
)

// Clock is the sandbox's time: a real clock plus an offset that Skip
// increases. Give its Now to the bot, so that a skip makes deadlines due.
type Clock struct {
	real func() time.Time

	mu    sync.Mutex
	skips []skip // in order of real time
}

// skip records that from real time since on, the offset was offset.
type skip struct {
	since  time.Time
	offset time.Duration
}

// NewClock returns a clock that follows real (time.Now when nil) until
// the first Skip.
func NewClock(real func() time.Time) *Clock {
	if real == nil {
		real = time.Now
	}
	return &Clock{real: real}
}

// Now returns the sandbox time: real time plus the offset.
func (c *Clock) Now() time.Time {
	return c.real().Add(c.Offset())
}

// Offset returns how far the clock has been moved ahead in total.
func (c *Clock) Offset() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.skips) == 0 {
		return 0
	}
	return c.skips[len(c.skips)-1].offset
}

// Skip moves the clock ahead by d and returns the new offset. A d of zero
// or less changes nothing.
func (c *Clock) Skip(d time.Duration) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	var offset time.Duration
	if n := len(c.skips); n > 0 {
		offset = c.skips[n-1].offset
	}
	if d <= 0 {
		return offset
	}
	c.skips = append(c.skips, skip{since: c.real(), offset: offset + d})
	return offset + d
}

// At returns the sandbox time of a real instant: the instant plus the
// offset in effect then. Messages stamped with real time show the
// sandbox time they were sent at.
func (c *Clock) At(real time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	var offset time.Duration
	for _, s := range c.skips {
		if s.since.After(real) {
			break
		}
		offset = s.offset
	}
	return real.Add(offset)
}
