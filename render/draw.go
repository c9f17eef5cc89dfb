package render

import (
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/math/fixed"

	"github.com/malefiz-discord/malefiz/engine"
)

var boldFont = sync.OnceValue(func() *truetype.Font {
	f, err := truetype.Parse(gobold.TTF)
	if err != nil {
		panic("render: embedded Go Bold font: " + err.Error())
	}
	return f
})

// newFace returns a Go Bold face of size px. Faces are not safe for
// concurrent use: each drawing makes its own. Its glyph cache holds
// faceGlyphs glyphs: truetype's default, 512, allocates a mask image of
// 180 KB to 900 KB per face (12 to 30 px), for the few letters a drawing
// writes; 64 take 36 KB to 132 KB.
func newFace(px float64) font.Face {
	return truetype.NewFace(boldFont(), &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingNone, GlyphCacheEntries: faceGlyphs})
}

// faceGlyphs is the size of a face's glyph cache: a power of two, more
// than the distinct characters of the longest label.
const faceGlyphs = 64

func fx(v fixed.Int26_6) float64 { return float64(v) / 64 }

// drawText draws s with the middle of its ink centred on x and the middle of
// ref's ink on y (ref "" means s itself), so that a row of lower-case letters
// shares one baseline.
func drawText(dc *gg.Context, face font.Face, s, ref string, x, y float64) {
	b, _ := font.BoundString(face, s)
	if ref == "" {
		ref = s
	}
	rb, _ := font.BoundString(face, ref)
	dc.SetFontFace(face)
	dc.DrawString(s, x-(fx(b.Min.X)+fx(b.Max.X))/2, y-(fx(rb.Min.Y)+fx(rb.Max.Y))/2)
}

// textWidth returns the ink width of s.
func textWidth(face font.Face, s string) float64 {
	b, _ := font.BoundString(face, s)
	return fx(b.Max.X) - fx(b.Min.X)
}

// sprite is a small cached picture drawn centred on a point.
type sprite struct {
	img    *image.RGBA
	ox, oy int // the pixel of img that lands on the point
}

// newSprite returns a transparent canvas of at least w×h pixels, of even
// size, with its centre on a pixel corner, and the centre's coordinates.
func newSprite(w, h float64) (*gg.Context, float64, float64) {
	iw := 2 * int(math.Ceil(w/2+1))
	ih := 2 * int(math.Ceil(h/2+1))
	dc := gg.NewContext(iw, ih)
	return dc, float64(iw / 2), float64(ih / 2)
}

func spriteOf(dc *gg.Context) *sprite {
	img := dc.Image().(*image.RGBA)
	return &sprite{img: img, ox: img.Rect.Dx() / 2, oy: img.Rect.Dy() / 2}
}

// canvas is an image being drawn, with the rectangles drawn on so far: the
// rest still equals the base layer.
type canvas struct {
	*image.RGBA
	dirty []image.Rectangle
	// rows, when set, is the drawing converted to the palette for PNG
	// output: the converted base layer outside dirty (see palettedRows).
	rows rows
	// composites are the composites drawn, each over one dirty rectangle.
	composites []*composite
}

func (c *canvas) mark(r image.Rectangle) {
	if r = r.Intersect(c.Rect); !r.Empty() {
		c.dirty = append(c.dirty, r)
	}
}

// compact drops the dirty rectangles that lie inside another one (a ring
// over a pawn, pieces under a trail's box), so that restoring and
// quantizing visit those pixels once. The union stays the same.
func (c *canvas) compact() {
	d := c.dirty
	var buf [128]bool
	drop := buf[:0]
	if len(d) > len(buf) {
		drop = make([]bool, 0, len(d))
	}
	for i, r := range d {
		inside := false
		for j, o := range d {
			// Of two equal rectangles keep the first.
			// A composite's rectangle takes no other: what is drawn over
			// a composite must be converted to the palette with it.
			if j != i && r.In(o) && (r != o || j < i) && !c.isComposite(o) {
				inside = true
				break
			}
		}
		drop = append(drop, inside)
	}
	out := d[:0]
	for i, r := range d {
		if !drop[i] {
			out = append(out, r)
		}
	}
	c.dirty = out
}

