package fakediscord

import (
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
)

// startThread serves POST /channels/{channel}/messages/{message}/threads:
// a public thread started from a message, with the message's ID.
func (f *Fake) startThread(c *Call) (int, any) {
	var body struct {
		Name                *string `json:"name"`
		AutoArchiveDuration int     `json:"auto_archive_duration"`
	}
	if len(c.Body) > 0 && c.Decode(&body) != nil {
		return invalidForm("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType").reply()
	}
	parent := c.Param("channel")
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.chans[parent] != nil {
		return errWrongChannelType().reply()
	}
	guild := f.guildOfLocked(parent)
	if guild == "" {
		return errUnknownChannel().reply()
	}
	perms := f.permsLocked(parent)
	if perms&discordgo.PermissionViewChannel == 0 {
		return errMissingAccess().reply()
	}
	if perms&discordgo.PermissionCreatePublicThreads == 0 {
		return errMissingPermissions().reply()
	}
	m := f.liveLocked(c.Param("message"))
	if m == nil || m.ChannelID != parent || m.Ephemeral {
		return errUnknownMessage().reply()
	}
	if f.chans[m.ID] != nil {
		return (&apiError{status: http.StatusBadRequest, Code: codeThreadExists, Message: "A thread has already been created for this message"}).reply()
	}
	fe := formErrors{}
	switch {
	case body.Name == nil:
		fe.add("BASE_TYPE_REQUIRED", "This field is required", "name")
	case len([]rune(*body.Name)) < 1 || len([]rune(*body.Name)) > 100:
		fe.add("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.", "name")
	}
	if d := body.AutoArchiveDuration; d != 0 && !validArchiveDuration(d) {
		fe.add("BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.", "auto_archive_duration")
	}
	if e := fe.err(); e != nil {
		return e.reply()
	}
	th := &channel{
		id: m.ID, typ: discordgo.ChannelTypeGuildPublicThread, guild: guild, parent: parent,
		name: *body.Name, owner: f.AppID, created: c.Time, archivedAt: c.Time, autoArchive: body.AutoArchiveDuration, lastActivity: f.now(),
		members: []threadMember{{user: f.AppID, joined: c.Time}},
	}
	if th.autoArchive == 0 {
		th.autoArchive = 1440 // a channel's default_auto_archive_duration when unset
	}
	f.addChannelLocked(th)
	m.Flags |= discordgo.MessageFlagsHasThread
	wire := f.wireChannelLocked(th.id)
	ev := f.wireChannelLocked(th.id)
	ev["newly_created"] = true
	f.guildEventLocked(guild, "THREAD_CREATE", ev)
	return http.StatusCreated, wire
}

// threadLocked returns the thread a thread-member call addresses and the
// bot's permissions in it, or the error Discord gives. f.mu must be held.
func (f *Fake) threadLocked(c *Call) (*channel, int64, *apiError) {
	id := c.Param("channel")
	if !f.knownChannelLocked(id) {
		return nil, 0, errUnknownChannel()
	}
	ch := f.chans[id]
	if ch == nil || !ch.isThread() {
		return nil, 0, errWrongChannelType()
	}
	perms := f.permsLocked(id)
	if perms&discordgo.PermissionViewChannel == 0 {
		return nil, 0, errMissingAccess()
	}
	return ch, perms, nil
}

// memberParam returns the user a thread-member route names, with @me the
// bot.
func (f *Fake) memberParam(c *Call) string {
	if u := c.Param("user"); u != "@me" {
		return u
	}
	return f.AppID
}

// addThreadMember serves PUT /channels/{channel}/thread-members/{user}
// (and @me, the bot joining).
func (f *Fake) addThreadMember(c *Call) (int, any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch, perms, e := f.threadLocked(c)
	if e != nil {
		return e.reply()
	}
	if ch.archived {
		return errThreadArchived().reply()
	}
	user := f.memberParam(c)
	if user != f.AppID && perms&discordgo.PermissionSendMessagesInThreads == 0 {
		return errMissingPermissions().reply()
	}
	if !isSnowflake(user) {
		return errUnknownUser().reply()
	}
	if ch.member(user) < 0 {
		ch.members = append(ch.members, threadMember{user: user, joined: c.Time})
		f.notifyLocked()
	}
	return http.StatusNoContent, nil
}

