package render

import (
	"bytes"
	"image"
	"math"

	"github.com/fogleman/gg"

	"github.com/malefiz-discord/malefiz/engine"
)

// DefaultWidth is the width in pixels of images drawn by New(0).
const DefaultWidth = 1024

// Limits on the width of a board image.
const (
	MinWidth = 190
	MaxWidth = 4096
)

// Renderer draws board images of one width. It is safe for concurrent use.
// The parts that never change are drawn once per width and shared by all
// Renderers of that width.
type Renderer struct {
	width int
}

// New returns a Renderer for images width pixels wide (0 means DefaultWidth;
// other values are clamped to MinWidth..MaxWidth). The height follows from
// the width: about 0.955 times it.
func New(width int) *Renderer {
	if width == 0 {
		width = DefaultWidth
	}
	return &Renderer{width: min(max(width, MinWidth), MaxWidth)}
}

// Width returns the width of the images in pixels.
func (r *Renderer) Width() int { return r.width }

// Height returns the height of the images in pixels.
func (r *Renderer) Height() int { return newGeom(r.width).h }

// Label marks a square with a short text, such as the letter of the button
// that plays a move ending there. Text may hold several letters ("A B") when
// two moves share a destination.
type Label struct {
	// Square is the square labelled. In Scene.Origins, engine.NoSquare
	// labels the house of the colour to move (a pawn entering the board).
	Square engine.Square
	// Text is drawn in a badge; keep it short (one to three characters).
	Text string
}

// Scene is what one image shows: a position and optional overlays. The
// colour fields use engine.NoColor for "none"; since engine.Red is the zero
// Color, start from NewScene rather than a bare literal.
type Scene struct {
	// Position is the position drawn: pieces on squares and pawns at home.
	Position engine.Position
	// Turn is the colour to move, shown beside the die and by a highlighted
	// house; NoColor shows none.
	Turn engine.Color
	// Roll is the die to show, 1 to 6; 0 shows none.
	Roll int
	// LastPath is the path of the last move, first square to last, drawn as
	// a trail in the mover's colour; nil shows none.
	LastPath []engine.Square
	// Captured is the colour of a pawn captured by the last move, shown
	// knocked out beside the end of LastPath; NoColor shows none.
	Captured engine.Color
	// Labels marks the legal destinations of the roll with their button
	// letters.
	Labels []Label
	// Origins marks pawns with the letters of the buttons that pick them,
	// for a player choosing a pawn first.
	Origins []Label
	// Candidates marks the squares offered for a captured barricade; the
	// text may be empty ("any of these") or short ("1", "2").
	Candidates []Label
	// Winner is the colour that won, shown with a crown; NoColor shows none.
	Winner engine.Color
}

// NewScene returns a scene showing p with no overlays except whose turn it
// is, or its winner when a pawn stands on the goal.
func NewScene(p engine.Position) Scene {
	s := Scene{Position: p, Turn: p.Turn(), Captured: engine.NoColor, Winner: p.Winner()}
	if p.Over() {
		s.Turn = engine.NoColor
	}
	return s
}

// Image draws the scene. The caller owns the returned image.
func (r *Renderer) Image(s Scene) *image.RGBA {
	return layerFor(r.width).draw(&s)
}

// PNG draws the scene and encodes it as an 8-bit palette PNG: about 30 KB
// at 640 pixels wide, 60 KB at the default width. It draws on a pooled
// canvas and its pooled paletted copy, so a board allocates little more than
// the returned bytes.
func (r *Renderer) PNG(s Scene) ([]byte, error) {
	l := layerFor(r.width)
	img := l.getCanvas()
	l.drawOn(img, &s)
	data, err := encodeRows(l.palettedRows(img), paletteSize)
	l.canvases.put(img)
	return data, err
}

// draw paints the scene on a copy of the base layer.
func (l *layer) draw(s *Scene) *image.RGBA {
	img := &canvas{RGBA: l.baseCopy(nil)}
	l.drawOn(img, s)
	return img.RGBA
}

