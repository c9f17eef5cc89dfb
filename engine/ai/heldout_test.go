package ai

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// heldOutFile is the committed held-out set: `malefiz heldout` wrote it
// (its comment says with which flags).
const heldOutFile = "testdata/heldout.json"

func readHeldOut(t *testing.T) HeldOutSet {
	t.Helper()
	data, err := os.ReadFile(heldOutFile)
	require.NoError(t, err)
	set, err := ParseHeldOutSet(data)
	require.NoError(t, err)
	return set
}

// TestHeldOutSetReplays checks that the committed set is what its command
// makes: the named positions, the first generated positions again from
// the seed, and the truth of one of them again from its rollouts.
func TestHeldOutSetReplays(t *testing.T) {
	set := readHeldOut(t)
	named := NamedHeldOutPositions()
	require.Len(t, named, 2)
	require.Greater(t, len(set.Cases), len(named)+6)
	for i, c := range named {
		got := set.Cases[i]
		assert.Equal(t, c.Name, got.Name)
		assert.Equal(t, c.Position, got.Position, c.Name)
		assert.Equal(t, LoneRunner, got.Kind)
		// Four pawns at home and one on the board: the lone runner.
		assert.Equal(t, 4, got.Position.Home(engine.Yellow), c.Name)
		assert.Len(t, got.Position.Pawns(engine.Yellow), 1, c.Name)
	}
	generated, err := HeldOutPositions(set.Seed, 6)
	require.NoError(t, err)
	for i, c := range generated {
		got := set.Cases[len(named)+i]
		assert.Equal(t, c.Kind, got.Kind, "case %d", i)
		assert.Equal(t, c.Position, got.Position, "case %d", i)
		assert.Equal(t, c.Rules, got.Rules, "case %d", i)
	}
	c := set.Cases[1]
	truth := RolloutEstimator{Rollouts: set.Rollouts, Seed: set.Seed, Policy: set.Policy}.Chances(c.Position, c.Rules)
	assert.Equal(t, ByLetter(c.Position, truth), c.Truth, "%s: the truth replays", c.Name)
}

// TestHeldOutKinds checks that each kind of held-out position is what its
// name says, and that the positions are fit to play.
func TestHeldOutKinds(t *testing.T) {
	cases, err := HeldOutPositions(5, 16)
	require.NoError(t, err)
	require.Len(t, cases, 16)
	players := map[int]int{}
	kinds := map[HeldOutKind]int{}
	for i, c := range cases {
		pos := c.Position
		require.False(t, pos.Over(), "case %d", i)
		again, err := engine.ParsePosition(pos.String())
		require.NoError(t, err)
		require.Equal(t, pos, again, "case %d: the notation round-trips", i)
		players[len(pos.Players())]++
		switch c.Kind {
		case LoneRunner:
			lone := false
			for _, col := range pos.Players() {
				lone = lone || (pos.Home(col) == 4 && len(pos.Pawns(col)) == 1)
			}
			assert.True(t, lone, "case %d: a lone runner in %s", i, pos)
		case ManyHome:
			for _, col := range pos.Players() {
				assert.LessOrEqual(t, len(pos.Pawns(col)), 2, "case %d: %s", i, pos)
			}
		case Wall:
			near := 0
			for _, q := range pos.Barricades() {
				if engine.DistanceToGoal(q) <= 12 {
					near++
				}
			}
			assert.GreaterOrEqual(t, near, 4, "case %d: a wall in %s", i, pos)
		case Race:
			racing := 0
			for _, col := range pos.Players() {
				for _, q := range pos.Pawns(col) {
					if engine.DistanceToGoal(q) <= raceDistance {
						racing++
						break
					}
				}
			}
			assert.GreaterOrEqual(t, racing, 2, "case %d: a race in %s", i, pos)
		default:
			t.Errorf("case %d: kind %q", i, c.Kind)
		}
		kinds[c.Kind]++
	}
	assert.Len(t, players, 3, "two, three and four players")
	assert.Len(t, kinds, len(HeldOutKinds()), "every kind")
}
