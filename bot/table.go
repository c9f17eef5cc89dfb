package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/store"
)

// colors are the seat colours in joining order.
var colors = []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}

// table is a stored game with its engine state decoded.
type table struct {
	sg *store.Game
	g  *engine.Game // nil while in the lobby
}

// load reads game id and decodes its state.
func (b *Bot) load(ctx context.Context, id int64) (*table, error) {
	sg, err := b.db.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(msgNoSuchGame)
	} else if err != nil {
		return nil, err
	}
	return decode(sg)
}

// openTable reads the open game of the request's channel.
func (b *Bot) openTable(ctx context.Context, r *request) (*table, error) {
	sg, err := b.db.OpenGame(ctx, r.i.GuildID, r.i.ChannelID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(msgNoGameHere)
	} else if err != nil {
		return nil, err
	}
	return decode(sg)
}

func decode(sg *store.Game) (*table, error) {
	t := &table{sg: sg}
	if len(sg.State) > 0 {
		t.g = new(engine.Game)
		if err := t.g.UnmarshalBinary(sg.State); err != nil {
			return nil, fmt.Errorf("game %d: %w", sg.ID, err)
		}
	}
	return t, nil
}

// save writes the table with its events (state + events + version in one
// transaction). It fails with store.ErrConflict when someone acted first.
func (b *Bot) save(ctx context.Context, t *table, events ...store.Event) error {
	if t.g != nil {
		data, err := t.g.MarshalBinary()
		if err != nil {
			return err
		}
		t.sg.State = data
	}
	for i := range events {
		if events[i].At.IsZero() {
			events[i].At = b.now()
		}
	}
	return b.db.UpdateGame(ctx, t.sg, events...)
}

// seatOf returns the index of the seat userID holds (and has not left).
func (t *table) seatOf(userID string) (int, bool) {
	for i, s := range t.sg.Seats {
		if s.UserID == userID && !s.Left {
			return i, true
		}
	}
	return -1, false
}

// seatByColor returns the seat playing colour c.
func (t *table) seatByColor(c engine.Color) *store.Seat {
	for i := range t.sg.Seats {
		if t.sg.Seats[i].Color == c.String() {
			return &t.sg.Seats[i]
		}
	}
	return nil
}

// rules returns the engine rules of the game's options.
func (t *table) rules() engine.Rules {
	return engine.Rules{SixAgain: t.sg.Options.SixAgain, SafeRow2: t.sg.Options.SafeRow2}
}

// toMove returns the seat to move in a running game.
func (t *table) toMove() *store.Seat {
	if t.g == nil || t.g.Over() {
		return nil
	}
	return t.seatByColor(t.g.Turn())
}

// recolor gives the lobby's seats their colours in joining order.
func (t *table) recolor() {
	for i := range t.sg.Seats {
		t.sg.Seats[i].Color = colors[i].String()
	}
}

// humans counts the seats held by people who have not left.
func (t *table) humans() int {
	n := 0
	for _, s := range t.sg.Seats {
		if s.Computer == "" && !s.Left {
			n++
		}
	}
	return n
}

// seatColor reads a seat's colour.
func seatColor(s *store.Seat) engine.Color {
	c, err := engine.ParseColor(s.Color)
	if err != nil {
		return engine.NoColor
	}
	return c
}

// turnTimeout returns the game's turn timeout, or the guild's default.
func (b *Bot) turnTimeout(ctx context.Context, t *table) (time.Duration, bool) {
	gs, err := b.db.GuildSettings(ctx, t.sg.GuildID)
	if err != nil {
		b.log.Warn("guild settings", "err", err)
		gs = store.DefaultGuildSettings()
	}
	timeout := t.sg.Options.TurnTimeout
	if timeout <= 0 {
		timeout = gs.TurnTimeout
	}
	return timeout, gs.Reminders
}

// beginTurn starts the clock of the turn that begins now and marks its
// message as not yet posted: a human seat gets the turn timeout and, when the
// guild wants reminders, a reminder halfway. Until postTurn stores the new
// message, the game is due at once, so that a restart in between posts it.
func (b *Bot) beginTurn(ctx context.Context, t *table) {
	t.sg.Deadline, t.sg.RemindAt, t.sg.ReminderSent = time.Time{}, time.Time{}, false
	t.sg.TurnMessageID = ""
	t.sg.WakeAt = b.now()
	if seat := t.toMove(); seat != nil && seat.Computer == "" {
		timeout, reminders := b.turnTimeout(ctx, t)
		now := b.now()
		t.sg.Deadline = now.Add(timeout)
		if reminders {
			t.sg.RemindAt = now.Add(timeout / 2)
		}
	}
	b.nudge()
}

// timerWake is when the running turn's next timer is due: the reminder
// while it is pending, else the deadline.
func (t *table) timerWake() time.Time {
	if !t.sg.ReminderSent && !t.sg.RemindAt.IsZero() {
		return t.sg.RemindAt
	}
	return t.sg.Deadline
}

// nudge wakes the scheduler to look at the deadlines again.
func (b *Bot) nudge() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// computer returns the computer player of a seat for the current decision,
// seeded from the game and turn so that decisions replay.
func (t *table) computer(level string) (ai.Player, error) {
	lv, err := ai.ParseLevel(level)
	if err != nil {
		lv = ai.Normal
	}
	seed := uint64(t.sg.ID)<<32 ^ uint64(t.g.TurnNumber())
	return ai.New(lv, seed)
}
