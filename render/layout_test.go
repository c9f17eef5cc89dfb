package render

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// TestBoardLayoutMatchesImage checks that the layout a client draws from
// puts each square, house slot and colour where Image does.
func TestBoardLayoutMatchesImage(t *testing.T) {
	l := BoardLayout()
	require.Len(t, l.Squares, engine.NumSquares)
	require.Len(t, l.Houses, int(engine.NumColors))
	g := newGeom(DefaultWidth)
	tests := []struct {
		name string
		sq   engine.Square
	}{
		{"goal", engine.Goal},
		{"red entry", engine.Entry(engine.Red)},
		{"blue entry", engine.Entry(engine.Blue)},
		{"first square", 0},
		{"last square", engine.NumSquares - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, y := g.at(tt.sq)
			s := l.Squares[tt.sq]
			assert.Equal(t, tt.sq.String(), s.Name)
			// Image rounds to whole pixels: within one pixel.
			assert.InDelta(t, x, s.X*g.u, 1)
			assert.InDelta(t, y, s.Y*g.u, 1)
		})
	}
	for c := engine.Red; c <= engine.Blue; c++ {
		for i := range 5 {
			x, y := g.slot(c, i)
			got := l.Houses[c].Slots[i]
			assert.InDelta(t, x, got[0]*g.u, 1, "%s slot %d", c, i)
			assert.InDelta(t, y, got[1]*g.u, 1, "%s slot %d", c, i)
		}
		assert.Equal(t, hex(pawnStyles[c].fill), l.Pawns[c].Fill)
	}
	assert.Equal(t, "#f3c758", l.Colors["ground"])
	assert.True(t, l.Squares[engine.Goal].Goal)
	assert.Equal(t, math.Round(unitsHigh*g.u), float64(g.h))
}
