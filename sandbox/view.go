package sandbox

import (
	"bytes"
	"encoding/json"
	"image"
	_ "image/gif" // the sizes of the images shown
	_ "image/jpeg"
	_ "image/png"
	"net/url"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// maxShown is how many of a channel's latest messages the page shows.
const maxShown = 200

// state is what the page shows one user in one channel: sent as JSON on
// the event stream whenever it changes.
type state struct {
	Guild string `json:"guild"`
	// GuildLocale is the server's Discord language.
	GuildLocale string `json:"guild_locale"`
	User        string `json:"user"`
	// Users are the sandbox users, each with their Discord language.
	Users    []User        `json:"users"`
	Bot      string        `json:"bot"` // the bot user's ID
	Channel  string        `json:"channel"`
	Channels []channelView `json:"channels"`
	Messages []messageView `json:"messages"`
	Commands []commandView `json:"commands"`
	Now      int64         `json:"now"`    // sandbox time, Unix milliseconds
	Offset   int64         `json:"offset"` // how far the clock was skipped, milliseconds
}

// channelView is an entry of the channel list.
type channelView struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Thread   bool   `json:"thread,omitempty"`
	ParentID string `json:"parent,omitempty"`
	Archived bool   `json:"archived,omitempty"`
	DM       bool   `json:"dm,omitempty"` // the user's direct messages with the bot
	// Last is the ID of the channel's newest message this user sees, for
	// the page's unread marks.
	Last string `json:"last,omitempty"`
}

// messageView is a message as the page draws it.
type messageView struct {
	ID      string                    `json:"id"`
	Content string                    `json:"content,omitempty"`
	Embeds  []*discordgo.MessageEmbed `json:"embeds,omitempty"`
	// Components are the message's components as Discord's JSON objects
	// (action rows, or with V2 the layout components), attachment:// URLs
	// replaced by the sandbox's.
	Components []any `json:"components,omitempty"`
	// V2 reports the flag IS_COMPONENTS_V2: the components are the whole
	// message, without content or embeds.
	V2          bool             `json:"v2,omitempty"`
	Attachments []attachmentView `json:"attachments,omitempty"`
	// Archived reports a message in an archived thread: Discord's client
	// shows its buttons and menus disabled.
	Archived  bool   `json:"archived,omitempty"`
	Ephemeral bool   `json:"ephemeral,omitempty"`
	Loading   bool   `json:"loading,omitempty"` // a deferred answer: "Malefiz is thinking…"
	Pinged    bool   `json:"pinged,omitempty"`  // the message notified this user
	Invoker   string `json:"invoker,omitempty"` // the user whose interaction this answers
	Command   string `json:"command,omitempty"` // the command line they ran, when known
	Time      int64  `json:"time"`              // sandbox time sent, Unix milliseconds
	Edited    bool   `json:"edited,omitempty"`
	Version   int    `json:"version"` // increases with every edit
}

// attachmentView is a file of a message that no embed shows.
type attachmentView struct {
	Name   string `json:"name"`
	URL    string `json:"url"`
	Image  bool   `json:"image,omitempty"`
	Width  int    `json:"width,omitempty"` // of an image, so the page keeps its place before it loads
	Height int    `json:"height,omitempty"`
	Size   int    `json:"size"`
}

// commandView is a registered command as the command box suggests it.
type commandView struct {
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Options     []optionView `json:"options,omitempty"`
}

// optionView is a subcommand or an option, without the translations the
// page does not show.
type optionView struct {
	Type        discordgo.ApplicationCommandOptionType `json:"type"`
	Name        string                                 `json:"name"`
	Description string                                 `json:"description"`
	Required    bool                                   `json:"required,omitempty"`
	MinValue    *float64                               `json:"min_value,omitempty"`
	MaxValue    float64                                `json:"max_value,omitempty"`
	MinLength   *int                                   `json:"min_length,omitempty"`
	MaxLength   int                                    `json:"max_length,omitempty"`
	Choices     []choiceView                           `json:"choices,omitempty"`
	Options     []optionView                           `json:"options,omitempty"`
}

