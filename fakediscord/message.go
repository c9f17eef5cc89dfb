package fakediscord

import (
	"encoding/json"
	"strings"
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
	// Pinged are the users the message mentioned when it was created:
	// the <@id> mentions in its content (and, with the flag
	// IS_COMPONENTS_V2, in its text displays) that allowed_mentions let
	// through. They notify unless the message was sent with
	// SUPPRESS_NOTIFICATIONS; see Notified.
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
	// Description is the file's alt text, at most 1,024 characters.
	Description string
	// Referenced reports whether a component of the message names the
	// file as attachment://Filename. In a message with the flag
	// IS_COMPONENTS_V2 only referenced attachments show ("Attachments
	// won't show by default - they must be exposed through components",
	// developers/components/reference.mdx); see Message.ShownAttachments.
	Referenced bool
}

// Component is a message component as the bot sent it: an action row
// with its children, a button, a select menu or a text input, or one of
// the layout and content components of a message with the flag
// IS_COMPONENTS_V2 (developers/components/reference.mdx): a container
// (17) with its accent colour and children, a section (9) with its text
// displays and accessory, a text display (10), a thumbnail (11), a media
// gallery (12) with its items, a file (13) or a separator (14).
type Component struct {
	Type discordgo.ComponentType `json:"type"`
	// ID is the component's numeric identifier. Discord numbers the
	// components of a message that were sent without one (1, 2, … in
	// the order they appear, skipping IDs the bot chose); the fake does
	// so for messages with the flag IS_COMPONENTS_V2.
	ID          int                       `json:"id,omitempty"`
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

	// Content is a text display's markdown.
	Content string `json:"content,omitempty"`
	// AccentColor is a container's colour bar, RGB; nil for none.
	AccentColor *int `json:"accent_color,omitempty"`
	// Spoiler blurs a container, thumbnail or file.
	Spoiler bool `json:"spoiler,omitempty"`
	// Accessory is a section's button or thumbnail.
	Accessory *Component `json:"accessory,omitempty"`
	// Media and Description are a thumbnail's image and alt text.
	Media       *MediaItem `json:"media,omitempty"`
	Description *string    `json:"description,omitempty"`
	// Items are a media gallery's images.
	Items []MediaGalleryItem `json:"items,omitempty"`
	// File is a file component's attachment://name; Name and Size are
	// filled in by Discord in its answers.
	File *MediaItem `json:"file,omitempty"`
	Name string     `json:"name,omitempty"`
	Size int        `json:"size,omitempty"`
	// Divider and Spacing shape a separator: a line (default true) and
	// small (1, default) or large (2) padding.
	Divider *bool `json:"divider,omitempty"`
	Spacing int   `json:"spacing,omitempty"`
}

// MediaItem is an unfurled media item: the image of a thumbnail or media
// gallery item, or the file of a file component. A bot sets only URL, an
// external URL or attachment://name; Discord fills in the other fields
// in its answers ("only the url field is settable by developers",
// developers/components/reference.mdx#unfurled-media-item), and so does
// the fake: the attachment's URL, its size in pixels for images, its
// content type and ID.
type MediaItem struct {
	URL          string `json:"url"`
	ProxyURL     string `json:"proxy_url,omitempty"`
	Width        int    `json:"width,omitempty"`
	Height       int    `json:"height,omitempty"`
	ContentType  string `json:"content_type,omitempty"`
	AttachmentID string `json:"attachment_id,omitempty"`
}

// MediaGalleryItem is an image of a media gallery.
type MediaGalleryItem struct {
	Media       MediaItem `json:"media"`
	Description *string   `json:"description,omitempty"`
	Spoiler     bool      `json:"spoiler,omitempty"`
}

// AttachmentName returns the file name an attachment://name URL refers
// to, and whether u is such a URL.
func AttachmentName(u string) (string, bool) {
	name, ok := strings.CutPrefix(u, attachmentScheme)
	return name, ok && name != ""
}

// attachmentScheme starts a URL that refers to a file uploaded with the
// message.
const attachmentScheme = "attachment://"

// SelectOption is an option of a string select menu.
type SelectOption struct {
	Label       string                    `json:"label"`
	Value       string                    `json:"value"`
	Description string                    `json:"description,omitempty"`
	Emoji       *discordgo.ComponentEmoji `json:"emoji,omitempty"`
	Default     bool                      `json:"default,omitempty"`
}

// Controls returns the message's interactive components (buttons, select
// menus) in display order, without the action rows, containers and
// sections holding them; a section's button accessory is among them.
func (m Message) Controls() []Component {
	var out []Component
	walkComponents(m.Components, func(c *Component) {
		if interactive(c.Type) {
			out = append(out, *c)
		}
	})
	return out
}

