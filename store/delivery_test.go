package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/store"
)

// TestMarkDMRefused: a refused DM sets dm_refused alone, for a user with
// settings or without.
func TestMarkDMRefused(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		for _, tc := range []struct {
			name   string
			before *malefiz.UserSettings
			want   malefiz.UserSettings
		}{
			{name: "a user with settings", before: &malefiz.UserSettings{DM: true, PingAlways: true},
				want: malefiz.UserSettings{DM: true, DMRefused: true, PingAlways: true}},
			{name: "a user who turned DMs off meanwhile", before: &malefiz.UserSettings{},
				want: malefiz.UserSettings{DMRefused: true}},
			{name: "a user without settings", want: malefiz.UserSettings{DM: true, DMRefused: true}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				user := "user " + tc.name
				if tc.before != nil {
					require.NoError(t, db.SetUserSettings(ctxT(t), user, *tc.before))
				}
				require.NoError(t, db.MarkDMRefused(ctxT(t), user))
				got, err := db.UserSettings(ctxT(t), user)
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
			})
		}
	})
}

// TestRewriteUndeliveredEffects: the effects of a kind not delivered yet
// are listed, and rewritten while they stay undelivered.
func TestRewriteUndeliveredEffects(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("chan")
		mustCreate(t, db, g)
		c := &store.Commit{Game: g, Effects: []store.Effect{
			{Kind: "post", Payload: []byte(`{"n":1}`)}, {Kind: "edit", Payload: []byte(`{"n":2}`)}, {Kind: "post", Payload: []byte(`{"n":3}`)}}}
		require.NoError(t, db.Commit(ctxT(t), c))
		require.NoError(t, db.EffectDone(ctxT(t), "", c.Effects[0].ID, "done", nil))

		posts, err := db.UndeliveredEffects(ctxT(t), "post")
		require.NoError(t, err)
		require.Len(t, posts, 1)
		assert.Equal(t, c.Effects[2].ID, posts[0].ID)
		assert.JSONEq(t, `{"n":3}`, string(posts[0].Payload))

		ok, err := db.RewriteEffect(ctxT(t), posts[0].ID, []byte(`{"n":4}`))
		require.NoError(t, err)
		assert.True(t, ok)
		ok, err = db.RewriteEffect(ctxT(t), c.Effects[0].ID, []byte(`{"n":5}`))
		require.NoError(t, err)
		assert.False(t, ok, "a delivered effect stays as it went")
		states, err := db.Effects(ctxT(t), g.ID)
		require.NoError(t, err)
		assert.JSONEq(t, `{"n":1}`, string(states[0].Payload))
		assert.JSONEq(t, `{"n":4}`, string(states[2].Payload))
	})
}
