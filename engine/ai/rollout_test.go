package ai

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

func TestParseRolloutPolicy(t *testing.T) {
	for _, s := range []string{"fast", "reply", "hard", "greedy"} {
		p, err := ParseRolloutPolicy(s)
		require.NoError(t, err, s)
		assert.Equal(t, RolloutPolicy(s), p)
	}
	_, err := ParseRolloutPolicy("lucky")
	assert.Error(t, err)
}

// TestRolloutPolicies plays a race out by every kind of policy: the
// chances add up, replay from the seed, and favour the pawn next to the
// goal; the policies that weigh moves let a pawn wait on the square before
// the goal, which the fast policy walks off.
func TestRolloutPolicies(t *testing.T) {
	// Red stands on i13, one step before the goal, with four pawns at home
	// to move instead; blue's lone pawn is far.
	pos := mustPosition(t, "players=rb turn=b r=i13 b=c5 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,j13")
	for _, policy := range []RolloutPolicy{FastPolicy, ReplyPolicy, RolloutPolicy(Normal)} {
		est := RolloutEstimator{Rollouts: 60, Seed: 3, Policy: policy}
		if policy == RolloutPolicy(Normal) {
			est.Rollouts = 8 // a level's players weigh every placement: slow
		}
		ch := est.Chances(pos, engine.Rules{})
		assert.InDelta(t, 1, ch[engine.Red]+ch[engine.Blue], 1e-9, "%s: the chances add up", policy)
		assert.Equal(t, ch, est.Chances(pos, engine.Rules{}), "%s: the same seed, the same rollouts", policy)
		if policy != FastPolicy {
			assert.Greater(t, ch[engine.Red], 0.9, "%s waits on i13 for a 1", policy)
		}
	}
	// The fast policy walks red's pawn off i13 on the other rolls.
	fast := RolloutEstimator{Rollouts: 60, Seed: 3}.Chances(pos, engine.Rules{})
	reply := RolloutEstimator{Rollouts: 60, Seed: 3, Policy: ReplyPolicy}.Chances(pos, engine.Rules{})
	assert.Less(t, fast[engine.Red], reply[engine.Red])
	won := mustPosition(t, "players=rb turn=r r=i14 b= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11")
	assert.Equal(t, 1.0, RolloutEstimator{Rollouts: 5, Policy: ReplyPolicy}.Chances(won, engine.Rules{})[engine.Red])
}

func TestSearchChances(t *testing.T) {
	pos := mustPosition(t, "players=rgy turn=y r=c1,c4,j9 g=d1 y=m7 x=i2,q3,f7,k7,l7,g9,f11,i11,l11,n11,i13")
	ch := SearchChances(pos, engine.Rules{})
	assert.InDelta(t, 1, ch[engine.Red]+ch[engine.Green]+ch[engine.Yellow], 1e-9)
	assert.Zero(t, ch[engine.Blue], "not in play")
	for _, c := range pos.Players() {
		assert.Positive(t, ch[c], "%s", c)
	}
	near := mustPosition(t, "players=rb turn=r r=i13 b= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11")
	assert.Greater(t, SearchChances(near, engine.Rules{})[engine.Red], 0.9)
	won := mustPosition(t, "players=rb turn=r r=i14 b= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11")
	assert.Equal(t, 1.0, SearchChances(won, engine.Rules{})[engine.Red])
}

// TestPlayOut checks the games the estimator's training plays out from
// unusual positions: from the position given, to a winner, replaying from
// the seed.
func TestPlayOut(t *testing.T) {
	pos := mustPosition(t, "players=rgy turn=r r=d1,e11,q12,m13 g=i13 y=g13 x=m6,l7,m7,d11,f11,j11,k11,h13,j13,l13,q13")
	g, err := PlayOut(pos, engine.Rules{SixAgain: true}, 4)
	require.NoError(t, err)
	require.NotEmpty(t, g.Positions)
	assert.Equal(t, pos, g.Positions[0])
	assert.True(t, pos.InPlay(g.Winner))
	assert.Len(t, g.Levels, 3)
	again, err := PlayOut(pos, engine.Rules{SixAgain: true}, 4)
	require.NoError(t, err)
	assert.Equal(t, g, again)

	games := []GameRecord{}
	for i := range 3 {
		mixed, err := PlayMixedGame(1, i, []Level{Greedy})
		require.NoError(t, err)
		games = append(games, mixed)
	}
	made := 0
	for j := range 6 {
		u, ok, err := UnusualGame(games, 1, j)
		require.NoError(t, err)
		if ok {
			made++
			assert.Len(t, u.Levels, len(games[j%3].Levels), "game %d", j)
			assert.NotEqual(t, games[j%3].Positions[0], u.Positions[0], "game %d starts late", j)
		}
	}
	assert.Positive(t, made)
}
