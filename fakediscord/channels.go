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
// as on Discord. A thread has its parent channel's permissions; posting
// in it needs Send Messages in Threads instead of Send Messages, starting
// one needs Create Public Threads.
func (f *Fake) SetPermissions(channelID string, perms int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.perms[channelID] = perms
}

// permsLocked returns the bot's permissions in a channel. f.mu must be
// held.
func (f *Fake) permsLocked(channelID string) int64 {
	if ch := f.chans[channelID]; ch != nil {
		if !ch.isThread() {
			return dmPermissions
		}
		channelID = ch.parent
	}
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
	ev := map[string]any{"id": messageID, "channel_id": channelID}
	if m.GuildID != "" {
		ev["guild_id"] = m.GuildID
	}
	f.guildEventLocked(m.GuildID, "MESSAGE_DELETE", ev)
	f.notifyLocked()
	f.mu.Unlock()
	return true
}

// channelMessageLocked returns the channel message addressed by a call,
// or the error Discord gives; a change (write) is refused in an archived
// thread. f.mu must be held.
func (f *Fake) channelMessageLocked(c *Call, need int64, write bool) (*Message, *apiError) {
	ch := c.Param("channel")
	perms := f.permsLocked(ch)
	if perms&discordgo.PermissionViewChannel == 0 {
		return nil, errMissingAccess()
	}
	if th := f.chans[ch]; write && th != nil && th.archived {
		return nil, errThreadArchived()
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

// createMessage serves POST /channels/{channel}/messages: in a text
// channel, a thread or a DM channel. A nonce with "enforce_nonce": true
// seen in the channel within the nonce window returns that message
// instead of creating one.
func (f *Fake) createMessage(c *Call) (int, any) {
	fs, e := fields(c.Body)
	if e != nil {
		return e.reply()
	}
	nonce, enforce, e := readNonce(fs)
	if e != nil {
		return e.reply()
	}
	ch := c.Param("channel")
	f.mu.Lock()
	defer f.mu.Unlock()
	th := f.chans[ch]
	need := int64(discordgo.PermissionSendMessages)
	if th != nil && th.isThread() {
		need = discordgo.PermissionSendMessagesInThreads
	}
	if len(c.Files) > 0 {
		need |= discordgo.PermissionAttachFiles
	}
	if nonEmptyArray(fs["embeds"]) {
		need |= discordgo.PermissionEmbedLinks
	}
	perms := f.permsLocked(ch)
	switch {
	case perms&discordgo.PermissionViewChannel == 0:
		return errMissingAccess().reply()
	case th != nil && th.archived:
		return errThreadArchived().reply()
	case perms&need != need, th != nil && th.locked && perms&discordgo.PermissionManageThreads == 0:
		return errMissingPermissions().reply()
	case f.dmClosedLocked(ch):
		return errCannotDM().reply()
	}
	if enforce {
		if m := f.nonceMessageLocked(ch, nonce, c.Time); m != nil {
			m.NonceHits++
			f.notifyLocked()
			return http.StatusOK, f.wireMessage(m)
		}
	}
	m := &Message{ID: newID(), ChannelID: ch, GuildID: f.guildOfLocked(ch), Created: c.Time, Nonce: nonce}
	if e := applyPayload(m, fs, c.Files); e != nil {
		return e.reply()
	}
	if e := validateMessage(m); e != nil {
		return e.reply()
	}
	m.Pinged = pinged(mentionText(m), m.AllowedMentions)
	f.mentionJoinLocked(m)
	f.storeLocked(m)
	return http.StatusOK, f.wireMessage(m)
}

// getMessage serves GET /channels/{channel}/messages/{message}.
func (f *Fake) getMessage(c *Call) (int, any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, e := f.channelMessageLocked(c, discordgo.PermissionReadMessageHistory, false)
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
	m, e := f.channelMessageLocked(c, need, true)
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
	m, e := f.channelMessageLocked(c, 0, true)
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
	// An edit changes only SUPPRESS_EMBEDS and IS_COMPONENTS_V2 ("Edit
	// the flags of a message (SUPPRESS_EMBEDS and IS_COMPONENTS_V2
	// only)", developers/resources/message.mdx, Edit Message) ...
	const editable = discordgo.MessageFlagsSuppressEmbeds | discordgo.MessageFlagsIsComponentsV2
	if m.Flags&discordgo.MessageFlagsLoading == 0 {
		next.Flags = next.Flags&editable | m.Flags&^editable
	}
	// ... and "the IS_COMPONENTS_V2 flag can only be set" (ibid.; "Once
	// a message has been sent with this flag, it can't be removed from
	// that message", developers/components/reference.mdx).
	if m.ComponentsV2() && !next.ComponentsV2() {
		return invalidForm("MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "The IS_COMPONENTS_V2 flag cannot be removed from a message", "flags")
	}
	if e := validateMessage(&next); e != nil {
		return e
	}
	next.Edited = at
	next.Edits++
	if m.Flags&discordgo.MessageFlagsLoading != 0 {
		// The first edit of a deferred response is what pings.
		next.Pinged = pinged(mentionText(&next), next.AllowedMentions)
		f.mentionJoinLocked(&next)
	}
	*m = next
	return nil
}

// readNonce returns the nonce of a create payload (a string of at most 25
// characters or an integer, as Discord takes it) and whether
// enforce_nonce is set.
func readNonce(fs map[string]json.RawMessage) (string, bool, *apiError) {
	var enforce bool
	if raw, ok := fs["enforce_nonce"]; ok && !isNull(raw) && json.Unmarshal(raw, &enforce) != nil {
		return "", false, invalidForm("BOOLEAN_TYPE_COERCE", "Value must be one of (False, True).", "enforce_nonce")
	}
	raw, ok := fs["nonce"]
	if !ok || isNull(raw) {
		return "", enforce, nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var n int64
		if json.Unmarshal(raw, &n) != nil {
			return "", false, invalidForm("NONCE_TYPE_INVALID", "Nonce must be an integer or a string.", "nonce")
		}
		s = itoa64(n)
	}
	if len([]rune(s)) > 25 {
		return "", false, invalidForm("BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.", "nonce")
	}
	return s, enforce, nil
}

// nonceKey indexes the messages created with a nonce: per channel, as
// Discord scopes nonces.
type nonceKey struct{ channel, nonce string }

// nonceMessageLocked returns the live message the bot created in a
// channel with the given nonce within the nonce window before now, or
// nil. It looks the nonce up in Fake.nonces, so its cost does not grow
// with the channel's messages. f.mu must be held.
func (f *Fake) nonceMessageLocked(channelID, nonce string, now time.Time) *Message {
	if nonce == "" {
		return nil
	}
	list := f.nonces[nonceKey{channelID, nonce}]
	for i := len(list) - 1; i >= 0; i-- {
		m := list[i]
		if now.Sub(m.Created) > f.cfg.nonceWindow {
			return nil
		}
		if !m.Deleted {
			return m
		}
	}
	return nil
}
