package bot

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/store"
)

// lobbyLifetime is how long a lobby waits to be started before it closes.
const lobbyLifetime = 24 * time.Hour

// levelChoices are the computer levels offered to players.
func levelChoices() []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, l := range ai.Levels() {
		key := levelName(string(l))
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: tr("en", key), NameLocalizations: localizations(key), Value: string(l)})
	}
	return out
}

// parseTimeout reads a turn-timeout choice; "" means the server default.
func parseTimeout(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 5*time.Minute || d > 7*24*time.Hour {
		return 0, refuse(msgBadTimeout)
	}
	return d, nil
}

func (b *Bot) cmdNew(ctx context.Context, r *request, o options) error {
	seats := o.int("seats", b.defaults.Seats)
	bots := o.int("bots", 0)
	level := o.string("level", b.defaults.Level)
	if seats < 2 || seats > 4 {
		return refuse(msgBadSeats)
	}
	if bots < 0 || bots >= seats {
		return refuse(msgBadBots, seats-1)
	}
	if _, err := ai.ParseLevel(level); err != nil {
		return refuse(msgBadLevel)
	}
	timeout, err := parseTimeout(o.string("turn-timeout", ""))
	if err != nil {
		return err
	}
	sg := &store.Game{
		GuildID: r.i.GuildID, ChannelID: r.i.ChannelID, HostID: r.userID, Status: store.StatusLobby,
		Options: store.Options{Seats: seats, TurnTimeout: timeout,
			SixAgain: o.bool("six-again", b.defaults.SixAgain), SafeRow2: o.bool("safe-row-2", b.defaults.SafeRow2)},
		Locale: r.guildLang,
		WakeAt: b.now().Add(lobbyLifetime),
	}
	sg.Seats = append(sg.Seats, store.Seat{UserID: r.userID, Name: r.name})
	events := []store.Event{{Kind: store.EventJoin, UserID: r.userID, At: b.now()}}
	for range bots {
		sg.Seats = append(sg.Seats, store.Seat{Computer: level, Name: level})
		events = append(events, store.Event{Kind: store.EventJoin, Data: "ai:" + level, At: b.now()})
	}
	t := &table{sg: sg}
	t.recolor()
	if err := b.db.CreateGame(ctx, sg, events...); errors.Is(err, store.ErrChannelBusy) {
		return refuse(msgChannelBusy)
	} else if err != nil {
		return err
	}
	b.nudge()
	if err := b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: b.lobbyData(t)}); err != nil {
		return err
	}
	b.rememberLobbyMessage(ctx, r, t)
	return nil
}

// rememberLobbyMessage stores the ID of the lobby message just sent as the
// interaction's response, so that later commands can edit it.
func (b *Bot) rememberLobbyMessage(ctx context.Context, r *request, t *table) {
	m, err := b.dc.InteractionResponse(r.i)
	if err != nil {
		b.log.Warn("could not read the lobby message", "game", t.sg.ID, "err", err)
		return
	}
	unlock := b.locks.lock(t.sg.ID)
	defer unlock()
	fresh, err := b.load(ctx, t.sg.ID)
	if err != nil {
		return
	}
	fresh.sg.LobbyMessageID = m.ID
	if err := b.save(ctx, fresh); err != nil {
		b.log.Warn("could not store the lobby message", "game", t.sg.ID, "err", err)
	}
}

// lobbyData is the lobby message: seats, rules and buttons.
func (b *Bot) lobbyData(t *table) *discordgo.InteractionResponseData {
	embed, comps := b.lobbyView(t)
	return &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{embed}, Components: comps,
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
}

// lobbyAction applies change to the channel's lobby under its lock and
// answers with the updated lobby: in place for a button, else as a private
// confirmation plus an edit of the lobby message.
func (b *Bot) lobbyAction(ctx context.Context, r *request, id int64, change func(t *table) (store.Event, msg, error)) error {
	unlock := b.locks.lock(id)
	defer unlock()
	t, err := b.load(ctx, id)
	if err != nil {
		return err
	}
	if t.sg.Status != store.StatusLobby {
		return refuse(msgNotALobby)
	}
	ev, done, err := change(t)
	if err != nil {
		return err
	}
	ev.At = b.now()
	if len(t.sg.Seats) == 0 || t.humans() == 0 {
		// Nobody is left: the lobby closes.
		t.sg.Status = store.StatusCancelled
		if err := b.save(ctx, t, ev, store.Event{Kind: store.EventCancel, Data: "empty"}); err != nil {
			return err
		}
		return b.showLobbyChange(ctx, r, t, msgLobbyClosedEmpty)
	}
	if err := b.save(ctx, t, ev); err != nil {
		return err
	}
	return b.showLobbyChange(ctx, r, t, done)
}

