package sandbox

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// manual is a real clock that a test moves.
type manual struct {
	mu sync.Mutex
	t  time.Time
}

func (m *manual) now() time.Time { m.mu.Lock(); defer m.mu.Unlock(); return m.t }
func (m *manual) add(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t = m.t.Add(d)
}

func TestClockSkipsAndMapsRealTimes(t *testing.T) {
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	real := &manual{t: start}
	c := NewClock(real.now)
	assert.Equal(t, start, c.Now())
	assert.Equal(t, time.Duration(0), c.Skip(0), "a zero skip changes nothing")

	real.add(time.Minute)
	assert.Equal(t, 12*time.Hour, c.Skip(12*time.Hour))
	assert.Equal(t, start.Add(time.Minute+12*time.Hour), c.Now())
	real.add(time.Minute)
	assert.Equal(t, 36*time.Hour, c.Skip(24*time.Hour))
	assert.Equal(t, 36*time.Hour, c.Offset())

	// A message sent before the first skip keeps its time; one sent
	// between the skips shows the first offset.
	assert.Equal(t, start.Add(30*time.Second), c.At(start.Add(30*time.Second)))
	assert.Equal(t, start.Add(90*time.Second+12*time.Hour), c.At(start.Add(90*time.Second)))
	assert.Equal(t, start.Add(3*time.Minute+36*time.Hour), c.At(start.Add(3*time.Minute)))
}
