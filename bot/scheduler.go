package bot

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/store"
)

const (
	// maxTimeouts is how many turns in a row may time out before a computer
	// takes the seat over for the rest of the game.
	maxTimeouts = 3
	// timeoutLevel plays a turn that ran out of time.
	timeoutLevel = ai.Easy
	// takeoverLevel plays for a player who timed out maxTimeouts times.
	takeoverLevel = ai.Normal
	// idleWait is how long the scheduler sleeps when nothing is pending.
	idleWait = 10 * time.Minute
	// duePerPass bounds the games one pass handles; the next pass follows at once.
	duePerPass = 100
)

// RunScheduler acts on the games' timers until ctx ends: reminders, turns
// that ran out of time, lobbies never started. It sleeps until the next
// timer stored in the database, so it resumes after a restart by itself.
func (b *Bot) RunScheduler(ctx context.Context) {
	for {
		n, err := b.Tick(ctx)
		if err != nil && ctx.Err() == nil {
			b.log.Error("scheduler", "err", err)
		}
		wait := idleWait
		if n >= duePerPass {
			wait = 0
		} else if next, ok, err := b.db.NextWake(ctx); err == nil && ok {
			wait = min(max(next.Sub(b.now()), 0), idleWait)
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-b.wake:
			timer.Stop()
		case <-timer.C:
		}
	}
}

// Tick handles every game whose timer is due now and returns how many it
// looked at. Each goes through the game's lock and version check, like a
// click, so a click and a timer at the same moment apply once.
func (b *Bot) Tick(ctx context.Context) (int, error) {
	due, err := b.db.DueGames(ctx, b.now(), duePerPass)
	if err != nil {
		return 0, err
	}
	for _, sg := range due {
		if err := b.wakeGame(ctx, sg.ID); err != nil {
			b.log.Error("timer", "game", sg.ID, "err", err)
		}
	}
	return len(due), nil
}

// wakeGame acts on one game's due timer.
func (b *Bot) wakeGame(ctx context.Context, id int64) error {
	unlock := b.locks.lock(id)
	defer unlock()
	t, err := b.load(ctx, id)
	if err != nil {
		return err
	}
	now := b.now()
	if t.sg.WakeAt.IsZero() || t.sg.WakeAt.After(now) {
		return nil // someone acted first
	}
	switch {
	case t.sg.Status == store.StatusLobby:
		return b.expireLobby(ctx, t)
	case t.sg.Status != store.StatusRunning || t.g == nil || t.g.Over():
		t.sg.WakeAt = time.Time{}
		return b.save(ctx, t)
	case !t.sg.Deadline.IsZero() && !t.sg.Deadline.After(now):
		return b.timeout(ctx, t)
	case t.sg.TurnMessageID == "":
		// The turn began but its message never went out (a restart, or
		// Discord refused it): computers play, then the message is posted.
		return b.advance(ctx, nil, t, nil)
	case !t.sg.ReminderSent && !t.sg.RemindAt.IsZero() && !t.sg.RemindAt.After(now):
		return b.remind(ctx, t)
	}
	t.sg.WakeAt = t.timerWake()
	return b.save(ctx, t)
}

// expireLobby closes a lobby nobody started in time.
func (b *Bot) expireLobby(ctx context.Context, t *table) error {
	t.sg.Status = store.StatusCancelled
	t.sg.WakeAt = time.Time{}
	if err := b.save(ctx, t, store.Event{Kind: store.EventCancel, Data: "expired", At: b.now()}); err != nil {
		return err
	}
	text := tr(t.sg.Locale, msgLobbyExpired)
	b.editOrRepost(ctx, t, &t.sg.LobbyMessageID, &discordgo.InteractionResponseData{Content: text,
		Embeds: []*discordgo.MessageEmbed{}, Components: []discordgo.MessageComponent{}, AllowedMentions: &discordgo.MessageAllowedMentions{}})
	return nil
}

