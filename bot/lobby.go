package bot

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
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
		return 0, refuse(locales.ErrBadTimeout)
	}
	return d, nil
}

func (b *Bot) cmdNew(ctx context.Context, r *request, o options) error {
	seats := o.int("seats", b.defaults.Seats)
	bots := o.int("bots", 0)
	level := o.string("level", b.defaults.Level)
	if seats < 2 || seats > 4 {
		return refuse(locales.ErrBadSeats)
	}
	if bots < 0 || bots >= seats {
		return refuse(locales.ErrBadBots, seats-1)
	}
	if _, err := ai.ParseLevel(level); err != nil {
		return refuse(locales.ErrBadLevel)
	}
	timeout, err := parseTimeout(o.string("turn-timeout", ""))
	if err != nil {
		return err
	}
	gs, err := b.db.GuildSettings(ctx, r.i.GuildID)
	if err != nil {
		return err
	}
	roll := o.string("roll", serverRoll(gs))
	if roll != rollAuto && roll != rollButton {
		return refuse(locales.ErrUnknownCommand)
	}
	sg := &store.Game{
		GuildID: r.i.GuildID, ChannelID: r.i.ChannelID, HostID: r.userID, Status: store.StatusLobby,
		Options: store.Options{Seats: seats, TurnTimeout: timeout, Roll: roll,
			SixAgain: o.bool("six-again", b.defaults.SixAgain), SafeRow2: o.bool("safe-row-2", b.defaults.SafeRow2)},
		Locale:   r.guildLang,
		WakeAt:   b.now().Add(lobbyLifetime),
		Threaded: gs.Threads && canMakeThreads(r.i),
	}
	return b.create(ctx, r, sg, func(m *match) error {
		m.settings = gs
		m.stored.Seats = append(m.stored.Seats, store.Seat{UserID: r.userID, Name: r.name})
		m.record(store.EventJoin, r.userID, "", "")
		for range bots {
			m.stored.Seats = append(m.stored.Seats, store.Seat{Computer: level, Name: level})
			m.record(store.EventJoin, "", "", "ai:"+level)
		}
		m.recolor()
		m.wake = true
		// The response is the lobby message: its ID is recorded once
		// Discord has made it, so that later commands can edit it.
		m.adopt(r, store.RoleLobby)
		return nil
	}, func(m *match) error {
		m.answer(discordgo.InteractionResponseChannelMessageWithSource, b.lobbyData(m), nil)
		return nil
	})
}

// threadPermissions are what the bot needs to play a game in a thread.
const threadPermissions = discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads

// canMakeThreads reports whether the bot may start a thread where i was
// invoked and play in it: the app's permissions there include both. (In a
// thread, starting one fails and the game stays where it was made.)
func canMakeThreads(i *discordgo.Interaction) bool {
	return i.AppPermissions&threadPermissions == threadPermissions
}

// serverRoll is the server's roll mode for new games.
func serverRoll(gs store.GuildSettings) string {
	if gs.Roll == rollButton {
		return rollButton
	}
	return rollAuto
}

// lobbyData is the lobby message: seats, rules and buttons.
func (b *Bot) lobbyData(m *match) *discordgo.InteractionResponseData {
	embed, comps := b.lobbyView(m)
	return &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{embed}, Components: comps,
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
}

// lobbyChange changes a lobby: it seats or unseats someone and returns the
// event and the confirmation the user reads.
type lobbyChange func(m *match) (store.Event, msg, error)

// lobbyAction applies change to a lobby and answers with the updated lobby:
// in place for a button, else as a private confirmation plus an edit of the
// lobby message.
func (b *Bot) lobbyAction(ctx context.Context, r *request, id int64, change lobbyChange) error {
	return b.change(ctx, r, id, func(m *match) error {
		if m.stored.Status != store.StatusLobby {
			return refuse(locales.ErrNotALobby)
		}
		ev, done, err := change(m)
		if err != nil {
			return err
		}
		m.record(ev.Kind, ev.UserID, ev.Color, ev.Data)
		if len(m.stored.Seats) == 0 || m.humans() == 0 {
			// Nobody is left: the lobby closes.
			m.stored.Status = store.StatusCancelled
			m.record(store.EventCancel, "", "", "empty")
			done = locales.LobbyClosedEmpty
		}
		b.showLobbyChange(r, m, done)
		return nil
	})
}

// showLobbyChange answers a lobby action: a click updates the lobby message
// in place; a command answers privately and edits the lobby message (posting
// it again if it was deleted).
func (b *Bot) showLobbyChange(r *request, m *match, done msg) {
	data := b.lobbyData(m)
	if m.stored.Status == store.StatusCancelled {
		data = closedData(tr(m.stored.Locale, done))
	}
	if r.isClick() {
		m.answer(discordgo.InteractionResponseUpdateMessage, data, nil)
		return
	}
	m.answerPrivate(tr(r.lang, done))
	m.edit(store.RoleLobby, data, m.stored.Status == store.StatusLobby)
}

