package bot

import (
	"bytes"
	"encoding/json"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/outbox"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/render"
)

// The table's messages are plain data; these functions make Discord's
// messages of them.

// boardFileName is the attachment every board travels as, and
// chartFileName a result's chance chart: the outbox's names.
const (
	boardFileName = outbox.BoardFile
	chartFileName = outbox.ChartFile
)

// embedsOf returns msg's embeds as Discord takes them.
func embedsOf(msg table.Message) []*discordgo.MessageEmbed {
	var out []*discordgo.MessageEmbed
	for _, e := range msg.Embeds {
		de := &discordgo.MessageEmbed{Title: e.Title, Description: e.Description, Color: e.Color}
		if e.Footer != "" {
			de.Footer = &discordgo.MessageEmbedFooter{Text: e.Footer}
		}
		if e.Board {
			de.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + boardFileName}
		}
		if e.Chart {
			de.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + chartFileName}
		}
		out = append(out, de)
	}
	return out
}

// buttonStyles are Discord's styles of the table's.
var buttonStyles = map[table.Style]discordgo.ButtonStyle{
	table.Primary: discordgo.PrimaryButton, table.Secondary: discordgo.SecondaryButton,
	table.Success: discordgo.SuccessButton, table.Danger: discordgo.DangerButton,
}

// componentsOf returns msg's rows as Discord's action rows.
func componentsOf(msg table.Message) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for _, row := range msg.Rows {
		var comps []discordgo.MessageComponent
		for _, b := range row.Buttons {
			db := discordgo.Button{Label: b.Label, Style: buttonStyles[b.Style], CustomID: b.CustomID, Disabled: b.Disabled}
			if b.Emoji != "" {
				db.Emoji = &discordgo.ComponentEmoji{Name: b.Emoji}
			}
			comps = append(comps, db)
		}
		if m := row.Menu; m != nil {
			var opts []discordgo.SelectMenuOption
			for _, o := range m.Options {
				opts = append(opts, discordgo.SelectMenuOption{Label: o.Label, Value: o.Value, Description: o.Description})
			}
			comps = append(comps, discordgo.SelectMenu{CustomID: m.CustomID, Placeholder: m.Placeholder, Options: opts})
		}
		out = append(out, discordgo.ActionsRow{Components: comps})
	}
	return out
}

// responseOf is the interaction response of a reply (without its board).
// An update is V2 (see layout.go), as the game's messages it updates are:
// it empties content and embeds, so that a message without the flag
// converts. A new answer is V2 when it shows a view with a board or an
// embed, and plain content when it is a text.
func responseOf(rp *table.Reply) (discordgo.InteractionResponseType, *discordgo.InteractionResponseData) {
	msg := rp.Message.WithChances(ai.KnownChances) // an answer cannot wait for the card's rollouts
	mentions := &discordgo.MessageAllowedMentions{Users: msg.Pings}
	if rp.Kind == table.Update {
		comps := layoutOf(msg)
		if comps == nil {
			comps = []discordgo.MessageComponent{}
		}
		return discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{
			Embeds: []*discordgo.MessageEmbed{}, Components: comps, Flags: v2Flags,
			Attachments: &[]*discordgo.MessageAttachment{}, AllowedMentions: mentions}
	}
	data := &discordgo.InteractionResponseData{Content: msg.Content, Embeds: embedsOf(msg), Components: componentsOf(msg),
		AllowedMentions: mentions}
	if len(msg.Embeds) > 0 || msg.Board != nil {
		data = &discordgo.InteractionResponseData{Components: layoutOf(msg), Flags: v2Flags, AllowedMentions: mentions}
	}
	if rp.Kind == table.Private {
		data.Flags |= discordgo.MessageFlagsEphemeral
	}
	return discordgo.InteractionResponseChannelMessageWithSource, data
}

// boards draws the boards of messages, told to the hooks, and keeps the
// last few: one state is drawn once (a post sent again after a failure,
// the same board in an answer and a message).
type boards struct {
	renderer *render.Renderer
	hooks    Hooks

	mu     sync.Mutex
	drawn  map[string][]byte // PNG by scene
	oldest []string          // the keys of drawn, oldest first
}

// boardsKept is how many drawn boards are kept.
const boardsKept = 16

// file draws s as the message's board.png, or returns it as drawn before.
func (bd *boards) file(s render.Scene) (*discordgo.File, error) {
	key, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	bd.mu.Lock()
	data, ok := bd.drawn[string(key)]
	bd.mu.Unlock()
	if !ok {
		start := time.Now()
		data, err = bd.renderer.PNG(s)
		bd.hooks.observeRender(start)
		if err != nil {
			return nil, err
		}
		bd.keep(string(key), data)
	}
	return &discordgo.File{Name: boardFileName, ContentType: "image/png", Reader: bytes.NewReader(data)}, nil
}

// keep remembers the board of key, forgetting the oldest beyond boardsKept.
func (bd *boards) keep(key string, data []byte) {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	if bd.drawn == nil {
		bd.drawn = map[string][]byte{}
	}
	if _, ok := bd.drawn[key]; ok {
		return
	}
	bd.drawn[key] = data
	bd.oldest = append(bd.oldest, key)
	if len(bd.oldest) > boardsKept {
		delete(bd.drawn, bd.oldest[0])
		bd.oldest = bd.oldest[1:]
	}
}

// dropBoardImage removes the embed image that points at a board that could
// not be drawn.
func dropBoardImage(embeds []*discordgo.MessageEmbed) {
	for _, e := range embeds {
		if e.Image != nil && e.Image.URL == "attachment://"+boardFileName {
			e.Image = nil
		}
	}
}

// dropBoardComponent removes the media gallery of the board from V2
// components, inside containers too.
func dropBoardComponent(comps []discordgo.MessageComponent) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for _, c := range comps {
		switch v := c.(type) {
		case discordgo.MediaGallery:
			if len(v.Items) == 1 && v.Items[0].Media.URL == boardURL {
				continue
			}
		case discordgo.Container:
			v.Components = dropBoardComponent(v.Components)
			c = v
		}
		out = append(out, c)
	}
	return out
}

// reply sends the table's answer to the request, with its board drawn by
// draw.
func (r *request) reply(rp *table.Reply, draw func(render.Scene) (*discordgo.File, error)) error {
	typ, data := responseOf(rp)
	if rp.Message.Board != nil {
		f, err := draw(*rp.Message.Board)
		if err != nil {
			r.log.Error("could not draw the board", "err", err)
			dropBoardImage(data.Embeds)
			data.Components = dropBoardComponent(data.Components)
		} else {
			data.Files = []*discordgo.File{f}
		}
	}
	return r.respond(&discordgo.InteractionResponse{Type: typ, Data: data})
}
