package bot

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/outbox"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// The table's effects as the outbox keeps them: the Discord layout of
// each message is made here, at commit, so that delivery (package outbox)
// only sends what it is given.

func init() {
	if table.LinkPlaceholder != outbox.LinkPlaceholder {
		panic("bot: the table's and the outbox's link placeholders differ")
	}
}

func mustJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("bot: message body: %v", err)) // only Discord types that always marshal
	}
	return data
}

// outboxEffect is e as the outbox keeps it, for game sg; an Adopt names
// the interaction of r. A result's ratings are added in the commit (see
// withRatingsAtCommit).
func outboxEffect(r *request, sg *store.Game, e table.Effect) outbox.Effect {
	out := outbox.Effect{Op: outbox.Op(e.Kind), Channel: sg.ChannelID, InPlay: e.InPlay, Target: e.Target, Record: e.Record,
		Repost: e.RepostIfGone, Text: e.Text, LinkTo: e.LinkTo, Name: e.Name, User: e.User}
	switch e.Kind {
	case table.Post:
		msg := *e.Message
		body := postBody(msg)
		if msg.ReplyTo != "" {
			f := false
			body.Reference = &discordgo.MessageReference{MessageID: msg.ReplyTo, GuildID: sg.GuildID, FailIfNotExists: &f}
		}
		out.Body, out.Board = mustJSON(body), msg.Board
		if msg.Chart != nil {
			out.Chart = mustJSON(msg.Chart)
		}
	case table.Edit:
		out.Body = mustJSON(editBody(*e.Message))
		// The card's edits (Target store.RoleLobby) get Queue:
		// outbox.CardQueue once the store keeps that queue apart from
		// the game's main one; until then they stay in the main queue,
		// which would otherwise wait on their claim.
	case table.Adopt:
		out.App, out.Token = r.i.AppID, r.i.Token
	}
	return out
}

// chartFile draws a result's chance chart (a table.Chart as stored) as
// the outbox's chart file.
func chartFile(data json.RawMessage) (*discordgo.File, error) {
	var c table.Chart
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	png, err := c.PNG()
	if err != nil {
		return nil, err
	}
	return &discordgo.File{Name: chartFileName, ContentType: "image/png", Reader: bytes.NewReader(png)}, nil
}

// withoutPicture is a message body without the media gallery that shows
// the attachment file.
func withoutPicture(body json.RawMessage, file string) json.RawMessage {
	return withoutGallery(body, "attachment://"+file)
}
