package ai

import (
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCardChancesReadTheSameAndAddUp checks that the card's chances are
// chances (adding up to 1, the winner's 1 at the end), that a position
// reads the same each time, from the cache or played again, and that
// they see what the model misses: issue 42's lone runner, yellow, wins
// 38.1 % of the rollouts that are its truth, where the model reads 9 %.
func TestCardChancesReadTheSameAndAddUp(t *testing.T) {
	pos := NamedHeldOutPositions()[0].Position
	ch := CardChances(pos, engine.Rules{})
	assert.InDelta(t, 1, ch[engine.Red]+ch[engine.Green]+ch[engine.Yellow], 1e-9)
	assert.Zero(t, ch[engine.Blue])
	assert.Equal(t, ch, CardChances(pos, engine.Rules{}), "from the cache")
	assert.Equal(t, ch, cardChances(pos, engine.Rules{}), "played again")
	assert.InDelta(t, 0.381, ch[engine.Yellow], HeldOutTolerance, "the lone runner")
	assert.Less(t, SteadyChances(pos, engine.Rules{})[engine.Yellow], 0.381-HeldOutTolerance, "the model alone")
	assert.NotEqual(t, ch, cardChances(pos, engine.Rules{SixAgain: true}), "the rules change the dice and the play")

	over := pos
	for _, q := range over.Pawns(engine.Yellow) {
		over.Apply(engine.Move{From: q, To: engine.Goal, Place: engine.NoSquare})
	}
	require.True(t, over.Over())
	assert.Equal(t, 1.0, CardChances(over, engine.Rules{})[engine.Yellow])
}

// TestBudgetKeepsToItsShare checks the budget on a clock of its own: the
// first estimate plays the rollouts, the next ones right after it get the
// model's chances (and are counted), a position already read gets its
// rollouts' chances again, and once the share of the time gone by has
// paid the rollouts back they run again.
func TestBudgetKeepsToItsShare(t *testing.T) {
	now := time.Date(2026, 12, 7, 18, 0, 0, 0, time.UTC)
	var spent time.Duration
	b := &Budget{Share: 0.25, Now: func() time.Time { now = now.Add(spent); return now }}
	positions := samplePositions(t, []Level{Normal, Normal, Normal}, engine.Rules{}, 11, 3)
	require.GreaterOrEqual(t, len(positions), 3)
	first, second, third := positions[0].pos, positions[1].pos, positions[2].pos

	spent = time.Second // every reading of the clock moves it a second on
	assert.Equal(t, cardChances(first, engine.Rules{}), b.Chances(first, engine.Rules{}), "the first plays its rollouts")
	spent = 0
	assert.Equal(t, SteadyChances(second, engine.Rules{}), b.Chances(second, engine.Rules{}), "over the budget: the model")
	assert.Equal(t, 1, b.Misses())
	assert.Equal(t, cardChances(first, engine.Rules{}), b.Chances(first, engine.Rules{}), "kept")

	now = now.Add(4 * time.Second) // a quarter of 4 s pays the second back
	assert.Equal(t, cardChances(third, engine.Rules{}), b.Chances(third, engine.Rules{}), "paid back")
	assert.Equal(t, 1, b.Misses())
}
