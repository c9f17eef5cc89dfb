package bot

import (
	"encoding/json"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// The operations of effects.
const (
	opPost  = "post"  // create a message in a channel
	opEdit  = "edit"  // edit one of the game's messages
	opAdopt = "adopt" // record an interaction's response as one of the game's messages
	// opThread starts the game's thread from its lobby message (the
	// thread gets the message's ID) and records it as RoleThread.
	opThread  = "thread"
	opMember  = "member"  // add a user to the game's thread
	opArchive = "archive" // archive the game's thread
	opSettle  = "settle"  // leave the game's thread to auto-archive an hour after its last message
	opDelete  = "delete"  // delete one of the game's messages
)

// effect is a table's effect (table.Effect) as it waits in the outbox: the
// Discord request, what to send, where, and where Discord's answer goes.
// It is decided with the change; the sender (sender.go) only sends it.
type effect struct {
	Op      string `json:"op"`
	Channel string `json:"channel,omitempty"`
	// InPlay: the message goes where the game plays as it is when the
	// effect is delivered, its thread once made, else Channel (a thread
	// that could not be made leaves the game in the channel).
	InPlay bool            `json:"place,omitempty"`
	Body   json.RawMessage `json:"body,omitempty"` // the message as Discord takes it
	// Board, when set, is drawn and attached as board.png.
	Board *render.Scene `json:"board,omitempty"`
	// Chart, when set, is drawn and attached as chances.png.
	Chart *table.Chart `json:"chart,omitempty"`
	// Target is the message an edit changes: the game's message of that
	// role as recorded when the edit is delivered (an earlier post of the
	// same game is delivered first).
	Target store.MessageRole `json:"target,omitempty"`
	// Repost: when the edited message is gone (deleted, or never
	// recorded), post the body as a new message and record it as Target.
	Repost bool `json:"repost,omitempty"`
	// Record is where a post's or adoption's new message ID goes.
	Record store.MessageRole `json:"record,omitempty"`
	// App and Token name the interaction an adoption reads @original of.
	App   string `json:"app,omitempty"`
	Token string `json:"token,omitempty"`
	// Ratings: the post is a result whose rating changes are still to be
	// added: the commit that finishes the game adds them and clears it
	// (an effect committed by an older version has it set at delivery).
	Ratings bool `json:"ratings,omitempty"`
	// Text is a direct message's text; LinkTo, when set, is 1 + the index
	// in its commit of the post whose message the text links to, at
	// linkPlaceholder (see table.Effect.LinkTo); linked is that message's
	// ID once delivered.
	Text   string `json:"text,omitempty"`
	LinkTo int    `json:"link_to,omitempty"`
	linked string
	// Name is a new thread's name; User the user a thread member op adds.
	Name string `json:"name,omitempty"`
	User string `json:"user,omitempty"`
}

// stored is the effect as the outbox keeps it.
func (e effect) stored() (store.Effect, error) {
	data, err := json.Marshal(e)
	if err != nil {
		return store.Effect{}, fmt.Errorf("effect %s: %w", e.Op, err)
	}
	return store.Effect{Kind: e.Op, Payload: data}, nil
}

func mustJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("bot: message body: %v", err)) // only Discord types that always marshal
	}
	return data
}

// outboxEffect is e as the outbox keeps it, for game sg; an Adopt names
// the interaction of r.
func outboxEffect(r *request, sg *store.Game, e table.Effect) effect {
	out := effect{Op: string(e.Kind), Channel: sg.ChannelID, InPlay: e.InPlay, Target: e.Target, Record: e.Record,
		Repost: e.RepostIfGone, Ratings: e.Result, Text: e.Text, LinkTo: e.LinkTo, Name: e.Name, User: e.User}
	switch e.Kind {
	case table.Post:
		msg := *e.Message
		body := postBody(msg)
		if msg.ReplyTo != "" {
			f := false
			body.Reference = &discordgo.MessageReference{MessageID: msg.ReplyTo, GuildID: sg.GuildID, FailIfNotExists: &f}
		}
		out.Body, out.Board, out.Chart = mustJSON(body), msg.Board, msg.Chart
	case table.Edit:
		out.Body = mustJSON(editBody(*e.Message))
	case table.Adopt:
		out.App, out.Token = r.i.AppID, r.i.Token
	}
	return out
}
