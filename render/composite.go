package render

import (
	"image"
	"sync"
)

// A composite is a part of the board drawn from a few inputs, always on the
// base layer and apart from the other parts: a house with its pawns at home,
// the card of the turn and the die, the winner's card. Once drawn, its
// pixels are kept with their palette indices, so that later boards copy
// them (the pre-quantized sprites of the board) instead of blending a few
// sprites and converting the result to the palette again: about a third
// of the pixels a board draws.
type composite struct {
	r    image.Rectangle
	rgba []byte // r's pixels, row after row

	palOnce sync.Once
	pal     []byte // r's palette indices, row after row
}

// Kinds of composites.
const (
	compHouse      = iota // colour, house state, pawns at home
	compTurnCard          // colour to move or NoColor, roll or 0
	compWinnerCard        // winner
)

type compositeKey struct{ kind, a, b, c int }

// drawComposite draws the composite k on img, where its part of the board
// holds the base layer: from the cache when it was drawn before, else by
// calling draw, which must put its sprites there only and after which it
// is kept.
func (l *layer) drawComposite(img *canvas, k compositeKey, draw func()) {
	l.mu.Lock()
	cp := l.composites[k]
	l.mu.Unlock()
	if cp == nil {
		from := len(img.dirty)
		draw()
		if len(img.dirty) == from {
			return
		}
		r := img.dirty[from]
		for _, d := range img.dirty[from+1:] {
			r = r.Union(d)
		}
		img.dirty = append(img.dirty[:from], r)
		cp = &composite{r: r, rgba: make([]byte, 0, 4*r.Dx()*r.Dy())}
		for y := r.Min.Y; y < r.Max.Y; y++ {
			o := img.PixOffset(r.Min.X, y)
			cp.rgba = append(cp.rgba, img.Pix[o:o+4*r.Dx()]...)
		}
		l.mu.Lock()
		if old := l.composites[k]; old != nil {
			cp = old
		} else if len(l.composites) < maxComposites {
			l.composites[k] = cp
		}
		l.mu.Unlock()
		img.composites = append(img.composites, cp)
		return
	}
	n := 4 * cp.r.Dx()
	for y := cp.r.Min.Y; y < cp.r.Max.Y; y++ {
		o := img.PixOffset(cp.r.Min.X, y)
		copy(img.Pix[o:o+n], cp.rgba[(y-cp.r.Min.Y)*n:])
	}
	img.mark(cp.r)
	img.composites = append(img.composites, cp)
}

// maxComposites bounds the composites kept per width: every house state
// and card there is is about 110.
const maxComposites = 160

// composite returns the composite drawn over img's i-th dirty rectangle,
// or nil when there is none or when another dirty rectangle overlaps it
// (something was drawn over the composite, or the composite over it).
func (img *canvas) composite(i int) *composite {
	r := img.dirty[i]
	var found *composite
	for _, cp := range img.composites {
		if cp.r == r {
			found = cp
			break
		}
	}
	if found == nil {
		return nil
	}
	for j, d := range img.dirty {
		if j != i && d.Overlaps(r) {
			return nil
		}
	}
	return found
}

// copyPaletted copies the composite's palette indices into dst, converting
// its pixels on first use.
func (cp *composite) copyPaletted(l *layer, dst *image.Paletted) {
	cp.palOnce.Do(func() {
		src := &image.RGBA{Pix: cp.rgba, Stride: 4 * cp.r.Dx(), Rect: cp.r}
		p := &image.Paletted{Pix: make([]byte, cp.r.Dx()*cp.r.Dy()), Stride: cp.r.Dx(), Rect: cp.r}
		l.quantize(p, src, cp.r)
		cp.pal = p.Pix
	})
	n := cp.r.Dx()
	for y := cp.r.Min.Y; y < cp.r.Max.Y; y++ {
		o := dst.PixOffset(cp.r.Min.X, y)
		copy(dst.Pix[o:o+n], cp.pal[(y-cp.r.Min.Y)*n:])
	}
}
