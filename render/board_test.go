package render

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// boardWidth640 is the width the bot posts its boards at.
const boardWidth640 = 640

// gameBoards returns the boards the bot posts during a played game, two a
// turn as on its turn messages: the roll prompt (the position after the last
// move, with its trail) and the move prompt (the same with the roll and its
// destinations labelled).
func gameBoards(t testing.TB, maxMoves int) []Scene {
	t.Helper()
	frames := ReplayScenes(playGame(t, maxMoves))
	out := make([]Scene, 0, 2*len(frames))
	for i, s := range frames {
		out = append(out, s)
		if i+1 < len(frames) && frames[i+1].Roll > 0 {
			s.Roll = frames[i+1].Roll
			s.Labels = DestinationLabels(s.Position.Moves(s.Roll, engine.Rules{}))
			out = append(out, s)
		}
	}
	return out
}

// exactScenes are the scenes whose 640 px boards must decode to exactly the
// pixels of their golden files: the golden scenes and a few turns of a game.
func exactScenes(t testing.TB) map[string]Scene {
	out := map[string]Scene{}
	for name, s := range goldenScenes(t) {
		out[name] = s
	}
	boards := gameBoards(t, 200)
	for _, i := range []int{1, 2, 80, 241, len(boards) - 1} {
		out[fmt.Sprintf("game%03d", i)] = boards[i]
	}
	return out
}

// TestBoardPixelsExact guards the encoding: a 640 px board (the size the bot
// posts) must decode to exactly the pixels of testdata/board640-NAME.png, so
// that a faster deflate, pooled buffers or pre-quantized sprites cannot
// change what players see. On a mismatch it writes testdata/NAME.got.png.
func TestBoardPixelsExact(t *testing.T) {
	r := New(boardWidth640)
	for name, s := range exactScenes(t) {
		t.Run(name, func(t *testing.T) {
			data, err := r.PNG(s)
			require.NoError(t, err)
			file := filepath.Join("testdata", "board640-"+name+".png")
			gotFile := filepath.Join("testdata", "board640-"+name+".got.png")
			if *update {
				require.NoError(t, os.WriteFile(file, data, 0o644))
				os.Remove(gotFile)
				return
			}
			want, err := os.ReadFile(file)
			require.NoError(t, err, "run go test ./render -update to create it")
			got, wimg := decode(t, data), decode(t, want)
			if got.Bounds() != wimg.Bounds() || differing(got, wimg, 0) != 0 {
				require.NoError(t, os.WriteFile(gotFile, data, 0o644))
				t.Fatalf("%s: %d pixels differ from %s; wrote %s", name, differing(got, wimg, 0), file, gotFile)
			}
			os.Remove(gotFile)
		})
	}
}

// TestPNGRoundTrip checks that a board's PNG decodes to exactly the
// paletted image it was made from, at several widths and for a whole game,
// drawn one after the other on the same pooled buffers.
func TestPNGRoundTrip(t *testing.T) {
	for _, width := range []int{MinWidth, boardWidth640, DefaultWidth} {
		r := New(width)
		l := layerFor(r.Width())
		boards := gameBoards(t, 60)
		// The golden scenes twice, the second time from the cached
		// composites, with a label on the house over its composite.
		for range 2 {
			for _, name := range []string{"origins", "winner", "placement", "start", "midgame", "shared"} {
				boards = append(boards, goldenScenes(t)[name])
			}
		}
		for i, s := range boards {
			data, err := r.PNG(s)
			require.NoError(t, err)
			img, err := png.Decode(bytes.NewReader(data))
			require.NoError(t, err)
			got, ok := img.(*image.Paletted)
			require.True(t, ok, "width %d board %d: %T, want a paletted image", width, i, img)
			want := l.palettedDirty(canvasOf(l, &s))
			require.Equal(t, want.Rect, got.Rect)
			for y := want.Rect.Min.Y; y < want.Rect.Max.Y; y++ {
				w := want.Pix[want.PixOffset(0, y):][:want.Rect.Dx()]
				g := got.Pix[got.PixOffset(0, y):][:got.Rect.Dx()]
				require.Equal(t, w, g, "width %d board %d row %d", width, i, y)
			}
		}
	}
}

// canvasOf draws s on a fresh canvas, outside the pool.
func canvasOf(l *layer, s *Scene) *canvas {
	img := &canvas{RGBA: l.baseCopy(nil)}
	l.drawOn(img, s)
	return img
}

// cpuTime returns the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPNGGame draws and encodes every board of a 200-move game, as the
// bot posts them, and reports the average size and the CPU time (all
// threads: drawing, quantizing, deflate, GC) per board.
func BenchmarkPNGGame(b *testing.B) {
	for _, width := range []int{boardWidth640, DefaultWidth} {
		b.Run(fmt.Sprintf("width=%d", width), func(b *testing.B) {
			r := New(width)
			boards := gameBoards(b, 200)
			total := 0
			for _, s := range boards {
				data, err := r.PNG(s)
				if err != nil {
					b.Fatal(err)
				}
				total += len(data)
			}
			b.ReportAllocs()
			n := 0
			cpu0 := cpuTime(b)
			for b.Loop() {
				if _, err := r.PNG(boards[n%len(boards)]); err != nil {
					b.Fatal(err)
				}
				n++
			}
			cpu := cpuTime(b) - cpu0
			b.ReportMetric(float64(total)/float64(len(boards))/1000, "KB/board")
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "cpu-ms/board")
		})
	}
}
