package fakediscord

import (
	"net/http"
	"time"
)

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
