package table

import (
	"math"
	"slices"
	"strings"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// The game's review on the board (issue 42): a finished game as the
// Activity steps through it, as lichess's analysis board and chess.com's
// Game Review do: every roll in order, the board as it stood before it,
// the move played and, where the coach found one, the better move (both
// drawn as arrows along the squares they walk), each move's grade in the
// coach's classes and its reason, and each colour's chance to win over
// the game with its turning points. It is plain data, in the viewer's
// words; the page draws it and decides nothing.

// LiveReview is a finished game as the Activity's review shows it to one
// viewer, in their language.
type LiveReview struct {
	Game int64
	// Winner is the winning colour; Forfeit: everyone else left.
	Winner  string
	Forfeit bool `json:",omitempty"`
	// Final: the coach has graded the whole game. Until then Note says
	// that the grades are still coming.
	Final bool
	Note  string `json:",omitempty"`
	// Seats are the game's seats in seat order; each step's Chances and
	// Board.Home follow it.
	Seats []ReviewSeat
	// Steps are the game's rolls in order, each with the board before
	// it, then one last step: the final board.
	Steps []ReviewStep
	// Turning are the game's turning points, numbered as the result
	// message numbers them (the largest swing first).
	Turning []ReviewTurning
}

// ReviewSeat is a seat of a reviewed game: its colour, its player (named
// as the thread names them) and, for a person the coach graded, their
// accuracy over the game ("" otherwise).
type ReviewSeat struct {
	Color    string
	Name     string
	Computer bool   `json:",omitempty"`
	Accuracy string `json:",omitempty"`
}

// ReviewStep is one roll of a reviewed game (or, last, the game's end):
// who rolled what, the board before the move, the move played and the
// better one, the grade, and the chances at that moment.
type ReviewStep struct {
	Turn  int
	Color string // the colour who rolled; "" for the end
	Roll  int    // the die; 0 for the end
	// Head says the step in short: "Turn 12 · Ann (Red) rolled a 5", or
	// who won.
	Head string
	// Said is the whole step in words, for a screen reader: the head,
	// the move and its reason, the grade, the better move.
	Said  string
	Board ReviewBoard
	// Played is the move played; nil for a roll that allowed none (Pass
	// says so) and for the end.
	Played *ReviewMove `json:",omitempty"`
	Pass   string      `json:",omitempty"`
	// Better is the coach's better move, when it found one worth a point
	// or more.
	Better *ReviewMove `json:",omitempty"`
	// Grade is the coach's grade of the move, once graded; a computer's
	// moves are not graded (Note says so).
	Grade *ReviewGrade `json:",omitempty"`
	Note  string       `json:",omitempty"`
	// Chances are each seat's chance to win (0 to 1, in Seats' order) on
	// the board shown.
	Chances []float64
	// Turning is the number of the turning point this step's move is, 0
	// when none.
	Turning int `json:",omitempty"`
}

// ReviewBoard is a board of a reviewed game: the pawns on the board, the
// squares holding a barricade, and each seat's pawns at home (in Seats'
// order).
type ReviewBoard struct {
	Pawns  []LivePiece
	Blocks []string
	Home   []int
}

// ReviewMove is a move drawn on the review's board: From ("home" or a
// square), To and the square the barricade it took goes to (Place); Path
// the squares the pawn walks, the first its first (the entry square from
// home); Text the move as the thread writes it and Why its reason in
// words ("" when none).
type ReviewMove struct {
	From, To string
	Place    string `json:",omitempty"`
	Path     []string
	Text     string
	Why      string `json:",omitempty"`
}

// ReviewGrade is the coach's grade of a move: its class (best, good,
// forced, inaccuracy, mistake, blunder), the class as a label in the
// viewer's words, and what the move lost against the best, in whole
// points ("" when nothing).
type ReviewGrade struct {
	Class string
	Label string
	Lost  string `json:",omitempty"`
	// Points is the loss in whole points, as Lost says it.
	Points int
}

// ReviewTurning is a turning point of a reviewed game: its number, the
// step of its move, and what it changed in words.
type ReviewTurning struct {
	Number int
	Step   int
	Text   string
}

// The grade classes of a reviewed move.
const (
	ReviewBest       = "best"       // the coach's best, or as good to the point
	ReviewGood       = "good"       // lost less than an inaccuracy
	ReviewForced     = "forced"     // the roll allowed one outcome
	ReviewInaccuracy = "inaccuracy" // ai.ClassInaccuracy
	ReviewMistake    = "mistake"    // ai.ClassMistake
	ReviewBlunder    = "blunder"    // ai.ClassBlunder
)

var reviewClassLabels = map[string]locales.Key{
	ReviewBest: locales.ReviewClassBest, ReviewGood: locales.ReviewClassGood, ReviewForced: locales.ReviewClassForced,
	ReviewInaccuracy: locales.ReviewClassInaccuracy, ReviewMistake: locales.ReviewClassMistake, ReviewBlunder: locales.ReviewClassBlunder,
}

// BoardReview is the finished game g (replayed whole from its log) as the
// Activity's review shows it, in lang, with the coach's grades as far as
// they go (final: the coach graded the whole game).
func (t *Table) BoardReview(lang string, g *engine.Game, grades []ai.Grade, final bool) LiveReview {
	rv := LiveReview{Game: t.Game.ID, Final: final}
	if g.Over() {
		rv.Winner, rv.Forfeit = g.Winner().String(), g.Forfeit()
	}
	colors := make([]engine.Color, len(t.Game.Seats))
	for i := range t.Game.Seats {
		s := &t.Game.Seats[i]
		colors[i] = SeatColor(s)
		rv.Seats = append(rv.Seats, ReviewSeat{Color: s.Color, Name: seatName(lang, s, plain), Computer: s.Computer != "" && s.UserID == ""})
	}
	for _, c := range t.graded(grades) {
		for i := range rv.Seats {
			if colors[i] == c {
				rv.Seats[i].Accuracy = Percent(lang, ai.Summarise(grades, c).Accuracy/100)
			}
		}
	}
	if !final && len(t.GradedColors()) > 0 {
		rv.Note = tr(lang, locales.ReviewGrading)
	}
	byIndex := make(map[int]ai.Grade, len(grades))
	for _, gr := range grades {
		byIndex[gr.Index] = gr
	}
	// Analyse's points are the chances at the start and after each move
	// or removal: the board before a record shows the point before it.
	a := ai.Analyse(g, nil, turningPoints)
	pointBefore := map[int]int{}
	i, k := 0, 0
	for r := range g.Positions() {
		pointBefore[i] = k
		if r.Kind == engine.RecordMove || r.Kind == engine.RecordRemove {
			k++
		}
		i++
	}
	chancesAt := func(point int) []float64 {
		point = min(point, len(a.Points)-1)
		out := make([]float64, len(colors))
		for i, c := range colors {
			if c.Valid() {
				out[i] = a.Points[point].Chances[c]
			}
		}
		return out
	}
	rules := g.Rules()
	for _, r := range ai.Rolls(g) {
		seat := t.SeatByColor(r.Color)
		st := ReviewStep{Turn: r.Turn, Color: r.Color.String(), Roll: r.Roll, Board: reviewBoard(r.Position, colors),
			Chances: chancesAt(pointBefore[r.Index])}
		st.Head = tr(lang, locales.ReviewStep, r.Turn, altSeat(lang, seat), r.Roll)
		parts := []string{}
		if r.Move == ai.NoMove {
			st.Pass = tr(lang, locales.TurnNoMove)
			parts = append(parts, tr(lang, locales.ReviewSaid, st.Head, st.Pass))
		}
		gr, graded := byIndex[r.Index]
		if graded && r.Move != ai.NoMove {
			st.Grade = reviewGrade(lang, gr)
			if gr.Best != ai.NoMove && gr.Best != gr.Move && st.Grade.Points >= 1 {
				st.Better = t.reviewMove(lang, r.Position, r.Roll, rules, gr.Best, false)
			}
		} else if r.Move != ai.NoMove && seat != nil && seat.Computer != "" {
			st.Note = tr(lang, locales.ReviewNotGraded)
		}
		if r.Move != ai.NoMove {
			st.Played = t.reviewMove(lang, r.Position, r.Roll, rules, r.Move, st.Better != nil)
			parts = append(parts, tr(lang, locales.ReviewSaid, st.Head, withWhy(st.Played)))
		}
		if st.Grade != nil {
			parts = append(parts, gradeWords(st.Grade))
		}
		if st.Better != nil {
			parts = append(parts, tr(lang, locales.ReviewBetterLine, withWhy(st.Better)))
		}
		st.Said = strings.Join(parts, " · ")
		rv.Steps = append(rv.Steps, st)
	}
	end := ReviewStep{Turn: g.TurnNumber(), Board: reviewBoard(g.Position(), colors), Chances: chancesAt(len(a.Points) - 1)}
	if g.Over() {
		winner := altSeat(lang, t.SeatByColor(g.Winner()))
		end.Head = tr(lang, locales.ActivityWon, winner)
		if g.Forfeit() {
			end.Head = tr(lang, locales.GameWinnerForfeit, winner)
		}
	}
	end.Said = end.Head
	rv.Steps = append(rv.Steps, end)
	for n, tp := range a.Turning {
		for s := range rv.Steps[:len(rv.Steps)-1] {
			st := &rv.Steps[s]
			if st.Turn != tp.Turn || st.Color != tp.Color.String() || st.Played == nil || st.Turning != 0 ||
				st.Played.From != fromName(tp.Move.From) || st.Played.To != tp.Move.To.String() {
				continue
			}
			st.Turning = n + 1
			rv.Turning = append(rv.Turning, ReviewTurning{Number: n + 1, Step: s,
				Text: tr(lang, locales.ReviewTurning, n+1, altSeat(lang, t.SeatByColor(tp.Color)), Percent(lang, tp.Prior), Percent(lang, tp.After))})
			break
		}
	}
	return rv
}

// reviewBoard is pos as the review draws it, each seat's pawns at home in
// the order of colors.
func reviewBoard(pos engine.Position, colors []engine.Color) ReviewBoard {
	b := ReviewBoard{Pawns: []LivePiece{}, Blocks: []string{}, Home: make([]int, len(colors))}
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		switch p := pos.At(s); {
		case p == engine.Barricade:
			b.Blocks = append(b.Blocks, s.String())
		case p.IsPawn():
			b.Pawns = append(b.Pawns, LivePiece{Color: p.Color().String(), Square: s.String()})
		}
	}
	for i, c := range colors {
		if c.Valid() && pos.InPlay(c) {
			b.Home[i] = pos.Home(c)
		}
	}
	return b
}

