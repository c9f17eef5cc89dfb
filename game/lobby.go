package game

import (
	"context"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine/ai"
)

// FieldKind is the kind of value a lobby option takes.
type FieldKind string

// The kinds of lobby options.
const (
	Int    FieldKind = "int"
	String FieldKind = "string"
	Bool   FieldKind = "bool"
)

// LobbyField is an option of a new lobby: /malefiz new's option and a
// field of the board's new-game form alike.
type LobbyField struct {
	Name     string // e.g. "seats"
	Kind     FieldKind
	Desc     locales.Key // what it is, in a reader's language
	Min, Max int         // an Int's range
	// Choices are a String's values; none means free text.
	Choices []LobbyChoice
}

// LobbyChoice is a choice of a LobbyField.
type LobbyChoice struct {
	Value string
	Label locales.Key
}

// TimeoutChoices are the turn timeouts offered to a new lobby and a
// server's settings.
var TimeoutChoices = []LobbyChoice{
	{"5m", locales.Timeout5m}, {"15m", locales.Timeout15m}, {"1h", locales.Timeout1h}, {"6h", locales.Timeout6h},
	{"12h", locales.Timeout12h}, {"24h", locales.Timeout24h}, {"72h", locales.Timeout3d}, {"168h", locales.Timeout7d},
}

// RollChoices are the roll modes.
var RollChoices = []LobbyChoice{{table.RollAuto, locales.RollAuto}, {table.RollButton, locales.RollButton}}

// LevelChoices are the computer levels offered to players.
func LevelChoices() []LobbyChoice {
	var out []LobbyChoice
	for _, l := range ai.Levels() {
		out = append(out, LobbyChoice{Value: string(l), Label: locales.Level(string(l))})
	}
	return out
}

// LobbyFields are the options of a new lobby, in the order offered.
func LobbyFields() []LobbyField {
	return []LobbyField{
		{Name: "seats", Kind: Int, Desc: locales.OptSeats, Min: 2, Max: 4},
		{Name: "bots", Kind: Int, Desc: locales.OptBots, Min: 0, Max: 3},
		{Name: "level", Kind: String, Desc: locales.OptLevel, Choices: LevelChoices()},
		{Name: "turn-timeout", Kind: String, Desc: locales.OptTurnTimeout, Choices: TimeoutChoices},
		{Name: "roll", Kind: String, Desc: locales.OptRoll, Choices: RollChoices},
		{Name: "six-again", Kind: Bool, Desc: locales.OptSixAgain},
		{Name: "safe-row-2", Kind: Bool, Desc: locales.OptSafeRow2},
	}
}

// FormField is a LobbyField as the board's new-game form shows it, in
// its reader's language.
type FormField struct {
	Name     string       // the option's name, e.g. "seats"
	Kind     string       // "int", "string" or "bool"
	Label    string       // the option's description
	Min, Max int          // an int's range
	Choices  []FormChoice // a string's choices; none means free text
}

// FormChoice is a choice of a FormField.
type FormChoice struct{ Value, Label string }

// LobbyForm returns the options of a new lobby in lang.
func LobbyForm(lang string) []FormField {
	var out []FormField
	for _, f := range LobbyFields() {
		ff := FormField{Name: f.Name, Kind: string(f.Kind), Label: locales.Tr(lang, f.Desc), Min: f.Min, Max: f.Max}
		for _, c := range f.Choices {
			ff.Choices = append(ff.Choices, FormChoice{Value: c.Value, Label: locales.Tr(lang, c.Label)})
		}
		out = append(out, ff)
	}
	return out
}

// ParseTimeout reads a turn-timeout choice; "" means the server's.
func ParseTimeout(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 5*time.Minute || d > 7*24*time.Hour {
		return 0, table.Refuse(locales.ErrBadTimeout)
	}
	return d, nil
}

// NewLobby asks for a new game's lobby.
type NewLobby struct {
	Guild, Channel string
	// User opens it and hosts it.
	User table.Actor
	// Lang is the language of what the channel reads of the game.
	Lang string
	// Threads: the game may get a thread of its own, when the server
	// plays in threads (not in a thread, and where the bot may make one).
	Threads bool
	// Values are the options by LobbyFields' names, as JSON decodes
	// them (a number, a string, a bool); a missing one means the
	// default.
	Values map[string]any
	// Via is the interaction answered with the lobby message, which
	// becomes the game's; nil: the lobby message is posted.
	Via *Via
}

