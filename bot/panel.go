package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/game"
)

// panel answers the subcommands that change no game: the statistics, the
// history and replays of finished games, /malefiz games, and the users'
// and servers' settings.
type panel struct {
	db  panelStore
	log *slog.Logger
	now func() time.Time
	// activity: the bot serves its Activity (a replay offers the game's
	// review on the board).
	activity bool
}

// panelStore is what the panel reads and writes.
type panelStore interface {
	Stats
	Settings
	Game(ctx context.Context, id int64) (*malefiz.Game, error)
	Events(ctx context.Context, gameID int64) ([]malefiz.Event, error)
	UserGames(ctx context.Context, guildID, userID string) ([]*malefiz.Game, error)
}

// table makes the table of a stored game to show it, with its server's
// settings.
func (p *panel) table(ctx context.Context, sg *malefiz.Game) (*table.Table, error) {
	gs, err := p.db.GuildSettings(ctx, sg.GuildID)
	if err != nil {
		return nil, err
	}
	return table.New(sg, gs, p.now(), nil)
}

func (p *panel) cmdSettings(ctx context.Context, r *request, o options) error {
	if r.perms&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) == 0 {
		return refuse(locales.ErrNeedManageServer)
	}
	s, err := p.db.GuildSettings(ctx, r.i.GuildID)
	if err != nil {
		return err
	}
	changed := false
	if v := o.string("turn-timeout", ""); v != "" {
		d, err := game.ParseTimeout(v)
		if err != nil {
			return err
		}
		s.TurnTimeout, changed = d, true
	}
	if _, ok := o["reminders"]; ok {
		s.Reminders, changed = o.bool("reminders", true), true
	}
	if _, ok := o["threads"]; ok {
		s.Threads, changed = o.bool("threads", true), true
	}
	if _, ok := o["chances"]; ok {
		s.Chances, changed = o.bool("chances", true), true
	}
	if _, ok := o["hints"]; ok {
		s.Hints, changed = o.bool("hints", false), true
	}
	if v := o.string("roll", ""); v != "" {
		if v != table.RollAuto && v != table.RollButton {
			return refuse(locales.ErrUnknownCommand)
		}
		s.Roll, changed = v, true
	}
	s.Roll = game.ServerRoll(s)
	if changed {
		if err := p.db.SetGuildSettings(ctx, r.i.GuildID, s); err != nil {
			return err
		}
	}
	r.replyPrivate(ctx, settingsText(catalog, r.lang, changed, s))
	return nil
}

// rollLabel is the key of the label of the roll option's choice value.
func rollLabel(value string) msg {
	if value == table.RollButton {
		return locales.RollButton
	}
	return locales.RollAuto
}

// settingsText is the answer to /malefiz settings in lang: the server's
// settings, saved after a change: each choice by its name in lang (as
// Discord's list of the option shows it), never by its stored value, and
// each on/off setting by the word of lang for it.
func settingsText(c *locales.Catalog, lang string, saved bool, s malefiz.GuildSettings) string {
	onOff := func(on bool) string {
		if on {
			return c.Tr(lang, locales.On)
		}
		return c.Tr(lang, locales.Off)
	}
	key := locales.SettingsNow
	if saved {
		key = locales.SettingsSaved
	}
	return c.Tr(lang, key, table.FormatDuration(lang, s.TurnTimeout), onOff(s.Reminders), onOff(s.Threads),
		c.Choice(lang, rollLabel(game.ServerRoll(s))), onOff(s.Chances), onOff(s.Hints))
}
