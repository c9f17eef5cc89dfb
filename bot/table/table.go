// Package table is the game table of the Malefiz bot: a game as the bot
// sees it (its seats, options, timers, engine state, and what the players
// have been shown) and every decision on it, with no Discord, no database
// and no clock in it.
//
// An action takes a Table made of the stored game (New), changes it (engine
// calls, seats, timers) and leaves on it what the change produced: the
// events for the game's log, the effects for Discord in the order they go
// out, and the answer to the request. The adapter (package bot) loads the
// table, lets it decide, commits what it holds in one transaction, answers
// and delivers. An action that returns an error changed nothing worth
// keeping: the adapter drops the table.
//
// The views (the turn message, the scoreboard card, the lobby, the lines of
// what happened, the direct messages) are plain data (Message), which the
// adapter turns into Discord's messages.
package table

import (
	"fmt"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// Colors are the seat colours in joining order.
var Colors = []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}

// Table is one game as an action sees it: the stored game, its engine
// state, the server's settings, and what the action adds to them.
type Table struct {
	Game     *malefiz.Game         // the game as stored; changed in place
	State    *engine.Game          // the engine's game; nil while in the lobby
	Settings malefiz.GuildSettings // the server's settings
	Now      time.Time             // the time of the change
	Dice     engine.Dice           // rolls for everyone
	// DMs are the users who asked for direct messages (/malefiz notify);
	// the others get none.
	DMs map[string]bool
	// PingAlways are the users whose every turn pings them
	// (/malefiz notify ping:always), even while they are playing.
	PingAlways map[string]bool
	// Locales are the users' Discord locales ("de", "pt-BR"), by user:
	// what is private to one of them and made without an interaction of
	// theirs (their direct messages) is in their language; a user without
	// one reads the server's (LangOf).
	Locales map[string]string
	// AI returns the computer player of a level for one decision; nil
	// means ai.New.
	AI func(level ai.Level, seed uint64) (ai.Player, error)
	// Activity: the bot serves its Activity; the lobby, and the card and
	// the turn card of a running game, offer to open it (see boardButton).
	Activity bool

	// Events are the change's entries for the game's log.
	Events []malefiz.Event
	// Reply is the answer to the request, if any.
	Reply *Reply
	// Advice is the hint this change gave (BoardHint), for the board to
	// draw for the player who asked.
	Advice *LiveHint
	// Dirty: the stored game changed and is committed.
	Dirty bool
	// Wake: a timer changed; the scheduler looks again after the commit.
	Wake bool

	effects        []Effect
	reasons        map[int][][]ai.Reason // by turn: why the computer played its moves, by move
	reminderToDrop bool                  // the sent reminder of the turn that ended goes
	advised        *advice               // the last squares suggested for a taken barricade
}

// New returns the table of game g, its engine state decoded from the stored
// snapshot.
func New(g *malefiz.Game, settings malefiz.GuildSettings, now time.Time, dice engine.Dice) (*Table, error) {
	t := &Table{Game: g, Settings: settings, Now: now, Dice: dice}
	if len(g.State) > 0 {
		t.State = new(engine.Game)
		if err := t.State.UnmarshalSnapshot(g.State); err != nil {
			return nil, fmt.Errorf("game %d: %w", g.ID, err)
		}
	}
	return t, nil
}

// Effects are the effects of the change, in the order they go out.
func (t *Table) Effects() []Effect { return t.effects }

// Snapshot returns the stored game with the engine state written into it.
func (t *Table) Snapshot() (*malefiz.Game, error) {
	if t.State != nil {
		data, err := t.State.MarshalSnapshot()
		if err != nil {
			return nil, err
		}
		t.Game.State = data
	}
	return t.Game, nil
}

// QuietFor is how long after a player acted in a game a turn message for
// them is sent @silent: they are watching, the message names them without
// a notification.
const QuietFor = 10 * time.Minute

// Touch records that userID acted in the game now (a click or a command):
// their seat's Acted, stored with the change if it commits.
func (t *Table) Touch(userID string) {
	for i := range t.Game.Seats {
		if s := &t.Game.Seats[i]; s.UserID == userID && userID != "" && !s.Left {
			s.Acted = t.Now
		}
	}
}

// quiet reports whether a turn message for seat s goes @silent: its player
// acted in the game within QuietFor and did not ask for every ping.
func (t *Table) quiet(s *malefiz.Seat) bool {
	return !s.Acted.IsZero() && t.Now.Sub(s.Acted) < QuietFor && !t.PingAlways[s.UserID]
}

// Finished reports whether the game ended with a winner in this change:
// the commit writes its results.
func (t *Table) Finished() bool {
	return t.State != nil && t.State.Over() && t.Game.Status.Open()
}

// Actor is who asks for a change: a click or a command of a user.
type Actor struct {
	UserID string
	Name   string // display name
	Lang   string // the user's language, for private answers
	// Click: a button or select menu, answered by updating its message.
	Click bool
	// MessageID is the clicked message.
	MessageID string
	// Manager: the user manages the server or the channel (may cancel
	// without a vote).
	Manager bool
}

// Refusal is a refusal the user reads, privately, in their language.
type Refusal struct {
	Key  locales.Key
	Args []any
}

// Error is the refusal in English, for logs.
func (e *Refusal) Error() string { return locales.Tr("en", e.Key, e.Args...) }

// Refuse returns a Refusal of key.
func Refuse(key locales.Key, args ...any) error { return &Refusal{Key: key, Args: args} }

