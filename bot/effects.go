package bot

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/bwmarrin/discordgo"

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
	opDelete  = "delete"  // delete one of the game's messages
)

// effect is a Discord request that a change produced, as it waits in the
// outbox: what to send, where, and where Discord's answer goes. It is
// decided with the change; the sender (sender.go) only sends it.
type effect struct {
	Op      string `json:"op"`
	Channel string `json:"channel,omitempty"`
	// Place: the message goes to the game's place as it is when the effect
	// is delivered, its thread once made, else Channel (a thread that
	// could not be made leaves the game in the channel).
	Place bool            `json:"place,omitempty"`
	Body  json.RawMessage `json:"body,omitempty"` // the message as Discord takes it
	// Board, when set, is drawn and attached as board.png.
	Board *render.Scene `json:"board,omitempty"`
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
	// Ratings: the post is a result; the sender adds the rating changes.
	Ratings bool `json:"ratings,omitempty"`
	// Text is a direct message's text (see notify).
	Text string `json:"text,omitempty"`
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

// outMessage is a new message's body.
type outMessage struct {
	Content         string                            `json:"content,omitempty"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds,omitempty"`
	Components      []discordgo.MessageComponent      `json:"components,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	Reference       *discordgo.MessageReference       `json:"message_reference,omitempty"`
}

// editMessage is an edit's body: every field set replaces the message's.
type editMessage struct {
	Content         *string                           `json:"content,omitempty"`
	Embeds          *[]*discordgo.MessageEmbed        `json:"embeds,omitempty"`
	Components      *[]discordgo.MessageComponent     `json:"components,omitempty"`
	Attachments     *[]*discordgo.MessageAttachment   `json:"attachments,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
}

func mustJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("bot: message body: %v", err)) // only Discord types that always marshal
	}
	return data
}

// post adds an effect that posts v where the game plays (its thread, or
// its channel); record, when set, is where its ID goes. Only the users v
// pings are notified.
func (m *match) post(v view, record store.MessageRole) {
	body := outMessage{Content: v.content, Embeds: v.embeds, Components: v.components,
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: v.pings}, Reference: v.reference}
	m.effects = append(m.effects, effect{Op: opPost, Channel: m.stored.ChannelID, Place: true, Body: mustJSON(body),
		Board: v.board, Record: record})
}

// startThread adds an effect that starts the game's thread from its lobby
// message, then one per human player that adds them to it.
func (m *match) startThread(name string) {
	m.effects = append(m.effects, effect{Op: opThread, Channel: m.stored.ChannelID, Name: name, Record: store.RoleThread})
	for _, s := range m.stored.Seats {
		if s.UserID != "" && s.Computer == "" && !s.Left {
			m.effects = append(m.effects, effect{Op: opMember, Channel: m.stored.ChannelID, Place: true, User: s.UserID})
		}
	}
}

// archive adds an effect that archives the game's thread, if it has one.
func (m *match) archive() {
	if m.stored.Threaded {
		m.effects = append(m.effects, effect{Op: opArchive, Channel: m.stored.ChannelID, Place: true})
	}
}

// remove adds an effect that deletes the game's message of role target
// from where the game plays.
func (m *match) remove(target store.MessageRole) {
	m.effects = append(m.effects, effect{Op: opDelete, Channel: m.stored.ChannelID, Place: true, Target: target})
}

// edit adds an effect that changes the game's message of role target to
// data (content, embeds and components replaced, attachments dropped);
// with repost, a message that is gone is posted again.
func (m *match) edit(target store.MessageRole, data *discordgo.InteractionResponseData, repost bool) {
	m.effects = append(m.effects, m.editEffect(target, data, repost))
}

// insertEdit adds an edit of target at index at of the effects: before the
// effects that came after it, such as the post of the next turn's message
// (whose ID would be the target's when the edit is delivered).
func (m *match) insertEdit(at int, target store.MessageRole, data *discordgo.InteractionResponseData) {
	m.effects = slices.Insert(m.effects, at, m.editEffect(target, data, false))
}

func (m *match) editEffect(target store.MessageRole, data *discordgo.InteractionResponseData, repost bool) effect {
	embeds, comps := data.Embeds, data.Components
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	body := editMessage{Content: &data.Content, Embeds: &embeds, Components: &comps,
		Attachments: &[]*discordgo.MessageAttachment{}, AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if data.AllowedMentions != nil {
		body.AllowedMentions = data.AllowedMentions
	}
	return effect{Op: opEdit, Channel: m.stored.ChannelID, Place: target != store.RoleLobby,
		Body: mustJSON(body), Target: target, Repost: repost}
}

// adopt adds an effect that records the response to r as the game's
// message of role record, once Discord has made it.
func (m *match) adopt(r *request, record store.MessageRole) {
	m.effects = append(m.effects, effect{Op: opAdopt, Channel: m.stored.ChannelID, App: r.i.AppID,
		Token: r.i.Token, Record: record})
}
