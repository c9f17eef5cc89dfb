package render

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/malefiz-discord/malefiz/engine"
)

// ChanceSeries is one seat's chance to win over a game, for ChanceChart.
type ChanceSeries struct {
	// Color is the seat's colour: the colour of its line and the letter
	// (R, G, Y, B) at its end, for colour-blind readers.
	Color engine.Color
	// Label names the seat in the legend, such as the player's name; empty
	// shows the colour's letter only. Go Bold writes Latin, Greek and
	// Cyrillic letters; other characters show as boxes, and a label too
	// long for its share of the legend is cut with an ellipsis.
	Label string
	// Points is the seat's chance to win, 0 to 1, at each turn from turn 0
	// (the start). A seat that left the game has a shorter line; NaN is a
	// turn without an estimate, a gap in the line.
	Points []float64
}

// ErrNoChances is returned by ChanceChart when no series has a point.
var ErrNoChances = errors.New("render: a chance chart needs at least one point")

// Default size of a chance chart: taller than the rating chart, for its
// legend's rows and a phone's screen.
const (
	DefaultChanceWidth  = 800
	DefaultChanceHeight = 560
)

// chanceTextPerWidth is the chance chart's text size as a share of its
// width: 36 pixels at 800, so that at the 400 pixels a phone shows it
// the digits stand 13 pixels tall.
const chanceTextPerWidth = 1.0 / 22

