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

// TestCardShowsEachSeatsChance checks the card's chances: a token for
// each seat's in its text, which the message's fill turns into the
// chance of the position by the estimator delivery gives it, in the
// card's language.
func TestCardShowsEachSeatsChance(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	tb.Settings.Chances = true
	tb.Game.Locale = "de"
	msg := tb.CardMessage()
	require.NotNil(t, msg.Chances)
	assert.Equal(t, tb.State.Position(), msg.Chances.Position)
	assert.Equal(t, "de", msg.Chances.Lang)
	lines := strings.Split(msg.Embeds[0].Description, "\n")
	require.GreaterOrEqual(t, len(lines), 2)
	assert.Equal(t, "▶️ 🔴 <@1> · "+tr("de", locales.CardToGo, 40)+" · {chance:r}", lines[0])
	assert.Equal(t, "▫️ 🟢 <@2> · "+tr("de", locales.CardToGo, 40)+" · {chance:g}", lines[1])

	ch := ai.SteadyChances(tb.State.Position(), tb.Rules())
	filled := strings.Split(msg.WithChances(ai.SteadyChances).Embeds[0].Description, "\n")
	assert.Equal(t, "▶️ 🔴 <@1> · "+tr("de", locales.CardToGo, 40)+" · "+Percent("de", ch[engine.Red]), filled[0])
	assert.Equal(t, "▫️ 🟢 <@2> · "+tr("de", locales.CardToGo, 40)+" · "+Percent("de", ch[engine.Green]), filled[1])

	tb.Settings.Chances = false
	msg = tb.CardMessage()
	assert.Nil(t, msg.Chances)
	assert.NotContains(t, msg.Embeds[0].Description, "{chance:", "a server that wants the suspense")
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
	why, _ := tb.why("en", 1, 0)
	require.NotEmpty(t, why)
	assert.Contains(t, why, tb.reasonText("en", r[0][0]))
	assert.Contains(t, opener, " — "+why)
}

func TestReasonTexts(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	for _, c := range []struct {
		r    ai.Reason
		want string
	}{
		{ai.Reason{Kind: ai.ReasonCaptures, Color: engine.Red, Lead: true}, "captures 🔴 Ann's lead pawn"},
		{ai.Reason{Kind: ai.ReasonCaptures, Color: engine.Red}, "captures 🔴 Ann's pawn"},
		{ai.Reason{Kind: ai.ReasonBlocks, Color: engine.Green, Steps: 3, Turns: 1.4}, "puts the barricade in 🟢 Ben's way: +1.4 turns to the goal"},
		{ai.Reason{Kind: ai.ReasonRuns, Steps: 4}, "runs for the goal"},
		{ai.Reason{Kind: ai.ReasonEnters}, "brings a pawn into play"},
		{ai.Reason{Kind: ai.ReasonClears}, "clears a barricade from its way"},
		{ai.Reason{Kind: ai.ReasonEscapes, Color: engine.Green}, "gets away from 🟢 Ben"},
		{ai.Reason{Kind: ai.ReasonAdvances, Steps: 9}, "brings a pawn to 9 steps from the goal"},
		{ai.Reason{Kind: ai.ReasonForced}, "the only move the roll allows"},
		{ai.Reason{Kind: ai.ReasonWaits}, "the roll allows nothing better"},
		{ai.Reason{Kind: ai.ReasonWins}, ""},
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
	t.Logf("the turning points:\n%s", tp.Description)
	require.GreaterOrEqual(t, len(lines), turningPoints)
	for i, l := range lines[:turningPoints] {
		assert.True(t, strings.HasPrefix(l, "**"+string(rune('1'+i))+".** Turn "), l)
		assert.Contains(t, l, "% → ", l)
		assert.Contains(t, l, " · the roll ", "the roll's luck apart from the move's choice: %s", l)
		assert.Contains(t, l, "(", "what the move did: %s", l)
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
	tb.reasons = map[int][][]ai.Reason{turn: {{{Kind: ai.ReasonCaptures, Color: engine.Green, Lead: true}}}}
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "c1-e1"}))
	line := strings.Split(tb.Reply.Message.Content, "\n")[0]
	assert.Contains(t, line, "c1→e1 — captures 🟢 Ben's lead pawn")
	assert.Equal(t, 1, strings.Count(line, "captures"), line)

	tb = running(t, "players=rg turn=r r=c1 g=e1 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", RollButton, dice(2))
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	tb.reasons = map[int][][]ai.Reason{turn: {{{Kind: ai.ReasonCaptures, Color: engine.Green}}}}
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "c1-e1"}))
	line = strings.Split(tb.Reply.Message.Content, "\n")[0]
	assert.Contains(t, line, "c1→e1 — captures 🟢 Ben's pawn", "a capture of no lead, as the reason")
	assert.Equal(t, 1, strings.Count(line, "captures"), line)
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

