package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

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
		return refuse(msgNotStarted)
	case m.stored.Status != store.StatusRunning || m.game == nil || m.game.Over():
		return refuse(msgGameEnded)
	case turn != m.game.TurnNumber():
		return refuse(msgOldButton)
	}
	i, ok := m.seatOf(userID)
	if !ok {
		return refuse(msgNotInGame)
	}
	if seat := &m.stored.Seats[i]; seat.Color != m.game.Turn().String() || seat.Computer != "" {
		return refuse(msgNotYourTurn)
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
			return refuse(msgUnknownButton)
		}
		m.answerView(r, b.turnView(m, viewOptions{pawn: from, pawnChosen: true}), false)
		return nil
	case id.Action == ActMove && phase == engine.PhaseMove:
		mv, err := engine.ParseMove(id.Arg)
		if err != nil || mv.Place != engine.NoSquare {
			return refuse(msgUnknownButton)
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
			return refuse(msgUnknownButton)
		}
		m.answerView(r, b.turnView(m, viewOptions{row: row}), false)
		return nil
	case id.Action == ActPlace && phase == engine.PhasePlace:
		sq, err := engine.ParseSquare(id.Arg)
		if err != nil {
			return refuse(msgUnknownButton)
		}
		return b.place(m, r, sq)
	}
	return refuse(msgAlreadyDone)
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

// move plays a move chosen by its FROM-TO; a barricade capture first asks
// where the barricade goes.
func (b *Bot) move(m *match, r *request, mv engine.Move) error {
	color := m.game.Turn()
	turn := m.game.TurnNumber()
	if !slices.ContainsFunc(m.game.LegalMoves(), func(l engine.Move) bool { return l.From == mv.From && l.To == mv.To }) {
		return refuse(msgUnknownButton)
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
		return refuse(msgBadPlace)
	}
	m.seatByColor(color).Timeouts = 0
	m.record(store.EventPlace, r.userID, color.String(), sq.String())
	return b.endTurn(m, r, turn)
}

// endTurn ends the turn just played by a click: its message becomes a
// one-line summary, then the computers play and the next turn opens.
func (b *Bot) endTurn(m *match, r *request, turn int) error {
	m.answer(discordgo.InteractionResponseUpdateMessage, summaryData(b.summary(m, turn)), nil)
	if m.game.Over() {
		b.finish(m)
		return nil
	}
	m.beginTurn()
	return b.advance(m, nil)
}

// summaryData is a turn message reduced to its one-line summary.
func summaryData(line string) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{Content: line, Embeds: []*discordgo.MessageEmbed{},
		Components: []discordgo.MessageComponent{}, Attachments: &[]*discordgo.MessageAttachment{},
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
}

// advance plays the computers' turns (at most maxComputerTurns), then posts
// the next human turn's message with the computers' turns summed up, or the
// result. All of it is one change: after a click the game waits for a
// person again (or is over), so no state in between is ever stored.
func (b *Bot) advance(m *match, lines []string) error {
	for range maxComputerTurns {
		seat := m.toMove()
		if seat == nil || seat.Computer == "" {
			break
		}
		turn := m.game.TurnNumber()
		if err := b.playFor(m, seat.Computer); err != nil {
			return err
		}
		lines = append(lines, b.summary(m, turn))
		if m.game.Over() {
			b.finishWith(m, lines)
			return nil
		}
		m.beginTurn()
	}
	if m.game.Over() {
		b.finishWith(m, lines)
		return nil
	}
	if seat := m.toMove(); seat != nil && seat.Computer != "" {
		// Computers only, and more turns to play: the scheduler goes on.
		m.stored.WakeAt = m.now
		if len(lines) > 0 {
			m.post(view{content: joinLines(lines)}, "")
		}
		return nil
	}
	m.post(b.turnView(m, viewOptions{lines: lines}), store.RoleTurn)
	return nil
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
func (b *Bot) timeout(m *match) error {
	seat := m.toMove()
	color := m.game.Turn()
	turn := m.game.TurnNumber()
	m.record(store.EventTimeout, seat.UserID, seat.Color, "")
	if err := b.playFor(m, timeoutLevel); err != nil {
		return err
	}
	seat.Timeouts++
	lang := m.stored.Locale
	lines := []string{tr(lang, msgTimedOut, b.seatLabel(m, seat))}
	if seat.Timeouts >= maxTimeouts && seat.Computer == "" {
		seat.Computer = takeoverLevel
		m.record(store.EventReplace, seat.UserID, seat.Color, "ai:"+seat.Computer)
		lines = append(lines, tr(lang, msgTakenOver, quote(seat.Name), maxTimeouts))
	}
	m.edit(store.RoleTurn, summaryData(tr(lang, msgTimedOutSummary, turn, colorLabel(lang, color))), false)
	lines = append(lines, b.summary(m, turn))
	if m.game.Over() {
		b.finishWith(m, lines)
		return nil
	}
	m.beginTurn()
	return b.advance(m, lines)
}

// joinLines puts lines of what happened one under the other.
func joinLines(lines []string) string { return strings.Join(lines, "\n") }
