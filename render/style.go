package render

import (
	"image/color"
	"math"

	"github.com/malefiz-discord/malefiz/engine"
)

// The board's colours. Pawn colours are chosen to differ in lightness as well
// as hue, and every pawn also carries its letter.
var (
	groundColor    = color.RGBA{243, 199, 88, 255}  // warm yellow
	frameColor     = color.RGBA{196, 140, 40, 255}  // darker rim of the ground
	lineColor      = color.RGBA{26, 22, 18, 255}    // squares and lines
	startRingColor = color.RGBA{206, 32, 32, 255}   // barricade start squares
	coordColor     = color.RGBA{74, 46, 8, 255}     // a–q, 1–14
	goalColor      = color.RGBA{255, 224, 120, 255} // goal ring and star
	white          = color.RGBA{255, 255, 255, 255}
	barricadeShade = color.RGBA{196, 196, 190, 255}
	badgeColor     = color.RGBA{112, 26, 160, 255} // move labels: a colour no player has
	badgeEdge      = color.RGBA{40, 6, 60, 255}
	cardColor      = color.RGBA{255, 246, 222, 255}
	cardEdge       = color.RGBA{170, 118, 30, 255}
	pipColor       = color.RGBA{24, 24, 24, 255}
	inactiveFill   = color.RGBA{226, 206, 160, 255}
	inactiveEdge   = color.RGBA{176, 150, 100, 255}
	crownColor     = color.RGBA{255, 196, 0, 255}
	crownEdge      = color.RGBA{120, 70, 0, 255}
)

// The charts' colours, for Discord's dark theme: the card is the colour of
// an embed there, so the chart sits in a dark client like one, and still
// reads as a dark card in the light theme.
var (
	chartBg        = color.RGBA{43, 45, 49, 255}    // Discord's embed background, #2B2D31
	chartEdge      = color.RGBA{30, 31, 34, 255}    // #1E1F22
	gridColor      = color.RGBA{63, 66, 72, 255}    // faint lines
	axisColor      = color.RGBA{181, 186, 193, 255} // labels: Discord's secondary text
	chartText      = color.RGBA{242, 243, 245, 255} // Discord's normal text
	chartLineColor = color.RGBA{232, 185, 35, 255}  // the bot's gold
	chartInk       = color.RGBA{30, 24, 0, 255}     // text on the gold
	discInk        = color.RGBA{10, 10, 12, 255}    // a seat's letter on its disc, 4.5:1 on every line colour
)

// seatLineColors are the seats' colours on the dark chart card, lighter
// than the pawns' where these would be too dark on it: each with a
// contrast of at least 3.5 to chartBg, and every two at least 20 apart
// (CIEDE2000) for protanopia, deuteranopia and tritanopia too
// (TestPlayerColoursStayApartForColourBlindEyes).
var seatLineColors = [engine.NumColors]color.RGBA{
	engine.Red:    {249, 36, 75, 255},
	engine.Green:  {133, 224, 179, 255},
	engine.Yellow: {250, 250, 56, 255},
	engine.Blue:   {51, 133, 204, 255},
}

// pawnStyle holds the colours of one player's pieces.
type pawnStyle struct {
	fill, dark, light, text color.RGBA
	tint                    color.RGBA // house ground
	letter                  string
}

// pawnStyles are the players' pieces. The fills stay at least 20 apart
// (CIEDE2000) for protanopia, deuteranopia and tritanopia: a crimson red
// and a dark green, which those eyes would otherwise take for one brown
// (TestPlayerColoursStayApartForColourBlindEyes); each carries its letter
// besides, at a contrast of at least 4.5 (TestTextContrast).
var pawnStyles = [engine.NumColors]pawnStyle{
	engine.Red: {
		fill: color.RGBA{207, 61, 98, 255}, dark: color.RGBA{72, 10, 28, 255},
		light: color.RGBA{240, 128, 156, 255}, text: white,
		tint: color.RGBA{244, 182, 192, 255}, letter: "R",
	},
	engine.Green: {
		fill: color.RGBA{21, 82, 20, 255}, dark: color.RGBA{4, 30, 4, 255},
		light: color.RGBA{76, 146, 72, 255}, text: white,
		tint: color.RGBA{172, 202, 150, 255}, letter: "G",
	},
	engine.Yellow: {
		fill: color.RGBA{255, 236, 60, 255}, dark: color.RGBA{60, 44, 0, 255},
		light: color.RGBA{255, 250, 180, 255}, text: color.RGBA{30, 24, 0, 255},
		tint: color.RGBA{252, 228, 130, 255}, letter: "Y",
	},
	engine.Blue: {
		fill: color.RGBA{0, 119, 204, 255}, dark: color.RGBA{0, 36, 80, 255},
		light: color.RGBA{96, 172, 236, 255}, text: white,
		tint: color.RGBA{170, 200, 226, 255}, letter: "B",
	},
}

