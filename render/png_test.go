package render

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/png"
	"runtime"
	"testing"
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
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("GOMAXPROCS %d, %v: %v", procs, size, err)
			}
			got, ok := img.(*image.Paletted)
			if !ok || !bytes.Equal(got.Pix, p.Pix) || got.Rect != p.Rect {
				t.Errorf("GOMAXPROCS %d, %v: decoded image differs", procs, size)
			}
		}
		runtime.GOMAXPROCS(old)
	}
}
