package render

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/png"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAdler32Combine(t *testing.T) {
	data := bytes.Repeat([]byte("malefiz barricade \xff\x00"), 9000)
	for _, cut := range []int{0, 1, 65521, 100000, len(data)} {
		a, b := data[:cut], data[cut:]
		got := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), len(b))
		if want := adler32.Checksum(data); got != want {
			t.Errorf("cut %d: %08x, want %08x", cut, got, want)
		}
	}
}

func TestEncodePNG(t *testing.T) {
	pal, _ := layerFor(400).palette()
	for _, procs := range []int{1, 2, 3} {
		old := runtime.GOMAXPROCS(procs)
		for _, size := range []image.Point{{1, 1}, {5, 130}, {400, 382}} {
			p := image.NewPaletted(image.Rect(0, 0, size.X, size.Y), pal)
			for i := range p.Pix {
				p.Pix[i] = uint8(i * 7 % paletteSize)
			}
			data, err := encodePNG(p, paletteSize)
			require.NoError(t, err)
			img, err := png.Decode(bytes.NewReader(data))
			require.NoError(t, err, "GOMAXPROCS %d, %v", procs, size)
			got, ok := img.(*image.Paletted)
			require.True(t, ok)
			assert.Equal(t, p.Rect, got.Rect)
			assert.Equal(t, p.Pix, got.Pix, "GOMAXPROCS %d, %v: decoded image differs", procs, size)
		}
		runtime.GOMAXPROCS(old)
	}
}

// TestEncodeBands decodes a board deflated in one to four bands, each band
// after the first primed with the rows before it: every split must decode
// to the same pixels, whatever the idle cores at the time.
func TestEncodeBands(t *testing.T) {
	l := layerFor(boardWidth640)
	rs := l.palettedRows(canvasOf(l, new(midGame(t))))
	var sizes []int
	for parts := 1; parts <= 4; parts++ {
		data, err := encodeBands(rs, paletteSize, parts)
		require.NoError(t, err)
		img, err := png.Decode(bytes.NewReader(data))
		require.NoError(t, err, "%d bands", parts)
		got := img.(*image.Paletted)
		for y := 0; y < rs.p.Rect.Dy(); y++ {
			require.Equal(t, rs.p.Pix[rs.p.PixOffset(0, y):][:rs.p.Rect.Dx()], got.Pix[got.PixOffset(0, y):][:got.Rect.Dx()], "%d bands, row %d", parts, y)
		}
		sizes = append(sizes, len(data))
	}
	// Primed bands cost little: at most 2 % over one stream.
	for i, n := range sizes {
		assert.LessOrEqual(t, n, sizes[0]*102/100, "%d bands: %d bytes, one band %d", i+1, n, sizes[0])
	}
}

// TestBandsWhenBusy checks that a board is deflated in one band while every
// core runs a goroutine, and in bands when cores are idle.
func TestBandsWhenBusy(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 {
		t.Skip("needs two cores to have one idle")
	}
	h := layerFor(boardWidth640).g.h
	assert.Eventually(t, func() bool { return bandsFor(h) > 1 }, 10*time.Second, time.Millisecond,
		"no band split on an idle process")
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range procs {
		wg.Go(func() {
			for !stop.Load() {
			}
		})
	}
	defer func() { stop.Store(true); wg.Wait() }()
	assert.Eventually(t, func() bool { return bandsFor(h) == 1 }, 10*time.Second, time.Millisecond,
		"%d goroutines busy on %d cores, and still deflating in bands", procs, procs)
}

// TestAdler32Sum checks the word-at-a-time checksum against the standard
// library's on random bytes, runs of 0xff (the largest lanes) and every
// length around the word and chunk boundaries.
func TestAdler32Sum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 3<<20+13)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	ff := bytes.Repeat([]byte{0xff}, 3<<20+5)
	for _, src := range [][]byte{data, ff} {
		for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 5552, 5553, 65521, 1<<20 - 1, 1 << 20, 1<<20 + 9, 3<<20 + 5} {
			assert.Equal(t, adler32.Checksum(src[:n]), adler32Sum(src[:n]), "length %d", n)
		}
	}
	for range 200 {
		n := rng.IntN(4000)
		from := rng.IntN(len(data) - n)
		assert.Equal(t, adler32.Checksum(data[from:from+n]), adler32Sum(data[from:from+n]))
	}
}

// BenchmarkAdler32 compares the standard library's checksum with
// adler32Sum over a board's bytes.
func BenchmarkAdler32(b *testing.B) {
	l := layerFor(boardWidth640)
	raw := l.palettedRows(canvasOf(l, &gameBoards(b, 40)[30])).raw
	b.Run("stdlib", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			adler32.Checksum(raw)
		}
	})
	b.Run("words", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			adler32Sum(raw)
		}
	})
}
