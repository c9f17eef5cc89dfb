package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrNotShared is Budget's answer on SQLite: one process owns a SQLite
// file, so the rate limiter's bucket in memory is already the only one.
var ErrNotShared = errors.New("store: a shared rate budget needs PostgreSQL; one SQLite process keeps its own")

// BudgetOptions size a shared Budget.
type BudgetOptions struct {
	// Rate is the requests a second the bucket refills.
	Rate float64
	// Batch is the most requests one round trip takes, and the bucket's
	// size.
	Batch int
	// Lease is how long a replica may use what it took; what is left
	// then is dropped.
	Lease time.Duration
}

// Ceiling is the most requests the replicas together can send in any
// second: Batch + Rate × (1 s + Lease).
func (o BudgetOptions) Ceiling() float64 {
	return float64(o.Batch) + o.Rate*(1+o.Lease.Seconds())
}

// Budget is Discord's global rate limit of one bot token shared by every
// replica on the PostgreSQL database: a token bucket in the row of
// rate_budgets keyed by the token's SHA-256, which one UPDATE … RETURNING
// refills (by the database's clock, so that the replicas' clocks do not
// matter) and takes a batch from, atomically (the row's lock orders two
// replicas' statements; the second refills from what the first left). It
// implements ratelimit.Budget.
//
// A replica takes up to Batch requests per round trip and may use them for
// Lease from the moment it asked. It asks for what it is using: twice its
// last batch when that was used up in time (up to Batch), what it used of
// it when some was dropped, so that a replica sending now and then takes
// one request per round trip and does not drain the bucket with batches it
// drops. A busy replica costs one statement per Batch requests; when the
// bucket is empty it waits until one request has refilled before it asks
// again, so the replicas together make at most about Rate statements a
// second however many requests wait.
//
// Why the replicas stay under the limit: the bucket holds at most Batch,
// so over any span T the database grants at most Batch + Rate×T requests.
// A request sent in a second [t, t+1 s) was granted in [t-Lease, t+1 s):
// at most Batch + Rate×(1 s + Lease) of them, whichever replicas hold them,
// however many replicas there are. A replica that dies holding a batch
// takes it with it unused: the budget loses at most Batch, never gives it
// twice, and nothing is to be reclaimed (there is no lease row to expire).
// Ceiling is that bound; choose Rate so that it stays under Discord's 50,
// as the command does.
//
// SQLite has no Budget (ErrNotShared): one process, its bucket in memory.
type Budget struct {
	db  *DB
	key string
	o   BudgetOptions

	mu      sync.Mutex
	left    int       // requests taken and not used
	expires time.Time // when left is dropped
	want    int       // what the next round trip asks for, 1 to Batch
	trips   int64     // round trips made
}

// Budget returns the shared budget of the bot token on PostgreSQL, its row
// made when missing (holding a batch).
func (db *DB) Budget(ctx context.Context, token string, o BudgetOptions) (*Budget, error) {
	if db.d != postgresDialect {
		return nil, ErrNotShared
	}
	if o.Rate <= 0 || o.Batch < 1 || o.Lease <= 0 {
		return nil, fmt.Errorf("store: budget: rate %v, batch %d, lease %v: want all above 0", o.Rate, o.Batch, o.Lease)
	}
	sum := sha256.Sum256([]byte(token))
	b := &Budget{db: db, key: hex.EncodeToString(sum[:]), o: o, want: 1}
	if _, err := db.w.ExecContext(ctx, `INSERT INTO rate_budgets (key, tokens, updated_at)
		VALUES ($1, $2, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)
		ON CONFLICT (key) DO NOTHING`, b.key, float64(o.Batch)); err != nil {
		return nil, fmt.Errorf("store: budget: %w", err)
	}
	return b, nil
}

// avail is what the bucket holds now: what it held, refilled by the time
// passed on the database's clock, at most a batch.
const avail = `LEAST($2::float8, b.tokens + GREATEST(0, n.now - b.updated_at) * $3::float8 / 1000000)`

// takeBatch refills the bucket and takes what it holds, up to want ($4), in
// one statement: the row's lock orders two replicas' statements, and the
// second computes from the row the first left. It returns what it took
// and what is left.
var takeBatch = `UPDATE rate_budgets b SET
	tokens = ` + avail + ` - LEAST($4::int, floor(` + avail + `)::int),
	granted = LEAST($4::int, floor(` + avail + `)::int),
	updated_at = GREATEST(b.updated_at, n.now)
FROM (SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS now) n
WHERE b.key = $1
RETURNING b.granted, b.tokens`

// Take implements ratelimit.Budget: a request from the batch in hand, or
// a new batch from the database.
func (b *Budget) Take(ctx context.Context, now time.Time) (time.Duration, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.left > 0 && now.Before(b.expires) {
		b.left--
		return 0, nil
	}
	// Ask for what this replica is using: twice the last batch when it
	// was used up in time, what it used of it when some expired, so that
	// a replica sending now and then does not take (and drop) a batch for
	// each request.
	if b.left > 0 {
		b.want = max(1, b.want-b.left)
	} else {
		b.want = min(b.o.Batch, 2*b.want)
	}
	b.left = 0
	var granted int
	var tokens float64
	b.trips++
	if err := b.db.w.QueryRowContext(ctx, takeBatch, b.key, b.o.Batch, b.o.Rate, b.want).Scan(&granted, &tokens); err != nil {
		return 0, fmt.Errorf("store: budget: %w", err)
	}
	if granted == 0 {
		return max(time.Millisecond, time.Duration((1-tokens)/b.o.Rate*float64(time.Second))), nil
	}
	b.want = granted
	b.left, b.expires = granted-1, now.Add(b.o.Lease)
	return 0, nil
}

// Trips returns the round trips to the database the budget has made.
func (b *Budget) Trips() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.trips
}
