package games

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// TestAGermanPlayerOnAnEnglishServer: Carol's Discord speaks German, her
// server English. Her direct messages (the turn and the end, which no
// interaction of hers answers), her private answers and the computer's
// name inside them are German; the review of her moves too; what the
// channel reads stays English, the computer "Computer (hard)" there.
func TestAGermanPlayerOnAnEnglishServer(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t, harness.WithoutMessageBuckets())
	h.Stop()
	h.Coach = true
	h.Start()
	g := &localeGame{t: t, h: h, private: map[string][]string{}, locale: map[string]string{harness.Carol: "de"}}
	de := localeFile(t, "de")
	computerDE := locales.Tr("de", locales.Computer, locales.Tr("de", locales.Level("hard")))
	computerEN := locales.Tr("en", locales.Computer, locales.Tr("en", locales.Level("hard")))
	require.Equal(t, "Computer (schwer)", computerDE)

	notify := g.command(harness.Carol, "notify", map[string]any{"dm": true, "ping": "always"})
	require.True(t, notify.Ephemeral())
	assert.Contains(t, notify.Message.Text(), localeText(t, de, "notify.ping_always"))

	lobby := *g.command(harness.Carol, "new", map[string]any{"seats": 2, "bots": 1, "level": "hard"}).Message
	assert.Contains(t, strings.Join(visibleTexts(lobby), "\n"), computerEN, "the lobby is the channel's: English")
	start := harness.Control(t, lobby, bot.ActStart)
	id, err := bot.ParseCustomID(start)
	require.NoError(t, err)
	g.click(harness.Carol, lobby.ID, start)
	for turn := 0; turn < 3 && g.playTurn(id.Game, false); turn++ {
	}

	games := g.command(harness.Carol, "games", nil)
	require.True(t, games.Ephemeral())
	list := strings.Join(visibleTexts(*games.Message), "\n")
	assert.Contains(t, list, locales.Tr("de", locales.GamesTitle))
	assert.Contains(t, list, computerDE, "the computer named in German in her private answer")
	assert.NotContains(t, list, computerEN)

	for turn := 3; g.playTurn(id.Game, true); turn++ {
		require.Less(t, turn, 400, "no winner after 400 turns")
	}
	sg, eg := h.Game(id.Game)
	require.Equal(t, malefiz.StatusFinished, sg.Status)
	winner := "🔴 " // Carol's colour, as the end's DM names her
	if sg.Seats[1].Color == eg.Winner().String() {
		winner = computerDE
	}

	// Her direct messages: German, the winner named in German.
	var dms []string
	require.Eventually(t, func() bool {
		dms = dms[:0]
		for _, m := range h.Fake.DMMessages(harness.Carol) {
			dms = append(dms, m.Text())
		}
		return len(dms) > 0 && strings.HasPrefix(dms[len(dms)-1], strings.SplitN(localeText(t, de, "dm.ended"), "%d", 2)[0])
	}, 10*time.Second, 20*time.Millisecond, "no German DM of the end")
	turnDM := strings.SplitN(localeText(t, de, "dm.turn"), "%d", 2)[0]
	turnDMs := 0
	for _, text := range dms {
		assert.NotRegexp(t, englishWords, text, "a DM in English")
		assert.NotContains(t, text, computerEN)
		if strings.HasPrefix(text, turnDM) {
			turnDMs++
		}
	}
	assert.Positive(t, turnDMs, "her turns' DMs in German: %q", dms)
	assert.Contains(t, dms[len(dms)-1], winner, "the winner named in German")

	// The coach's verdict is the channel's; her review is hers, in German.
	var verdict fakediscord.Message
	require.Eventually(t, func() bool {
		m, ok := h.Fake.LastMessage(h.Fake.ChannelID)
		verdict = m
		return ok && strings.HasPrefix(harness.Title(m), "🎓")
	}, 30*time.Second, 20*time.Millisecond, "no verdict after the result")
	review := g.click(harness.Carol, verdict.ID, harness.Control(t, verdict, bot.ActReview))
	require.True(t, review.Ephemeral())
	text := review.Message.Text()
	assert.Contains(t, text, locales.Tr("de", locales.ReviewTitle, id.Game))
	assert.NotContains(t, text, computerEN, "no computer named in English in her review")

	// What the channel reads stays English.
	public := ""
	for _, m := range h.Fake.ChannelMessages(h.Fake.ChannelID) {
		public += strings.Join(visibleTexts(m), "\n")
	}
	assert.Contains(t, public, computerEN)
	assert.NotContains(t, public, computerDE)
	// Every private answer to her is German.
	for _, text := range g.private[harness.Carol] {
		assert.NotRegexp(t, englishWords, text, "a private answer in English")
	}
}
