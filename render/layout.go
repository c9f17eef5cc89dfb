package render

import (
	"fmt"
	"image/color"

	"github.com/malefiz-discord/malefiz/engine"
)

// Layout is the board's geometry and colours as the PNG draws them, in
// units (the distance between two neighbouring squares), for a client that
// draws the board itself, such as the Activity's SVG: the same places, the
// same sizes, the same colours as Image.
type Layout struct {
	Width, Height float64           // the whole board, in units
	Squares       []LayoutSquare    // every square, in engine.Square order
	Lines         [][2]int          // neighbouring squares, by index into Squares
	Houses        []LayoutHouse     // in engine.Color order
	Sizes         LayoutSizes       // of the pieces, in units
	Colors        map[string]string // the board's flat colours by role, "#rrggbb"
	Pawns         []LayoutPawn      // each colour's pawn colours, in engine.Color order
}

// LayoutSquare is one square: its name ("c1"), its centre, and whether a
// barricade starts there (the red ring).
type LayoutSquare struct {
	Name           string
	X, Y           float64
	BarricadeStart bool `json:",omitempty"`
	Goal           bool `json:",omitempty"`
}

// LayoutHouse is one colour's house: its centre and size, the line up to
// its entry square, and the centres of its five pawn slots.
type LayoutHouse struct {
	Color  string
	X, Y   float64
	W, H   float64
	Entry  int // index of the entry square
	Slots  [][2]float64
	LineTo float64 // the line from the entry square ends at this y
}

// LayoutSizes are the pieces' sizes in units, as the PNG draws them.
type LayoutSizes struct {
	Square, Ring, Pawn, Line, Goal float64
}

// LayoutPawn is a colour's pawn: fill, rim, highlight, letter and its
// colour, and the house's ground.
type LayoutPawn struct {
	Color                   string
	Fill, Dark, Light, Text string
	Tint                    string
	Letter                  string
}

// hex formats c as "#rrggbb".
func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// BoardLayout returns the board's layout (see Layout).
func BoardLayout() Layout {
	g := geom{u: 1}
	// Unrounded centres: the geometry of Image before it snaps to pixels.
	colX := func(col int) float64 { return float64(col) + 1.5 }
	rowY := func(row int) float64 { return 15.4 - float64(row) }
	l := Layout{
		Width: unitsWide, Height: unitsHigh,
		Sizes: LayoutSizes{Square: squareR, Ring: ringR, Pawn: pawnR, Line: lineW, Goal: 0.52},
		Colors: map[string]string{
			"ground": hex(groundColor), "frame": hex(frameColor), "line": hex(lineColor),
			"ring": hex(startRingColor), "coord": hex(coordColor), "goal": hex(goalColor),
			"barricade": hex(white), "barricadeShade": hex(barricadeShade), "badge": hex(badgeColor),
			"badgeEdge": hex(badgeEdge), "card": hex(cardColor), "cardEdge": hex(cardEdge), "pip": hex(pipColor),
		},
	}
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		l.Squares = append(l.Squares, LayoutSquare{
			Name: s.String(), X: colX(s.Col()), Y: rowY(s.Row()),
			BarricadeStart: engine.IsBarricadeStart(s), Goal: s == engine.Goal,
		})
		for _, n := range engine.Neighbors(s) {
			if n > s {
				l.Lines = append(l.Lines, [2]int{int(s), int(n)})
			}
		}
	}
	hw, hh := g.houseSize()
	for c := engine.Red; c <= engine.Blue; c++ {
		entry := engine.Entry(c)
		hx, hy := colX(entry.Col()), houseTop+1.0
		h := LayoutHouse{Color: c.String(), X: hx, Y: hy, W: hw, H: hh, Entry: int(entry), LineTo: hy - hh/2}
		for i := range 5 {
			dx := [5]float64{-1, 0, 1, -0.5, 0.5}[i]
			dy := [5]float64{-0.45, -0.45, -0.45, 0.45, 0.45}[i]
			h.Slots = append(h.Slots, [2]float64{hx + dx, hy + dy})
		}
		l.Houses = append(l.Houses, h)
		st := pawnStyles[c]
		l.Pawns = append(l.Pawns, LayoutPawn{
			Color: c.String(), Fill: hex(st.fill), Dark: hex(st.dark), Light: hex(st.light),
			Text: hex(st.text), Tint: hex(st.tint), Letter: st.letter,
		})
	}
	return l
}
