package table

import (
	"strconv"
	"strings"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render"
)

// maxMoveButtons is how many moves are offered as buttons at once; with more,
// the player first picks a pawn.
const maxMoveButtons = 20

// maxSuggestions is how many squares are suggested for a captured barricade.
const maxSuggestions = 5

// The colours' emoji, embed colours and names, by engine.Color.
var (
	ColorEmoji = [engine.NumColors]string{"🔴", "🟢", "🟡", "🔵"}
	ColorRGB   = [engine.NumColors]int{0xF9244B, 0x85E0B3, 0xFAFA38, 0x3385CC} // the chart's lines: apart for colour-blind eyes too
	colorName  = [engine.NumColors]locales.Key{locales.ColorRed, locales.ColorGreen, locales.ColorYellow, locales.ColorBlue}
)

// TurnOptions choose what a turn view shows.
type TurnOptions struct {
	Pawn       engine.Square // with PawnChosen: only this pawn's moves
	PawnChosen bool
	Row        int    // placement: the row whose squares the menu lists
	Private    bool   // a private look at the board: no ping, buttons only for the mover
	Viewer     string // with Private: who looks; others read whose turn it is
	Lang       string // with Private: the viewer's language; the server's when empty
}

// choices are the moves a player chooses between, one per FROM-TO (a move
// that captures a barricade stands for all its placements), lettered in
// this order as render.Letter letters them on the board.
func choices(g *engine.Game) []engine.Move { return render.Choices(g.LegalMoves()) }

// SeatLabel names a seat for messages everyone reads: colour and name.
func (t *Table) SeatLabel(s *malefiz.Seat) string { return t.seatLabel(s) }

// seatLabel names a seat for messages everyone reads: colour and name,
// in the server's language.
func (t *Table) seatLabel(s *malefiz.Seat) string { return t.seatLabelIn(t.Game.Locale, s) }

// seatLabelIn names a seat in lang: colour and name (a computer's name is
// translated), for a text in lang, private ones included.
func (t *Table) seatLabelIn(lang string, s *malefiz.Seat) string {
	if s == nil {
		return "?"
	}
	c := SeatColor(s)
	name := seatName(lang, s, Quote)
	if !c.Valid() {
		return name
	}
	return ColorEmoji[c] + " " + name
}

// seatName names a seat in lang as the thread does, without its colour:
// a person by their name (through quote), a computer as "Computer
// (normal)", a computer playing for someone who left as "Ann, played by
// Computer (normal)".
func seatName(lang string, s *malefiz.Seat, quote func(string) string) string {
	if s.Computer == "" {
		return quote(s.Name)
	}
	name := tr(lang, locales.Computer, tr(lang, locales.Level(s.Computer)))
	if s.UserID != "" {
		name = tr(lang, locales.ComputerReplacing, quote(s.Name), name)
	}
	return name
}

// ColorLabel is a colour's emoji and name in lang.
func ColorLabel(lang string, c engine.Color) string {
	if !c.Valid() {
		return ""
	}
	return ColorEmoji[c] + " " + tr(lang, colorName[c])
}

func moveText(lang string, from, to engine.Square) string {
	f := from.String()
	if from == engine.NoSquare {
		f = tr(lang, locales.Home)
	}
	return f + "→" + to.String()
}

// summary is the one line that tells what happened in turn.
func (t *Table) summary(turn int) string { return t.summaryAs(turn, "") }

