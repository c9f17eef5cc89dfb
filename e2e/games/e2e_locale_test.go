package games

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// englishWords are words of the English texts that no text of the other
// languages uses: one of them in a Spanish channel means a text was left in
// English. "minute" is German too ("in einer Minute"): only its plural is
// listed.
var englishWords = regexp.MustCompile(`(?i)\b(the|you|your|turns?|roll(ed)?|wins?|games?|seats?|pawns?|move|choose|runs|out|board|hours?|days?|minutes|host|join|leave|free|rules|row|squares?|captures|goal|streak|last|rating|time|page|played|ran|nobody|everyone)\b`)

// localeFile returns the uncounted texts of one of the bot's message files
// as its players read them (command and button placeholders filled).
func localeFile(t *testing.T, lang string) map[string]any {
	t.Helper()
	_, err := os.Stat(filepath.Join("..", "..", "bot", "locales", lang+".toml"))
	require.NoError(t, err)
	texts := map[string]any{}
	for key, text := range bot.LocaleTexts(lang) {
		texts[key] = text
	}
	return texts
}

// localeText is the plain (uncounted) text of key in texts.
func localeText(t *testing.T, texts map[string]any, key string) string {
	t.Helper()
	s, ok := texts[key].(string)
	require.True(t, ok, "no plain text %q", key)
	return s
}

// visibleTexts returns every text of m a reader sees: content, embeds,
// the labels of its controls, and the alt text of its pictures, which a
// screen reader reads.
func visibleTexts(m fakediscord.Message) []string {
	out := []string{m.Content}
	for _, e := range m.Embeds {
		out = append(out, e.Title, e.Description)
		if e.Footer != nil {
			out = append(out, e.Footer.Text)
		}
		for _, f := range e.Fields {
			out = append(out, f.Name, f.Value)
		}
	}
	for _, c := range m.ComponentsOfType(discordgo.TextDisplayComponent) {
		out = append(out, c.Content)
	}
	for _, alt := range harness.GalleryAlts(m) {
		out = append(out, alt)
	}
	for _, c := range m.Controls() {
		out = append(out, c.Label, c.Placeholder)
		for _, o := range c.Options {
			out = append(out, o.Label, o.Description)
		}
	}
	return out
}

// localeGame drives one game whose server speaks Spanish and whose players
// speak Italian, Polish and German, and keeps every private answer.
type localeGame struct {
	t       *testing.T
	h       *harness.Harness
	locale  map[string]string // user → Discord locale
	private map[string][]string
}

func (g *localeGame) invocation(user string) fakediscord.Invocation {
	return fakediscord.Invocation{User: user, Locale: g.locale[user]}
}

// keep records a private answer to user.
func (g *localeGame) keep(user string, resp *fakediscord.Response) *fakediscord.Response {
	if resp.Ephemeral() {
		g.private[user] = append(g.private[user], visibleTexts(*resp.Message)...)
	}
	return resp
}

func (g *localeGame) command(user, sub string, opts map[string]any) *fakediscord.Response {
	g.t.Helper()
	inv := g.invocation(user)
	inv.Name, inv.Sub, inv.Options = "malefiz", sub, opts
	resp, err := g.h.Fake.SlashCommand(g.h.Ctx(), inv)
	require.NoError(g.t, err, "/malefiz %s by %s", sub, user)
	return g.keep(user, resp)
}

func (g *localeGame) click(user, msgID, customID string, values ...string) *fakediscord.Response {
	g.t.Helper()
	inv := g.invocation(user)
	inv.MessageID, inv.CustomID, inv.Values = msgID, customID, values
	resp, err := g.h.Fake.Click(g.h.Ctx(), inv)
	require.NoError(g.t, err, "click %s by %s", customID, user)
	return g.keep(user, resp)
}

