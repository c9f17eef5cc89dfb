package table

import (
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
)

// Due acts on the game's due timer: a lobby nobody started closes, a turn
// that ran out of time is played for its player, turns that play
// themselves go on, the player to move is reminded.
func (t *Table) Due() error {
	g := t.Game
	if g.WakeAt.IsZero() || g.WakeAt.After(t.Now) {
		return nil // someone acted first
	}
	switch {
	case g.Status == malefiz.StatusLobby && g.TournamentID != 0:
		// A tournament's table, opened but not started yet (the round
		// opener stopped in between): it starts now.
		return t.StartTable(0)
	case g.Status == malefiz.StatusLobby:
		t.expireLobby()
		return nil
	case g.Status != malefiz.StatusRunning || t.State == nil || t.State.Over():
		g.WakeAt = time.Time{}
		t.changed()
		return nil
	case !g.Deadline.IsZero() && !g.Deadline.After(t.Now):
		return t.timeout()
	case t.ToMove() != nil && (t.ToMove().Computer != "" || (t.autoRoll() && t.State.Phase() == engine.PhaseRoll)):
		// Turns that play themselves, more than one change plays.
		t.beginTurn()
		lines, err := t.playOn()
		if err != nil {
			return err
		}
		if len(lines) > 0 {
			t.post(Text(JoinLines(lines)), "")
		}
		t.openNext()
		return nil
	case !g.ReminderSent && !g.RemindAt.IsZero() && !g.RemindAt.After(t.Now):
		t.remind()
		return nil
	}
	g.WakeAt = t.timerWake()
	t.changed()
	return nil
}

// expireLobby closes a lobby nobody started in time.
func (t *Table) expireLobby() {
	t.Game.Status = malefiz.StatusCancelled
	t.Game.WakeAt = time.Time{}
	t.record(malefiz.EventCancel, "", "", "expired")
	t.edit(malefiz.RoleLobby, Text(tr(t.Game.Locale, locales.TimerLobbyExpired)), false)
}

// remind pings the player to move once, halfway through the turn. The
// reminder is committed with its message in the outbox: sent once, even
// across restarts.
func (t *Table) remind() {
	g := t.Game
	seat := t.ToMove()
	g.ReminderSent = true
	g.WakeAt = t.timerWake()
	t.record(malefiz.EventRemind, seat.UserID, seat.Color, "")
	v := Message{Content: tr(g.Locale, locales.TimerReminder, Mention(seat.UserID), g.ID, g.Deadline.Unix()),
		Pings: []string{seat.UserID}, ReplyTo: g.TurnMessageID}
	t.post(v, malefiz.RoleReminder)
	t.notify(seat.UserID, tr(t.LangOf(seat.UserID), locales.DmReminder, g.ID, g.Deadline.Unix(), LinkPlaceholder), malefiz.RoleTurn)
}