// summaryAs is summary with who, when set, naming the one who rolled (a
// turn played for someone).
func (t *Table) summaryAs(turn int, as string) string {
	lang := t.Game.Locale
	var parts []string
	var who string
	moves := 0
	for _, rec := range t.State.History() {
		if rec.Turn != turn {
			continue
		}
		who = t.seatLabel(t.SeatByColor(rec.Color))
		switch rec.Kind {
		case engine.RecordRoll:
			if as != "" {
				who = as
			}
			parts = append(parts, tr(lang, locales.TurnRolled, who, rec.Roll))
		case engine.RecordPass:
			parts = append(parts, tr(lang, locales.TurnNoMove))
		case engine.RecordMove:
			why, says := t.why(lang, turn, moves)
			moves++
			s := moveText(lang, rec.Move.From, rec.Move.To)
			if rec.Captured != engine.NoColor && !says.captures {
				s += ", " + tr(lang, locales.TurnCaptured, t.seatLabel(t.SeatByColor(rec.Captured)))
			}
			if rec.Move.Place != engine.NoSquare {
				s += ", " + tr(lang, locales.TurnBarricadeTo, rec.Move.Place.String())
			}
			if rec.Move.To == engine.Goal {
				s += " — " + tr(lang, locales.TurnReachedGoal)
			}
			if why != "" {
				s += " — " + why
			}
			parts = append(parts, s)
		case engine.RecordRemove:
			parts = append(parts, tr(lang, locales.TurnLeftGame, who))
		}
	}
	return tr(lang, locales.TurnPrefix, turn) + " " + strings.Join(parts, " ")
}

// lastMove returns the newest move record, for the board's trail.
func lastMove(g *engine.Game) (engine.Record, bool) {
	h := g.History()
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Kind == engine.RecordMove {
			return h[i], true
		}
	}
	return engine.Record{}, false
}

// scene is the board of a running game with its last move.
func (t *Table) scene() render.Scene {
	s := render.NewScene(t.State.Position())
	s.Turn = t.State.Turn()
	if t.State.Over() {
		s.Turn, s.Winner = engine.NoColor, t.State.Winner()
	}
	if rec, ok := lastMove(t.State); ok {
		s.LastPath, s.Captured = rec.Path, rec.Captured
	}
	return s
}