// lobbyOptions reads values against LobbyFields, with s's defaults and
// the server's roll: the same checks for every front-end.
func (s *Service) lobbyOptions(values map[string]any, gs malefiz.GuildSettings) (opts malefiz.Options, bots int, level string, err error) {
	ints := map[string]int{"seats": s.defaults.Seats, "bots": 0}
	strs := map[string]string{"level": s.defaults.Level, "turn-timeout": "", "roll": ServerRoll(gs)}
	bools := map[string]bool{"six-again": s.defaults.SixAgain, "safe-row-2": s.defaults.SafeRow2}
	for _, f := range LobbyFields() {
		v, ok := values[f.Name]
		if !ok || v == nil {
			continue
		}
		switch f.Kind {
		case Int:
			var n int
			switch x := v.(type) {
			case float64:
				n = int(x)
				if float64(n) != x {
					return opts, 0, "", table.Refuse(locales.ErrUnknownCommand)
				}
			case int:
				n = x
			default:
				return opts, 0, "", table.Refuse(locales.ErrUnknownCommand)
			}
			ints[f.Name] = n
		case Bool:
			b, ok := v.(bool)
			if !ok {
				return opts, 0, "", table.Refuse(locales.ErrUnknownCommand)
			}
			bools[f.Name] = b
		case String:
			str, ok := v.(string)
			if !ok {
				return opts, 0, "", table.Refuse(locales.ErrUnknownCommand)
			}
			if str != "" {
				strs[f.Name] = str
			}
		}
	}
	seats, bots, level := ints["seats"], ints["bots"], strs["level"]
	if seats < 2 || seats > 4 {
		return opts, 0, "", table.Refuse(locales.ErrBadSeats)
	}
	if bots < 0 || bots >= seats {
		return opts, 0, "", table.Refuse(locales.ErrBadBots, seats-1)
	}
	if _, err := ai.ParseLevel(level); err != nil {
		return opts, 0, "", table.Refuse(locales.ErrBadLevel)
	}
	timeout, err := ParseTimeout(strs["turn-timeout"])
	if err != nil {
		return opts, 0, "", err
	}
	roll := strs["roll"]
	if roll != table.RollAuto && roll != table.RollButton {
		return opts, 0, "", table.Refuse(locales.ErrUnknownCommand)
	}
	return malefiz.Options{Seats: seats, TurnTimeout: timeout, Roll: roll,
		SixAgain: bools["six-again"], SafeRow2: bools["safe-row-2"]}, bots, level, nil
}

// ServerRoll is the server's roll mode for new games.
func ServerRoll(gs malefiz.GuildSettings) string {
	if gs.Roll == table.RollButton {
		return table.RollButton
	}
	return table.RollAuto
}

// Open opens a lobby as n asks, checked as every front-end's is: the game
// and its lobby message committed together. Answered by an interaction
// (n.Via), the outcome's Reply is the lobby message, which becomes the
// game's once Discord has made it; else the message is posted.
func (s *Service) Open(ctx context.Context, n NewLobby) (*Outcome, error) {
	if n.Guild == "" || n.Channel == "" {
		return nil, table.Refuse(locales.ErrNoGameHere)
	}
	gs, err := s.db.GuildSettings(ctx, n.Guild)
	if err != nil {
		return nil, err
	}
	opts, bots, level, err := s.lobbyOptions(n.Values, gs)
	if err != nil {
		return nil, err
	}
	// One opening at a time per server, so that two at once cannot both
	// pass the bounds on its lobbies.
	unlock := s.locks.Lock(guildLock(n.Guild))
	defer unlock()
	if err := s.checkLobbies(ctx, n.Guild, n.Channel, n.User.UserID); err != nil {
		return nil, err
	}
	host := n.User
	sg := &malefiz.Game{GuildID: n.Guild, ChannelID: n.Channel, HostID: host.UserID, Status: malefiz.StatusLobby,
		Options: opts, Locale: n.Lang, WakeAt: s.now().Add(table.LobbyLifetime), Threaded: gs.Threads && n.Threads}
	open := func(t *table.Table) {
		t.Open(host, bots, level)
		if n.Via != nil {
			// The answer is the lobby message: its ID is recorded
			// once Discord has made it.
			t.AdoptLobby()
		}
	}
	var named func(t *table.Table)
	if n.Via == nil {
		named = (*table.Table).PostLobby
	}
	return s.create(ctx, n.Via, sg, gs, open, named, func(t *table.Table) *table.Reply {
		if n.Via == nil {
			return nil
		}
		return &table.Reply{Kind: table.Public, Message: t.LobbyMessage()}
	})
}

