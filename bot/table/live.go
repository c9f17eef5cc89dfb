package table

import (
	"slices"
	"strings"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
)

// Live is a game as the Activity draws it for one viewer: plain data,
// sent to the page as JSON after every change. It decides nothing: what
// the viewer may do is what Play accepts.
type Live struct {
	Game   int64
	Status malefiz.Status
	// Turn is the engine's turn number: a play names it, so that a play
	// for a turn already over is refused (see checkTurn).
	Turn     int
	ToMove   string // the colour to move; "" when the game is not running
	Phase    string // "roll", "move", "place" or "over"
	Roll     int    // the die, once rolled this turn
	Winner   string // the winning colour, once over
	Seats    []LiveSeat
	Pawns    []LivePiece // the pawns on the board
	Blocks   []string    // the squares holding a barricade
	Said     string      // whose turn it is and what they do, in words
	YourTurn bool        // the viewer is to move now
	// Moves are the viewer's choices (distinct from–to) on their turn,
	// each marked as the turn message's buttons are.
	Moves []LiveMove
	// Pending is the move that took a barricade, waiting for its square,
	// for every viewer (Pawns and Blocks show it made, the barricade
	// lifted); Places are the free squares it may go to, Suggested the
	// best of them with their reasons, for the mover only.
	Pending   *LiveMove
	Places    []string
	Suggested []LiveSuggestion
	Legend    string // the marks the moves use, in words
	// Hints: the viewer may ask for a hint now (the server's hints are
	// on, and it is their move to choose; see BoardHint).
	Hints bool `json:",omitempty"`
	// Host: the viewer opened the game; SeatsMax: the seats a lobby
	// offers.
	Host     bool
	SeatsMax int
	// Lobby is the lobby card's content while the game is in its lobby.
	Lobby *LiveLobby `json:",omitempty"`
}

// LiveLobby is a lobby as its card in the channel shows it, in the
// viewer's words, with what the viewer may do about its computers.
type LiveLobby struct {
	Host    string   // "Host: Ann", as the card says it; "" when the host has no seat
	Options []string // the rules, the time per turn, the die: a line each
	// Free are the colours of the free seats, in order; FreeSeat says
	// one.
	Free     []string
	FreeSeat string
	// Levels are the computer players the viewer may seat (a seat is
	// free, and they are seated or the host); none when they may not.
	Levels []LiveChoice `json:",omitempty"`
	// AddComputer is the menu's prompt; RemoveComputers: the viewer (the
	// host) may free a computer's seat.
	AddComputer     string
	RemoveComputers bool `json:",omitempty"`
}

// LiveChoice is a choice of a menu: its value, its label and a hint.
type LiveChoice struct {
	Value, Label, Hint string
}

// LiveSeat is one seat: its colour, who plays it (named as the thread
// names them: "Computer (normal)"), pawns at home and the chance to win
// when the server shows it (-1 when not).
type LiveSeat struct {
	Color    string
	Name     string
	Computer bool
	Left     bool
	You      bool
	Home     int
	Chance   float64
}

// LivePiece is a pawn on a square.
type LivePiece struct {
	Color  string
	Square string
}

// LiveMove is a move the viewer may choose, with the legend's marks:
// Captures a pawn, takes a Barricade, reaches the Goal.
type LiveMove struct {
	From, To  string
	Captures  bool `json:",omitempty"`
	Barricade bool `json:",omitempty"`
	Goal      bool `json:",omitempty"`
}

// LiveSuggestion is a suggested square for a taken barricade and why.
type LiveSuggestion struct {
	Square string
	Reason string
}

// phaseNames name the engine's phases for the page.
var phaseNames = map[engine.Phase]string{
	engine.PhaseRoll: "roll", engine.PhaseMove: "move", engine.PhasePlace: "place", engine.PhaseOver: "over",
}

