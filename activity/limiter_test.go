package activity

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestLimiterForgetsFullBuckets proves that the limiter's memory stays
// bounded: past 10000 keys it forgets those whose buckets are full again,
// and keeps those still counting.
func TestLimiterForgetsFullBuckets(t *testing.T) {
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	l := limiter{per: time.Second, burst: 3, now: func() time.Time { return at }}
	for i := range 10000 {
		assert.True(t, l.allow(fmt.Sprint("old", i)))
	}
	assert.Len(t, l.next, 10000, "none forgotten yet")
	at = at.Add(2 * time.Second) // the old buckets are full again
	for range 3 {
		assert.True(t, l.allow("busy"))
	}
	assert.True(t, l.allow("new"), "the 10002nd key")
	assert.Equal(t, map[string]time.Time{"busy": at.Add(3 * time.Second), "new": at.Add(time.Second)}, l.next,
		"the full buckets are forgotten, the counting ones kept")
	assert.False(t, l.allow("busy"), "busy's burst is still taken")
}

// TestLimiterClockSetBack proves that a clock set back does not empty
// every bucket it touched for as long as the step: a bucket that reads as
// emptier than empty starts afresh.
func TestLimiterClockSetBack(t *testing.T) {
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	l := limiter{per: time.Second, burst: 3, now: func() time.Time { return at }}
	assert.True(t, l.allow("a"))
	at = at.Add(-10 * time.Second)
	for i := range 3 {
		assert.True(t, l.allow("a"), "token %d after the step", i)
	}
	assert.False(t, l.allow("a"), "the burst is spent as before")
}
