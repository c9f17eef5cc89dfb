package store_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/internal/testclock"
	"github.com/malefiz-discord/malefiz/store"
)

// Two handles on one database, as two processes of the bot would have them.
func openTwo(t *testing.T, b store.TestBackend) (*store.DB, *store.DB, *testclock.Clock) {
	t.Helper()
	url := b.NewURL(t)
	c := newClock()
	one, two := mustOpen(t, url), mustOpen(t, url)
	one.Now, two.Now = c.Now, c.Now
	return one, two, c
}

// The same game updated through both handles at once, from the same version:
// exactly one wins, the other gets ErrConflict, again and again.
func TestTwoHandlesUpdateOneGame(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		one, two, _ := openTwo(t, b)
		g := newGame("c1")
		mustCreate(t, one, g, malefiz.Event{Kind: malefiz.EventStart})
		for round := range 20 {
			var (
				wg   sync.WaitGroup
				errs [2]error
			)
			dbs := []*store.DB{one, two}
			var read [2]*malefiz.Game
			for i, db := range dbs {
				var err error
				read[i], err = db.Game(ctxT(t), g.ID)
				require.NoError(t, err)
			}
			for i, db := range dbs {
				wg.Go(func() {
					read[i].State = []byte{byte(round), byte(i)}
					errs[i] = db.UpdateGame(ctxT(t), read[i], malefiz.Event{Kind: malefiz.EventRoll})
				})
			}
			wg.Wait()
			won := 0
			for _, err := range errs {
				if err == nil {
					won++
				} else {
					assert.ErrorIs(t, err, store.ErrConflict)
				}
			}
			require.Equal(t, 1, won, "round %d: %v", round, errs)
		}
		got, err := two.Game(ctxT(t), g.ID)
		require.NoError(t, err)
		assert.Equal(t, int64(21), got.Version)
		events, err := one.Events(ctxT(t), g.ID)
		require.NoError(t, err)
		assert.Len(t, events, 21)
	})
}