// baseCopy returns a copy of the base layer, in dst when it is the right size.
func (l *layer) baseCopy(dst *image.RGBA) *image.RGBA {
	if dst == nil || dst.Rect != l.base.Rect {
		// bytes.Clone does not clear the memory it is about to fill.
		return &image.RGBA{Pix: bytes.Clone(l.base.Pix), Stride: l.base.Stride, Rect: l.base.Rect}
	}
	copy(dst.Pix, l.base.Pix)
	return dst
}

// getCanvas returns a canvas holding the base layer, for a drawing that is
// not handed out: put it back in l.canvases when done.
func (l *layer) getCanvas() *canvas {
	img, ok := l.canvases.get()
	if !ok {
		return &canvas{RGBA: l.baseCopy(nil)}
	}
	img.RGBA = l.restore(img)
	return img
}

// restore brings a canvas back to the base layer by copying the base over
// what was drawn on it only, in its paletted rows too, and returns its image.
func (l *layer) restore(img *canvas) *image.RGBA {
	for _, r := range img.dirty {
		n := 4 * r.Dx()
		for y := r.Min.Y; y < r.Max.Y; y++ {
			o := img.PixOffset(r.Min.X, y)
			copy(img.Pix[o:o+n], l.base.Pix[o:o+n])
		}
		if p := img.rows.p; p != nil {
			for y := r.Min.Y; y < r.Max.Y; y++ {
				o := p.PixOffset(r.Min.X, y)
				copy(p.Pix[o:o+r.Dx()], l.basePal.p.Pix[o:o+r.Dx()])
			}
		}
	}
	img.dirty = img.dirty[:0]
	img.composites = img.composites[:0]
	return img.RGBA
}

// drawOn draws the scene's pieces and overlays on img, which holds the base layer.
func (l *layer) drawOn(img *canvas, s *Scene) {
	g, u := l.g, l.g.u
	pos := &s.Position

	// Houses, with the pawns still at home.
	for c := engine.Red; c <= engine.Blue; c++ {
		st := houseOut
		if pos.InPlay(c) {
			st = houseIn
			if c == s.Turn && s.Winner == engine.NoColor {
				st = houseTurn
			}
		}
		home := min(pos.Home(c), engine.PawnsPerColor)
		if st == houseOut {
			home = 0
		}
		if st == houseIn && home == 0 {
			continue // the base layer shows it
		}
		l.drawComposite(img, compositeKey{compHouse, int(c), st, home}, func() {
			hx, hy := g.house(c)
			if st != houseIn {
				l.house[c][st].put(img, hx, hy)
			}
			for i := range home {
				x, y := g.slot(c, i)
				l.pawn[c].put(img, x, y)
			}
		})
	}

	// The cards beside rows 8 to 10: turn and die on the left, winner on the right.
	showTurn := s.Turn.Valid() && s.Winner == engine.NoColor
	showDie := s.Roll >= 1 && s.Roll <= 6
	if showTurn || showDie {
		turn, roll := engine.NoColor, 0
		if showTurn {
			turn = s.Turn
		}
		if showDie {
			roll = s.Roll
		}
		l.drawComposite(img, compositeKey{compTurnCard, int(turn), roll, 0}, func() {
			x, y, w, h := g.panel(false)
			l.card.put(img, x+w/2, y+h/2)
			cy := y + h/2
			switch {
			case showTurn && showDie:
				l.bigPawn[turn].put(img, x+1.45*u, cy)
				l.die[roll].put(img, x+w-1.55*u, cy)
			case showTurn:
				l.bigPawn[turn].put(img, x+w/2, cy)
			default:
				l.die[roll].put(img, x+w/2, cy)
			}
		})
	}
	if s.Winner.Valid() {
		l.drawComposite(img, compositeKey{compWinnerCard, int(s.Winner), 0, 0}, func() {
			x, y, w, h := g.panel(true)
			l.card.put(img, x+w/2, y+h/2)
			l.crown.put(img, x+1.55*u, y+h/2-0.05*u)
			l.bigPawn[s.Winner].put(img, x+w-1.45*u, y+h/2)
		})
		l.goalGlow.putAt(img, g, engine.Goal)
	}

	// The last move's trail, under the pieces.
	mover := engine.NoColor
	if n := len(s.LastPath); n > 0 && s.LastPath[n-1].Valid() {
		mover = pos.At(s.LastPath[n-1]).Color()
		l.trail(img, s.LastPath, mover)
	}

	for _, c := range s.Candidates {
		if c.Square.Valid() && pos.At(c.Square) == engine.Empty && c.Text == "" {
			l.candMark.putAt(img, g, c.Square)
		}
	}

	// Pieces.
	for sq := engine.Square(0); sq < engine.NumSquares; sq++ {
		switch p := pos.At(sq); {
		case p == engine.Barricade:
			l.barricade.putAt(img, g, sq)
		case p.IsPawn() && p.Color().Valid():
			l.pawn[p.Color()].putAt(img, g, sq)
		}
	}

	if n := len(s.LastPath); n > 0 && s.Captured.Valid() && s.LastPath[n-1].Valid() {
		x, y := g.at(s.LastPath[n-1])
		l.burst.put(img, x-0.6*u, y+0.5*u)
		l.miniPawn[s.Captured].put(img, x-0.6*u, y+0.5*u)
	}

	// Labels last, on top of everything.
	for _, lbs := range [][]Label{s.Labels, s.Origins} {
		for _, lb := range lbs {
			if lb.Square.Valid() {
				l.destRing.putAt(img, g, lb.Square)
			}
		}
	}
	for _, b := range l.placeBadges(l.badgesOf(s)) {
		b.sp.put(img, b.x, b.y)
	}
	img.compact()
}