// TestEveryComputerLineSaysWhy plays a whole game of two computers and
// reads every turn's line: each computer move carries a reason in words,
// or says it reached the goal.
func TestEveryComputerLineSaysWhy(t *testing.T) {
	tb, _ := playedOut(t)
	moves := 0
	for _, rec := range tb.State.History() {
		if rec.Kind != engine.RecordMove {
			continue
		}
		i := 0
		for _, r := range tb.State.History() {
			if r.Turn == rec.Turn && r.Kind == engine.RecordMove && r.Move != rec.Move {
				i++
			}
			if r.Turn == rec.Turn && r.Move == rec.Move {
				break
			}
		}
		why, _ := tb.why("en", rec.Turn, i)
		line := tb.summary(rec.Turn)
		if rec.Move.To == engine.Goal {
			assert.Contains(t, line, tr("en", locales.TurnReachedGoal), line)
		} else {
			require.NotEmpty(t, why, "turn %d: %s", rec.Turn, line)
			assert.Contains(t, line, " — "+why, line)
		}
		moves++
	}
	assert.Greater(t, moves, 40)
}

// TestSuggestionsGiveDistinctReasons: the squares suggested for a captured
// barricade each have their own reason, with its size, in every language.
func TestSuggestionsGiveDistinctReasons(t *testing.T) {
	tb := running(t, "players=rg turn=r r=c5,a13 g=l7,k11 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", RollButton, dice(6))
	turn := tb.State.TurnNumber()
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "c5-g7"}))
	require.Equal(t, engine.PhasePlace, tb.State.Phase())
	for _, lang := range locales.Default.Languages() {
		ss := tb.suggestions(lang)
		require.GreaterOrEqual(t, len(ss), 3, lang)
		seen := map[string]engine.Square{}
		for _, s := range ss {
			require.NotEmpty(t, s.Reason)
			if q, ok := seen[s.Reason]; ok {
				assert.Fail(t, "the same reason twice", "%s: %s and %s: %q", lang, q, s.Square, s.Reason)
			}
			seen[s.Reason] = s.Square
		}
		assert.Contains(t, ss[0].Reason, "🟢 Ben", "%s: the best square slows Ben down", lang)
	}
	assert.Regexp(t, `^🟢 Ben \+\d+\.\d turns to the goal$`, tb.suggestions("en")[0].Reason)
	assert.Regexp(t, `^🟢 Ben \+\d+,\d `, tb.suggestions("de")[0].Reason, "German writes a decimal comma")
}

// TestTurningPointNamesNoWaitBesideABetterMove: a turning point whose move
// lost against a better one does not say the roll allowed nothing better;
// one that was the best says it.
func TestTurningPointNamesNoWaitBesideABetterMove(t *testing.T) {
	tb := running(t, "start", RollButton, dice(1))
	played, err := engine.ParseMove("d5-b3")
	require.NoError(t, err)
	better, err := engine.ParseMove("home-a2")
	require.NoError(t, err)
	waits := ai.Reason{Kind: ai.ReasonWaits}
	lost := ai.TurningPoint{Turn: 7, Color: engine.Red, Move: played, Roll: 4, Best: better, Prior: 0.47, Before: 0.57, After: 0.42, Why: waits}
	best := lost
	best.Best, best.Before = played, best.After
	lines := tb.turningLines("en", ai.Analysis{Turning: []ai.TurningPoint{lost, best}})
	require.Len(t, lines, 2)
	assert.NotContains(t, lines[0], tr("en", locales.ReasonWaits), lines[0])
	assert.Contains(t, lines[0], "best: home→a2", lines[0])
	assert.Contains(t, lines[1], tr("en", locales.ReasonWaits), lines[1])
}
