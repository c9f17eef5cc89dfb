package bot

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/store"
)

// turnAction applies a click of the player to move: roll, pick a pawn, move,
// go back, or place a barricade. The answer updates the turn message in place.
func (b *Bot) turnAction(ctx context.Context, r *request, id CustomID) error {
	unlock := b.locks.lock(id.Game)
	defer unlock()
	t, err := b.load(ctx, id.Game)
	if err != nil {
		return err
	}
	if err := t.checkTurn(r.userID, id.Turn); err != nil {
		return err
	}
	color := t.g.Turn()
	seat := t.seatByColor(color)
	phase := t.g.Phase()
	switch {
	case id.Action == ActRoll && phase == engine.PhaseRoll:
		return b.roll(ctx, r, t)
	case id.Action == ActPawn && phase == engine.PhaseMove:
		from, err := parseFrom(id.Arg)
		if err != nil {
			return refuse(msgUnknownButton)
		}
		return b.respondView(r, b.turnView(t, viewOptions{pawn: from, pawnChosen: true}), false)
	case id.Action == ActMove && phase == engine.PhaseMove:
		m, err := engine.ParseMove(id.Arg)
		if err != nil || m.Place != engine.NoSquare {
			return refuse(msgUnknownButton)
		}
		return b.move(ctx, r, t, m)
	case id.Action == ActBack && phase == engine.PhaseMove:
		return b.respondView(r, b.turnView(t, viewOptions{}), false)
	case id.Action == ActBack && phase == engine.PhasePlace:
		if err := t.g.CancelPlace(); err != nil {
			return err
		}
		seat.Timeouts = 0
		if err := b.save(ctx, t, store.Event{Kind: "back", UserID: r.userID, Color: color.String()}); err != nil {
			return err
		}
		return b.respondView(r, b.turnView(t, viewOptions{}), false)
	case id.Action == ActPlaceRow && phase == engine.PhasePlace:
		row, err := strconv.Atoi(id.Arg)
		if err != nil || row < 1 || row > 14 {
			return refuse(msgUnknownButton)
		}
		return b.respondView(r, b.turnView(t, viewOptions{row: row}), false)
	case id.Action == ActPlace && phase == engine.PhasePlace:
		sq, err := engine.ParseSquare(id.Arg)
		if err != nil {
			return refuse(msgUnknownButton)
		}
		return b.place(ctx, r, t, sq)
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
func (b *Bot) roll(ctx context.Context, r *request, t *table) error {
	color := t.g.Turn()
	turn := t.g.TurnNumber()
	n, err := t.g.Roll(b.dice)
	if err != nil {
		return err
	}
	t.seatByColor(color).Timeouts = 0
	events := []store.Event{{Kind: store.EventRoll, UserID: r.userID, Color: color.String(), Data: strconv.Itoa(n)}}
	if t.g.TurnNumber() == turn {
		if err := b.save(ctx, t, events...); err != nil {
			return err
		}
		return b.respondView(r, b.turnView(t, viewOptions{}), false)
	}
	events = append(events, store.Event{Kind: store.EventPass, UserID: r.userID, Color: color.String()})
	return b.endTurn(ctx, r, t, turn, events)
}

// move plays a move chosen by its FROM-TO; a barricade capture first asks
// where the barricade goes.
func (b *Bot) move(ctx context.Context, r *request, t *table, m engine.Move) error {
	color := t.g.Turn()
	turn := t.g.TurnNumber()
	legal := false
	for _, l := range t.g.LegalMoves() {
		legal = legal || (l.From == m.From && l.To == m.To)
	}
	if !legal {
		return refuse(msgUnknownButton)
	}
	if err := t.g.Move(m); err != nil {
		return err
	}
	t.seatByColor(color).Timeouts = 0
	ev := store.Event{Kind: store.EventMove, UserID: r.userID, Color: color.String(), Data: m.String()}
	if t.g.Phase() == engine.PhasePlace {
		if err := b.save(ctx, t, ev); err != nil {
			return err
		}
		return b.respondView(r, b.turnView(t, viewOptions{}), false)
	}
	return b.endTurn(ctx, r, t, turn, []store.Event{ev})
}

// place puts the captured barricade and completes the move.
func (b *Bot) place(ctx context.Context, r *request, t *table, sq engine.Square) error {
	color := t.g.Turn()
	turn := t.g.TurnNumber()
	if err := t.g.Place(sq); err != nil {
		return refuse(msgBadPlace)
	}
	t.seatByColor(color).Timeouts = 0
	ev := store.Event{Kind: store.EventPlace, UserID: r.userID, Color: color.String(), Data: sq.String()}
	return b.endTurn(ctx, r, t, turn, []store.Event{ev})
}

// endTurn commits the turn that just ended, turns its message into a
// one-line summary, then plays the computers and opens the next turn.
func (b *Bot) endTurn(ctx context.Context, r *request, t *table, turn int, events []store.Event) error {
	if t.g.Over() {
		return b.finish(ctx, r, t, turn, events)
	}
	b.beginTurn(ctx, t)
	if err := b.save(ctx, t, events...); err != nil {
		return err
	}
	summary := b.summary(t, turn)
	if err := b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: summaryData(summary)}); err != nil {
		b.log.Warn("could not write the turn summary", "game", t.sg.ID, "err", err)
	}
	return b.advance(ctx, r, t, nil)
}

