package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// lobbyLifetime is how long a lobby waits to be started before it closes.
const lobbyLifetime = table.LobbyLifetime

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
	if roll != table.RollAuto && roll != table.RollButton {
		return refuse(locales.ErrUnknownCommand)
	}
	sg := &malefiz.Game{
		GuildID: r.i.GuildID, ChannelID: r.i.ChannelID, HostID: r.userID, Status: malefiz.StatusLobby,
		Options: malefiz.Options{Seats: seats, TurnTimeout: timeout, Roll: roll,
			SixAgain: o.bool("six-again", b.defaults.SixAgain), SafeRow2: o.bool("safe-row-2", b.defaults.SafeRow2)},
		Locale:   r.guildLang,
		WakeAt:   b.now().Add(lobbyLifetime),
		Threaded: gs.Threads && canMakeThreads(r.i),
	}
	return b.create(ctx, r, sg, gs, func(t *table.Table) error {
		t.Open(actor(r), bots, level)
		// The response is the lobby message: its ID is recorded once
		// Discord has made it, so that later commands can edit it.
		t.AdoptLobby()
		return nil
	}, nil, func(t *table.Table) error {
		t.Reply = &table.Reply{Kind: table.Public, Message: t.LobbyMessage()}
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
func serverRoll(gs malefiz.GuildSettings) string {
	if gs.Roll == table.RollButton {
		return table.RollButton
	}
	return table.RollAuto
}

// openGame finds the game a command in the request's channel is about:
// the game of the thread it is run in, else the channel's one open game,
// else, of several, the newest that want accepts.
func (b *Bot) openGame(ctx context.Context, r *request, want func(*malefiz.Game) bool) (*malefiz.Game, error) {
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
func seated(userID string) func(*malefiz.Game) bool {
	return func(sg *malefiz.Game) bool {
		for _, s := range sg.Seats {
			if s.UserID == userID && !s.Left {
				return true
			}
		}
		return false
	}
}

// hosted accepts the games userID hosts.
func hosted(userID string) func(*malefiz.Game) bool {
	return func(sg *malefiz.Game) bool { return sg.HostID == userID }
}

// lobby accepts the games still in their lobby.
func lobby(sg *malefiz.Game) bool { return sg.Status == malefiz.StatusLobby }

// rematch answers the Rematch button of a finished game's result: the first
// click opens a new lobby in the same channel with the same options and
// computer players, its clicker the host; later clicks take a seat in it.
func (b *Bot) rematch(ctx context.Context, r *request, oldID int64) error {
	unlock := b.locks.Lock(-oldID) // one rematch at a time per game; games have positive IDs
	defer unlock()
	old, err := b.db.Game(ctx, oldID)
	if err != nil {
		return refuse(locales.ErrNoSuchGame)
	}
	if r.i.GuildID != old.GuildID || (r.i.ChannelID != old.ChannelID && r.i.ChannelID != old.ThreadID) {
		return refuse(locales.ErrForeignButton)
	}
	if old.Status != malefiz.StatusFinished {
		return refuse(locales.ErrNoRematch)
	}
	open, err := b.db.OpenGames(ctx, old.GuildID, old.ChannelID)
	if err != nil {
		return err
	}
	for _, sg := range open {
		if sg.Options.RematchOf == oldID && sg.Status == malefiz.StatusLobby {
			// Later clicks take a seat in it.
			r.originChecked = true // the click is on the finished game's message
			return b.change(ctx, r, sg.ID, func(t *table.Table) error { return t.JoinRematch(actor(r)) })
		}
	}
	gs, err := b.db.GuildSettings(ctx, old.GuildID)
	if err != nil {
		return err
	}
	opts := old.Options
	opts.RematchOf = oldID
	sg := &malefiz.Game{GuildID: old.GuildID, ChannelID: old.ChannelID, HostID: r.userID, Status: malefiz.StatusLobby,
		Options: opts, Locale: old.Locale, WakeAt: b.now().Add(lobbyLifetime), Threaded: old.Threaded}
	// The lobby message names the new game in its buttons: it is
	// decided once the store knows the game's ID, and committed with the
	// game, in one transaction.
	return b.create(ctx, r, sg, gs, func(t *table.Table) error {
		t.OpenRematch(actor(r), old)
		return nil
	}, postLobby, func(t *table.Table) error {
		t.Reply = &table.Reply{Kind: table.Private, Message: table.Text(tr(r.lang, locales.RematchOpened, t.Game.ID, "<#"+t.Game.ChannelID+">"))}
		return nil
	})
}

// postLobby posts the lobby message of a new game that no interaction
// answers with it (a rematch, a lobby opened in the Activity).
func postLobby(t *table.Table) error {
	t.PostLobby()
	return nil
}
