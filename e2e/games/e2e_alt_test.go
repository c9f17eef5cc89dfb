package games

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// galleryAlts are the alt texts of m's media gallery items, by the file
// each shows.
var galleryAlts = harness.GalleryAlts

// TestBoardAltTextInTheReadersLanguage reads the board's alt text where
// a screen reader reads it: the turn card in the server's language
// (German), a private /malefiz board in its caller's (French), and the
// board in words with text:true.
func TestBoardAltTextInTheReadersLanguage(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
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

// TestStatsAndReplayAltTextInTheServersLanguage reads the alt text of the
// last two pictures where a screen reader reads it, through the stand-in:
// /malefiz stats' rating chart and /malefiz replay's animation, both
// public, so in the server's language (German) whatever their caller's
// (French).
func TestStatsAndReplayAltTextInTheServersLanguage(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t, fakediscord.WithGuild(fakediscord.Guild{Locale: "de"}), harness.WithoutMessageBuckets())
	gameID, _ := harness.OpenTwoPlayerGame(t, h)
	resp := h.Command(harness.Bob, "resign", nil)
	if harness.HasControl(*resp.Message, bot.ActResign) {
		h.Click(harness.Bob, resp.Message.ID, harness.Control(t, *resp.Message, bot.ActResign))
	}
	_, running := h.WaitTurn(gameID)
	require.False(t, running, "Bob resigned: Alice won")
	sg, g := h.Game(gameID)
	require.True(t, g.Over())
	command := func(sub string, opts map[string]any) *fakediscord.Response {
		resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Alice, Locale: "fr", Name: "malefiz", Sub: sub, Options: opts})
		require.NoError(t, err)
		return resp
	}

	stats := command("stats", nil)
	require.False(t, stats.Ephemeral())
	text := stats.Message.Text()
	title := regexp.MustCompile(`### 📊 (.+)`).FindStringSubmatch(text)
	rating := regexp.MustCompile(`\*\*Wertung \(Rang\):\*\* (\d+)`).FindStringSubmatch(text)
	require.Len(t, title, 2, text)
	require.Len(t, rating, 2, text)
	alt := galleryAlts(*stats.Message)["attachment://rating.png"]
	t.Log(alt)
	assert.True(t, strings.HasPrefix(alt, "Liniendiagramm der Wertung von "+title[1]+" nach 1 Spiel, am "), alt)
	assert.Contains(t, alt, " ausgehend von 1500. Wertung jetzt: "+rating[1]+".")
	assert.LessOrEqual(t, len([]rune(alt)), 1024)
	_, attached := stats.Message.Attachment("rating.png")
	assert.True(t, attached)

	replay := command("replay", map[string]any{"game": gameID})
	_, err := h.Fake.WaitFor(h.Ctx(), func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteWebhookMessageEdit && c.InteractionID == replay.InteractionID && c.OK()
	})
	require.NoError(t, err, "the replay replaced its \"thinking…\"")
	shown, ok := h.Fake.Message(replay.Message.ID)
	require.True(t, ok)
	alt = galleryAlts(shown)[fmt.Sprintf("attachment://malefiz-%d.gif", gameID)]
	t.Log(alt)
	assert.True(t, strings.HasPrefix(alt, locales.Tr("de", locales.AltReplay, gameID, g.TurnNumber())+" Spieler: "), alt)
	for i := range sg.Seats {
		assert.Contains(t, alt, sg.Seats[i].Name+" (", "every player")
	}
	assert.Contains(t, alt, strings.TrimPrefix(localeText(t, localeFile(t, "de"), "alt.replay_forfeit"), "%s "), "Alice won as Bob left")
	assert.Len(t, shown.ShownAttachments(), 1, "the animation shows")
}
