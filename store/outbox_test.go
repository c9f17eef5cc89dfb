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
	"github.com/malefiz-discord/malefiz/store"
)

func effect(kind, payload string) store.Effect {
	return store.Effect{Kind: kind, Payload: []byte(payload)}
}

// commitWithEffects creates game g with effects, claimed by owner when set.
func commitWithEffects(t *testing.T, db *store.DB, g *malefiz.Game, owner string, effects ...store.Effect) []store.Effect {
	t.Helper()
	c := &store.Commit{Game: g, Events: []malefiz.Event{{Kind: malefiz.EventStart, Data: "red"}},
		Effects: effects, Owner: owner, Lease: 30 * time.Second}
	require.NoError(t, db.Commit(ctxT(t), c))
	return c.Effects
}

func TestCommitWritesStateEventsAndEffectsTogether(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		written := commitWithEffects(t, db, g, "", effect("post", "a"), effect("edit", "b"))
		require.Len(t, written, 2)
		assert.Equal(t, g.ID, written[0].GameID)
		assert.Less(t, written[0].ID, written[1].ID)

		// A stale write changes nothing, effects included.
		stale := *g
		stale.Version = 0
		err := db.Commit(ctxT(t), &store.Commit{Game: &stale, Effects: []store.Effect{effect("post", "lost")}})
		require.ErrorIs(t, err, store.ErrConflict)
		all, err := db.Effects(ctxT(t), g.ID)
		require.NoError(t, err)
		require.Len(t, all, 2)
		n, err := db.PendingEffects(ctxT(t))
		require.NoError(t, err)
		assert.Equal(t, 2, n)
	})
}

func TestClaimEffectsInOrderPerGame(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		g1, g2 := newGame("c1"), newGame("c2")
		e1 := commitWithEffects(t, db, g1, "", effect("post", "1a"), effect("post", "1b"))
		e2 := commitWithEffects(t, db, g2, "", effect("post", "2a"))

		got, err := db.ClaimEffects(ctxT(t), "p1", time.Minute, 10)
		require.NoError(t, err)
		require.Len(t, got, 2, "only the head of each game's queue")
		assert.Equal(t, []int64{e1[0].ID, e2[0].ID}, []int64{got[0].ID, got[1].ID})
		assert.Equal(t, "1a", string(got[0].Payload))

		// Claimed: nobody else gets them, and 1b waits for 1a.
		other, err := db.ClaimEffects(ctxT(t), "p2", time.Minute, 10)
		require.NoError(t, err)
		assert.Empty(t, other)

		require.NoError(t, db.EffectDone(ctxT(t), "p1", e1[0].ID, "m100", &malefiz.MessageRecord{Role: malefiz.RoleTurn, MessageID: "m100"}))
		next, err := db.ClaimEffects(ctxT(t), "p2", time.Minute, 10)
		require.NoError(t, err)
		require.Len(t, next, 1)
		assert.Equal(t, e1[1].ID, next[0].ID)

		// The message ID went onto the game without a new version.
		stored, err := db.Game(ctxT(t), g1.ID)
		require.NoError(t, err)
		assert.Equal(t, "m100", stored.TurnMessageID)
		assert.Equal(t, g1.Version, stored.Version)

		// A claim that runs out is taken over; the first owner's answer then
		// counts for nothing.
		c.Advance(2 * time.Minute)
		taken, err := db.ClaimEffects(ctxT(t), "p3", time.Minute, 10)
		require.NoError(t, err)
		require.Len(t, taken, 2)
		err = db.EffectDone(ctxT(t), "p1", e2[0].ID, "late", nil)
		require.ErrorIs(t, err, store.ErrLeaseLost)
		require.NoError(t, db.EffectDone(ctxT(t), "p3", e2[0].ID, "m200", nil))
	})
}

// TestHeldElsewhere: whether another process is delivering the oldest
// effect of a game's main queue (its claim live), for the effects behind
// it to go out when it is done.
func TestHeldElsewhere(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		g := newGame("c1")
		held := func(owner string) bool {
			t.Helper()
			h, err := db.HeldElsewhere(ctxT(t), owner, g.ID)
			require.NoError(t, err)
			return h
		}
		require.NoError(t, db.CreateGame(ctxT(t), g))
		assert.False(t, held("p2"), "no effect")
		e := commitWithEffects(t, db, g, "p1", effect("post", "a"))
		commitWithEffects(t, db, g, "p2", effect("post", "b"))
		for _, tc := range []struct {
			name  string
			owner string
			want  bool
		}{
			{name: "another's live claim", owner: "p2", want: true},
			{name: "one's own", owner: "p1", want: false},
		} {
			assert.Equal(t, tc.want, held(tc.owner), tc.name)
		}
		require.NoError(t, db.RetryEffect(ctxT(t), "p1", e[0].ID, time.Minute, "429"))
		assert.False(t, held("p2"), "waiting for a retry")
		c.Advance(2 * time.Minute)
		taken, err := db.ClaimEffects(ctxT(t), "p3", time.Minute, 10)
		require.NoError(t, err)
		require.Len(t, taken, 1)
		assert.True(t, held("p2"), "claimed again by the loop of p3")
		c.Advance(2 * time.Minute)
		assert.False(t, held("p2"), "a claim that ran out")
		require.NoError(t, db.EffectDone(ctxT(t), "p3", e[0].ID, "m1", nil))
		assert.False(t, held("p1"), "the next is p2's, its claim run out")
	})
}

