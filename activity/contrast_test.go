package activity

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/render/vision"
)

// TestPageTextContrast requires WCAG AA's 4.5:1 of every text colour of
// the page on the colour it is written on. Each colour is written as in
// static/app.css (a variable such as --muted, or a literal), and each
// literal must still be there: a colour changed in the style sheet
// without this list fails.
func TestPageTextContrast(t *testing.T) {
	css, err := os.ReadFile("static/app.css")
	require.NoError(t, err)
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`(--[a-z]+):\s*(#[0-9a-fA-F]{3,6})`).FindAllStringSubmatch(string(css), -1) {
		vars[m[1]] = m[2]
	}
	colour := func(s string) string {
		if strings.HasPrefix(s, "--") {
			v, ok := vars[s]
			require.True(t, ok, "no variable %s in app.css", s)
			return v
		}
		assert.Contains(t, strings.ToLower(string(css)), strings.ToLower(s), "app.css no longer uses %s", s)
		return s
	}
	for _, p := range []struct{ name, fg, bg string }{
		{"text", "--text", "--bg"},
		{"text on a card", "--text", "--card"},
		{"muted text", "--muted", "--bg"},
		{"muted text on a card (game number, seats' chances, lobby)", "--muted", "--card"},
		{"a button", "#fff", "#5865f2"},
		{"a secondary button", "#fff", "#4e5058"},
		{"the hint", "--text", "#3a3320"},
		{"a suggested square", "--text", "#3b2a55"},
		{"a refusal", "#ffb4a8", "#4a1d1d"},
		{"a target's mark", "#fff", "#701aa0"},
		{"a capturing target's mark", "#fff", "#d62424"},
		{"the review's badge: best move", "#fff", "#1f6b3a"},
		{"the review's badge: good move", "#fff", "#3b6b1f"},
		{"the review's badge: inaccuracy", "#fff", "#8a5a00"},
		{"the review's badge: mistake", "#fff", "#b23c0b"},
		{"the review's badge: blunder", "#fff", "#b3141e"},
		{"the review's chart: a turning point's number", "#1e1f22", "#f2f3f5"},
	} {
		fg, err := vision.Hex(colour(p.fg))
		require.NoError(t, err)
		bg, err := vision.Hex(colour(p.bg))
		require.NoError(t, err)
		assert.GreaterOrEqual(t, vision.Contrast(fg, bg), 4.5, "%s: %s on %s", p.name, p.fg, p.bg)
	}
}
