package bot

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
)

// tellDMRefused tells a user privately, once, that their last direct
// message was refused: the user's settings were read with the game the
// request acted on (see load); a request that loaded none tells nothing
// (the next one on a game will).
func (r *request) tellDMRefused(ctx context.Context, db Settings) {
	us, ok := r.settings, r.settingsRead
	if !ok || !us.DMRefused {
		return
	}
	r.settingsRead = false // told once
	us.DMRefused = false
	if err := db.SetUserSettings(ctx, r.userID, us); err != nil {
		r.log.Warn("could not clear a refused DM", "user", r.userID, "err", err)
		return
	}
	r.replyPrivate(ctx, tr(r.lang, locales.NotifyRefused))
}

// The values of /malefiz notify's ping option.
const (
	pingAlways = "always" // every turn pings
	pingAway   = "away"   // a turn pings unless the player acted in the game a few minutes ago
)

// pingChoices are the ping option's choices.
func pingChoices() []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, c := range []struct {
		value string
		label msg
	}{{pingAway, locales.PingAway}, {pingAlways, locales.PingAlways}} {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: tr("en", c.label), NameLocalizations: localizations(c.label), Value: c.value})
	}
	return out
}

func (p *panel) cmdNotify(ctx context.Context, r *request, o options) error {
	us, err := p.db.UserSettings(ctx, r.userID)
	if err != nil {
		return err
	}
	_, dm := o["dm"]
	_, ping := o["ping"]
	if dm {
		us.DM, us.DMRefused = o.bool("dm", false), false
	}
	if ping {
		us.PingAlways = o.string("ping", pingAway) == pingAlways
	}
	if dm || ping {
		if err := p.db.SetUserSettings(ctx, r.userID, us); err != nil {
			return err
		}
	}
	key, pings := locales.NotifyOff, locales.NotifyPingAway
	if us.DM {
		key = locales.NotifyOn
	}
	if us.PingAlways {
		pings = locales.NotifyPingAlways
	}
	r.replyPrivate(ctx, tr(r.lang, key)+"\n"+tr(r.lang, pings))
	return nil
}

// cmdGames lists the caller's lobbies and running games in this server,
// those where it is their turn first.
func (p *panel) cmdGames(ctx context.Context, r *request, _ options) error {
	games, err := p.db.UserGames(ctx, r.i.GuildID, r.userID)
	if err != nil {
		return err
	}
	type entry struct {
		mine bool
		line string
	}
	var entries []entry
	for _, sg := range games {
		t, err := p.table(ctx, sg)
		if err != nil {
			return err
		}
		entries = append(entries, entry{mine: t.ToMove() != nil && t.ToMove().UserID == r.userID && t.ToMove().Computer == "",
			line: t.GameLine(r.userID, r.lang)})
	}
	slices.SortStableFunc(entries, func(x, y entry) int {
		return cmp.Compare(boolInt(y.mine), boolInt(x.mine))
	})
	if len(entries) == 0 {
		r.replyPrivate(ctx, tr(r.lang, locales.GamesNone))
		return nil
	}
	var lines []string
	for _, e := range entries {
		lines = append(lines, e.line)
	}
	return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{},
			Embeds: []*discordgo.MessageEmbed{{Title: tr(r.lang, locales.GamesTitle), Description: strings.Join(lines, "\n"), Color: 0xE8B923}}}})
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}
