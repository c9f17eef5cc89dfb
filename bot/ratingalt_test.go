package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// statsCard is /malefiz stats of Ann in lang as the bot answers it, with
// her record as the store has it: the card's text, the rating chart's alt
// text (nil without a gallery) and the answer's files.
func statsCard(t *testing.T, bot *Bot, rec *answerRecorder, lang string) (text string, alt *string, data *discordgo.InteractionResponseData) {
	t.Helper()
	r := commandRequest(rec)
	r.lang, r.guildLang = lang, lang
	require.NoError(t, bot.panel.cmdStats(context.Background(), r, options{}))
	data = rec.last.Data
	require.Equal(t, v2Flags, data.Flags&v2Flags, "a Components V2 card")
	require.Empty(t, data.Embeds)
	require.Len(t, data.Components, 1)
	card, ok := data.Components[0].(discordgo.Container)
	require.True(t, ok, "one container: %T", data.Components[0])
	for _, c := range card.Components {
		switch c := c.(type) {
		case discordgo.TextDisplay:
			text += c.Content
		case discordgo.MediaGallery:
			require.Len(t, c.Items, 1)
			assert.Equal(t, "attachment://rating.png", c.Items[0].Media.URL)
			alt = c.Items[0].Description
		}
	}
	return text, alt, data
}

// TestStatsCardSaysTheChartInWords: a player of 120 rated games gets the
// stats as a card with every figure the embed had, and the rating chart
// whose alt text says what it draws: its 100 games and their dates, the
// rating now, the highest and lowest, the last ten games' change and wins.
func TestStatsCardSaysTheChartInWords(t *testing.T) {
	bot, rec := statsBot(t, 120)
	s, err := bot.panel.db.PlayerStats(context.Background(), "1", "1")
	require.NoError(t, err)
	require.Len(t, s.History, 100, "the chart shows the last 100 games")

	text, alt, data := statsCard(t, bot, rec, "en")
	t.Logf("%s\n\nalt: %s", text, *alt)
	for _, want := range []string{
		"### 📊 Ann",
		fmt.Sprintf("**Rating (rank):** %d (#%d)", int(s.Rating+0.5), s.Rank),
		"**Games:** 120",
		fmt.Sprintf("**Wins:** %d (%d%%)", s.Wins, int(s.WinRate*100+0.5)),
		fmt.Sprintf("**Captures made / suffered:** %d / %d", s.Captures, s.Captured),
		"**Barricades moved:** ",
		"**Turns to win (average):** ",
		fmt.Sprintf("**Fastest win (turns):** %d\n", s.FastestWin), // a count, not "68.0"
		"**Current streak:** ",
		"**Favourite colour:** 🔴 Red",
	} {
		assert.Contains(t, text, want)
	}
	require.Len(t, data.Files, 1)
	assert.Equal(t, "rating.png", data.Files[0].Name)
	require.NotNil(t, alt, "the chart carries alt text")
	assert.LessOrEqual(t, utf8.RuneCountInString(*alt), table.MaxAlt)

	h := s.History
	day := func(i int) string { return h[i].At.UTC().Format("January 2, 2006") }
	round := func(r float64) int { return int(r + 0.5) }
	assert.True(t, strings.HasPrefix(*alt, fmt.Sprintf("Line chart of the rating of Ann over the last 100 games, from %s to %s: one point per game.", day(0), day(99))), *alt)
	assert.Contains(t, *alt, fmt.Sprintf(" Rating now: %d.", round(s.Rating)))
	hi, lo := 0, 0
	for i, p := range h {
		if round(p.Rating) >= round(h[hi].Rating) {
			hi = i
		}
		if round(p.Rating) <= round(h[lo].Rating) {
			lo = i
		}
	}
	assert.Contains(t, *alt, fmt.Sprintf(" Highest %d on %s, lowest %d on %s.", round(h[hi].Rating), day(hi), round(h[lo].Rating), day(lo)))
	won := 0
	for _, p := range h[90:] {
		if p.Won {
			won++
		}
	}
	change := round(h[99].Rating) - round(h[89].Rating)
	trend := fmt.Sprintf("up %d points", change)
	if change < 0 {
		trend = fmt.Sprintf("down %d points", -change)
	}
	assert.True(t, strings.HasSuffix(*alt, fmt.Sprintf(" Over the last 10 games: %s; %d won, %d lost.", trend, won, 10-won)), *alt)

	// The answer is the server's: German on a German server.
	_, alt, _ = statsCard(t, bot, rec, "de")
	t.Logf("de: %s", *alt)
	assert.Contains(t, *alt, fmt.Sprintf("%d. %s", h[0].At.Day(), strings.Fields(locales.Tr("de", locales.DateMonthsLong))[h[0].At.Month()-1]))
	assert.Contains(t, *alt, strconv.Itoa(round(s.Rating)))
	assert.NotContains(t, *alt, "Line chart")
}

// TestStatsChartAltFromTheStart: a player whose every game is drawn reads
// that the line starts from the initial rating; after one game there is
// neither a range nor a trend to tell.
func TestStatsChartAltFromTheStart(t *testing.T) {
	bot, rec := statsBot(t, 3)
	_, alt, _ := statsCard(t, bot, rec, "en")
	require.NotNil(t, alt)
	t.Log(*alt)
	assert.True(t, strings.HasPrefix(*alt, "Line chart of the rating of Ann over all 3 games, from March 14, 2025 to March 16, 2025: one point per game, starting from 1500."), *alt)
	assert.Contains(t, *alt, " Over the last 3 games: ")

	bot, rec = statsBot(t, 1)
	_, alt, _ = statsCard(t, bot, rec, "en")
	require.NotNil(t, alt)
	t.Log(*alt)
	s, err := bot.panel.db.PlayerStats(context.Background(), "1", "1")
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("Line chart of the rating of Ann after 1 game, on March 14, 2025, starting from 1500. Rating now: %d.", int(s.Rating+0.5)), *alt)
}

// TestStatsChartAltFitsDiscordsLimit: the longest rating chart alt text,
// a 32-character name over 100 games a year apart, stays within Discord's
// 1,024 characters in every language, whole.
func TestStatsChartAltFitsDiscordsLimit(t *testing.T) {
	bot, _ := statsBot(t, 120)
	s, err := bot.panel.db.PlayerStats(context.Background(), "1", "1")
	require.NoError(t, err)
	name := strings.Repeat("W", 32)
	for _, lang := range locales.Default.Languages() {
		alt := ratingAlt(lang, name, s)
		t.Logf("%s (%d): %s", lang, utf8.RuneCountInString(alt), alt)
		assert.LessOrEqual(t, utf8.RuneCountInString(alt), table.MaxAlt, lang)
		assert.NotContains(t, alt, "…", "%s: cut", lang)
		assert.Contains(t, alt, name, lang)
		assert.Contains(t, alt, tr(lang, locales.AltRatingNow, int(s.Rating+0.5)), lang)
	}
	_ = store.InitialRating
}