// summaryData is a turn message reduced to its one-line summary.
func summaryData(line string) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{Content: line, Embeds: []*discordgo.MessageEmbed{},
		Components: []discordgo.MessageComponent{}, Attachments: &[]*discordgo.MessageAttachment{},
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
}

// advance plays the computers' turns, then posts the next human turn's
// message (with the computers' turns summed up), or the result.
func (b *Bot) advance(ctx context.Context, r *request, t *table, lines []string) error {
	for !t.g.Over() {
		seat := t.toMove()
		if seat == nil || seat.Computer == "" {
			break
		}
		turn := t.g.TurnNumber()
		events, err := b.playComputer(t, seat)
		if err != nil {
			return err
		}
		if t.g.Over() {
			return b.finish(ctx, r, t, turn, events)
		}
		b.beginTurn(ctx, t)
		if err := b.save(ctx, t, events...); err != nil {
			return err
		}
		lines = append(lines, b.summary(t, turn))
	}
	return b.postTurn(ctx, r, t, lines)
}

// playComputer plays one whole turn for a computer seat and returns its events.
func (b *Bot) playComputer(t *table, seat *store.Seat) ([]store.Event, error) {
	color := t.g.Turn()
	turn := t.g.TurnNumber()
	n, err := t.g.Roll(b.dice)
	if err != nil {
		return nil, err
	}
	events := []store.Event{{Kind: store.EventRoll, Color: color.String(), Data: strconv.Itoa(n)}}
	if t.g.TurnNumber() != turn {
		return append(events, store.Event{Kind: store.EventPass, Color: color.String()}), nil
	}
	player, err := t.computer(seat.Computer)
	if err != nil {
		return nil, err
	}
	m := player.Choose(t.g.Position(), n, t.rules(), t.g.LegalMoves())
	if err := t.g.Move(m); err != nil {
		return nil, fmt.Errorf("computer %s chose %s: %w", seat.Computer, m, err)
	}
	return append(events, store.Event{Kind: store.EventMove, Color: color.String(), Data: m.String()}), nil
}

// repostDelay is how long to wait before posting a turn message again after
// Discord refused it.
const repostDelay = time.Minute

// postTurn posts the message of the turn that begins: a ping for the player
// to move, the board, the deadline and the Roll button.
func (b *Bot) postTurn(ctx context.Context, r *request, t *table, lines []string) error {
	v := b.turnView(t, viewOptions{lines: lines})
	seat := t.toMove()
	msg := &discordgo.MessageSend{Content: v.content, Embeds: v.embeds, Components: v.components, Files: v.files,
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if seat != nil && seat.UserID != "" {
		msg.AllowedMentions.Users = []string{seat.UserID}
	}
	m, err := b.dc.ChannelMessageSendComplex(t.sg.ChannelID, msg)
	if err != nil {
		// The game is safe; the scheduler tries again a little later, and
		// /malefiz board shows the turn meanwhile.
		b.log.Warn("could not post the turn message", "game", t.sg.ID, "err", err)
		if r != nil && (isDiscordCode(err, discordgo.ErrCodeMissingPermissions) || isDiscordCode(err, discordgo.ErrCodeMissingAccess)) {
			b.replyPrivate(r, tr(r.lang, msgMissingPermissions))
		}
		t.sg.WakeAt = b.now().Add(repostDelay)
		return b.save(ctx, t)
	}
	t.sg.TurnMessageID = m.ID
	t.sg.WakeAt = t.timerWake()
	return b.save(ctx, t)
}

// respondView answers a click by updating its message with view v (or, for
// a command, by sending v as a new message).
func (b *Bot) respondView(r *request, v view, public bool) error {
	typ := discordgo.InteractionResponseUpdateMessage
	var flags discordgo.MessageFlags
	if r.i.Type != discordgo.InteractionMessageComponent {
		typ = discordgo.InteractionResponseChannelMessageWithSource
		if !public {
			flags = discordgo.MessageFlagsEphemeral
		}
	}
	data := &discordgo.InteractionResponseData{Content: v.content, Embeds: v.embeds, Components: v.components,
		Files: v.files, Flags: flags, AllowedMentions: &discordgo.MessageAllowedMentions{Users: v.pings}}
	if typ == discordgo.InteractionResponseUpdateMessage {
		data.Attachments = &[]*discordgo.MessageAttachment{}
	}
	return b.respond(r, &discordgo.InteractionResponse{Type: typ, Data: data})
}
