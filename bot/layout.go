package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/game"
	"github.com/malefiz-discord/malefiz/render"
)

// The game's messages in Discord's layout components (Components V2, the
// message flag IS_COMPONENTS_V2): a message with an embed becomes one
// Container with the embed's colour as its accent, a Text Display with its
// title, (mentions and) text, the board in a Media Gallery, the buttons, a
// line of legend and the footer in small text; a message of one text (a
// turn's line of history) is one Text Display. A V2 message holds no
// content and no embeds, and never loses the flag: every edit of a game's
// message is V2 too, and sends content and embeds empty, so an older
// message without the flag converts.

// v2Flags are the flags of every V2 message.
const v2Flags = discordgo.MessageFlagsIsComponentsV2

// boardURL and chartURL are how a component shows the board and the chance
// chart attached to its message.
const (
	boardURL = "attachment://" + boardFileName
	chartURL = "attachment://" + chartFileName
)

// layoutOf returns msg as V2 components.
func layoutOf(msg table.Message) []discordgo.MessageComponent {
	rows := componentsOf(msg)
	if len(msg.Embeds) == 0 {
		var out []discordgo.MessageComponent
		if msg.Content != "" {
			out = append(out, discordgo.TextDisplay{Content: msg.Content})
		}
		if msg.Legend != "" {
			rows = append(rows, discordgo.TextDisplay{Content: "-# " + msg.Legend})
		}
		return append(out, rows...)
	}
	var out []discordgo.MessageComponent
	for i, e := range msg.Embeds {
		var lines []string
		if i == 0 && msg.Content != "" {
			lines = append(lines, msg.Content)
		}
		if e.Title != "" {
			lines = append(lines, "### "+e.Title)
		}
		if e.Description != "" {
			lines = append(lines, e.Description)
		}
		var inner []discordgo.MessageComponent
		if len(lines) > 0 {
			inner = append(inner, discordgo.TextDisplay{Content: strings.Join(lines, "\n")})
		}
		if e.Board {
			inner = append(inner, gallery(boardURL, msg.BoardAlt))
		}
		if e.Chart {
			inner = append(inner, gallery(chartURL, msg.ChartAlt))
		}
		if i == len(msg.Embeds)-1 {
			inner = append(inner, rows...)
			if msg.Legend != "" {
				inner = append(inner, discordgo.TextDisplay{Content: "-# " + msg.Legend})
			}
		}
		if e.Footer != "" {
			inner = append(inner, discordgo.TextDisplay{Content: "-# " + e.Footer})
		}
		c := discordgo.Container{Components: inner}
		if e.Color != 0 {
			color := e.Color
			c.AccentColor = &color
		}
		out = append(out, c)
	}
	return out
}

// gallery is a media gallery of the one picture at url, described by alt
// (its alt text, which a screen reader reads; none when empty).
func gallery(url, alt string) discordgo.MediaGallery {
	item := discordgo.MediaGalleryItem{Media: discordgo.UnfurledMediaItem{URL: url}}
	if alt != "" {
		item.Description = &alt
	}
	return discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{item}}
}

