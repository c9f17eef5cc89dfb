package fakediscord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// ErrInvocation is wrapped by the errors of an Invocation a Discord user
// could not make: an unregistered command, a missing required option, a
// button that is not on the message, a disabled one.
var ErrInvocation = errors.New("fakediscord: impossible invocation")

// Invocation describes what a user does: run a slash command
// (SlashCommand) or click a component (Click). Zero fields take defaults.
type Invocation struct {
	Guild       string // default: the clicked message's guild, else Fake.GuildID
	Channel     string // default: the clicked message's channel, else Fake.ChannelID
	User        string // user ID, default Fake.UserID
	UserName    string // default derived from the user ID
	Locale      string // the user's client locale, default "en-US"
	Permissions int64  // the member's permissions, default DefaultMemberPermissions

	// Name, Sub and Options describe a slash command: Sub is the
	// subcommand ("new") or group and subcommand ("admin reset");
	// Options maps option names to values: string, bool, any integer
	// or float type, or a snowflake string for user, channel, role and
	// mentionable options. They are checked against the registered
	// command.
	Name    string
	Sub     string
	Options map[string]any

	// MessageID, CustomID and Values describe a click: the message, the
	// component's custom ID and, for a select menu, the chosen values.
	MessageID string
	CustomID  string
	Values    []string

	// Endpoint is the URL of the interactions endpoint to deliver the
	// interaction to; "" means the next one of WithHTTPInteractions or
	// SetInteractionEndpoints in turn, or the gateway when there is none.
	Endpoint string
}

// Response is how the bot answered an interaction: its callback.
type Response struct {
	InteractionID string
	Token         string // the interaction token, for webhook routes
	Type          discordgo.InteractionResponseType
	// Message is the message the callback created (types 4 and 5) or
	// updated (7), or the clicked message (6), right after the callback.
	Message *Message
	Modal   *Modal          // the modal a type 9 callback opened
	Data    json.RawMessage // the callback's data as sent
	Files   []File          // the files sent with the callback
	// Latency is the time from the dispatch of INTERACTION_CREATE to the
	// arrival of the callback.
	Latency time.Duration
	Call    Call // the callback request
}

// Ephemeral reports whether the callback's message is visible only to the
// invoking user.
func (r *Response) Ephemeral() bool { return r.Message != nil && r.Message.Ephemeral }

// Modal is the data of a modal callback.
type Modal struct {
	CustomID   string      `json:"custom_id"`
	Title      string      `json:"title"`
	Components []Component `json:"components"`
}

// interaction is the fake's record of a dispatched interaction. Its
// fields after dispatched are guarded by Fake.mu.
type interaction struct {
	id, token   string
	typ         discordgo.InteractionType
	guild       string
	channel     string
	user        string
	source      string // the clicked message
	dispatched  time.Time
	born        time.Time // dispatched on the fake's clock (WithClock): the token's 15 minutes
	answered    bool
	original    string // the message @original names
	resp        *Response
	messageType discordgo.MessageType
	endpoint    string // the interactions endpoint asked for
	// readyAt is when the message an HTTP answer created is made: until
	// then @original is unknown (WithResponseDelay).
	readyAt time.Time
}

// SlashCommand dispatches an application command interaction and waits,
// until ctx is done, for the bot's callback. The command must have been
// registered. If the callback was refused (status not 2xx), the Response
// comes with an error saying why.
func (f *Fake) SlashCommand(ctx context.Context, inv Invocation) (*Response, error) {
	f.mu.Lock()
	it, payload, err := f.commandInteractionLocked(inv)
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return f.invoke(ctx, it, payload)
}

// Click dispatches a message component interaction: a click on a button or
// a choice in a select menu of a message the bot sent, and waits, until ctx
// is done, for the bot's callback. The component must be on the message and
// enabled. If the callback was refused (status not 2xx), the Response comes
// with an error saying why.
func (f *Fake) Click(ctx context.Context, inv Invocation) (*Response, error) {
	f.mu.Lock()
	it, payload, err := f.componentInteractionLocked(inv)
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return f.invoke(ctx, it, payload)
}

