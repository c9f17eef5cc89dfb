package vision

import (
	"fmt"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCIEDE2000 checks the difference against pairs of Sharma, Wu and
// Dalal's test data (2005, table 1).
func TestCIEDE2000(t *testing.T) {
	for _, c := range []struct {
		a, b [3]float64
		want float64
	}{
		{[3]float64{50, 2.6772, -79.7751}, [3]float64{50, 0, -82.7485}, 2.0425},
		{[3]float64{50, -1, 2}, [3]float64{50, 0, 0}, 2.3669},
		{[3]float64{50, 2.5, 0}, [3]float64{73, 25, -18}, 27.1492},
		{[3]float64{60.2574, -34.0099, 36.2677}, [3]float64{60.4626, -34.1751, 39.4387}, 1.2644},
		{[3]float64{22.7233, 20.0904, -46.694}, [3]float64{23.0331, 14.973, -42.5619}, 2.0373},
		{[3]float64{2.0776, 0.0795, -1.135}, [3]float64{0.9033, -0.0636, -0.5514}, 0.9082},
	} {
		assert.InDelta(t, c.want, CIEDE2000(c.a, c.b), 1e-4, fmt.Sprint(c.a, c.b))
	}
}

// TestContrast checks WCAG's contrast ratio at its ends and for a known
// pair.
func TestContrast(t *testing.T) {
	black, white := color.RGBA{0, 0, 0, 255}, color.RGBA{255, 255, 255, 255}
	assert.InDelta(t, 21, Contrast(black, white), 1e-9)
	assert.InDelta(t, 1, Contrast(white, white), 1e-9)
	blurple, err := Hex("#5865f2")
	require.NoError(t, err)
	assert.InDelta(t, 4.61, Contrast(white, blurple), 0.01)
	_, err = Hex("#12345")
	assert.Error(t, err)
}

// TestSimulate: a deficiency leaves grey grey, confuses red and green
// for deuteranopia, and keeps them apart for normal vision.
func TestSimulate(t *testing.T) {
	grey := color.RGBA{128, 128, 128, 255}
	for _, d := range Deficiencies {
		got := d.Simulate(grey)
		assert.InDelta(t, 128, int(got.R), 2, d.Name)
		assert.InDelta(t, 128, int(got.G), 2, d.Name)
		assert.InDelta(t, 128, int(got.B), 2, d.Name)
	}
	red, green := color.RGBA{200, 60, 40, 255}, color.RGBA{90, 140, 40, 255}
	assert.Less(t, Deuteranopia.Difference(red, green), Normal.Difference(red, green)/2)
}