// reviewMove is m, a move for roll from pos, as the review draws and says
// it: the squares it walks, the move as a line of the thread, and its
// main reason in lang. A move beaten by a better one is not said to be
// the only one or the best the roll allows.
func (t *Table) reviewMove(lang string, pos engine.Position, roll int, r engine.Rules, m engine.Move, beaten bool) *ReviewMove {
	rm := &ReviewMove{From: fromName(m.From), To: m.To.String(), Text: moveLine(lang, m), Path: []string{}}
	if m.Place != engine.NoSquare {
		rm.Place = m.Place.String()
	}
	for _, s := range pos.Path(m, roll) {
		rm.Path = append(rm.Path, s.String())
	}
	reasons := ai.Explain(pos, roll, r, m)
	if beaten {
		reasons = slices.DeleteFunc(reasons, func(r ai.Reason) bool {
			return r.Kind == ai.ReasonWaits || r.Kind == ai.ReasonForced || r.Kind == ai.ReasonNone
		})
	}
	rm.Why = t.firstReason(lang, reasons)
	if rm.Why == "" && m.To == engine.Goal {
		rm.Why = tr(lang, locales.TurnReachedGoal)
	}
	return rm
}

// withWhy is a move's line with its reason in brackets, when it has one.
func withWhy(m *ReviewMove) string {
	if m.Why == "" {
		return m.Text
	}
	return m.Text + " (" + m.Why + ")"
}

