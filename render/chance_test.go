package render

import (
	"bytes"
	"image/png"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// chanceGame returns four seats' chances over a 60-turn game that green
// wins after two swings (turns 22 and 41) and a late one (turn 52), and
// those turns.
func chanceGame() ([]ChanceSeries, []int) {
	colors := []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}
	labels := []string{"Alice", "Computer (hard)", "Борис", "Dana"}
	series := make([]ChanceSeries, 4)
	for i := range series {
		series[i] = ChanceSeries{Color: colors[i], Label: labels[i]}
	}
	for t := 0; t <= 60; t++ {
		w := [4]float64{1, 1, 1, 1}
		ft := float64(t)
		w[0] += 2.2 * sigmoid((ft-22)/2) * (1 - sigmoid((ft-41)/1.5))
		w[1] += 0.6*math.Sin(ft/5) + 4*sigmoid((ft-41)/1.5) + 40*sigmoid((ft-52)/1.2)
		w[2] += 0.5 * math.Cos(ft/7)
		w[3] += 1.5*sigmoid((ft-30)/4)*(1-sigmoid((ft-52)/1.2)) - 0.4*sigmoid((ft-10)/3)
		if t == 60 {
			w = [4]float64{0, 1, 0, 0}
		}
		sum := w[0] + w[1] + w[2] + w[3]
		for i := range series {
			series[i].Points = append(series[i].Points, w[i]/sum)
		}
	}
	// Yellow left the game at turn 48.
	series[2].Points = series[2].Points[:49]
	return series, []int{22, 41, 52}
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func TestChanceChartGolden(t *testing.T) {
	series, markers := chanceGame()
	two := []ChanceSeries{
		{Color: engine.Blue, Label: "Bob", Points: []float64{0.5, 0.55, 0.48, 0.61, 0.7, 0.64, 0.8, 0.9, 1}},
		{Color: engine.Yellow, Label: "Computer (expert)", Points: []float64{0.5, 0.45, 0.52, 0.39, 0.3, 0.36, 0.2, 0.1, 0}},
	}
	for _, c := range []struct {
		name          string
		series        []ChanceSeries
		markers       []int
		width, height int
	}{
		{"chances", series, markers, 0, 0},
		{"chances-two", two, []int{3, 6, 99}, 0, 0},
		// Turning points a turn or two apart: their numbers side by side.
		{"chances-close", series, []int{23, 22, 25}, 0, 0},
		// Three seats named as the bot names computers: every name whole.
		{"chances-three", []ChanceSeries{
			{Color: engine.Red, Label: "Alice", Points: []float64{0.34, 0.4, 0.3, 0.5, 0.6, 0.2, 0.1, 0}},
			{Color: engine.Green, Label: "Computer (expert)", Points: []float64{0.33, 0.3, 0.4, 0.3, 0.2, 0.6, 0.8, 1}},
			{Color: engine.Yellow, Label: "Computer (normal)", Points: []float64{0.33, 0.3, 0.3, 0.2, 0.2, 0.2, 0.1, 0}},
		}, []int{4, 5}, 0, 0},
		{"chances-start", []ChanceSeries{{Color: engine.Red, Points: []float64{0.5}}, {Color: engine.Green, Points: []float64{0.5}}}, nil, 400, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := ChanceChart(c.series, c.markers, c.width, c.height)
			require.NoError(t, err)
			img, err := png.Decode(bytes.NewReader(data))
			require.NoError(t, err)
			w, h := c.width, c.height
			if w == 0 {
				w, h = DefaultChanceWidth, DefaultChanceHeight
			}
			assert.Equal(t, w, img.Bounds().Dx())
			assert.Equal(t, h, img.Bounds().Dy())
			checkGolden(t, c.name, data)
		})
	}
}

func TestChanceChartEdges(t *testing.T) {
	_, err := ChanceChart(nil, nil, 0, 0)
	require.ErrorIs(t, err, ErrNoChances)
	_, err = ChanceChart([]ChanceSeries{{Color: engine.Red}}, nil, 0, 0)
	require.ErrorIs(t, err, ErrNoChances)
	// Out-of-range values, gaps, a colour out of range and markers outside
	// the game draw without panicking.
	odd := []ChanceSeries{
		{Color: engine.Red, Label: "a label far too long to fit in its share of the legend", Points: []float64{-0.5, math.NaN(), 1.5, 0.3}},
		{Color: engine.NoColor, Points: []float64{0.2}},
		{Color: engine.Green, Points: []float64{math.NaN()}},
	}
	data, err := ChanceChart(odd, []int{-1, 2, 7}, 200, 100)
	require.NoError(t, err)
	_, err = png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
}

func TestSpreadLabels(t *testing.T) {
	ys := []float64{10, 11, 12, 90}
	spreadLabels(ys, func(p *float64) *float64 { return p }, 5, 0, 100)
	assert.Equal(t, []float64{10, 15, 20, 90}, ys, "pushed down from the first")
	ys = []float64{98, 99, 100}
	spreadLabels(ys, func(p *float64) *float64 { return p }, 5, 0, 100)
	assert.Equal(t, []float64{90, 95, 100}, ys, "kept inside the bounds")
}

func BenchmarkChanceChart(b *testing.B) {
	series, markers := chanceGame()
	for b.Loop() {
		if _, err := ChanceChart(series, markers, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// TestChanceLegendNamesEverySeatInFull lays the legend out for tables of
// two to four seats with long names, at the default width and a phone's:
// every label is written whole, inside the chart, none over another.
func TestChanceLegendNamesEverySeatInFull(t *testing.T) {
	names := []string{"Computer (expert)", "Computer (normal)", "Maximilian Alexander", "Computer (hard)"}
	colors := []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}
	for _, tc := range []struct {
		name  string
		seats int
		width int
	}{
		{"two seats", 2, 0},
		{"three seats", 3, 0},
		{"four seats", 4, 0},
		{"four seats on a phone", 4, 400},
		{"a name longer than the chart", 1, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var series []ChanceSeries
			for i := range tc.seats {
				series = append(series, ChanceSeries{Color: colors[i], Label: names[i], Points: []float64{0.5, 0.4}})
			}
			if tc.seats == 1 {
				series[0].Label = "Computer (expert) with a name far longer than any chart"
			}
			w := tc.width
			if w == 0 {
				w = DefaultChanceWidth
			}
			f := newChartFrame(w, DefaultChanceHeight)
			f.fs = f.W * chanceTextPerWidth
			f.face = f.faceOf(f.fs)
			items := f.legendLayout(series)
			require.Len(t, items, len(series))
			for k, it := range items {
				assert.Equal(t, series[it.i].Label, it.text, "the full name")
				right := it.textX + textWidth(f.faceOf(it.size), it.text)
				assert.LessOrEqual(t, right, f.W, "%q inside the chart", it.text)
				assert.GreaterOrEqual(t, it.x-f.fs*0.6, 0.0)
				for _, o := range items[:k] {
					if o.y == it.y {
						assert.Less(t, o.textX+textWidth(f.faceOf(o.size), o.text), it.x-f.fs*0.6, "%q clear of %q", it.text, o.text)
					}
				}
			}
			_, err := ChanceChart(series, nil, tc.width, 0)
			require.NoError(t, err)
		})
	}
}
