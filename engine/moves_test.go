package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPawnMovesMatchMoves checks, on the positions of random games, that
// Moves is AppendPawnMoves with each capture once per square the rules
// allow for the barricade, in the same order, that Path walks each move, and that
// BarricadeSet holds the squares of Barricades.
func TestPawnMovesMatchMoves(t *testing.T) {
	positions := 0
	for seed := range uint64(4) {
		rules := Rules{SafeRow2: seed%2 == 1, SixAgain: seed%3 == 0}
		playRandom(t, seed, int(seed%3)+2, rules, 2000, func(g *Game) {
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
				if positions%8 == 0 {
					checkPaths(t, p, roll)
				}
			}
		})
	}
	require.Greater(t, positions, 500, "positions checked")
}

func checkPawnMoves(t *testing.T, p Position, roll int, r Rules) {
	t.Helper()
	pawnMoves := p.AppendPawnMoves(nil, roll)
	var want []Move // Moves, as pawnMoves with each capture once per placement
	for _, m := range pawnMoves {
		require.Equal(t, NoSquare, m.Place, "%s roll %d: %s", p, roll, m)
		require.Equal(t, 1, countOf(pawnMoves, m), "%s roll %d: %s twice", p, roll, m)
		if p.At(m.To) != Barricade {
			want = append(want, m)
			continue
		}
		var allowed []Square
		for q := Square(0); q < NumSquares; q++ {
			if mayPlace(p, q, m.From, m.To, r) {
				allowed = append(allowed, q)
				want = append(want, Move{From: m.From, To: m.To, Place: q})
			}
		}
		require.Equal(t, allowed, p.PlacementSquares(m.From, m.To, r), "%s roll %d: PlacementSquares of %s", p, roll, m)
		require.Equal(t, len(allowed), p.PlacementSet(m.From, m.To, r).Len(), "%s roll %d: PlacementSet of %s", p, roll, m)
	}
	require.Equal(t, want, p.Moves(roll, r), "%s roll %d", p, roll)
}

// mayPlace is rule 7 of docs/rules.md, written out: a captured barricade
// goes on a free square (the one the pawn left counts as free) but not on
// row 1, the goal or, under safe-row-2, row 2.
func mayPlace(p Position, q, from, to Square, r Rules) bool {
	switch {
	case q == to, q == Goal, q.Row() == 1, r.SafeRow2 && q.Row() == 2:
		return false
	}
	return q == from || p.At(q) == Empty
}

func countOf(moves []Move, m Move) int {
	n := 0
	for _, x := range moves {
		if x == m {
			n++
		}
	}
	return n
}

// TestMovesOnAPackedBoard checks captures when no square is free for the
// barricade: only the square the pawn leaves may take it, if any.
func TestMovesOnAPackedBoard(t *testing.T) {
	var all []string
	for q := Square(0); q < NumSquares; q++ {
		if q != Goal && q.Row() > 1 {
			all = append(all, q.String())
		}
	}
	packed := func(pawns ...string) string {
		x := slices.DeleteFunc(slices.Clone(all), func(s string) bool { return slices.Contains(pawns, s) })
		return "players=rg turn=r r=" + strings.Join(pawns, ",") + " g= x=" + strings.Join(x, ",")
	}
	tests := []struct {
		name   string
		pawns  []string
		roll   int
		rules  Rules
		places int // moves that place a barricade
	}{
		{"leaving row 1: nowhere to go", []string{"a1"}, 1, Rules{}, 0},
		{"leaving row 2: the square left", []string{"a2"}, 1, Rules{}, 1},
		{"leaving row 2 under safe-row-2: nowhere", []string{"a2"}, 1, Rules{SafeRow2: true}, 0},
		{"one of each", []string{"a1", "a2", "q2"}, 1, Rules{}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePosition(packed(tt.pawns...))
			require.NoError(t, err)
			checkPawnMoves(t, p, tt.roll, tt.rules)
			placing := slices.DeleteFunc(p.Moves(tt.roll, tt.rules), func(m Move) bool { return m.Place == NoSquare })
			for _, m := range placing {
				assert.Equal(t, m.From, m.Place, "%s", m)
			}
			assert.Len(t, placing, tt.places, "%v", placing)
		})
	}
}

// checkPaths checks that Path walks every pawn move for roll, square by
// square along the lines, and finds no path to a square no move reaches.
func checkPaths(t *testing.T, p Position, roll int) {
	t.Helper()
	legal := p.AppendPawnMoves(nil, roll)
	origins := append(p.Pawns(p.Turn()), NoSquare)
	for _, from := range origins {
		start, steps := from, roll
		if from == NoSquare {
			start, steps = Entry(p.Turn()), roll-1
		}
		for to := Square(0); to < NumSquares; to++ {
			m := Move{From: from, To: to, Place: NoSquare}
			path := p.Path(m, roll)
			if !slices.Contains(legal, m) || (from == NoSquare && p.Home(p.Turn()) == 0) {
				require.Nil(t, path, "%s roll %d: path of %s, which is not a move", p, roll, m)
				continue
			}
			require.Len(t, path, steps+1, "%s roll %d: path of %s", p, roll, m)
			require.Equal(t, start, path[0], "%s roll %d: path of %s", p, roll, m)
			require.Equal(t, to, path[steps], "%s roll %d: path of %s", p, roll, m)
			for i := 1; i <= steps; i++ {
				require.Contains(t, Neighbors(path[i-1]), path[i], "%s roll %d: path %v of %s", p, roll, path, m)
				require.NotContains(t, path[:i], path[i], "%s roll %d: path %v of %s", p, roll, path, m)
				if i < steps {
					require.NotEqual(t, Barricade, p.At(path[i]), "%s roll %d: path %v of %s", p, roll, path, m)
				}
			}
		}
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