// ChanceChart draws each seat's chance to win over a game as a PNG line
// chart for Discord's dark theme, like the rating chart: x is the turn, y
// the chance from 0 to 100 %, one line per seat in its colour, ending in a
// disc with the seat's letter and its last chance. markers are the turns of
// turning points, drawn as vertical lines numbered 1, 2, … in the order
// given, so that a message can refer to them; turns outside the game are
// left out. The legend names every seat in full, on as many rows as its
// names need. Width and height 0 mean DefaultChanceWidth and
// DefaultChanceHeight; text is sized from the width, so that the chart
// stays readable at 400 pixels wide.
func ChanceChart(series []ChanceSeries, markers []int, width, height int) ([]byte, error) {
	turns := 0 // the last turn with a point
	for _, s := range series {
		turns = max(turns, len(s.Points)-1)
	}
	if !slices.ContainsFunc(series, func(s ChanceSeries) bool { return len(s.Points) > 0 }) {
		return nil, ErrNoChances
	}
	if width <= 0 {
		width = DefaultChanceWidth
	}
	if height <= 0 {
		height = DefaultChanceHeight
	}
	f := newChartFrame(width, height)
	f.fs = f.W * chanceTextPerWidth
	f.face = f.faceOf(f.fs)
	fs, dc := f.fs, f.dc
	ticks := []float64{0, 0.25, 0.5, 0.75, 1}
	legend := f.legendLayout(series)
	legendH := fs * 2.2
	if n := len(legend); n > 0 {
		legendH = legend[n-1].y + fs*0.8
	}
	markerR := fs * 0.62
	top := legendH + fs*0.6
	if len(markers) > 0 {
		top += 2 * markerR
	}
	endW := fs*2.2 + textWidth(f.face, "100%") // the discs and last chances on the right
	f.plotArea(ticks, fmtPercent, top, endW+fs*0.6, fs*2.2)
	span := float64(max(turns, 1))
	px := func(turn float64) float64 { return f.left + (f.right-f.left)*turn/span }
	py := func(v float64) float64 { return f.bottom - (f.bottom-f.top)*v }
	f.valueGrid(ticks, py, fmtPercent)

	// Turn ticks at a round step, about one per four text heights.
	step := max(1, int(niceStep(span/max(1, (f.right-f.left)/(fs*4)))))
	for t := 0; t <= turns; t += step {
		x := math.Round(px(float64(t))) + 0.5
		dc.SetColor(gridColor)
		dc.SetLineWidth(max(1, f.W/600))
		dc.DrawLine(x, f.top, x, f.bottom)
		dc.Stroke()
		dc.SetColor(axisColor)
		drawText(dc, f.face, strconv.Itoa(t), "0", x, f.bottom+fs*1.2)
	}
	f.baseline()

	// Turning points: a dashed line and a numbered disc above the plot,
	// the discs of turning points a few turns apart moved apart so that
	// every number shows, each joined to its line.
	type marker struct {
		n     int
		x, cx float64 // the line; the disc's centre
	}
	var marks []marker
	for _, m := range markers {
		if m < 0 || m > turns {
			continue
		}
		x := math.Round(px(float64(m))) + 0.5
		marks = append(marks, marker{n: len(marks) + 1, x: x, cx: x})
	}
	slices.SortStableFunc(marks, func(a, b marker) int { return cmp.Compare(a.x, b.x) })
	spreadLabels(marks, func(m *marker) *float64 { return &m.cx }, 2*markerR+max(1, fs*0.1), markerR+1, f.W-markerR-1)
	cy := f.top - markerR - fs*0.15
	for _, m := range marks {
		dc.SetColor(axisColor)
		dc.SetLineWidth(max(1.5, f.W/400))
		dc.SetDash(fs*0.3, fs*0.25)
		dc.DrawLine(m.x, f.top, m.x, f.bottom)
		dc.Stroke()
		dc.SetDash()
		if m.cx != m.x {
			dc.DrawLine(m.x, f.top, m.cx, cy)
			dc.Stroke()
		}
	}
	for _, m := range marks {
		dc.SetColor(chartText)
		dc.DrawCircle(m.cx, cy, markerR)
		dc.Fill()
		dc.SetColor(chartBg)
		drawText(dc, f.faceOf(fs*0.85), strconv.Itoa(m.n), "", m.cx, cy)
	}

	// The lines, the leader last so that it is on top where lines cross.
	order := make([]int, 0, len(series))
	for i := range series {
		if len(series[i].Points) > 0 && series[i].Color.Valid() {
			order = append(order, i)
		}
	}
	last := func(s ChanceSeries) (turn int, v float64) {
		for i := len(s.Points) - 1; i >= 0; i-- {
			if !math.IsNaN(s.Points[i]) {
				return i, clamp01(s.Points[i])
			}
		}
		return -1, 0
	}
	slices.SortStableFunc(order, func(a, b int) int {
		_, va := last(series[a])
		_, vb := last(series[b])
		return cmp.Compare(va, vb)
	})
	lineW := max(2.5, f.W/200)
	for _, i := range order {
		s := series[i]
		c := seatLineColors[s.Color]
		// A dark edge under each line keeps crossing lines apart.
		for pass := 0; pass < 2; pass++ {
			dc.SetLineJoinRound()
			dc.SetLineCapRound()
			if pass == 0 {
				dc.SetColor(chartBg)
				dc.SetLineWidth(lineW + max(2, lineW*0.8))
			} else {
				dc.SetColor(c)
				dc.SetLineWidth(lineW)
			}
			open := false
			for t, v := range s.Points {
				if math.IsNaN(v) {
					open = false
					continue
				}
				if open {
					dc.LineTo(px(float64(t)), py(clamp01(v)))
				} else {
					dc.MoveTo(px(float64(t)), py(clamp01(v)))
					open = true
				}
			}
			dc.Stroke()
		}
		if v := s.Points[0]; (turns == 0 || len(s.Points) == 1) && !math.IsNaN(v) {
			f.dot(px(0), py(clamp01(v)), lineW*1.4, c)
		}
	}

	// The ends: a disc with the seat's letter and its last chance, in the
	// right margin, moved apart where chances are close.
	r := fs * 0.72
	type end struct {
		i      int
		x, y   float64 // where the line ends
		ly     float64 // where its label goes
		chance float64
	}
	ends := make([]end, 0, len(order))
	for _, i := range order {
		t, v := last(series[i])
		if t < 0 {
			continue
		}
		ends = append(ends, end{i: i, x: px(float64(t)), y: py(v), ly: py(v), chance: v})
	}
	slices.SortStableFunc(ends, func(a, b end) int { return cmp.Compare(a.y, b.y) })
	spreadLabels(ends, func(e *end) *float64 { return &e.ly }, 2*r+fs*0.2, r+1, f.bottom+r*0.3)
	cx := f.right + fs*0.3 + r
	if turns == 0 {
		// Nothing played yet: the labels go beside the starting points.
		cx = px(0) + lineW*1.4 + fs*0.4 + r
	}
	for _, e := range ends {
		s := series[e.i]
		c := seatLineColors[s.Color]
		// The leader to the label: in the margin for a line that reaches
		// the last turn, dotted across the plot for one that ends before.
		if turns > 0 {
			dc.SetColor(c)
			dc.SetLineWidth(max(1.5, f.W/500))
			if e.x < f.right-1 {
				dc.SetDash(fs*0.12, fs*0.2)
			}
			dc.DrawLine(e.x, e.y, cx-r, e.ly)
			dc.Stroke()
			dc.SetDash()
		}
		f.dot(e.x, e.y, lineW*1.1, c)
		f.seatDisc(cx, e.ly, r, s.Color)
		dc.SetColor(chartText)
		p := fmtPercent(e.chance)
		drawText(dc, f.face, p, "0", cx+r+fs*0.25+textWidth(f.face, p)/2, e.ly)
	}

	f.drawLegend(series, legend)
	return f.png()
}

