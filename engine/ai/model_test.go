package ai

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

func TestModelRoundTrip(t *testing.T) {
	data, err := MarshalModel(Models{Chances: learned, Play: learnedPlay}, TrainInfo{Seed: 1, Games: 600})
	require.NoError(t, err)
	got, info, err := ParseModel(data)
	require.NoError(t, err)
	assert.Equal(t, *learned, *got.Chances)
	assert.Equal(t, *learnedPlay, *got.Play)
	assert.Equal(t, 600, info.Games)
	_, _, err = ParseModel([]byte(`{"features":["x"]}`))
	assert.Error(t, err, "other features")
}

func TestFitImprovesOnTheHeuristic(t *testing.T) {
	pool := []Level{Greedy, Easy, Normal}
	var games []GameRecord
	for i := range 9 {
		g, err := PlayMixedGame(11, i, pool)
		require.NoError(t, err)
		games = append(games, g)
	}
	again, err := PlayMixedGame(11, 4, pool)
	require.NoError(t, err)
	require.Equal(t, games[4], again, "a game of the series replays")
	ms, info := Fit(games)
	require.Greater(t, info.Positions, 100)
	fitted := Calibrate(games, ms.Chances.Chances, 1)
	play := Calibrate(games, ms.Play.Chances, 1)
	heuristic := Calibrate(games, HeuristicChances, 1)
	assert.Less(t, fitted.LogLoss, heuristic.LogLoss, "the fit on its own games")
	assert.Less(t, play.LogLoss, heuristic.LogLoss, "the play model on its own games")
	for k := range ms.Play.Weights {
		for f, w := range ms.Play.Weights[k] {
			if !playFeatures[f] {
				assert.Zero(t, w, "play model feature %s", featureNames[f])
			}
		}
	}
}

func TestWinChances(t *testing.T) {
	start := engine.StartPosition()
	ch := WinChances(start, engine.Rules{})
	sum := 0.0
	for c, p := range ch {
		assert.InDelta(t, 0.25, p, 0.05, "%s at the start", engine.Color(c))
		sum += p
	}
	assert.InDelta(t, 1, sum, 1e-9)
	// A pawn next to the goal against pawns at home.
	near := mustPosition(t, "players=rb turn=r r=i13 b= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11")
	ch = WinChances(near, engine.Rules{})
	assert.Greater(t, ch[engine.Red], 0.9)
	assert.Zero(t, ch[engine.Green], "not in play")
	won := mustPosition(t, "players=rb turn=r r=i14 b= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11")
	assert.Equal(t, 1.0, WinChances(won, engine.Rules{})[engine.Red])
}