// tr is locales.Tr.
// LangOf is the language of what is private to userID and made without an
// interaction of theirs: their stored locale, else the server's.
func (t *Table) LangOf(userID string) string {
	if l := t.Locales[userID]; l != "" {
		return l
	}
	return t.Game.Locale
}

func tr(lang string, key locales.Key, args ...any) string { return locales.Tr(lang, key, args...) }

// record appends an event to the game's log.
func (t *Table) record(kind, userID, color, data string) {
	t.Events = append(t.Events, malefiz.Event{Kind: kind, UserID: userID, Color: color, Data: data, At: t.Now})
	t.Dirty = true
}

// changed marks the stored game as changed without an event.
func (t *Table) changed() { t.Dirty = true }

// answer sets the reply.
func (t *Table) answer(kind ReplyKind, msg Message) { t.Reply = &Reply{Kind: kind, Message: msg} }

// answerView answers a with a view of the game: a click's message updated in
// place, or a command's new message (private unless public).
func (t *Table) answerView(a Actor, msg Message, public bool) {
	switch {
	case a.Click:
		t.answer(Update, msg)
	case public:
		t.answer(Public, msg)
	default:
		t.answer(Private, msg)
	}
}

// answerPrivate answers with a private text.
func (t *Table) answerPrivate(text string) { t.answer(Private, Text(text)) }

// SeatOf returns the index of the seat userID holds (and has not left).
func (t *Table) SeatOf(userID string) (int, bool) {
	for i, s := range t.Game.Seats {
		if s.UserID == userID && !s.Left {
			return i, true
		}
	}
	return -1, false
}

// SeatByColor returns the seat playing colour c.
func (t *Table) SeatByColor(c engine.Color) *malefiz.Seat {
	for i := range t.Game.Seats {
		if t.Game.Seats[i].Color == c.String() {
			return &t.Game.Seats[i]
		}
	}
	return nil
}

// Rules returns the engine rules of the game's options.
func (t *Table) Rules() engine.Rules {
	return engine.Rules{SixAgain: t.Game.Options.SixAgain, SafeRow2: t.Game.Options.SafeRow2}
}

// ToMove returns the seat to move in a running game.
func (t *Table) ToMove() *malefiz.Seat {
	if t.State == nil || t.State.Over() {
		return nil
	}
	return t.SeatByColor(t.State.Turn())
}

// recolor gives the lobby's seats their colours in joining order.
func (t *Table) recolor() {
	for i := range t.Game.Seats {
		t.Game.Seats[i].Color = Colors[i].String()
	}
}

// humans counts the seats held by people who have not left.
func (t *Table) humans() int {
	n := 0
	for _, s := range t.Game.Seats {
		if s.Computer == "" && !s.Left {
			n++
		}
	}
	return n
}

// SeatColor reads a seat's colour.
func SeatColor(s *malefiz.Seat) engine.Color {
	c, err := engine.ParseColor(s.Color)
	if err != nil {
		return engine.NoColor
	}
	return c
}

// TurnTimeout returns the game's turn timeout, or the server's default.
func (t *Table) TurnTimeout() time.Duration {
	if d := t.Game.Options.TurnTimeout; d > 0 {
		return d
	}
	return t.Settings.TurnTimeout
}

// beginTurn starts the clock of the turn that begins now: a human seat gets
// the turn timeout and, when the server wants reminders, a reminder halfway.
func (t *Table) beginTurn() {
	g := t.Game
	t.dropReminder()
	g.Deadline, g.RemindAt, g.ReminderSent = time.Time{}, time.Time{}, false
	if seat := t.ToMove(); seat != nil && seat.Computer == "" {
		timeout := t.TurnTimeout()
		g.Deadline = t.Now.Add(timeout)
		if t.Settings.Reminders {
			g.RemindAt = t.Now.Add(timeout / 2)
		}
	}
	g.WakeAt = t.timerWake()
	t.Dirty, t.Wake = true, true
}

// dropReminder marks the reminder of the turn that ends, if one was sent,
// for deletion with the next messages (see flushReminder).
func (t *Table) dropReminder() {
	if t.Game.ReminderSent {
		t.reminderToDrop = true
		t.Game.ReminderSent = false
		t.Dirty = true
	}
}

// flushReminder adds the deletion of the dropped reminder: after the lines
// of the turn that ended, before what comes next.
func (t *Table) flushReminder() {
	if t.reminderToDrop {
		t.remove(malefiz.RoleReminder)
		t.reminderToDrop = false
	}
}

// timerWake is when the running turn's next timer is due: the reminder
// while it is pending, else the deadline.
func (t *Table) timerWake() time.Time {
	g := t.Game
	if !g.ReminderSent && !g.RemindAt.IsZero() {
		return g.RemindAt
	}
	return g.Deadline
}

// computer returns the computer player of a seat for the current decision,
// seeded from the game and turn so that decisions replay.
func (t *Table) computer(level string) (ai.Player, error) {
	lv, err := ai.ParseLevel(level)
	if err != nil {
		return nil, err
	}
	seed := uint64(t.Game.ID)<<32 ^ uint64(t.State.TurnNumber())
	if t.AI != nil {
		return t.AI(lv, seed)
	}
	return ai.New(lv, seed)
}

// autoRoll reports whether the die is rolled for people without a click.
func (t *Table) autoRoll() bool { return t.Game.Options.Roll == RollAuto }

// The roll modes of a game.
const (
	RollAuto   = "auto"
	RollButton = "button"
)
