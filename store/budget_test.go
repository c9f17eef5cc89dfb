package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/store"
	"github.com/malefiz-discord/malefiz/store/storetest"
)

func TestBudgetNeedsPostgreSQL(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db := mustOpen(t, b.NewURL(t))
		_, err := db.Budget(t.Context(), "token", store.BudgetOptions{Rate: 10, Batch: 2, Lease: time.Second})
		if b.Name == "sqlite" {
			require.ErrorIs(t, err, store.ErrNotShared)
			return
		}
		require.NoError(t, err)
	})
}

func TestBudgetOptions(t *testing.T) {
	t.Parallel()
	db := mustOpen(t, storetest.NewPostgresURL(t))
	for _, tc := range []struct {
		name string
		o    store.BudgetOptions
	}{
		{"no rate", store.BudgetOptions{Batch: 2, Lease: time.Second}},
		{"no batch", store.BudgetOptions{Rate: 10, Lease: time.Second}},
		{"no lease", store.BudgetOptions{Rate: 10, Batch: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := db.Budget(t.Context(), "token", tc.o)
			require.Error(t, err)
		})
	}
	assert.InDelta(t, 29.0, store.BudgetOptions{Rate: 20, Batch: 4, Lease: 250 * time.Millisecond}.Ceiling(), 1e-9)
}

// TestBudgetSharedByTwoReplicas runs two replicas (two DBs on one
// PostgreSQL database) asking for requests as fast as the budget lets
// them, far more than twice its rate, on the real clock, and counts the
// requests each is granted in every one-second window: together they stay
// within the documented ceiling, Batch + Rate × (1 s + Lease). Only an
// upper bound is checked: a slow machine grants fewer, never more.
func TestBudgetSharedByTwoReplicas(t *testing.T) {
	t.Parallel()
	url := storetest.NewPostgresURL(t)
	o := store.BudgetOptions{Rate: 20, Batch: 4, Lease: 250 * time.Millisecond}
	var mu sync.Mutex
	var uses []time.Time
	perReplica := make([]int, 2)
	budgets := make([]*store.Budget, 2)
	for i := range budgets {
		db := mustOpen(t, url)
		b, err := db.Budget(t.Context(), "the bot's token", o)
		require.NoError(t, err)
		budgets[i] = b
	}
	// The three seconds of asking start once both replicas are open: on
	// a loaded machine opening them (the migrations) can take longer than
	// that, and no request was left to count.
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i, b := range budgets {
		// One asker per replica, as the Transport has: the others queue
		// behind it.
		wg.Go(func() {
			for ctx.Err() == nil {
				trips := b.Trips()
				now := time.Now()
				wait, err := b.Take(ctx, now)
				if err != nil {
					return
				}
				if wait > 0 {
					time.Sleep(wait)
					continue
				}
				// A request from the batch in hand goes at now (its
				// lease is checked against now); one from the database
				// once the statement has answered.
				at := now
				if b.Trips() != trips {
					at = time.Now()
				}
				mu.Lock()
				uses = append(uses, at)
				perReplica[i]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	require.NotEmpty(t, uses)
	most := 0
	for _, u := range uses {
		n := 0
		for _, v := range uses {
			if !v.Before(u) && v.Sub(u) < time.Second {
				n++
			}
		}
		most = max(most, n)
	}
	t.Logf("granted %v, at most %d in a second (ceiling %.0f), round trips %d and %d",
		perReplica, most, o.Ceiling(), budgets[0].Trips(), budgets[1].Trips())
	assert.LessOrEqual(t, float64(most), o.Ceiling(), "requests in one second over both replicas")
	assert.Positive(t, perReplica[0], "the first replica sent nothing")
	assert.Positive(t, perReplica[1], "the second replica sent nothing")
}

// BenchmarkBudget is a shared budget's cost per request on PostgreSQL
// when requests are plenty: one statement per batch. trips/op is the
// round trips per request.
func BenchmarkBudget(b *testing.B) {
	url := storetest.NewPostgresURL(b)
	db := mustOpen(b, url)
	for _, batch := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			bud, err := db.Budget(b.Context(), "bench"+b.Name(), store.BudgetOptions{Rate: 1e9, Batch: batch, Lease: time.Second})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for b.Loop() {
				if _, err := bud.Take(ctx, time.Now()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(bud.Trips())/float64(b.N), "trips/op")
		})
	}
}