// designColors are the flat colours of the drawing, kept exact in palette output.
func designColors() []color.RGBA {
	out := []color.RGBA{groundColor, frameColor, lineColor, startRingColor, coordColor,
		goalColor, white, barricadeShade, badgeColor, badgeEdge, cardColor, cardEdge,
		pipColor, inactiveFill, inactiveEdge, crownColor, crownEdge}
	for _, s := range pawnStyles {
		out = append(out, s.fill, s.dark, s.light, s.text, s.tint)
	}
	return out
}

// geom is the layout of a board image, in units of u, the distance between
// two neighbouring squares. The board's 17 columns sit between two margins
// of one unit that hold the row numbers; a band above row 14 and one below
// row 1 hold the column letters; the houses hang below.
type geom struct {
	w, h int
	u    float64
}

const (
	unitsWide = 19.0  // margin + 17 columns + margin
	unitsHigh = 18.15 // top band + 14 rows + letter band + houses
	houseTop  = 15.85 // top of the houses, in units
)

func newGeom(width int) geom {
	u := float64(width) / unitsWide
	return geom{w: width, h: int(math.Round(unitsHigh * u)), u: u}
}

// colX and rowY give the centre of column col (0 = a) and row (1 to 14), in
// whole pixels so that cached sprites line up exactly with the base layer.
func (g geom) colX(col int) float64 { return math.Round((float64(col) + 1.5) * g.u) }
func (g geom) rowY(row int) float64 { return math.Round((15.4 - float64(row)) * g.u) }

// at returns the centre of square s.
func (g geom) at(s engine.Square) (x, y float64) { return g.colX(s.Col()), g.rowY(s.Row()) }

// house returns the centre of colour c's house.
func (g geom) house(c engine.Color) (x, y float64) {
	return g.colX(engine.Entry(c).Col()), math.Round((houseTop + 1.0) * g.u)
}

// houseSize is the width and height of a house in pixels.
func (g geom) houseSize() (w, h float64) { return 3.3 * g.u, 2.0 * g.u }

// slot returns the centre of pawn slot i (0 to 4) of colour c's house: three
// on top, two below.
func (g geom) slot(c engine.Color, i int) (x, y float64) {
	hx, hy := g.house(c)
	dx := [5]float64{-1, 0, 1, -0.5, 0.5}[i]
	dy := [5]float64{-0.45, -0.45, -0.45, 0.45, 0.45}[i]
	return math.Round(hx + dx*g.u), math.Round(hy + dy*g.u)
}

// Sizes of the pieces in units.
const (
	squareR   = 0.30 // black square
	ringR     = 0.43 // red ring of a barricade start square
	pawnR     = 0.42 // pawn disc
	lineW     = 0.11 // lines joining squares
	badgeH    = 0.80 // label badge height
	badgeFont = 0.66 // label text size (em)
	pawnFont  = 0.68 // pawn letter size (em)
	coordFont = 0.62 // coordinates size (em)
)

// panel is one of the two cards drawn in the empty areas beside rows 8 to
// 10: the left one shows whose turn it is and the die, the right one the winner.
func (g geom) panel(right bool) (x, y, w, h float64) {
	x, y, w, h = 1.15*g.u, 5.0*g.u, 5.75*g.u, 2.8*g.u
	if right {
		x = float64(g.w) - x - w
	}
	return x, y, w, h
}