// isComposite reports whether r is the rectangle of a composite drawn.
func (c *canvas) isComposite(r image.Rectangle) bool {
	for _, cp := range c.composites {
		if cp.r == r {
			return true
		}
	}
	return false
}

// markPath marks the bounding box of a path of squares, widened by pad.
func (c *canvas) markPath(g geom, path []engine.Square, pad float64) {
	var r image.Rectangle
	for i, sq := range path {
		x, y := g.at(sq)
		p := int(math.Ceil(pad)) + 2
		b := image.Rect(int(x)-p, int(y)-p, int(x)+p, int(y)+p)
		if i == 0 {
			r = b
		} else {
			r = r.Union(b)
		}
	}
	c.mark(r)
}

// put draws sp centred on (x, y). It blends premultiplied pixels itself,
// copying opaque ones and skipping clear ones, which is several times faster
// than draw.Draw for sprites that are mostly one or the other.
func (sp *sprite) put(dst *canvas, x, y float64) {
	px, py := int(math.Round(x))-sp.ox, int(math.Round(y))-sp.oy
	r := sp.rectAt(x, y).Intersect(dst.Rect)
	if r.Empty() {
		return
	}
	dst.mark(r)
	n := r.Dx() * 4
	for row := r.Min.Y; row < r.Max.Y; row++ {
		so := (row-py)*sp.img.Stride + (r.Min.X-px)*4
		s := sp.img.Pix[so : so+n : so+n]
		do := dst.PixOffset(r.Min.X, row)
		d := dst.Pix[do : do+n : do+n]
		for i := 0; i+3 < len(s); i += 4 {
			switch a := uint32(s[i+3]); a {
			case 0:
			case 255:
				d[i], d[i+1], d[i+2], d[i+3] = s[i], s[i+1], s[i+2], s[i+3]
			default:
				k := 255 - a
				d[i] = uint8(uint32(s[i]) + (uint32(d[i])*k+127)/255)
				d[i+1] = uint8(uint32(s[i+1]) + (uint32(d[i+1])*k+127)/255)
				d[i+2] = uint8(uint32(s[i+2]) + (uint32(d[i+2])*k+127)/255)
				d[i+3] = uint8(a + (uint32(d[i+3])*k+127)/255)
			}
		}
	}
}

// rectAt returns the rectangle sp covers when centred on (x, y).
func (sp *sprite) rectAt(x, y float64) image.Rectangle {
	px, py := int(math.Round(x))-sp.ox, int(math.Round(y))-sp.oy
	return image.Rect(px, py, px+sp.img.Rect.Dx(), py+sp.img.Rect.Dy())
}

// putAt draws sp centred on square s.
func (sp *sprite) putAt(dst *canvas, g geom, s engine.Square) {
	x, y := g.at(s)
	sp.put(dst, x, y)
}

func mix(a, b color.RGBA, t float64) color.RGBA {
	l := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-t) + float64(y)*t)) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), 255}
}

func withAlpha(c color.RGBA, a float64) color.NRGBA {
	return color.NRGBA{c.R, c.G, c.B, uint8(math.Round(a * 255))}
}

// drawPawn draws a pawn disc of colour c with radius r and its letter.
func drawPawn(dc *gg.Context, c engine.Color, x, y, r float64) {
	st := pawnStyles[c]
	dc.SetColor(withAlpha(lineColor, 0.35))
	dc.DrawCircle(x+0.06*r, y+0.12*r, r)
	dc.Fill()
	dc.SetColor(st.dark)
	dc.DrawCircle(x, y, r)
	dc.Fill()
	dc.SetColor(st.fill)
	dc.DrawCircle(x, y, r*0.82)
	dc.Fill()
	// A light arc on the upper left gives the disc some depth.
	dc.SetColor(withAlpha(st.light, 0.9))
	dc.SetLineWidth(r * 0.12)
	dc.SetLineCapRound()
	dc.DrawArc(x, y, r*0.66, math.Pi*1.05, math.Pi*1.45)
	dc.Stroke()
	dc.SetColor(st.text)
	drawText(dc, newFace(r*pawnFont/pawnR), st.letter, "", x, y)
}