// showLobbyChange answers a lobby action: a click updates the lobby message
// in place; a command answers privately and edits the lobby message.
func (b *Bot) showLobbyChange(ctx context.Context, r *request, t *table, done msg) error {
	data := b.lobbyData(t)
	if t.sg.Status == store.StatusCancelled {
		data = &discordgo.InteractionResponseData{Content: tr(t.sg.Locale, done), Components: []discordgo.MessageComponent{},
			Embeds: []*discordgo.MessageEmbed{}, AllowedMentions: &discordgo.MessageAllowedMentions{}}
	}
	if r.i.Type == discordgo.InteractionMessageComponent {
		return b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: data})
	}
	b.replyPrivate(r, tr(r.lang, done))
	b.editOrRepost(ctx, t, &t.sg.LobbyMessageID, data)
	return nil
}

// editOrRepost edits a game message; when Discord no longer has it (deleted),
// the message is posted again and the new ID stored.
func (b *Bot) editOrRepost(ctx context.Context, t *table, id *string, data *discordgo.InteractionResponseData) {
	if *id != "" {
		_, err := b.dc.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: *id, Channel: t.sg.ChannelID,
			Content: &data.Content, Embeds: &data.Embeds, Components: &data.Components, AllowedMentions: data.AllowedMentions,
			Files: data.Files, Attachments: data.Attachments})
		if err == nil {
			return
		}
		if !isDiscordCode(err, discordgo.ErrCodeUnknownMessage) {
			b.log.Warn("could not edit a game message", "game", t.sg.ID, "message", *id, "err", err)
			return
		}
	}
	if len(data.Components) == 0 && t.sg.Status != store.StatusLobby {
		return // a summary of a message that is gone: nothing worth posting again
	}
	m, err := b.dc.ChannelMessageSendComplex(t.sg.ChannelID, &discordgo.MessageSend{Content: data.Content,
		Embeds: data.Embeds, Components: data.Components, Files: data.Files, AllowedMentions: data.AllowedMentions})
	if err != nil {
		b.log.Warn("could not post a game message again", "game", t.sg.ID, "err", err)
		return
	}
	*id = m.ID
	if err := b.save(ctx, t); err != nil {
		b.log.Warn("could not store a message ID", "game", t.sg.ID, "err", err)
	}
}

// join seats the request's user.
func (b *Bot) join(r *request) func(t *table) (store.Event, msg, error) {
	return func(t *table) (store.Event, msg, error) {
		if _, ok := t.seatOf(r.userID); ok {
			return store.Event{}, "", refuse(msgAlreadySeated)
		}
		if len(t.sg.Seats) >= t.sg.Options.Seats {
			return store.Event{}, "", refuse(msgLobbyFull)
		}
		t.sg.Seats = append(t.sg.Seats, store.Seat{UserID: r.userID, Name: r.name})
		t.recolor()
		return store.Event{Kind: store.EventJoin, UserID: r.userID}, msgJoined, nil
	}
}

// leave frees the request's user's seat; a leaving host hands the lobby to
// the next person seated.
func (b *Bot) leave(r *request) func(t *table) (store.Event, msg, error) {
	return func(t *table) (store.Event, msg, error) {
		i, ok := t.seatOf(r.userID)
		if !ok {
			return store.Event{}, "", refuse(msgNotInGame)
		}
		t.sg.Seats = append(t.sg.Seats[:i], t.sg.Seats[i+1:]...)
		t.recolor()
		if t.sg.HostID == r.userID {
			for _, s := range t.sg.Seats {
				if s.Computer == "" {
					t.sg.HostID = s.UserID
					break
				}
			}
		}
		return store.Event{Kind: store.EventLeave, UserID: r.userID}, msgLeft, nil
	}
}

// addComputer seats a computer player of level.
func (b *Bot) addComputer(r *request, level string) func(t *table) (store.Event, msg, error) {
	return func(t *table) (store.Event, msg, error) {
		if _, err := ai.ParseLevel(level); err != nil {
			return store.Event{}, "", refuse(msgBadLevel)
		}
		if _, ok := t.seatOf(r.userID); !ok && t.sg.HostID != r.userID {
			return store.Event{}, "", refuse(msgNotInGame)
		}
		if len(t.sg.Seats) >= t.sg.Options.Seats {
			return store.Event{}, "", refuse(msgLobbyFull)
		}
		t.sg.Seats = append(t.sg.Seats, store.Seat{Computer: level, Name: level})
		t.recolor()
		return store.Event{Kind: store.EventJoin, UserID: r.userID, Data: "ai:" + level}, msgComputerAdded, nil
	}
}

