package chances

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// percentLine is a card's seat line with the seat's chance to win.
var percentLine = regexp.MustCompile(` · \d+ to go · \d+%$`)

// swing is a turning point's line of the result: who rolled what, the
// move and what it did, the mover's chance before the roll and after the
// move, and the change split into the roll's part and the move's.
var swing = regexp.MustCompile(`^\*\*[123]\.\*\* Turn \d+ · .+ rolled a \d: .+ \(.+\) · \d+% → \d+% · the roll [+−]?\d+, the (best move|move −\d+ \(best: .+\))$`)

// cardReadsItsOwnChances waits, while a person thinks, for the card to
// show the card's chances of the position (ai.CardChances: its rollouts,
// read in the background after the card went with the chances known at
// once, then edited in again or brought by the card's next edit of the
// same position).
func cardReadsItsOwnChances(t *testing.T, h *harness.Harness, game int64, card string) {
	t.Helper()
	_, g := h.Game(game)
	ch := ai.CardChances(g.Position(), engine.Rules{})
	want := map[string]string{"🔴": table.Percent("en", ch[engine.Red]), "🟢": table.Percent("en", ch[engine.Green])}
	shows := func() bool {
		m, ok := h.Fake.Message(card)
		if !ok {
			return false
		}
		found := 0
		for _, l := range strings.Split(m.Text(), "\n") {
			for emoji, pct := range want {
				if strings.Contains(l, emoji) && strings.HasSuffix(l, " · "+pct) {
					found++
				}
			}
		}
		return found == len(want)
	}
	assert.Eventually(t, shows, harness.Patience, 20*time.Millisecond, "the card shows its own chances %v", want)
}

// TestWhoIsWinningAndWhy plays a game against a hard computer to its end:
// the card shows each seat's chance during play, the computer's lines say
// why it moved, and the result lists three turning points with their
// swings and carries the chart of the chances; malefiz analyse prints the
// same turning points from the database.
func TestWhoIsWinningAndWhy(t *testing.T) {
	h := harness.New(t, harness.WithoutMessageBuckets())
	lobby := *h.Command(harness.Alice, "new", map[string]any{"seats": 2, "bots": 1, "level": "hard"}).Message
	id, err := bot.ParseCustomID(harness.Control(t, lobby, bot.ActStart))
	require.NoError(t, err)
	h.Click(harness.Alice, lobby.ID, harness.Control(t, lobby, bot.ActStart))
	reasons, lines, cards := 0, 0, 0
	for turn := 0; ; turn++ {
		require.Less(t, turn, 300, "no winner after 300 turns")
		turnMsg, running := h.WaitTurn(id.Game)
		if !running {
			break
		}
		if turn%5 == 0 {
			card, ok := h.Fake.Message(lobby.ID)
			require.True(t, ok)
			seats := 0
			for _, l := range strings.Split(card.Text(), "\n") {
				if strings.Contains(l, " to go") {
					seats++
					assert.Regexp(t, percentLine, l, "the card's seat line carries its chance")
				}
			}
			assert.Equal(t, 2, seats, "a line per seat: %q", card.Text())
			cards++
		}
		if turn == 20 && bot.CardChancesRead {
			cardReadsItsOwnChances(t, h, id.Game, lobby.ID)
		}
		harness.PlayTurn(t, h, id.Game, true)
		played, ok := h.Fake.Message(turnMsg.ID)
		require.True(t, ok)
		for _, l := range strings.Split(played.Text(), "\n") {
			if strings.Contains(l, "Computer (hard) rolled") && strings.Contains(l, "→") {
				lines++
				if assert.Contains(t, l, " — ", "every computer line says why") {
					reasons++
				}
			}
		}
	}
	assert.Positive(t, cards)
	assert.Positive(t, reasons, "a computer's line says why")
	assert.Equal(t, lines, reasons, "every computer line says why")

	sg, g := h.Game(id.Game)
	require.Equal(t, malefiz.StatusFinished, sg.Status)
	result := h.LastMessage()
	require.True(t, strings.HasPrefix(harness.Title(result), "🏆"), "the winner first: %q", harness.Title(result))
	require.Len(t, result.ComponentsOfType(discordgo.ContainerComponent), 2, "the winner, then the turning points")
	var points []string
	for _, l := range strings.Split(result.Text(), "\n") {
		if strings.HasPrefix(l, "**") && swing.MatchString(l) {
			points = append(points, l)
		}
	}
	require.Len(t, points, 3, "three turning points: %q", result.Text())
	for _, l := range points {
		assert.Regexp(t, swing, l)
	}
	chart := attachment(result, "chances.png")
	require.NotNil(t, chart, "the chart is the result's second image")
	_, err = png.Decode(bytes.NewReader(chart.Data))
	require.NoError(t, err)
	assert.True(t, harness.HasBoard(result))

	out := filepath.Join(t.TempDir(), "chart.png")
	code, stdout, stderr := runCLI("analyse", "-o", out, "-db", h.DBPath, strconv.FormatInt(id.Game, 10))
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "Turning points:")
	for _, l := range points {
		assert.Contains(t, stdout, strings.ReplaceAll(l, "**", ""), "analyse prints the result's turning points")
	}
	assert.Contains(t, stdout, strconv.Itoa(g.TurnNumber())+" turns")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	_, err = png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	for _, args := range [][]string{{"analyse"}, {"analyse", "-db", h.DBPath, "x"}, {"analyse", "-db", h.DBPath, "99"}} {
		code, _, _ := runCLI(args...)
		assert.Equal(t, 2, code, "%v", args)
	}
}

// attachment is m's attachment named name, or nil.
func attachment(m fakediscord.Message, name string) *fakediscord.Attachment {
	for i := range m.Attachments {
		if m.Attachments[i].Filename == name {
			return &m.Attachments[i]
		}
	}
	return nil
}