// badgesOf returns the badges of the scene's candidates, labels and
// origins, each with the spots it may go, best first.
func (l *layer) badgesOf(s *Scene) []badgeAt {
	g, u := l.g, l.g.u
	pos := &s.Position
	var badges []badgeAt
	for _, lb := range s.Candidates {
		badges = l.addBadge(badges, pos, lb, badgeCandidate)
	}
	for _, lb := range s.Labels {
		badges = l.addBadge(badges, pos, lb, badgeMove)
	}
	for _, lb := range s.Origins {
		if lb.Square == engine.NoSquare {
			c := s.Turn
			if !c.Valid() {
				c = pos.Turn()
			}
			if c.Valid() && lb.Text != "" {
				hx, hy := g.house(c)
				hw, hh := g.houseSize()
				sp := l.badge(lb.Text, badgeMove)
				badges = append(badges, badgeAt{sp: sp, target: engine.NoSquare, spots: [][2]float64{
					{hx + hw/2 - 0.2*u - float64(sp.ox) + badgeH*u/2, hy - hh/2 + 0.15*u}}})
			}
			continue
		}
		badges = l.addBadge(badges, pos, lb, badgeMove)
	}
	// A badge keeps off the pawns but its target's.
	for sq := engine.Square(0); sq < engine.NumSquares; sq++ {
		if p := pos.At(sq); p.IsPawn() && p.Color().Valid() {
			x, y := g.at(sq)
			r := int(math.Ceil(pawnR * u))
			for i := range badges {
				if badges[i].target != sq {
					badges[i].avoid = append(badges[i].avoid, image.Rect(int(x)-r, int(y)-r, int(x)+r, int(y)+r))
				}
			}
		}
	}
	return badges
}

// badgeAt is a badge to draw, the spots it may go, best first, and the
// rectangles it must not cover (the pawns on other squares than its
// target).
type badgeAt struct {
	sp     *sprite
	target engine.Square
	spots  [][2]float64
	avoid  []image.Rectangle
}

// placedBadge is a badge and where it goes.
type placedBadge struct {
	sp   *sprite
	x, y float64
	rect image.Rectangle // what it covers, inset by the slack
}

