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

func TestCardShowsEachSeatsChance(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	tb.Settings.Chances = true
	desc := tb.CardMessage().Embeds[0].Description
	lines := strings.Split(desc, "\n")
	require.GreaterOrEqual(t, len(lines), 2)
	ch := ai.SteadyChances(tb.State.Position(), tb.Rules())
	assert.Equal(t, "▶️ 🔴 <@1> · "+tr("en", locales.CardToGo, 40)+" · "+Percent("en", ch[engine.Red]), lines[0])
	assert.Equal(t, "▫️ 🟢 <@2> · "+tr("en", locales.CardToGo, 40)+" · "+Percent("en", ch[engine.Green]), lines[1])

	tb.Settings.Chances = false
	assert.NotContains(t, tb.CardMessage().Embeds[0].Description, "%", "a server that wants the suspense")
}

func TestPercent(t *testing.T) {
	assert.Equal(t, "62%", Percent("en", 0.618))
	assert.Equal(t, "0%", Percent("en", 0.001))
	assert.Equal(t, "100%", Percent("en", 1))
}

func TestComputerLineSaysWhy(t *testing.T) {
	tb := lobby(ann)
	tb.Game.Seats = append(tb.Game.Seats, malefiz.Seat{Computer: "hard", Name: "hard"})
	tb.recolor()
	tb.Dice = dice(6, 3, 5, 2, 4, 1)
	require.NoError(t, tb.Start(command(ann), 1)) // the computer begins
	opener := tb.Effects()[1].Message.Content
	require.Contains(t, opener, tr("en", locales.TurnPrefix, 1))
	r := tb.reasons[1]
	require.Len(t, r, 1, "the computer's one move of turn 1 is explained")
	why := tb.reasonText("en", r[0])
	require.NotEmpty(t, why)
	assert.Contains(t, opener, " — "+why)
}

func TestReasonTexts(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	for _, c := range []struct {
		r    ai.Reason
		want string
	}{
		{ai.Reason{Kind: ai.ReasonCaptures, Color: engine.Red, Lead: true}, "captures 🔴 Ann's lead pawn"},
		{ai.Reason{Kind: ai.ReasonCaptures, Color: engine.Red}, ""},
		{ai.Reason{Kind: ai.ReasonBlocks, Color: engine.Green, Steps: 3}, "blocks 🟢 Ben 3 steps from the goal with the barricade"},
		{ai.Reason{Kind: ai.ReasonBlocks, Color: engine.Green, Steps: 1}, "blocks 🟢 Ben 1 step from the goal with the barricade"},
		{ai.Reason{Kind: ai.ReasonRuns, Steps: 4}, "runs for the goal"},
		{ai.Reason{Kind: ai.ReasonEnters}, "brings a pawn into play"},
		{ai.Reason{Kind: ai.ReasonClears}, "clears a barricade from its way"},
		{ai.Reason{Kind: ai.ReasonEscapes, Color: engine.Green}, "gets away from 🟢 Ben"},
		{ai.Reason{Kind: ai.ReasonAdvances, Steps: 9}, "brings a pawn to 9 steps from the goal"},
		{ai.Reason{Kind: ai.ReasonWins}, ""},
		{ai.Reason{Kind: ai.ReasonNone}, ""},
	} {
		assert.Equal(t, c.want, tb.reasonText("en", c.r), c.r.Kind.String())
	}
}

// playedOut is a game of two computers played to its end, as the scheduler
// plays it, with the events of every change but the last in log.
func playedOut(t testing.TB) (tb *Table, log []malefiz.Event) {
	t.Helper()
	tb = lobby()
	tb.Game.Seats = []malefiz.Seat{{Computer: "normal", Name: "normal"}, {Computer: "easy", Name: "easy"}}
	tb.Game.Options.Roll = RollAuto
	tb.recolor()
	seq := 0
	rolls := []int{3, 5, 1, 6, 2, 4, 4, 2, 5, 3, 6, 1, 2}
	tb.Dice = engine.DiceFunc(func() int { seq++; return rolls[seq%len(rolls)] })
	require.NoError(t, tb.Start(ann, 0))
	for range 200 {
		if tb.State.Over() {
			return tb, log
		}
		log = append(log, tb.Events...)
		tb.Events, tb.effects = nil, nil
		tb.Now = tb.Game.WakeAt
		require.NoError(t, tb.Due())
	}
	t.Fatal("the game did not end")
	return nil, nil
}

