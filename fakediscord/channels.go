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
	nonce, enforce, e := readNonce(fs)
	if e != nil {
		return e.reply()
	}
	key := ch + "/" + nonce
	if n, ok := f.nonces[key]; ok && enforce && c.Time.Sub(n.at) < nonceWindow {
		// Discord: the message made with this nonce a moment ago, not a
		// second one.
		f.nonceHits++
		return http.StatusOK, f.wireMessage(f.messages[n.message])
	}
	m := &Message{ID: newID(), ChannelID: ch, GuildID: f.guildOfLocked(ch), Created: c.Time, Nonce: nonce}
	if e := applyPayload(m, fs, c.Files); e != nil {
		return e.reply()
	}
	if e := validateMessage(m); e != nil {
		return e.reply()
	}
	m.Pinged = pinged(m.Content, m.AllowedMentions)
	f.storeLocked(m)
	if nonce != "" {
		f.nonces[key] = nonceEntry{message: m.ID, at: c.Time}
	}
	return http.StatusOK, f.wireMessage(m)
}

// nonceWindow is how long Discord remembers a message's nonce for
// enforce_nonce: "a few minutes".
const nonceWindow = 5 * time.Minute

// nonceEntry is the message a nonce made, and when.
type nonceEntry struct {
	message string
	at      time.Time
}

// readNonce reads a new message's nonce (a string or an integer of at most
// 25 characters) and enforce_nonce.
func readNonce(fs map[string]json.RawMessage) (string, bool, *apiError) {
	raw, ok := fs["nonce"]
	if !ok || isNull(raw) {
		return "", false, nil
	}
	var nonce string
	if err := json.Unmarshal(raw, &nonce); err != nil {
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return "", false, invalidForm("NUMBER_TYPE_COERCE", "Value is not a valid nonce.", "nonce")
		}
		nonce = n.String()
	}
	if len(nonce) > 25 {
		return "", false, invalidForm("BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.", "nonce")
	}
	var enforce bool
	if raw, ok := fs["enforce_nonce"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &enforce); err != nil {
			return "", false, invalidForm("BOOLEAN_TYPE_COERCE", "Must be either true or false.", "enforce_nonce")
		}
	}
	return nonce, enforce, nil
}

// NonceHits counts the message creations that Discord's enforce_nonce
// answered with an existing message instead of a new one.
func (f *Fake) NonceHits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.nonceHits
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
