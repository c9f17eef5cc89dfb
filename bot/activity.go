package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/store"
)

// Play applies a play made in the Activity by user on game id: the
// decision of the click with the same custom ID (table.Play), by the one
// path of every change (change): the game's lock, its version, one commit,
// the same effects in the thread. A play and a click at once apply once:
// the second finds its turn over. user must be known from Discord (the
// Activity's session), never from what the page says; guild is the
// guild the session was opened in: a game of another guild is not found.
func (b *Bot) Play(ctx context.Context, id int64, guild string, user table.Actor, play table.CustomID) error {
	play.Game = id
	return b.change(ctx, nil, id, func(t *table.Table) error {
		if err := inGuild(t, guild); err != nil {
			return err
		}
		return t.Play(user, play)
	})
}

// inGuild refuses a game that is not of guild as if it did not exist:
// the Activity reads and plays only the games of the guild it was opened
// in, and learns nothing of the others.
func inGuild(t *table.Table, guild string) error {
	if guild == "" || t.Game.GuildID != guild {
		return refuse(locales.ErrUnknownGame, t.Game.ID)
	}
	return nil
}

// The lobby actions of the Activity (Bot.Lobby).
const (
	LobbyJoin  = "join"
	LobbyLeave = "leave"
	LobbyStart = "start"
)

// Lobby applies a lobby action made in the Activity by user on game id:
// take a seat, give it up, or start (the host), the decisions of the
// lobby's buttons by the one path of every change; the lobby message in
// the channel is edited as for a command. A game of another guild than
// guild is not found.
func (b *Bot) Lobby(ctx context.Context, id int64, guild string, user table.Actor, act string) error {
	user.Click, user.MessageID = false, ""
	var decide action
	switch act {
	case LobbyJoin:
		decide = changeLobby(user, table.Join(user))
	case LobbyLeave:
		decide = changeLobby(user, table.Leave(user))
	case LobbyStart:
		decide = startGame(b.draw, user)
	default:
		return refuse(locales.ErrUnknownButton)
	}
	return b.change(ctx, nil, id, func(t *table.Table) error {
		if err := inGuild(t, guild); err != nil {
			return err
		}
		t.Touch(user.UserID)
		return decide(t)
	})
}

// Live returns game id as userID sees it in the Activity, in lang; a game
// of another guild than guild is not found.
func (b *Bot) Live(ctx context.Context, id int64, guild, userID, lang string) (table.Live, error) {
	t, err := b.load(ctx, id, nil)
	if err != nil {
		return table.Live{}, err
	}
	if err := inGuild(t, guild); err != nil {
		return table.Live{}, err
	}
	return t.Live(userID, lang), nil
}

// Refusal returns what a user reads for err, the error of Play or Live,
// in lang; refused reports that err is a refusal the user caused (nothing
// changed) rather than a failure to log.
func Refusal(err error, lang string) (text string, refused bool) {
	var ue *userError
	switch {
	case errors.As(err, &ue):
		return tr(lang, ue.Key, ue.Args...), true
	case errors.Is(err, store.ErrConflict):
		return tr(lang, locales.ErrTooLate), true
	case errors.Is(err, engine.ErrGameOver):
		return tr(lang, locales.ErrGameOver), true
	}
	return tr(lang, locales.ErrNothingChanged), false
}

// ChannelGames returns the open games (lobbies and running games) of a
// channel, or of the game whose thread it is, those where userID holds a
// seat first: the games the Activity opened there offers.
func (b *Bot) ChannelGames(ctx context.Context, guildID, channelID, userID string) ([]*malefiz.Game, error) {
	games, err := b.db.OpenGames(ctx, guildID, channelID)
	if err != nil {
		return nil, err
	}
	for _, sg := range games {
		if sg.ThreadID == channelID {
			return []*malefiz.Game{sg}, nil
		}
	}
	mine, others := []*malefiz.Game{}, []*malefiz.Game{}
	for _, sg := range games {
		if seated(userID)(sg) {
			mine = append(mine, sg)
		} else {
			others = append(others, sg)
		}
	}
	return append(mine, others...), nil
}

