package store_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/store"
)

func TestCloseSignUpAndNote(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		tour := newTournament("c1")
		mustCreateTournament(t, db, tour)
		require.NoError(t, db.JoinTournament(ctxT(t), tour, entrant(1)))
		err := db.CloseSignUp(ctxT(t), tour)
		assert.ErrorIs(t, err, store.ErrConflict, "a sign-up of one is not closed")
		require.NoError(t, db.JoinTournament(ctxT(t), tour, entrant(2)))

		c.Advance(time.Minute)
		require.NoError(t, db.CloseSignUp(ctxT(t), tour, store.Effect{Queue: "card", Kind: "edit", Payload: []byte("closed")}))
		assert.Equal(t, 2, tour.Setup.MaxEntrants)
		assert.Equal(t, tour, readTournament(t, db, tour.ID))
		err = db.JoinTournament(ctxT(t), tour, entrant(3))
		assert.ErrorIs(t, err, store.ErrFull, "nobody joins a closed sign-up")

		version := tour.Version
		require.NoError(t, db.NoteTournament(ctxT(t), tour, store.Effect{Kind: "post", Payload: []byte("note")}))
		assert.Equal(t, version+1, tour.Version)
		effects, err := db.TournamentEffects(ctxT(t), tour.ID)
		require.NoError(t, err)
		assert.Equal(t, "note", string(effects[len(effects)-1].Payload), "the note's effect is in the tournament's outbox")
		kept := readTournament(t, db, tour.ID)
		assert.Equal(t, malefiz.TournamentSignUp, kept.Status, "a note changes nothing else")
		assert.Len(t, kept.Entrants, 2)

		require.NoError(t, db.CancelTournament(ctxT(t), tour))
		err = db.NoteTournament(ctxT(t), tour)
		assert.ErrorIs(t, err, store.ErrConflict, "no note on a tournament over")
	})
}
