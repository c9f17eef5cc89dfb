package engine

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPawnMovesMatchMoves checks, on the positions of random games, that
// AppendPawnMoves lists each (from, to) of Moves once and in the same
// order, that Moves gives each capture once per square CanPlace allows, and
// that BarricadeSet holds the squares of Barricades.
func TestPawnMovesMatchMoves(t *testing.T) {
	positions := 0
	for seed := range uint64(6) {
		rules := Rules{SafeRow2: seed%2 == 1, SixAgain: seed%3 == 0}
		playRandom(t, seed, int(seed%3)+2, rules, 3000, func(g *Game) {
			if g.Phase() != PhaseRoll {
				return
			}
			p := g.Position()
			positions++
			var bars []Square
			p.BarricadeSet().Each(func(q Square) { bars = append(bars, q) })
			require.Equal(t, p.Barricades(), bars, "BarricadeSet of %s", p)
			for roll := 1; roll <= 6; roll++ {
				checkPawnMoves(t, p, roll, rules)
			}
		})
	}
	require.Greater(t, positions, 1000, "positions checked")
}

func checkPawnMoves(t *testing.T, p Position, roll int, r Rules) {
	t.Helper()
	pawnMoves := p.AppendPawnMoves(nil, roll)
	var want []Move
	places := map[Move][]Square{}
	for _, m := range p.Moves(roll, r) {
		key := Move{From: m.From, To: m.To, Place: NoSquare}
		if !slices.Contains(want, key) {
			want = append(want, key)
		}
		if m.Place != NoSquare {
			places[key] = append(places[key], m.Place)
		}
	}
	require.Equal(t, want, pawnMoves, "%s roll %d: pawn moves", p, roll)
	for _, m := range pawnMoves {
		if p.At(m.To) != Barricade {
			assert.NotContains(t, places, m, "%s roll %d: %s takes no barricade", p, roll, m)
			continue
		}
		var allowed []Square
		for q := Square(0); q < NumSquares; q++ {
			if p.CanPlace(q, m.From, m.To, r) {
				allowed = append(allowed, q)
			}
		}
		require.Equal(t, allowed, places[m], "%s roll %d: placements of %s", p, roll, m)
		require.Equal(t, allowed, p.PlacementSquares(m.From, m.To, r), "%s roll %d: PlacementSquares of %s", p, roll, m)
	}
}

func TestPawnMovesAllocateNothing(t *testing.T) {
	p, err := ParsePosition(midGame)
	require.NoError(t, err)
	buf := make([]Move, 0, 256)
	for roll := 1; roll <= 6; roll++ {
		allocs := testing.AllocsPerRun(20, func() {
			buf = p.AppendPawnMoves(buf[:0], roll)
			buf = p.AppendMoves(buf[:0], roll, Rules{})
		})
		assert.Zero(t, allocs, "roll %d", roll)
	}
}

func TestPlayHandsTheTurnOnAsAGame(t *testing.T) {
	tests := []struct {
		name     string
		position string
		move     string
		roll     int
		rules    Rules
		turn     Color
		captured Color
	}{
		{"a move hands on", "players=rg turn=r r=c5 g=k5 " + stdX, "c5-c3", 2, Rules{}, Green, NoColor},
		{"a six hands on without six-again", "players=rg turn=r r= g= " + stdX, "home-h1", 6, Rules{}, Green, NoColor},
		{"a six keeps the turn under six-again", "players=rg turn=r r= g= " + stdX, "home-h1", 6, Rules{SixAgain: true}, Red, NoColor},
		{"a barricade capture places it", "players=rg turn=r r= g= " + stdX, "home-e3/a13", 5, Rules{}, Green, NoColor},
		{"a capture hands on", "players=rg turn=r r=c5 g=e5 " + stdX, "c5-e5", 2, Rules{}, Green, Green},
		{"the winner keeps the turn", "players=rg turn=r r=h13 g= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11", "h13-i14", 2, Rules{}, Red, NoColor},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePosition(tt.position)
			require.NoError(t, err)
			m, err := ParseMove(tt.move)
			require.NoError(t, err)
			require.Contains(t, p.Moves(tt.roll, tt.rules), m)

			g := NewGameAt(p, tt.rules)
			_, err = g.Roll(fixed(tt.roll))
			require.NoError(t, err)
			require.NoError(t, g.Move(m))

			got := p
			assert.Equal(t, tt.captured, got.Play(m, tt.roll, tt.rules))
			assert.Equal(t, tt.turn, got.Turn())
			assert.Equal(t, g.Position(), got, "Play and Game.Move disagree")
			assert.Equal(t, g.Position().Barricades(), got.Barricades())
		})
	}
}
