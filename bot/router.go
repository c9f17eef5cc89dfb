package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
)

// route sends a request to its handler: a slash command to its subcommand,
// a click to the action its custom ID names.
func (b *Bot) route(ctx context.Context, r *request) error {
	switch r.i.Type {
	case discordgo.InteractionApplicationCommand:
		return b.command(ctx, r)
	case discordgo.InteractionMessageComponent:
		return b.component(ctx, r)
	}
	return nil
}

// component handles a click on a button or a choice in a select menu.
func (b *Bot) component(ctx context.Context, r *request) error {
	data := r.i.MessageComponentData()
	id, err := ParseCustomID(data.CustomID)
	if err != nil {
		return refuse(locales.ErrUnknownButton)
	}
	if len(data.Values) > 0 {
		if len(data.Values) != 1 || len(data.Values[0]) > table.MaxArgLen {
			return refuse(locales.ErrUnknownButton)
		}
		id.Arg = data.Values[0]
	}
	switch id.Action {
	case ActJoin:
		return b.lobbyAction(ctx, r, id.Game, table.Join(actor(r)))
	case ActLeave:
		return b.lobbyAction(ctx, r, id.Game, table.Leave(actor(r)))
	case ActAddBot:
		return b.lobbyAction(ctx, r, id.Game, table.AddComputer(actor(r), id.Arg))
	case ActStart:
		return b.start(ctx, r, id.Game)
	case ActCancel:
		return b.cancel(ctx, r, id.Game)
	case ActResign:
		return b.resign(ctx, r, id.Game)
	case ActKeep:
		return b.keepPlaying(r)
	case ActVoteYes, ActVoteNo:
		return b.vote(ctx, r, id)
	case ActRematch:
		return b.rematch(ctx, r, id.Game)
	case ActRoll, ActPawn, ActMove, ActBack, ActPlace, ActPlaceRow:
		return b.turnAction(ctx, r, id)
	}
	return refuse(locales.ErrUnknownButton)
}
