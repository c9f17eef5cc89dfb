package testclock

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestClockMovesOnlyWhenAdvanced(t *testing.T) {
	start := time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC)
	c := At(start)
	assert.Equal(t, start, c.Now())
	time.Sleep(time.Millisecond)
	assert.Equal(t, start, c.Now(), "the machine's time does not move it")

	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() { c.Advance(time.Minute) })
	}
	wg.Wait()
	assert.Equal(t, start.Add(10*time.Minute), c.Now())
}
