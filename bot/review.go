package bot

import (
	"context"
	"errors"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/game"
	"github.com/malefiz-discord/malefiz/store"
)

// review answers a click on the verdict's Review button: the player's own
// review, privately. It reads the game and changes nothing.
func (b *Bot) review(ctx context.Context, r *request, id int64) error {
	sg, err := b.db.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return refuse(locales.ErrNoSuchGame)
	} else if err != nil {
		return err
	}
	if r.i.GuildID != sg.GuildID {
		return refuse(locales.ErrForeignButton)
	}
	stored, final, err := b.db.Grades(ctx, id)
	if err != nil {
		return err
	}
	grades, err := game.EngineGrades(stored)
	if err != nil {
		return err
	}
	t := &table.Table{Game: sg}
	if final {
		events, err := b.db.Events(ctx, id)
		if err != nil {
			return err
		}
		if t.State, err = table.Replay(sg, events); err != nil {
			return err
		}
	}
	if err := t.Review(actor(r), grades, final); err != nil {
		return err
	}
	return r.reply(t.Reply, b.boards.file)
}