// choiceView is a choice of an option.
type choiceView struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// optionViews converts a command's options for the page, named and
// described as Discord's client shows them to a user of locale.
func optionViews(opts []*discordgo.ApplicationCommandOption, locale string) []optionView {
	var out []optionView
	for _, o := range opts {
		v := optionView{Type: o.Type, Name: localized(o.Name, o.NameLocalizations, locale),
			Description: localized(o.Description, o.DescriptionLocalizations, locale), Required: o.Required,
			MinValue: o.MinValue, MaxValue: o.MaxValue, MinLength: o.MinLength, MaxLength: o.MaxLength, Options: optionViews(o.Options, locale)}
		for _, c := range o.Choices {
			v.Choices = append(v.Choices, choiceView{Name: localized(c.Name, c.NameLocalizations, locale), Value: c.Value})
		}
		out = append(out, v)
	}
	return out
}

// state builds the view of channel for user.
func (s *Server) state(user, channel string) state {
	f := s.cfg.Fake
	st := state{
		Guild: s.guildName(), GuildLocale: s.guildLocale(), User: user, Users: s.users(), Bot: f.AppID, Channel: channel,
		Channels: []channelView{}, Messages: []messageView{}, Commands: []commandView{},
		Now: s.cfg.Clock.Now().UnixMilli(), Offset: s.cfg.Clock.Offset().Milliseconds(),
	}
	archived := map[string]bool{}
	last := map[string]string{}
	var shown []fakediscord.Message
	for _, m := range f.AllMessages() {
		if m.Deleted || (m.Ephemeral && m.UserID != user) {
			continue
		}
		last[m.ChannelID] = m.ID
		if m.ChannelID == channel {
			shown = append(shown, m)
		}
	}
	for _, c := range s.channels(user) {
		archived[c.ID] = c.Thread && c.Archived
		v := channelView{ID: c.ID, Name: c.Name, Thread: c.Thread, ParentID: c.ParentID, Archived: c.Archived, Last: last[c.ID]}
		if isDM(c) {
			v.DM, v.Name = true, "Malefiz"
		}
		st.Channels = append(st.Channels, v)
	}
	if len(shown) > maxShown {
		shown = shown[len(shown)-maxShown:]
	}
	commands := s.commandLines()
	for _, m := range shown {
		st.Messages = append(st.Messages, s.messageView(m, componentTree(m.Components), user, commands, archived[m.ChannelID]))
	}
	me, _ := s.user(user)
	for _, c := range s.commands() {
		st.Commands = append(st.Commands, commandView{Name: localized(c.Name, localizations(c.NameLocalizations), me.Locale),
			Description: localized(c.Description, localizations(c.DescriptionLocalizations), me.Locale), Options: optionViews(c.Options, me.Locale)})
	}
	return st
}

// messageView converts a message of the fake whose components are tree
// (Discord's JSON objects, see componentTree); archived reports that its
// channel is an archived thread.
func (s *Server) messageView(m fakediscord.Message, tree []any, user string, commands map[string]string, archived bool) messageView {
	v := messageView{
		ID: m.ID, Content: m.Content, Components: tree, Ephemeral: m.Ephemeral,
		V2:       m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0,
		Archived: archived,
		Loading:  m.Flags&discordgo.MessageFlagsLoading != 0,
		Invoker:  m.UserID, Command: commands[m.InteractionID],
		Time: s.cfg.Clock.At(m.Created).UnixMilli(), Edited: !m.Edited.IsZero(), Version: m.Edits,
	}
	// Highlighted as Discord does: the message notified the user and
	// still mentions them (a turn message collapsed to its summary no
	// longer does).
	for _, id := range m.Pinged {
		v.Pinged = v.Pinged || (id == user && mentions(m, tree, user))
	}
	shownByEmbed := map[string]bool{}
	if v.V2 {
		// Discord shows neither content nor embeds with the flag, and an
		// attachment only where a component references it.
		v.Content, v.Embeds = "", nil
		s.resolveTree(m, tree, shownByEmbed)
		return v
	}
	for _, e := range m.Embeds {
		c := *e
		if c.Image != nil {
			img := *c.Image
			img.URL = s.resolve(m, img.URL, shownByEmbed)
			if name, ok := strings.CutPrefix(e.Image.URL, "attachment://"); ok {
				if a, found := m.Attachment(name); found && img.Width == 0 {
					img.Width, img.Height = imageSize(a.Data)
				}
			}
			c.Image = &img
		}
		if c.Thumbnail != nil {
			th := *c.Thumbnail
			th.URL = s.resolve(m, th.URL, shownByEmbed)
			c.Thumbnail = &th
		}
		v.Embeds = append(v.Embeds, &c)
	}
	for _, a := range m.Attachments {
		if shownByEmbed[a.Filename] {
			continue
		}
		av := attachmentView{Name: a.Filename, URL: attachmentURL(m, a),
			Image: strings.HasPrefix(a.ContentType, "image/") || hasImageExt(a.Filename), Size: len(a.Data)}
		if av.Image {
			av.Width, av.Height = imageSize(a.Data)
		}
		v.Attachments = append(v.Attachments, av)
	}
	return v
}