func TestResultListsTurningPointsAndTheChart(t *testing.T) {
	tb, log := playedOut(t)
	for i := range log {
		log[i].Seq = int64(i + 1)
	}
	var result *Message
	for _, e := range tb.Effects() {
		if e.Result {
			result = e.Message
		}
	}
	require.NotNil(t, result)
	assert.Len(t, result.Embeds, 1, "decided at commit, from the whole log")
	results, err := tb.Conclude(log)
	require.NoError(t, err)
	require.Len(t, results, 2)
	require.Len(t, result.Embeds, 2, "the turning points follow the winner")
	tp := result.Embeds[1]
	assert.True(t, tp.Chart)
	assert.Equal(t, tr("en", locales.ChancesTitle), tp.Title)
	lines := strings.Split(tp.Description, "\n")
	require.GreaterOrEqual(t, len(lines), turningPoints)
	for i, l := range lines[:turningPoints] {
		assert.True(t, strings.HasPrefix(l, "**"+string(rune('1'+i))+".** Turn "), l)
		assert.Contains(t, l, "% → ", l)
	}
	require.NotNil(t, result.Chart)
	require.Len(t, result.Chart.Series, 2)
	assert.Len(t, result.Chart.Markers, turningPoints)
	final := tb.State.TurnNumber()
	for _, s := range result.Chart.Series {
		assert.Len(t, s.Points, final+1, "a point per turn, from turn 0")
	}
	winner := result.Chart.Series[0]
	if winner.Color != tb.State.Winner() {
		winner = result.Chart.Series[1]
	}
	assert.InDelta(t, 1, winner.Points[final], 1e-9, "the winner ends at 100 %")
	png, err := result.Chart.PNG()
	require.NoError(t, err)
	assert.NotEmpty(t, png)

	g, err := tb.replayed(log)
	require.NoError(t, err)
	chart, same := tb.ChartOf(g)
	assert.Equal(t, lines[:turningPoints], same, "malefiz analyse's lines are the result's")
	assert.Equal(t, result.Chart, chart)

	_, err = tb.Conclude(nil)
	assert.Error(t, err, "a log that does not replay to the state")
}

func TestLineSaysACaptureOnce(t *testing.T) {
	tb := running(t, "players=rg turn=r r=c1 g=e1 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", RollButton, dice(2))
	turn := tb.State.TurnNumber()
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	// As if a computer had played it: its reason is a lead capture.
	tb.reasons = map[int][]ai.Reason{turn: {{Kind: ai.ReasonCaptures, Color: engine.Green, Lead: true}}}
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "c1-e1"}))
	line := strings.Split(tb.Reply.Message.Content, "\n")[0]
	assert.Contains(t, line, "c1→e1 — captures 🟢 Ben's lead pawn")
	assert.Equal(t, 1, strings.Count(line, "captures"), line)

	tb = running(t, "players=rg turn=r r=c1 g=e1 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", RollButton, dice(2))
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	tb.reasons = map[int][]ai.Reason{turn: {{Kind: ai.ReasonCaptures, Color: engine.Green}}}
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "c1-e1"}))
	line = strings.Split(tb.Reply.Message.Content, "\n")[0]
	assert.Contains(t, line, "c1→e1, "+tr("en", locales.TurnCaptured, "🟢 Ben"), "a capture of no lead says so as before")
	assert.NotContains(t, line, " — ")
}

func TestLobbyOffersEveryLevel(t *testing.T) {
	menu := lobby(ann).LobbyMessage().Rows[1].Menu
	require.NotNil(t, menu)
	var values []string
	for _, o := range menu.Options {
		values = append(values, o.Value)
	}
	assert.Equal(t, []string{"easy", "normal", "hard", "expert", "master"}, values)
	assert.Equal(t, "expert", menu.Options[3].Label)
	assert.Equal(t, tr("en", locales.LevelExpertHint), menu.Options[3].Description)
	assert.Equal(t, "master", menu.Options[4].Label)
	assert.Equal(t, tr("en", locales.LevelMasterHint), menu.Options[4].Description)
	assert.Equal(t, "mistrz", tr("pl", locales.LevelMaster))
	assert.Contains(t, tr("en", locales.ErrBadLevel), "expert")
	assert.Contains(t, tr("en", locales.ErrBadLevel), "master")
}
