package render

import (
	"bytes"
	"errors"
	"image/color"
	"image/png"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
)

// RatingPoint is a player's rating at one moment.
type RatingPoint struct {
	At     time.Time
	Rating float64
}

// ErrNoPoints is returned by RatingChart when there is nothing to draw.
var ErrNoPoints = errors.New("render: a rating chart needs at least one point")

// Default size of a rating chart.
const (
	DefaultChartWidth  = 800
	DefaultChartHeight = 400
)

// minRatingSpan is the least range of ratings a chart's axis shows: about
// six games' worth of change, so that one game's step reads as a step and a
// single point does not sit on an axis a few points wide.
const minRatingSpan = 100

// DateLabel writes a date tick of a rating chart; short is true when the
// chart spans less than two days, so the label should show the time of day.
// It lets the caller write dates the way its reader's language does while
// render stays language-free.
type DateLabel func(t time.Time, short bool) string

// ISODate is the language-neutral DateLabel: 2025-03-14, or 15:04 for a
// short span, in the time's own zone.
func ISODate(t time.Time, short bool) string {
	if short {
		return t.Format("15:04")
	}
	return t.Format("2006-01-02")
}

// RatingChartOptions are the settings of RatingChartWith; the zero value
// draws a chart of the default size with ISODate labels.
type RatingChartOptions struct {
	// Width and Height are the chart's size in pixels; 0 means
	// DefaultChartWidth and DefaultChartHeight.
	Width, Height int
	// Label writes the date ticks; nil means ISODate.
	Label DateLabel
	// Start, when not 0, is the rating the player began with: the curve
	// starts there, one game's spacing before the first point (a day when
	// there is one point), so that even a first game draws a line.
	Start float64
}

// RatingChart draws a player's rating over time as a PNG line chart with
// ISODate labels; see RatingChartWith.
func RatingChart(points []RatingPoint, width, height int) ([]byte, error) {
	return RatingChartWith(points, RatingChartOptions{Width: width, Height: height})
}

// LabeledRatingChart draws a player's rating over time with the dates
// written by label; see RatingChartWith.
func LabeledRatingChart(points []RatingPoint, width, height int, label DateLabel) ([]byte, error) {
	return RatingChartWith(points, RatingChartOptions{Width: width, Height: height, Label: label})
}

// RatingChartWith draws a player's rating over time as a PNG line chart for
// Discord's dark theme: a gold line on a card the colour of a dark embed, a
// faint grid, the ratings on the left and the dates along the bottom. The
// latest rating is labelled. The axis spans at least minRatingSpan points
// around the ratings; a single point is a dot in the middle over its date.
// Text is sized from the width, so that the chart stays readable scaled down
// to 400 pixels wide, as on a phone.
func RatingChartWith(points []RatingPoint, o RatingChartOptions) ([]byte, error) {
	label := o.Label
	if label == nil {
		label = ISODate
	}
	if len(points) == 0 {
		return nil, ErrNoPoints
	}
	pts := slices.Clone(points)
	slices.SortStableFunc(pts, func(a, b RatingPoint) int { return a.At.Compare(b.At) })
	if o.Start != 0 {
		step := 24 * time.Hour
		if n := len(pts); n > 1 && pts[n-1].At.After(pts[0].At) {
			step = pts[n-1].At.Sub(pts[0].At) / time.Duration(n-1)
		}
		pts = slices.Insert(pts, 0, RatingPoint{At: pts[0].At.Add(-step), Rating: o.Start})
	}
	f := newChartFrame(o.Width, o.Height)
	fs := f.fs

	// Value range with nice ticks.
	lo, hi := pts[0].Rating, pts[0].Rating
	for _, p := range pts {
		lo, hi = min(lo, p.Rating), max(hi, p.Rating)
	}
	if hi-lo < minRatingSpan {
		mid := (hi + lo) / 2
		lo, hi = mid-minRatingSpan/2, mid+minRatingSpan/2
	}
	step := niceStep((hi - lo) / 4)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	var ticks []float64
	for v := lo; v <= hi+step/2; v += step {
		ticks = append(ticks, v)
	}

	// Time range; one moment is drawn in the middle of a day. The dates
	// are those of the games: the start's moment is made up, so it has none.
	t0, t1 := pts[0].At, pts[len(pts)-1].At
	first := points[0].At
	for _, p := range points {
		if p.At.Before(first) {
			first = p.At
		}
	}
	single := !t1.After(first)
	if !t1.After(t0) {
		t0, t1 = t0.Add(-12*time.Hour), t1.Add(12*time.Hour)
	}
	short := !single && t1.Sub(first) < 48*time.Hour

	f.plotArea(ticks, fmtRating, fs*1.2, fs*1.6, fs*2.4)
	px := func(t time.Time) float64 {
		return f.left + (f.right-f.left)*float64(t.Sub(t0))/float64(t1.Sub(t0))
	}
	py := func(v float64) float64 { return f.bottom - (f.bottom-f.top)*(v-lo)/(hi-lo) }
	f.valueGrid(ticks, py, fmtRating)

	// Date ticks: about one per six and a half text heights, at least the
	// two ends; a single moment gets its own date only.
	dc := f.dc
	var at []time.Time
	if single {
		at = []time.Time{first}
	} else {
		n := max(1, int((px(t1)-px(first))/(fs*6.5)))
		for i := 0; i <= n; i++ {
			at = append(at, first.Add(time.Duration(float64(t1.Sub(first))*float64(i)/float64(n))))
		}
	}
	lastX := math.Inf(-1)
	for _, t := range at {
		x := math.Round(px(t)) + 0.5
		dc.SetColor(gridColor)
		dc.DrawLine(x, f.top, x, f.bottom)
		dc.Stroke()
		s := label(t, short)
		tw := textWidth(f.face, s)
		cx := min(max(x, tw/2+2), f.W-tw/2-2)
		if cx-tw/2 < lastX+fs*0.5 {
			continue
		}
		lastX = cx + tw/2
		dc.SetColor(axisColor)
		drawText(dc, f.face, s, "0", cx, f.bottom+fs*1.2)
	}
	f.baseline()

	// The line, and dots when there are few points.
	dc.SetColor(chartLineColor)
	dc.SetLineWidth(max(2.5, f.W/180))
	dc.SetLineJoinRound()
	dc.SetLineCapRound()
	for i, p := range pts {
		if i == 0 {
			dc.MoveTo(px(p.At), py(p.Rating))
		} else {
			dc.LineTo(px(p.At), py(p.Rating))
		}
	}
	dc.Stroke()
	if len(pts) <= 40 {
		for _, p := range pts {
			dc.DrawCircle(px(p.At), py(p.Rating), max(3, f.W/180))
			dc.Fill()
		}
	}
	last := pts[len(pts)-1]
	lx, ly := px(last.At), py(last.Rating)
	f.dot(lx, ly, max(5, f.W/110), chartLineColor)
	s := fmtRating(last.Rating)
	tw := textWidth(f.face, s)
	bx := min(max(lx, tw/2+fs*0.5), f.W-tw/2-fs*0.5)
	by := ly - fs*1.2
	if by < fs*0.7 {
		by = ly + fs*1.2
	}
	dc.SetColor(chartLineColor)
	dc.DrawRoundedRectangle(bx-tw/2-fs*0.35, by-fs*0.65, tw+fs*0.7, fs*1.3, fs*0.3)
	dc.Fill()
	dc.SetColor(chartInk)
	drawText(dc, f.face, s, "0", bx, by)
	return f.png()
}

