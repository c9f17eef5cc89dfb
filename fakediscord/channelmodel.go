package fakediscord

import (
	"net/http"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// dmPermissions are what a bot may do in a DM channel.
const dmPermissions int64 = discordgo.PermissionViewChannel |
	discordgo.PermissionSendMessages |
	discordgo.PermissionEmbedLinks |
	discordgo.PermissionAttachFiles |
	discordgo.PermissionReadMessageHistory |
	discordgo.PermissionAddReactions

// autoArchiveDurations are the auto_archive_duration values Discord takes,
// in minutes.
var autoArchiveDurations = []int{60, 1440, 4320, 10080}

// channel is a thread or a DM channel the fake made. Its fields are
// guarded by Fake.mu.
type channel struct {
	id      string
	typ     discordgo.ChannelType
	guild   string // "" for a DM
	parent  string // the channel a thread was started in
	name    string
	owner   string // the thread's creator: the bot
	created time.Time

	archived     bool
	locked       bool
	autoArchive  int       // minutes of inactivity until Discord archives the thread
	archivedAt   time.Time // last change of archived
	lastActivity time.Time // on the fake's clock: creation, last message, unarchive

	members []threadMember // thread members in join order

	recipient string // the user of a DM channel
}

// threadMember is a user who joined a thread.
type threadMember struct {
	user   string
	joined time.Time
}

// isThread reports whether ch is a thread.
func (ch *channel) isThread() bool { return ch.typ == discordgo.ChannelTypeGuildPublicThread }

// member returns the index of a user in the thread's members, or -1.
func (ch *channel) member(user string) int {
	for i, m := range ch.members {
		if m.user == user {
			return i
		}
	}
	return -1
}

// autoArchiveLocked archives the threads whose auto_archive_duration
// passed on the fake's clock since their last activity, as Discord does
// ("the thread will stop showing in the channel list after
// auto_archive_duration minutes of inactivity", developers/resources/
// channel.mdx), and dispatches THREAD_UPDATE for each. f.mu must be held.
func (f *Fake) autoArchiveLocked() {
	now := f.now()
	for _, id := range f.chanOrder {
		ch := f.chans[id]
		if !ch.isThread() || ch.archived || ch.autoArchive <= 0 {
			continue
		}
		due := ch.lastActivity.Add(time.Duration(ch.autoArchive) * time.Minute)
		if now.Before(due) {
			continue
		}
		ch.archived = true
		ch.archivedAt = due
		f.guildEventLocked(ch.guild, "THREAD_UPDATE", f.wireChannelLocked(ch.id))
		f.notifyLocked()
	}
}

// archivedLocked reports whether a channel is an archived thread. f.mu
// must be held.
func (f *Fake) archivedLocked(channelID string) bool {
	ch := f.chans[channelID]
	return ch != nil && ch.isThread() && ch.archived
}

// touchLocked records activity in a channel, if it is a thread: a new
// message restarts its auto-archive time. f.mu must be held.
func (f *Fake) touchLocked(channelID string) {
	if ch := f.chans[channelID]; ch != nil && ch.isThread() {
		ch.lastActivity = f.now()
	}
}

// addChannelLocked stores a new thread or DM channel. f.mu must be held.
func (f *Fake) addChannelLocked(ch *channel) {
	f.chans[ch.id] = ch
	f.chanOrder = append(f.chanOrder, ch.id)
	if ch.guild != "" {
		f.channelGuild[ch.id] = ch.guild
	}
}

// channelNameLocked returns the name of a channel: "general" for a
// guild's first configured channel, "channel-2", … for the next ones, the
// thread's name, and "channel-" plus the ID's last digits for channels
// the fake learnt of from an Invocation. f.mu must be held.
func (f *Fake) channelNameLocked(id string) string {
	if ch := f.chans[id]; ch != nil {
		return ch.name
	}
	for _, g := range f.guilds {
		for i, c := range g.Channels {
			if c != id {
				continue
			}
			if i == 0 {
				return "general"
			}
			return "channel-" + itoa64(int64(i+1))
		}
	}
	return "channel-" + tail(id)
}

// wireChannelLocked returns a channel as Discord's channel object. f.mu
// must be held.
func (f *Fake) wireChannelLocked(id string) map[string]any {
	ch := f.chans[id]
	switch {
	case ch == nil:
		return map[string]any{
			"id": id, "type": discordgo.ChannelTypeGuildText, "guild_id": f.guildOfLocked(id), "name": f.channelNameLocked(id),
			"flags": 0, "nsfw": false, "parent_id": nil, "position": f.positionLocked(id),
			"rate_limit_per_user": 0, "topic": nil, "last_message_id": nil,
		}
	case ch.typ == discordgo.ChannelTypeDM:
		return map[string]any{
			"id": id, "type": ch.typ, "last_message_id": f.lastMessageLocked(id), "flags": 0,
			"recipients": []any{f.wireUser(ch.recipient)},
		}
	}
	count := 0
	for _, m := range f.byChannel[id] {
		if !m.Ephemeral && !m.Deleted {
			count++
		}
	}
	return map[string]any{
		"id": id, "type": ch.typ, "guild_id": ch.guild, "parent_id": ch.parent, "name": ch.name,
		"owner_id": ch.owner, "flags": 0, "rate_limit_per_user": 0, "last_message_id": f.lastMessageLocked(id),
		"message_count": count, "total_message_sent": count, "member_count": len(ch.members),
		"thread_metadata": map[string]any{
			"archived": ch.archived, "auto_archive_duration": ch.autoArchive, "locked": ch.locked,
			"archive_timestamp": ch.archivedAt.UTC().Format(time.RFC3339Nano),
			"create_timestamp":  ch.created.UTC().Format(time.RFC3339Nano),
		},
	}
}

// positionLocked returns the position of a configured guild channel.
func (f *Fake) positionLocked(id string) int {
	for _, g := range f.guilds {
		for i, c := range g.Channels {
			if c == id {
				return i
			}
		}
	}
	return 0
}

// lastMessageLocked returns the ID of the latest visible message in a
// channel, or nil.
func (f *Fake) lastMessageLocked(id string) any {
	list := f.byChannel[id]
	for i := len(list) - 1; i >= 0; i-- {
		if m := list[i]; !m.Ephemeral && !m.Deleted {
			return m.ID
		}
	}
	return nil
}

// knownChannelLocked reports whether the fake knows a channel: a guild
// channel, one an Invocation used, a thread or a DM channel.
func (f *Fake) knownChannelLocked(id string) bool {
	return f.chans[id] != nil || f.channelGuild[id] != ""
}

// getChannel serves GET /channels/{channel}.
func (f *Fake) getChannel(c *Call) (int, any) {
	id := c.Param("channel")
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.knownChannelLocked(id) {
		return errUnknownChannel().reply()
	}
	if f.permsLocked(id)&discordgo.PermissionViewChannel == 0 {
		return errMissingAccess().reply()
	}
	return http.StatusOK, f.wireChannelLocked(id)
}

// editChannel serves PATCH /channels/{channel}: a thread's name,
// archived, locked and auto_archive_duration, or a text channel's name.
func (f *Fake) editChannel(c *Call) (int, any) {
	var body struct {
		Name                *string `json:"name"`
		Archived            *bool   `json:"archived"`
		Locked              *bool   `json:"locked"`
		AutoArchiveDuration *int    `json:"auto_archive_duration"`
	}
	if c.Decode(&body) != nil {
		return invalidForm("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType").reply()
	}
	id := c.Param("channel")
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.knownChannelLocked(id) {
		return errUnknownChannel().reply()
	}
	perms := f.permsLocked(id)
	if perms&discordgo.PermissionViewChannel == 0 {
		return errMissingAccess().reply()
	}
	fe := formErrors{}
	if body.Name != nil && (len([]rune(*body.Name)) < 1 || len([]rune(*body.Name)) > 100) {
		fe.add("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.", "name")
	}
	if d := body.AutoArchiveDuration; d != nil && !validArchiveDuration(*d) {
		fe.add("BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.", "auto_archive_duration")
	}
	if e := fe.err(); e != nil {
		return e.reply()
	}
	ch := f.chans[id]
	if ch == nil || !ch.isThread() {
		if ch != nil || body.Archived != nil || body.Locked != nil || body.AutoArchiveDuration != nil {
			return errWrongChannelType().reply()
		}
		if perms&discordgo.PermissionManageChannels == 0 {
			return errMissingPermissions().reply()
		}
		// A text channel's name lives in the configuration; the fake
		// keeps it.
		return http.StatusOK, f.wireChannelLocked(id)
	}
	unarchive := body.Archived != nil && !*body.Archived
	if ch.archived && !unarchive {
		return errThreadArchived().reply()
	}
	manage := perms&discordgo.PermissionManageThreads != 0
	if (body.Locked != nil && *body.Locked != ch.locked || unarchive && ch.locked) && !manage {
		return errMissingPermissions().reply()
	}
	if body.Name != nil {
		ch.name = *body.Name
	}
	if body.AutoArchiveDuration != nil {
		ch.autoArchive = *body.AutoArchiveDuration
	}
	if body.Locked != nil {
		ch.locked = *body.Locked
	}
	if body.Archived != nil && *body.Archived != ch.archived {
		ch.archived = *body.Archived
		ch.archivedAt = c.Time
		if !ch.archived {
			ch.lastActivity = f.now()
		}
	}
	wire := f.wireChannelLocked(id)
	f.guildEventLocked(ch.guild, "THREAD_UPDATE", wire)
	return http.StatusOK, wire
}

// validArchiveDuration reports whether d is an auto_archive_duration
// Discord takes.
func validArchiveDuration(d int) bool { return slices.Contains(autoArchiveDurations, d) }

func errUnknownChannel() *apiError {
	return &apiError{status: http.StatusNotFound, Code: codeUnknownChannel, Message: "Unknown Channel"}
}

func errWrongChannelType() *apiError {
	return &apiError{status: http.StatusBadRequest, Code: codeWrongChannelType, Message: "Cannot execute action on this channel type"}
}

func errThreadArchived() *apiError {
	return &apiError{status: http.StatusBadRequest, Code: codeThreadArchived, Message: "Thread is archived"}
}

func errCannotDM() *apiError {
	return &apiError{status: http.StatusForbidden, Code: codeCannotDM, Message: "Cannot send messages to this user"}
}
