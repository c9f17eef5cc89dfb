package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/store"
)

// maxComputerTurns bounds the computer turns played in one change; when
// more follow (every seat is a computer), the scheduler plays on at once.
const maxComputerTurns = 12

// turnAction applies a click of the player to move: roll, pick a pawn, move,
// go back, or place a barricade. The answer updates the turn message in place.
func (b *Bot) turnAction(ctx context.Context, r *request, id CustomID) error {
	return b.change(ctx, r, id.Game, func(m *match) error {
		if err := m.checkTurn(r.userID, id.Turn); err != nil {
			return err
		}
		return b.turnStep(m, r, id)
	})
}

// checkTurn refuses a turn action that is not the clicker's to take now.
func (m *match) checkTurn(userID string, turn int) error {
	switch {
	case m.stored.Status == store.StatusLobby:
		return refuse(locales.ErrNotStarted)
	case m.stored.Status != store.StatusRunning || m.game == nil || m.game.Over():
		return refuse(locales.ErrGameEnded)
	case turn != m.game.TurnNumber():
		return refuse(locales.ErrOldButton)
	}
	i, ok := m.seatOf(userID)
	if !ok {
		return refuse(locales.ErrNotInGame)
	}
	if seat := &m.stored.Seats[i]; seat.Color != m.game.Turn().String() || seat.Computer != "" {
		return refuse(locales.ErrNotYourTurn)
	}
	return nil
}

// turnStep is one step of a human turn, for the phase the game is in.
func (b *Bot) turnStep(m *match, r *request, id CustomID) error {
	seat := m.seatByColor(m.game.Turn())
	switch phase := m.game.Phase(); {
	case id.Action == ActRoll && phase == engine.PhaseRoll:
		return b.roll(m, r)
	case id.Action == ActPawn && phase == engine.PhaseMove:
		from, err := parseFrom(id.Arg)
		if err != nil {
			return refuse(locales.ErrUnknownButton)
		}
		m.answerView(r, b.turnView(m, viewOptions{pawn: from, pawnChosen: true}), false)
		return nil
	case id.Action == ActMove && phase == engine.PhaseMove:
		mv, err := engine.ParseMove(id.Arg)
		if err != nil || mv.Place != engine.NoSquare {
			return refuse(locales.ErrUnknownButton)
		}
		return b.move(m, r, mv)
	case id.Action == ActBack && phase == engine.PhaseMove:
		m.answerView(r, b.turnView(m, viewOptions{}), false)
		return nil
	case id.Action == ActBack && phase == engine.PhasePlace:
		if err := m.game.CancelPlace(); err != nil {
			return err
		}
		seat.Timeouts = 0
		m.record(eventBack, r.userID, seat.Color, "")
		m.answerView(r, b.turnView(m, viewOptions{}), false)
		return nil
	case id.Action == ActPlaceRow && phase == engine.PhasePlace:
		row, err := strconv.Atoi(id.Arg)
		if err != nil || row < 1 || row > 14 {
			return refuse(locales.ErrUnknownButton)
		}
		m.answerView(r, b.turnView(m, viewOptions{row: row}), false)
		return nil
	case id.Action == ActPlace && phase == engine.PhasePlace:
		sq, err := engine.ParseSquare(id.Arg)
		if err != nil {
			return refuse(locales.ErrUnknownButton)
		}
		return b.place(m, r, sq)
	}
	return refuse(locales.ErrAlreadyDone)
}

func parseFrom(s string) (engine.Square, error) {
	if s == "home" {
		return engine.NoSquare, nil
	}
	return engine.ParseSquare(s)
}

// roll rolls for the player to move. With no legal move the turn passes by
// itself; otherwise the message shows the moves.
func (b *Bot) roll(m *match, r *request) error {
	color := m.game.Turn()
	turn := m.game.TurnNumber()
	n, err := m.game.Roll(b.dice)
	if err != nil {
		return err
	}
	m.seatByColor(color).Timeouts = 0
	m.record(store.EventRoll, r.userID, color.String(), strconv.Itoa(n))
	if m.game.TurnNumber() == turn {
		m.answerView(r, b.turnView(m, viewOptions{}), false)
		return nil
	}
	m.record(store.EventPass, r.userID, color.String(), "")
	return b.endTurn(m, r, turn)
}

// autoRoll reports whether the die is rolled for people without a click.
func (m *match) autoRoll() bool { return m.stored.Options.Roll == rollAuto }

// The roll modes of a game.
const (
	rollAuto   = "auto"
	rollButton = "button"
)

