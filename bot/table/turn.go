package table

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// maxComputerTurns bounds the computer turns played in one change; when
// more follow (every seat is a computer), the scheduler plays on at once.
const maxComputerTurns = 12

// EventBack is the event of a player taking back a barricade capture before
// placing the barricade (engine.Game.CancelPlace).
const EventBack = "back"

// timeoutLevel plays a turn that ran out of time; takeoverLevel plays for
// a player who timed out maxTimeouts times in a row.
const (
	timeoutLevel  = string(ai.Easy)
	takeoverLevel = string(ai.Normal)
	maxTimeouts   = 3
)

// Turn applies a click of the player to move on the turn message: roll,
// pick a pawn, move, go back, or place a barricade. The answer updates the
// clicked message in place.
func (t *Table) Turn(a Actor, id CustomID) error {
	if err := t.checkTurn(a.UserID, id.Turn); err != nil {
		return err
	}
	seat := t.SeatByColor(t.State.Turn())
	switch phase := t.State.Phase(); {
	case id.Action == ActRoll && phase == engine.PhaseRoll:
		return t.roll(a)
	case id.Action == ActPawn && phase == engine.PhaseMove:
		from, err := parseFrom(id.Arg)
		if err != nil {
			return Refuse(locales.ErrUnknownButton)
		}
		t.answerView(a, t.TurnView(TurnOptions{Pawn: from, PawnChosen: true}), false)
		return nil
	case id.Action == ActMove && phase == engine.PhaseMove:
		mv, err := engine.ParseMove(id.Arg)
		if err != nil || mv.Place != engine.NoSquare {
			return Refuse(locales.ErrUnknownButton)
		}
		return t.move(a, mv)
	case id.Action == ActBack && phase == engine.PhaseMove:
		t.answerView(a, t.TurnView(TurnOptions{}), false)
		return nil
	case id.Action == ActBack && phase == engine.PhasePlace:
		if err := t.State.CancelPlace(); err != nil {
			return err
		}
		seat.Timeouts = 0
		t.record(EventBack, a.UserID, seat.Color, "")
		t.answerView(a, t.TurnView(TurnOptions{}), false)
		return nil
	case id.Action == ActPlaceRow && phase == engine.PhasePlace:
		row, err := strconv.Atoi(id.Arg)
		if err != nil || row < 1 || row > 14 {
			return Refuse(locales.ErrUnknownButton)
		}
		t.answerView(a, t.TurnView(TurnOptions{Row: row}), false)
		return nil
	case id.Action == ActPlace && phase == engine.PhasePlace:
		sq, err := engine.ParseSquare(id.Arg)
		if err != nil {
			return Refuse(locales.ErrUnknownButton)
		}
		return t.place(a, sq)
	}
	return Refuse(locales.ErrAlreadyDone)
}

// checkTurn refuses a turn action that is not the clicker's to take now.
func (t *Table) checkTurn(userID string, turn int) error {
	switch {
	case t.Game.Status == malefiz.StatusLobby:
		return Refuse(locales.ErrNotStarted)
	case t.Game.Status != malefiz.StatusRunning || t.State == nil || t.State.Over():
		return Refuse(locales.ErrGameEnded)
	case turn != t.State.TurnNumber():
		return Refuse(locales.ErrOldButton)
	}
	i, ok := t.SeatOf(userID)
	if !ok {
		return Refuse(locales.ErrNotInGame)
	}
	if seat := &t.Game.Seats[i]; seat.Color != t.State.Turn().String() || seat.Computer != "" {
		return Refuse(locales.ErrNotYourTurn)
	}
	return nil
}

func parseFrom(s string) (engine.Square, error) {
	if s == "home" {
		return engine.NoSquare, nil
	}
	return engine.ParseSquare(s)
}

// roll rolls for the player to move. With no legal move the turn passes by
// itself; otherwise the message shows the moves.
func (t *Table) roll(a Actor) error {
	color := t.State.Turn()
	turn := t.State.TurnNumber()
	n, err := t.State.Roll(t.Dice)
	if err != nil {
		return err
	}
	t.SeatByColor(color).Timeouts = 0
	t.record(malefiz.EventRoll, a.UserID, color.String(), strconv.Itoa(n))
	if t.State.TurnNumber() == turn {
		t.answerView(a, t.TurnView(TurnOptions{}), false)
		return nil
	}
	t.record(malefiz.EventPass, a.UserID, color.String(), "")
	return t.endTurn(a, turn)
}