// componentTree returns components (the fake's, whatever their Go type)
// as Discord's JSON objects, so that the page sees every field the fake
// keeps.
func componentTree(components any) []any {
	data, err := json.Marshal(components)
	if err != nil {
		return nil
	}
	var out []any
	if json.Unmarshal(data, &out) != nil {
		return nil
	}
	return out
}

// resolveTree replaces the attachment://NAME URLs of a component tree's
// unfurled media items (a thumbnail's or gallery item's media, a file
// component's file) by the sandbox's URL of that attachment, adds the
// width and height of an image and a file's name and size, as Discord's
// answer does, and notes which attachments are shown.
func (s *Server) resolveTree(m fakediscord.Message, nodes []any, shown map[string]bool) {
	for _, n := range nodes {
		c, ok := n.(map[string]any)
		if !ok {
			continue
		}
		if media, ok := c["media"].(map[string]any); ok {
			s.resolveMedia(m, media, shown)
		}
		if file, ok := c["file"].(map[string]any); ok {
			if a, found := s.resolveMedia(m, file, shown); found {
				c["name"], c["size"] = a.Filename, len(a.Data)
			}
		}
		if items, ok := c["items"].([]any); ok {
			s.resolveTree(m, items, shown)
		}
		if acc, ok := c["accessory"].(map[string]any); ok {
			s.resolveTree(m, []any{acc}, shown)
		}
		if kids, ok := c["components"].([]any); ok {
			s.resolveTree(m, kids, shown)
		}
	}
}

// resolveMedia resolves one unfurled media item {"url": …} in place and
// returns the attachment it references, if any. A reference to a file
// the message does not have gets an empty URL.
func (s *Server) resolveMedia(m fakediscord.Message, media map[string]any, shown map[string]bool) (fakediscord.Attachment, bool) {
	u, _ := media["url"].(string)
	name, ok := strings.CutPrefix(u, "attachment://")
	if !ok {
		return fakediscord.Attachment{}, false
	}
	a, found := m.Attachment(name)
	if !found {
		media["url"] = ""
		return fakediscord.Attachment{}, false
	}
	shown[name] = true
	media["url"] = attachmentURL(m, a)
	if a.ContentType != "" {
		media["content_type"] = a.ContentType
	}
	if w, h := imageSize(a.Data); w > 0 {
		media["width"], media["height"] = w, h
	}
	return a, true
}

// texts returns the content of the text displays of a component tree, in
// display order.
func texts(nodes []any) []string {
	var out []string
	for _, n := range nodes {
		c, ok := n.(map[string]any)
		if !ok {
			continue
		}
		if t, _ := c["type"].(float64); discordgo.ComponentType(t) == discordgo.TextDisplayComponent {
			if s, ok := c["content"].(string); ok {
				out = append(out, s)
			}
		}
		if kids, ok := c["components"].([]any); ok {
			out = append(out, texts(kids)...)
		}
	}
	return out
}

