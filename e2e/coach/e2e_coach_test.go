package coach

import (
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
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// accuracyLine is a line of the coach's verdict: a player's accuracy and
// counts.
var accuracyLine = regexp.MustCompile(`^🔴 .+: accuracy \*\*\d+%\*\* · \d+ inaccurac(y|ies) · \d+ mistakes? · \d+ blunders? · luck [+−]?\d+$`)

// reviewLine is a graded move of a review: the move, its loss and class,
// what it did wrong if the positions name it, and the best move.
var reviewLine = regexp.MustCompile(`^Turn \d+ · .+→.+ lost \d+ points? \((inaccuracy|mistake|blunder)\)(: .+)? · best: .+→.+$`)

// TestCoach plays a whole game of Alice against a hard computer on a server
// with hints on: Alice asks for a hint once (answered privately), and after
// the result the coach's verdict shows her accuracy and counts and says
// she asked for hints; Review answers her privately with her worst moves,
// each with the best move, and her luckiest roll; /malefiz stats shows her accuracy; malefiz
// analyse prints the whole grading.
func TestCoach(t *testing.T) {
	t.Parallel() // waits on its game more than it computes, beside the restart's
	h := harness.New(t, harness.WithoutMessageBuckets())
	h.Stop()
	h.Coach = true
	h.Start()
	resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Alice, Name: "malefiz", Sub: "settings",
		Permissions: discordgo.PermissionManageGuild, Options: map[string]any{"hints": true}})
	require.NoError(t, err)
	require.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Message.Text(), "hints: on")

	lobby := *h.Command(harness.Alice, "new", map[string]any{"seats": 2, "bots": 1, "level": "hard"}).Message
	id, err := bot.ParseCustomID(harness.Control(t, lobby, bot.ActStart))
	require.NoError(t, err)
	h.Click(harness.Alice, lobby.ID, harness.Control(t, lobby, bot.ActStart))
	hinted := false
	for turn := 0; ; turn++ {
		require.Less(t, turn, 300, "no winner after 300 turns")
		turnMsg, running := h.WaitTurn(id.Game)
		if !running {
			break
		}
		if !hinted {
			hinted = askHint(t, h, id.Game, turnMsg)
			continue
		}
		harness.PlayTurn(t, h, id.Game, true)
	}
	require.True(t, hinted, "Alice asked for a hint")
	sg, _ := h.Game(id.Game)
	require.Equal(t, malefiz.StatusFinished, sg.Status)

	// The verdict follows the result once the coach has graded the game.
	var verdict fakediscord.Message
	deadline := time.Now().Add(harness.Patience)
	for {
		m, ok := h.Fake.LastMessage(h.Fake.ChannelID)
		if ok && strings.HasPrefix(harness.Title(m), "🎓") {
			verdict = m
			break
		}
		require.True(t, time.Now().Before(deadline), "no verdict after the result")
		time.Sleep(20 * time.Millisecond)
	}
	lines := 0
	for _, l := range strings.Split(verdict.Text(), "\n") {
		if accuracyLine.MatchString(l) {
			lines++
		}
	}
	assert.Equal(t, 1, lines, "one accuracy line, Alice's, none for the computer: %q", verdict.Text())
	assert.Contains(t, verdict.Text(), "Asked the computer for hints: 🔴 ")

	review := harness.Control(t, verdict, bot.ActReview)
	resp = h.Click(harness.Alice, verdict.ID, review)
	require.True(t, resp.Ephemeral(), "the review is Alice's alone")
	text := resp.Message.Text()
	assert.Contains(t, text, "Your review of game #"+strconv.FormatInt(id.Game, 10))
	moves := 0
	for _, l := range strings.Split(text, "\n") {
		if reviewLine.MatchString(l) {
			moves++
		}
	}
	assert.Positive(t, moves, "at least one graded move with its alternative: %q", text)
	assert.Contains(t, text, "🍀 Luckiest roll: turn ")
	assert.Contains(t, text, "🎲 Your rolls were worth")
	resp = h.Click(harness.Bob, verdict.ID, review)
	assert.True(t, resp.Ephemeral(), "Bob did not play: refused privately")
	assert.NotContains(t, resp.Message.Text(), "Your review")

	stats := h.Command(harness.Alice, "stats", nil)
	assert.Regexp(t, `\*\*Accuracy \(coach\):\*\* \d+% over 1 game`, stats.Message.Text())

	code, stdout, stderr := runCLI("analyse", "-db", h.DBPath, strconv.FormatInt(id.Game, 10))
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "Coach (final)")
	assert.Regexp(t, `🔴 \S+: accuracy \d+\.\d% over \d+ decisions`, stdout)
	assert.Regexp(t, `Turn \d+ · 🔴 \S+ rolled \d: \S+ \(lost \d+\.\d\d, best \S+`, stdout)
}

