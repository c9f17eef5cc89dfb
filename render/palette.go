package render

import (
	"image"
	"image/color"
	"slices"

	"github.com/malefiz-discord/malefiz/engine"
)

// The palette of PNG and GIF output is built once per width from reference
// drawings: the flat colours of the design first, then the most frequent
// colours of the anti-aliased edges. A 15-bit lookup table maps each colour
// to its nearest palette entry, so converting a whole image costs one table
// look-up per pixel.

// paletteSize leaves one index free for the GIF's transparent colour.
const paletteSize = 255

// transparentIndex is the palette index that GIF frames use for pixels
// unchanged since the previous frame.
const transparentIndex = paletteSize

func (l *layer) palette() (color.Palette, []uint8) {
	l.paletteOnce.Do(l.buildPalette)
	return l.pal, l.lut
}

// palettedDirty converts a canvas to the layer's palette in a new image,
// converting only the rectangles drawn on and copying the rest from the
// converted base layer.
func (l *layer) palettedDirty(img *canvas) *image.Paletted {
	l.palette()
	p := l.basePal.clone().p
	for _, r := range img.dirty {
		l.quantize(p, img.RGBA, r)
	}
	return p
}

// palettedRows converts a canvas to the layer's palette in the canvas's own
// rows, which hold the converted base layer outside the rectangles drawn on
// (see restore), and returns them. They stay the canvas's: encode them
// before putting it back in the pool.
func (l *layer) palettedRows(img *canvas) rows {
	l.palette()
	if img.rows.p == nil {
		img.rows = l.basePal.clone()
	}
	for i, r := range img.dirty {
		if cp := img.composite(i); cp != nil {
			cp.copyPaletted(l, img.rows.p)
			continue
		}
		l.quantize(img.rows.p, img.RGBA, r)
	}
	return img.rows
}

// quantize sets the pixels of dst in r to the palette entries nearest src's.
func (l *layer) quantize(dst *image.Paletted, src *image.RGBA, r image.Rectangle) {
	lut := l.lut
	for y := r.Min.Y; y < r.Max.Y; y++ {
		so := src.PixOffset(r.Min.X, y)
		s := src.Pix[so : so+4*r.Dx()]
		do := dst.PixOffset(r.Min.X, y)
		d := dst.Pix[do : do+r.Dx()]
		for j := range d {
			c := s[4*j : 4*j+3 : 4*j+3]
			d[j] = lut[int(c[0]>>3)<<10|int(c[1]>>3)<<5|int(c[2]>>3)]
		}
	}
}

func bucket(c color.RGBA) int { return int(c.R>>3)<<10 | int(c.G>>3)<<5 | int(c.B>>3) }

func (l *layer) buildPalette() {
	type acc struct{ n, r, g, b int }
	hist := make([]acc, 1<<15)
	for _, img := range referenceImages(l) {
		p := img.Pix
		for i := 0; i < len(p); i += 4 {
			a := &hist[int(p[i]>>3)<<10|int(p[i+1]>>3)<<5|int(p[i+2]>>3)]
			a.n++
			a.r += int(p[i])
			a.g += int(p[i+1])
			a.b += int(p[i+2])
		}
	}
	var pal []color.RGBA
	fixed := map[int]bool{}
	for _, c := range designColors() {
		if !slices.Contains(pal, c) {
			pal = append(pal, c)
			fixed[bucket(c)] = true
		}
	}
	seen := make([]int, 0, 1<<12)
	for b, a := range hist {
		if a.n > 0 && !fixed[b] {
			seen = append(seen, b)
		}
	}
	slices.SortFunc(seen, func(x, y int) int { return hist[y].n - hist[x].n })
	mean := func(b int) color.RGBA {
		a := hist[b]
		return color.RGBA{uint8(a.r / a.n), uint8(a.g / a.n), uint8(a.b / a.n), 255}
	}
	// Most frequent first, skipping colours very close to one already taken,
	// then the rest if room is left.
	taken := make([]bool, len(seen))
	for pass, minDist := 0, 12*12*3; pass < 2 && len(pal) < paletteSize; pass, minDist = pass+1, 0 {
		for i, b := range seen {
			if len(pal) >= paletteSize {
				break
			}
			if taken[i] {
				continue
			}
			c := mean(b)
			if minDist > 0 && nearestDist(pal, c) < minDist {
				continue
			}
			taken[i] = true
			pal = append(pal, c)
		}
	}
	lut := make([]uint8, 1<<15)
	for b := range lut {
		var c color.RGBA
		if hist[b].n > 0 {
			c = mean(b)
		} else {
			c = color.RGBA{uint8(b>>10)<<3 | 4, uint8(b>>5&31)<<3 | 4, uint8(b&31)<<3 | 4, 255}
		}
		lut[b] = uint8(nearest(pal, c))
	}
	for i, c := range pal {
		if fixed[bucket(c)] && i < len(designColors()) {
			lut[bucket(c)] = uint8(i)
		}
	}
	l.pal = make(color.Palette, paletteSize+1)
	for i := range l.pal {
		l.pal[i] = color.RGBA{0, 0, 0, 255}
		if i < len(pal) {
			l.pal[i] = pal[i]
		}
	}
	l.pal[transparentIndex] = color.RGBA{}
	l.lut = lut
	l.basePal = newRows(l.base.Rect, l.pal)
	l.quantize(l.basePal.p, l.base, l.base.Rect)
}

func dist(a, b color.RGBA) int {
	dr, dg, db := int(a.R)-int(b.R), int(a.G)-int(b.G), int(a.B)-int(b.B)
	return dr*dr*3 + dg*dg*4 + db*db*2
}

func nearest(pal []color.RGBA, c color.RGBA) int {
	best, bd := 0, 1<<30
	for i, p := range pal {
		if d := dist(p, c); d < bd {
			best, bd = i, d
		}
	}
	return best
}

func nearestDist(pal []color.RGBA, c color.RGBA) int {
	return dist(pal[nearest(pal, c)], c)
}

// referenceImages draws scenes that together show every sprite of the layer.
func referenceImages(l *layer) []*image.RGBA {
	var out []*image.RGBA
	for i, text := range []string{"players=rgyb turn=r r=c1,e3,h13 g=g1,i10,a11 y=k1,m3,c5 b=o1,q3,i13 x=a2,f3,g7,k7,i9,b13,i11,d11,h11,p13,e5",
		"players=ry turn=y r=i14 y=j13,h11 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,d5"} {
		p, err := engine.ParsePosition(text)
		if err != nil {
			panic(err)
		}
		s := NewScene(p)
		s.Roll = 3 + i
		s.LastPath = pathOf(p)
		s.Captured = engine.Green
		s.Labels = []Label{{Square: p.Pawns(engine.Red)[0], Text: "A"}, {Square: engine.SquareAt(2, 3), Text: "B"}}
		s.Candidates = []Label{{Square: engine.SquareAt(1, 3), Text: "1"}, {Square: engine.SquareAt(3, 3)}}
		out = append(out, l.draw(&s))
	}
	return out
}

// pathOf returns a short path ending on the position's first pawn of the
// colour to move, for the reference drawings.
func pathOf(p engine.Position) []engine.Square {
	pawns := p.Pawns(p.Turn())
	if len(pawns) == 0 {
		return nil
	}
	end := pawns[0]
	n := engine.Neighbors(end)
	return []engine.Square{n[0], end}
}