// playTurn plays the current turn through the buttons in the mover's
// locale, placing a captured barricade with the row and square menus; it
// reports false once the game is over.
func (g *localeGame) playTurn(gameID int64, wantCapture bool) bool {
	g.t.Helper()
	turnMsg, running := g.h.WaitTurn(gameID)
	if !running {
		return false
	}
	_, game := g.h.Game(gameID)
	player := turnMsg.Pinged[0]
	roll, m := harness.BestRoll(game.Position(), game.Rules(), wantCapture)
	if roll == 0 {
		roll = 6
	}
	g.h.Die.Set(roll)
	resp := g.click(player, turnMsg.ID, harness.Control(g.t, turnMsg, bot.ActRoll))
	if !harness.HasControl(*resp.Message, bot.ActMove) {
		return true // no legal move: the turn passed
	}
	target := engine.Move{From: m.From, To: m.To, Place: engine.NoSquare}.String()
	var moveID string
	for _, id := range resp.Message.CustomIDs() {
		if strings.HasPrefix(id, "mf/move/") && strings.HasSuffix(id, "/"+target) {
			moveID = id
		}
	}
	require.NotEmpty(g.t, moveID, "no button for %s", target)
	barricade := game.Position().At(m.To) == engine.Barricade
	resp = g.click(player, turnMsg.ID, moveID)
	if barricade {
		rows := harness.Control(g.t, *resp.Message, bot.ActPlaceRow)
		menu, _ := resp.Message.Component(rows)
		resp = g.click(player, turnMsg.ID, rows, menu.Options[len(menu.Options)-1].Value)
		for _, c := range resp.Message.Controls() {
			if strings.HasPrefix(c.CustomID, "mf/place/") && c.Type == discordgo.SelectMenuComponent {
				g.click(player, turnMsg.ID, c.CustomID, c.Options[len(c.Options)-1].Value)
				break
			}
		}
	}
	return true
}

