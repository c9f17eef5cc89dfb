package render

import (
	"errors"
	"fmt"
	"image"
	"image/gif"
	"io"
	"strings"

	"github.com/malefiz-discord/malefiz/engine"
)

// ReplayScenes turns a game's history into the frames of a replay: the
// start position, then one frame per move showing the position after it,
// the mover's colour and roll beside the die, the path walked and any pawn
// captured. Removals (rule 10) take the colour's pawns off the following
// frames. When the game is over the last frame shows the winner.
func ReplayScenes(g *engine.Game) []Scene {
	pos := g.StartPosition()
	frames := []Scene{NewScene(pos)}
	moved := false
	for _, r := range g.History() {
		switch r.Kind {
		case engine.RecordMove:
			// Passes and the six-again rule leave the position's turn behind
			// the history's: catch up with the mover.
			for i := 0; i < engine.NumColors && pos.Turn() != r.Color; i++ {
				pos.Pass()
			}
			pos.Apply(r.Move)
			s := NewScene(pos)
			s.Turn, s.Roll, s.Captured = r.Color, r.Roll, r.Captured
			s.LastPath = r.Path
			if pos.Over() {
				s.Turn = engine.NoColor
			}
			frames = append(frames, s)
			moved = true
		case engine.RecordRemove:
			pos = withoutColor(pos, r.Color)
		}
	}
	if g.Over() {
		last := &frames[len(frames)-1]
		if moved {
			last.Position = pos
		}
		last.Winner, last.Turn = g.Winner(), engine.NoColor
	}
	return frames
}

// withoutColor returns p with colour c out of play and its pawns off the
// board, as engine.Game.Remove leaves it. The engine keeps that operation
// unexported, so this goes through the position notation.
func withoutColor(p engine.Position, c engine.Color) engine.Position {
	var players []engine.Color
	for _, pc := range p.Players() {
		if pc != c {
			players = append(players, pc)
		}
	}
	if len(players) == 0 {
		return p
	}
	turn := p.Turn()
	if turn == c {
		turn = players[0]
		for _, pc := range players {
			if pc > c {
				turn = pc
				break
			}
		}
	}
	var b strings.Builder
	b.WriteString("players=")
	for _, pc := range players {
		b.WriteByte(pc.Letter())
	}
	fmt.Fprintf(&b, " turn=%c", turn.Letter())
	for _, pc := range players {
		fmt.Fprintf(&b, " %c=%s", pc.Letter(), squareList(p.Pawns(pc)))
	}
	fmt.Fprintf(&b, " x=%s", squareList(p.Barricades()))
	q, err := engine.ParsePosition(b.String())
	if err != nil {
		return p
	}
	return q
}

func squareList(squares []engine.Square) string {
	names := make([]string, len(squares))
	for i, s := range squares {
		names[i] = s.String()
	}
	return strings.Join(names, ",")
}

// ReplayOptions tunes ReplayGIF. The zero value gives the defaults.
type ReplayOptions struct {
	// Width of the frames in pixels; 0 means 480.
	Width int
	// Delay between frames in hundredths of a second; 0 means 70.
	Delay int
	// FinalDelay is how long the last frame shows before the loop starts
	// again, in hundredths of a second; 0 means 400.
	FinalDelay int
}

// ErrNoFrames is returned by ReplayGIF for an empty list of frames.
var ErrNoFrames = errors.New("render: a replay needs at least one frame")

// ReplayGIF writes an animated GIF of the scenes, one frame each, looping.
// All frames share one palette; after the first, each frame holds only the
// rectangle that changed, with unchanged pixels transparent, so a game of
// a few hundred moves stays around a megabyte.
func ReplayGIF(w io.Writer, frames []Scene, opts *ReplayOptions) error {
	if len(frames) == 0 {
		return ErrNoFrames
	}
	var o ReplayOptions
	if opts != nil {
		o = *opts
	}
	if o.Width == 0 {
		o.Width = 480
	}
	o.Width = min(max(o.Width, MinWidth), MaxWidth)
	if o.Delay <= 0 {
		o.Delay = 70
	}
	if o.FinalDelay <= 0 {
		o.FinalDelay = 400
	}
	l := layerFor(o.Width)
	pal, _ := l.palette()
	out := &gif.GIF{
		Image:     make([]*image.Paletted, 0, len(frames)),
		Delay:     make([]int, 0, len(frames)),
		Disposal:  make([]byte, 0, len(frames)),
		Config:    image.Config{ColorModel: pal, Width: l.g.w, Height: l.g.h},
		LoopCount: 0,
	}
	img := l.getCanvas()
	defer l.canvases.put(img)
	var prev *image.Paletted
	for i := range frames {
		img.RGBA = l.restore(img)
		l.drawOn(img, &frames[i])
		full := l.palettedDirty(img)
		frame := full
		if prev != nil {
			frame = delta(prev, full)
		}
		prev = full
		out.Image = append(out.Image, frame)
		out.Delay = append(out.Delay, o.Delay)
		out.Disposal = append(out.Disposal, gif.DisposalNone)
	}
	out.Delay[len(out.Delay)-1] = o.FinalDelay
	return gif.EncodeAll(w, out)
}

// delta returns the part of cur that differs from prev: the bounding
// rectangle of the changes, with the pixels that did not change set to the
// transparent index. Nothing changed gives a single transparent pixel.
func delta(prev, cur *image.Paletted) *image.Paletted {
	r := cur.Rect
	minX, minY, maxX, maxY := r.Max.X, r.Max.Y, r.Min.X-1, r.Min.Y-1
	for y := r.Min.Y; y < r.Max.Y; y++ {
		o := cur.PixOffset(r.Min.X, y)
		a, b := prev.Pix[o:o+r.Dx()], cur.Pix[o:o+r.Dx()]
		first := -1
		for x := range b {
			if a[x] != b[x] {
				first = x
				break
			}
		}
		if first < 0 {
			continue
		}
		last := first
		for x := len(b) - 1; x > first; x-- {
			if a[x] != b[x] {
				last = x
				break
			}
		}
		minX, maxX = min(minX, r.Min.X+first), max(maxX, r.Min.X+last)
		minY, maxY = min(minY, y), max(maxY, y)
	}
	if maxX < minX {
		d := image.NewPaletted(image.Rect(r.Min.X, r.Min.Y, r.Min.X+1, r.Min.Y+1), cur.Palette)
		d.Pix[0] = transparentIndex
		return d
	}
	d := image.NewPaletted(image.Rect(minX, minY, maxX+1, maxY+1), cur.Palette)
	for y := minY; y <= maxY; y++ {
		o := cur.PixOffset(minX, y)
		a, b := prev.Pix[o:o+d.Rect.Dx()], cur.Pix[o:o+d.Rect.Dx()]
		row := d.Pix[d.PixOffset(minX, y):][:d.Rect.Dx()]
		for x := range row {
			if a[x] == b[x] {
				row[x] = transparentIndex
			} else {
				row[x] = b[x]
			}
		}
	}
	return d
}
