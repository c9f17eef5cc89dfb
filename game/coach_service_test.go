package game

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
// game is queued.
func TestTheCoachOff(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.CoachOff = true })
	id := e.running()
	e.must(id, ann, e.firstMove(id, ann))
	e.s.RunCoach(t.Context())
	_, ok := e.s.coach.next()
	assert.False(t, ok)
}
