package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
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
	return b.change(ctx, r, sg.ID, func(m *match) error {
		switch {
		case m.stored.Status == store.StatusLobby:
			// A private copy of the lobby, without its buttons: those
			// of the lobby message keep it the one place it changes.
			data := b.lobbyData(m)
			data.Flags, data.Components = discordgo.MessageFlagsEphemeral, nil
			if id := m.stored.LobbyMessageID; id != "" {
				data.Embeds[0].Description += "\n" + tr(r.lang, locales.BoardJumpLobby,
					"https://discord.com/channels/"+m.stored.GuildID+"/"+m.stored.ChannelID+"/"+id)
			}
			m.answer(discordgo.InteractionResponseChannelMessageWithSource, data, nil)
			return nil
		case m.game == nil || !m.stored.Status.Open():
			return refuse(locales.ErrNoGameHere)
		}
		v := b.turnView(m, viewOptions{private: true, viewer: r.userID})
		if id := m.stored.TurnMessageID; id != "" {
			v.embeds[0].Description += "\n" + tr(r.lang, locales.BoardJump, jumpLink(m.stored, id))
		}
		m.answerView(r, v, false)
		return nil
	})
}

// jumpLink links to a message of the game where it plays.
func jumpLink(sg *store.Game, messageID string) string {
	place := sg.ChannelID
	if sg.ThreadID != "" {
		place = sg.ThreadID
	}
	return "https://discord.com/channels/" + sg.GuildID + "/" + place + "/" + messageID
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