// A due timer seen by both handles is handled by one: both read it due,
// both write its handling from the version they read, one gets ErrConflict,
// and it is due no more.
func TestTwoHandlesHandleOneTimer(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		one, two, c := openTwo(t, b)
		g := newGame("c1")
		g.Deadline = t0.Add(time.Minute)
		g.WakeAt = g.Deadline
		mustCreate(t, one, g)
		c.Advance(2 * time.Minute)

		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			handled int
		)
		dbs := []*store.DB{one, two}
		var due [2][]*malefiz.Game
		for i, db := range dbs {
			var err error
			due[i], err = db.DueGames(ctxT(t), c.Now(), 10)
			require.NoError(t, err)
			require.Len(t, due[i], 1)
		}
		for i, db := range dbs {
			wg.Go(func() {
				h := due[i][0]
				h.Deadline, h.WakeAt = time.Time{}, time.Time{}
				err := db.UpdateGame(ctxT(t), h, malefiz.Event{Kind: malefiz.EventTimeout})
				if !errors.Is(err, store.ErrConflict) {
					assert.NoError(t, err)
				}
				if err == nil {
					mu.Lock()
					handled++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		assert.Equal(t, 1, handled)
		left, err := two.DueGames(ctxT(t), c.Now(), 10)
		require.NoError(t, err)
		assert.Empty(t, left)
		events, err := one.Events(ctxT(t), g.ID)
		require.NoError(t, err)
		assert.Len(t, events, 1, "one timeout recorded")
	})
}

// Effects claimed through both handles at once: every effect goes to exactly
// one of them.
func TestTwoHandlesClaimEffects(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		one, two, _ := openTwo(t, b)
		const games = 30
		for i := range games {
			g := newGame(string(rune('a' + i)))
			require.NoError(t, one.Commit(ctxT(t), &store.Commit{Game: g,
				Effects: []store.Effect{{Kind: "post"}}}))
		}
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			claimed = map[int64]string{}
		)
		for name, db := range map[string]*store.DB{"one": one, "two": two} {
			wg.Go(func() {
				for {
					effects, err := db.ClaimEffects(ctxT(t), name, time.Minute, 3)
					if !assert.NoError(t, err) || len(effects) == 0 {
						return
					}
					mu.Lock()
					for _, e := range effects {
						if other, ok := claimed[e.ID]; ok {
							t.Errorf("effect %d claimed by %s and %s", e.ID, other, name)
						}
						claimed[e.ID] = name
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		assert.Len(t, claimed, games)
	})
}

// A claim whose holder dies (its handle closed, as a killed process's) is
// taken over by the other handle once the lease runs out, not before; the
// late holder's answer is then refused.
func TestTwoHandlesLeaseTakeover(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		one, two, c := openTwo(t, b)
		g := newGame("c1")
		require.NoError(t, one.Commit(ctxT(t), &store.Commit{Game: g,
			Effects: []store.Effect{{Kind: "post", Payload: []byte("turn 1")}}}))
		const lease = 30 * time.Second
		mine, err := one.ClaimEffects(ctxT(t), "one", lease, 10)
		require.NoError(t, err)
		require.Len(t, mine, 1)
		require.NoError(t, one.Close()) // the holder dies

		theirs, err := two.ClaimEffects(ctxT(t), "two", lease, 10)
		require.NoError(t, err)
		assert.Empty(t, theirs, "taken while the lease runs")

		c.Advance(lease)
		theirs, err = two.ClaimEffects(ctxT(t), "two", lease, 10)
		require.NoError(t, err)
		require.Len(t, theirs, 1, "not taken over after the lease")
		assert.Equal(t, mine[0].ID, theirs[0].ID)
		require.NoError(t, two.EffectDone(ctxT(t), "two", theirs[0].ID, "m1", nil))
		assert.ErrorIs(t, two.EffectDone(ctxT(t), "one", mine[0].ID, "m0", nil), store.ErrLeaseLost)
	})
}

// A PostgreSQL URL that leads nowhere is refused at Open with an error that
// names the database but not its password.
func TestOpenPostgresUnreachable(t *testing.T) {
	for _, url := range []string{
		"postgres://malefiz:s3cr3t@127.0.0.1:1/malefiz?connect_timeout=2",
		"postgresql://malefiz:s3cr3t@127.0.0.1:1/malefiz?connect_timeout=2",
		"postgres://malefiz:s3cr3t@127.0.0.1:1/malefiz?sslmode=bogus",
	} {
		db, err := store.Open(ctxT(t), url)
		if err == nil {
			db.Close()
			t.Fatalf("Open(%q) succeeded", url)
		}
		t.Log(err)
		assert.NotContains(t, err.Error(), "s3cr3t")
		assert.Contains(t, err.Error(), "store: open postgres")
	}
}

// DueGames reads the seats of all its games at once; each game is as Game
// returns it, seats in their order.
func TestDueGamesSeats(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		for i := range 5 {
			g := newGame(string(rune('a' + i)))
			g.WakeAt = t0.Add(time.Duration(i) * time.Minute)
			g.Seats = g.Seats[:1+i%2]
			if i == 3 {
				g.Seats = append(g.Seats, malefiz.Seat{Color: "blue", UserID: "u9", Left: true}, malefiz.Seat{Color: "yellow", Computer: "hard"})
			}
			mustCreate(t, db, g)
		}
		due, err := db.DueGames(ctxT(t), t0.Add(time.Hour), 10)
		require.NoError(t, err)
		require.Len(t, due, 5)
		for _, g := range due {
			want, err := db.Game(ctxT(t), g.ID)
			require.NoError(t, err)
			assert.Equal(t, want, g)
		}
	})
}

// Games with a common player finished at once through two handles rate that
// player one after the other: each game's rating_before of the player is the
// other's rating_after, or the initial rating, never both from the same
// rating (which would lose one game's change).
func TestTwoHandlesFinishGamesOfOnePlayer(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		one, two, _ := openTwo(t, b)
		for round := range 30 {
			var games [2]*malefiz.Game
			for i := range games {
				games[i] = newGame(fmt.Sprintf("r%d-%d", round, i))
				mustCreate(t, one, games[i])
			}
			results := [2][]malefiz.Result{
				{{Player: "u1", Color: "red", Won: true}, {Player: fmt.Sprint("a", round), Color: "green"}},
				{{Player: "u1", Color: "red"}, {Player: fmt.Sprint("b", round), Color: "green", Won: true}},
			}
			var wg sync.WaitGroup
			for i, db := range []*store.DB{one, two} {
				wg.Go(func() { assert.NoError(t, db.FinishGame(ctxT(t), games[i], results[i])) })
			}
			wg.Wait()
			first, second := results[0][0], results[1][0]
			if first.RatingBefore != second.RatingAfter {
				first, second = second, first
			}
			require.Equal(t, second.RatingAfter, first.RatingBefore, "round %d: u1 rated twice from one rating: %+v, %+v", round, first, second)
			s, err := two.PlayerStats(ctxT(t), "guild1", "u1")
			require.NoError(t, err)
			assert.Equal(t, 2*(round+1), s.Games)
			assert.Equal(t, first.RatingAfter, s.Rating)
		}
	})
}
