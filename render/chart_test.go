package render

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRatingChartCases draws the rating chart as /malefiz stats shows it:
// weeks of games, a player's first game alone and from the starting
// rating, and an evening of games.
func TestRatingChartCases(t *testing.T) {
	first := time.Date(2025, 3, 14, 20, 30, 0, 0, time.UTC)
	one := []RatingPoint{{At: first, Rating: 1484}}
	evening := []RatingPoint{{At: first, Rating: 1516}, {At: first.Add(25 * time.Minute), Rating: 1531},
		{At: first.Add(70 * time.Minute), Rating: 1519}}
	for _, c := range []struct {
		name   string
		points []RatingPoint
		o      RatingChartOptions
	}{
		{"chart-one", one, RatingChartOptions{}},
		{"chart-first", one, RatingChartOptions{Start: 1500}},
		{"chart-evening", evening, RatingChartOptions{Start: 1500}},
		{"chart-weeks", chartPoints(), RatingChartOptions{Start: 1000}},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := RatingChartWith(c.points, c.o)
			require.NoError(t, err)
			img, err := png.Decode(bytes.NewReader(data))
			require.NoError(t, err)
			require.Equal(t, DefaultChartWidth, img.Bounds().Dx())
			checkGolden(t, c.name, data)
		})
	}
}