// v2Post is the body of a new V2 message.
type v2Post struct {
	Components      []discordgo.MessageComponent      `json:"components"`
	Flags           discordgo.MessageFlags            `json:"flags"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	Reference       *discordgo.MessageReference       `json:"message_reference,omitempty"`
}

// v2Edit is the body of an edit that makes a message msg's V2 layout:
// content and embeds emptied (a message without the flag converts),
// attachments dropped.
type v2Edit struct {
	Content         *string                           `json:"content"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds"`
	Components      []discordgo.MessageComponent      `json:"components"`
	Attachments     []*discordgo.MessageAttachment    `json:"attachments"`
	Flags           discordgo.MessageFlags            `json:"flags"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
}

// postBody is msg as a new V2 message.
func postBody(msg table.Message) v2Post {
	body := v2Post{Components: layoutOf(msg), Flags: v2Flags, AllowedMentions: &discordgo.MessageAllowedMentions{Users: msg.Pings}}
	if msg.Silent {
		body.Flags |= discordgo.MessageFlagsSuppressNotifications
	}
	return body
}

// editBody is the edit of a message into msg.
func editBody(msg table.Message) v2Edit {
	comps := layoutOf(msg)
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	return v2Edit{Components: comps, Embeds: []*discordgo.MessageEmbed{}, Attachments: []*discordgo.MessageAttachment{},
		Flags: v2Flags, AllowedMentions: &discordgo.MessageAllowedMentions{Users: msg.Pings}}
}

// withoutGallery removes from a V2 body (JSON) the media gallery that shows
// the attachment url, for a picture that could not be drawn; a body without
// one is returned as it is.
func withoutGallery(body json.RawMessage, url string) json.RawMessage {
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		return body
	}
	comps, ok := m["components"].([]any)
	if !ok {
		return body
	}
	m["components"] = dropGallery(comps, url)
	return mustJSON(m)
}

// dropGallery drops the media gallery of the attachment url from
// components (decoded JSON), inside containers too.
func dropGallery(comps []any, url string) []any {
	out := comps[:0]
	for _, c := range comps {
		cm, ok := c.(map[string]any)
		if !ok {
			out = append(out, c)
			continue
		}
		switch typ, _ := cm["type"].(float64); discordgo.ComponentType(typ) {
		case discordgo.MediaGalleryComponent:
			if strings.Contains(string(mustJSON(cm)), url) {
				continue
			}
		case discordgo.ContainerComponent:
			if inner, ok := cm["components"].([]any); ok {
				cm["components"] = dropGallery(inner, url)
			}
		}
		out = append(out, cm)
	}
	return out
}

// appendToFirstText adds lines to the first Text Display of a V2 body
// (decoded JSON components), inside its first container if it has one.
func appendToFirstText(comps []any, lines []string) bool {
	for _, c := range comps {
		cm, ok := c.(map[string]any)
		if !ok {
			continue
		}
		switch typ, _ := cm["type"].(float64); discordgo.ComponentType(typ) {
		case discordgo.TextDisplayComponent:
			text, _ := cm["content"].(string)
			cm["content"] = strings.Join(append([]string{text}, lines...), "\n")
			return true
		case discordgo.ContainerComponent:
			if inner, ok := cm["components"].([]any); ok && appendToFirstText(inner, lines) {
				return true
			}
		}
	}
	return false
}

// editOriginalV2 edits an interaction's @original into the V2 message of d
// with a raw body: discordgo's WebhookEdit has no flags, and a deferred
// answer ("thinking…", made without the flag) converts only with it.
// replaceFiles: the answer drops the message's files (its own replace them).
func editOriginalV2(ctx context.Context, dc Discord, i *discordgo.Interaction, d *discordgo.InteractionResponseData, replaceFiles bool) error {
	comps := d.Components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	body := map[string]any{"content": "", "embeds": []*discordgo.MessageEmbed{}, "components": comps,
		"flags": v2Flags, "allowed_mentions": d.AllowedMentions}
	if replaceFiles || len(d.Files) > 0 {
		body["attachments"] = []*discordgo.MessageAttachment{}
	}
	endpoint := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	if len(d.Files) == 0 {
		_, err := dc.RequestWithBucketID(http.MethodPatch, endpoint, body, endpoint, discordgo.WithContext(ctx))
		return err
	}
	contentType, data, err := discordgo.MultipartBodyWithJSON(body, rewound(d.Files))
	if err != nil {
		return err
	}
	_, err = dc.RequestRaw(http.MethodPatch, endpoint, contentType, data, endpoint, 0, discordgo.WithContext(ctx))
	return err
}

// The table's effects as the outbox keeps them: the Discord layout of
// each message is made here, at commit, so that delivery (package outbox)
// only sends what it is given.

func init() {
	if table.LinkPlaceholder != queue.LinkPlaceholder {
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

// layout is the Discord form of the table's effects, made at commit by
// the game service (game.Layout): Components V2 bodies, the interaction
// a follow-up or an adoption goes through, the ratings in a result.
type layout struct{}

var _ game.Layout = layout{}

// Effect is e as the outbox keeps it, for game sg; an Adopt names
// the interaction via. A result's ratings are added in the commit (see
// WithRatings).
func (layout) Effect(via *game.Via, sg *malefiz.Game, e table.Effect) queue.Effect {
	out := queue.Effect{Op: queue.Op(e.Kind), Channel: sg.ChannelID, InPlay: e.InPlay, Target: e.Target, Record: e.Record,
		Repost: e.RepostIfGone, Text: e.Text, LinkTo: e.LinkTo, Name: e.Name, User: e.User}
	switch e.Kind {
	case table.Post:
		msg := *e.Message
		body := postBody(msg)
		if msg.ReplyTo != "" {
			f := false
			body.Reference = &discordgo.MessageReference{MessageID: msg.ReplyTo, GuildID: sg.GuildID, FailIfNotExists: &f}
		}
		out.Body = mustJSON(body)
		out.Board, out.Chart = pictures(msg)
		out.Chances = chancesOf(msg)
	case table.Edit:
		// An edit replaces the message's attachments: the pictures its
		// layout shows go with it (a turn card edited by a play on the
		// board shows the board as it is now).
		out.Body = mustJSON(editBody(*e.Message))
		out.Board, out.Chart = pictures(*e.Message)
		out.Chances = chancesOf(*e.Message)
		if e.Target == malefiz.RoleLobby || e.Target == malefiz.RoleTournament {
			// The scoreboard card's edits wait in a queue of their
			// own: the newest supersedes the pending one, a few
			// seconds apart, and never hold back the turn posts.
			out.Queue = queue.CardQueue
		}
	case table.Adopt:
		if via != nil {
			out.App, out.Token = via.App, via.Token
		}
	}
	// Only a click is named: its answer is an update (or a deferred
	// update), whereas after a deferred channel message ("thinking…")
	// Discord's first follow-up edits that message instead of making one
	// (https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message).
	if e.Followup && via != nil && via.Click && via.Token != "" {
		at, err := discordgo.SnowflakeTimestamp(via.ID)
		if err == nil {
			out.Via = &queue.Interaction{App: via.App, Token: via.Token, Channel: via.Channel, At: at}
		}
	}
	return out
}

// WithRatings completes the result posts efs[i], i in posts, with the
// rating changes of rated, in lang, inside the commit that finishes the
// game.
func (layout) WithRatings(lang string, rated []malefiz.Result, efs []queue.Effect, posts []int) error {
	for _, i := range posts {
		body, err := withRatings(lang, rated, efs[i].Body)
		if err != nil {
			return err
		}
		efs[i].Body = body
	}
	return nil
}

// pictures are the board and the chance chart (as stored) that msg shows,
// for the outbox to draw and attach.
func pictures(msg table.Message) (*render.Scene, json.RawMessage) {
	var chart json.RawMessage
	if msg.Chart != nil {
		chart = mustJSON(msg.Chart)
	}
	return msg.Board, chart
}

// chancesOf is what msg needs to fill in its chances (as stored), for
// the outbox to read them at delivery (chanceWords).
func chancesOf(msg table.Message) json.RawMessage {
	if msg.Chances == nil {
		return nil
	}
	return mustJSON(msg.Chances)
}

// chanceWords reads the chances a message shows (a table.ChanceFill as
// stored): the words to put in place of each token now, the chances
// known at once (ai.KnownChances), and, when budget starts reading the
// card's (ai.CardChances), where theirs will come.
func chanceWords(budget *ai.Budget) func(json.RawMessage) (map[string]string, <-chan map[string]string, error) {
	return func(data json.RawMessage) (map[string]string, <-chan map[string]string, error) {
		var f table.ChanceFill
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, nil, err
		}
		now := f.Words(ai.KnownChances)
		read := budget.Later(f.Position, f.Rules)
		if read == nil {
			return now, nil, nil
		}
		later := make(chan map[string]string, 1)
		go func() {
			defer close(later)
			if ch, ok := <-read; ok {
				later <- f.Words(func(engine.Position, engine.Rules) [engine.NumColors]float64 { return ch })
			}
		}()
		return now, later, nil
	}
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
