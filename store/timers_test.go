package store_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/store"
)

func TestClaimDueGames(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		var ids []int64
		for i, ch := range []string{"c1", "c2", "c3"} {
			g := newGame(ch)
			g.WakeAt = c.Now().Add(time.Duration(i-1) * time.Minute) // due, due, later
			mustCreate(t, db, g)
			ids = append(ids, g.ID)
		}
		got, err := db.ClaimDueGames(ctxT(t), "p1", c.Now(), time.Minute, 10)
		require.NoError(t, err)
		assert.Equal(t, ids[:2], got, "the due games, earliest first")

		other, err := db.ClaimDueGames(ctxT(t), "p2", c.Now(), time.Minute, 10)
		require.NoError(t, err)
		assert.Empty(t, other, "claimed by p1")
		again, err := db.ClaimDueGames(ctxT(t), "p1", c.Now(), time.Minute, 10)
		require.NoError(t, err)
		assert.Equal(t, ids[:2], again, "p1 may take its own claims again")

		c.Advance(2 * time.Minute) // p1 died: its claims lapse; the third is due now
		taken, err := db.ClaimDueGames(ctxT(t), "p2", c.Now(), time.Minute, 10)
		require.NoError(t, err)
		assert.ElementsMatch(t, ids, taken)
	})
}