func TestRetryAndFailEffects(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		g := newGame("c1")
		e := commitWithEffects(t, db, g, "me", effect("post", "a"), effect("edit", "b"))

		// Claimed by the writer: the sender does not see them.
		got, err := db.ClaimEffects(ctxT(t), "sender", time.Minute, 10)
		require.NoError(t, err)
		assert.Empty(t, got)
		mine, err := db.ClaimedEffects(ctxT(t), "me", g.ID)
		require.NoError(t, err)
		require.Len(t, mine, 2)

		// A retry puts the first back for later and lets the second wait.
		require.NoError(t, db.RetryEffect(ctxT(t), "me", e[0].ID, 2*time.Second, "500 Internal Server Error"))
		next, ok, err := db.NextEffectAt(ctxT(t))
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, c.Now().Add(2*time.Second), next)
		got, err = db.ClaimEffects(ctxT(t), "sender", time.Minute, 10)
		require.NoError(t, err)
		assert.Empty(t, got, "not due yet")

		c.Advance(3 * time.Second)
		got, err = db.ClaimEffects(ctxT(t), "sender", time.Minute, 10)
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.Equal(t, e[0].ID, got[0].ID)
		assert.Equal(t, 1, got[0].Attempts)

		require.NoError(t, db.EffectFailed(ctxT(t), "sender", e[0].ID, "50013 Missing Permissions"))
		got, err = db.ClaimEffects(ctxT(t), "sender", time.Minute, 10)
		require.NoError(t, err)
		require.Len(t, got, 1, "a failed effect does not block the next")
		require.NoError(t, db.EffectDone(ctxT(t), "sender", got[0].ID, "ok", nil))

		states, err := db.Effects(ctxT(t), g.ID)
		require.NoError(t, err)
		require.Len(t, states, 2)
		assert.True(t, states[0].Done && states[0].Failed)
		assert.Equal(t, "50013 Missing Permissions", states[0].Result)
		assert.True(t, states[1].Done && !states[1].Failed)
		_, ok, err = db.NextEffectAt(ctxT(t))
		require.NoError(t, err)
		assert.False(t, ok)

		c.Advance(time.Hour)
		n, err := db.PruneEffects(ctxT(t), c.Now())
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
	})
}

func TestClaimEffectsConcurrently(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		const games = 20
		for i := range games {
			commitWithEffects(t, db, newGame("c"+string(rune('a'+i))), "", effect("post", "x"))
		}
		var mu sync.Mutex
		seen := map[int64]int{}
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got, err := db.ClaimEffects(ctxT(t), "w"+string(rune('0'+w)), time.Minute, games)
				assert.NoError(t, err)
				mu.Lock()
				defer mu.Unlock()
				for _, e := range got {
					seen[e.ID]++
				}
			}()
		}
		wg.Wait()
		assert.Len(t, seen, games)
		for id, n := range seen {
			assert.Equal(t, 1, n, "effect %d claimed %d times", id, n)
		}
	})
}

// TestRatedCompletesTheEffectsInTheCommit finishes a game with a Rated
// hook: it sees the ratings as rated in the transaction and what it writes
// into the effects is what the outbox holds; its error writes nothing.
func TestRatedCompletesTheEffectsInTheCommit(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		mustCreate(t, db, g)
		results := twoResults()

		failing := *g
		err := db.Commit(ctxT(t), &store.Commit{Game: &failing, Results: twoResults(), Effects: []store.Effect{effect("post", "x")},
			Rated: func([]malefiz.Result) error { return errors.New("no") }})
		require.Error(t, err)
		n, err := db.PendingEffects(ctxT(t))
		require.NoError(t, err)
		assert.Zero(t, n, "a failed Rated writes nothing")

		c := &store.Commit{Game: g, Results: results, Effects: []store.Effect{effect("post", "result")}}
		var seen []malefiz.Result
		c.Rated = func(rated []malefiz.Result) error {
			seen = append(seen, rated...)
			c.Effects[0].Payload = fmt.Appendf(nil, "result %.0f→%.0f", rated[0].RatingBefore, rated[0].RatingAfter)
			return nil
		}
		require.NoError(t, db.Commit(ctxT(t), c))
		require.Len(t, seen, 2)
		assert.NotEqual(t, seen[0].RatingBefore, seen[0].RatingAfter, "the winner's rating moved")
		all, err := db.Effects(ctxT(t), g.ID)
		require.NoError(t, err)
		require.Len(t, all, 1)
		assert.Equal(t, fmt.Sprintf("result %.0f→%.0f", seen[0].RatingBefore, seen[0].RatingAfter), string(all[0].Payload))
	})
}