// removeThreadMember serves DELETE /channels/{channel}/thread-members/{user}
// (and @me, the bot leaving).
func (f *Fake) removeThreadMember(c *Call) (int, any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch, perms, e := f.threadLocked(c)
	if e != nil {
		return e.reply()
	}
	if ch.archived {
		return errThreadArchived().reply()
	}
	user := f.memberParam(c)
	if user != f.AppID && ch.owner != f.AppID && perms&discordgo.PermissionManageThreads == 0 {
		return errMissingPermissions().reply()
	}
	i := ch.member(user)
	if i < 0 {
		return errUnknownMember().reply()
	}
	ch.members = append(ch.members[:i:i], ch.members[i+1:]...)
	f.notifyLocked()
	return http.StatusNoContent, nil
}

// getThreadMember serves GET /channels/{channel}/thread-members/{user}.
func (f *Fake) getThreadMember(c *Call) (int, any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch, _, e := f.threadLocked(c)
	if e != nil {
		return e.reply()
	}
	i := ch.member(f.memberParam(c))
	if i < 0 {
		return errUnknownMember().reply()
	}
	return http.StatusOK, wireThreadMember(ch.id, ch.members[i])
}

// listThreadMembers serves GET /channels/{channel}/thread-members.
func (f *Fake) listThreadMembers(c *Call) (int, any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch, _, e := f.threadLocked(c)
	if e != nil {
		return e.reply()
	}
	out := []any{}
	for _, m := range ch.members {
		out = append(out, wireThreadMember(ch.id, m))
	}
	return http.StatusOK, out
}

// wireThreadMember returns Discord's thread member object.
func wireThreadMember(thread string, m threadMember) map[string]any {
	return map[string]any{"id": thread, "user_id": m.user, "join_timestamp": m.joined.UTC().Format(time.RFC3339Nano), "flags": 0}
}

// ThreadMembers returns the user IDs of a thread's members in join order;
// the bot, which started the thread, is the first. It returns nil for an
// unknown thread.
func (f *Fake) ThreadMembers(threadID string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := f.chans[threadID]
	if ch == nil || !ch.isThread() {
		return nil
	}
	out := make([]string, 0, len(ch.members))
	for _, m := range ch.members {
		out = append(out, m.user)
	}
	return out
}

// SetThreadArchived archives or unarchives a thread as a moderator would,
// or as Discord does after the thread's auto_archive_duration without
// activity (which the fake also does by itself on its clock, WithClock). A THREAD_UPDATE is dispatched if the bot is connected. It reports
// whether the thread exists.
func (f *Fake) SetThreadArchived(threadID string, archived bool) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := f.chans[threadID]
	if ch == nil || !ch.isThread() {
		return false
	}
	f.autoArchiveLocked()
	if ch.archived != archived {
		ch.archived = archived
		ch.archivedAt = time.Now()
		if !archived {
			ch.lastActivity = f.now()
		}
		f.guildEventLocked(ch.guild, "THREAD_UPDATE", f.wireChannelLocked(ch.id))
		f.notifyLocked()
	}
	return true
}

// mentionJoinLocked adds the users a new message in a thread pinged to
// the thread's members, as Discord does when someone is mentioned in a
// public thread. f.mu must be held.
func (f *Fake) mentionJoinLocked(m *Message) {
	ch := f.chans[m.ChannelID]
	if ch == nil || !ch.isThread() || m.Ephemeral {
		return
	}
	for _, u := range m.Pinged {
		if ch.member(u) < 0 {
			ch.members = append(ch.members, threadMember{user: u, joined: m.Created})
		}
	}
}

// isSnowflake reports whether s looks like a Discord ID.
func isSnowflake(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func errUnknownMember() *apiError {
	return &apiError{status: http.StatusNotFound, Code: codeUnknownMember, Message: "Unknown Member"}
}

func errUnknownUser() *apiError {
	return &apiError{status: http.StatusNotFound, Code: codeUnknownUser, Message: "Unknown User"}
}
