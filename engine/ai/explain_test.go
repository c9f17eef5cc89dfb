package ai

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

func TestExplain(t *testing.T) {
	const bars = "a3,e3,i3,m3,q3,g7,k7,i9"
	tests := []struct {
		name     string
		position string
		roll     int
		move     string
		want     Reason // Kind, Color, Steps and Lead are compared
	}{
		{
			name:     "wins",
			position: "players=rb turn=r r=h13,c5 b=j13 x=" + bars + ",i10,i11",
			roll:     2, move: "h13-i14",
			want: Reason{Kind: ReasonWins, Color: engine.NoColor},
		},
		{
			name:     "captures the lead pawn",
			position: "players=rb turn=r r=d13,c5 b=g13,e1 x=" + bars + ",i10,i11",
			roll:     3, move: "d13-g13",
			want: Reason{Kind: ReasonCaptures, Color: engine.Blue, Lead: true},
		},
		{
			name:     "blocks at the goal",
			position: "players=rb turn=r r=i10 b=h13 x=" + bars + ",i11",
			roll:     1, move: "i10-i11/i13",
			want: Reason{Kind: ReasonBlocks, Color: engine.Blue, Steps: 2},
		},
		{
			name:     "runs for the goal",
			position: "players=rb turn=r r=a11,c1 b=o1,q2 x=" + bars + ",i10,i11,i13",
			roll:     5, move: "a11-d13",
			want: Reason{Kind: ReasonRuns, Color: engine.NoColor, Steps: 6},
		},
		{
			name:     "enters",
			position: "start",
			roll:     1, move: "home-c1",
			want: Reason{Kind: ReasonEnters, Color: engine.NoColor},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := mustPosition(t, tt.position)
			m, err := engine.ParseMove(tt.move)
			require.NoError(t, err)
			require.Contains(t, pos.Moves(tt.roll, engine.Rules{}), m, "a legal move")
			reasons := Explain(pos, tt.roll, engine.Rules{}, m)
			require.NotEmpty(t, reasons)
			got := reasons[0]
			assert.Equal(t, tt.want.Kind, got.Kind, "kind (all: %+v)", reasons)
			assert.Equal(t, tt.want.Color, got.Color, "colour")
			assert.Equal(t, tt.want.Lead, got.Lead, "lead")
			if tt.want.Steps != 0 {
				assert.Equal(t, tt.want.Steps, got.Steps, "steps")
			}
			for i := 1; i < len(reasons); i++ {
				assert.GreaterOrEqual(t, reasons[i-1].Gain, reasons[i].Gain, "biggest first")
			}
			assert.Equal(t, got, ReasonFor(pos, tt.roll, engine.Rules{}, m))
		})
	}
}

func TestExplainEveryMoveOfAGame(t *testing.T) {
	for _, d := range samplePositions(t, []Level{Normal, Greedy, Normal}, engine.Rules{SixAgain: true}, 3, 3) {
		for _, m := range d.moves[:min(len(d.moves), 8)] {
			reasons := Explain(d.pos, d.roll, d.rules, m)
			require.NotEmpty(t, reasons, "%s roll %d %s", d.pos, d.roll, m)
			for _, r := range reasons {
				assert.NotEqual(t, "unknown", r.Kind.String())
			}
		}
	}
}

func TestSuggestPlacements(t *testing.T) {
	// Red captures i9 with a pawn from i5... here: red on g5 takes the
	// barricade on g7 with a 2; its other pawns wait in the house, so a
	// barricade on c1's way out (c2? row 2 has a2 and e2: e2) costs red.
	pos := mustPosition(t, "players=rb turn=r r=g5 b=k11,o1 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13")
	pending := engine.Move{From: sq(t, "g5"), To: sq(t, "g7"), Place: engine.NoSquare}
	legal := pos.PlacementSquares(pending.From, pending.To, engine.Rules{})
	require.NotEmpty(t, legal)
	all := SuggestPlacements(pos, engine.Rules{}, 2, pending, legal, len(legal))
	require.Len(t, all, len(legal))
	top := SuggestPlacements(pos, engine.Rules{}, 2, pending, legal, 3)
	require.Len(t, top, 3)
	assert.Equal(t, all[:3], top, "the first n of all")
	for _, p := range top {
		assert.NotEqual(t, PlaceOwnWay, p.Kind, "%s is on red's own way, yet suggested first", p.Square)
		assert.Contains(t, legal, p.Square)
	}
	assert.Equal(t, PlaceBlocks, top[0].Kind, "the best square blocks someone: %+v", top[0])
	assert.Equal(t, engine.Blue, top[0].Color)
	own := false
	for i, p := range all {
		if p.Kind == PlaceOwnWay {
			own = true
		} else {
			assert.False(t, own, "%s (%s) after an own-way square", p.Square, p.Kind)
		}
		if i > 0 && (p.Kind == PlaceOwnWay) == (all[i-1].Kind == PlaceOwnWay) {
			assert.LessOrEqual(t, p.Chance, all[i-1].Chance, "best first")
		}
	}
	require.True(t, own, "some square is on red's own way")
	e2 := slices.IndexFunc(all, func(p Placement) bool { return p.Square.String() == "e2" })
	require.GreaterOrEqual(t, e2, 0)
	assert.Equal(t, PlaceOwnWay, all[e2].Kind, "e2 is on red's way out of the house: %+v", all[e2])
}

func sq(t testing.TB, name string) engine.Square {
	t.Helper()
	s, err := engine.ParseSquare(name)
	require.NoError(t, err)
	return s
}