// chartFrame is a chart being drawn: its card, text face and plot area.
type chartFrame struct {
	dc   *gg.Context
	face font.Face
	fs   float64 // text size in pixels
	W, H float64
	// The plot area, set by plotArea.
	left, right, top, bottom float64
	faces                    map[float64]font.Face
}

// faceOf returns a face of size px, made once per chart: a face caches the
// glyphs it draws.
func (f *chartFrame) faceOf(px float64) font.Face {
	if fc := f.faces[px]; fc != nil {
		return fc
	}
	if f.faces == nil {
		f.faces = map[float64]font.Face{}
	}
	f.faces[px] = newFace(px)
	return f.faces[px]
}

// newChartFrame returns a dark chart card of the given size (0 means the
// default, the rest clamped to 200..MaxWidth by 100..MaxWidth), its text
// sized from the width.
func newChartFrame(width, height int) *chartFrame {
	if width <= 0 {
		width = DefaultChartWidth
	}
	if height <= 0 {
		height = DefaultChartHeight
	}
	width, height = min(max(width, 200), MaxWidth), min(max(height, 100), MaxWidth)
	f := &chartFrame{dc: gg.NewContext(width, height), W: float64(width), H: float64(height)}
	f.fs = f.W / 30
	f.face = newFace(f.fs)
	f.dc.SetColor(chartBg)
	f.dc.Clear()
	f.dc.SetColor(chartEdge)
	f.dc.SetLineWidth(2)
	f.dc.DrawRectangle(1, 1, f.W-2, f.H-2)
	f.dc.Stroke()
	return f
}

// plotArea sets the plot area below top and inside right and bottom
// margins, with room on the left for the widest tick label.
func (f *chartFrame) plotArea(ticks []float64, format func(float64) string, top, right, bottom float64) {
	labelW := 0.0
	for _, v := range ticks {
		labelW = max(labelW, textWidth(f.face, format(v)))
	}
	f.left, f.right = labelW+f.fs*1.0, f.W-right
	f.top, f.bottom = top, f.H-bottom
}

// valueGrid draws a grid line and a label at each tick of the value axis.
func (f *chartFrame) valueGrid(ticks []float64, py func(float64) float64, format func(float64) string) {
	dc := f.dc
	dc.SetLineWidth(max(1, f.W/600))
	for _, v := range ticks {
		y := math.Round(py(v)) + 0.5
		dc.SetColor(gridColor)
		dc.DrawLine(f.left, y, f.right, y)
		dc.Stroke()
		dc.SetColor(axisColor)
		s := format(v)
		drawText(dc, f.face, s, "0", f.left-f.fs*0.5-textWidth(f.face, s)/2, y)
	}
}

// baseline draws the axis line under the plot.
func (f *chartFrame) baseline() {
	f.dc.SetColor(axisColor)
	f.dc.SetLineWidth(max(1, f.W/400))
	f.dc.DrawLine(f.left, f.bottom+0.5, f.right, f.bottom+0.5)
	f.dc.Stroke()
}

// dot draws a disc of colour c ringed in the card's colour, so that it
// stands out on the lines it sits on.
func (f *chartFrame) dot(x, y, r float64, c color.RGBA) {
	f.dc.SetColor(chartBg)
	f.dc.DrawCircle(x, y, r+max(1.5, r/3))
	f.dc.Fill()
	f.dc.SetColor(c)
	f.dc.DrawCircle(x, y, r)
	f.dc.Fill()
}

// png encodes the chart. Charts are few and small: the standard encoder's
// default level is fine.
func (f *chartFrame) png() ([]byte, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, f.dc.Image()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// niceStep rounds a tick step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p {
			return m * p
		}
	}
	return 10 * p
}

func fmtRating(v float64) string { return strconv.Itoa(int(math.Round(v))) }