// TurnView is the message of the turn in progress, for the phase it is in.
func (t *Table) TurnView(o TurnOptions) Message {
	lang := t.Game.Locale
	if o.Private && o.Lang != "" {
		lang = o.Lang
	}
	seat := t.ToMove()
	color := t.State.Turn()
	sc := t.scene()
	var desc []string
	var rows []Row
	var legend string
	turn := t.State.TurnNumber()
	cid := func(a Action, arg string) string {
		return CustomID{Action: a, Game: t.Game.ID, Turn: turn, Arg: arg}.String()
	}
	back := Row{Buttons: []Button{{Label: tr(lang, locales.ButtonBack), Style: Secondary, CustomID: cid(ActBack, "")}}}
	// The board in words for a screen reader: whose turn and the roll
	// first, each choice the board letters, the leader last.
	words := alt{lang: lang, head: []string{tr(lang, locales.AltBoard, turn)}}
	switch t.State.Phase() {
	case engine.PhaseRoll:
		words.head = append(words.head, tr(lang, locales.AltToRoll, altSeat(lang, seat)))
	case engine.PhasePlace:
		pending, _ := t.State.Pending()
		words.head = append(words.head, tr(lang, locales.AltRolled, altSeat(lang, seat), t.State.Rolled()),
			tr(lang, locales.AltPlace, pending.To.String()))
	default:
		words.head = append(words.head, tr(lang, locales.AltRolled, altSeat(lang, seat), t.State.Rolled()))
	}
	// The turn message is read by everyone: it names the mover in the
	// third person; only the mover's private copy says "you".
	prompt := func(you, them locales.Key, args ...any) string {
		if o.Private {
			return tr(lang, you, args...)
		}
		return tr(lang, them, append([]any{t.seatLabelIn(lang, seat)}, args...)...)
	}
	// A private look by someone not to move says whose turn it is.
	onlooker := o.Private && (seat == nil || seat.UserID != o.Viewer || seat.Computer != "")
	if onlooker {
		switch t.State.Phase() {
		case engine.PhaseRoll:
			desc = append(desc, tr(lang, locales.BoardOthersRoll, t.seatLabelIn(lang, seat)))
		default:
			sc.Roll = t.State.Rolled()
			desc = append(desc, tr(lang, locales.BoardOthersMove, t.seatLabelIn(lang, seat), t.State.Rolled()))
		}
	}
	switch phase := t.State.Phase(); {
	case onlooker:
	case phase == engine.PhaseRoll:
		desc = append(desc, prompt(locales.TurnPromptRoll, locales.BoardOthersRoll))
		rows = append(rows, Row{Buttons: []Button{{Label: tr(lang, locales.ButtonRoll), Style: Primary,
			CustomID: cid(ActRoll, ""), Emoji: "🎲"}}})
	case phase == engine.PhaseMove:
		sc.Roll = t.State.Rolled()
		all := choices(t.State)
		if len(all) > maxMoveButtons && !o.PawnChosen {
			desc = append(desc, prompt(locales.TurnPromptPawn, locales.TurnOthersPawn, t.State.Rolled()))
			var buttons []Button
			seen := map[engine.Square]bool{}
			for _, c := range all {
				if seen[c.From] {
					continue
				}
				seen[c.From] = true
				letter := render.Letter(len(buttons))
				words.items = append(words.items, altPawn(lang, letter, c.From))
				arg := "home"
				if c.From != engine.NoSquare {
					arg = c.From.String()
					sc.Origins = append(sc.Origins, render.Label{Square: c.From, Text: letter})
				}
				label := letter + " · " + arg
				if c.From == engine.NoSquare {
					label = letter + " · " + tr(lang, locales.Home)
				}
				buttons = append(buttons, Button{Label: label, Style: Secondary, CustomID: cid(ActPawn, arg)})
			}
			rows = t.withHint(lang, buttonRows(buttons), seat)
			break
		}
		desc = append(desc, prompt(locales.TurnPromptMove, locales.BoardOthersMove, t.State.Rolled()))
		var shown []engine.Move
		for _, c := range all {
			if !o.PawnChosen || c.From == o.Pawn {
				shown = append(shown, c)
			}
		}
		var buttons []Button
		var marks legendMarks
		for i, c := range shown {
			label := render.Letter(i) + " · " + moveText(lang, c.From, c.To)
			words.items = append(words.items, t.altMove(lang, render.Letter(i), t.State.Position(), c))
			if t.State.Position().At(c.To) == engine.Barricade {
				label += " " + MarkBarricade
				marks.barricade = true
			}
			if c.To == engine.Goal {
				label += " " + MarkGoal
				marks.goal = true
			}
			style := Secondary
			if captures(t.State.Position(), c.To) {
				style = Danger
				marks.captures = true
			}
			buttons = append(buttons, Button{Label: label, Style: style, CustomID: cid(ActMove, c.String())})
		}
		legend = marks.line(lang)
		sc.Labels = render.DestinationLabels(shown)
		rows = buttonRows(buttons)
		if o.PawnChosen {
			rows = append(rows, back)
		}
		rows = t.withHint(lang, rows, seat)
	case phase == engine.PhasePlace:
		sc.Roll = t.State.Rolled()
		pending, _ := t.State.Pending()
		desc = append(desc, prompt(locales.TurnPromptPlace, locales.TurnOthersPlace, pending.To.String()))
		squares := t.State.PlacementSquares()
		// Show the move as if made, so the board shows where the pawn now stands.
		pos := t.State.Position()
		preview := pos
		preview.Apply(engine.Move{From: pending.From, To: pending.To, Place: engine.NoSquare})
		sc.Position = preview
		var buttons []Button
		for i, s := range t.suggestions(lang) {
			n := strconv.Itoa(i + 1)
			sc.Candidates = append(sc.Candidates, render.Label{Square: s.Square, Text: n})
			words.items = append(words.items, n+": "+s.Square.String())
			buttons = append(buttons, Button{Label: clip(n+" · "+s.Square.String()+" · "+s.Reason, maxLabel), Style: Primary,
				CustomID: cid(ActPlace, s.Square.String())})
		}
		rows = buttonRows(buttons)
		rows = append(rows, rowMenu(lang, squares, cid(ActPlaceRow, "")))
		if o.Row > 0 {
			// The board letters the row's free squares as the menu does.
			for i, sq := range rowSquares(squares, o.Row) {
				sc.Labels = append(sc.Labels, render.Label{Square: sq, Text: render.Letter(i)})
				words.items = append(words.items, render.Letter(i)+": "+sq.String())
			}
			if menu, ok := squareMenu(lang, squares, o.Row, cid(ActPlace, "")); ok {
				rows = append(rows, menu)
			}
		}
		rows = append(rows, back)
	}
	if !t.Game.Deadline.IsZero() {
		desc = append(desc, tr(lang, locales.TurnDeadline, t.Game.Deadline.Unix()))
	}
	embed := Embed{
		Title:       tr(lang, locales.TurnTitle, turn, t.seatLabelIn(lang, seat)),
		Description: strings.Join(desc, "\n"),
		Color:       ColorRGB[color],
		Board:       true,
		Footer:      tr(lang, locales.GameFooter, t.Game.ID),
	}
	if leader := t.altLeader(lang); leader != "" {
		words.tail = append(words.tail, leader)
	}
	v := Message{Embeds: []Embed{embed}, Board: &sc, BoardAlt: words.String()}
	if onlooker {
		return v
	}
	v.Legend = legend
	if o.Private {
		v.Rows = rows
		return v // the mover's private copy: the buttons, no ping
	}
	// The turn card: anyone may open the game on the Activity's board.
	v.Rows = t.withBoard(rows)
	if seat != nil && seat.UserID != "" && seat.Computer == "" {
		v.Content = Mention(seat.UserID)
		v.Pings = []string{seat.UserID}
		v.Silent = t.quiet(seat)
	}
	return v
}

