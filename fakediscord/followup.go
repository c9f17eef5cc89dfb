package fakediscord

import (
	"net/http"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// A turn card the bot sends as an interaction's follow-up is a message of
// the bot's in the interaction's channel: the bot edits it later by its
// own token through PATCH /channels/{channel}/messages/{message}
// (editMessage serves that for every message of the bot, follow-ups
// included), and, since a follow-up takes no nonce, a bot that does not
// know whether its follow-up was made looks for it among the channel's
// last messages.

// RouteChannelMessages lists a channel's last messages.
const RouteChannelMessages = "GET /channels/{channel}/messages"

// channelMessages serves GET /channels/{channel}/messages: the channel's
// last messages, newest first, at most limit of them (1 to 100, default
// 50), for a bot that may view the channel; none for one that may not
// read its history ("If the current user is missing the
// READ_MESSAGE_HISTORY permission in the channel, then no messages will be
// returned"); private and deleted messages are not among them
// (https://discord.com/developers/docs/resources/message#get-channel-messages).
// Of the query only limit is known.
func (f *Fake) channelMessages(c *Call) (int, any) {
	limit := 50
	if s := c.Query.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 100 {
			return (&apiError{status: http.StatusBadRequest, Code: 50035, Message: "Invalid Form Body"}).reply()
		}
		limit = n
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := c.Param("channel")
	perms := f.permsLocked(ch)
	if perms&discordgo.PermissionViewChannel == 0 {
		return errMissingAccess().reply()
	}
	out := []any{}
	if perms&discordgo.PermissionReadMessageHistory == 0 {
		return http.StatusOK, out
	}
	list := f.byChannel[ch]
	for i := len(list) - 1; i >= 0 && len(out) < limit; i-- {
		if m := list[i]; !m.Ephemeral && !m.Deleted {
			out = append(out, f.wireMessage(m))
		}
	}
	return http.StatusOK, out
}