// closedData is a game message reduced to a line, its buttons removed.
func closedData(text string) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{Content: text, Components: []discordgo.MessageComponent{},
		Embeds: []*discordgo.MessageEmbed{}, AllowedMentions: &discordgo.MessageAllowedMentions{}}
}

// join seats the request's user.
func join(r *request) lobbyChange {
	return func(m *match) (store.Event, msg, error) {
		if _, ok := m.seatOf(r.userID); ok {
			return store.Event{}, "", refuse(locales.ErrAlreadySeated)
		}
		if len(m.stored.Seats) >= m.stored.Options.Seats {
			return store.Event{}, "", refuse(locales.ErrLobbyFull)
		}
		m.stored.Seats = append(m.stored.Seats, store.Seat{UserID: r.userID, Name: r.name})
		m.recolor()
		return store.Event{Kind: store.EventJoin, UserID: r.userID}, locales.LobbyJoined, nil
	}
}

// leave frees the request's user's seat; a leaving host hands the lobby to
// the next person seated.
func leave(r *request) lobbyChange {
	return func(m *match) (store.Event, msg, error) {
		i, ok := m.seatOf(r.userID)
		if !ok {
			return store.Event{}, "", refuse(locales.ErrNotInGame)
		}
		m.stored.Seats = append(m.stored.Seats[:i], m.stored.Seats[i+1:]...)
		m.recolor()
		if m.stored.HostID == r.userID {
			for _, s := range m.stored.Seats {
				if s.Computer == "" {
					m.stored.HostID = s.UserID
					break
				}
			}
		}
		return store.Event{Kind: store.EventLeave, UserID: r.userID}, locales.LobbyLeft, nil
	}
}

// addComputer seats a computer player of level.
func addComputer(r *request, level string) lobbyChange {
	return func(m *match) (store.Event, msg, error) {
		if _, err := ai.ParseLevel(level); err != nil {
			return store.Event{}, "", refuse(locales.ErrBadLevel)
		}
		if _, ok := m.seatOf(r.userID); !ok && m.stored.HostID != r.userID {
			return store.Event{}, "", refuse(locales.ErrNotInGame)
		}
		if len(m.stored.Seats) >= m.stored.Options.Seats {
			return store.Event{}, "", refuse(locales.ErrLobbyFull)
		}
		m.stored.Seats = append(m.stored.Seats, store.Seat{Computer: level, Name: level})
		m.recolor()
		return store.Event{Kind: store.EventJoin, UserID: r.userID, Data: "ai:" + level}, locales.LobbyComputerAdded, nil
	}
}

// openGame finds the game a command in the request's channel is about:
// the game of the thread it is run in, else the channel's one open game,
// else, of several, the newest that want accepts.
func (b *Bot) openGame(ctx context.Context, r *request, want func(*store.Game) bool) (*store.Game, error) {
	games, err := b.db.OpenGames(ctx, r.i.GuildID, r.i.ChannelID)
	if err != nil {
		return nil, err
	}
	for _, sg := range games {
		if sg.ThreadID == r.i.ChannelID {
			return sg, nil
		}
	}
	switch {
	case len(games) == 0:
		return nil, refuse(locales.ErrNoGameHere)
	case len(games) == 1:
		return games[0], nil
	}
	for _, sg := range games {
		if want(sg) {
			return sg, nil
		}
	}
	return nil, refuse(locales.ErrWhichGame)
}

// seated accepts the games userID sits in.
func seated(userID string) func(*store.Game) bool {
	return func(sg *store.Game) bool {
		for _, s := range sg.Seats {
			if s.UserID == userID && !s.Left {
				return true
			}
		}
		return false
	}
}

// hosted accepts the games userID hosts.
func hosted(userID string) func(*store.Game) bool {
	return func(sg *store.Game) bool { return sg.HostID == userID }
}

// lobby accepts the games still in their lobby.
func lobby(sg *store.Game) bool { return sg.Status == store.StatusLobby }

func (b *Bot) cmdJoin(ctx context.Context, r *request, _ options) error {
	sg, err := b.openGame(ctx, r, lobby)
	if err != nil {
		return err
	}
	return b.lobbyAction(ctx, r, sg.ID, join(r))
}

func (b *Bot) cmdLeave(ctx context.Context, r *request, _ options) error {
	sg, err := b.openGame(ctx, r, seated(r.userID))
	if err != nil {
		return err
	}
	if sg.Status == store.StatusRunning {
		return b.askResign(r, sg)
	}
	return b.lobbyAction(ctx, r, sg.ID, leave(r))
}

func (b *Bot) cmdStart(ctx context.Context, r *request, _ options) error {
	sg, err := b.openGame(ctx, r, func(sg *store.Game) bool { return lobby(sg) && hosted(r.userID)(sg) })
	if err != nil {
		return err
	}
	return b.start(ctx, r, sg.ID)
}