// move plays a move chosen by its FROM-TO; a barricade capture first asks
// where the barricade goes.
func (t *Table) move(a Actor, mv engine.Move) error {
	color := t.State.Turn()
	turn := t.State.TurnNumber()
	if !slices.ContainsFunc(t.State.LegalMoves(), func(l engine.Move) bool { return l.From == mv.From && l.To == mv.To }) {
		return Refuse(locales.ErrUnknownButton)
	}
	if err := t.State.Move(mv); err != nil {
		return err
	}
	t.SeatByColor(color).Timeouts = 0
	t.record(malefiz.EventMove, a.UserID, color.String(), mv.String())
	if t.State.Phase() == engine.PhasePlace {
		t.answerView(a, t.TurnView(TurnOptions{}), false)
		return nil
	}
	return t.endTurn(a, turn)
}

// place puts the captured barricade and completes the move.
func (t *Table) place(a Actor, sq engine.Square) error {
	color := t.State.Turn()
	turn := t.State.TurnNumber()
	if err := t.State.Place(sq); err != nil {
		return Refuse(locales.ErrBadPlace)
	}
	t.SeatByColor(color).Timeouts = 0
	t.record(malefiz.EventPlace, a.UserID, color.String(), sq.String())
	return t.endTurn(a, turn)
}

// endTurn ends the turn just played by a click: its message becomes the
// turn's line, followed by the lines of the turns that played themselves
// after it (computers, passes, forced moves), then the next turn opens.
func (t *Table) endTurn(a Actor, turn int) error {
	lines := []string{t.summary(turn)}
	// Played on a private copy (/malefiz board) or on the Activity's
	// board: the turn message collapses too, before the next one is
	// posted. The Activity's play may come while the turn message is
	// still being posted (its ID not recorded yet): the edit names the
	// message by its role, which the outbox reads after that post.
	onCopy := !a.Click || (a.MessageID != t.Game.TurnMessageID && t.Game.TurnMessageID != "")
	lines, err := t.playNext(lines)
	if err != nil {
		return err
	}
	collapsed := Text(JoinLines(lines))
	t.answer(Update, collapsed)
	if onCopy {
		t.edit(malefiz.RoleTurn, collapsed, false)
	}
	t.openNext()
	return nil
}

// playNext begins the next turn, unless the game is over, and plays on
// (see playOn); it returns lines with the lines of the turns played.
func (t *Table) playNext(lines []string) ([]string, error) {
	if t.State.Over() {
		return lines, nil
	}
	t.beginTurn()
	more, err := t.playOn()
	return append(lines, more...), err
}

// playOn plays the turns that need nobody (at most maxComputerTurns): the
// computers', and with roll auto a person's turn that passes or has one
// legal move. It returns a line per turn it played, for the caller to show
// where the thread keeps the history; the messages of what comes next are
// openNext's.
func (t *Table) playOn() ([]string, error) {
	var lines []string
	for range maxComputerTurns {
		seat := t.ToMove()
		if seat == nil {
			break
		}
		turn := t.State.TurnNumber()
		if seat.Computer != "" {
			if err := t.playFor(seat.Computer); err != nil {
				return nil, err
			}
			lines = append(lines, t.summary(turn))
		} else {
			played, err := t.autoPlay()
			if err != nil {
				return nil, err
			}
			if !played {
				break
			}
			lines = append(lines, t.summary(turn)+" "+tr(t.Game.Locale, locales.TurnPlayedItself))
		}
		if t.State.Over() {
			return lines, nil
		}
		t.beginTurn()
	}
	return lines, nil
}

// openNext adds what follows the turns just played: the result when the
// game is over; else the next turn's message (already rolled with roll
// auto), the player's direct message (quiet as the ping is) and the
// card's update; or, when more turns need nobody than one change plays, a
// wake-up of the scheduler.
func (t *Table) openNext() {
	if t.State.Over() {
		t.finish()
		return
	}
	t.flushReminder()
	if seat := t.ToMove(); seat != nil && (seat.Computer != "" || (t.autoRoll() && t.State.Phase() == engine.PhaseRoll)) {
		t.Game.WakeAt = t.Now
		t.changed()
		return
	}
	t.post(t.TurnView(TurnOptions{}), malefiz.RoleTurn)
	t.effects[len(t.effects)-1].Followup = true
	// The direct message follows the ping's rule: none while the player
	// is there (acted in the game within QuietFor), unless ping:always.
	if seat := t.ToMove(); seat != nil && seat.UserID != "" && !t.quiet(seat) {
		t.notify(seat.UserID, t.turnDM(t.LangOf(seat.UserID)), malefiz.RoleTurn)
	}
	t.edit(malefiz.RoleLobby, t.CardMessage(), false)
}

