package bot

import (
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/render"
)

func TestBoardsDrawAStateOnce(t *testing.T) {
	drawn := 0
	bd := &boards{renderer: render.New(200), hooks: Hooks{Render: func(time.Duration) { drawn++ }}}
	p, err := engine.ParsePosition("start")
	require.NoError(t, err)
	s := render.NewScene(p)
	first, err := bd.file(s)
	require.NoError(t, err)
	again, err := bd.file(s)
	require.NoError(t, err)
	assert.Equal(t, 1, drawn, "the same scene is drawn once")
	a, _ := io.ReadAll(first.Reader)
	b, _ := io.ReadAll(again.Reader)
	assert.Equal(t, a, b)
	s.Roll = 3
	_, err = bd.file(s)
	require.NoError(t, err)
	assert.Equal(t, 2, drawn)
	for i := range boardsKept + 2 {
		s.Roll = i%6 + 1
		s.Turn = engine.Color(i % 4)
		_, err = bd.file(s)
		require.NoError(t, err)
	}
	assert.LessOrEqual(t, len(bd.drawn), boardsKept)
}

// TestAnAnswerFillsInTheChances checks that a card sent as a click's
// answer (Start turns the lobby into the card) shows the chances known at
// once, the model's for a position not read yet, not the tokens delivery
// fills in.
func TestAnAnswerFillsInTheChances(t *testing.T) {
	pos := engine.StartPosition()
	fill := &table.ChanceFill{Position: pos, Lang: "en"}
	card := table.Message{Embeds: []table.Embed{{Description: "red " + table.ChanceToken(engine.Red) + ", blue " + table.ChanceToken(engine.Blue)}},
		Chances: fill}
	_, data := responseOf(&table.Reply{Kind: table.Update, Message: card})
	body, err := json.Marshal(data)
	require.NoError(t, err)
	ch := ai.SteadyChances(pos, engine.Rules{})
	assert.NotContains(t, string(body), "{chance:")
	assert.Contains(t, string(body), "red "+table.Percent("en", ch[engine.Red])+", blue "+table.Percent("en", ch[engine.Blue]))
	assert.Contains(t, card.Embeds[0].Description, "{chance:r}", "the card itself is left as it was")
}