// move plays a move chosen by its FROM-TO; a barricade capture first asks
// where the barricade goes.
func (b *Bot) move(m *match, r *request, mv engine.Move) error {
	color := m.game.Turn()
	turn := m.game.TurnNumber()
	if !slices.ContainsFunc(m.game.LegalMoves(), func(l engine.Move) bool { return l.From == mv.From && l.To == mv.To }) {
		return refuse(locales.ErrUnknownButton)
	}
	if err := m.game.Move(mv); err != nil {
		return err
	}
	m.seatByColor(color).Timeouts = 0
	m.record(store.EventMove, r.userID, color.String(), mv.String())
	if m.game.Phase() == engine.PhasePlace {
		m.answerView(r, b.turnView(m, viewOptions{}), false)
		return nil
	}
	return b.endTurn(m, r, turn)
}

// place puts the captured barricade and completes the move.
func (b *Bot) place(m *match, r *request, sq engine.Square) error {
	color := m.game.Turn()
	turn := m.game.TurnNumber()
	if err := m.game.Place(sq); err != nil {
		return refuse(locales.ErrBadPlace)
	}
	m.seatByColor(color).Timeouts = 0
	m.record(store.EventPlace, r.userID, color.String(), sq.String())
	return b.endTurn(m, r, turn)
}

// endTurn ends the turn just played by a click: its message becomes the
// turn's line, followed by the lines of the turns that played themselves
// after it (computers, passes, forced moves), then the next turn opens.
func (b *Bot) endTurn(m *match, r *request, turn int) error {
	lines := []string{b.summary(m, turn)}
	if m.game.Over() {
		m.answer(discordgo.InteractionResponseUpdateMessage, summaryData(joinLines(lines)), nil)
		if r.i.Message != nil && r.i.Message.ID != m.stored.TurnMessageID && m.stored.TurnMessageID != "" {
			m.edit(store.RoleTurn, summaryData(joinLines(lines)), false)
		}
		b.finish(m)
		return nil
	}
	m.beginTurn()
	more, err := b.advance(m)
	if err != nil {
		return err
	}
	collapsed := summaryData(joinLines(append(lines, more...)))
	m.answer(discordgo.InteractionResponseUpdateMessage, collapsed, nil)
	if r.i.Message != nil && r.i.Message.ID != m.stored.TurnMessageID && m.stored.TurnMessageID != "" {
		// Played on a private copy (/malefiz board): the turn message
		// collapses too, before the next one is posted.
		m.insertEdit(0, store.RoleTurn, collapsed)
	}
	return nil
}

// summaryData is a turn message reduced to its one-line summary.
func summaryData(line string) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{Content: line, Embeds: []*discordgo.MessageEmbed{},
		Components: []discordgo.MessageComponent{}, Attachments: &[]*discordgo.MessageAttachment{},
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
}

// advance plays the turns that need nobody (at most maxComputerTurns): the
// computers', and with roll auto a person's turn that passes or has one
// legal move. Then it posts the next turn's message, already rolled with
// roll auto, or the result, and updates the card. It returns a line per
// turn it played, for the caller to show where the thread keeps the
// history (the previous turn message). All of it is one change: the game
// waits for a person again (or is over), so no state in between is stored.
func (b *Bot) advance(m *match) ([]string, error) {
	var lines []string
	for range maxComputerTurns {
		seat := m.toMove()
		if seat == nil {
			break
		}
		turn := m.game.TurnNumber()
		if seat.Computer != "" {
			if err := b.playFor(m, seat.Computer); err != nil {
				return nil, err
			}
			lines = append(lines, b.summary(m, turn))
		} else {
			played, err := b.autoPlay(m)
			if err != nil {
				return nil, err
			}
			if !played {
				break
			}
			lines = append(lines, b.summary(m, turn)+" "+tr(m.stored.Locale, locales.TurnPlayedItself))
		}
		if m.game.Over() {
			b.finish(m)
			return lines, nil
		}
		m.beginTurn()
	}
	if m.game.Over() {
		b.finish(m)
		return lines, nil
	}
	if seat := m.toMove(); seat != nil && (seat.Computer != "" || (m.autoRoll() && m.game.Phase() == engine.PhaseRoll)) {
		// Turns that need nobody, more than one change plays: the
		// scheduler goes on at once.
		m.stored.WakeAt = m.now
		m.changed()
		return lines, nil
	}
	m.post(b.turnView(m, viewOptions{}), store.RoleTurn)
	if seat := m.toMove(); seat != nil && seat.UserID != "" {
		m.notify(seat.UserID, b.turnDM(m), store.RoleTurn)
	}
	m.edit(store.RoleLobby, b.cardData(m), false)
	return lines, nil
}