// Live returns the game as the Activity shows it to userID, its words in
// lang.
func (t *Table) Live(userID, lang string) Live {
	l := Live{Game: t.Game.ID, Status: t.Game.Status, Host: userID != "" && t.Game.HostID == userID, SeatsMax: t.Game.Options.Seats}
	ch, showChances := t.chances()
	var pos engine.Position
	if t.State != nil {
		pos = t.State.Position()
	}
	for _, s := range t.Game.Seats {
		ls := LiveSeat{Color: s.Color, Name: seatName(lang, &s, plain), Computer: s.Computer != "", Left: s.Left,
			You: s.UserID == userID && userID != "" && !s.Left, Chance: -1}
		if c, err := engine.ParseColor(s.Color); err == nil && t.State != nil {
			ls.Home = pos.Home(c)
			if showChances {
				ls.Chance = ch[c]
			}
		}
		l.Seats = append(l.Seats, ls)
	}
	if t.Game.Status == malefiz.StatusLobby {
		l.Lobby = t.liveLobby(userID, lang)
	}
	if t.State == nil {
		return l
	}
	l.Turn, l.Phase = t.State.TurnNumber(), phaseNames[t.State.Phase()]
	// A move that took a barricade and waits for its square is drawn
	// made, for everyone: the pawn on the square, the barricade lifted
	// off it (see Pending).
	pending, placing := t.State.Pending()
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		p := pos.At(s)
		if placing && (s == pending.From || s == pending.To) {
			continue
		}
		switch {
		case p == engine.Barricade:
			l.Blocks = append(l.Blocks, s.String())
		case p.IsPawn():
			l.Pawns = append(l.Pawns, LivePiece{Color: p.Color().String(), Square: s.String()})
		}
	}
	if placing {
		mover := pos.Turn()
		l.Pawns = append(l.Pawns, LivePiece{Color: mover.String(), Square: pending.To.String()})
		if pending.From == engine.NoSquare {
			for i := range l.Seats {
				if l.Seats[i].Color == mover.String() {
					l.Seats[i].Home--
				}
			}
		}
		l.Pending = &LiveMove{From: fromName(pending.From), To: pending.To.String(), Barricade: true}
	}
	if t.State.Over() {
		l.Winner = t.State.Winner().String()
		return l
	}
	if t.Game.Status != malefiz.StatusRunning {
		return l
	}
	l.ToMove = t.State.Turn().String()
	if t.State.Phase() != engine.PhaseRoll {
		l.Roll = t.State.Rolled()
	}
	seat := t.ToMove()
	l.YourTurn = seat != nil && seat.UserID == userID && userID != "" && checkTurnErr(t, userID) == nil
	if seat != nil {
		label := ColorEmoji[SeatColor(seat)] + " " + seatName(lang, seat, Quote)
		switch t.State.Phase() {
		case engine.PhaseRoll:
			l.Said = tr(lang, locales.BoardOthersRoll, label)
		case engine.PhasePlace:
			l.Said = tr(lang, locales.BoardOthersPlace, label)
		default:
			l.Said = tr(lang, locales.BoardOthersMove, label, t.State.Rolled())
		}
	}
	if !l.YourTurn {
		return l
	}
	l.Hints = t.Settings.Hints && t.State.Phase() == engine.PhaseMove && seat.Computer == ""
	var marks legendMarks
	switch t.State.Phase() {
	case engine.PhaseMove:
		for _, c := range choices(t.State) {
			m := LiveMove{From: fromName(c.From), To: c.To.String(),
				Captures: captures(pos, c.To), Barricade: pos.At(c.To) == engine.Barricade, Goal: c.To == engine.Goal}
			marks.captures = marks.captures || m.Captures
			marks.barricade = marks.barricade || m.Barricade
			marks.goal = marks.goal || m.Goal
			l.Moves = append(l.Moves, m)
		}
	case engine.PhasePlace:
		for _, sq := range t.State.PlacementSquares() {
			l.Places = append(l.Places, sq.String())
		}
		for _, s := range t.suggestions(lang) {
			l.Suggested = append(l.Suggested, LiveSuggestion{Square: s.Square.String(), Reason: s.Reason})
		}
	}
	l.Legend = marks.line(lang)
	return l
}

// plain leaves a name as it is: the page writes text, not Markdown.
func plain(s string) string { return s }

// liveLobby is the lobby as its card says it, in lang, and what userID
// may do about its computers (the decisions stay AddComputer's and
// RemoveComputer's).
func (t *Table) liveLobby(userID, lang string) *LiveLobby {
	lb := &LiveLobby{Options: t.lobbyOptions(lang), AddComputer: tr(lang, locales.ButtonAddComputer),
		FreeSeat: strings.Trim(tr(lang, locales.LobbyFreeSeat), "*_")}
	if i := slices.IndexFunc(t.Game.Seats, func(s malefiz.Seat) bool { return s.UserID == t.Game.HostID && s.Computer == "" }); i >= 0 {
		lb.Host = tr(lang, locales.LobbyHost, seatName(lang, &t.Game.Seats[i], plain))
	}
	for i := len(t.Game.Seats); i < t.Game.Options.Seats && i < len(Colors); i++ {
		lb.Free = append(lb.Free, Colors[i].String())
	}
	_, seated := t.SeatOf(userID)
	isHost := userID != "" && t.Game.HostID == userID
	if len(lb.Free) > 0 && (seated || isHost) {
		for _, o := range levelOptions(lang) {
			lb.Levels = append(lb.Levels, LiveChoice{Value: o.Value, Label: o.Label, Hint: o.Description})
		}
	}
	lb.RemoveComputers = isHost
	return lb
}

