package fakediscord

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
)

// SetPermissions sets the bot's permissions in a channel. They are sent as
// app_permissions with interactions from that channel and checked by the
// channel message routes: creating needs View Channel and Send Messages
// (plus Embed Links for embeds and Attach Files for files), reading needs
// Read Message History. Interaction responses and follow-ups need none,
// as on Discord.
func (f *Fake) SetPermissions(channelID string, perms int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.perms[channelID] = perms
}

// permsLocked returns the bot's permissions in a channel. f.mu must be
// held.
func (f *Fake) permsLocked(channelID string) int64 {
	if p, ok := f.perms[channelID]; ok {
		return p
	}
	return DefaultAppPermissions
}

// DeleteMessage deletes a message as a user with Manage Messages would:
// later reads and edits of it answer 404 Unknown Message (10008). A
// MESSAGE_DELETE event is dispatched if the bot is connected. It reports
// whether the message existed.
func (f *Fake) DeleteMessage(channelID, messageID string) bool {
	f.mu.Lock()
	m := f.liveLocked(messageID)
	if m == nil || m.ChannelID != channelID {
		f.mu.Unlock()
		return false
	}
	m.Deleted = true
	guild := m.GuildID
	f.notifyLocked()
	f.mu.Unlock()
	ev := map[string]any{"id": messageID, "channel_id": channelID}
	if guild != "" {
		ev["guild_id"] = guild
	}
	_ = f.dispatch("MESSAGE_DELETE", ev)
	return true
}

// channelMessageLocked returns the channel message addressed by a call,
// or the error Discord gives. f.mu must be held.
func (f *Fake) channelMessageLocked(c *Call, need int64) (*Message, *apiError) {
	ch := c.Param("channel")
	perms := f.permsLocked(ch)
	if perms&discordgo.PermissionViewChannel == 0 {
		return nil, errMissingAccess()
	}
	if perms&need != need {
		return nil, errMissingPermissions()
	}
	m := f.liveLocked(c.Param("message"))
	if m == nil || m.ChannelID != ch || m.Ephemeral {
		return nil, errUnknownMessage()
	}
	return m, nil
}

// createMessage serves POST /channels/{channel}/messages.
func (f *Fake) createMessage(c *Call) (int, any) {
	fs, e := fields(c.Body)
	if e != nil {
		return e.reply()
	}
	ch := c.Param("channel")
	f.mu.Lock()
	defer f.mu.Unlock()
	need := int64(discordgo.PermissionSendMessages)
	if len(c.Files) > 0 {
		need |= discordgo.PermissionAttachFiles
	}
	if nonEmptyArray(fs["embeds"]) {
		need |= discordgo.PermissionEmbedLinks
	}
	perms := f.permsLocked(ch)
	if perms&discordgo.PermissionViewChannel == 0 {
		return errMissingAccess().reply()
	}
	if perms&need != need {
		return errMissingPermissions().reply()
	}
	m := &Message{ID: newID(), ChannelID: ch, GuildID: f.guildOfLocked(ch), Created: c.Time}
	if e := applyPayload(m, fs, c.Files); e != nil {
		return e.reply()
	}
	if e := validateMessage(m); e != nil {
		return e.reply()
	}
	m.Pinged = pinged(m.Content, m.AllowedMentions)
	f.storeLocked(m)
	return http.StatusOK, f.wireMessage(m)
}

// getMessage serves GET /channels/{channel}/messages/{message}.
func (f *Fake) getMessage(c *Call) (int, any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, e := f.channelMessageLocked(c, discordgo.PermissionReadMessageHistory)
	if e != nil {
		return e.reply()
	}
	return http.StatusOK, f.wireMessage(m)
}

// editMessage serves PATCH /channels/{channel}/messages/{message}.
func (f *Fake) editMessage(c *Call) (int, any) {
	fs, e := fields(c.Body)
	if e != nil {
		return e.reply()
	}
	var need int64
	if len(c.Files) > 0 {
		need = discordgo.PermissionAttachFiles
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	m, e := f.channelMessageLocked(c, need)
	if e != nil {
		return e.reply()
	}
	if e := f.editLocked(m, fs, c.Files, c.Time); e != nil {
		return e.reply()
	}
	return http.StatusOK, f.wireMessage(m)
}

// deleteMessage serves DELETE /channels/{channel}/messages/{message}.
func (f *Fake) deleteMessage(c *Call) (int, any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, e := f.channelMessageLocked(c, 0)
	if e != nil {
		return e.reply()
	}
	m.Deleted = true
	return http.StatusNoContent, nil
}

// editLocked applies an edit payload to m if the result is valid. f.mu
// must be held.
func (f *Fake) editLocked(m *Message, fs map[string]json.RawMessage, files []File, at time.Time) *apiError {
	next := *m
	if e := applyPayload(&next, fs, files); e != nil {
		return e
	}
	next.Flags &^= discordgo.MessageFlagsLoading
	if e := validateMessage(&next); e != nil {
		return e
	}
	next.Edited = at
	next.Edits++
	if m.Flags&discordgo.MessageFlagsLoading != 0 {
		// The first edit of a deferred response is what pings.
		next.Pinged = pinged(next.Content, next.AllowedMentions)
	}
	*m = next
	return nil
}
