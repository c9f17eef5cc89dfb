package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// rematch answers the Rematch button of a finished game's result: the first
// click opens a new lobby in the same channel with the same options and
// computer players, its clicker the host; later clicks take a seat in it.
func (b *Bot) rematch(ctx context.Context, r *request, oldID int64) error {
	unlock := b.locks.lock(-oldID) // one rematch at a time per game; games have positive IDs
	defer unlock()
	old, err := b.db.Game(ctx, oldID)
	if err != nil {
		return refuse(locales.ErrNoSuchGame)
	}
	if r.i.GuildID != old.GuildID || (r.i.ChannelID != old.ChannelID && r.i.ChannelID != old.ThreadID) {
		return refuse(locales.ErrForeignButton)
	}
	if old.Status != store.StatusFinished {
		return refuse(locales.ErrNoRematch)
	}
	open, err := b.db.OpenGames(ctx, old.GuildID, old.ChannelID)
	if err != nil {
		return err
	}
	for _, sg := range open {
		if sg.Options.RematchOf == oldID && sg.Status == store.StatusLobby {
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
	sg := &store.Game{GuildID: old.GuildID, ChannelID: old.ChannelID, HostID: r.userID, Status: store.StatusLobby,
		Options: opts, Locale: old.Locale, WakeAt: b.now().Add(lobbyLifetime), Threaded: old.Threaded}
	err = b.create(ctx, r, sg, gs, func(t *table.Table) error {
		t.OpenRematch(actor(r), old)
		return nil
	}, func(t *table.Table) error {
		t.Reply = &table.Reply{Kind: table.Private, Message: table.Text(tr(r.lang, locales.RematchOpened, t.Game.ID, "<#"+t.Game.ChannelID+">"))}
		return nil
	})
	if err != nil {
		return err
	}
	// The lobby message names the new game in its buttons, so it is
	// posted once the game has its ID. Were it lost, the next Rematch
	// click posts it again (its edit reposts a missing lobby).
	return b.change(ctx, nil, sg.ID, func(t *table.Table) error {
		t.PostLobby()
		return nil
	})
}

// ratingLines are the rating changes of a finished game, one per seat:
// "🔴 <@1> 1512 → 1528 (+16)", a computer named as everywhere in lang
// ("🟢 Computer (normal) 1484 → 1468 (-16)").
func ratingLines(lang string, results []store.Result) []string {
	results = slices.Clone(results)
	sort.SliceStable(results, func(i, j int) bool { return colorIndex(results[i].Color) < colorIndex(results[j].Color) })
	var out []string
	for _, r := range results {
		who := table.Mention(r.Player)
		if r.Computer {
			who = tr(lang, locales.Computer, tr(lang, levelName(strings.TrimPrefix(r.Player, "ai:"))))
		}
		if i := colorIndex(r.Color); i >= 0 {
			who = table.ColorEmoji[i] + " " + who
		}
		before, after := int(r.RatingBefore+0.5), int(r.RatingAfter+0.5)
		out = append(out, fmt.Sprintf("%s %d → %d (%+d)", who, before, after, after-before))
	}
	return out
}

// colorIndex is the index of a stored colour name, -1 for none.
func colorIndex(name string) int {
	for i, c := range table.Colors {
		if c.String() == name {
			return i
		}
	}
	return -1
}

// withRatingsAtCommit completes the result posts among efs (and their
// stored payloads in stored, index for index) with the rating changes of
// rated, inside the commit that finishes the game.
func withRatingsAtCommit(lang string, rated []store.Result, efs []effect, stored []store.Effect) error {
	for i := range efs {
		if !efs[i].Ratings {
			continue
		}
		var body map[string]json.RawMessage
		if err := json.Unmarshal(efs[i].Body, &body); err != nil {
			return err
		}
		if err := withRatings(lang, rated, body); err != nil {
			return err
		}
		efs[i].Body, efs[i].Ratings = mustJSON(body), false
		se, err := efs[i].stored()
		if err != nil {
			return err
		}
		stored[i].Payload = se.Payload
	}
	return nil
}

// withRatings adds a finished game's rating changes to a result message's
// text (its first Text Display). Results are rated inside the commit that
// finishes the game, which completes the result there (see
// withRatingsAtCommit); the sender still does it for a result committed by
// an older version, whose effect asks for the ratings.
func withRatings(lang string, results []store.Result, body map[string]json.RawMessage) error {
	if len(results) == 0 {
		return nil
	}
	var comps []any
	if err := json.Unmarshal(body["components"], &comps); err != nil || len(comps) == 0 {
		return err
	}
	appendToFirstText(comps, ratingLines(lang, results))
	body["components"] = mustJSON(comps)
	return nil
}