// mentions reports whether a message's content, embeds or text displays
// (tree, its components as JSON objects) mention user.
func mentions(m fakediscord.Message, tree []any, user string) bool {
	shown := texts(tree)
	for _, tag := range []string{"<@" + user + ">", "<@!" + user + ">"} {
		if strings.Contains(m.Content, tag) {
			return true
		}
		for _, t := range shown {
			if strings.Contains(t, tag) {
				return true
			}
		}
		for _, e := range m.Embeds {
			if strings.Contains(e.Description, tag) || strings.Contains(e.Title, tag) {
				return true
			}
		}
	}
	return false
}

// resolve turns an attachment://NAME URL into the sandbox's URL of that
// attachment and notes that an embed shows it.
func (s *Server) resolve(m fakediscord.Message, u string, shown map[string]bool) string {
	name, ok := strings.CutPrefix(u, "attachment://")
	if !ok {
		return u
	}
	a, found := m.Attachment(name)
	if !found {
		return ""
	}
	shown[name] = true
	return attachmentURL(m, a)
}

// attachmentURL is where the sandbox serves an attachment's bytes.
func attachmentURL(m fakediscord.Message, a fakediscord.Attachment) string {
	return "/attachments/" + m.ID + "/" + a.ID + "/" + url.PathEscape(a.Filename)
}

// imageSize returns the size of a PNG, GIF or JPEG image from its header;
// zero when it is none of them.
func imageSize(data []byte) (width, height int) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0
	}
	return cfg.Width, cfg.Height
}

func hasImageExt(name string) bool {
	for _, ext := range []string{".png", ".gif", ".jpg", ".jpeg", ".webp"} {
		if strings.HasSuffix(strings.ToLower(name), ext) {
			return true
		}
	}
	return false
}

// channels lists the channels user sees in the order of the channel
// list: the server's channels and threads, then the user's own DM channel
// with the bot (another user's DMs are not theirs to see).
func (s *Server) channels(user string) []fakediscord.Channel {
	var out []fakediscord.Channel
	for _, c := range s.cfg.Fake.Channels() {
		if !isDM(c) || c.RecipientID == user {
			out = append(out, c)
		}
	}
	return channelList(out)
}

// isDM reports whether c is a direct message channel.
func isDM(c fakediscord.Channel) bool {
	return c.Type == discordgo.ChannelTypeDM || (c.GuildID == "" && c.RecipientID != "")
}

// channelList orders channels as Discord's sidebar does: each thread
// right after its parent channel, in the order the threads were made; a
// thread whose parent is unknown stays where it is.
func channelList(all []fakediscord.Channel) []fakediscord.Channel {
	known := map[string]bool{}
	for _, c := range all {
		if !c.Thread {
			known[c.ID] = true
		}
	}
	out := make([]fakediscord.Channel, 0, len(all))
	for _, c := range all {
		if c.Thread && known[c.ParentID] {
			continue
		}
		out = append(out, c)
		if c.Thread {
			continue
		}
		for _, t := range all {
			if t.Thread && t.ParentID == c.ID {
				out = append(out, t)
			}
		}
	}
	return out
}

// commands returns the commands registered for the sandbox's guild, then
// the global ones not overridden by a guild command.
func (s *Server) commands() []*discordgo.ApplicationCommand {
	f := s.cfg.Fake
	out := f.Commands(f.GuildID)
	for _, c := range f.Commands("") {
		dup := false
		for _, g := range out {
			dup = dup || g.Name == c.Name
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

// guildName is the name of the sandbox's guild.
func (s *Server) guildName() string {
	for _, g := range s.cfg.Fake.Guilds() {
		if g.ID == s.cfg.Fake.GuildID {
			return g.Name
		}
	}
	return "Sandbox"
}

// knownChannel reports whether user sees a channel.
func (s *Server) knownChannel(id, user string) bool {
	for _, c := range s.channels(user) {
		if c.ID == id {
			return true
		}
	}
	return false
}
