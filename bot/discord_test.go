package bot

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
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
