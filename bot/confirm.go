package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// askResign answers /malefiz resign (or leave) in a running game privately
// with the choice: Resign, or Keep playing. Nothing changes until Resign.
func (b *Bot) askResign(r *request, sg *store.Game) error {
	if !seated(r.userID)(sg) {
		return refuse(locales.ErrNotInGame)
	}
	cid := func(a Action) string { return CustomID{Action: a, Game: sg.ID}.String() }
	return b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: tr(r.lang, locales.ResignAsk, sg.ID), Flags: discordgo.MessageFlagsEphemeral,
			AllowedMentions: &discordgo.MessageAllowedMentions{},
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: tr(r.lang, locales.ButtonResign), Style: discordgo.DangerButton, CustomID: cid(ActResign)},
				discordgo.Button{Label: tr(r.lang, locales.ButtonKeep), Style: discordgo.SecondaryButton, CustomID: cid(ActKeep)},
			}}}}})
}

// keepPlaying answers Keep playing: the question goes, nothing changes.
func (b *Bot) keepPlaying(r *request) error {
	return b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: tr(r.lang, locales.ResignKept), Components: []discordgo.MessageComponent{},
			Embeds: []*discordgo.MessageEmbed{}, AllowedMentions: &discordgo.MessageAllowedMentions{}}})
}

// vote applies a click on a cancel vote's message: agreement, or refusal.
// The vote message is the bot's, from where the game plays; its game is in
// the custom ID.
func (b *Bot) vote(ctx context.Context, r *request, id CustomID) error {
	msg := r.i.Message
	if msg == nil || msg.Author == nil || msg.Author.ID != r.i.AppID {
		return refuse(locales.ErrForeignButton)
	}
	r.originChecked = true
	return b.change(ctx, r, id.Game, func(t *table.Table) error {
		sg := t.Game
		if r.i.GuildID != sg.GuildID || (r.i.ChannelID != sg.ChannelID && r.i.ChannelID != sg.ThreadID) {
			return refuse(locales.ErrForeignButton)
		}
		return t.Vote(actor(r), id.Action == ActVoteYes)
	})
}

// cancel ends a lobby or a running game without a result, or opens the
// vote on it (see table.Cancel).
func (b *Bot) cancel(ctx context.Context, r *request, id int64) error {
	return b.change(ctx, r, id, func(t *table.Table) error { return t.Cancel(actor(r)) })
}

// resign takes the user out of the running game (rule 10).
func (b *Bot) resign(ctx context.Context, r *request, id int64) error {
	return b.change(ctx, r, id, func(t *table.Table) error { return t.Resign(actor(r)) })
}

// turnAction applies a click of the player to move (see table.Turn).
func (b *Bot) turnAction(ctx context.Context, r *request, id CustomID) error {
	return b.change(ctx, r, id.Game, func(t *table.Table) error { return t.Turn(actor(r), id) })
}

func (b *Bot) cmdResign(ctx context.Context, r *request, _ options) error {
	sg, err := b.openGame(ctx, r, seated(r.userID))
	if err != nil {
		return err
	}
	if sg.Status == store.StatusLobby {
		return b.lobbyAction(ctx, r, sg.ID, table.Leave(actor(r)))
	}
	return b.askResign(r, sg)
}
