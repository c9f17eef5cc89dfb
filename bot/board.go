package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// cmdBoard shows the game privately: the lobby, or the board as it stands
// with whose turn it is and a jump link to the live turn message, whose
// buttons the player to move uses.
func (b *Bot) cmdBoard(ctx context.Context, r *request, _ options) error {
	sg, err := b.openGame(ctx, r, seated(r.userID))
	if err != nil {
		return err
	}
	return b.change(ctx, r, sg.ID, func(t *table.Table) error { return t.PrivateBoard(actor(r)) })
}

// adoptResponse records the response to r as the game's message of role.
func (b *Bot) adoptResponse(r *request, gameID int64, role store.MessageRole) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := b.dc.InteractionResponse(r.i, discordgo.WithContext(ctx))
	if err != nil {
		b.log.Warn("could not read the answer's message", "game", gameID, "err", err)
		return
	}
	if err := b.db.SetMessageID(ctx, gameID, role, msg.ID); err != nil {
		b.log.Warn("could not record the answer's message", "game", gameID, "err", err)
	}
}
