package ai

import (
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
			name:     "runs along the top row",
			position: "players=rb turn=r r=c13,c5 b=o5,k1 x=" + bars + ",i10,i11",
			roll:     5, move: "c13-h13",
			want: Reason{Kind: ReasonRuns, Color: engine.NoColor, Steps: 2},
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
			assert.NotEqual(t, ReasonNone, reasons[0].Kind, "%s roll %d %s: every move has a reason", d.pos, d.roll, m)
			for _, r := range reasons {
				if r.Kind == ReasonBlocks {
					assert.Positive(t, r.Turns, "%s roll %d %s: the block's size", d.pos, d.roll, m)
				}
				assert.NotEqual(t, "unknown", r.Kind.String())
			}
		}
	}
}

func TestFaults(t *testing.T) {
	const bars = "a3,e3,i3,m3,q3,g7,k7,i9"
	tests := []struct {
		name           string
		position       string
		roll           int
		played, better string
		want           Fault // Kind, Color and Lead are compared
	}{
		{
			name:     "misses the goal",
			position: "players=rb turn=r r=h13,c5 b=j13 x=" + bars + ",i10,i11",
			roll:     2, played: "c5-e5", better: "h13-i14",
			want: Fault{Kind: FaultMissesGoal, Color: engine.NoColor},
		},
		{
			name:     "misses the capture of the lead pawn",
			position: "players=rb turn=r r=d13,c5 b=g13,e1 x=" + bars + ",i10,i11",
			roll:     3, played: "c5-f5", better: "d13-g13",
			want: Fault{Kind: FaultMissesCapture, Color: engine.Blue, Lead: true},
		},
		{
			name:     "steps into capture range",
			position: "players=rb turn=r r=c5 b=k5 x=" + bars + ",i10,i11,i13",
			roll:     4, played: "c5-g5", better: "c5-e7",
			want: Fault{Kind: FaultExposes, Color: engine.Blue, Lead: true},
		},
		{
			name:     "walks back",
			position: "players=rb turn=r r=e7 b=o1 x=" + bars + ",i10,i11,i13",
			roll:     1, played: "e7-e6", better: "e7-f7",
			want: Fault{Kind: FaultWalksBack, Color: engine.NoColor},
		},
		{
			name:     "the barricade on its own way out of the house",
			position: "players=rb turn=r r=e7 b=k11,o1 x=" + bars + ",i10,i11,i13",
			roll:     2, played: "e7-g7/e2", better: "e7-g7/j11",
			want: Fault{Kind: FaultBlocksOwn, Color: engine.NoColor},
		},
		{
			name:     "the barricade where it slows nobody",
			position: "players=rb turn=r r=i10 b=h13 x=" + bars + ",i11",
			roll:     1, played: "i10-i11/a12", better: "i10-i11/i13",
			want: Fault{Kind: FaultWastesBarricade, Color: engine.NoColor},
		},
		{
			name:     "takes the barricade out of the opponent's way",
			position: "players=rb turn=r r=g9 b=k9 x=a3,e3,i3,m3,q3,g7,k7,i9,i13",
			roll:     2, played: "g9-i9/a12", better: "g9-i9/j9",
			want: Fault{Kind: FaultLetsThrough, Color: engine.Blue},
		},
		{
			name:     "leaves the opponent's way open",
			position: "players=rb turn=r r=i10,c5 b=h13 x=" + bars + ",i11",
			roll:     1, played: "c5-d5", better: "i10-i11/i13",
			want: Fault{Kind: FaultLeavesOpen, Color: engine.Blue},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := mustPosition(t, tt.position)
			played, err := engine.ParseMove(tt.played)
			require.NoError(t, err)
			better, err := engine.ParseMove(tt.better)
			require.NoError(t, err)
			require.Contains(t, pos.Moves(tt.roll, engine.Rules{}), played, "a legal move")
			require.Contains(t, pos.Moves(tt.roll, engine.Rules{}), better, "a legal move")
			faults := Faults(pos, tt.roll, engine.Rules{}, played, better)
			require.NotEmpty(t, faults)
			got := faults[0]
			assert.Equal(t, tt.want.Kind, got.Kind, "kind (all: %+v)", faults)
			assert.Equal(t, tt.want.Color, got.Color, "colour")
			assert.Equal(t, tt.want.Lead, got.Lead, "lead")
			for i := 1; i < len(faults); i++ {
				assert.GreaterOrEqual(t, faults[i-1].Size, faults[i].Size, "biggest first")
			}
			assert.Equal(t, got, FaultOf(pos, tt.roll, engine.Rules{}, played, better))
			assert.Equal(t, []Fault{{Kind: FaultNone, Color: engine.NoColor, Square: better.To}},
				Faults(pos, tt.roll, engine.Rules{}, better, better), "the better move itself")
		})
	}
}

