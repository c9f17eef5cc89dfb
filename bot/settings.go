package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
)

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
		d, err := parseTimeout(v)
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
	s.Roll = serverRoll(s)
	if changed {
		if err := p.db.SetGuildSettings(ctx, r.i.GuildID, s); err != nil {
			return err
		}
	}
	reminders := tr(r.lang, locales.Off)
	if s.Reminders {
		reminders = tr(r.lang, locales.On)
	}
	key := locales.SettingsNow
	if changed {
		key = locales.SettingsSaved
	}
	threads := tr(r.lang, locales.Off)
	if s.Threads {
		threads = tr(r.lang, locales.On)
	}
	chances := tr(r.lang, locales.Off)
	if s.Chances {
		chances = tr(r.lang, locales.On)
	}
	hints := tr(r.lang, locales.Off)
	if s.Hints {
		hints = tr(r.lang, locales.On)
	}
	r.replyPrivate(ctx, tr(r.lang, key, table.FormatDuration(r.lang, s.TurnTimeout), reminders, threads, s.Roll, chances)+
		"\n"+tr(r.lang, locales.SettingsHints, hints))
	return nil
}
