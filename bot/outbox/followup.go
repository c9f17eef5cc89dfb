package outbox

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
)

// A turn card goes out as a follow-up of the click that ended the turn
// before it, where it can: Discord's interaction routes (the callback,
// follow-ups, @original) have per-token buckets of their own and count
// against no global limit
// (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit:
// "Interaction endpoints are not bound to the bot's Global Rate Limit").
// A follow-up lands in the channel the interaction was made in, and its
// token lasts 15 minutes
// (https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages:
// "Interaction tokens are valid for 15 minutes"). The message it makes is
// the bot's: later edits go by bot token through
// PATCH /channels/{channel}/messages/{message}, as for any message of the
// bot.
//
// A follow-up takes no nonce. So that a card is never posted twice, a try
// whose outcome is not known (an earlier try was made, or the process that
// made it died) first looks among the channel's recent messages for one
// that carries the card's buttons (custom IDs unique to the game and its
// turn) and takes it; a body without a custom ID never goes as a
// follow-up. The follow-up's request is bounded well inside the claim
// (followupTimeout < Lease), so that no other process takes the effect
// over while it may still be on its way.

const (
	// tokenLife is how long after its interaction a token is used for a
	// follow-up: Discord's 15 minutes less a margin for the request and
	// the clocks.
	tokenLife = 13 * time.Minute
	// followupTimeout bounds a follow-up's request, inside the claim.
	followupTimeout = 3 * time.Second
	// recentMessages is how many of a channel's last messages a repeated
	// follow-up looks through for the one an earlier try made.
	recentMessages = 50
)

// live reports whether interaction i's token may still be used.
func (s *Sender) live(i *queue.Interaction) bool {
	return i != nil && i.Token != "" && s.cfg.Now().Sub(i.At) < tokenLife
}

// followable returns the custom IDs of a post that may go as a follow-up
// of its interaction: one made in the channel the post goes to, whose body
// carries custom IDs (what a repeat is recognised by) and no reply (a
// webhook message cannot reply); none otherwise.
func followable(ef queue.Effect, body map[string]json.RawMessage) []string {
	if ef.Via == nil || ef.Via.Channel != ef.Channel {
		return nil
	}
	if _, ok := body["message_reference"]; ok {
		return nil
	}
	var comps any
	if err := json.Unmarshal(body["components"], &comps); err != nil {
		return nil
	}
	return customIDs(comps, nil)
}

// customIDs appends the custom IDs found in decoded components v.
func customIDs(v any, out []string) []string {
	switch x := v.(type) {
	case map[string]any:
		if id, ok := x["custom_id"].(string); ok && id != "" {
			out = append(out, id)
		}
		for _, c := range x {
			out = customIDs(c, out)
		}
	case []any:
		for _, c := range x {
			out = customIDs(c, out)
		}
	}
	return out
}

// followup sends body as a follow-up of the effect's interaction and
// returns the new message's ID.
func (s *Sender) followup(ctx context.Context, ef queue.Effect, body map[string]json.RawMessage) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, followupTimeout)
	defer cancel()
	delete(body, "nonce")
	delete(body, "enforce_nonce")
	endpoint := discordgo.EndpointWebhookToken(ef.Via.App, ef.Via.Token)
	// An answer given as the HTTP response is known to Discord a moment
	// after the response: until then its webhook is Unknown (10015) and
	// nothing is made, so the follow-up is sent again after 50 ms, 100 ms,
	// … (as original waits for the answer's message).
	wait := originalWait
	var data []byte
	var err error
	for try := 1; ; try++ {
		data, err = s.request(ctx, http.MethodPost, endpoint+"?wait=true", endpoint, mustJSON(body), ef)
		if !isCode(err, discordgo.ErrCodeUnknownWebhook) || try == originalTries {
			break
		}
		select {
		case <-ctx.Done():
			return "", err
		case <-time.After(wait):
		}
		wait *= 2
	}
	if err != nil {
		return "", err
	}
	var m struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return "", err
	}
	return m.ID, nil
}

// findPosted returns the ID of the newest of channel's recent messages
// that carries one of the custom IDs ids, or "" when none does.
func (s *Sender) findPosted(ctx context.Context, channel string, ids []string) (string, error) {
	endpoint := discordgo.EndpointChannelMessages(channel)
	q := url.Values{"limit": {strconv.Itoa(recentMessages)}}
	data, err := s.dc.RequestWithBucketID(http.MethodGet, endpoint+"?"+q.Encode(), nil, endpoint, discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	var msgs []struct {
		ID         string          `json:"id"`
		Components json.RawMessage `json:"components"`
	}
	if err := json.Unmarshal(data, &msgs); err != nil {
		return "", err
	}
	if len(msgs) == 0 {
		// The channel has the bot's messages: it may not read them
		// (Read Message History), and cannot tell.
		s.log.Warn("outbox: no messages to look through for a follow-up; is Read Message History missing?", "channel", channel)
	}
	for _, m := range msgs { // newest first
		var comps any
		if json.Unmarshal(m.Components, &comps) != nil {
			continue
		}
		if slices.ContainsFunc(customIDs(comps, nil), func(id string) bool { return slices.Contains(ids, id) }) {
			return m.ID, nil
		}
	}
	return "", nil
}