// drawBarricade draws a barricade: a white block with a dark outline.
func drawBarricade(dc *gg.Context, x, y, u float64) {
	s := 0.84 * u
	dc.SetColor(withAlpha(lineColor, 0.35))
	dc.DrawRoundedRectangle(x-s/2+0.04*u, y-s/2+0.07*u, s, s, 0.16*u)
	dc.Fill()
	dc.SetColor(lineColor)
	dc.DrawRoundedRectangle(x-s/2, y-s/2, s, s, 0.16*u)
	dc.Fill()
	in := s - 0.14*u
	dc.SetColor(barricadeShade)
	dc.DrawRoundedRectangle(x-in/2, y-in/2, in, in, 0.1*u)
	dc.Fill()
	top := in - 0.12*u
	dc.SetColor(white)
	dc.DrawRoundedRectangle(x-in/2, y-in/2, in, top, 0.1*u)
	dc.Fill()
}

// drawStar draws a filled n-pointed star.
func drawStar(dc *gg.Context, n int, x, y, outer, inner, rot float64) {
	for i := 0; i < 2*n; i++ {
		r := outer
		if i%2 == 1 {
			r = inner
		}
		a := rot + float64(i)*math.Pi/float64(n)
		dc.LineTo(x+r*math.Sin(a), y-r*math.Cos(a))
	}
	dc.ClosePath()
}

// drawCrown draws a crown of width w centred on (x, y).
func drawCrown(dc *gg.Context, x, y, w float64) {
	h := w * 0.72
	l, r, t, b := x-w/2, x+w/2, y-h/2, y+h/2
	dc.MoveTo(l, b)
	dc.LineTo(l, t+h*0.25)
	dc.LineTo(l+w*0.25, t+h*0.55)
	dc.LineTo(x, t)
	dc.LineTo(r-w*0.25, t+h*0.55)
	dc.LineTo(r, t+h*0.25)
	dc.LineTo(r, b)
	dc.ClosePath()
	dc.SetColor(crownColor)
	dc.FillPreserve()
	dc.SetColor(crownEdge)
	dc.SetLineWidth(w * 0.06)
	dc.SetLineJoinRound()
	dc.Stroke()
	dc.SetColor(crownEdge)
	for _, px := range []float64{l, x, r} {
		py := t + h*0.25
		if px == x {
			py = t
		}
		dc.DrawCircle(px, py, w*0.07)
		dc.Fill()
	}
	dc.SetColor(startRingColor)
	dc.DrawCircle(x, b-h*0.28, w*0.08)
	dc.Fill()
}

