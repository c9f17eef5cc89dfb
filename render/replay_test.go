package render

import (
	"bytes"
	"errors"
	"image/gif"
	"image/png"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz/engine"
)

// playGame plays up to maxMoves moves of a four-player game with a fixed
// sequence of dice and choices, so that tests and benchmarks see the same game.
func playGame(t testing.TB, maxMoves int) *engine.Game {
	t.Helper()
	g, err := engine.NewGame([]engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}, engine.Red, engine.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	seed := uint32(12345)
	next := func() int {
		seed = seed*1664525 + 1013904223
		return int(seed >> 8)
	}
	dice := engine.DiceFunc(func() int { return next()%6 + 1 })
	for moves := 0; moves < maxMoves && !g.Over(); {
		if _, err := g.Roll(dice); err != nil {
			t.Fatal(err)
		}
		if g.Phase() != engine.PhaseMove {
			continue
		}
		legal := g.LegalMoves()
		// Prefer the move that gets closest to the goal, so games end.
		best := legal[next()%len(legal)]
		if next()%3 != 0 {
			for _, m := range legal {
				if engine.DistanceToGoal(m.To) < engine.DistanceToGoal(best.To) {
					best = m
				}
			}
		}
		if err := g.Move(best); err != nil {
			t.Fatal(err)
		}
		moves++
	}
	return g
}

func countMoves(g *engine.Game) int {
	n := 0
	for _, r := range g.History() {
		if r.Kind == engine.RecordMove {
			n++
		}
	}
	return n
}

func TestReplayScenes(t *testing.T) {
	g := playGame(t, 60)
	frames := ReplayScenes(g)
	if got, want := len(frames), countMoves(g)+1; got != want {
		t.Fatalf("%d frames, want %d", got, want)
	}
	if got, want := frames[len(frames)-1].Position.String(), g.Position().String(); got != want {
		// The game's position has the turn handed on; compare the pieces.
		gp := g.Position()
		lp := frames[len(frames)-1].Position
		for s := engine.Square(0); s < engine.NumSquares; s++ {
			if gp.At(s) != lp.At(s) {
				t.Fatalf("last frame %s, game at %s", got, want)
			}
		}
	}
	for i, f := range frames[1:] {
		if len(f.LastPath) == 0 || f.Roll < 1 {
			t.Errorf("frame %d: no path or roll", i+1)
		}
	}
}

func TestReplayScenesRemove(t *testing.T) {
	g := playGame(t, 12)
	if err := g.Remove(engine.Green); err != nil {
		t.Fatal(err)
	}
	for _, c := range []engine.Color{engine.Yellow, engine.Blue} {
		if err := g.Remove(c); err != nil {
			t.Fatal(err)
		}
	}
	frames := ReplayScenes(g)
	last := frames[len(frames)-1]
	if last.Winner != engine.Red || last.Position.InPlay(engine.Green) {
		t.Errorf("last frame: winner %s, green in play %v; want red by forfeit, green gone", last.Winner, last.Position.InPlay(engine.Green))
	}
}

func TestReplayGIF(t *testing.T) {
	g := playGame(t, 40)
	frames := ReplayScenes(g)
	var buf bytes.Buffer
	if err := ReplayGIF(&buf, frames, nil); err != nil {
		t.Fatal(err)
	}
	out, err := gif.DecodeAll(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(out.Image), countMoves(g)+1; got != want {
		t.Errorf("%d frames, want %d (one per move plus the start)", got, want)
	}
	if out.Config.Width != 480 {
		t.Errorf("width %d, want 480", out.Config.Width)
	}
	if d := out.Delay[len(out.Delay)-1]; d <= out.Delay[0] {
		t.Errorf("last frame shows for %d cs, want longer than %d", d, out.Delay[0])
	}
	if err := ReplayGIF(&buf, nil, nil); !errors.Is(err, ErrNoFrames) {
		t.Errorf("no frames: %v, want ErrNoFrames", err)
	}
}

func chartPoints() []RatingPoint {
	start := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	var pts []RatingPoint
	r := 1000.0
	for i := 0; i < 30; i++ {
		r += float64((i*37)%23) - 10
		pts = append(pts, RatingPoint{At: start.Add(time.Duration(i) * 37 * time.Hour), Rating: r})
	}
	return pts
}

func TestRatingChart(t *testing.T) {
	data, err := RatingChart(chartPoints(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != DefaultChartWidth || b.Dy() != DefaultChartHeight {
		t.Errorf("size %v, want %dx%d", b, DefaultChartWidth, DefaultChartHeight)
	}
	checkGolden(t, "chart", data)
	if _, err := RatingChart(nil, 0, 0); !errors.Is(err, ErrNoPoints) {
		t.Errorf("no points: %v, want ErrNoPoints", err)
	}
	one := []RatingPoint{{At: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), Rating: 1000}}
	if _, err := RatingChart(one, 400, 200); err != nil {
		t.Errorf("one point: %v", err)
	}
}

func BenchmarkReplayGIF200(b *testing.B) {
	g := playGame(b, 200)
	frames := ReplayScenes(g)
	if len(frames) != 201 {
		b.Fatalf("%d frames, want 201", len(frames))
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := ReplayGIF(&buf, frames, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/gif")
}

func BenchmarkRatingChart(b *testing.B) {
	pts := chartPoints()
	for b.Loop() {
		if _, err := RatingChart(pts, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}
