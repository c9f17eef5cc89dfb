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
	assert.Equal(t, ch, cardChances(pos, engine.Rules{}, nil), "played again")
	assert.InDelta(t, 0.381, ch[engine.Yellow], HeldOutTolerance, "the lone runner")
	assert.Less(t, SteadyChances(pos, engine.Rules{})[engine.Yellow], 0.381-HeldOutTolerance, "the model alone")
	assert.NotEqual(t, ch, cardChances(pos, engine.Rules{SixAgain: true}, nil), "the rules change the dice and the play")

	over := pos
	for _, q := range over.Pawns(engine.Yellow) {
		over.Apply(engine.Move{From: q, To: engine.Goal, Place: engine.NoSquare})
	}
	require.True(t, over.Over())
	assert.Equal(t, 1.0, CardChances(over, engine.Rules{})[engine.Yellow])
}

// TestBudgetKeepsToItsShare checks the budget: an estimate runs in the
// background and waits after each rollout three times what the rollout
// took (a quarter of a core); another asked for meanwhile is not started
// (and is counted); once read, a position is known to every view and not
// read again.
func TestBudgetKeepsToItsShare(t *testing.T) {
	positions := samplePositions(t, []Level{Normal, Normal, Normal}, engine.Rules{}, 11, 3)
	require.GreaterOrEqual(t, len(positions), 2)
	first, second := positions[0].pos, positions[1].pos
	var waited time.Duration
	waits := 0
	inside := make(chan struct{})
	b := &Budget{Share: 0.25}
	b.Sleep = func(d time.Duration) {
		if waits == 0 {
			inside <- struct{}{} // the first estimate is under way
			<-inside
		}
		waits++
		waited += d
	}
	assert.Equal(t, SteadyChances(first, engine.Rules{}), KnownChances(first, engine.Rules{}), "not read yet: the model's")
	later := b.Later(first, engine.Rules{})
	require.NotNil(t, later)
	<-inside
	assert.Nil(t, b.Later(second, engine.Rules{}), "one at a time")
	assert.Equal(t, 1, b.Misses())
	inside <- struct{}{}
	got, ok := <-later
	require.True(t, ok)
	_, ok = <-later
	assert.False(t, ok, "once, then closed")
	assert.Equal(t, cardChances(first, engine.Rules{}, nil), got)
	assert.Equal(t, cardRollouts, waits, "a wait after each rollout")
	assert.Positive(t, waited)
	assert.Equal(t, got, KnownChances(first, engine.Rules{}), "known once read")
	assert.Nil(t, b.Later(first, engine.Rules{}), "not read again")
	assert.Nil(t, (&Budget{}).Later(second, engine.Rules{}), "no share")
}
