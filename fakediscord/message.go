package fakediscord

import (
	"time"

	"github.com/bwmarrin/discordgo"
)

// Message is the fake's view of a message the bot created: in a channel,
// as an interaction's original response or as a follow-up. Values returned
// by the fake are snapshots; their slices must not be modified.
type Message struct {
	ID        string
	ChannelID string
	GuildID   string

	Content         string
	Embeds          []*discordgo.MessageEmbed
	Components      []Component
	Attachments     []Attachment
	Flags           discordgo.MessageFlags
	AllowedMentions *discordgo.MessageAllowedMentions
	// Pinged are the users the message notified when it was created:
	// the <@id> mentions in its content that allowed_mentions let through.
	Pinged []string

	// Ephemeral messages are seen only by UserID, the user who invoked
	// the interaction they answer.
	Ephemeral bool
	// InteractionID is the interaction whose response or follow-up this
	// is; "" for messages posted to the channel.
	InteractionID string
	// UserID is the user who invoked that interaction.
	UserID string

	// Nonce is the nonce the message was created with, if any.
	Nonce string
	// NonceHits counts the creates with the same nonce and
	// "enforce_nonce": true that returned this message instead of
	// creating another.
	NonceHits int

	// Uploads and UploadedBytes count the files uploaded to the message
	// when it was created and edited, and their bytes.
	Uploads       int
	UploadedBytes int

	Created time.Time
	Edited  time.Time // zero when never edited
	Edits   int
	Deleted bool // deleted by the bot or with Fake.DeleteMessage

	typ             discordgo.MessageType
	interactionType discordgo.InteractionType
}

// Attachment is a file attached to a message.
type Attachment struct {
	ID          string
	Filename    string
	ContentType string
	Data        []byte
}

// Component is a message component as the bot sent it: an action row
// with its children, a button, a select menu or a text input.
type Component struct {
	Type        discordgo.ComponentType   `json:"type"`
	CustomID    string                    `json:"custom_id,omitempty"`
	Label       string                    `json:"label,omitempty"`
	Style       int                       `json:"style,omitempty"`
	Disabled    bool                      `json:"disabled,omitempty"`
	URL         string                    `json:"url,omitempty"`
	Emoji       *discordgo.ComponentEmoji `json:"emoji,omitempty"`
	Placeholder string                    `json:"placeholder,omitempty"`
	MinValues   *int                      `json:"min_values,omitempty"`
	MaxValues   int                       `json:"max_values,omitempty"`
	Options     []SelectOption            `json:"options,omitempty"`
	Value       string                    `json:"value,omitempty"`
	Required    *bool                     `json:"required,omitempty"`
	MinLength   *int                      `json:"min_length,omitempty"`
	MaxLength   int                       `json:"max_length,omitempty"`
	Components  []Component               `json:"components,omitempty"`
}

// SelectOption is an option of a string select menu.
type SelectOption struct {
	Label       string                    `json:"label"`
	Value       string                    `json:"value"`
	Description string                    `json:"description,omitempty"`
	Emoji       *discordgo.ComponentEmoji `json:"emoji,omitempty"`
	Default     bool                      `json:"default,omitempty"`
}

// Controls returns the message's interactive components (buttons, select
// menus) in display order, without the action rows holding them.
func (m Message) Controls() []Component {
	var out []Component
	var walk func([]Component)
	walk = func(cs []Component) {
		for _, c := range cs {
			if len(c.Components) > 0 {
				walk(c.Components)
				continue
			}
			if c.Type != discordgo.ActionsRowComponent {
				out = append(out, c)
			}
		}
	}
	walk(m.Components)
	return out
}

// CustomIDs returns the custom IDs of the message's controls in display
// order.
func (m Message) CustomIDs() []string {
	var out []string
	for _, c := range m.Controls() {
		if c.CustomID != "" {
			out = append(out, c.CustomID)
		}
	}
	return out
}

// Labels returns the labels of the message's controls in display order.
func (m Message) Labels() []string {
	var out []string
	for _, c := range m.Controls() {
		out = append(out, c.Label)
	}
	return out
}

// Component returns the control with the given custom ID.
func (m Message) Component(customID string) (Component, bool) {
	for _, c := range m.Controls() {
		if c.CustomID == customID {
			return c, true
		}
	}
	return Component{}, false
}

// ComponentByLabel returns the first control with the given label.
func (m Message) ComponentByLabel(label string) (Component, bool) {
	for _, c := range m.Controls() {
		if c.Label == label {
			return c, true
		}
	}
	return Component{}, false
}

// Attachment returns the attachment with the given file name.
func (m Message) Attachment(filename string) (Attachment, bool) {
	for _, a := range m.Attachments {
		if a.Filename == filename {
			return a, true
		}
	}
	return Attachment{}, false
}

// Message returns a snapshot of the message with the given ID, including
// ephemeral and deleted ones.
func (f *Fake) Message(id string) (Message, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, ok := f.messages[id]
	if !ok {
		return Message{}, false
	}
	return *m, true
}

// AllMessages returns every message in creation order, including ephemeral
// and deleted ones.
func (f *Fake) AllMessages() []Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Message, 0, len(f.order))
	for _, id := range f.order {
		out = append(out, *f.messages[id])
	}
	return out
}

// ChannelMessages returns what everyone sees in a channel: its messages in
// creation order, without ephemeral and deleted ones.
func (f *Fake) ChannelMessages(channelID string) []Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Message
	for _, id := range f.order {
		m := f.messages[id]
		if m.ChannelID == channelID && !m.Ephemeral && !m.Deleted {
			out = append(out, *m)
		}
	}
	return out
}

// LastMessage returns the latest message everyone sees in a channel.
func (f *Fake) LastMessage(channelID string) (Message, bool) {
	msgs := f.ChannelMessages(channelID)
	if len(msgs) == 0 {
		return Message{}, false
	}
	return msgs[len(msgs)-1], true
}

// storeLocked adds a new message. f.mu must be held.
func (f *Fake) storeLocked(m *Message) {
	f.messages[m.ID] = m
	f.order = append(f.order, m.ID)
	if m.Nonce != "" && m.InteractionID == "" {
		k := nonceKey{m.ChannelID, m.Nonce}
		f.nonces[k] = append(f.nonces[k], m)
	}
}

// liveLocked returns the message with the given ID unless it is unknown
// or deleted. f.mu must be held.
func (f *Fake) liveLocked(id string) *Message {
	m := f.messages[id]
	if m == nil || m.Deleted {
		return nil
	}
	return m
}
