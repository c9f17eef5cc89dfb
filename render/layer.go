package render

import (
	"image"
	"image/color"
	"sync"

	"github.com/fogleman/gg"

	"github.com/malefiz-discord/malefiz/engine"
)

// layer holds everything drawn once for one image width: the base layer
// (ground, lines, squares, coordinates), the pieces as sprites, and the
// palette used for PNG and GIF output. It is shared by all Renderers of that
// width and is read-only once built, except for the badge cache.
type layer struct {
	g         geom
	base      *image.RGBA
	pawn      [engine.NumColors]*sprite
	bigPawn   [engine.NumColors]*sprite
	miniPawn  [engine.NumColors]*sprite
	fromRing  [engine.NumColors]*sprite
	house     [engine.NumColors][numHouseStates]*sprite
	die       [7]*sprite
	barricade *sprite
	crown     *sprite
	burst     *sprite
	destRing  *sprite
	candMark  *sprite
	goalGlow  *sprite
	card      *sprite

	paletteOnce sync.Once
	pal         color.Palette
	lut         []uint8 // 15-bit RGB → palette index
	basePal     rows    // the base layer in the palette

	mu         sync.Mutex
	badges     map[badgeKey]*sprite
	composites map[compositeKey]*composite

	canvases spares[*canvas] // for PNG and GIF frames
}

// spareCanvases is how many canvases of one width wait between drawings:
// as many as boards drawn at once by a busy process's few cores.
const spareCanvases = 4

// maxLayers is how many widths stay cached at once.
const maxLayers = 6

var (
	layersMu sync.Mutex
	layers   = map[int]*layerEntry{}
)

type layerEntry struct {
	once sync.Once
	l    *layer
}

// layerFor returns the cached layer for width, building it on first use.
func layerFor(width int) *layer {
	layersMu.Lock()
	e := layers[width]
	if e == nil {
		// Each width costs a few megabytes: keep a handful. Renderers hold
		// no layer, so one dropped here is rebuilt when next needed.
		for w := range layers {
			if len(layers) < maxLayers {
				break
			}
			delete(layers, w)
		}
		e = &layerEntry{}
		layers[width] = e
	}
	layersMu.Unlock()
	e.once.Do(func() { e.l = newLayer(width) })
	return e.l
}

func newLayer(width int) *layer {
	g := newGeom(width)
	u := g.u
	l := &layer{g: g, base: drawBoard(g), badges: map[badgeKey]*sprite{}, composites: map[compositeKey]*composite{}, canvases: newSpares[*canvas](spareCanvases)}
	for c := engine.Red; c <= engine.Blue; c++ {
		dc, x, y := newSprite(2*pawnR*u+0.2*u, 2*pawnR*u+0.2*u)
		drawPawn(dc, c, x, y, pawnR*u)
		l.pawn[c] = spriteOf(dc)

		dc, x, y = newSprite(2.3*u, 2.3*u)
		drawPawn(dc, c, x, y, 1.0*u)
		l.bigPawn[c] = spriteOf(dc)

		dc, x, y = newSprite(0.9*u, 0.9*u)
		drawPawn(dc, c, x, y, 0.34*u)
		l.miniPawn[c] = spriteOf(dc)

		dc, x, y = newSprite(u, u)
		dc.SetLineWidth(0.2 * u)
		dc.SetColor(lineColor)
		dc.DrawCircle(x, y, 0.36*u)
		dc.Stroke()
		dc.SetLineWidth(0.1 * u)
		dc.SetColor(pawnStyles[c].fill)
		dc.DrawCircle(x, y, 0.36*u)
		dc.Stroke()
		l.fromRing[c] = spriteOf(dc)

		hw, hh := g.houseSize()
		for st := 0; st < numHouseStates; st++ {
			dc, x, y = newSprite(hw+0.5*u, hh+0.5*u)
			drawHouse(dc, g, c, st, x, y)
			l.house[c][st] = spriteOf(dc)
		}
		// Houses in play are part of the base layer; the others are drawn
		// over them when needed.
		hx, hy := g.house(c)
		l.house[c][houseIn].put(&canvas{RGBA: l.base}, hx, hy)
	}
	for n := 1; n <= 6; n++ {
		dc, x, y := newSprite(2.1*u, 2.1*u)
		drawDie(dc, n, x, y, 1.9*u)
		l.die[n] = spriteOf(dc)
	}
	dc, x, y := newSprite(u, u)
	drawBarricade(dc, x, y, u)
	l.barricade = spriteOf(dc)

	dc, x, y = newSprite(2*u, 2*u)
	drawCrown(dc, x, y, 1.7*u)
	l.crown = spriteOf(dc)

	dc, x, y = newSprite(1.2*u, 1.2*u)
	drawStar(dc, 10, x, y, 0.54*u, 0.38*u, 0)
	dc.SetColor(white)
	dc.FillPreserve()
	dc.SetColor(lineColor)
	dc.SetLineWidth(0.05 * u)
	dc.SetLineJoinRound()
	dc.Stroke()
	l.burst = spriteOf(dc)

	dc, x, y = newSprite(1.3*u, 1.3*u)
	ringed(dc, x, y, 0.55*u, 0.12*u, badgeColor)
	l.destRing = spriteOf(dc)

	dc, x, y = newSprite(u, u)
	dc.SetColor(white)
	dc.DrawCircle(x, y, 0.14*u)
	dc.Fill()
	l.candMark = spriteOf(dc)

	dc, x, y = newSprite(1.5*u, 1.5*u)
	ringed(dc, x, y, 0.62*u, 0.14*u, crownColor)
	l.goalGlow = spriteOf(dc)

	_, _, pw, ph := g.panel(false)
	dc, x, y = newSprite(pw, ph)
	dc.SetColor(cardEdge)
	dc.DrawRoundedRectangle(x-pw/2, y-ph/2, pw, ph, 0.4*u)
	dc.Fill()
	dc.SetColor(cardColor)
	dc.DrawRoundedRectangle(x-pw/2+0.06*u, y-ph/2+0.06*u, pw-0.12*u, ph-0.12*u, 0.35*u)
	dc.Fill()
	l.card = spriteOf(dc)
	return l
}

