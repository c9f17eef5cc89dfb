package table

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// The coach (issue 32): every move of a human player is graded against
// the best move for its roll (engine/ai's Grader), in the background after
// the move's commit; when the game is over and graded, the coach's verdict
// follows the result (each human's accuracy, counts and luck, and who
// asked for hints), and its Review button shows a player privately their
// own worst moves, each with what it did wrong and the best move with its
// reason, and their luckiest and unluckiest rolls. A server may also let
// its players ask for a hint on their turn: the coach's own best move, so
// that the hint, the squares suggested for a barricade and the review
// agree (issue 42). What is shown is decided here, from the grades; the
// adapter grades, stores and delivers.

// EventHint is a player's asking for a hint, in the game's log: the
// verdict names who did.
const EventHint = "hint"

// reviewMoves is how many of a player's worst moves the review lists.
const reviewMoves = 5

// Coached reports whether the game has players to grade: a human seat.
func (t *Table) Coached() bool {
	return len(t.GradedColors()) > 0
}

// GradedColors are the colours whose moves the coach grades: the seats of
// people, as long as no computer plays for them.
func (t *Table) GradedColors() []engine.Color {
	var out []engine.Color
	for i := range t.Game.Seats {
		if s := &t.Game.Seats[i]; s.UserID != "" && s.Computer == "" {
			out = append(out, SeatColor(s))
		}
	}
	return out
}

// Accuracies are each graded colour's accuracy over grades, the whole
// game's.
func (t *Table) Accuracies(grades []ai.Grade) map[engine.Color]float64 {
	out := map[engine.Color]float64{}
	for _, c := range t.graded(grades) {
		out[c] = ai.Summarise(grades, c).Accuracy
	}
	return out
}

