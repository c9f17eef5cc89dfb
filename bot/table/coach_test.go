package table

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
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

// TestOneAdviser: the hint, the squares suggested for the barricade it
// takes and the review come from the coach's one search and agree. Ann
// (red, on e2 and c5) rolls a 1 with green on i7: the hint takes the
// barricade on e3; once Ann moves there, the hint's square is the first suggested; and
// had she entered a pawn instead, her review would name the hint's move
// as the best.
func TestOneAdviser(t *testing.T) {
	const pos = "players=rg turn=r r=e2,c5 g=i7 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13"
	tb := running(t, pos, RollButton, dice(1))
	tb.Settings.Hints = true
	turn := tb.State.TurnNumber()
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	before := tb.State.Position()
	hint, err := tb.BoardHint(ann, turn)
	require.NoError(t, err)
	require.Equal(t, "e3", hint.To, "the hint takes the barricade: %+v", hint)
	require.NotEmpty(t, hint.Place)

	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: hint.From + "-" + hint.To}))
	require.Equal(t, engine.PhasePlace, tb.State.Phase())
	var squares []string
	for _, s := range tb.suggestions("en") {
		squares = append(squares, s.Square.String())
	}
	require.NotEmpty(t, squares)
	assert.Equal(t, hint.Place, squares[0], "the hint's square is the first suggested: %v", squares)

	// The review of another move from the same position and roll.
	other, err := engine.ParseMove("home-c1")
	require.NoError(t, err)
	require.Contains(t, before.Moves(1, engine.Rules{}), other)
	g := ai.NewGrader().Grade(ai.Roll{Turn: turn, Color: engine.Red, Roll: 1, Position: before, Move: other}, engine.Rules{})
	require.NotEqual(t, other, g.Best, "entering is not the best move")
	assert.Equal(t, hint.From+"-"+hint.To+"/"+hint.Place, g.Best.String(), "the review's best move is the hint's")
}

// playedGame is a finished game between Ann (red, playing as level) and
// Ben (green, normal) from the start, dice and players seeded from seed,
// with Ann's rolls graded.
func playedGame(t *testing.T, level ai.Level, seed uint64) (*Table, []ai.Grade) {
	t.Helper()
	tb := running(t, "start", RollButton, dice(1))
	g := tb.State
	rng := rand.New(rand.NewPCG(seed, 1))
	for turn := 0; !g.Over(); turn++ {
		require.Less(t, turn, 2000, "no winner")
		roll, err := g.Roll(engine.DiceFunc(func() int { return rng.IntN(6) + 1 }))
		require.NoError(t, err)
		moves := g.LegalMoves()
		if len(moves) == 0 {
			continue
		}
		lv := ai.Normal
		if g.Turn() == engine.Red {
			lv = level
		}
		p, err := ai.New(lv, seed+uint64(turn))
		require.NoError(t, err)
		require.NoError(t, g.Move(p.Choose(g.Position(), roll, g.Rules(), moves)))
	}
	gr := ai.NewGrader()
	var grades []ai.Grade
	for _, r := range ai.Rolls(g) {
		if r.Color == engine.Red {
			grades = append(grades, gr.Grade(r, g.Rules()))
		}
	}
	tb.Game.Status = malefiz.StatusFinished
	return tb, grades
}

// reviewMoveLine is a graded move of a review in English: turn, move,
// points lost, class, what went wrong (optional), the best move.
var reviewMoveLine = regexp.MustCompile(`^Turn (\d+) · (.+?) lost (\d+) points? \((inaccuracy|mistake|blunder)\)(: (.+?))? · best: (.+)$`)

