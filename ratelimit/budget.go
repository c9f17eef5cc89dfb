package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Budget hands out the global limit's requests. The Transport asks it once
// per globally limited request; one process keeps it in memory (NewBucket),
// replicas on one bot token share one kept in their database (store's
// Budget on PostgreSQL).
type Budget interface {
	// Take asks for one request at now. It returns 0 when the request may
	// go now (its share of the budget is taken), or how long to wait
	// before asking again (nothing taken).
	Take(ctx context.Context, now time.Time) (time.Duration, error)
}

// Bucket is a token bucket in memory: rate requests a second, and at most
// burst at once after a quiet spell. In any second it lets through at most
// rate + burst requests, so rate 45 and burst 3 stay under Discord's 50
// however the second is placed. It is safe for concurrent use.
type Bucket struct {
	rate  float64
	burst float64

	mu     sync.Mutex
	tokens float64
	at     time.Time // when tokens was counted
}

// NewBucket returns a full bucket of burst tokens refilled at rate a
// second. A burst below 1 is 1.
func NewBucket(rate float64, burst int) *Bucket {
	b := max(1, float64(burst))
	return &Bucket{rate: rate, burst: b, tokens: b}
}

// Take implements Budget.
func (b *Bucket) Take(_ context.Context, now time.Time) (time.Duration, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.at.IsZero() {
		b.at = now
	}
	if now.After(b.at) {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.at).Seconds()*b.rate)
		b.at = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return 0, nil
	}
	return max(time.Millisecond, time.Duration((1-b.tokens)/b.rate*float64(time.Second))), nil
}