// addBadge appends a label's badge with its spots: centred on an empty
// square, else above or below it; on an occupied square at one of its
// corners, upper right first, so the piece stays visible (a wide badge
// centred above or below the piece first); then farther around it, should
// those be taken. Badges on empty squares come first, so that they get
// their place.
func (l *layer) addBadge(badges []badgeAt, pos *engine.Position, lb Label, kind int) []badgeAt {
	if !lb.Square.Valid() || lb.Text == "" {
		return badges
	}
	u := l.g.u
	sp := l.badge(lb.Text, kind)
	x, y := l.g.at(lb.Square)
	b := badgeAt{sp: sp, target: lb.Square}
	// Farther spots around the square, for when the near ones are taken.
	var far [][2]float64
	for _, d := range []float64{0.75, 1.05, 1.4, 1.8, 2.3} {
		for _, o := range [][2]float64{{1, -1}, {-1, -1}, {1, 1}, {-1, 1}, {0, -1.3}, {0, 1.3}, {1.3, 0}, {-1.3, 0}} {
			far = append(far, [2]float64{x + o[0]*d*u, y + o[1]*d*u})
		}
	}
	if pos.At(lb.Square) == engine.Empty && lb.Square != engine.Goal {
		d := 0.6 * u
		b.spots = append([][2]float64{{x, y}, {x, y - d}, {x, y + d}}, far...)
		return append([]badgeAt{b}, badges...)
	}
	// Keep the badge's inner edge in place when the text is wide.
	dx := 0.52*u + float64(sp.ox) - badgeH*u/2 - 0.05*u
	dy := 0.52 * u
	corners := [][2]float64{{x + dx, y - dy}, {x - dx, y - dy}, {x + dx, y + dy}, {x - dx, y + dy}}
	ends := [][2]float64{{x, y - 0.76*u}, {x, y + 0.76*u}}
	if float64(sp.img.Rect.Dx()) > 1.3*badgeH*u {
		// A wide badge at a corner would reach over the next square: centre
		// it above or below the piece instead.
		b.spots = append(ends, corners...)
	} else {
		b.spots = append(corners, ends...)
	}
	b.spots = append(b.spots, far...)
	return append(badges, b)
}

// placeBadges places each badge on the first of its spots inside the
// board's area (off the row numbers in the side margins) that covers no
// badge placed before it and no pawn it must avoid; when every spot does,
// on the one that covers fewest badges, then fewest pawns, then stays
// inside the area. Badges are compared inset by a slack: their corners are
// rounded.
func (l *layer) placeBadges(badges []badgeAt) []placedBadge {
	u := l.g.u
	slack := int(0.12*u) + 1
	area := image.Rect(int(u), 0, l.g.w-int(u), l.g.h)
	placed := make([]placedBadge, 0, len(badges))
	for _, b := range badges {
		best, bestCost := b.spots[0], math.MaxInt
		for _, p := range b.spots {
			r := b.sp.rectAt(p[0], p[1]).Inset(slack)
			cost := 0
			if !r.In(area) {
				cost++
			}
			for _, t := range placed {
				if r.Overlaps(t.rect) {
					cost += 1 << 20
				}
			}
			for _, a := range b.avoid {
				if r.Overlaps(a) {
					cost += 1 << 10
				}
			}
			if cost < bestCost {
				best, bestCost = p, cost
			}
			if cost == 0 {
				break
			}
		}
		placed = append(placed, placedBadge{sp: b.sp, x: best[0], y: best[1], rect: b.sp.rectAt(best[0], best[1]).Inset(slack)})
	}
	return placed
}

// trail draws the path of the last move in the mover's colour, with a ring
// on the square it started from.
func (l *layer) trail(img *canvas, path []engine.Square, mover engine.Color) {
	u := l.g.u
	fill := white
	if mover.Valid() {
		fill = pawnStyles[mover].fill
	}
	if len(path) > 1 {
		dc := gg.NewContextForRGBA(img.RGBA)
		dc.SetLineCapRound()
		dc.SetLineJoinRound()
		for i, sq := range path {
			if !sq.Valid() {
				return
			}
			x, y := l.g.at(sq)
			if i == 0 {
				dc.MoveTo(x, y)
			} else {
				dc.LineTo(x, y)
			}
		}
		img.markPath(l.g, path, 0.2*u)
		dc.SetColor(lineColor)
		dc.SetLineWidth(0.34 * u)
		dc.StrokePreserve()
		dc.SetColor(fill)
		dc.SetLineWidth(0.2 * u)
		dc.Stroke()
		dc.SetColor(lineColor)
		for _, sq := range path[1 : len(path)-1] {
			x, y := l.g.at(sq)
			dc.DrawCircle(x, y, 0.07*u)
			dc.Fill()
		}
	}
	if mover.Valid() && path[0].Valid() {
		l.fromRing[mover].putAt(img, l.g, path[0])
	}
}
