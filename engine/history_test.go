package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// TestPositionsReplayTheGame plays random games with and without the house
// rules, with a colour removed halfway, and checks that the position after
// each record is the one the game had then, and the last one the game's.
func TestPositionsReplayTheGame(t *testing.T) {
	for _, rules := range []engine.Rules{{}, {SixAgain: true, SafeRow2: true}} {
		for seed := uint64(1); seed <= 20; seed++ {
			players := []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}
			g, err := engine.NewGame(players, engine.Color(seed%4), rules)
			require.NoError(t, err)
			die := dieFrom(seed)
			var want []engine.Position
			for step := 0; !g.Over() && step < 4000; step++ {
				if step == 300 && g.Position().InPlay(engine.Yellow) {
					require.NoError(t, g.Remove(engine.Yellow))
					want = append(want, g.Position())
					continue
				}
				before := engine.HistoryLen(g)
				switch g.Phase() {
				case engine.PhaseRoll:
					_, err = g.Roll(die)
				case engine.PhaseMove:
					moves := g.LegalMoves()
					err = g.Move(moves[int(seed+uint64(step))%len(moves)])
				case engine.PhasePlace:
					sq := g.PlacementSquares()
					err = g.Place(sq[int(seed*7+uint64(step))%len(sq)])
				}
				require.NoError(t, err)
				for range engine.HistoryLen(g) - before {
					want = append(want, g.Position())
				}
			}
			var got []engine.Position
			for r, pos := range g.Positions() {
				if r.Kind == engine.RecordRoll && len(got) > 0 {
					got = append(got, got[len(got)-1])
					continue
				}
				got = append(got, pos)
			}
			require.Len(t, got, len(want))
			// A roll's record is made before its move: the game's position
			// at a roll whose turn passed is the pass's, so compare the
			// moves', passes' and removals' positions, and the last.
			hist := g.History()
			for i, r := range hist {
				if r.Kind == engine.RecordMove || r.Kind == engine.RecordRemove {
					assert.Equal(t, want[i].String(), got[i].String(), "seed %d rules %+v record %d %+v", seed, rules, i, r)
				}
			}
			assert.Equal(t, g.Position().String(), got[len(got)-1].String(), "seed %d: last position", seed)
		}
	}
}

func dieFrom(seed uint64) engine.Dice {
	x := seed*2654435761 + 1
	return engine.DiceFunc(func() int {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return int(x%6) + 1
	})
}
