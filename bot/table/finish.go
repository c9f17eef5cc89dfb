package table

import (
	"strings"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
)

// finish records the end of the game and posts the result: the final board
// and the winner. The card in the channel shows the result and Rematch
// (the channel stays clickable where an archived thread would not), and
// the thread is left to Discord's auto-archive, an hour after the result.
// The adapter commits the results with the change and adds the rating
// changes to the result (see Effect.Result).
func (t *Table) finish() {
	winner := t.SeatByColor(t.State.Winner())
	t.record(malefiz.EventWin, winner.UserID, winner.Color, "")
	t.dropReminder()
	t.flushReminder()
	result := t.ResultMessage()
	t.effects = append(t.effects, Effect{Kind: Post, Message: &result, InPlay: true, Result: true})
	t.edit(malefiz.RoleLobby, t.CardMessage(), false)
	for _, s := range t.Game.Seats {
		if s.UserID != "" && !s.Left {
			lang := t.LangOf(s.UserID)
			t.notify(s.UserID, tr(lang, locales.DmEnded, t.Game.ID, t.seatLabelIn(lang, winner), LinkPlaceholder), malefiz.RoleLobby)
		}
	}
	t.settle()
}

// ResultMessage is the final message: the winner and the final board, and a
// ping for everyone who played. Rematch is on the card (CardMessage).
func (t *Table) ResultMessage() Message {
	lang := t.Game.Locale
	winner := t.SeatByColor(t.State.Winner())
	text := tr(lang, locales.GameWinner, t.seatLabel(winner), t.State.TurnNumber())
	if t.State.Forfeit() {
		text = tr(lang, locales.GameWinnerForfeit, t.seatLabel(winner))
	}
	sc := t.scene()
	v := Message{Embeds: []Embed{{Title: "🏆 " + text, Color: ColorRGB[t.State.Winner()], Board: true,
		Footer: tr(lang, locales.GameFooter, t.Game.ID)}}, Board: &sc}
	v.BoardAlt = alt{lang: lang, head: []string{tr(lang, locales.AltBoard, t.State.TurnNumber()),
		tr(lang, locales.AltWinner, altSeat(lang, winner))}}.String()
	var who []string
	for _, s := range t.Game.Seats {
		if s.UserID != "" && !s.Left {
			v.Pings = append(v.Pings, s.UserID)
			who = append(who, Mention(s.UserID))
		}
	}
	v.Content = strings.Join(who, " ")
	return v
}

// Resign takes a out of the running game (rule 10).
func (t *Table) Resign(a Actor) error {
	if t.Game.Status != malefiz.StatusRunning {
		return Refuse(locales.ErrGameEnded)
	}
	i, ok := t.SeatOf(a.UserID)
	if !ok {
		return Refuse(locales.ErrNotInGame)
	}
	seat := &t.Game.Seats[i]
	c := SeatColor(seat)
	turn := t.State.TurnNumber()
	wasTurn := t.State.Turn() == c
	if err := t.State.Remove(c); err != nil {
		return err
	}
	seat.Left = true
	t.record(malefiz.EventResign, a.UserID, seat.Color, "")
	line := tr(t.Game.Locale, locales.GameResigned, t.seatLabel(seat))
	if a.Click {
		// Confirmed on the private question: it says so, and the
		// game's place hears of it.
		t.answer(Update, Text(tr(a.Lang, locales.GameResigned, t.seatLabelIn(a.Lang, seat))))
		t.post(Text(line), "")
	} else {
		t.answer(Public, Text(line))
	}
	switch {
	case t.State.Over():
		if wasTurn {
			t.edit(malefiz.RoleTurn, Text(t.summary(turn)), false)
		}
		t.finish()
	case wasTurn:
		t.beginTurn()
		more, err := t.playOn()
		if err != nil {
			return err
		}
		t.edit(malefiz.RoleTurn, Text(JoinLines(append([]string{t.summary(turn)}, more...))), false)
		t.openNext()
	default:
		t.edit(malefiz.RoleLobby, t.CardMessage(), false)
	}
	return nil
}

// turnDM is the direct message of a turn that begins: the game, the roll
// (when rolled already) and the link, in lang (the player's).
func (t *Table) turnDM(lang string) string {
	if t.State.Phase() != engine.PhaseRoll {
		return tr(lang, locales.DmTurnRolled, t.Game.ID, t.State.Rolled(), LinkPlaceholder)
	}
	return tr(lang, locales.DmTurn, t.Game.ID, LinkPlaceholder)
}
