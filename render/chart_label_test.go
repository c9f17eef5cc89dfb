package render

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLabeledRatingChartWritesDatesWithTheLabel(t *testing.T) {
	var asked []time.Time
	var shorts []bool
	label := func(at time.Time, short bool) string {
		asked, shorts = append(asked, at), append(shorts, short)
		return "14. März"
	}
	pts := chartPoints()
	localized, err := LabeledRatingChart(pts, 0, 0, label)
	require.NoError(t, err)
	_, err = png.Decode(bytes.NewReader(localized))
	require.NoError(t, err)
	require.NotEmpty(t, asked, "the label was never asked")
	first, last := pts[0].At, pts[len(pts)-1].At
	for i, at := range asked {
		assert.False(t, at.Before(first) || at.After(last), "tick %v outside the points' span", at)
		assert.False(t, shorts[i], "a span of weeks is not short")
	}
	iso, err := RatingChart(pts, 0, 0)
	require.NoError(t, err)
	assert.NotEqual(t, iso, localized, "the label does not show on the chart")
	same, err := LabeledRatingChart(pts, 0, 0, nil)
	require.NoError(t, err)
	assert.Equal(t, iso, same, "a nil label is ISODate")

	day := []RatingPoint{{At: first, Rating: 1000}, {At: first.Add(5 * time.Hour), Rating: 1010}}
	shorts = nil
	_, err = LabeledRatingChart(day, 400, 200, label)
	require.NoError(t, err)
	require.NotEmpty(t, shorts)
	assert.True(t, shorts[0], "a span of hours is short")
	assert.Equal(t, "2025-03-14", ISODate(time.Date(2025, 3, 14, 9, 30, 0, 0, time.UTC), false))
	assert.Equal(t, "09:30", ISODate(time.Date(2025, 3, 14, 9, 30, 0, 0, time.UTC), true))
}