// autoPlay rolls for the person to move when the game rolls by itself. A
// turn with no legal move passes, one with a single legal move (and no
// barricade to place) is played; it reports whether the turn was played.
func (t *Table) autoPlay() (bool, error) {
	if !t.autoRoll() || t.State.Phase() != engine.PhaseRoll {
		return false, nil
	}
	color := t.State.Turn()
	turn := t.State.TurnNumber()
	n, err := t.State.Roll(t.Dice)
	if err != nil {
		return false, err
	}
	t.record(malefiz.EventRoll, "", color.String(), strconv.Itoa(n))
	if t.State.TurnNumber() != turn {
		t.record(malefiz.EventPass, "", color.String(), "")
		return true, nil
	}
	moves := t.State.LegalMoves()
	if len(moves) != 1 {
		return false, nil
	}
	if err := t.State.Move(moves[0]); err != nil {
		return false, err
	}
	t.record(malefiz.EventMove, "", color.String(), moves[0].String())
	return true, nil
}

// playFor completes the current turn with a computer player of level:
// rolls if needed, chooses the move and the barricade's square. A barricade
// capture still waiting for its square is taken back first.
func (t *Table) playFor(level string) error {
	color := t.State.Turn()
	turn := t.State.TurnNumber()
	if t.State.Phase() == engine.PhaseRoll {
		n, err := t.State.Roll(t.Dice)
		if err != nil {
			return err
		}
		t.record(malefiz.EventRoll, "", color.String(), strconv.Itoa(n))
		if t.State.TurnNumber() != turn {
			t.record(malefiz.EventPass, "", color.String(), "")
			return nil
		}
	}
	player, err := t.computer(level)
	if err != nil {
		return fmt.Errorf("game %d: seat %s: %w", t.Game.ID, color, err)
	}
	moves := t.State.LegalMoves()
	if pending, ok := t.State.Pending(); ok {
		if err := t.State.CancelPlace(); err != nil {
			return err
		}
		t.record(EventBack, "", color.String(), "")
		moves = slices.DeleteFunc(t.State.LegalMoves(), func(mv engine.Move) bool { return mv.From != pending.From || mv.To != pending.To })
	}
	mv := player.Choose(t.State.Position(), t.State.Rolled(), t.Rules(), moves)
	t.explain(mv)
	if err := t.State.Move(mv); err != nil {
		return fmt.Errorf("game %d: computer %s chose %s: %w", t.Game.ID, level, mv, err)
	}
	t.record(malefiz.EventMove, "", color.String(), mv.String())
	return nil
}

// timeout plays the turn of a player whose time ran out with the easiest
// computer player; after maxTimeouts in a row a computer takes the seat over.
// The turn message becomes the turn's line, naming the player and the move.
func (t *Table) timeout() error {
	seat := t.ToMove()
	turn := t.State.TurnNumber()
	t.record(malefiz.EventTimeout, seat.UserID, seat.Color, "")
	if err := t.playFor(timeoutLevel); err != nil {
		return err
	}
	seat.Timeouts++
	lang := t.Game.Locale
	lines := []string{t.summaryAs(turn, tr(lang, locales.TimerTimedOutWho, t.seatLabel(seat)))}
	if seat.Timeouts >= maxTimeouts && seat.Computer == "" {
		seat.Computer = takeoverLevel
		t.record(malefiz.EventReplace, seat.UserID, seat.Color, "ai:"+seat.Computer)
		lines = append(lines, tr(lang, locales.TimerTakenOver, Quote(seat.Name), maxTimeouts))
	}
	lines, err := t.playNext(lines)
	if err != nil {
		return err
	}
	t.edit(malefiz.RoleTurn, Text(JoinLines(lines)), false)
	t.openNext()
	return nil
}
