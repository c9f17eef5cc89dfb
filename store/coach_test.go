package store_test

import (
	"testing"
	"time"

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

// TestClaimGrading: the games waiting for the coach are in the database,
// claimed one at a time by whichever coach asks (finished games first, the
// longest waiting next), let go or taken over once a claim runs out, and
// marked again by a commit while they are graded.
func TestClaimGrading(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, clk := openTest(t, b)
		ctx := ctxT(t)
		move := malefiz.Event{Kind: malefiz.EventMove, Color: "red", Data: "home-c1"}

		_, ok, err := db.ClaimGrading(ctx, "a", time.Minute)
		require.NoError(t, err)
		assert.False(t, ok, "nothing waits")

		older, newer := newGame("c1"), newGame("c2")
		mustCreate(t, db, older)
		mustCreate(t, db, newer)
		require.NoError(t, db.Commit(ctx, &store.Commit{Game: older, Events: []malefiz.Event{move}, Coach: true}))
		clk.Advance(time.Second)
		require.NoError(t, db.Commit(ctx, &store.Commit{Game: newer, Events: []malefiz.Event{move}, Coach: true}))
		clk.Advance(time.Second)
		require.NoError(t, db.Commit(ctx, &store.Commit{Game: older, Events: []malefiz.Event{move}, Coach: true}))
		clk.Advance(3 * time.Second)
		backlog, err := db.CoachBacklog(ctx)
		require.NoError(t, err)
		assert.Equal(t, store.Backlog{Games: 2, Oldest: 5 * time.Second}, backlog, "waiting since its first commit")

		// A game that finishes goes before both.
		done := play(t, db, "c3", twoResults())
		require.NoError(t, db.SaveGrades(ctx, &store.Coaching{GameID: done.ID})) // begun before
		require.NoError(t, db.Commit(ctx, &store.Commit{Game: newGame("c4"), Coach: false}))
		finishing := newGame("c5")
		mustCreate(t, db, finishing)
		require.NoError(t, db.Commit(ctx, &store.Commit{Game: finishing, Events: []malefiz.Event{{Kind: malefiz.EventWin, Color: "red"}},
			Results: twoResults(), Coach: true}))

		claim, ok, err := db.ClaimGrading(ctx, "a", time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, store.Claim{GameID: finishing.ID, Finished: true}, claim)
		claim, ok, err = db.ClaimGrading(ctx, "b", time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, done.ID, claim.GameID, "a grading begun before the claims is taken up")
		claim, ok, err = db.ClaimGrading(ctx, "b", time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, store.Claim{GameID: older.ID, Waited: 5 * time.Second}, claim, "the longest waiting")

		// A commit while older is graded marks it again: claimed again
		// once let go, not before.
		require.NoError(t, db.Commit(ctx, &store.Commit{Game: older, Events: []malefiz.Event{move}, Coach: true}))
		claim, ok, err = db.ClaimGrading(ctx, "a", time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, newer.ID, claim.GameID)
		_, ok, err = db.ClaimGrading(ctx, "a", time.Minute)
		require.NoError(t, err)
		assert.False(t, ok, "every waiting game is claimed")
		clk.Advance(2 * time.Second)
		require.NoError(t, db.SaveGrades(ctx, &store.Coaching{GameID: older.ID, Owner: "b", Release: true,
			Grades: []store.Grade{{Index: 1, Color: "red", Turn: 1, Roll: 3, Move: "home-c1", Skipped: true}}}))
		claim, ok, err = db.ClaimGrading(ctx, "a", time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, store.Claim{GameID: older.ID, Waited: 2 * time.Second}, claim)
		grades, _, err := db.Grades(ctx, older.ID)
		require.NoError(t, err)
		assert.Equal(t, []store.Grade{{Index: 1, Color: "red", Turn: 1, Roll: 3, Move: "home-c1", Skipped: true}}, grades)

		// A claim renewed holds; one that runs out (its coach stopped)
		// is taken over.
		clk.Advance(50 * time.Second)
		require.NoError(t, db.SaveGrades(ctx, &store.Coaching{GameID: newer.ID, Owner: "a", Lease: time.Minute}))
		clk.Advance(20 * time.Second)
		taken := map[int64]bool{}
		for {
			claim, ok, err := db.ClaimGrading(ctx, "c", time.Minute)
			require.NoError(t, err)
			if !ok {
				break
			}
			taken[claim.GameID] = true
		}
		assert.Equal(t, map[int64]bool{finishing.ID: true, done.ID: true, older.ID: true}, taken,
			"the claims that ran out are taken over; newer's was renewed")

		// A final game is never claimed again, nor marked: whether or
		// not the store takes a change of a finished game, its grading
		// stays final.
		require.NoError(t, db.SaveGrades(ctx, &store.Coaching{GameID: finishing.ID, Owner: "c", Release: true, Final: true}))
		if err := db.Commit(ctx, &store.Commit{Game: finishing, Coach: true}); err == nil {
			_, final, err := db.Grades(ctx, finishing.ID)
			require.NoError(t, err)
			assert.True(t, final)
		}
		clk.Advance(time.Hour)
		seen := map[int64]bool{}
		for {
			claim, ok, err := db.ClaimGrading(ctx, "d", time.Minute)
			require.NoError(t, err)
			if !ok {
				break
			}
			seen[claim.GameID] = true
		}
		assert.Equal(t, map[int64]bool{done.ID: true, older.ID: true, newer.ID: true}, seen, "every claim ran out; the final game is not among them")

		counts := db.Counts()
		assert.Positive(t, counts.CoachWrites)
		assert.Positive(t, counts.CoachReads)
		assert.Less(t, counts.CoachWrites, counts.Writes)
	})
}

// TestResumeCoaching: a grading begun and interrupted waits again: at once
// when its coach let it go on a shutdown (Again), and for a coach that
// starts when moves were committed while none ran.
func TestResumeCoaching(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		ctx := ctxT(t)
		g := newGame("c1")
		mustCreate(t, db, g)
		require.NoError(t, db.Commit(ctx, &store.Commit{Game: g, Events: []malefiz.Event{{Kind: malefiz.EventMove, Color: "red", Data: "home-c1"}}, Coach: true}))
		claim, ok, err := db.ClaimGrading(ctx, "a", time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		require.NoError(t, db.SaveGrades(ctx, &store.Coaching{GameID: claim.GameID, Owner: "a", Release: true, Again: true}))
		claim, ok, err = db.ClaimGrading(ctx, "b", time.Minute)
		require.NoError(t, err)
		require.True(t, ok, "interrupted: it waits again")
		require.NoError(t, db.SaveGrades(ctx, &store.Coaching{GameID: claim.GameID, Owner: "b", Release: true}))
		_, ok, err = db.ClaimGrading(ctx, "b", time.Minute)
		require.NoError(t, err)
		require.False(t, ok, "let go after its grading: nothing waits")

		// Moves committed with the coach off mark nothing; a coach that
		// starts takes the begun grading up.
		require.NoError(t, db.Commit(ctx, &store.Commit{Game: g, Events: []malefiz.Event{{Kind: malefiz.EventMove, Color: "red", Data: "c1-c2"}}}))
		_, ok, err = db.ClaimGrading(ctx, "c", time.Minute)
		require.NoError(t, err)
		require.False(t, ok)
		require.NoError(t, db.ResumeCoaching(ctx))
		claim, ok, err = db.ClaimGrading(ctx, "c", time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, g.ID, claim.GameID)
	})
}