// remind pings the player to move once, halfway through the turn. The
// reminder is recorded before it is sent: never twice, even across restarts.
func (b *Bot) remind(ctx context.Context, t *table) error {
	seat := t.toMove()
	t.sg.ReminderSent = true
	t.sg.WakeAt = t.timerWake()
	if err := b.save(ctx, t, store.Event{Kind: store.EventRemind, UserID: seat.UserID, Color: seat.Color, At: b.now()}); err != nil {
		return err
	}
	m := &discordgo.MessageSend{
		Content:         tr(t.sg.Locale, msgReminder, mention(seat.UserID), t.sg.ID, t.sg.Deadline.Unix()),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{seat.UserID}},
	}
	if t.sg.TurnMessageID != "" {
		m.Reference = &discordgo.MessageReference{MessageID: t.sg.TurnMessageID, ChannelID: t.sg.ChannelID, GuildID: t.sg.GuildID}
		f := false
		m.Reference.FailIfNotExists = &f
	}
	if _, err := b.dc.ChannelMessageSendComplex(t.sg.ChannelID, m); err != nil {
		b.log.Warn("could not send the reminder", "game", t.sg.ID, "err", err)
	}
	return nil
}

// timeout plays the turn of a player whose time ran out with the easiest
// computer player; after maxTimeouts in a row a computer takes the seat over.
func (b *Bot) timeout(ctx context.Context, t *table) error {
	seat := t.toMove()
	color := t.g.Turn()
	turn := t.g.TurnNumber()
	events := []store.Event{{Kind: store.EventTimeout, UserID: seat.UserID, Color: seat.Color}}
	level := timeoutLevel
	if err := b.finishTurnFor(t, level, &events); err != nil {
		return err
	}
	seat.Timeouts++
	lines := []string{tr(t.sg.Locale, msgTimedOut, b.seatLabel(t, seat))}
	if seat.Timeouts >= maxTimeouts && seat.Computer == "" {
		seat.Computer = string(takeoverLevel)
		events = append(events, store.Event{Kind: store.EventReplace, UserID: seat.UserID, Color: seat.Color, Data: "ai:" + seat.Computer})
		lines = append(lines, tr(t.sg.Locale, msgTakenOver, quote(seat.Name), maxTimeouts))
	}
	for i := range events {
		events[i].At = b.now()
	}
	if t.g.Over() {
		return b.finish(ctx, nil, t, turn, events)
	}
	oldMessage := t.sg.TurnMessageID
	b.beginTurn(ctx, t)
	if err := b.save(ctx, t, events...); err != nil {
		return err
	}
	lines = append(lines, b.summary(t, turn))
	b.editOrRepost(ctx, t, &oldMessage, summaryData(tr(t.sg.Locale, msgTimedOutSummary, turn, colorLabel(t.sg.Locale, color))))
	return b.advance(ctx, nil, t, lines)
}

// finishTurnFor completes the current turn with a computer player of level:
// rolls if needed, chooses the move and the barricade's square.
func (b *Bot) finishTurnFor(t *table, level ai.Level, events *[]store.Event) error {
	color := t.g.Turn()
	turn := t.g.TurnNumber()
	if t.g.Phase() == engine.PhaseRoll {
		n, err := t.g.Roll(b.dice)
		if err != nil {
			return err
		}
		*events = append(*events, store.Event{Kind: store.EventRoll, Color: color.String(), Data: fmt.Sprint(n)})
		if t.g.TurnNumber() != turn {
			*events = append(*events, store.Event{Kind: store.EventPass, Color: color.String()})
			return nil
		}
	}
	player, err := t.computer(string(level))
	if err != nil {
		return err
	}
	moves := t.g.LegalMoves()
	if pending, ok := t.g.Pending(); ok {
		// The player chose a barricade capture but not its square.
		if err := t.g.CancelPlace(); err != nil {
			return err
		}
		moves = slices.DeleteFunc(t.g.LegalMoves(), func(m engine.Move) bool { return m.From != pending.From || m.To != pending.To })
	}
	m := player.Choose(t.g.Position(), t.g.Rolled(), t.rules(), moves)
	if err := t.g.Move(m); err != nil {
		return fmt.Errorf("timeout move %s: %w", m, err)
	}
	*events = append(*events, store.Event{Kind: store.EventMove, Color: color.String(), Data: m.String()})
	return nil
}
