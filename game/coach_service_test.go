package game

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
)

// TestTheCoachGradesAGame: the commits of a game with a person queue it
// for the coach; its loop grades every roll of the person, and once the
// game is over (a few moves, then the person resigns: grading is the
// engine's long search, slow under the race detector) and graded whole
// its verdict goes out with the last grades, and its grading is final.
func TestTheCoachGradesAGame(t *testing.T) {
	e := newEnv(t)
	id := e.running()
	sg := e.stored(id)
	for i := range 4 {
		who := []table.Actor{ann, ben}[i%2]
		_, err := e.s.Apply(t.Context(), Command{Game: id, Guild: e.fake.GuildID, User: who, Action: e.firstMove(id, who)})
		require.NoError(t, err)
	}
	e.must(id, ben, Resign{})
	e.s.Wait()
	posts := len(e.fake.ChannelMessages(e.stored(sg.ID).ThreadID))

	runCtx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { e.s.RunCoach(runCtx); close(done) }()
	require.Eventually(t, func() bool {
		_, final, err := e.db.Grades(t.Context(), sg.ID)
		return err == nil && final
	}, 60*time.Second, 20*time.Millisecond, "the game graded whole")
	stop()
	<-done
	grades, final, err := e.db.Grades(t.Context(), sg.ID)
	require.NoError(t, err)
	assert.True(t, final)
	require.NotEmpty(t, grades)
	for _, g := range grades {
		assert.Contains(t, []string{"red", "green"}, g.Color, "the people's rolls")
	}
	got, err := EngineGrades(grades)
	require.NoError(t, err)
	assert.Len(t, got, len(grades))
	require.Eventually(t, func() bool {
		_, _ = e.out.Pass(t.Context())
		return len(e.fake.ChannelMessages(e.stored(sg.ID).ThreadID)) > posts
	}, 10*time.Second, 20*time.Millisecond, "the verdict posted")

	rp, err := e.s.Review(t.Context(), id, e.fake.GuildID, ann)
	require.NoError(t, err)
	require.NotNil(t, rp)
	assert.Equal(t, table.Private, rp.Kind, "Ann's review, for her alone")
	var ref *table.Refusal
	_, err = e.s.Review(t.Context(), id, "999", ann)
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, locales.ErrForeignButton, ref.Key)
	_, err = e.s.Review(t.Context(), 1<<40, e.fake.GuildID, ann)
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, locales.ErrNoSuchGame, ref.Key)
}

// TestTheCoachOff: with the coach off, RunCoach returns at once and no
// commit marks a game as waiting for it.
func TestTheCoachOff(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.CoachOff = true })
	id := e.running()
	e.must(id, ann, e.firstMove(id, ann))
	e.s.RunCoach(t.Context())
	backlog, err := e.db.CoachBacklog(t.Context())
	require.NoError(t, err)
	assert.Zero(t, backlog.Games)
}

// finishedGames plays n games of Ann and Ben a few moves each, Ben
// resigning, and returns their IDs.
func (e *env) finishedGames(n int) []int64 {
	var ids []int64
	for range n {
		id := e.running()
		for i := range 4 {
			who := []table.Actor{ann, ben}[i%2]
			_, err := e.s.Apply(e.t.Context(), Command{Game: id, Guild: e.fake.GuildID, User: who, Action: e.firstMove(id, who)})
			require.NoError(e.t, err)
		}
		e.must(id, ben, Resign{})
		ids = append(ids, id)
	}
	e.s.Wait()
	return ids
}