// ringed strokes a ring of colour c with thin white and dark edges, so that
// it stands out on the yellow ground, on black squares and on pieces alike.
func ringed(dc *gg.Context, x, y, r, w float64, c color.RGBA) {
	dc.SetColor(lineColor)
	dc.SetLineWidth(w + 0.08*r)
	dc.DrawCircle(x, y, r)
	dc.Stroke()
	dc.SetColor(white)
	dc.SetLineWidth(w + 0.04*r)
	dc.DrawCircle(x, y, r)
	dc.Stroke()
	dc.SetColor(c)
	dc.SetLineWidth(w - 0.04*r)
	dc.DrawCircle(x, y, r)
	dc.Stroke()
}

// Badge kinds.
const (
	badgeMove      = iota // a legal destination or a pawn to pick: matches a button
	badgeCandidate        // a square for a captured barricade
)

type badgeKey struct {
	text string
	kind int
}

// badge returns the cached badge sprite showing text.
func (l *layer) badge(text string, kind int) *sprite {
	k := badgeKey{text, kind}
	l.mu.Lock()
	defer l.mu.Unlock()
	if sp := l.badges[k]; sp != nil {
		return sp
	}
	u := l.g.u
	face := newFace(badgeFont * u)
	h := badgeH * u
	w := max(h, textWidth(face, text)+0.36*u)
	dc, x, y := newSprite(w+0.1*u, h+0.1*u)
	fill, edge, ink := badgeColor, white, white
	if kind == badgeCandidate {
		fill, edge, ink = white, lineColor, lineColor
	}
	r := 0.24 * u
	dc.SetColor(lineColor)
	dc.DrawRoundedRectangle(x-w/2-0.04*u, y-h/2-0.04*u, w+0.08*u, h+0.08*u, r+0.04*u)
	dc.Fill()
	dc.SetColor(edge)
	dc.DrawRoundedRectangle(x-w/2, y-h/2, w, h, r)
	dc.Fill()
	dc.SetColor(fill)
	dc.DrawRoundedRectangle(x-w/2+0.07*u, y-h/2+0.07*u, w-0.14*u, h-0.14*u, r-0.06*u)
	dc.Fill()
	dc.SetColor(ink)
	drawText(dc, face, text, "", x, y)
	sp := spriteOf(dc)
	if len(l.badges) < 1000 {
		l.badges[k] = sp
	}
	return sp
}