func TestSuggestPlacements(t *testing.T) {
	// Red on g5 takes the barricade on g7 with a 2; its other pawns wait
	// in the house, so a barricade on their way out (e2) costs red.
	pos := mustPosition(t, "players=rb turn=r r=g5 b=k11,o1 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13")
	pending := engine.Move{From: sq(t, "g5"), To: sq(t, "g7"), Place: engine.NoSquare}
	legal := pos.PlacementSquares(pending.From, pending.To, engine.Rules{})
	require.NotEmpty(t, legal)
	all := SuggestPlacements(pos, engine.Rules{}, 2, pending, legal, len(legal))
	top := SuggestPlacements(pos, engine.Rules{}, 2, pending, legal, 5)
	require.Len(t, top, 5)
	assert.Equal(t, all[:5], top, "the first n of all")
	assert.Equal(t, PlaceBlocks, top[0].Kind, "the best square blocks someone: %+v", top[0])
	assert.Equal(t, engine.Blue, top[0].Color)
	assert.Positive(t, top[0].Turns, "the block's size")
	for i, p := range all {
		assert.NotEqual(t, PlaceOwnWay, p.Kind, "%s is on red's own way, yet suggested while others are not", p.Square)
		assert.NotEqual(t, "e2", p.Square.String(), "e2 is on red's way out of the house")
		assert.Contains(t, legal, p.Square)
		if i > 0 {
			assert.LessOrEqual(t, p.Chance, all[i-1].Chance, "best first")
		}
		for _, q := range all[:i] {
			assert.False(t, p.Kind == q.Kind && p.Color == q.Color && p.Turns == q.Turns,
				"%s and %s give the same reason: %s %s %+.1f", p.Square, q.Square, p.Kind, p.Color, p.Turns)
		}
	}
	// With nothing better, the square on red's own way, and its cost.
	e2 := SuggestPlacements(pos, engine.Rules{}, 2, pending, []engine.Square{sq(t, "e2")}, 5)
	require.Len(t, e2, 1)
	assert.Equal(t, PlaceOwnWay, e2[0].Kind, "e2 is on red's way out of the house: %+v", e2[0])
	assert.Positive(t, e2[0].Turns, "what it costs red")
}

// TestPlacementsOfAGameGiveDistinctReasons suggests squares for every
// barricade captured in games and checks that no two suggestions of one
// placement share a reason, and that each block has its size.
func TestPlacementsOfAGameGiveDistinctReasons(t *testing.T) {
	placements := 0
	for seed := uint64(1); seed <= 3; seed++ {
		for _, d := range samplePositions(t, []Level{Normal, Greedy, Normal, Easy}, engine.Rules{}, seed, 1) {
			done := map[[2]engine.Square]bool{}
			for _, m := range d.moves {
				if m.Place == engine.NoSquare || done[[2]engine.Square{m.From, m.To}] {
					continue
				}
				done[[2]engine.Square{m.From, m.To}] = true
				pending := m
				pending.Place = engine.NoSquare
				legal := d.pos.PlacementSquares(m.From, m.To, d.rules)
				ps := SuggestPlacements(d.pos, d.rules, d.roll, pending, legal, 5)
				require.NotEmpty(t, ps)
				placements++
				for i, p := range ps {
					if p.Kind != PlaceAside {
						assert.Positive(t, p.Turns, "%s: %+v", d.pos, p)
					}
					for _, q := range ps[:i] {
						assert.False(t, p.Kind == q.Kind && p.Color == q.Color && p.Turns == q.Turns, "%s: %+v and %+v", d.pos, p, q)
					}
				}
			}
		}
	}
	assert.Greater(t, placements, 10)
}

func sq(t testing.TB, name string) engine.Square {
	t.Helper()
	s, err := engine.ParseSquare(name)
	require.NoError(t, err)
	return s
}
