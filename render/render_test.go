package render

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/malefiz-discord/malefiz/engine"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

func mustPosition(t testing.TB, text string) engine.Position {
	t.Helper()
	p, err := engine.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustMove(t testing.TB, text string) engine.Move {
	t.Helper()
	m, err := engine.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// midGame returns a four-player game in its middle: green has just moved
// f5→c3 on a 5, capturing a red pawn, and yellow rolled a 3; the legal
// destinations are labelled.
func midGame(t testing.TB) Scene {
	before := mustPosition(t, "players=rgyb turn=g r=c1,c3,i7,a11 g=f5,e1,g1 y=k1,m5,o3,k9 b=o1,q11,m2 x=a3,e3,i3,m3,q3,g7,k7,i9,i11,i13,l7")
	m := mustMove(t, "f5-c3")
	path := before.Path(m, 5)
	after := before
	captured := after.Apply(m)
	s := NewScene(after)
	s.Roll = 3
	s.LastPath = path
	s.Captured = captured
	s.Labels = DestinationLabels(after.Moves(3, engine.Rules{}))
	return s
}

// placement returns the moment after red captured the barricade on i9: the
// pawn stands there and the bot offers three squares plus any legal one.
func placement(t testing.TB) Scene {
	before := mustPosition(t, "players=rgyb turn=r r=g7,c3 g=e1,m5 y=k5,q11 b=o1 x=a3,e3,i3,m3,q3,k7,i9,i10,i11,i13,g5")
	m := mustMove(t, "g7-i9")
	path := before.Path(m, 4)
	squares := before.PlacementSquares(m.From, m.To, engine.Rules{})
	after := mustPosition(t, "players=rgyb turn=r r=i9,c3 g=e1,m5 y=k5,q11 b=o1 x=a3,e3,i3,m3,q3,k7,i10,i11,i13,g5")
	s := NewScene(after)
	s.Roll = 4
	s.LastPath = path
	for _, sq := range squares {
		s.Candidates = append(s.Candidates, Label{Square: sq})
	}
	for i, name := range []string{"h13", "j11", "g7"} {
		sq, _ := engine.ParseSquare(name)
		s.Candidates = append(s.Candidates, Label{Square: sq, Text: itoa(i + 1)})
	}
	return s
}

// winner returns the end of a two-player game: yellow reached the goal.
func winner(t testing.TB) Scene {
	before := mustPosition(t, "players=ry turn=y r=h13,c5,k3 y=j13,f11,i1 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,b13")
	m := mustMove(t, "j13-i14")
	path := before.Path(m, 2)
	after := before
	after.Apply(m)
	s := NewScene(after)
	s.LastPath = path
	return s
}

// origins shows the first step of a turn with more than 20 moves: the player
// picks a pawn (or the house) first.
func origins(t testing.TB) Scene {
	p := mustPosition(t, "players=gb turn=b g=g5,k11 b=o1,m5,q11,o3 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13")
	s := NewScene(p)
	s.Roll = 6
	s.Origins = []Label{{Square: engine.NoSquare, Text: "A"}}
	for i, sq := range p.Pawns(engine.Blue) {
		s.Origins = append(s.Origins, Label{Square: sq, Text: Letter(i + 1)})
	}
	return s
}

// shared shows two moves ending on the same occupied square (h1: "C F"),
// next to labels on empty squares.
func shared(t testing.TB) Scene {
	p := mustPosition(t, "players=rgyb turn=g r=c1 g=f1,g1 y=h1 b= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13")
	moves := p.Moves(2, engine.Rules{})
	slices.SortFunc(moves, func(a, b engine.Move) int { return strings.Compare(a.String(), b.String()) })
	s := NewScene(p)
	s.Roll = 2
	s.Labels = DestinationLabels(moves)
	return s
}

func goldenScenes(t testing.TB) map[string]Scene {
	return map[string]Scene{
		"start":     NewScene(engine.StartPosition()),
		"midgame":   midGame(t),
		"placement": placement(t),
		"winner":    winner(t),
		"origins":   origins(t),
		"shared":    shared(t),
	}
}

func decode(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// differing counts the pixels whose colours differ by more than tol in some channel.
func differing(a, b image.Image, tol uint32) int {
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			d := func(p, q uint32) uint32 {
				if p > q {
					return (p - q) >> 8
				}
				return (q - p) >> 8
			}
			if d(r1, r2) > tol || d(g1, g2) > tol || d(b1, b2) > tol {
				n++
			}
		}
	}
	return n
}

func TestGolden(t *testing.T) {
	r := New(0)
	for name, s := range goldenScenes(t) {
		t.Run(name, func(t *testing.T) {
			data, err := r.PNG(s)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name, data)
		})
	}
}

