package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// lateRunner is a late position of three players where yellow has a lone
// runner and four pawns at home (the first of issue 42's two).
const lateRunner = "players=rgy turn=y r=c1,c4,j9 g=d1 y=m7 x=i2,q3,f7,k7,l7,g9,f11,i11,l11,n11,i13"

func TestChancesCommand(t *testing.T) {
	pos, err := engine.ParsePosition(lateRunner)
	require.NoError(t, err)
	card, search := ai.CardChances(pos, engine.Rules{}), ai.SearchChances(pos, engine.Rules{})

	code, out, errOut := runCLI("chances", lateRunner)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4, "a header and a line per colour in play")
	assert.Equal(t, []string{"colour", "card", "search"}, strings.Fields(lines[0]))
	for i, c := range []engine.Color{engine.Red, engine.Green, engine.Yellow} {
		assert.Equal(t, []string{c.String(), fmt.Sprintf("%.1f", 100*card[c]), "%", fmt.Sprintf("%.1f", 100*search[c]), "%"},
			strings.Fields(lines[i+1]), "%s's line", c)
	}

	// The same position as separate words, with the house rules.
	code, out, errOut = runCLI(append([]string{"chances", "-json", "-six-again"}, strings.Fields(lateRunner)...)...)
	require.Equal(t, 0, code, errOut)
	six := engine.Rules{SixAgain: true}
	card, search = ai.CardChances(pos, six), ai.SearchChances(pos, six)
	assert.Regexp(t, `^\{"card":\{"r":[0-9.]+,"g":[0-9.]+,"y":[0-9.]+\},"search":\{"r":[0-9.]+,"g":[0-9.]+,"y":[0-9.]+\}\}\n$`, out,
		"one line, the colours by letter in seat order")
	var got struct{ Card, Search map[string]float64 }
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	for _, c := range pos.Players() {
		letter := string(c.Letter())
		assert.InDelta(t, card[c], got.Card[letter], 5e-5, "card, %s", c)
		assert.InDelta(t, search[c], got.Search[letter], 5e-5, "search, %s", c)
	}
	assert.Len(t, got.Card, 3, "only the colours in play")
	sum := 0.0
	for _, p := range got.Search {
		sum += p
	}
	assert.InDelta(t, 1, sum, 1e-3, "the search's chances add up")
}

func TestChancesCommandFinishedAndErrors(t *testing.T) {
	code, out, _ := runCLI("chances", "-json", "players=rb turn=r r=i14 b= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11")
	require.Equal(t, 0, code)
	assert.Equal(t, `{"card":{"r":1,"b":0},"search":{"r":1,"b":0}}`+"\n", out, "the winner has it all")

	for _, args := range [][]string{{"chances"}, {"chances", "players=rb turn=x"}, {"chances", "-roll", "3", "start"}} {
		code, _, errOut := runCLI(args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Contains(t, errOut, "malefiz: chances: ", "%v", args)
	}
}
