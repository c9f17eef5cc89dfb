package render

import (
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render/vision"
)

// minPlayerDistance is the least CIEDE2000 difference two players'
// colours may have for any eye simulated: about what tells two colours
// apart at a glance, not only side by side.
const minPlayerDistance = 20

// minTextContrast is WCAG 2.2 AA's contrast for normal text.
const minTextContrast = 4.5

// PlayerDistances are the least CIEDE2000 difference between two of the
// four colours of pal, for normal vision and each simulated deficiency.
func playerDistances(pal [engine.NumColors]color.RGBA) map[string]float64 {
	out := map[string]float64{}
	for _, d := range append([]vision.Deficiency{vision.Normal}, vision.Deficiencies...) {
		least := math.Inf(1)
		for i := range pal {
			for j := i + 1; j < len(pal); j++ {
				least = min(least, d.Difference(pal[i], pal[j]))
			}
		}
		out[d.Name] = least
	}
	return out
}

// TestPlayerColoursStayApartForColourBlindEyes simulates protanopia,
// deuteranopia and tritanopia (Machado 2009) on the players' colours, as
// the pawns (the PNG and the Activity, which takes them from Layout) and
// the chart's lines show them, and requires every two at least
// minPlayerDistance apart.
func TestPlayerColoursStayApartForColourBlindEyes(t *testing.T) {
	var fills [engine.NumColors]color.RGBA
	for c, s := range pawnStyles {
		fills[c] = s.fill
	}
	for name, pal := range map[string][engine.NumColors]color.RGBA{"pawns": fills, "chart lines": seatLineColors} {
		for eye, least := range playerDistances(pal) {
			t.Logf("%s, %s: least ΔE00 %.1f", name, eye, least)
			assert.GreaterOrEqual(t, least, float64(minPlayerDistance), "%s under %s", name, eye)
		}
	}
}

// TestTextContrast requires WCAG AA's 4.5:1 of every text colour on the
// colour it is written on, in the board's and the chart's pictures.
func TestTextContrast(t *testing.T) {
	pairs := map[string][2]color.RGBA{
		"coordinates on the ground":   {coordColor, groundColor},
		"move letters on their badge": {white, badgeColor},
		"chart labels":                {axisColor, chartBg},
		"chart text":                  {chartText, chartBg},
		"chart text on the gold":      {chartInk, chartLineColor},
		"die pips":                    {pipColor, white},
	}
	for c, s := range pawnStyles {
		name := engine.Color(c).String()
		pairs[name+" pawn's letter"] = [2]color.RGBA{s.text, s.fill}
		pairs[name+" chart disc's letter"] = [2]color.RGBA{discInk, seatLineColors[c]}
	}
	for name, p := range pairs {
		assert.GreaterOrEqual(t, vision.Contrast(p[0], p[1]), minTextContrast, name)
	}
}

// TestChartLinesStandOutOnTheCard requires of every seat's line on the
// chart WCAG's 3:1 for graphics on the card (3.5 kept).
func TestChartLinesStandOutOnTheCard(t *testing.T) {
	for c, col := range seatLineColors {
		assert.GreaterOrEqual(t, vision.Contrast(col, chartBg), 3.5, engine.Color(c).String())
	}
}