func (b *Bot) cmdJoin(ctx context.Context, r *request, _ options) error {
	t, err := b.openTable(ctx, r)
	if err != nil {
		return err
	}
	return b.lobbyAction(ctx, r, t.sg.ID, b.join(r))
}

func (b *Bot) cmdLeave(ctx context.Context, r *request, _ options) error {
	t, err := b.openTable(ctx, r)
	if err != nil {
		return err
	}
	if t.sg.Status == store.StatusRunning {
		return b.resign(ctx, r, t.sg.ID)
	}
	return b.lobbyAction(ctx, r, t.sg.ID, b.leave(r))
}

func (b *Bot) cmdStart(ctx context.Context, r *request, _ options) error {
	t, err := b.openTable(ctx, r)
	if err != nil {
		return err
	}
	return b.start(ctx, r, t.sg.ID)
}

// start turns the lobby into a running game: who begins is drawn at random.
func (b *Bot) start(ctx context.Context, r *request, id int64) error {
	unlock := b.locks.lock(id)
	defer unlock()
	t, err := b.load(ctx, id)
	if err != nil {
		return err
	}
	switch {
	case t.sg.Status == store.StatusRunning:
		return refuse(msgAlreadyStarted)
	case t.sg.Status != store.StatusLobby:
		return refuse(msgGameEnded)
	case t.sg.HostID != r.userID:
		return refuse(msgOnlyHostStarts)
	case len(t.sg.Seats) < 2:
		return refuse(msgNeedTwo)
	}
	var players []engine.Color
	for _, s := range t.sg.Seats {
		players = append(players, seatColor(&s))
	}
	first := players[b.draw(len(players))]
	g, err := engine.NewGame(players, first, t.rules())
	if err != nil {
		return err
	}
	t.g = g
	t.sg.Status = store.StatusRunning
	b.beginTurn(ctx, t)
	if err := b.save(ctx, t, store.Event{Kind: store.EventStart, UserID: r.userID, Color: first.String()}); err != nil {
		return err
	}
	started := &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{b.lobbyEmbed(t)},
		Components: []discordgo.MessageComponent{}, AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if r.i.Type == discordgo.InteractionMessageComponent {
		if err := b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: started}); err != nil {
			return err
		}
	} else {
		b.replyPrivate(r, tr(r.lang, msgStarted))
		b.editOrRepost(ctx, t, &t.sg.LobbyMessageID, started)
	}
	announce := tr(t.sg.Locale, msgFirstPlayer, b.seatLabel(t, t.seatByColor(first)))
	return b.advance(ctx, r, t, []string{announce})
}

// cancel ends a lobby or a running game without a result.
func (b *Bot) cancel(ctx context.Context, r *request, id int64) error {
	unlock := b.locks.lock(id)
	defer unlock()
	t, err := b.load(ctx, id)
	if err != nil {
		return err
	}
	if !t.sg.Status.Open() {
		return refuse(msgGameEnded)
	}
	manager := r.perms&(discordgo.PermissionManageGuild|discordgo.PermissionManageChannels|discordgo.PermissionAdministrator) != 0
	if t.sg.HostID != r.userID && !manager {
		return refuse(msgOnlyHostCancels)
	}
	wasLobby := t.sg.Status == store.StatusLobby
	t.sg.Status = store.StatusCancelled
	t.sg.WakeAt, t.sg.Deadline, t.sg.RemindAt = time.Time{}, time.Time{}, time.Time{}
	if err := b.save(ctx, t, store.Event{Kind: store.EventCancel, UserID: r.userID}); err != nil {
		return err
	}
	text := tr(t.sg.Locale, msgCancelledBy, quote(r.name))
	closed := &discordgo.InteractionResponseData{Content: text, Embeds: []*discordgo.MessageEmbed{},
		Components: []discordgo.MessageComponent{}, AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if r.i.Type == discordgo.InteractionMessageComponent {
		return b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: closed})
	}
	if err := b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: text, AllowedMentions: &discordgo.MessageAllowedMentions{}}}); err != nil {
		return err
	}
	if wasLobby {
		b.editOrRepost(ctx, t, &t.sg.LobbyMessageID, closed)
	} else {
		b.editOrRepost(ctx, t, &t.sg.TurnMessageID, closed)
	}
	return nil
}

func (b *Bot) cmdCancel(ctx context.Context, r *request, _ options) error {
	t, err := b.openTable(ctx, r)
	if err != nil {
		return err
	}
	return b.cancel(ctx, r, t.sg.ID)
}
