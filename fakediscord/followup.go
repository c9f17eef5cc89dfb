package fakediscord

import (
	"net/http"
	"strconv"
	"time"

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

// The rules of an interaction's webhook, for follow-ups
// (https://discord.com/developers/docs/interactions/receiving-and-responding):
//
//   - "Interaction tokens are valid for 15 minutes, meaning you can respond
//     to an interaction within that amount of time" (Followup Messages):
//     past them every /webhooks/{application}/{token} route answers 401
//     with code 50027 "Invalid Webhook Token" (topics/opcodes-and-status-codes,
//     JSON error codes), a follow-up, an edit of @original or of a
//     follow-up alike; the fake measures them on its clock (WithClock);
//   - a follow-up lands in the interaction's channel (a thread when clicked
//     in one) and takes flags (EPHEMERAL, SUPPRESS_EMBEDS,
//     SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2); with IS_COMPONENTS_V2 it
//     refuses content and embeds as any V2 message does (componentsv2.go);
//     Execute Webhook has no nonce, so a nonce sent is ignored, and a repeat
//     makes a second message;
//   - the message is the application's (a webhook message authored by the
//     bot user): besides the webhook routes, within the 15 minutes, the bot
//     edits or deletes it with its token through
//     /channels/{channel}/messages/{message} at any time, as any message of
//     its own (channels.go) -- an ephemeral one excepted, which only the
//     webhook reaches.

// interactionTokenLife is how long an interaction token works: 15
// minutes (receiving-and-responding, Followup Messages).
const interactionTokenLife = 15 * time.Minute

// codeInvalidWebhookToken is Discord's "Invalid Webhook Token" (JSON error
// codes).
const codeInvalidWebhookToken = 50027

// tokenExpiredLocked reports whether an interaction's token has outlived
// its 15 minutes on the fake's clock. f.mu must be held.
func (f *Fake) tokenExpiredLocked(it *interaction) bool {
	return !it.born.IsZero() && f.now().Sub(it.born) >= interactionTokenLife
}

func errInvalidWebhookToken() *apiError {
	return &apiError{status: http.StatusUnauthorized, Code: codeInvalidWebhookToken, Message: "Invalid Webhook Token"}
}
