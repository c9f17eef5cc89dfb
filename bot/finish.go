package bot

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/store"
)

// results counts each seat's part of a finished game for the statistics.
func results(t *table) []store.Result {
	g := t.g
	var out []store.Result
	for _, s := range t.sg.Seats {
		c := seatColor(&s)
		r := store.Result{Player: s.UserID, Name: s.Name, Color: s.Color, GameTurns: g.TurnNumber(),
			Won: c == g.Winner()}
		if s.UserID == "" {
			r.Player, r.Computer = "ai:"+s.Computer, true
		}
		r.Forfeit = r.Won && g.Forfeit()
		for _, rec := range g.History() {
			switch {
			case rec.Kind == engine.RecordRoll && rec.Color == c:
				r.Turns++
			case rec.Kind == engine.RecordMove && rec.Color == c:
				if rec.Captured != engine.NoColor {
					r.Captures++
				}
				if rec.Move.Place != engine.NoSquare {
					r.Barricades++
				}
			case rec.Kind == engine.RecordMove && rec.Captured == c:
				r.Captured++
			}
		}
		out = append(out, r)
	}
	return out
}

// finish records the end of the game and shows the result: the clicked
// message becomes the last turn's summary and a new message shows the
// final board.
func (b *Bot) finish(ctx context.Context, r *request, t *table, turn int, events []store.Event) error {
	winner := t.seatByColor(t.g.Winner())
	events = append(events, store.Event{Kind: store.EventWin, UserID: winner.UserID, Color: winner.Color})
	data, err := t.g.MarshalBinary()
	if err != nil {
		return err
	}
	t.sg.State = data
	t.sg.Deadline, t.sg.RemindAt, t.sg.WakeAt = time.Time{}, time.Time{}, time.Time{}
	for i := range events {
		if events[i].At.IsZero() {
			events[i].At = b.now()
		}
	}
	if err := b.db.FinishGame(ctx, t.sg, results(t), events...); err != nil {
		return err
	}
	final := b.resultView(t)
	if r != nil && !r.responded && r.i.Type == discordgo.InteractionMessageComponent {
		if err := b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
			Data: summaryData(b.summary(t, turn))}); err != nil {
			b.log.Warn("could not write the last summary", "game", t.sg.ID, "err", err)
		}
	}
	if r != nil && !r.responded {
		return b.respondView(r, final, true)
	}
	if _, err := b.dc.ChannelMessageSendComplex(t.sg.ChannelID, &discordgo.MessageSend{Content: final.content,
		Embeds: final.embeds, Files: final.files, AllowedMentions: &discordgo.MessageAllowedMentions{}}); err != nil {
		b.log.Warn("could not post the result", "game", t.sg.ID, "err", err)
	}
	return nil
}

// resultView is the final message: the winner and the final board.
func (b *Bot) resultView(t *table) view {
	lang := t.sg.Locale
	winner := t.seatByColor(t.g.Winner())
	text := tr(lang, msgWinner, b.seatLabel(t, winner), t.g.TurnNumber())
	if t.g.Forfeit() {
		text = tr(lang, msgWinnerForfeit, b.seatLabel(t, winner))
	}
	embed := &discordgo.MessageEmbed{Title: "🏆 " + text, Color: colorRGB[t.g.Winner()],
		Image:  &discordgo.MessageEmbedImage{URL: "attachment://board.png"},
		Footer: &discordgo.MessageEmbedFooter{Text: tr(lang, msgGameFooter, t.sg.ID)}}
	v := view{embeds: []*discordgo.MessageEmbed{embed}}
	if f, err := b.boardFile(scene(t)); err == nil {
		v.files = []*discordgo.File{f}
	} else {
		embed.Image = nil
	}
	return v
}

// resign takes the user out of the running game (rule 10).
func (b *Bot) resign(ctx context.Context, r *request, id int64) error {
	unlock := b.locks.lock(id)
	defer unlock()
	t, err := b.load(ctx, id)
	if err != nil {
		return err
	}
	if t.sg.Status != store.StatusRunning {
		return refuse(msgGameEnded)
	}
	i, ok := t.seatOf(r.userID)
	if !ok {
		return refuse(msgNotInGame)
	}
	seat := &t.sg.Seats[i]
	c := seatColor(seat)
	turn := t.g.TurnNumber()
	wasTurn := t.g.Turn() == c
	if err := t.g.Remove(c); err != nil {
		return err
	}
	seat.Left = true
	events := []store.Event{{Kind: store.EventResign, UserID: r.userID, Color: seat.Color}}
	if t.g.Over() {
		return b.finish(ctx, r, t, turn, events)
	}
	oldMessage := t.sg.TurnMessageID
	if wasTurn {
		b.beginTurn(ctx, t)
	}
	if err := b.save(ctx, t, events...); err != nil {
		return err
	}
	if err := b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: tr(t.sg.Locale, msgResigned, b.seatLabel(t, seat)),
			AllowedMentions: &discordgo.MessageAllowedMentions{}}}); err != nil {
		return err
	}
	if !wasTurn {
		return nil
	}
	b.editOrRepost(ctx, t, &oldMessage, summaryData(b.summary(t, turn)))
	return b.advance(ctx, r, t, nil)
}

func (b *Bot) cmdResign(ctx context.Context, r *request, _ options) error {
	t, err := b.openTable(ctx, r)
	if err != nil {
		return err
	}
	if t.sg.Status == store.StatusLobby {
		return b.lobbyAction(ctx, r, t.sg.ID, b.leave(r))
	}
	return b.resign(ctx, r, t.sg.ID)
}

// cmdBoard shows the channel's game again: publicly with the turn's buttons
// for the player to move, privately for everyone else.
func (b *Bot) cmdBoard(ctx context.Context, r *request, _ options) error {
	t, err := b.openTable(ctx, r)
	if err != nil {
		return err
	}
	unlock := b.locks.lock(t.sg.ID)
	defer unlock()
	if t, err = b.load(ctx, t.sg.ID); err != nil {
		return err
	}
	if t.sg.Status == store.StatusLobby {
		if err := b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: b.lobbyData(t)}); err != nil {
			return err
		}
		if m, err := b.dc.InteractionResponse(r.i); err == nil {
			t.sg.LobbyMessageID = m.ID
			return b.save(ctx, t)
		}
		return nil
	}
	if t.g == nil || !t.sg.Status.Open() {
		return refuse(msgNoGameHere)
	}
	seat := t.toMove()
	if seat == nil || seat.UserID != r.userID || seat.Computer != "" {
		return b.respondView(r, b.turnView(t, viewOptions{private: true}), false)
	}
	if err := b.respondView(r, b.turnView(t, viewOptions{}), true); err != nil {
		return err
	}
	m, err := b.dc.InteractionResponse(r.i)
	if err != nil {
		b.log.Warn("could not read the board message", "game", t.sg.ID, "err", err)
		return nil
	}
	t.sg.TurnMessageID = m.ID
	t.sg.WakeAt = t.timerWake()
	if err := b.save(ctx, t); err != nil && !errors.Is(err, store.ErrConflict) {
		return err
	}
	return nil
}

func (b *Bot) cmdRules(_ context.Context, r *request, _ options) error {
	b.replyPrivate(r, tr(r.lang, msgRulesText))
	return nil
}

func (b *Bot) cmdHelp(_ context.Context, r *request, _ options) error {
	b.replyPrivate(r, tr(r.lang, msgHelpText))
	return nil
}