// reviewGrade is the coach's grade g of a move, in lang.
func reviewGrade(lang string, g ai.Grade) *ReviewGrade {
	lost := int(math.Round(g.Loss))
	rg := &ReviewGrade{Points: lost}
	switch {
	case !g.Graded():
		rg.Class = ReviewForced
	case g.Class() == ai.ClassBlunder:
		rg.Class = ReviewBlunder
	case g.Class() == ai.ClassMistake:
		rg.Class = ReviewMistake
	case g.Class() == ai.ClassInaccuracy:
		rg.Class = ReviewInaccuracy
	case g.Best == g.Move || lost == 0:
		rg.Class = ReviewBest
	default:
		rg.Class = ReviewGood
	}
	rg.Label = tr(lang, reviewClassLabels[rg.Class])
	if lost >= 1 && rg.Class != ReviewForced {
		rg.Lost = tr(lang, locales.ReviewLost, lost)
	} else {
		rg.Points = 0
	}
	return rg
}

// gradeWords is a grade as the step's words say it: the class, and what
// the move lost.
func gradeWords(g *ReviewGrade) string {
	if g.Lost == "" {
		return g.Label
	}
	return g.Label + ", " + g.Lost
}

// SeatName names a seat in lang as the thread and the board do, without
// its colour and as plain text: a person by their name, a computer as
// "Computer (normal)" (the Activity's list of games).
func SeatName(lang string, s *malefiz.Seat) string { return seatName(lang, s, plain) }

// reviewEmoji marks the review on the board, as the coach's verdict and
// its Review button are marked.
const reviewEmoji = "🎓"

// BoardReviewButton is Review on the board for game id, in lang: Discord
// opens the Activity for whoever clicks it (the LAUNCH_ACTIVITY answer of
// ActBoard, as Play on the board), and the board opened in the game's
// thread shows its review, opened in its channel lists it among the
// channel's reviews. It changes nothing and is never out of date.
func BoardReviewButton(lang string, id int64) Button {
	return Button{Label: tr(lang, locales.ButtonReviewBoard), Emoji: reviewEmoji, Style: Secondary,
		CustomID: CustomID{Action: ActBoard, Game: id}.String()}
}

// OfferBoardReview adds Review on the board, in lang, under the answer
// of the verdict's Review button (t.Reply), when the bot serves its
// Activity and the game is finished.
func (t *Table) OfferBoardReview(lang string) {
	if !t.Activity || t.Reply == nil || t.Game.Status != malefiz.StatusFinished {
		return
	}
	t.Reply.Message.Rows = append(t.Reply.Message.Rows, Row{Buttons: []Button{BoardReviewButton(lang, t.Game.ID)}})
}