// start turns the lobby into a running game: who begins is drawn at random.
func (b *Bot) start(ctx context.Context, r *request, id int64) error {
	return b.change(ctx, r, id, func(m *match) error {
		switch {
		case m.stored.Status == store.StatusRunning:
			return refuse(locales.ErrAlreadyStarted)
		case m.stored.Status != store.StatusLobby:
			return refuse(locales.ErrGameEnded)
		case m.stored.HostID != r.userID:
			return refuse(locales.ErrOnlyHostStarts)
		case len(m.stored.Seats) < 2:
			return refuse(locales.ErrNeedTwo)
		}
		var players []engine.Color
		for _, s := range m.stored.Seats {
			players = append(players, seatColor(&s))
		}
		first := b.draw(len(players))
		g, err := engine.NewGame(players, players[first], m.rules())
		if err != nil {
			return err
		}
		m.game = g
		m.stored.Status = store.StatusRunning
		m.record(store.EventStart, r.userID, players[first].String(), "")
		if m.stored.LobbyMessageID == "" && r.isClick() && r.i.Message != nil {
			// Clicked before the lobby's ID was recorded: the click names
			// it (for the card's link; the store keeps the recorded one).
			m.stored.LobbyMessageID = r.i.Message.ID
		}
		m.beginTurn()
		started := b.cardData(m)
		if r.isClick() {
			m.answer(discordgo.InteractionResponseUpdateMessage, started, nil)
		} else {
			m.answerPrivate(tr(r.lang, locales.LobbyStartedReply))
			m.edit(store.RoleLobby, started, false)
		}
		if m.stored.Threaded {
			m.startThread(b.threadName(m))
		}
		// The opener: who plays, who begins, and the turns that played
		// themselves before the first turn message.
		at := len(m.effects)
		lines := []string{b.lineUp(m), tr(m.stored.Locale, locales.TurnFirst, b.seatLabel(m, m.seatByColor(players[first])))}
		more, err := b.advance(m)
		if err != nil {
			return err
		}
		opener := view{content: joinLines(append(lines, more...))}
		m.post(opener, "")
		last := len(m.effects) - 1
		m.effects = slices.Insert(m.effects[:last], at, m.effects[last])
		return nil
	})
}

// lineUp is the opener's line of who plays in which colour.
func (b *Bot) lineUp(m *match) string {
	var who []string
	for i := range m.stored.Seats {
		s := &m.stored.Seats[i]
		if s.UserID != "" && s.Computer == "" {
			who = append(who, colorEmoji[seatColor(s)]+" "+mention(s.UserID))
		} else {
			who = append(who, b.seatLabel(m, s))
		}
	}
	return tr(m.stored.Locale, locales.ThreadLineUp, m.stored.ID, strings.Join(who, ", "))
}

// cancel ends a lobby or a running game without a result. Once the first
// turn has been played, a host who is not a moderator needs the other
// players' agreement: a vote opens instead.
func (b *Bot) cancel(ctx context.Context, r *request, id int64) error {
	return b.change(ctx, r, id, func(m *match) error {
		sg := m.stored
		if !sg.Status.Open() {
			return refuse(locales.ErrGameEnded)
		}
		manager := r.perms&(discordgo.PermissionManageGuild|discordgo.PermissionManageChannels|discordgo.PermissionAdministrator) != 0
		if sg.HostID != r.userID && !manager {
			return refuse(locales.ErrOnlyHostCancels)
		}
		if !manager && sg.Status == store.StatusRunning && m.firstTurnPlayed() && len(m.otherHumans(r.userID)) > 0 {
			return b.askCancel(m, r)
		}
		wasLobby := sg.Status == store.StatusLobby
		text := tr(sg.Locale, locales.GameCancelledBy, quote(r.name))
		closed := closedData(text)
		if r.isClick() {
			m.answer(discordgo.InteractionResponseUpdateMessage, closed, nil)
		} else {
			m.answer(discordgo.InteractionResponseChannelMessageWithSource,
				&discordgo.InteractionResponseData{Content: text, AllowedMentions: &discordgo.MessageAllowedMentions{}}, nil)
		}
		if wasLobby {
			sg.Status = store.StatusCancelled
			sg.WakeAt, sg.Deadline, sg.RemindAt = time.Time{}, time.Time{}, time.Time{}
			m.record(store.EventCancel, r.userID, "", "")
			if !r.isClick() {
				m.edit(store.RoleLobby, closed, false)
			}
			return nil
		}
		m.edit(store.RoleTurn, closed, false)
		b.endWithoutResult(m, r.userID, "")
		return nil
	})
}

// endWithoutResult cancels the running game: the reminder goes, the card
// says so, the thread is archived.
func (b *Bot) endWithoutResult(m *match, by, why string) {
	sg := m.stored
	sg.Status = store.StatusCancelled
	sg.WakeAt, sg.Deadline, sg.RemindAt = time.Time{}, time.Time{}, time.Time{}
	sg.Options.CancelVote = nil
	m.record(store.EventCancel, by, "", why)
	m.dropReminder()
	m.edit(store.RoleLobby, b.cardData(m), false)
	m.archive()
}

func (b *Bot) cmdCancel(ctx context.Context, r *request, _ options) error {
	sg, err := b.openGame(ctx, r, hosted(r.userID))
	if err != nil {
		return err
	}
	return b.cancel(ctx, r, sg.ID)
}
