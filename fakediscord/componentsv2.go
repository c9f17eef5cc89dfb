package fakediscord

import (
	"bytes"
	"image"
	_ "image/gif"  // DecodeConfig of GIF attachments
	_ "image/jpeg" // DecodeConfig of JPEG attachments
	_ "image/png"  // DecodeConfig of PNG attachments
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// The limits of a message with the flag IS_COMPONENTS_V2.
const (
	// maxV2Components is the number of components a message may hold,
	// nested ones included: "Messages allow up to 40 total components"
	// (developers/components/reference.mdx; raised from 30 on
	// 2025-04-29, developers/change-log.mdx "Raised Component Limits").
	maxV2Components = 40
	// maxV2Text is the number of characters all the text displays of a
	// message may hold together ("The character count of all text
	// display components in a message may total up to 4000 characters",
	// discord/discord-api-docs pull request 8562).
	maxV2Text = 4000
	// maxSectionTexts is the number of text displays a section holds:
	// "One to three child components" (reference.mdx, Section).
	maxSectionTexts = 3
	// maxGalleryItems is the number of items of a media gallery: "1 to
	// 10 media gallery items" (reference.mdx, Media Gallery).
	maxGalleryItems = 10
	// maxAltText is the length of a thumbnail's or gallery item's
	// description, its alt text: "Alt text for the media, max 1024
	// characters" (https://discord.com/developers/docs/components/reference#media-gallery-media-gallery-item-structure
	// and #thumbnail), as an attachment's description is: "description
	// for the file (max 1024 characters)"
	// (https://discord.com/developers/docs/resources/message#attachment-object).
	maxAltText = 1024
)

// The component types a message with the flag IS_COMPONENTS_V2 takes at
// its top level and inside a container ("Container Child Components",
// reference.mdx). A thumbnail is only a section's accessory.
var (
	v2TopLevel       = []discordgo.ComponentType{1, 9, 10, 12, 13, 14, 17}
	v2ContainerChild = []discordgo.ComponentType{1, 9, 10, 12, 13, 14}
)

// v2Check is the state of one validation of a Components V2 message.
type v2Check struct {
	fe       formErrors
	m        *Message
	count    int             // components seen, nested ones included
	text     int             // characters of the text displays
	customID map[string]bool // custom IDs seen
	ids      map[int]bool    // explicit component IDs seen
}

// validateV2 checks a message with the flag IS_COMPONENTS_V2 as Discord
// does and marks the attachments its components reference:
//
//   - no content and no embeds: "When the flag IS_COMPONENTS_V2 is set,
//     the message can only contain components. Providing content,
//     embeds, sticker_ids, poll, or shared_client_theme will fail with a
//     400 BAD REQUEST response" (developers/resources/message.mdx, Create
//     Message). The same check refuses an edit that sets the flag on a
//     message with content or embeds unless it clears them ("content"
//     null or "", "embeds" []): "any of the used content, embeds,
//     sticker_ids, or poll fields must have their values reset to
//     empty ... Failing to do this will result in a 400 BAD REQUEST
//     response" (message.mdx, Edit Message);
//   - at most 40 components, nested ones included, and 4000 characters
//     of text displays in all (see maxV2Components, maxV2Text);
//   - each component where reference.mdx allows it, with its required
//     fields, and unique custom IDs and IDs ("The id must be unique
//     within the message");
//   - every attachment://name names a file of the message ("Supports
//     arbitrary urls and attachment://<filename> references"; a File
//     "only supports attachment references").
//
// Files may come with the flag: webhook.mdx lists files[n] among the
// fields that fail with it, but a media gallery or file component can
// only show an upload of the same request, so the fake takes them.
//
// Discord's error codes for these are not documented; the fake answers
// 400 with code 50035 "Invalid Form Body" and an error per field, as
// Discord does for its other form checks.
func validateV2(fe formErrors, m *Message) {
	if m.Content != "" {
		fe.add("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2", "content")
	}
	if len(m.Embeds) > 0 {
		fe.add("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2", "embeds")
	}
	for i := range m.Attachments {
		m.Attachments[i].Referenced = false
	}
	// The components are numbered below; an edit that left them out
	// shares them with the stored message, which answers may be reading.
	m.Components = cloneComponents(m.Components)
	v := &v2Check{fe: fe, m: m, customID: map[string]bool{}, ids: map[int]bool{}}
	for i := range m.Components {
		v.component(&m.Components[i], v2TopLevel, []string{"components", strconv.Itoa(i)})
	}
	if v.count > maxV2Components {
		fe.add("BASE_TYPE_MAX_LENGTH", "Must be "+strconv.Itoa(maxV2Components)+" or fewer in length (components counted with the nested ones: "+strconv.Itoa(v.count)+").", "components")
	}
	if v.text > maxV2Text {
		fe.add("BASE_TYPE_MAX_LENGTH", "The text displays of a message must be "+strconv.Itoa(maxV2Text)+" or fewer characters in total ("+strconv.Itoa(v.text)+").", "components")
	}
	numberComponents(m.Components, v.ids)
}

// component checks one component at path p, which may be one of the types
// allowed there.
func (v *v2Check) component(c *Component, allowed []discordgo.ComponentType, p []string) {
	v.count++
	if !typeIn(c.Type, allowed) {
		fe := make([]string, len(allowed))
		for i, t := range allowed {
			fe[i] = strconv.Itoa(int(t))
		}
		v.fe.add("UNION_TYPE_CHOICES", `Value of field "type" must be one of (`+strings.Join(fe, ", ")+`).`, append(p, "type")...)
		return
	}
	if c.ID < 0 {
		v.fe.add("NUMBER_TYPE_MIN", "int value should be greater than or equal to 0.", append(p, "id")...)
	} else if c.ID > 0 {
		if v.ids[c.ID] {
			v.fe.add("COMPONENT_ID_DUPLICATED", "Component id must be unique within the message", append(p, "id")...)
		}
		v.ids[c.ID] = true
	}
	at := func(more ...string) []string { return append(append([]string(nil), p...), more...) }
	switch c.Type {
	case discordgo.ActionsRowComponent:
		v.row(c, p)
	case discordgo.ButtonComponent:
		validateButton(v.fe, *c, p)
		v.uniqueCustomID(c.CustomID, p)
	case discordgo.ContainerComponent:
		for i := range c.Components {
			v.component(&c.Components[i], v2ContainerChild, at("components", strconv.Itoa(i)))
		}
		if c.AccentColor != nil && (*c.AccentColor < 0 || *c.AccentColor > 0xFFFFFF) {
			v.fe.add("NUMBER_TYPE_MAX", "int value should be between 0 and 16777215.", at("accent_color")...)
		}
	case discordgo.SectionComponent:
		if n := len(c.Components); n == 0 || n > maxSectionTexts {
			v.fe.add("BASE_TYPE_BAD_LENGTH", "Must be between 1 and "+strconv.Itoa(maxSectionTexts)+" in length.", at("components")...)
		}
		for i := range c.Components {
			v.component(&c.Components[i], []discordgo.ComponentType{discordgo.TextDisplayComponent}, at("components", strconv.Itoa(i)))
		}
		if c.Accessory == nil {
			v.fe.add("BASE_TYPE_REQUIRED", "This field is required", at("accessory")...)
		} else {
			v.component(c.Accessory, []discordgo.ComponentType{discordgo.ButtonComponent, discordgo.ThumbnailComponent}, at("accessory"))
		}
	case discordgo.TextDisplayComponent:
		if c.Content == "" {
			v.fe.add("BASE_TYPE_REQUIRED", "This field is required", at("content")...)
		}
		v.text += utf8.RuneCountInString(c.Content)
	case discordgo.ThumbnailComponent:
		v.media(c.Media, at("media"), false)
		if c.Description != nil {
			maxLen(v.fe, *c.Description, maxAltText, at("description")...)
		}
	case discordgo.MediaGalleryComponent:
		if n := len(c.Items); n == 0 || n > maxGalleryItems {
			v.fe.add("BASE_TYPE_BAD_LENGTH", "Must be between 1 and "+strconv.Itoa(maxGalleryItems)+" in length.", at("items")...)
		}
		for i := range c.Items {
			it := &c.Items[i]
			v.media(&it.Media, at("items", strconv.Itoa(i), "media"), false)
			if it.Description != nil {
				maxLen(v.fe, *it.Description, maxAltText, at("items", strconv.Itoa(i), "description")...)
			}
		}
	case discordgo.FileComponentType:
		v.media(c.File, at("file"), true)
	case discordgo.SeparatorComponent:
		if c.Spacing != 0 && c.Spacing != int(discordgo.SeparatorSpacingSizeSmall) && c.Spacing != int(discordgo.SeparatorSpacingSizeLarge) {
			v.fe.add("BASE_TYPE_CHOICES", "Value must be one of {1, 2}.", at("spacing")...)
		}
	}
}

// row checks an action row of a V2 message: up to five buttons or one
// select menu, as in a message without the flag.
func (v *v2Check) row(row *Component, p []string) {
	if n := len(row.Components); n == 0 || n > 5 {
		v.fe.add("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.", append(append([]string(nil), p...), "components")...)
	}
	for j := range row.Components {
		c := &row.Components[j]
		cp := append(append([]string(nil), p...), "components", strconv.Itoa(j))
		v.count++
		switch c.Type {
		case discordgo.ButtonComponent:
			validateButton(v.fe, *c, cp)
		case discordgo.SelectMenuComponent, discordgo.UserSelectMenuComponent, discordgo.RoleSelectMenuComponent,
			discordgo.MentionableSelectMenuComponent, discordgo.ChannelSelectMenuComponent:
			if len(row.Components) > 1 {
				v.fe.add("COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width", cp...)
			}
			validateSelect(v.fe, *c, cp)
		default:
			v.fe.add("UNION_TYPE_CHOICES", `Value of field "type" must be one of (2, 3, 5, 6, 7, 8).`, append(cp, "type")...)
			continue
		}
		v.uniqueCustomID(c.CustomID, cp)
		if c.ID > 0 {
			if v.ids[c.ID] {
				v.fe.add("COMPONENT_ID_DUPLICATED", "Component id must be unique within the message", append(cp, "id")...)
			}
			v.ids[c.ID] = true
		}
	}
}

// uniqueCustomID records a custom ID and refuses a second one: "Multiple
// components on the same message must not share the same custom_id"
// (reference.mdx, Custom ID).
func (v *v2Check) uniqueCustomID(id string, p []string) {
	if id == "" {
		return
	}
	if v.customID[id] {
		v.fe.add("COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated", append(append([]string(nil), p...), "custom_id")...)
	}
	v.customID[id] = true
}

// media checks an unfurled media item at path p: a URL is required, an
// attachment://name must name a file of the message (and marks it
// referenced), and a file component takes only attachment references.
func (v *v2Check) media(it *MediaItem, p []string, onlyAttachment bool) {
	if it == nil || it.URL == "" {
		v.fe.add("BASE_TYPE_REQUIRED", "This field is required", append(append([]string(nil), p...), "url")...)
		return
	}
	name, ok := AttachmentName(it.URL)
	if !ok {
		if onlyAttachment {
			v.fe.add("UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED", "A file component only supports attachment://<filename> references", append(append([]string(nil), p...), "url")...)
		}
		return
	}
	if i := lastAttachment(v.m, name); i >= 0 {
		v.m.Attachments[i].Referenced = true
		return
	}
	v.fe.add("UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND", "No attachment named \""+name+"\": upload it with the message (files[n]) or keep it (attachments)", append(append([]string(nil), p...), "url")...)
}

// lastAttachment returns the index of the attachment of m an
// attachment://name refers to, or -1: the newest with that name, which is
// the one uploaded with the request when the message kept an older one.
func lastAttachment(m *Message, name string) int {
	for i := len(m.Attachments) - 1; i >= 0; i-- {
		if m.Attachments[i].Filename == name {
			return i
		}
	}
	return -1
}

// typeIn reports whether t is one of ts.
func typeIn(t discordgo.ComponentType, ts []discordgo.ComponentType) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// numberComponents gives the components without an ID the next free ID
// in display order, as Discord does: "The id ... is generated
// sequentially if left empty. Generation of ids won't use another id
// that exists in the message" (reference.mdx, Anatomy of a Component).
// taken holds the IDs the bot chose.
func numberComponents(cs []Component, taken map[int]bool) {
	next := 1
	var walk func([]Component)
	walk = func(cs []Component) {
		for i := range cs {
			c := &cs[i]
			if c.ID == 0 {
				for taken[next] {
					next++
				}
				c.ID = next
				taken[next] = true
			}
			walk(c.Components)
			if c.Accessory != nil {
				acc := []Component{*c.Accessory}
				walk(acc)
				c.Accessory = &acc[0]
			}
		}
	}
	walk(cs)
}

// mentionText returns the text whose mentions a new message pings: its
// content and, with the flag IS_COMPONENTS_V2, its text displays ("When
// the message flag IS_COMPONENTS_V2 is set, the reconstructed arrays and
// boolean are based on the edited content in the components array",
// message.mdx, Edit Message; pingable mentions in a text display "will
// ping and send notifications", reference.mdx, Text Display).
func mentionText(m *Message) string {
	if !m.ComponentsV2() {
		return m.Content
	}
	var b strings.Builder
	b.WriteString(m.Content)
	for _, c := range m.ComponentsOfType(discordgo.TextDisplayComponent) {
		b.WriteString("\n")
		b.WriteString(c.Content)
	}
	return b.String()
}

// wireComponents returns the components of m as Discord answers them:
// each attachment://name resolved to the attachment's URL with its ID,
// content type and, for images, size; a file component with the file's
// name and size. f.mu must be held.
func (f *Fake) wireComponents(m *Message) []Component {
	if len(m.Components) == 0 {
		return []Component{}
	}
	if !m.ComponentsV2() {
		return m.Components
	}
	out := cloneComponents(m.Components)
	resolve := func(it *MediaItem) *Attachment {
		if it == nil {
			return nil
		}
		name, ok := AttachmentName(it.URL)
		if !ok {
			return nil
		}
		i := lastAttachment(m, name)
		if i < 0 {
			return nil
		}
		a := m.Attachments[i]
		it.URL = f.attachmentURL(m, a)
		it.ProxyURL = it.URL
		it.ContentType = a.ContentType
		it.AttachmentID = a.ID
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(a.Data)); err == nil {
			it.Width, it.Height = cfg.Width, cfg.Height
		}
		return &a
	}
	var walk func([]Component)
	walk = func(cs []Component) {
		for i := range cs {
			c := &cs[i]
			resolve(c.Media)
			for j := range c.Items {
				resolve(&c.Items[j].Media)
			}
			if a := resolve(c.File); a != nil {
				c.Name, c.Size = a.Filename, len(a.Data)
			}
			walk(c.Components)
			if c.Accessory != nil {
				acc := []Component{*c.Accessory}
				walk(acc)
				c.Accessory = &acc[0]
			}
		}
	}
	walk(out)
	return out
}

// cloneComponents returns a deep copy of cs.
func cloneComponents(cs []Component) []Component {
	if cs == nil {
		return nil
	}
	out := make([]Component, len(cs))
	for i, c := range cs {
		c.Components = cloneComponents(c.Components)
		c.Items = append([]MediaGalleryItem(nil), c.Items...)
		if c.Accessory != nil {
			acc := cloneComponents([]Component{*c.Accessory})
			c.Accessory = &acc[0]
		}
		if c.Media != nil {
			media := *c.Media
			c.Media = &media
		}
		if c.File != nil {
			file := *c.File
			c.File = &file
		}
		out[i] = c
	}
	return out
}

// attachmentURL returns the URL the fake serves an attachment of m at.
func (f *Fake) attachmentURL(m *Message, a Attachment) string {
	return f.URL() + "/attachments/" + m.ChannelID + "/" + a.ID + "/" + a.Filename
}