// InteractionResponseLaunchActivity is Discord's LAUNCH_ACTIVITY callback:
// the client opens the app's Activity for the user who clicked (discordgo
// has no name for it).
const InteractionResponseLaunchActivity discordgo.InteractionResponseType = 12

// launchActivity answers Play on the board: Discord opens the Activity,
// which finds the game of the channel it is opened in.
func launchActivity(r *request) error {
	return r.respond(&discordgo.InteractionResponse{Type: InteractionResponseLaunchActivity})
}

// commandTypeEntryPoint is the type of the app's Entry Point command
// (PRIMARY_ENTRY_POINT), and entryPointLaunch its handler that lets
// Discord open the Activity itself (DISCORD_LAUNCH_ACTIVITY); discordgo
// names neither.
const (
	commandTypeEntryPoint = 4
	entryPointLaunch      = 2
)

// registerWithEntryPoint overwrites the global commands with cmds and the
// app's Entry Point command: Discord refuses a global overwrite that
// leaves it out once Activities are on. The one registered is kept as it
// is (the developer portal may have renamed it); without one, the bot
// registers "launch".
func (b *Bot) registerWithEntryPoint(appID string, cmds []*discordgo.ApplicationCommand) error {
	endpoint := discordgo.EndpointApplicationGlobalCommands(appID)
	body, err := b.dc.RequestWithBucketID(http.MethodGet, endpoint, nil, endpoint)
	if err != nil {
		return fmt.Errorf("read the global commands: %w", err)
	}
	var registered []json.RawMessage
	if err := json.Unmarshal(body, &registered); err != nil {
		return fmt.Errorf("read the global commands: %w", err)
	}
	payload := make([]any, 0, len(cmds)+1)
	for _, c := range cmds {
		payload = append(payload, c)
	}
	var entry any = map[string]any{"name": "launch", "type": commandTypeEntryPoint, "handler": entryPointLaunch,
		"description": tr(locales.Source, locales.ButtonBoard)}
	for _, raw := range registered {
		var head struct{ Type int }
		if json.Unmarshal(raw, &head) == nil && head.Type == commandTypeEntryPoint {
			entry = raw
		}
	}
	payload = append(payload, entry)
	if _, err := b.dc.RequestWithBucketID(http.MethodPut, endpoint, payload, endpoint); err != nil {
		return fmt.Errorf("register the global commands with the Entry Point: %w", err)
	}
	return nil
}

// Owner names this process in the store's claims and in the changes it
// commits (store.Commit.Owner): a replica listening for changes skips its
// own.
func (b *Bot) Owner() string { return b.owner }

// FormField is an option of /malefiz new as the Activity's form for a new
// lobby shows it, in the reader's language: the same options, limits and
// choices as the command's, read from its definition.
type FormField struct {
	Name     string       // the option's name, e.g. "seats"
	Kind     string       // "int", "string" or "bool"
	Label    string       // the option's description
	Min, Max int          // an int's range
	Choices  []FormChoice // a string's choices; none means free text
}

// FormChoice is a choice of a FormField.
type FormChoice struct{ Value, Label string }

// NewLobbyForm returns the options of /malefiz new in lang.
func (b *Bot) NewLobbyForm(lang string) []FormField {
	var out []FormField
	for _, s := range b.subcommands {
		if s.name != "new" {
			continue
		}
		for _, o := range s.options {
			f := FormField{Name: o.Name, Label: localized(o.Description, o.DescriptionLocalizations, lang)}
			switch o.Type {
			case discordgo.ApplicationCommandOptionInteger:
				f.Kind, f.Max = "int", int(o.MaxValue)
				if o.MinValue != nil {
					f.Min = int(*o.MinValue)
				}
			case discordgo.ApplicationCommandOptionBoolean:
				f.Kind = "bool"
			default:
				f.Kind = "string"
			}
			for _, c := range o.Choices {
				f.Choices = append(f.Choices, FormChoice{Value: fmt.Sprint(c.Value), Label: localized(c.Name, c.NameLocalizations, lang)})
			}
			out = append(out, f)
		}
	}
	return out
}