// invoke dispatches an interaction, over HTTP to an interactions
// endpoint if there is one or on the gateway connection of the guild's
// shard, and waits for its callback.
func (f *Fake) invoke(ctx context.Context, it *interaction, payload any) (*Response, error) {
	f.mu.Lock()
	endpoint := f.web.pickLocked(it.endpoint)
	f.mu.Unlock()
	if endpoint != "" {
		return f.invokeHTTP(ctx, it, payload, endpoint)
	}
	shard := ShardOf(it.guild, f.cfg.shards)
	if err := f.WaitShard(ctx, shard); err != nil {
		return nil, fmt.Errorf("interaction %s: shard %d: %w", it.id, shard, err)
	}
	f.mu.Lock()
	start := len(f.calls)
	it.dispatched, it.born = time.Now(), f.now()
	f.interactions[it.token] = it
	live := f.gw.live[shard]
	if live != nil {
		f.sendEventLocked(live, "INTERACTION_CREATE", payload)
	}
	f.mu.Unlock()
	if live == nil {
		return nil, fmt.Errorf("interaction %s: %w", it.id, errNotConnected)
	}
	c, err := f.waitFrom(ctx, start, func(c Call) bool {
		return c.Route == RouteInteractionCallback && c.InteractionID == it.id && c.Status != 429
	})
	if err != nil {
		return nil, fmt.Errorf("interaction %s: waiting for the callback: %w", it.id, err)
	}
	f.mu.Lock()
	resp := it.resp
	f.mu.Unlock()
	if resp == nil {
		resp = &Response{InteractionID: it.id, Token: it.token, Data: c.Body, Files: c.Files, Latency: c.Time.Sub(it.dispatched)}
	}
	resp.Call = c
	if !c.OK() {
		return resp, fmt.Errorf("interaction %s: callback answered %d after %v: %s", it.id, c.Status, resp.Latency, c.Response)
	}
	return resp, nil
}

// contextLocked fills the defaults of inv and checks its guild and
// channel. f.mu must be held.
func (f *Fake) contextLocked(inv *Invocation) error {
	f.autoArchiveLocked()
	if ch := f.chans[inv.Channel]; ch != nil && !ch.isThread() {
		return fmt.Errorf("%w: channel %s is a DM channel; the fake invokes only in guilds", ErrInvocation, inv.Channel)
	}
	if inv.Guild == "" {
		inv.Guild = f.guildOfLocked(inv.Channel)
	}
	if inv.Guild == "" {
		inv.Guild = f.GuildID
	}
	g, ok := f.guild(inv.Guild)
	if !ok {
		return fmt.Errorf("%w: the bot is not in guild %s", ErrInvocation, inv.Guild)
	}
	if inv.Channel == "" {
		inv.Channel = f.ChannelID
		if inv.Guild != f.GuildID {
			inv.Channel = g.Channels[0]
		}
	}
	if known := f.channelGuild[inv.Channel]; known == "" {
		f.channelGuild[inv.Channel] = inv.Guild
	} else if known != inv.Guild {
		return fmt.Errorf("%w: channel %s is in guild %s, not %s", ErrInvocation, inv.Channel, known, inv.Guild)
	}
	if inv.User == "" {
		inv.User = f.UserID
	}
	if inv.Locale == "" {
		inv.Locale = string(discordgo.EnglishUS)
	}
	if inv.Permissions == 0 {
		inv.Permissions = DefaultMemberPermissions
	}
	return nil
}

// newInteraction returns the record of a new interaction for inv.
func newInteraction(typ discordgo.InteractionType, inv Invocation) *interaction {
	return &interaction{
		id: newID(), token: newToken("aW50ZXJhY3Rpb24."), typ: typ,
		guild: inv.Guild, channel: inv.Channel, user: inv.User, endpoint: inv.Endpoint,
	}
}

