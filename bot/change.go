package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/game"
	"github.com/malefiz-discord/malefiz/render"
)

// change runs act on game id for request r (nil for a timer) through the
// game service (package game: the game's lock, one read, the table's
// decision, one commit), answers r, then lets the lock go and delivers
// the effects. The lock ends at the commit's answer, so a slow Discord
// delivery does not stall the next click on the game: that click may come
// from the message this delivery is posting, whose ID is not recorded yet
// (see table.CheckOrigin), and its effects go out after this delivery's,
// in the outbox's order, with the message IDs recorded by then.
func (b *Bot) change(ctx context.Context, r *request, id int64, act game.Action) error {
	cmd := game.Command{Game: id, Action: act}
	if r != nil {
		cmd.User, cmd.Guild, cmd.Via = actor(r), r.i.GuildID, via(r)
		if r.isClick() && !r.originChecked {
			o := origin(r)
			cmd.Origin = &o
		}
	}
	o, err := b.games.Change(ctx, cmd)
	if err != nil {
		return err
	}
	return b.answerAndDeliver(ctx, r, o)
}

// answerAndDeliver answers r (nil for a timer) with outcome o, then hands
// o's effects to the outbox, after the answer and outside the game's lock
// (see game.Outcome.Deliver): the path after every change, a new game's
// too. Nothing is decided here: the effects are final. A missing
// permission Discord answered is told to the user.
func (b *Bot) answerAndDeliver(ctx context.Context, r *request, o *game.Outcome) error {
	defer o.Release() // if the answer panics
	if r == nil {
		o.Deliver()
		return nil
	}
	r.settings, r.settingsRead = o.Settings, true
	err := answer(r, o, b.boards.file)
	r.tellDMRefused(ctx, b.db) // before the deliveries, which take a while
	if refused := o.Deliver(); refused != nil {
		r.replyPrivate(ctx, tr(r.lang, locales.ErrMissingPermissions))
	}
	return err
}

// answer answers request r with outcome o's reply, its board drawn by
// board.
func answer(r *request, o *game.Outcome, board func(render.Scene) (*discordgo.File, error)) error {
	r.committed = o.Committed
	if o.Reply == nil {
		return nil
	}
	return r.reply(o.Reply, board)
}

// actor is who makes the request, as the table sees them.
func actor(r *request) table.Actor {
	a := table.Actor{UserID: r.userID, Name: r.name, Lang: r.lang, Click: r.isClick(),
		Manager: r.perms&(discordgo.PermissionManageGuild|discordgo.PermissionManageChannels|discordgo.PermissionAdministrator) != 0}
	if r.i.Message != nil {
		a.MessageID = r.i.Message.ID
	}
	return a
}

// via is the interaction of r as the game service names it.
func via(r *request) *game.Via {
	return &game.Via{App: r.i.AppID, Token: r.i.Token, ID: r.i.ID, Channel: r.i.ChannelID, Click: r.isClick()}
}

// origin is where click r comes from, for the table to check.
func origin(r *request) table.Origin {
	o := table.Origin{GuildID: r.i.GuildID, ChannelID: r.i.ChannelID}
	if msg := r.i.Message; msg != nil {
		o.MessageID, o.Private = msg.ID, msg.Flags&discordgo.MessageFlagsEphemeral != 0
		o.FromBot = msg.Author != nil && msg.Author.ID == r.i.AppID
	}
	if r.i.Type == discordgo.InteractionMessageComponent {
		o.CustomID = r.i.MessageComponentData().CustomID
	}
	return o
}