// autoPlay rolls for the person to move when the game rolls by itself. A
// turn with no legal move passes, one with a single legal move (and no
// barricade to place) is played; it reports whether the turn was played.
func (b *Bot) autoPlay(m *match) (bool, error) {
	if !m.autoRoll() || m.game.Phase() != engine.PhaseRoll {
		return false, nil
	}
	color := m.game.Turn()
	turn := m.game.TurnNumber()
	n, err := m.game.Roll(b.dice)
	if err != nil {
		return false, err
	}
	m.record(store.EventRoll, "", color.String(), strconv.Itoa(n))
	if m.game.TurnNumber() != turn {
		m.record(store.EventPass, "", color.String(), "")
		return true, nil
	}
	moves := m.game.LegalMoves()
	if len(moves) != 1 {
		return false, nil
	}
	if err := m.game.Move(moves[0]); err != nil {
		return false, err
	}
	m.record(store.EventMove, "", color.String(), moves[0].String())
	return true, nil
}

// playFor completes the current turn with a computer player of level:
// rolls if needed, chooses the move and the barricade's square. A barricade
// capture still waiting for its square is taken back first.
func (b *Bot) playFor(m *match, level string) error {
	color := m.game.Turn()
	turn := m.game.TurnNumber()
	if m.game.Phase() == engine.PhaseRoll {
		n, err := m.game.Roll(b.dice)
		if err != nil {
			return err
		}
		m.record(store.EventRoll, "", color.String(), strconv.Itoa(n))
		if m.game.TurnNumber() != turn {
			m.record(store.EventPass, "", color.String(), "")
			return nil
		}
	}
	player, err := m.computer(level)
	if err != nil {
		return fmt.Errorf("game %d: seat %s: %w", m.stored.ID, color, err)
	}
	moves := m.game.LegalMoves()
	if pending, ok := m.game.Pending(); ok {
		if err := m.game.CancelPlace(); err != nil {
			return err
		}
		m.record(eventBack, "", color.String(), "")
		moves = slices.DeleteFunc(m.game.LegalMoves(), func(mv engine.Move) bool { return mv.From != pending.From || mv.To != pending.To })
	}
	mv := player.Choose(m.game.Position(), m.game.Rolled(), m.rules(), moves)
	if err := m.game.Move(mv); err != nil {
		return fmt.Errorf("game %d: computer %s chose %s: %w", m.stored.ID, level, mv, err)
	}
	m.record(store.EventMove, "", color.String(), mv.String())
	return nil
}

// timeoutLevel plays a turn that ran out of time; takeoverLevel plays for
// a player who timed out maxTimeouts times in a row.
const (
	timeoutLevel  = string(ai.Easy)
	takeoverLevel = string(ai.Normal)
	maxTimeouts   = 3
)

// timeout plays the turn of a player whose time ran out with the easiest
// computer player; after maxTimeouts in a row a computer takes the seat over.
// The turn message becomes the turn's line, naming the player and the move.
func (b *Bot) timeout(m *match) error {
	seat := m.toMove()
	turn := m.game.TurnNumber()
	m.record(store.EventTimeout, seat.UserID, seat.Color, "")
	if err := b.playFor(m, timeoutLevel); err != nil {
		return err
	}
	seat.Timeouts++
	lang := m.stored.Locale
	lines := []string{b.summaryAs(m, turn, tr(lang, locales.TimerTimedOutWho, b.seatLabel(m, seat)))}
	if seat.Timeouts >= maxTimeouts && seat.Computer == "" {
		seat.Computer = takeoverLevel
		m.record(store.EventReplace, seat.UserID, seat.Color, "ai:"+seat.Computer)
		lines = append(lines, tr(lang, locales.TimerTakenOver, quote(seat.Name), maxTimeouts))
	}
	at := len(m.effects) // the edit goes before the next turn's message
	if !m.game.Over() {
		m.beginTurn()
		more, err := b.advance(m)
		if err != nil {
			return err
		}
		lines = append(lines, more...)
	} else {
		b.finish(m)
	}
	m.insertEdit(at, store.RoleTurn, summaryData(joinLines(lines)))
	return nil
}

// joinLines puts lines of what happened one under the other.
func joinLines(lines []string) string { return strings.Join(lines, "\n") }