// legendItem is one seat in the legend: its series, the text and the size
// it is written in, and where: the disc's centre and the text's left edge.
type legendItem struct {
	i           int
	text        string
	size        float64
	x, y, textX float64
}

// legendLayout lays the legend out along the top: for each seat with a
// line, in the order of the series, a disc with the seat's letter and its
// label in full, left to right, starting a new row where the next does
// not fit. A label wider than the whole chart is written smaller until it
// fits; none is cut.
func (f *chartFrame) legendLayout(series []ChanceSeries) []legendItem {
	fs := f.fs
	r := fs * 0.6
	gap, pad := fs*0.35, fs*0.5
	rowH := fs * 1.5
	var out []legendItem
	x, y := pad, fs*1.1
	for i, s := range series {
		if len(s.Points) == 0 || !s.Color.Valid() {
			continue
		}
		size, text := fs, s.Label
		room := f.W - 2*pad - 2*r - gap
		for text != "" && textWidth(f.faceOf(size), text) > room && size > fs/3 {
			size = math.Floor(size*0.9*10) / 10
		}
		w := 2 * r
		if text != "" {
			w += gap + textWidth(f.faceOf(size), text)
		}
		if x > pad && x+w > f.W-pad {
			x, y = pad, y+rowH
		}
		out = append(out, legendItem{i: i, text: text, size: size, x: x + r, y: y, textX: x + 2*r + gap})
		x += w + fs
	}
	return out
}

// drawLegend draws the legend laid out by legendLayout.
func (f *chartFrame) drawLegend(series []ChanceSeries, items []legendItem) {
	r := f.fs * 0.6
	for _, it := range items {
		f.seatDisc(it.x, it.y, r, series[it.i].Color)
		if it.text != "" {
			face := f.faceOf(it.size)
			f.dc.SetColor(chartText)
			drawText(f.dc, face, it.text, "Hg", it.textX+textWidth(face, it.text)/2, it.y)
		}
	}
}

// seatDisc draws a disc in the seat's line colour with its letter.
func (f *chartFrame) seatDisc(x, y, r float64, c engine.Color) {
	f.dc.SetColor(chartBg)
	f.dc.DrawCircle(x, y, r+max(1.5, r/6))
	f.dc.Fill()
	f.dc.SetColor(seatLineColors[c])
	f.dc.DrawCircle(x, y, r)
	f.dc.Fill()
	f.dc.SetColor(discInk)
	drawText(f.dc, f.faceOf(r*1.3), pawnStyles[c].letter, "", x, y)
}

// spreadLabels moves the label positions of items, sorted by position, at
// least gap apart and inside lo..hi, each as little as it can.
func spreadLabels[T any](items []T, pos func(*T) *float64, gap, lo, hi float64) {
	for i := range items {
		p := pos(&items[i])
		*p = max(*p, lo)
		if i > 0 {
			*p = max(*p, *pos(&items[i-1])+gap)
		}
	}
	for i := len(items) - 1; i >= 0; i-- {
		p := pos(&items[i])
		*p = min(*p, hi)
		if i+1 < len(items) {
			*p = min(*p, *pos(&items[i+1])-gap)
		}
	}
}

func clamp01(v float64) float64 { return min(max(v, 0), 1) }

func fmtPercent(v float64) string { return strconv.Itoa(int(math.Round(100*v))) + "%" }