// drawDie draws a die of side s showing n pips.
func drawDie(dc *gg.Context, n int, x, y, s float64) {
	dc.SetColor(withAlpha(lineColor, 0.35))
	dc.DrawRoundedRectangle(x-s/2+s*0.03, y-s/2+s*0.05, s, s, s*0.18)
	dc.Fill()
	dc.SetColor(lineColor)
	dc.DrawRoundedRectangle(x-s/2, y-s/2, s, s, s*0.18)
	dc.Fill()
	in := s * 0.92
	dc.SetColor(white)
	dc.DrawRoundedRectangle(x-in/2, y-in/2, in, in, s*0.15)
	dc.Fill()
	o := s * 0.26
	pips := map[int][][2]float64{
		1: {{0, 0}},
		2: {{-1, -1}, {1, 1}},
		3: {{-1, -1}, {0, 0}, {1, 1}},
		4: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
		5: {{-1, -1}, {1, -1}, {0, 0}, {-1, 1}, {1, 1}},
		6: {{-1, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {1, 1}},
	}[n]
	dc.SetColor(pipColor)
	for _, p := range pips {
		dc.DrawCircle(x+p[0]*o, y+p[1]*o, s*0.1)
		dc.Fill()
	}
}

// drawBoard draws the parts of the board that never change.
func drawBoard(g geom) *image.RGBA {
	dc := gg.NewContext(g.w, g.h)
	u := g.u
	dc.SetColor(frameColor)
	dc.Clear()
	m := 0.12 * u
	dc.SetColor(groundColor)
	dc.DrawRoundedRectangle(m, m, float64(g.w)-2*m, float64(g.h)-2*m, 0.5*u)
	dc.Fill()

	// Lines between neighbours, and from each entry square down to its house.
	dc.SetColor(lineColor)
	dc.SetLineWidth(lineW * u)
	dc.SetLineCapButt()
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		x, y := g.at(s)
		for _, n := range engine.Neighbors(s) {
			if n > s {
				nx, ny := g.at(n)
				dc.DrawLine(x, y, nx, ny)
				dc.Stroke()
			}
		}
	}
	for c := engine.Red; c <= engine.Blue; c++ {
		x, y := g.at(engine.Entry(c))
		_, hy := g.house(c)
		_, hh := g.houseSize()
		dc.SetColor(lineColor)
		dc.DrawLine(x, y, x, hy-hh/2)
		dc.Stroke()
	}

	// Squares; red rings on the barricades' start squares; the goal.
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		x, y := g.at(s)
		if s == engine.Goal {
			dc.SetColor(lineColor)
			dc.DrawCircle(x, y, 0.52*u)
			dc.Fill()
			dc.SetColor(goalColor)
			dc.DrawCircle(x, y, 0.45*u)
			dc.Fill()
			dc.SetColor(lineColor)
			dc.DrawCircle(x, y, 0.36*u)
			dc.Fill()
			dc.SetColor(goalColor)
			drawStar(dc, 5, x, y+0.02*u, 0.28*u, 0.12*u, 0)
			dc.Fill()
			continue
		}
		if engine.IsBarricadeStart(s) {
			dc.SetColor(startRingColor)
			dc.DrawCircle(x, y, ringR*u)
			dc.Fill()
		}
		dc.SetColor(lineColor)
		dc.DrawCircle(x, y, squareR*u)
		dc.Fill()
	}

	// Coordinates: letters above row 14 and below row 1, numbers both sides.
	face := newFace(coordFont * u)
	dc.SetColor(coordColor)
	for col := 0; col < 17; col++ {
		s := string(rune('a' + col))
		x := g.colX(col)
		drawText(dc, face, s, "x", x, 0.52*u)
		by := g.rowY(1) + 0.95*u
		// The letter sits on the line down to a house: clear the line behind it.
		dc.SetColor(groundColor)
		dc.DrawCircle(x, by, 0.3*u)
		dc.Fill()
		dc.SetColor(coordColor)
		drawText(dc, face, s, "x", x, by)
	}
	for row := 1; row <= 14; row++ {
		s := itoa(row)
		y := g.rowY(row)
		drawText(dc, face, s, "0", 0.55*u, y)
		drawText(dc, face, s, "0", float64(g.w)-0.55*u, y)
	}
	return dc.Image().(*image.RGBA)
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// House states.
const (
	houseOut  = iota // colour not in play
	houseIn          // in play
	houseTurn        // in play and to move
	numHouseStates
)

// drawHouse draws colour c's house in state st, centred on (x, y).
func drawHouse(dc *gg.Context, g geom, c engine.Color, st int, x, y float64) {
	u := g.u
	w, h := g.houseSize()
	ps := pawnStyles[c]
	fill, edge := ps.tint, ps.dark
	if st == houseOut {
		fill, edge = inactiveFill, inactiveEdge
	}
	if st == houseTurn {
		// Black, white and the colour: stands out whatever the colour.
		for _, band := range []struct {
			d float64
			c color.RGBA
		}{{0.25, lineColor}, {0.2, white}, {0.13, ps.fill}} {
			d := band.d * u
			dc.SetColor(band.c)
			dc.DrawRoundedRectangle(x-w/2-d, y-h/2-d, w+2*d, h+2*d, 0.32*u+d)
			dc.Fill()
		}
	}
	dc.SetColor(edge)
	dc.DrawRoundedRectangle(x-w/2, y-h/2, w, h, 0.32*u)
	dc.Fill()
	dc.SetColor(fill)
	dc.DrawRoundedRectangle(x-w/2+0.07*u, y-h/2+0.07*u, w-0.14*u, h-0.14*u, 0.26*u)
	dc.Fill()
	hx, hy := g.house(c)
	for i := 0; i < engine.PawnsPerColor; i++ {
		sx, sy := g.slot(c, i)
		sx, sy = sx-hx+x, sy-hy+y
		dc.SetColor(mix(fill, edge, 0.18))
		dc.DrawCircle(sx, sy, 0.36*u)
		dc.Fill()
		dc.SetColor(withAlpha(edge, 0.55))
		dc.SetLineWidth(0.04 * u)
		dc.DrawCircle(sx, sy, 0.36*u)
		dc.Stroke()
	}
}
