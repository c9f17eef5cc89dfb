package table

import (
	"image/color"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/render/vision"
)

// TestBoardAltSaysTheMoves reads a turn's board in words: whose turn, the
// roll, each lettered move with what it captures, the leader's distance.
func TestBoardAltSaysTheMoves(t *testing.T) {
	tb := tableAt(t, "players=rg turn=r r=e2,a2 g=e1 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", 1)
	v := tb.TurnView(TurnOptions{})
	t.Log(v.BoardAlt)
	assert.True(t, strings.HasPrefix(v.BoardAlt, "Malefiz board, turn "), v.BoardAlt)
	assert.Contains(t, v.BoardAlt, "Ann (Red) rolled 1.")
	assert.Contains(t, v.BoardAlt, "takes the barricade")
	assert.Contains(t, v.BoardAlt, "captures the pawn of Ben (Green)")
	assert.Contains(t, v.BoardAlt, "A: pawn ")
	assert.Contains(t, v.BoardAlt, "Leader: ")
	for _, b := range controls(v.Rows) {
		letter, _, _ := strings.Cut(b.Label, " · ")
		assert.Contains(t, v.BoardAlt, letter+": pawn ", "every lettered button is in the words")
	}

	// The same board in German.
	tb = tableAt(t, "players=rg turn=r r=e2,a2 g=e1 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", 1)
	de := *tb.Game
	de.Locale = "de"
	tb.Game = &de
	v = tb.TurnView(TurnOptions{})
	assert.Contains(t, v.BoardAlt, "Ann (Rot) würfelt eine 1.")
	assert.Contains(t, v.BoardAlt, "schlägt die Figur von Ben (Grün)")
}

// TestBoardAltFitsDiscordsLimit cuts a list too long for MaxAlt with "and
// N more", in every language, keeping the head and the tail.
func TestBoardAltFitsDiscordsLimit(t *testing.T) {
	for _, lang := range locales.Default.Languages() {
		t.Run(lang, func(t *testing.T) {
			a := alt{lang: lang, head: []string{tr(lang, locales.AltBoard, 12)}, tail: []string{tr(lang, locales.AltLeader, 3, "Ann (Red)")}}
			for range 40 {
				a.items = append(a.items, tr(lang, locales.AltMove, "A", "c1", "e3")+", "+
					tr(lang, locales.AltCapturesPawn, strings.Repeat("B", 32)+" (Green)"))
			}
			s := a.String()
			assert.LessOrEqual(t, utf8.RuneCountInString(s), MaxAlt)
			require.True(t, strings.HasPrefix(s, a.head[0]), s)
			assert.True(t, strings.HasSuffix(s, a.tail[0]), s)
			assert.Contains(t, s, tr(lang, locales.AltMore, 40-strings.Count(s, "c1")))
		})
	}
}

// TestPrivateBoardInWords answers /malefiz board text:true with the board's
// words in the text and no picture, the mover's buttons kept.
func TestPrivateBoardInWords(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	require.NoError(t, tb.PrivateBoard(command(ann)))
	pictured := tb.Reply.Message
	require.NotNil(t, pictured.Board)
	require.NotEmpty(t, pictured.BoardAlt)

	require.NoError(t, tb.PrivateBoardInWords(command(ann)))
	got := tb.Reply.Message
	assert.Equal(t, Private, tb.Reply.Kind)
	assert.Nil(t, got.Board, "no picture")
	require.Len(t, got.Embeds, 1)
	assert.False(t, got.Embeds[0].Board)
	assert.Contains(t, got.Embeds[0].Description, pictured.BoardAlt)
	assert.Equal(t, pictured.Rows, got.Rows, "the mover still plays from it")
	assert.True(t, pictured.Embeds[0].Board, "the view it came from is unchanged")

	lobbyView := lobby(ann)
	require.NoError(t, lobbyView.PrivateBoardInWords(command(ann)))
	assert.Nil(t, lobbyView.Reply.Message.Board)
}

// TestCardAccentsStayApartForColourBlindEyes: the card's accent colours,
// one per player, stay at least 20 apart (CIEDE2000) under simulated
// protanopia, deuteranopia and tritanopia.
func TestCardAccentsStayApartForColourBlindEyes(t *testing.T) {
	rgb := func(v int) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255} }
	for _, d := range append([]vision.Deficiency{vision.Normal}, vision.Deficiencies...) {
		least := math.Inf(1)
		for i := range ColorRGB {
			for j := i + 1; j < len(ColorRGB); j++ {
				least = min(least, d.Difference(rgb(ColorRGB[i]), rgb(ColorRGB[j])))
			}
		}
		assert.GreaterOrEqual(t, least, 20.0, d.Name)
	}
}