// askHint plays Alice's turn at turnMsg with a hint: she rolls, asks for a
// hint (answered privately; Bob's click is refused), then plays the first
// move. It reports whether the roll gave her moves to ask about.
func askHint(t *testing.T, h *harness.Harness, gameID int64, turnMsg fakediscord.Message) bool {
	t.Helper()
	h.Die.Set(6)
	resp := h.Click(harness.Alice, turnMsg.ID, harness.Control(t, turnMsg, bot.ActRoll))
	if !harness.HasControl(*resp.Message, bot.ActMove) {
		return false
	}
	hint := harness.Control(t, *resp.Message, bot.ActHint)
	r := h.Click(harness.Bob, turnMsg.ID, hint)
	assert.True(t, r.Ephemeral(), "Bob is not to move")
	assert.NotContains(t, r.Message.Text(), "The computer would play")
	r = h.Click(harness.Alice, turnMsg.ID, hint)
	require.True(t, r.Ephemeral(), "the hint is private")
	assert.Contains(t, r.Message.Text(), "💡 The computer would play ")
	after, ok := h.Fake.Message(turnMsg.ID)
	require.True(t, ok)
	assert.NotContains(t, after.Text(), "The computer would play", "the turn message does not show it")
	h.Click(harness.Alice, turnMsg.ID, harness.Control(t, after, bot.ActMove))
	_, _ = h.Game(gameID)
	return true
}

// TestCoachResumesAfterRestart grades part of a game, stops the program,
// plays the rest with the coach off, and starts it again with the coach
// on: the grading it began is taken up, every roll of Alice's is graded
// once, and the verdict follows the result.
func TestCoachResumesAfterRestart(t *testing.T) {
	t.Parallel() // waits on leases, restarts or pacing more than it computes
	h := harness.New(t, harness.WithoutMessageBuckets())
	h.Stop()
	h.Coach = true
	h.Start()
	lobby := *h.Command(harness.Alice, "new", map[string]any{"seats": 2, "bots": 1, "level": "hard"}).Message
	id, err := bot.ParseCustomID(harness.Control(t, lobby, bot.ActStart))
	require.NoError(t, err)
	h.Click(harness.Alice, lobby.ID, harness.Control(t, lobby, bot.ActStart))
	for range 3 {
		harness.PlayTurn(t, h, id.Game, true)
	}
	deadline := time.Now().Add(harness.Patience)
	for {
		grades, final, err := h.Main.DB().Grades(h.Ctx(), id.Game)
		require.NoError(t, err)
		require.False(t, final)
		if len(grades) > 0 {
			break
		}
		require.True(t, time.Now().Before(deadline), "nothing graded")
		time.Sleep(20 * time.Millisecond)
	}

	h.Stop()
	h.Coach = false
	h.Start()
	for turn := 0; ; turn++ {
		require.Less(t, turn, 300, "no winner after 300 turns")
		if _, running := h.WaitTurn(id.Game); !running {
			break
		}
		harness.PlayTurn(t, h, id.Game, true)
	}
	require.False(t, strings.HasPrefix(harness.Title(h.LastMessage()), "🎓"), "no verdict while the coach is off")

	h.Stop()
	h.Coach = true
	h.Start()
	deadline = time.Now().Add(harness.Patience)
	for !strings.HasPrefix(harness.Title(h.LastMessage()), "🎓") {
		require.True(t, time.Now().Before(deadline), "no verdict after the restart")
		time.Sleep(20 * time.Millisecond)
	}
	grades, final, err := h.Main.DB().Grades(h.Ctx(), id.Game)
	require.NoError(t, err)
	assert.True(t, final)
	_, g := h.Game(id.Game)
	rolls := 0
	for _, r := range g.History() {
		if (r.Kind == engine.RecordMove || r.Kind == engine.RecordPass) && r.Color == engine.Red {
			rolls++
		}
	}
	assert.Len(t, grades, rolls, "each of Alice's rolls graded once, none of the computer's")
}