// localized returns the text of a command's name or description that
// Discord shows a client in lang.
func localized(en string, l map[discordgo.Locale]string, lang string) string {
	for _, locale := range discordLocalesOf(lang) {
		if s, ok := l[locale]; ok {
			return s
		}
	}
	return en
}

// NewLobby opens a lobby in channel of guild for user from the Activity,
// with the options of /malefiz new (values by option name, as
// NewLobbyForm names them; others are ignored) and the same checks, made
// as a rematch's lobby is: the game and its lobby message committed
// together, the message then posted in the channel. In a thread
// (inThread) the game stays in it; elsewhere it gets a thread of its own
// when the server plays in threads. It returns the new game's ID.
func (b *Bot) NewLobby(ctx context.Context, guild, channel string, inThread bool, user table.Actor, values map[string]any) (int64, error) {
	if guild == "" || channel == "" {
		return 0, refuse(locales.ErrNoGameHere)
	}
	o := options{}
	for _, f := range b.NewLobbyForm(locales.Source) {
		v, ok := values[f.Name]
		if !ok || v == nil {
			continue
		}
		opt := &discordgo.ApplicationCommandInteractionDataOption{Name: f.Name, Value: v}
		switch _, isNum := v.(float64); {
		case f.Kind == "int" && isNum:
			opt.Type = discordgo.ApplicationCommandOptionInteger
		case f.Kind == "bool":
			if _, ok := v.(bool); !ok {
				return 0, refuse(locales.ErrUnknownCommand)
			}
			opt.Type = discordgo.ApplicationCommandOptionBoolean
		case f.Kind == "string":
			if s, ok := v.(string); !ok || s == "" {
				continue
			}
			opt.Type = discordgo.ApplicationCommandOptionString
		default:
			return 0, refuse(locales.ErrUnknownCommand)
		}
		o[f.Name] = opt
	}
	// The checks of cmdNew, on the same options.
	seats := o.int("seats", b.defaults.Seats)
	bots := o.int("bots", 0)
	level := o.string("level", b.defaults.Level)
	if seats < 2 || seats > 4 {
		return 0, refuse(locales.ErrBadSeats)
	}
	if bots < 0 || bots >= seats {
		return 0, refuse(locales.ErrBadBots, seats-1)
	}
	if _, err := ai.ParseLevel(level); err != nil {
		return 0, refuse(locales.ErrBadLevel)
	}
	timeout, err := parseTimeout(o.string("turn-timeout", ""))
	if err != nil {
		return 0, err
	}
	gs, err := b.db.GuildSettings(ctx, guild)
	if err != nil {
		return 0, err
	}
	roll := o.string("roll", serverRoll(gs))
	if roll != table.RollAuto && roll != table.RollButton {
		return 0, refuse(locales.ErrUnknownCommand)
	}
	user.Click, user.MessageID = false, ""
	sg := &malefiz.Game{
		GuildID: guild, ChannelID: channel, HostID: user.UserID, Status: malefiz.StatusLobby,
		Options: malefiz.Options{Seats: seats, TurnTimeout: timeout, Roll: roll,
			SixAgain: o.bool("six-again", b.defaults.SixAgain), SafeRow2: o.bool("safe-row-2", b.defaults.SafeRow2)},
		// No interaction says the server's language: the lobby speaks
		// its host's.
		Locale:   user.Lang,
		WakeAt:   b.now().Add(lobbyLifetime),
		Threaded: gs.Threads && !inThread,
	}
	// No interaction to answer: the lobby message is posted, decided
	// once the store knows the ID its buttons name and committed with
	// the game in one transaction, as a rematch's is.
	err = b.create(ctx, nil, sg, gs, func(t *table.Table) error {
		t.Open(user, bots, level)
		return nil
	}, postLobby, func(*table.Table) error { return nil })
	if err != nil {
		return 0, err
	}
	return sg.ID, nil
}
