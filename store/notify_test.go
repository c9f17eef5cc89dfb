package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/store"
)

// TestListenGames commits a change through one handle and hears it on the
// other (PostgreSQL LISTEN/NOTIFY, as two replicas of the bot): a
// committed change is announced with its game, one that conflicts is not,
// and a process does not hear its own. SQLite announces nothing.
func TestListenGames(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		one, two, _ := openTwo(t, b)
		ctx, cancel := context.WithCancel(ctxT(t))
		defer cancel()
		heard := make(chan int64, 16)
		listened := make(chan error, 1)
		go func() { listened <- two.ListenGames(ctx, "replica two", func(id int64) { heard <- id }) }()
		if b.Name != "postgres" {
			require.ErrorIs(t, <-listened, store.ErrNoListen)
			return
		}
		// LISTEN is in place once a notification of a probe comes back.
		g := newGame("c1")
		probes := 0
		// A probe's notification can arrive after the next probe is sent
		// (a loaded machine): what is heard of a probe is set aside.
		probed := map[int64]bool{}
		require.Eventually(t, func() bool {
			probes++
			probe := newGame(fmt.Sprintf("probe%d", probes))
			if one.Commit(ctxT(t), &store.Commit{Game: probe, Owner: "one", Events: []malefiz.Event{{Kind: malefiz.EventStart}}}) != nil {
				return false
			}
			probed[probe.ID] = true
			select {
			case <-heard:
				return true
			case <-time.After(50 * time.Millisecond):
				return false
			}
		}, 10*time.Second, time.Millisecond)
		for len(heard) > 0 {
			<-heard
		}

		next := func() int64 {
			for {
				if id := receive(t, heard); !probed[id] {
					return id
				}
			}
		}
		require.NoError(t, one.Commit(ctxT(t), &store.Commit{Game: g, Owner: "one", Events: []malefiz.Event{{Kind: malefiz.EventStart}}}))
		assert.Equal(t, g.ID, next(), "the other replica hears the change")

		stale := *g
		stale.Version--
		require.ErrorIs(t, one.Commit(ctxT(t), &store.Commit{Game: &stale, Owner: "one", Events: []malefiz.Event{{Kind: malefiz.EventRoll}}}), store.ErrConflict)
		own, err := two.Game(ctxT(t), g.ID)
		require.NoError(t, err)
		require.NoError(t, two.Commit(ctxT(t), &store.Commit{Game: own, Owner: "replica two", Events: []malefiz.Event{{Kind: malefiz.EventRoll}}}))
		fresh, err := one.Game(ctxT(t), g.ID)
		require.NoError(t, err)
		require.NoError(t, one.Commit(ctxT(t), &store.Commit{Game: fresh, Owner: "one", Events: []malefiz.Event{{Kind: malefiz.EventRoll}}}))
		assert.Equal(t, g.ID, next(), "the next change is heard")
		for quiet := time.After(200 * time.Millisecond); ; {
			select {
			case id := <-heard:
				if !probed[id] {
					t.Fatalf("heard game %d once more: the conflict or the listener's own change was announced", id)
				}
				continue
			case <-quiet:
			}
			break
		}
		cancel()
		assert.NoError(t, <-listened, "ListenGames ends with its context")
	})
}

// receive returns the next game heard, within 5 s.
func receive(t *testing.T, heard chan int64) int64 {
	t.Helper()
	select {
	case id := <-heard:
		return id
	case <-time.After(5 * time.Second):
		t.Fatal("no change heard within 5 s")
		return 0
	}
}