// graded are the colours in seat order that have grades.
func (t *Table) graded(grades []ai.Grade) []engine.Color {
	var out []engine.Color
	for i := range t.Game.Seats {
		c := SeatColor(&t.Game.Seats[i])
		for _, g := range grades {
			if g.Color == c {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// Hinted returns the seats' labels of the players who asked for a hint in
// events, the game's log, in seat order.
func (t *Table) Hinted(events []malefiz.Event) []string {
	asked := map[string]bool{}
	for _, e := range events {
		if e.Kind == EventHint {
			asked[e.Color] = true
		}
	}
	var out []string
	for i := range t.Game.Seats {
		if s := &t.Game.Seats[i]; asked[s.Color] {
			out = append(out, t.seatLabel(s))
		}
	}
	return out
}

// CoachMessage is the coach's verdict on the finished game, posted after
// the result: each graded player's accuracy, inaccuracies, mistakes,
// blunders and luck, the players who asked for hints (hinted, see
// Hinted), and the Review button.
func (t *Table) CoachMessage(grades []ai.Grade, hinted []string) Message {
	lang := t.Game.Locale
	var lines []string
	for _, c := range t.graded(grades) {
		s := ai.Summarise(grades, c)
		lines = append(lines, tr(lang, locales.CoachLine, t.seatLabel(t.SeatByColor(c)), Percent(lang, s.Accuracy/100),
			tr(lang, locales.CoachInaccuracies, s.Inaccuracies), tr(lang, locales.CoachMistakes, s.Mistakes),
			tr(lang, locales.CoachBlunders, s.Blunders), signedPoints(s.Luck)))
	}
	if len(hinted) > 0 {
		lines = append(lines, "", tr(lang, locales.CoachHints, strings.Join(hinted, ", ")))
	}
	color := 0
	if t.State != nil && t.State.Over() {
		color = ColorRGB[t.State.Winner()]
	}
	return Message{
		Embeds: []Embed{{Title: tr(lang, locales.CoachTitle), Description: strings.Join(lines, "\n"), Color: color,
			Footer: tr(lang, locales.CoachExplain, Percent(lang, 1), Percent(lang, ai.MoveAccuracy(ai.MistakeLoss)/100))}},
		Rows: []Row{{Buttons: []Button{{Label: tr(lang, locales.ButtonReview), Emoji: "🎓", Style: Secondary,
			CustomID: CustomID{Action: ActReview, Game: t.Game.ID}.String()}}}},
	}
}

// signedPoints writes a number of points with its sign: +6, −3, 0.
func signedPoints(p float64) string {
	n := int(math.Round(p))
	switch {
	case n > 0:
		return fmt.Sprintf("+%d", n)
	case n < 0:
		return fmt.Sprintf("−%d", -n)
	}
	return "0"
}

// Review is a's private review of the game, replayed whole in t.State,
// from its grades: their accuracy; their worst moves, each teaching its own
// lesson (see lesson), with what the move did wrong, how much it lost and
// its class as the verdict counts it, and the best move for its roll with
// that move's reason; the luckiest and the unluckiest of their rolls, each
// with what it did (when it gave or took a point or more); and the luck of
// all their rolls. A player who did not
// play, or a game whose grading is not final, is refused.
func (t *Table) Review(a Actor, grades []ai.Grade, final bool) error {
	var seat *malefiz.Seat
	for i := range t.Game.Seats {
		if s := &t.Game.Seats[i]; s.UserID == a.UserID && a.UserID != "" {
			seat = s
		}
	}
	if seat == nil {
		return Refuse(locales.ErrNotInGame)
	}
	if !final || t.State == nil {
		return Refuse(locales.ReviewNotReady)
	}
	lang := a.Lang
	c := SeatColor(seat)
	s := ai.Summarise(grades, c)
	lines := []string{"**" + tr(lang, locales.ReviewTitle, t.Game.ID) + "**",
		tr(lang, locales.ReviewSummary, Percent(lang, s.Accuracy/100), s.Decisions)}
	rolls := map[int]ai.Roll{}
	for _, r := range ai.Rolls(t.State) {
		rolls[r.Index] = r
	}
	taught := map[lesson]bool{}
	shown := 0
	for _, g := range ai.Worst(grades, c, len(grades)) {
		if shown == reviewMoves {
			break
		}
		r, ok := rolls[g.Index]
		if !ok || g.Best == ai.NoMove {
			continue
		}
		f := ai.FaultOf(r.Position, r.Roll, t.Rules(), g.Move, g.Best)
		why := ai.Explain(r.Position, r.Roll, t.Rules(), g.Best)
		l := lessonOf(f, why)
		if taught[l] {
			continue // the same lesson: the next worst distinct mistake instead
		}
		taught[l] = true
		shown++
		lines = append(lines, t.reviewLine(lang, g, f, why))
	}
	if shown == 0 {
		lines = append(lines, tr(lang, locales.ReviewNone))
	}
	if luckiest, unluckiest, ok := luckExtremes(grades, c); ok {
		if math.Round(luckiest.Luck) > 0 {
			lines = append(lines, tr(lang, locales.ReviewLuckiest, luckiest.Turn, luckiest.Roll, signedPoints(luckiest.Luck),
				t.rollDid(lang, luckiest, rolls[luckiest.Index])))
		}
		if math.Round(unluckiest.Luck) < 0 {
			lines = append(lines, tr(lang, locales.ReviewUnluckiest, unluckiest.Turn, unluckiest.Roll, signedPoints(unluckiest.Luck),
				t.rollDid(lang, unluckiest, rolls[unluckiest.Index])))
		}
	}
	lines = append(lines, tr(lang, locales.ReviewLuck, signedPoints(s.Luck)))
	t.answer(Private, Text(strings.Join(lines, "\n")))
	return nil
}

// lesson is what a review line teaches: what the move did wrong when the
// positions name it, else what the best move does. No two lines of a
// review teach the same lesson.
type lesson struct {
	fault ai.FaultKind
	best  ai.ReasonKind
}

// lessonOf is the lesson of a line whose move's fault is f and whose best
// move's reasons are why: the fault's kind, or, for a fault that names
// nothing but time (FaultNone, FaultSlower), the best move's main reason.
func lessonOf(f ai.Fault, why []ai.Reason) lesson {
	if f.Kind != ai.FaultNone && f.Kind != ai.FaultSlower {
		return lesson{fault: f.Kind}
	}
	l := lesson{fault: ai.FaultNone}
	if len(why) > 0 {
		l.best = why[0].Kind
	}
	return l
}

// luckExtremes are c's luckiest and unluckiest rolls among grades, the
// earliest among equals; ok is false when c has none.
func luckExtremes(grades []ai.Grade, c engine.Color) (luckiest, unluckiest ai.Grade, ok bool) {
	for _, g := range grades {
		if g.Color != c {
			continue
		}
		if !ok || g.Luck > luckiest.Luck {
			luckiest = g
		}
		if !ok || g.Luck < unluckiest.Luck {
			unluckiest = g
		}
		ok = true
	}
	return luckiest, unluckiest, ok
}

// rollDid says what a roll did, graded g and played from r: the move and
// its main reason, or that the turn passed.
func (t *Table) rollDid(lang string, g ai.Grade, r ai.Roll) string {
	if g.Move == ai.NoMove {
		return tr(lang, locales.ReviewPassed)
	}
	played := moveLine(lang, g.Move)
	if r.Roll == 0 {
		return played
	}
	reasons := ai.Explain(r.Position, r.Roll, t.Rules(), g.Move)
	if g.Best != g.Move {
		// "The roll allows nothing better" is no reason for a move the
		// coach found a better one for.
		reasons = slices.DeleteFunc(reasons, func(r ai.Reason) bool { return r.Kind == ai.ReasonWaits })
	}
	if why := t.firstReason(lang, reasons); why != "" {
		return tr(lang, locales.ReviewDid, played, why)
	}
	return played
}

// reviewLine is one graded move of a review: the turn, the move, what it
// lost (in whole points, as its class counts it) and its class, what it
// did wrong (f), and the best move with its reason (why, its reasons).
func (t *Table) reviewLine(lang string, g ai.Grade, f ai.Fault, why []ai.Reason) string {
	lost := ai.Points(g.Loss)
	played := moveLine(lang, g.Move)
	best := tr(lang, locales.ReviewBestBare, moveLine(lang, g.Best))
	// The best move's reason, unless it only says the fault again ("did
	// not capture Ben's lead pawn · best: …, captures Ben's lead pawn").
	why = slices.DeleteFunc(slices.Clone(why), func(r ai.Reason) bool { return mirrors(f, r) })
	if w := t.firstReason(lang, why); w != "" {
		best = tr(lang, locales.ReviewBest, moveLine(lang, g.Best), w)
	}
	class := tr(lang, classKeys[g.Class()])
	if fault := t.faultText(lang, f); fault != "" {
		return tr(lang, locales.ReviewLine, g.Turn, played, lost, class, fault, best)
	}
	return tr(lang, locales.ReviewLinePlain, g.Turn, played, lost, class, best)
}

// mirrors reports whether reason r of the best move says what fault f of
// the move played says, from the other side.
func mirrors(f ai.Fault, r ai.Reason) bool {
	switch f.Kind {
	case ai.FaultMissesGoal:
		return r.Kind == ai.ReasonWins
	case ai.FaultMissesCapture:
		return r.Kind == ai.ReasonCaptures && r.Color == f.Color
	case ai.FaultLeavesOpen, ai.FaultLetsThrough:
		return r.Kind == ai.ReasonBlocks && r.Color == f.Color
	}
	return false
}

// classKeys name the classes of a graded move.
var classKeys = map[ai.Class]locales.Key{
	ai.ClassInaccuracy: locales.CoachClassInaccuracy,
	ai.ClassMistake:    locales.CoachClassMistake,
	ai.ClassBlunder:    locales.CoachClassBlunder,
}

// faultText puts what a move did wrong into words in lang, "" for
// FaultNone.
func (t *Table) faultText(lang string, f ai.Fault) string {
	who := func() string { return t.seatLabelIn(lang, t.SeatByColor(f.Color)) }
	switch f.Kind {
	case ai.FaultMissesGoal:
		return tr(lang, locales.FaultMissesGoal)
	case ai.FaultMissesCapture:
		if f.Lead {
			return tr(lang, locales.FaultMissesCaptureLead, who())
		}
		return tr(lang, locales.FaultMissesCapture, who())
	case ai.FaultExposes:
		if f.Lead {
			return tr(lang, locales.FaultExposesLead, who())
		}
		return tr(lang, locales.FaultExposes, who())
	case ai.FaultWalksBack:
		return tr(lang, locales.FaultWalksBack)
	case ai.FaultBlocksOwn:
		return tr(lang, locales.FaultBlocksOwn, locales.Tenths(f.Turns))
	case ai.FaultLetsThrough:
		return tr(lang, locales.FaultLetsThrough, who())
	case ai.FaultWastesBarricade:
		return tr(lang, locales.FaultWastesBarricade)
	case ai.FaultLeavesOpen:
		return tr(lang, locales.FaultLeavesOpen, who())
	case ai.FaultSlower:
		return tr(lang, locales.FaultSlower, locales.Tenths(f.Turns))
	}
	return ""
}

// firstReason is the first of reasons (biggest first, see ai.Explain) that
// says something in words, "" when none does.
func (t *Table) firstReason(lang string, reasons []ai.Reason) string {
	for _, r := range reasons {
		if why := t.reasonText(lang, r); why != "" {
			return why
		}
	}
	return ""
}

// Hint answers a, the player to move with the die rolled, privately with
// the coach's best move (ai.Grader.Best: the move its review would name
// better than any other, whose square for a taken barricade is the first
// it suggests) and why, and records that they
// asked: the verdict says so. A server without hints refuses.
func (t *Table) Hint(a Actor, id CustomID) error {
	h, err := t.BoardHint(a, id.Turn)
	if err != nil {
		return err
	}
	t.answer(Private, Text(h.Text))
	return nil
}

// LiveHint is a hint as the Activity shows it to the player who asked:
// the coach's best move (From "home" or a square, To a
// square, Place the square for the barricade it takes, if it takes one)
// and the same words as the Hint button's answer.
type LiveHint struct {
	From, To string
	Place    string `json:",omitempty"`
	Text     string
}

// BoardHint is Hint's decision for the Activity, as plain data: the
// coach's best move for a, the player to move in turn with the die
// rolled, in a's words, recorded as a hint asked for. A server
// without hints, another player, another turn or phase is refused.
func (t *Table) BoardHint(a Actor, turn int) (LiveHint, error) {
	if !t.Settings.Hints {
		return LiveHint{}, Refuse(locales.HintOff)
	}
	if t.Game.Status != malefiz.StatusRunning || t.State == nil {
		return LiveHint{}, Refuse(locales.ErrGameEnded)
	}
	i, ok := t.SeatOf(a.UserID)
	if !ok {
		return LiveHint{}, Refuse(locales.ErrNotInGame)
	}
	seat := &t.Game.Seats[i]
	if t.State.Turn() != SeatColor(seat) || turn != t.State.TurnNumber() {
		return LiveHint{}, Refuse(locales.ErrNotYourTurn)
	}
	if t.State.Phase() != engine.PhaseMove {
		return LiveHint{}, Refuse(locales.ErrNotYourTurn)
	}
	pos, roll := t.State.Position(), t.State.Rolled()
	m := ai.NewGrader().Best(pos, roll, t.Rules())
	lang := a.Lang
	text := tr(lang, locales.HintAnswerBare, moveLine(lang, m))
	if why := t.firstReason(lang, ai.Explain(pos, roll, t.Rules(), m)); why != "" {
		text = tr(lang, locales.HintAnswer, moveLine(lang, m), why)
	}
	t.record(EventHint, a.UserID, seat.Color, m.String())
	h := LiveHint{From: fromName(m.From), To: m.To.String(), Text: text}
	if m.Place != engine.NoSquare {
		h.Place = m.Place.String()
	}
	t.Advice = &h
	return h, nil
}

// withHint adds the Hint button to rows, the buttons of a move to choose,
// when the server allows hints and a person is to move: at the end of the
// last row of buttons when it has room, else in a row of its own when
// Discord's five rows allow one.
func (t *Table) withHint(lang string, rows []Row, mover *malefiz.Seat) []Row {
	if !t.Settings.Hints || mover == nil || mover.UserID == "" || mover.Computer != "" {
		return rows
	}
	hint := Button{Label: tr(lang, locales.ButtonHint), Emoji: "💡", Style: Secondary,
		CustomID: CustomID{Action: ActHint, Game: t.Game.ID, Turn: t.State.TurnNumber()}.String()}
	if n := len(rows); n > 0 && rows[n-1].Menu == nil && len(rows[n-1].Buttons) < maxRowButtons {
		last := rows[n-1]
		rows[n-1] = Row{Buttons: append(append([]Button(nil), last.Buttons...), hint)}
		return rows
	}
	if len(rows) < maxRows {
		rows = append(rows, Row{Buttons: []Button{hint}})
	}
	return rows
}

// Discord's limits on a message's components.
const (
	maxRows       = 5 // rows of a message
	maxRowButtons = 5 // buttons of a row
)