// TestReviewALearnerReads reviews a whole game of Ann playing as easy:
// each line says what her move did wrong and names the best move, with its
// reason where the fault does not say it already; no two lines teach the same lesson, and a line is skipped only
// for one that does; each line's points and class agree as the verdict
// counts them; the luckiest and unluckiest rolls say what they did.
func TestReviewALearnerReads(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a whole game")
	}
	tb, grades := playedGame(t, ai.Easy, 11)
	require.NoError(t, tb.Review(ann, grades, true))
	text := tb.Reply.Message.Content
	t.Log(text)
	byTurn := map[int]ai.Grade{}
	for _, g := range grades {
		if g.Class() != ai.ClassNone {
			byTurn[g.Turn] = g
		}
	}
	classes := map[string]ai.Class{"inaccuracy": ai.ClassInaccuracy, "mistake": ai.ClassMistake, "blunder": ai.ClassBlunder}
	rolls := map[int]ai.Roll{}
	for _, r := range ai.Rolls(tb.State) {
		rolls[r.Index] = r
	}
	taught := map[lesson]int{}
	var shown []ai.Grade
	withReason := 0
	lucky, unlucky := false, false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "🍀 Luckiest roll: turn "):
			lucky = true
		case strings.HasPrefix(line, "🌧️ Unluckiest roll: turn "):
			unlucky = true
		}
		m := reviewMoveLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		turn, _ := strconv.Atoi(m[1])
		lost, _ := strconv.Atoi(m[3])
		g, ok := byTurn[turn]
		require.True(t, ok, "turn %d is graded an inaccuracy or worse: %s", turn, line)
		assert.Equal(t, ai.Points(g.Loss), lost, "the points on the line: %s", line)
		assert.Equal(t, g.Class(), classes[m[4]], "the class on the line: %s", line)
		assert.Equal(t, ai.Classify(float64(lost)), classes[m[4]], "the class of the points written: %s", line)
		assert.NotEmpty(t, m[6], "what the move did wrong: %s", line)
		if strings.Contains(m[7], ", ") {
			withReason++
		}
		r := rolls[g.Index]
		l := lessonOf(ai.FaultOf(r.Position, r.Roll, tb.Rules(), g.Move, g.Best), ai.Explain(r.Position, r.Roll, tb.Rules(), g.Best))
		taught[l]++
		assert.Equal(t, 1, taught[l], "a lesson taught twice: %s", line)
		shown = append(shown, g)
	}
	require.NotEmpty(t, shown, "easy's play has moves worth a line")
	assert.Positive(t, withReason, "best moves with their reasons")
	assert.LessOrEqual(t, len(shown), reviewMoves)
	// A worse move left out teaches a lesson already taught.
	for _, g := range ai.Worst(grades, engine.Red, len(grades)) {
		if slices.Contains(shown, g) || g.Loss <= shown[len(shown)-1].Loss {
			continue
		}
		r := rolls[g.Index]
		l := lessonOf(ai.FaultOf(r.Position, r.Roll, tb.Rules(), g.Move, g.Best), ai.Explain(r.Position, r.Roll, tb.Rules(), g.Best))
		assert.Positive(t, taught[l], "turn %d (%.1f points) was left out, yet teaches its own lesson", g.Turn, g.Loss)
	}
	assert.True(t, lucky, "the luckiest roll")
	assert.True(t, unlucky, "the unluckiest roll")

	// The verdict counts what the lines show.
	s := ai.Summarise(grades, engine.Red)
	counts := map[ai.Class]int{}
	for _, g := range grades {
		counts[ai.Classify(float64(ai.Points(g.Loss)))] += btoi(g.Graded())
	}
	assert.Equal(t, []int{counts[ai.ClassInaccuracy], counts[ai.ClassMistake], counts[ai.ClassBlunder]},
		[]int{s.Inaccuracies, s.Mistakes, s.Blunders}, "the verdict's counts by the points as written")
	verdict := tb.CoachMessage(grades, nil).Embeds[0].Description
	assert.Contains(t, verdict, tr("en", locales.CoachMistakes, s.Mistakes))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestReviewLineSaysTheFaultOnce: the best move's reason is left out when
// it only says the fault again, and kept when it adds to it.
func TestReviewLineSaysTheFaultOnce(t *testing.T) {
	tb, _ := gradedGame(t)
	best, err := engine.ParseMove("d13-g13")
	require.NoError(t, err)
	played, err := engine.ParseMove("c5-f5")
	require.NoError(t, err)
	g := ai.Grade{Turn: 3, Color: engine.Red, Roll: 3, Move: played, Best: best, Options: 5, Loss: 12}
	captures := []ai.Reason{{Kind: ai.ReasonCaptures, Color: engine.Green, Lead: true}, {Kind: ai.ReasonRuns}}
	missed := ai.Fault{Kind: ai.FaultMissesCapture, Color: engine.Green, Lead: true}
	line := tb.reviewLine("en", g, missed, captures)
	assert.Equal(t, "Turn 3 · c5→f5 lost 12 points (blunder): did not capture 🟢 Ben's lead pawn · best: d13→g13, runs for the goal", line)
	walked := ai.Fault{Kind: ai.FaultWalksBack}
	line = tb.reviewLine("en", g, walked, captures)
	assert.Equal(t, "Turn 3 · c5→f5 lost 12 points (blunder): walked a pawn back · best: d13→g13, captures 🟢 Ben's lead pawn", line)
	line = tb.reviewLine("en", g, missed, captures[:1])
	assert.Equal(t, "Turn 3 · c5→f5 lost 12 points (blunder): did not capture 🟢 Ben's lead pawn · best: d13→g13", line)
}
