package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/store"
)

// cmdBoard shows the channel's game again: the lobby, or the turn publicly
// with its buttons for the player to move, privately for everyone else.
func (b *Bot) cmdBoard(ctx context.Context, r *request, _ options) error {
	sg, err := b.openGame(ctx, r)
	if err != nil {
		return err
	}
	return b.change(ctx, r, sg.ID, func(m *match) error {
		switch {
		case m.stored.Status == store.StatusLobby:
			m.answer(discordgo.InteractionResponseChannelMessageWithSource, b.lobbyData(m), nil)
			m.adoptAnswer = store.RoleLobby
			return nil
		case m.game == nil || !m.stored.Status.Open():
			return refuse(msgNoGameHere)
		}
		seat := m.toMove()
		if seat == nil || seat.UserID != r.userID || seat.Computer != "" {
			m.answerView(r, b.turnView(m, viewOptions{private: true}), false)
			return nil
		}
		m.answerView(r, b.turnView(m, viewOptions{}), true)
		// The answer becomes the turn's message. Recorded directly, not
		// through the outbox: nothing else changed, and if the ID is
		// lost, the previous message stays the game's and /malefiz board
		// works again.
		m.adoptAnswer = store.RoleTurn
		return nil
	})
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