// TestCreatedCommitsWhatNamesTheGameWithIt: the effects Created makes
// from a new game's ID are written in the game's own transaction, after
// the commit's other effects; when Created fails, neither the game nor any
// effect is written.
func TestCreatedCommitsWhatNamesTheGameWithIt(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		tests := []struct {
			name    string
			fail    bool
			effects int // the game's effects once committed
		}{
			{"Created fails", true, 0},
			{"Created names the game", false, 2},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				g := newGame("c-" + tt.name)
				g.Status = malefiz.StatusLobby
				var named int64
				c := &store.Commit{Game: g, Effects: []store.Effect{effect("adopt", "first")}, Owner: "me", Lease: time.Minute,
					Created: func(id int64) ([]store.Effect, error) {
						named = id
						if tt.fail {
							return nil, errors.New("no")
						}
						return []store.Effect{effect("post", fmt.Sprintf("mf/join/%d/0", id))}, nil
					}}
				err := db.Commit(ctxT(t), c)
				require.NotZero(t, named, "Created is told the ID")
				games, lerr := db.OpenGames(ctxT(t), g.GuildID, g.ChannelID)
				require.NoError(t, lerr)
				all, lerr := db.Effects(ctxT(t), named)
				require.NoError(t, lerr)
				if tt.fail {
					require.Error(t, err)
					assert.Empty(t, games, "no game without its messages")
					assert.Empty(t, all)
					assert.Zero(t, g.ID, "the game is unchanged")
					return
				}
				require.NoError(t, err)
				require.Len(t, games, 1)
				assert.Equal(t, named, g.ID)
				assert.Equal(t, int64(1), g.Version, "one write")
				require.Len(t, all, tt.effects)
				assert.Equal(t, "first", string(all[0].Payload))
				assert.Equal(t, fmt.Sprintf("mf/join/%d/0", g.ID), string(all[1].Payload), "the effect names the game")
				require.Len(t, c.Effects, 2, "the commit holds them all")
				assert.Equal(t, all[1].ID, c.Effects[1].ID)
				assert.Equal(t, g.ID, c.Effects[1].GameID)
			})
		}
	})
}

// TestRenewClaims: a live claim renewed lasts a lease from then, and the
// effects the claim gave carry when it runs out; a claim that ran out,
// another owner's or a recorded effect's is not renewed, and then none
// of the list is.
func TestRenewClaims(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		g := newGame("c1")
		written := commitWithEffects(t, db, g, "p1", effect("post", "a"), effect("post", "b"), effect("post", "c"))
		lease := 30 * time.Second
		assert.Equal(t, c.Now().Add(lease), written[0].LeaseUntil, "a commit's claim")
		held, err := db.ClaimedEffects(ctxT(t), "p1", g.ID)
		require.NoError(t, err)
		require.Len(t, held, 3)
		assert.Equal(t, c.Now().Add(lease), held[2].LeaseUntil)

		c.Advance(20 * time.Second)
		until, err := db.RenewClaims(ctxT(t), "p1", []int64{written[1].ID, written[2].ID}, lease)
		require.NoError(t, err)
		assert.Equal(t, c.Now().Add(lease), until)
		_, err = db.RenewClaims(ctxT(t), "p2", []int64{written[1].ID}, lease)
		require.ErrorIs(t, err, store.ErrLeaseLost, "another owner's claim")

		c.Advance(15 * time.Second) // a's claim ran out; b's and c's live on
		_, err = db.RenewClaims(ctxT(t), "p1", []int64{written[2].ID, written[0].ID}, lease)
		require.ErrorIs(t, err, store.ErrLeaseLost, "a claim that ran out")
		got, err := db.ClaimEffects(ctxT(t), "p2", lease, 10)
		require.NoError(t, err)
		require.Len(t, got, 1, "only a, whose claim ran out")
		assert.Equal(t, written[0].ID, got[0].ID)
		assert.Equal(t, c.Now().Add(lease), got[0].LeaseUntil, "a claim's end")
		require.NoError(t, db.RecordDeliveries(ctxT(t), "p2", []store.Delivery{{ID: got[0].ID, Result: "m1"}}))
		_, err = db.RenewClaims(ctxT(t), "p2", []int64{got[0].ID}, lease)
		require.ErrorIs(t, err, store.ErrLeaseLost, "a recorded effect")

		// Once b's and c's renewed claims ran out, the loop takes b,
		// the head of the queue.
		c.Advance(16 * time.Second)
		got, err = db.ClaimEffects(ctxT(t), "p2", lease, 10)
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.Equal(t, written[1].ID, got[0].ID, "b, the head, once both claims ran out")
	})
}
