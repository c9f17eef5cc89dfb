package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/store"
)

func TestSaveGrades(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := play(t, db, "c1", twoResults())
		ctx := ctxT(t)

		open, err := db.CoachingOpen(ctx)
		require.NoError(t, err)
		assert.Empty(t, open, "no game graded yet")

		first := []store.Grade{
			{Index: 1, Color: "red", Turn: 1, Roll: 6, Move: "home-c1", Best: "home-c1", Options: 1, Chance: 50, Luck: 2.5},
			{Index: 3, Color: "red", Turn: 3, Roll: 4, Move: "c1-c5", Best: "c1-e3", Options: 5, Loss: 7.25, Chance: 48, Luck: -1},
		}
		require.NoError(t, db.SaveGrades(ctx, &store.Coaching{GameID: g.ID, Grades: first}))
		open, err = db.CoachingOpen(ctx)
		require.NoError(t, err)
		assert.Equal(t, []int64{g.ID}, open, "begun, not final")

		// A grade saved again keeps the first; the final batch adds the
		// rest, the accuracies and the report.
		again := first[1]
		again.Loss = 99
		last := store.Grade{Index: 5, Color: "red", Turn: 5, Roll: 2, Best: "", Luck: -3}
		c := &store.Coaching{GameID: g.ID, Grades: []store.Grade{again, last}, Final: true,
			Accuracies: []store.Accuracy{{Color: "red", Accuracy: 81.5}},
			Effects:    []store.Effect{{Kind: "post", Payload: []byte(`{"op":"post"}`)}}}
		require.NoError(t, db.SaveGrades(ctx, c))
		assert.NotZero(t, c.Effects[0].ID, "the report is in the outbox")

		got, final, err := db.Grades(ctx, g.ID)
		require.NoError(t, err)
		assert.True(t, final)
		assert.Equal(t, append(first, last), got)
		gr, err := db.Grading(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, g.ID, gr.Game.ID)
		assert.Equal(t, malefiz.StatusFinished, gr.Game.Status)
		assert.NotEmpty(t, gr.Events, "the log, for the replay")
		assert.Equal(t, got, gr.Grades)
		assert.True(t, gr.Final)
		open, err = db.CoachingOpen(ctx)
		require.NoError(t, err)
		assert.Empty(t, open, "final")

		require.ErrorIs(t, db.SaveGrades(ctx, &store.Coaching{GameID: g.ID, Final: true}), store.ErrConflict, "final once")

		s, err := db.PlayerStats(ctx, "guild1", "u1")
		require.NoError(t, err)
		assert.Equal(t, 1, s.GradedGames)
		assert.InDelta(t, 81.5, s.Accuracy, 1e-9)
		s, err = db.PlayerStats(ctx, "guild1", "ai:easy")
		require.NoError(t, err)
		assert.Zero(t, s.GradedGames, "a computer is not graded")
	})
}

func TestGuildSettingsHints(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		s, err := db.GuildSettings(ctxT(t), "g1")
		require.NoError(t, err)
		assert.False(t, s.Hints, "off by default")
		s.Hints = true
		require.NoError(t, db.SetGuildSettings(ctxT(t), "g1", s))
		s, err = db.GuildSettings(ctxT(t), "g1")
		require.NoError(t, err)
		assert.True(t, s.Hints)
	})
}