// commandInteractionLocked builds an application command interaction.
func (f *Fake) commandInteractionLocked(inv Invocation) (*interaction, *wireInteraction, error) {
	if err := f.contextLocked(&inv); err != nil {
		return nil, nil, err
	}
	cmd := f.commandLocked(inv.Guild, inv.Name)
	if cmd == nil {
		return nil, nil, fmt.Errorf("%w: no command /%s registered for guild %s or globally", ErrInvocation, inv.Name, inv.Guild)
	}
	if p := cmd.DefaultMemberPermissions; p != nil && inv.Permissions&discordgo.PermissionAdministrator == 0 && inv.Permissions&*p != *p {
		return nil, nil, fmt.Errorf("%w: /%s needs permissions %d", ErrInvocation, inv.Name, *p)
	}
	res := &resolved{}
	opts, err := f.buildOptions(cmd.Options, splitSub(inv.Sub), inv, res)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: /%s %s: %v", ErrInvocation, inv.Name, inv.Sub, err)
	}
	data := map[string]any{"id": cmd.ID, "name": cmd.Name, "type": discordgo.ChatApplicationCommand}
	if cmd.GuildID != "" {
		data["guild_id"] = cmd.GuildID
	}
	if len(opts) > 0 {
		data["options"] = opts
	}
	if !res.empty() {
		data["resolved"] = res
	}
	it := newInteraction(discordgo.InteractionApplicationCommand, inv)
	it.messageType = discordgo.MessageTypeChatInputCommand
	return it, f.wireInteractionLocked(it, inv, data), nil
}

// componentInteractionLocked builds a message component interaction.
func (f *Fake) componentInteractionLocked(inv Invocation) (*interaction, *wireInteraction, error) {
	m := f.liveLocked(inv.MessageID)
	if m == nil {
		return nil, nil, fmt.Errorf("%w: no message %q to click on", ErrInvocation, inv.MessageID)
	}
	if inv.Channel == "" {
		inv.Channel = m.ChannelID
	}
	if inv.Guild == "" {
		inv.Guild = m.GuildID
	}
	if inv.Channel != m.ChannelID {
		return nil, nil, fmt.Errorf("%w: message %s is in channel %s, not %s", ErrInvocation, m.ID, m.ChannelID, inv.Channel)
	}
	if err := f.contextLocked(&inv); err != nil {
		return nil, nil, err
	}
	f.autoArchiveLocked()
	if th := f.chans[m.ChannelID]; th != nil && th.isThread() && th.archived {
		// Discord's client greys out the components of messages in an
		// archived thread (reported for the desktop client by the
		// discord-needle bot; malefiz issue 21): nobody can click them.
		return nil, nil, fmt.Errorf("%w: message %s is in the archived thread %s: its components cannot be clicked", ErrInvocation, m.ID, th.id)
	}
	if m.Ephemeral && m.UserID != inv.User {
		return nil, nil, fmt.Errorf("%w: message %s is ephemeral to user %s", ErrInvocation, m.ID, m.UserID)
	}
	c, ok := m.Component(inv.CustomID)
	switch {
	case !ok:
		return nil, nil, fmt.Errorf("%w: message %s has no component %q (it has %q)", ErrInvocation, m.ID, inv.CustomID, m.CustomIDs())
	case c.Disabled:
		return nil, nil, fmt.Errorf("%w: component %q is disabled", ErrInvocation, inv.CustomID)
	}
	data := map[string]any{"custom_id": c.CustomID, "component_type": c.Type}
	if c.Type == discordgo.ButtonComponent {
		if inv.Values != nil {
			return nil, nil, fmt.Errorf("%w: %q is a button, it takes no values", ErrInvocation, c.CustomID)
		}
	} else {
		if err := checkValues(c, inv.Values); err != nil {
			return nil, nil, fmt.Errorf("%w: %q: %v", ErrInvocation, c.CustomID, err)
		}
		data["values"] = append([]string{}, inv.Values...)
	}
	it := newInteraction(discordgo.InteractionMessageComponent, inv)
	it.source = m.ID
	w := f.wireInteractionLocked(it, inv, data)
	w.Message = f.wireMessage(m)
	return it, w, nil
}

