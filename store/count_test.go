package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/store"
)

func TestRunningGames(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		n, err := db.RunningGames(ctxT(t))
		require.NoError(t, err)
		assert.Zero(t, n)
		for _, ch := range []string{"c1", "c2", "c3"} {
			mustCreate(t, db, newGame(ch))
		}
		lobby := newGame("c4")
		lobby.Status = malefiz.StatusLobby
		mustCreate(t, db, lobby)
		n, err = db.RunningGames(ctxT(t))
		require.NoError(t, err)
		assert.Equal(t, 3, n, "running games; the lobby not counted")
	})
}