// checkLobbies refuses a new lobby of user in a channel once the user
// hosts the bound of lobbies in the server or the channel holds its own
// (see table.LobbyCaps). The caller holds guildLock(guild).
func (s *Service) checkLobbies(ctx context.Context, guild, channel, user string) error {
	games, err := s.db.OpenGames(ctx, guild, channel)
	if err != nil {
		return err
	}
	hosted, err := s.db.HostedLobbies(ctx, guild, user)
	if err != nil {
		return err
	}
	return s.defaults.Lobbies.CheckOpen(games, hosted)
}

// guildLock is the key of the lock of a server's lobby openings:
// negative, as a rematch's (games have positive IDs), and below every
// game's -ID.
func guildLock(guild string) int64 {
	h := fnv.New64a()
	h.Write([]byte(guild))
	return -int64(h.Sum64()>>2) - 1<<62
}

// Rematch is the Rematch button of a finished game's result.
type Rematch struct {
	Of             int64 // the finished game
	Guild, Channel string
	User           table.Actor
	Via            *Via
}

// Rematch answers Rematch: the first click opens a new lobby in the same
// channel with the same options and computer players, its clicker the
// host; later clicks take a seat in it.
func (s *Service) Rematch(ctx context.Context, c Rematch) (*Outcome, error) {
	unlock := s.locks.Lock(-c.Of) // one rematch at a time per game; games have positive IDs
	defer unlock()
	old, err := s.db.Game(ctx, c.Of)
	if err != nil {
		return nil, table.Refuse(locales.ErrNoSuchGame)
	}
	if c.Guild != old.GuildID || (c.Channel != old.ChannelID && c.Channel != old.ThreadID) {
		return nil, table.Refuse(locales.ErrForeignButton)
	}
	if old.Status != malefiz.StatusFinished {
		return nil, table.Refuse(locales.ErrNoRematch)
	}
	open, err := s.db.OpenGames(ctx, old.GuildID, old.ChannelID)
	if err != nil {
		return nil, err
	}
	for _, sg := range open {
		if sg.Options.RematchOf == c.Of && sg.Status == malefiz.StatusLobby {
			// Later clicks take a seat in it; the click is on the
			// finished game's message, checked above.
			return s.Change(ctx, Command{Game: sg.ID, User: c.User, Guild: c.Guild, Via: c.Via, Action: JoinRematch{}})
		}
	}
	// The first click opens a lobby, bounded as every opening is; the
	// lock of the game's rematch is taken before the server's, never
	// after.
	unlockGuild := s.locks.Lock(guildLock(old.GuildID))
	defer unlockGuild()
	if err := s.checkLobbies(ctx, old.GuildID, old.ChannelID, c.User.UserID); err != nil {
		return nil, err
	}
	gs, err := s.db.GuildSettings(ctx, old.GuildID)
	if err != nil {
		return nil, err
	}
	opts := old.Options
	opts.RematchOf = c.Of
	sg := &malefiz.Game{GuildID: old.GuildID, ChannelID: old.ChannelID, HostID: c.User.UserID, Status: malefiz.StatusLobby,
		Options: opts, Locale: old.Locale, WakeAt: s.now().Add(table.LobbyLifetime), Threaded: old.Threaded}
	// The lobby message names the new game in its buttons: it is
	// decided once the store knows the game's ID, and committed with the
	// game, in one transaction.
	return s.create(ctx, c.Via, sg, gs, func(t *table.Table) { t.OpenRematch(c.User, old) }, (*table.Table).PostLobby,
		func(t *table.Table) *table.Reply {
			return &table.Reply{Kind: table.Private, Message: table.Text(locales.Tr(c.User.Lang, locales.RematchOpened, t.Game.ID, "<#"+t.Game.ChannelID+">"))}
		})
}

// create is the path of a new game: open fills the table of game sg, not
// saved yet; named, when set, adds what names the game (a lobby message
// whose buttons carry its ID), decided once the store knows the ID and
// committed in the same transaction as the game (see store.Commit's
// Created); reply, which may use the new game's ID, is the answer.
func (s *Service) create(ctx context.Context, via *Via, sg *malefiz.Game, gs malefiz.GuildSettings, open, named func(t *table.Table), reply func(t *table.Table) *table.Reply) (*Outcome, error) {
	t := &table.Table{Game: sg, Settings: gs, Now: s.now(), Dice: s.dice, Dirty: true, Activity: s.activity}
	open(t)
	c, efs, err := s.commit(ctx, via, t, named)
	if err != nil {
		return nil, err
	}
	if t.Game.ID == 0 {
		return nil, fmt.Errorf("game: a new game committed without an ID")
	}
	t.Reply = reply(t)
	// A new game: no delivery recorded its IDs.
	return &Outcome{Table: t, Reply: t.Reply, Committed: true, delivery: s.out.Reserve(c, efs), loaded: time.Now()}, nil
}