// TestTheCoachSkipsWhatWaitedTooLong: a game that waited for the coach
// past its bound has its waiting rolls skipped, not graded, and its
// verdict says how many moves were not graded; they count in no accuracy.
func TestTheCoachSkipsWhatWaitedTooLong(t *testing.T) {
	e := newEnv(t)
	e.s.coach.stale = -1 // every wait is too long
	id := e.finishedGames(1)[0]
	backlog, err := e.db.CoachBacklog(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, backlog.Finished, "the finished game waits")

	n, err := e.s.coach.pass(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	grades, final, err := e.db.Grades(t.Context(), id)
	require.NoError(t, err)
	assert.True(t, final)
	require.NotEmpty(t, grades)
	assert.Equal(t, len(grades), Skipped(grades), "every roll skipped")
	got, err := EngineGrades(grades)
	require.NoError(t, err)
	assert.Empty(t, got, "a skipped roll is no grade")

	sg := e.stored(id)
	require.Eventually(t, func() bool {
		_, _ = e.out.Pass(t.Context())
		for _, m := range append(e.fake.ChannelMessages(sg.ThreadID), e.fake.ChannelMessages(sg.ChannelID)...) {
			if strings.Contains(m.Content, fmt.Sprintf("%d of %d moves were not graded", len(grades), len(grades))) {
				return true
			}
		}
		return false
	}, 10*time.Second, 20*time.Millisecond, "the verdict says what the coach could not grade")
	backlog, err = e.db.CoachBacklog(t.Context())
	require.NoError(t, err)
	assert.Zero(t, backlog.Games, "nothing waits")
}

// TestTwoCoachesShareTheGrading: two services on one database (two
// replicas) run their coaches at once over the same finished games: each
// game is claimed by one of them at a time, graded whole once, and its
// verdict queued once.
func TestTwoCoachesShareTheGrading(t *testing.T) {
	e := newEnv(t)
	e.s.coach.stale = -1 // skip rather than grade: the claims are what is tested
	ids := e.finishedGames(4)
	other := New(Config{Store: e.db, Outbox: e.out, Layout: textLayout{}, Owner: "other"})
	other.coach.stale = -1
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i, s := range []*Service{e.s, other} {
		wg.Go(func() {
			n, err := s.coach.pass(t.Context())
			assert.NoError(t, err)
			counts[i] = n
		})
	}
	wg.Wait()
	assert.Equal(t, len(ids), counts[0]+counts[1], "each game claimed once: %v", counts)
	for _, id := range ids {
		_, final, err := e.db.Grades(t.Context(), id)
		require.NoError(t, err)
		assert.True(t, final, "game %d", id)
		effects, err := e.db.Effects(t.Context(), id)
		require.NoError(t, err)
		verdicts := 0
		for _, ef := range effects {
			if strings.Contains(string(ef.Payload), "not graded") {
				verdicts++
			}
		}
		assert.Equal(t, 1, verdicts, "game %d: one verdict", id)
	}
}

// TestTheCoachEndsACancelledGame: a game cancelled while it runs is
// graded no further; its grading is final at once.
func TestTheCoachEndsACancelledGame(t *testing.T) {
	e := newEnv(t)
	id := e.running()
	_, err := e.s.Apply(t.Context(), Command{Game: id, Guild: e.fake.GuildID, User: ann, Action: e.firstMove(id, ann)})
	require.NoError(t, err)
	manager := ann
	manager.Manager = true
	e.must(id, manager, Cancel{})
	require.Equal(t, malefiz.StatusCancelled, e.stored(id).Status)
	e.s.Wait()

	runCtx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { e.s.RunCoach(runCtx); close(done) }()
	require.Eventually(t, func() bool {
		_, final, err := e.db.Grades(t.Context(), id)
		return err == nil && final
	}, 60*time.Second, 20*time.Millisecond, "the grading ended")
	stop()
	<-done
}

// TestTheCoachOffGradesNothing: with the coach off, RunCoach returns at
// once and a finished game is not graded.
func TestTheCoachOffGradesNothing(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.CoachOff = true })
	id := e.running()
	_, err := e.s.Apply(t.Context(), Command{Game: id, Guild: e.fake.GuildID, User: ann, Action: e.firstMove(id, ann)})
	require.NoError(t, err)
	e.must(id, ben, Resign{})
	e.s.Wait()
	e.s.RunCoach(t.Context()) // returns: nothing to run
	grades, final, err := e.db.Grades(t.Context(), id)
	require.NoError(t, err)
	assert.Empty(t, grades)
	assert.False(t, final)
}