// checkValues checks the values chosen in a select menu.
func checkValues(c Component, values []string) error {
	lo, hi := 1, 1
	if c.MinValues != nil {
		lo = *c.MinValues
	}
	if c.MaxValues > 0 {
		hi = c.MaxValues
	}
	if len(values) < lo || len(values) > hi {
		return fmt.Errorf("%d values chosen, the menu takes %d to %d", len(values), lo, hi)
	}
	if c.Type != discordgo.SelectMenuComponent {
		return nil
	}
	for _, v := range values {
		found := false
		for _, o := range c.Options {
			found = found || o.Value == v
		}
		if !found {
			return fmt.Errorf("value %q is not an option", v)
		}
	}
	return nil
}

// wireInteraction is an interaction as INTERACTION_CREATE sends it; see
// testdata/*.json.
type wireInteraction struct {
	ID                           string                    `json:"id"`
	ApplicationID                string                    `json:"application_id"`
	Type                         discordgo.InteractionType `json:"type"`
	Data                         any                       `json:"data"`
	Guild                        map[string]any            `json:"guild"`
	GuildID                      string                    `json:"guild_id"`
	Channel                      map[string]any            `json:"channel"`
	ChannelID                    string                    `json:"channel_id"`
	Member                       map[string]any            `json:"member,omitempty"`
	User                         map[string]any            `json:"user,omitempty"`
	Message                      map[string]any            `json:"message,omitempty"`
	Token                        string                    `json:"token"`
	Version                      int                       `json:"version"`
	Locale                       string                    `json:"locale"`
	GuildLocale                  string                    `json:"guild_locale"`
	AppPermissions               string                    `json:"app_permissions"`
	Entitlements                 []any                     `json:"entitlements"`
	AuthorizingIntegrationOwners map[string]string         `json:"authorizing_integration_owners"`
	Context                      int                       `json:"context"`
	AttachmentSizeLimit          int                       `json:"attachment_size_limit"`
}

// wireInteractionLocked builds the common part of an interaction payload.
func (f *Fake) wireInteractionLocked(it *interaction, inv Invocation, data any) *wireInteraction {
	g, _ := f.guild(inv.Guild)
	g.Locale = f.guildLocaleLocked(g)
	member := f.wireMember(inv.User, inv.UserName)
	member["permissions"] = itoa64(inv.Permissions)
	channel := f.wireChannelLocked(inv.Channel)
	channel["permissions"] = itoa64(inv.Permissions)
	return &wireInteraction{
		ID:                           it.id,
		ApplicationID:                f.AppID,
		Type:                         it.typ,
		Data:                         data,
		Guild:                        map[string]any{"id": g.ID, "locale": g.Locale, "features": []string{}},
		GuildID:                      g.ID,
		Channel:                      channel,
		ChannelID:                    inv.Channel,
		Member:                       member,
		Token:                        it.token,
		Version:                      1,
		Locale:                       inv.Locale,
		GuildLocale:                  g.Locale,
		AppPermissions:               itoa64(f.permsLocked(inv.Channel)),
		Entitlements:                 []any{},
		AuthorizingIntegrationOwners: map[string]string{"0": g.ID},
		Context:                      0,
		AttachmentSizeLimit:          maxFileSize,
	}
}

// wireUser returns a user object for a user ID.
func (f *Fake) wireUser(id string) map[string]any {
	return wireUserNamed(id, "")
}

// wireUserNamed returns a user object with the given name, or one derived
// from the ID.
func wireUserNamed(id, name string) map[string]any {
	if name == "" {
		name = userName(id)
	}
	return map[string]any{
		"id": id, "username": name, "global_name": name, "discriminator": "0",
		"avatar": nil, "public_flags": 0, "avatar_decoration_data": nil,
	}
}

// wireMember returns a guild member object for a user.
func (f *Fake) wireMember(id, name string) map[string]any {
	return map[string]any{
		"user": wireUserNamed(id, name), "roles": []string{}, "permissions": itoa64(DefaultMemberPermissions),
		"joined_at": "2024-01-01T12:00:00.000000+00:00", "nick": nil, "avatar": nil,
		"deaf": false, "mute": false, "pending": false, "flags": 0,
		"premium_since": nil, "communication_disabled_until": nil,
	}
}

// userName derives a user name from a user ID.
func userName(id string) string { return "user" + tail(id) }

// tail returns the last four characters of an ID.
func tail(id string) string {
	if len(id) <= 4 {
		return id
	}
	return id[len(id)-4:]
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
