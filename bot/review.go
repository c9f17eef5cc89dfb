package bot

import (
	"context"
)

// review answers a click on the verdict's Review button: the player's own
// review, privately (game.Service.Review). It changes nothing.
func (b *Bot) review(ctx context.Context, r *request, id int64) error {
	rp, err := b.games.Review(ctx, id, r.i.GuildID, actor(r))
	if err != nil {
		return err
	}
	return r.reply(rp, b.boards.file)
}