// checkTurnErr is checkTurn for the current turn.
func checkTurnErr(t *Table, userID string) error { return t.checkTurn(userID, t.State.TurnNumber()) }

// fromName names a move's origin as the custom IDs do: a square, or
// "home".
func fromName(s engine.Square) string {
	if s == engine.NoSquare {
		return "home"
	}
	return s.String()
}

// playable are the actions the Activity sends: the page picks the pawn
// itself, so only what changes the game comes to the table.
var playable = []Action{ActRoll, ActMove, ActPlace, ActBack}

// Play applies a play from the Activity: the same decision as the click
// on the turn message with the same custom ID (Turn: only the mover, this
// turn), made by a without a message of its own. The turn message in the
// thread follows: a turn that ends becomes its line and the next one is
// posted, as for a click; a turn that goes on (a roll, a barricade taken
// and waiting for its square, taken back) shows its new state.
func (t *Table) Play(a Actor, id CustomID) error {
	if !slices.Contains(playable, id.Action) || (id.Action == ActBack && t.State != nil && t.State.Phase() != engine.PhasePlace) {
		return Refuse(locales.ErrUnknownButton)
	}
	a.Click, a.MessageID = false, ""
	turn := -1
	if t.State != nil {
		turn = t.State.TurnNumber()
	}
	t.Touch(a.UserID) // kept when the play commits
	if err := t.Turn(a, id); err != nil {
		return err
	}
	if t.State.TurnNumber() == turn && !t.State.Over() && t.Reply != nil && t.Reply.Kind == Private {
		t.Reply = nil
		t.edit(malefiz.RoleTurn, t.TurnView(TurnOptions{}), false)
		return nil
	}
	t.Reply = nil
	return nil
}

// boardRow is the card's Play on the board button (see boardButton).
func (t *Table) boardRow() (Row, bool) {
	b, ok := t.boardButton(Primary)
	if !ok {
		return Row{}, false
	}
	return Row{Buttons: []Button{b}}, true
}

// boardEmoji marks Play on the board: a finger, as the board is played
// by tapping it (the die is the Roll button's; a chess pawn is drawn
// black, unseen on Discord's dark grey buttons).
const boardEmoji = "👆"

// boardButton is Play on the board, in style, while the game is in its
// lobby or runs and the bot serves its Activity: Discord opens the
// Activity for whoever clicks it (the LAUNCH_ACTIVITY answer), player or
// watcher, and nothing changes. Its custom ID names no turn: it is never
// out of date.
func (t *Table) boardButton(style Style) (Button, bool) {
	running := t.Game.Status == malefiz.StatusRunning && t.State != nil && !t.State.Over()
	if !t.Activity || (t.Game.Status != malefiz.StatusLobby && !running) {
		return Button{}, false
	}
	return Button{Label: tr(t.Game.Locale, locales.ButtonBoard), Style: style,
		CustomID: CustomID{Action: ActBoard, Game: t.Game.ID}.String(), Emoji: boardEmoji}, true
}

// withBoard adds Play on the board to the rows of a turn card, apart from
// the moves: beside Back and Hint when the last row holds only those and
// has room, else in a row of its own under the others. A turn card is
// a Components V2 message, which has no limit of five rows, only of 40
// components (see TestTurnCardWithinDiscordsLimits in package bot).
func (t *Table) withBoard(rows []Row) []Row {
	b, ok := t.boardButton(Secondary)
	if !ok {
		return rows
	}
	if n := len(rows); n > 0 && rows[n-1].Menu == nil && len(rows[n-1].Buttons) < maxRowButtons && onlyAsides(rows[n-1].Buttons) {
		last := rows[n-1]
		rows[n-1] = Row{Buttons: append(append([]Button(nil), last.Buttons...), b)}
		return rows
	}
	return append(rows, Row{Buttons: []Button{b}})
}

// onlyAsides reports whether buttons are all Back or Hint: the turn card's
// buttons that are not a step of the turn.
func onlyAsides(buttons []Button) bool {
	for _, b := range buttons {
		id, err := ParseCustomID(b.CustomID)
		if err != nil || (id.Action != ActBack && id.Action != ActHint) {
			return false
		}
	}
	return len(buttons) > 0
}

// Viewer is whom userID's Live is the same as: userID when they are the
// host or hold a seat (the game reads differently to them), else "", a
// watcher, whom every watcher's Live equals.
func (t *Table) Viewer(userID string) string {
	if userID == "" || t.Game.HostID == userID {
		return userID
	}
	for _, s := range t.Game.Seats {
		if s.UserID == userID {
			return userID
		}
	}
	return ""
}
