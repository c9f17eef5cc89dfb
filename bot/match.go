package bot

import (
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// colors are the seat colours in joining order.
var colors = []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}

// match is one game as an action sees it: the stored game, its engine state,
// the server's settings, and what the action adds to them (events, Discord
// effects, the answer to the request). An action only changes a match; the
// change path (change.go) commits and delivers what it holds.
type match struct {
	stored   *store.Game
	game     *engine.Game // nil while in the lobby
	settings store.GuildSettings
	now      time.Time

	events  []store.Event
	effects []effect
	reply   *reply // the answer to the request, if any
	dirty   bool   // the stored game changed: commit it
	wake    bool   // a timer changed: the scheduler looks again
	// adoptAnswer, when set, records the answer's message as the game's
	// message of that role, directly rather than through the outbox (see
	// cmdBoard).
	adoptAnswer store.MessageRole
}

// reply is the answer to a request: a response, with the board drawn as
// board.png once the change is committed.
type reply struct {
	typ   discordgo.InteractionResponseType
	data  *discordgo.InteractionResponseData
	board *render.Scene
}

// record appends an event to the game's log.
func (m *match) record(kind, userID, color, data string) {
	m.events = append(m.events, store.Event{Kind: kind, UserID: userID, Color: color, Data: data, At: m.now})
	m.dirty = true
}

// changed marks the stored game as changed without an event.
func (m *match) changed() { m.dirty = true }

// answer sets the response to the request.
func (m *match) answer(typ discordgo.InteractionResponseType, data *discordgo.InteractionResponseData, board *render.Scene) {
	m.reply = &reply{typ: typ, data: data, board: board}
}

// answerView sets the response to a view of the game: a click's message
// updated in place, or a command's new message (private unless public).
func (m *match) answerView(r *request, v view, public bool) {
	typ := discordgo.InteractionResponseUpdateMessage
	var flags discordgo.MessageFlags
	if !r.isClick() {
		typ = discordgo.InteractionResponseChannelMessageWithSource
		if !public {
			flags = discordgo.MessageFlagsEphemeral
		}
	}
	data := &discordgo.InteractionResponseData{Content: v.content, Embeds: v.embeds, Components: v.components,
		Flags: flags, AllowedMentions: &discordgo.MessageAllowedMentions{Users: v.pings}}
	if typ == discordgo.InteractionResponseUpdateMessage {
		data.Attachments = &[]*discordgo.MessageAttachment{}
		if data.Components == nil {
			data.Components = []discordgo.MessageComponent{}
		}
	}
	m.answer(typ, data, v.board)
}

// answerPrivate sets a private text as the response.
func (m *match) answerPrivate(text string) {
	m.answer(discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: text,
		Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{}}, nil)
}

// seatOf returns the index of the seat userID holds (and has not left).
func (m *match) seatOf(userID string) (int, bool) {
	for i, s := range m.stored.Seats {
		if s.UserID == userID && !s.Left {
			return i, true
		}
	}
	return -1, false
}

// seatByColor returns the seat playing colour c.
func (m *match) seatByColor(c engine.Color) *store.Seat {
	for i := range m.stored.Seats {
		if m.stored.Seats[i].Color == c.String() {
			return &m.stored.Seats[i]
		}
	}
	return nil
}

// rules returns the engine rules of the game's options.
func (m *match) rules() engine.Rules {
	return engine.Rules{SixAgain: m.stored.Options.SixAgain, SafeRow2: m.stored.Options.SafeRow2}
}

// toMove returns the seat to move in a running game.
func (m *match) toMove() *store.Seat {
	if m.game == nil || m.game.Over() {
		return nil
	}
	return m.seatByColor(m.game.Turn())
}

// recolor gives the lobby's seats their colours in joining order.
func (m *match) recolor() {
	for i := range m.stored.Seats {
		m.stored.Seats[i].Color = colors[i].String()
	}
}

// humans counts the seats held by people who have not left.
func (m *match) humans() int {
	n := 0
	for _, s := range m.stored.Seats {
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

// turnTimeout returns the game's turn timeout, or the server's default.
func (m *match) turnTimeout() time.Duration {
	if t := m.stored.Options.TurnTimeout; t > 0 {
		return t
	}
	return m.settings.TurnTimeout
}

// beginTurn starts the clock of the turn that begins now: a human seat gets
// the turn timeout and, when the server wants reminders, a reminder halfway.
func (m *match) beginTurn() {
	sg := m.stored
	m.dropReminder()
	sg.Deadline, sg.RemindAt, sg.ReminderSent = time.Time{}, time.Time{}, false
	if seat := m.toMove(); seat != nil && seat.Computer == "" {
		timeout := m.turnTimeout()
		sg.Deadline = m.now.Add(timeout)
		if m.settings.Reminders {
			sg.RemindAt = m.now.Add(timeout / 2)
		}
	}
	sg.WakeAt = m.timerWake()
	m.dirty, m.wake = true, true
}

// dropReminder removes the reminder of the turn that ends, if one was sent.
func (m *match) dropReminder() {
	if m.stored.ReminderSent {
		m.remove(store.RoleReminder)
		m.stored.ReminderSent = false
		m.dirty = true
	}
}

// timerWake is when the running turn's next timer is due: the reminder
// while it is pending, else the deadline.
func (m *match) timerWake() time.Time {
	sg := m.stored
	if !sg.ReminderSent && !sg.RemindAt.IsZero() {
		return sg.RemindAt
	}
	return sg.Deadline
}

// computer returns the computer player of a seat for the current decision,
// seeded from the game and turn so that decisions replay.
func (m *match) computer(level string) (ai.Player, error) {
	lv, err := ai.ParseLevel(level)
	if err != nil {
		return nil, err
	}
	seed := uint64(m.stored.ID)<<32 ^ uint64(m.game.TurnNumber())
	return ai.New(lv, seed)
}
