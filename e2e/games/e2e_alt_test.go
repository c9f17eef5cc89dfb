package games

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// galleryAlts are the alt texts of m's media gallery items, by the file
// each shows.
func galleryAlts(m fakediscord.Message) map[string]string {
	out := map[string]string{}
	for _, c := range m.ComponentsOfType(discordgo.MediaGalleryComponent) {
		for _, it := range c.Items {
			alt := ""
			if it.Description != nil {
				alt = *it.Description
			}
			out[it.Media.URL] = alt
		}
	}
	return out
}

// TestBoardAltTextInTheReadersLanguage reads the board's alt text where
// a screen reader reads it: the turn card in the server's language
// (German), a private /malefiz board in its caller's (French), and the
// board in words with text:true.
func TestBoardAltTextInTheReadersLanguage(t *testing.T) {
	h := harness.New(t, fakediscord.WithGuild(fakediscord.Guild{Locale: "de"}), harness.WithoutMessageBuckets())
	de, fr := localeFile(t, "de"), localeFile(t, "fr")
	gameID, turn := harness.OpenTwoPlayerGame(t, h)

	alts := galleryAlts(turn)
	require.Contains(t, alts, "attachment://board.png")
	cardAlt := alts["attachment://board.png"]
	assert.True(t, strings.HasPrefix(cardAlt, fmt.Sprintf(localeText(t, de, "alt.board"), 1)), "German turn card: %q", cardAlt)
	assert.Contains(t, cardAlt, "(Rot)"+fmt.Sprintf(localeText(t, de, "alt.to_roll"), ""), "whose turn")
	assert.LessOrEqual(t, len([]rune(cardAlt)), 1024)

	// Alice rolls: the card letters her moves, in words too.
	h.Click(harness.Alice, turn.ID, harness.Control(t, turn, bot.ActRoll))
	rolled, running := h.WaitTurn(gameID)
	require.True(t, running)
	cardAlt = galleryAlts(rolled)["attachment://board.png"]
	assert.Contains(t, cardAlt, "A: Figur aus dem Haus nach ", "German moves: %q", cardAlt)

	// Alice reads French: her private board says it in French.
	board := func(opts map[string]any) fakediscord.Message {
		resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Alice, Locale: "fr", Name: "malefiz", Sub: "board", Options: opts})
		require.NoError(t, err)
		require.True(t, resp.Ephemeral())
		return *resp.Message
	}
	private := board(nil)
	privateAlt := galleryAlts(private)["attachment://board.png"]
	assert.True(t, strings.HasPrefix(privateAlt, fmt.Sprintf(localeText(t, fr, "alt.board"), 1)), "French private board: %q", privateAlt)
	assert.Contains(t, privateAlt, "A : pion de la maison vers ")
	_, attached := private.Attachment("board.png")
	assert.True(t, attached)

	// text:true: the same words, no picture.
	words := board(map[string]any{"text": true})
	assert.Empty(t, galleryAlts(words))
	assert.Empty(t, words.ShownAttachments())
	assert.Contains(t, words.Text(), privateAlt)
}
