package table

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// TestPrivateTextsAreInTheReadersLanguage: on an English server, a German
// player's direct messages are German, and a computer named in a text in
// German (a review's or a hint's reason) is named in German; what the
// channel reads keeps the server's words.
func TestPrivateTextsAreInTheReadersLanguage(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	tb.Game.Seats[1].Computer = "hard"
	tb.Locales = map[string]string{"1": "de"}
	require.Equal(t, "de", tb.LangOf("1"))
	require.Equal(t, "en", tb.LangOf("2"), "a user without a locale reads the server's language")

	tb.effects = nil
	tb.notify("1", tb.turnDM(tb.LangOf("1")), malefiz.RoleTurn)
	require.Len(t, tb.Effects(), 1)
	dm := tb.Effects()[0]
	assert.Equal(t, DM, dm.Kind)
	assert.Contains(t, dm.Text, locales.Tr("de", locales.DmTurn, tb.Game.ID, ""))

	why := ai.Reason{Kind: ai.ReasonCaptures, Color: engine.Green}
	assert.Contains(t, tb.reasonText("de", why), "Computer (schwer)")
	assert.Contains(t, tb.reasonText("en", why), "Computer (hard)")
	assert.Contains(t, tb.SeatLabel(&tb.Game.Seats[1]), "Computer (hard)", "the channel reads the server's language")

	// Her private look at the board: German, the computer to move named
	// in German.
	tb.Game.Seats[0].Computer = "hard"
	viewer := command(cleo)
	viewer.Lang = "de"
	require.NoError(t, tb.PrivateBoard(viewer))
	require.NotNil(t, tb.Reply)
	board := tb.Reply.Message.Embeds[0]
	assert.Contains(t, board.Title, "Zug ")
	assert.Contains(t, board.Title+board.Description, "Computer (schwer)")
	assert.NotContains(t, board.Title+board.Description, "(hard)")
}
