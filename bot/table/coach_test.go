package table

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// nearGoal is a position where red (Ann) wins with a 2 from h13, and
// anything else gives Ben's pawn on j13 its chance.
const nearGoal = "players=rg turn=r r=h13,c5 g=j13 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11"

func TestHint(t *testing.T) {
	rolled := func(tb testing.TB, hints bool) *Table {
		tb.Helper()
		t := running(tb, nearGoal, RollButton, dice(2))
		t.Settings.Hints = hints
		_, err := t.State.Roll(t.Dice)
		require.NoError(tb, err)
		return t
	}
	for _, c := range []struct {
		name string
		tb   func() *Table
		by   Actor
		want locales.Key
	}{
		{"hints off", func() *Table { return rolled(t, false) }, ann, locales.HintOff},
		{"not the mover", func() *Table { return rolled(t, true) }, ben, locales.ErrNotYourTurn},
		{"not in the game", func() *Table { return rolled(t, true) }, cleo, locales.ErrNotInGame},
		{"before the roll", func() *Table {
			tb := running(t, nearGoal, RollButton, dice(2))
			tb.Settings.Hints = true
			return tb
		}, ann, locales.ErrNotYourTurn},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := c.tb()
			assert.Equal(t, c.want, refusal(tb.Hint(c.by, CustomID{Action: ActHint, Game: 7, Turn: tb.State.TurnNumber()})))
			assert.Empty(t, tb.Events, "a refusal records nothing")
		})
	}

	tb := rolled(t, true)
	require.NoError(t, tb.Hint(ann, CustomID{Action: ActHint, Game: 7, Turn: tb.State.TurnNumber()}))
	require.NotNil(t, tb.Reply)
	assert.Equal(t, Private, tb.Reply.Kind, "only the player reads it")
	assert.Contains(t, tb.Reply.Message.Content, "h13→i14", "the computer takes the goal")
	assert.Equal(t, []string{EventHint}, eventKinds(tb))
	assert.Empty(t, tb.Effects(), "nobody else hears of it")
	assert.Equal(t, []string{tb.seatLabel(&tb.Game.Seats[0])}, tb.Hinted(tb.Events))
}

func TestHintButton(t *testing.T) {
	for _, c := range []struct {
		name  string
		hints bool
		want  bool
	}{
		{"on", true, true},
		{"off", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := running(t, nearGoal, RollButton, dice(2))
			tb.Settings.Hints = c.hints
			_, err := tb.State.Roll(tb.Dice)
			require.NoError(t, err)
			msg := tb.TurnView(TurnOptions{})
			found := false
			for _, b := range controls(msg.Rows) {
				if id, err := ParseCustomID(b.CustomID); err == nil && id.Action == ActHint {
					found = true
				}
			}
			assert.Equal(t, c.want, found)
			assert.LessOrEqual(t, len(msg.Rows), maxRows)
		})
	}
}

// gradedGame is a finished game between Ann (red) and Ben (green) at
// nearGoal where Ann missed the goal once, then won, with its grades.
func gradedGame(t *testing.T) (*Table, []ai.Grade) {
	t.Helper()
	tb := running(t, nearGoal, RollButton, dice(2))
	g := tb.State
	for _, m := range []string{"c5-e5", "j13-i14"} {
		_, err := g.Roll(engine.DiceFunc(func() int { return 2 }))
		require.NoError(t, err)
		mv, err := engine.ParseMove(m)
		require.NoError(t, err)
		if g.Turn() == engine.Green {
			break
		}
		require.NoError(t, g.Move(mv))
	}
	grades := ai.NewGrader().GradeGame(g)
	tb.Game.Status = malefiz.StatusFinished
	return tb, grades
}

func TestCoachMessageAndReview(t *testing.T) {
	tb, grades := gradedGame(t)
	require.NotEmpty(t, grades)
	msg := tb.CoachMessage(grades, []string{"🔴 Ann"})
	require.Len(t, msg.Embeds, 1)
	desc := msg.Embeds[0].Description
	assert.Contains(t, desc, tb.seatLabel(&tb.Game.Seats[0]), "Ann's line")
	assert.Contains(t, desc, "1 blunder")
	assert.Contains(t, desc, "🔴 Ann", "who asked for hints")
	require.Len(t, controls(msg.Rows), 1)
	id, err := ParseCustomID(controls(msg.Rows)[0].CustomID)
	require.NoError(t, err)
	assert.Equal(t, CustomID{Action: ActReview, Game: 7}, id)

	assert.Equal(t, locales.ReviewNotReady, refusal(tb.Review(ann, grades, false)), "not final yet")
	assert.Equal(t, locales.ErrNotInGame, refusal(tb.Review(cleo, grades, true)))
	require.NoError(t, tb.Review(ann, grades, true))
	assert.Equal(t, Private, tb.Reply.Kind)
	text := tb.Reply.Message.Content
	t.Log(desc + "\n" + text)
	assert.Contains(t, text, "Turn 1 · c5→e5 lost", "the blunder")
	assert.Contains(t, text, "h13→i14", "and the better move")
	assert.True(t, strings.Contains(text, "🎲"), "the luck")

	acc := tb.Accuracies(grades)
	assert.Less(t, acc[engine.Red], 50.0, "a blunder in one decision")
}
