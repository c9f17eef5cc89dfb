package render

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/fogleman/gg"
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

// RatingChart draws a player's rating over time as a PNG line chart with
// ISODate labels; see LabeledRatingChart.
func RatingChart(points []RatingPoint, width, height int) ([]byte, error) {
	return LabeledRatingChart(points, width, height, ISODate)
}

// LabeledRatingChart draws a player's rating over time as a PNG line chart
// with a light grid, the ratings on the left and the dates, written by
// label, along the bottom. The latest rating is labelled. Width and height 0
// mean DefaultChartWidth and DefaultChartHeight; text is sized from the
// width so that the chart stays readable scaled down to 400 pixels wide. A
// nil label means ISODate.
func LabeledRatingChart(points []RatingPoint, width, height int, label DateLabel) ([]byte, error) {
	if label == nil {
		label = ISODate
	}
	if len(points) == 0 {
		return nil, ErrNoPoints
	}
	if width <= 0 {
		width = DefaultChartWidth
	}
	if height <= 0 {
		height = DefaultChartHeight
	}
	width, height = min(max(width, 200), MaxWidth), min(max(height, 100), MaxWidth)
	pts := slices.Clone(points)
	slices.SortStableFunc(pts, func(a, b RatingPoint) int { return a.At.Compare(b.At) })

	W, H := float64(width), float64(height)
	fs := W / 30 // text size
	dc := gg.NewContext(width, height)
	dc.SetColor(white)
	dc.Clear()
	face := newFace(fs)

	// Value range with nice ticks.
	lo, hi := pts[0].Rating, pts[0].Rating
	for _, p := range pts {
		lo, hi = min(lo, p.Rating), max(hi, p.Rating)
	}
	if hi-lo < 10 {
		mid := (hi + lo) / 2
		lo, hi = mid-5, mid+5
	}
	step := niceStep((hi - lo) / 4)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step

	// Time range.
	t0, t1 := pts[0].At, pts[len(pts)-1].At
	if !t1.After(t0) {
		t0, t1 = t0.Add(-12*time.Hour), t1.Add(12*time.Hour)
	}
	short := t1.Sub(t0) < 48*time.Hour

	// Plot area: room for the value labels on the left, dates below.
	labelW := 0.0
	for v := lo; v <= hi+step/2; v += step {
		labelW = max(labelW, textWidth(face, fmtRating(v)))
	}
	left, right := labelW+fs*1.0, W-fs*1.6
	top, bottom := fs*1.2, H-fs*2.4
	px := func(t time.Time) float64 {
		return left + (right-left)*float64(t.Sub(t0))/float64(t1.Sub(t0))
	}
	py := func(v float64) float64 { return bottom - (bottom-top)*(v-lo)/(hi-lo) }

	// Grid and value labels.
	dc.SetLineWidth(max(1, W/600))
	for v := lo; v <= hi+step/2; v += step {
		y := math.Round(py(v)) + 0.5
		dc.SetColor(gridColor)
		dc.DrawLine(left, y, right, y)
		dc.Stroke()
		dc.SetColor(axisColor)
		b := textWidth(face, fmtRating(v))
		drawText(dc, face, fmtRating(v), "0", left-fs*0.5-b/2, y)
	}
	// Date ticks: about one per 160 pixels, at least the two ends.
	n := max(1, int((right-left)/(fs*6.5)))
	lastX := math.Inf(-1)
	for i := 0; i <= n; i++ {
		t := t0.Add(time.Duration(float64(t1.Sub(t0)) * float64(i) / float64(n)))
		x := math.Round(px(t)) + 0.5
		dc.SetColor(gridColor)
		dc.DrawLine(x, top, x, bottom)
		dc.Stroke()
		s := label(t, short)
		tw := textWidth(face, s)
		cx := min(max(x, tw/2+2), W-tw/2-2)
		if cx-tw/2 < lastX+fs*0.5 {
			continue
		}
		lastX = cx + tw/2
		dc.SetColor(axisColor)
		drawText(dc, face, s, "0", cx, bottom+fs*1.2)
	}
	dc.SetColor(axisColor)
	dc.SetLineWidth(max(1, W/400))
	dc.DrawLine(left, bottom+0.5, right, bottom+0.5)
	dc.Stroke()

	// The line, and dots when there are few points.
	dc.SetColor(chartLineColor)
	dc.SetLineWidth(max(2, W/220))
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
			dc.DrawCircle(px(p.At), py(p.Rating), max(2.5, W/200))
			dc.Fill()
		}
	}
	last := pts[len(pts)-1]
	lx, ly := px(last.At), py(last.Rating)
	dc.DrawCircle(lx, ly, max(4, W/120))
	dc.Fill()
	s := fmtRating(last.Rating)
	tw := textWidth(face, s)
	bx := min(lx, W-tw/2-fs*0.5)
	by := ly - fs*1.1
	if by < fs*0.7 {
		by = ly + fs*1.1
	}
	dc.SetColor(chartLineColor)
	dc.DrawRoundedRectangle(bx-tw/2-fs*0.3, by-fs*0.6, tw+fs*0.6, fs*1.2, fs*0.3)
	dc.Fill()
	dc.SetColor(white)
	drawText(dc, face, s, "0", bx, by)

	var buf bytes.Buffer
	if err := png.Encode(&buf, dc.Image()); err != nil {
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