// interactive reports whether components of type t are clicked or
// chosen: buttons, select menus and text inputs.
func interactive(t discordgo.ComponentType) bool {
	switch t {
	case discordgo.ButtonComponent, discordgo.SelectMenuComponent, discordgo.TextInputComponent,
		discordgo.UserSelectMenuComponent, discordgo.RoleSelectMenuComponent,
		discordgo.MentionableSelectMenuComponent, discordgo.ChannelSelectMenuComponent:
		return true
	}
	return false
}

// walkComponents calls fn for every component of cs and their children,
// in display order: a component, then its children, then a section's
// accessory.
func walkComponents(cs []Component, fn func(*Component)) {
	for i := range cs {
		c := &cs[i]
		fn(c)
		walkComponents(c.Components, fn)
		if c.Accessory != nil {
			walkComponents([]Component{*c.Accessory}, fn)
		}
	}
}

// ComponentsOfType returns the message's components of type t, nested
// ones included, in display order: its containers, text displays, media
// galleries, ….
func (m Message) ComponentsOfType(t discordgo.ComponentType) []Component {
	var out []Component
	walkComponents(m.Components, func(c *Component) {
		if c.Type == t {
			out = append(out, *c)
		}
	})
	return out
}

// Text returns what the message says, to search as tests search Content:
// its content, its embeds' titles, descriptions, field names and values
// and footers, and its text displays, one per line, empty ones left out.
func (m Message) Text() string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	add(m.Content)
	for _, e := range m.Embeds {
		if e == nil {
			continue
		}
		add(e.Title)
		add(e.Description)
		for _, fl := range e.Fields {
			if fl != nil {
				add(fl.Name)
				add(fl.Value)
			}
		}
		if e.Footer != nil {
			add(e.Footer.Text)
		}
	}
	for _, c := range m.ComponentsOfType(discordgo.TextDisplayComponent) {
		add(c.Content)
	}
	return strings.Join(parts, "\n")
}

// DiscordgoComponents returns the message's components decoded into
// discordgo's types (*discordgo.Container, *discordgo.TextDisplay,
// *discordgo.ActionsRow, …), as a bot reading the message with discordgo
// sees them; attachment://name URLs are left as sent.
func (m Message) DiscordgoComponents() ([]discordgo.MessageComponent, error) {
	out := make([]discordgo.MessageComponent, 0, len(m.Components))
	for _, c := range m.Components {
		data, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		dc, err := discordgo.MessageComponentFromJSON(data)
		if err != nil {
			return nil, err
		}
		out = append(out, dc)
	}
	return out, nil
}

// ComponentsV2 reports whether the message was sent with the flag
// IS_COMPONENTS_V2.
func (m Message) ComponentsV2() bool { return m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0 }

// ShownAttachments returns the attachments a reader sees: all of them in
// a message without the flag IS_COMPONENTS_V2, only those a component
// references in one with it.
func (m Message) ShownAttachments() []Attachment {
	if !m.ComponentsV2() {
		return m.Attachments
	}
	var out []Attachment
	for _, a := range m.Attachments {
		if a.Referenced {
			out = append(out, a)
		}
	}
	return out
}

// Notified returns the users the message notified when it was created:
// Pinged, or nobody when it was sent with SUPPRESS_NOTIFICATIONS
// (Discord's @silent: "this message will not trigger push and desktop
// notifications", developers/resources/message.mdx, message flags).
func (m Message) Notified() []string {
	if m.Flags&discordgo.MessageFlagsSuppressNotifications != 0 {
		return nil
	}
	return m.Pinged
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
	for _, m := range f.byChannel[channelID] {
		if !m.Ephemeral && !m.Deleted {
			out = append(out, *m)
		}
	}
	return out
}

// LastMessage returns the latest message everyone sees in a channel.
func (f *Fake) LastMessage(channelID string) (Message, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	list := f.byChannel[channelID]
	for i := len(list) - 1; i >= 0; i-- {
		if m := list[i]; !m.Ephemeral && !m.Deleted {
			return *m, true
		}
	}
	return Message{}, false
}

// storeLocked adds a new message. f.mu must be held.
func (f *Fake) storeLocked(m *Message) {
	f.messages[m.ID] = m
	f.order = append(f.order, m.ID)
	f.byChannel[m.ChannelID] = append(f.byChannel[m.ChannelID], m)
	if !m.Ephemeral {
		f.touchLocked(m.ChannelID)
	}
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
