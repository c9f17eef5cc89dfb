package store_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/store"
)

func TestLoadGameReadsTheGameWithItsSettings(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		require.NoError(t, db.CreateGame(ctxT(t), g))
		gs := malefiz.DefaultGuildSettings()
		gs.Reminders = false
		require.NoError(t, db.SetGuildSettings(ctxT(t), g.GuildID, gs))
		require.NoError(t, db.SetUserSettings(ctxT(t), g.Seats[0].UserID, malefiz.UserSettings{DM: true}))
		require.NoError(t, db.SetUserSettings(ctxT(t), "someone", malefiz.UserSettings{DMRefused: true}))

		before := db.Counts().Reads
		l, err := db.LoadGame(ctxT(t), g.ID, "someone", "nobody")
		require.NoError(t, err)
		assert.Equal(t, before+1, db.Counts().Reads, "one read transaction")
		assert.Equal(t, g.ID, l.Game.ID)
		assert.Len(t, l.Game.Seats, len(g.Seats))
		assert.False(t, l.Guild.Reminders)
		assert.True(t, l.Users[g.Seats[0].UserID].DM)
		assert.True(t, l.Users["someone"].DMRefused)
		us, ok := l.Users["nobody"]
		assert.True(t, ok, "a user who set nothing has the defaults")
		assert.False(t, us.DM)

		// More users than the prepared read takes at once are read too.
		many := []string{"x1", "x2", "x3", "x4", "x5", "someone"}
		l, err = db.LoadGame(ctxT(t), g.ID, many...)
		require.NoError(t, err)
		for _, u := range many {
			assert.Contains(t, l.Users, u)
		}
		assert.True(t, l.Users["someone"].DMRefused)
		assert.True(t, l.Users[g.Seats[0].UserID].DM)
		assert.NotContains(t, l.Users, "", "the prepared read's unused parameters are no user")

		_, err = db.LoadGame(ctxT(t), g.ID+100)
		assert.ErrorIs(t, err, store.ErrNotFound)
	})
}

func TestCommitSaysWhetherItsEffectsHeadTheQueue(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		c := &store.Commit{Game: g, Effects: []store.Effect{effect("post", "a")}, Owner: "p1", Lease: time.Minute}
		require.NoError(t, db.Commit(ctxT(t), c))
		assert.True(t, c.Head)

		c2 := &store.Commit{Game: g, Effects: []store.Effect{effect("edit", "b"), effect("dm", "c")}, Owner: "p1", Lease: time.Minute}
		require.NoError(t, db.Commit(ctxT(t), c2))
		assert.False(t, c2.Head, "the first commit's effect is still pending")

		// One transaction records the outcomes of several deliveries.
		before := db.Counts().Writes
		require.NoError(t, db.RecordDeliveries(ctxT(t), "p1", []store.Delivery{{ID: c.Effects[0].ID, Result: "m1",
			Record: &malefiz.MessageRecord{Role: malefiz.RoleTurn, MessageID: "m1"}}}))
		require.NoError(t, db.RecordDeliveries(ctxT(t), "p1", []store.Delivery{
			{ID: c2.Effects[0].ID, Result: "m1"}, {ID: c2.Effects[1].ID, Failed: true, Result: "closed"}}))
		assert.Equal(t, before+2, db.Counts().Writes)
		got, err := db.Game(ctxT(t), g.ID)
		require.NoError(t, err)
		assert.Equal(t, "m1", got.TurnMessageID)
		n, err := db.PendingEffects(ctxT(t))
		require.NoError(t, err)
		assert.Zero(t, n)

		// An outcome that is no longer the owner's records nothing.
		c3 := &store.Commit{Game: g, Effects: []store.Effect{effect("post", "d")}, Owner: "p1", Lease: time.Minute}
		require.NoError(t, db.Commit(ctxT(t), c3))
		err = db.RecordDeliveries(ctxT(t), "p2", []store.Delivery{{ID: c3.Effects[0].ID}})
		assert.ErrorIs(t, err, store.ErrLeaseLost)
	})
}

// TestUserLocaleIsKeptBesideTheSettings: the locale an interaction gives is
// read with the game's users, survives a change of the other settings, and
// does not undo them.
func TestUserLocaleIsKeptBesideTheSettings(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		require.NoError(t, db.CreateGame(ctxT(t), g))
		u := g.Seats[0].UserID
		require.NoError(t, db.SetUserSettings(ctxT(t), u, malefiz.UserSettings{DM: true}))
		require.NoError(t, db.SetUserLocale(ctxT(t), u, "de"))
		require.NoError(t, db.SetUserSettings(ctxT(t), u, malefiz.UserSettings{DM: true, PingAlways: true, Locale: "fr"}))
		require.NoError(t, db.SetUserLocale(ctxT(t), "newcomer", "pt-BR"))

		us, err := db.UserSettings(ctxT(t), u)
		require.NoError(t, err)
		assert.Equal(t, malefiz.UserSettings{DM: true, PingAlways: true, Locale: "de"}, us)
		l, err := db.LoadGame(ctxT(t), g.ID, "newcomer")
		require.NoError(t, err)
		assert.Equal(t, "de", l.Users[u].Locale)
		assert.Equal(t, malefiz.UserSettings{Locale: "pt-BR"}, l.Users["newcomer"])
	})
}