// The marks of move buttons besides their letter and squares; a move that
// captures a pawn is a red (Danger) button.
const (
	MarkBarricade = "🚧" // ends on a barricade, which the mover then places
	MarkGoal      = "★" // reaches the goal: the move wins
)

// legendMarks are the marks a turn's buttons use.
type legendMarks struct{ captures, barricade, goal bool }

// line is the legend of the marks used, one line, "" for none.
func (m legendMarks) line(lang string) string {
	var parts []string
	if m.captures {
		parts = append(parts, tr(lang, locales.LegendCaptures))
	}
	if m.barricade {
		parts = append(parts, tr(lang, locales.LegendBarricade, MarkBarricade))
	}
	if m.goal {
		parts = append(parts, tr(lang, locales.LegendGoal, MarkGoal))
	}
	return strings.Join(parts, " · ")
}

// captures reports whether ending on to captures an opponent's pawn.
func captures(p engine.Position, to engine.Square) bool {
	piece := p.At(to)
	return piece.IsPawn() && piece.Color() != p.Turn()
}

// rowMenu is the select menu of rows that hold a legal square for the barricade.
func rowMenu(lang string, squares []engine.Square, customID string) Row {
	count := map[int]int{}
	for _, sq := range squares {
		count[sq.Row()]++
	}
	var opts []Option
	for row := 14; row >= 1; row-- {
		if count[row] > 0 {
			opts = append(opts, Option{Label: tr(lang, locales.TurnRowOption, row, count[row]), Value: strconv.Itoa(row)})
		}
	}
	return Row{Menu: &Menu{CustomID: customID, Placeholder: tr(lang, locales.TurnPickRow), Options: opts}}
}

// squareMenu is the select menu of one row's legal squares.
func squareMenu(lang string, squares []engine.Square, row int, customID string) (Row, bool) {
	var opts []Option
	for i, sq := range rowSquares(squares, row) {
		opts = append(opts, Option{Label: render.Letter(i) + " · " + sq.String(), Value: sq.String()})
	}
	if len(opts) == 0 {
		return Row{}, false
	}
	return Row{Menu: &Menu{CustomID: customID, Placeholder: tr(lang, locales.TurnPickSquare, row), Options: opts}}, true
}

// rowSquares are the squares of row, in the order of squares.
func rowSquares(squares []engine.Square, row int) []engine.Square {
	var out []engine.Square
	for _, sq := range squares {
		if sq.Row() == row {
			out = append(out, sq)
		}
	}
	return out
}

// Mention formats a user mention.
func Mention(userID string) string { return "<@" + userID + ">" }

// quoter keeps user-chosen text from breaking Markdown.
var quoter = strings.NewReplacer("*", "\\*", "_", "\\_", "~", "\\~", "`", "\\`", "|", "\\|", ">", "\\>", "@", "@\u200b")

// Quote keeps user-chosen text from breaking Markdown.
func Quote(s string) string { return quoter.Replace(s) }

// JoinLines puts lines of what happened one under the other.
func JoinLines(lines []string) string { return strings.Join(lines, "\n") }