// checkGolden compares a PNG with testdata/NAME.png, or rewrites that file
// under -update. On a mismatch it writes testdata/NAME.got.png beside it.
func checkGolden(t *testing.T, name string, data []byte) {
	t.Helper()
	file := filepath.Join("testdata", name+".png")
	gotFile := filepath.Join("testdata", name+".got.png")
	if *update {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(gotFile)
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	got, wimg := decode(t, data), decode(t, want)
	if got.Bounds() != wimg.Bounds() {
		os.WriteFile(gotFile, data, 0o644)
		t.Fatalf("size %v, want %v; wrote %s", got.Bounds(), wimg.Bounds(), gotFile)
	}
	// Allow small differences from font rasterization or palette changes:
	// at most 0.1% of the pixels may be off by more than 24 in a channel.
	if n, limit := differing(got, wimg, 24), got.Bounds().Dx()*got.Bounds().Dy()/1000; n > limit {
		os.WriteFile(gotFile, data, 0o644)
		t.Fatalf("%d pixels differ from %s (at most %d allowed); wrote %s", n, file, limit, gotFile)
	}
	os.Remove(gotFile)
}

func TestSizes(t *testing.T) {
	for _, w := range []int{0, 400, 512, 1600} {
		r := New(w)
		img := r.Image(midGame(t))
		if img.Rect.Dx() != r.Width() || img.Rect.Dy() != r.Height() {
			t.Errorf("New(%d): image %v, want %dx%d", w, img.Rect, r.Width(), r.Height())
		}
	}
	if got := New(5).Width(); got != MinWidth {
		t.Errorf("New(5).Width() = %d, want %d", got, MinWidth)
	}
}

func TestPNGSize(t *testing.T) {
	r := New(0)
	for name, s := range goldenScenes(t) {
		data, err := r.PNG(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 200<<10 {
			t.Errorf("%s: PNG is %d bytes, want under 200 KB", name, len(data))
		}
	}
}

// TestConcurrent draws from several goroutines at once, so that go test
// -race checks the shared caches.
func TestConcurrent(t *testing.T) {
	scenes := goldenScenes(t)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		r := New(300 + i%2)
		for _, s := range scenes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.Labels = append(slices.Clone(s.Labels), Label{Square: engine.Goal, Text: Letter(26 + i)})
				if _, err := r.PNG(s); err != nil {
					t.Error(err)
				}
			}()
		}
	}
	wg.Wait()
}

func TestZeroScene(t *testing.T) {
	// A zero Scene must draw without panicking.
	New(400).Image(Scene{})
	New(400).Image(Scene{Turn: engine.NoColor, Winner: engine.NoColor, Captured: engine.NoColor, Roll: 9,
		LastPath: []engine.Square{engine.NoSquare}, Labels: []Label{{Square: engine.NoSquare, Text: "A"}}})
}

func TestDestinationLabels(t *testing.T) {
	p := mustPosition(t, "players=rgyb turn=g r=c1 g=f1,g1 y=h1 b= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13")
	moves := p.Moves(2, engine.Rules{})
	var got []string
	for _, l := range DestinationLabels(moves) {
		got = append(got, l.Square.String()+":"+l.Text)
	}
	if len(got) != 5 {
		t.Errorf("DestinationLabels = %v, want 5 destinations (h1 shared)", got)
	}
	for _, g := range got {
		if len(g) > 4 && g[:3] == "h1:" && len(g) != 6 {
			t.Errorf("h1 label %q, want two letters", g)
		}
	}
	if Letter(0) != "A" || Letter(25) != "Z" || Letter(26) != "AA" {
		t.Errorf("Letter: %s %s %s", Letter(0), Letter(25), Letter(26))
	}
}

func BenchmarkPNG(b *testing.B) {
	for _, width := range []int{DefaultWidth, 640} {
		b.Run(fmt.Sprintf("width=%d", width), func(b *testing.B) {
			r := New(width)
			s := midGame(b)
			r.PNG(s) // build the caches
			b.ReportAllocs()
			var size, n int
			cpu0 := cpuTime(b)
			for b.Loop() {
				data, err := r.PNG(s)
				if err != nil {
					b.Fatal(err)
				}
				size = len(data)
				n++
			}
			cpu := cpuTime(b) - cpu0
			b.ReportMetric(float64(size), "bytes/png")
			b.ReportMetric(float64(size)/1000, "KB/board")
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "cpu-ms/board")
		})
	}
}

func BenchmarkImage(b *testing.B) {
	r := New(0)
	s := midGame(b)
	r.Image(s)
	b.ReportAllocs()
	for b.Loop() {
		r.Image(s)
	}
}