func TestGameInTheServersAndTheUsersLanguages(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t, fakediscord.WithGuild(fakediscord.Guild{Locale: "es-ES"}), harness.WithoutMessageBuckets())
	g := &localeGame{t: t, h: h, private: map[string][]string{},
		locale: map[string]string{harness.Alice: "it", harness.Bob: "pl", harness.Carol: "de"}}
	es, it, pl, de := localeFile(t, "es"), localeFile(t, "it"), localeFile(t, "pl"), localeFile(t, "de")

	// The commands are registered with every language's names.
	cmds := h.Fake.Commands(h.Fake.GuildID)
	require.Len(t, cmds, 1)
	names := map[string]bool{}
	for _, o := range cmds[0].Options {
		names[o.NameLocalizations[discordgo.SpanishES]] = true
		names[o.NameLocalizations[discordgo.Polish]] = true
	}
	assert.True(t, names["tablero"] && names["plansza"], "localized subcommand names: %v", names)

	lobby := *g.command(harness.Alice, "new", map[string]any{"seats": 3}).Message
	assert.Equal(t, localeText(t, es, "lobby.title"), harness.Title(lobby))
	join := harness.Control(t, lobby, bot.ActJoin)
	cid, err := bot.ParseCustomID(join)
	require.NoError(t, err)
	g.click(harness.Bob, lobby.ID, join)
	resp := g.click(harness.Carol, lobby.ID, join)
	// Only the host starts: Bob reads it in Polish.
	refusal := g.click(harness.Bob, lobby.ID, harness.Control(t, *resp.Message, bot.ActStart))
	require.True(t, refusal.Ephemeral())
	assert.Equal(t, localeText(t, pl, "err.only_host_starts"), refusal.Message.Text())
	g.click(harness.Alice, lobby.ID, harness.Control(t, lobby, bot.ActStart))

	// Carol asks for the rules, Bob for help, Alice presses an old button.
	assert.Equal(t, strings.TrimSpace(localeText(t, de, "text.rules")), g.command(harness.Carol, "rules", nil).Message.Text())
	assert.Equal(t, strings.TrimSpace(localeText(t, pl, "text.help"))+"\n\n"+strings.TrimSpace(localeText(t, pl, "text.marks")),
		g.command(harness.Bob, "help", nil).Message.Text(), "the help explains the marks too")
	again := g.command(harness.Alice, "join", nil)
	assert.True(t, again.Ephemeral())
	assert.Contains(t, values(it), again.Message.Text(), "a refusal in Italian")

	for turn := 0; g.playTurn(cid.Game, turn < 12); turn++ {
		require.Less(t, turn, 400, "no winner after 400 turns")
		if turn == 3 {
			// Someone who is not to move presses Roll: a private refusal.
			msg, _ := h.WaitTurn(cid.Game)
			other := map[string]string{harness.Alice: harness.Bob, harness.Bob: harness.Carol, harness.Carol: harness.Alice}[msg.Pinged[0]]
			r := g.click(other, msg.ID, harness.Control(t, msg, bot.ActRoll))
			assert.True(t, r.Ephemeral())
			want := map[string]string{harness.Alice: localeText(t, it, "err.not_your_turn"), harness.Bob: localeText(t, pl, "err.not_your_turn"), harness.Carol: localeText(t, de, "err.not_your_turn")}[other]
			assert.Equal(t, want, r.Message.Text())
		}
	}
	final := h.LastMessage()
	assert.Contains(t, harness.Title(final), "gana tras", "the winner in Spanish")

	// Statistics are public: Spanish, with Spanish numbers.
	stats := g.command(harness.Carol, "stats", map[string]any{"user": harness.Alice})
	require.False(t, stats.Ephemeral())
	assert.Contains(t, stats.Message.Text(), fmt.Sprintf(localeText(t, es, "stats.line"), localeText(t, es, "stats.games"), "1"))
	g.command(harness.Bob, "leaderboard", nil)
	g.command(harness.Bob, "history", nil)

	// Every public text is Spanish.
	public := 0
	for _, m := range h.Fake.ChannelMessages(h.Fake.ChannelID) {
		for _, text := range visibleTexts(m) {
			public++
			assert.NotRegexp(t, englishWords, text, "public text in English")
		}
		if strings.HasPrefix(harness.Title(m), "Turno ") {
			assert.Contains(t, strings.Join(visibleTexts(m), " "), "Turno")
		}
	}
	assert.Greater(t, public, 50)
	// Every private answer is one of its reader's language's texts.
	own := map[string][]string{harness.Alice: values(it), harness.Bob: values(pl), harness.Carol: values(de)}
	for user, texts := range g.private {
		for _, text := range texts {
			if text == "" {
				continue
			}
			assert.NotRegexp(t, englishWords, text, "private answer to %s (%s) in English", user, g.locale[user])
			for _, part := range strings.Split(text, "\n\n") { // the help is two texts
				assert.Contains(t, own[user], part, "private answer to %s (%s)", user, g.locale[user])
			}
		}
	}
	assert.Len(t, g.private, 3, "each player got a private answer")
}

// values returns the plain texts of a message file.
func values(texts map[string]any) []string {
	var out []string
	for _, v := range texts {
		if s, ok := v.(string); ok {
			out = append(out, s, strings.TrimSpace(s))
		}
	}
	return out
}

// TestEnglishWordListCatchesEnglish keeps the word list honest: it finds
// the English texts and none of the Spanish, Italian, Polish and German
// ones.
func TestEnglishWordListCatchesEnglish(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	hits := 0
	for _, s := range values(localeFile(t, "en")) {
		if englishWords.MatchString(s) {
			hits++
		}
	}
	assert.Greater(t, hits, 60, "the word list finds too few English texts")
	for _, lang := range []string{"es", "it", "pl", "de"} {
		for _, s := range values(localeFile(t, lang)) {
			assert.NotRegexp(t, englishWords, s, "%s text", lang)
		}
	}
	_, err := os.Stat(filepath.Join("..", "..", "bot", "locales", "en.toml"))
	require.NoError(t, err)
}
