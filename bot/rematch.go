package bot

import (
	"context"

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
