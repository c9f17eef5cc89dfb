package tools

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestProgressLine(t *testing.T) {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := &progress{unit: "games", total: 2000, start: start, now: func() time.Time { return start.Add(10 * time.Second) }}
	assert.Equal(t, "0/2000 games", p.line())
	p.Add(500)
	assert.Equal(t, "500/2000 games · 50.0/s · 30s left", p.line())
}
