package fakediscord

import (
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// createDM serves POST /users/@me/channels: the DM channel with a user,
// the same one each time.
func (f *Fake) createDM(c *Call) (int, any) {
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	if c.Decode(&body) != nil || body.RecipientID == "" {
		return invalidForm("BASE_TYPE_REQUIRED", "This field is required", "recipient_id").reply()
	}
	if !isSnowflake(body.RecipientID) {
		return invalidForm("NUMBER_TYPE_COERCE", "Value \""+body.RecipientID+"\" is not snowflake.", "recipient_id").reply()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id, ok := f.dmByUser[body.RecipientID]
	if !ok {
		id = newID()
		f.addChannelLocked(&channel{id: id, typ: discordgo.ChannelTypeDM, recipient: body.RecipientID, created: c.Time})
		f.dmByUser[body.RecipientID] = id
	}
	return http.StatusOK, f.wireChannelLocked(id)
}

// SetDMsClosed closes (or opens again) a user's direct messages, as a user
// who turned off DMs from server members or blocked the bot: opening the
// DM channel still works, sending a message to it answers 403 with code
// 50007 "Cannot send messages to this user".
func (f *Fake) SetDMsClosed(userID string, closed bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dmClosed[userID] = closed
}

// DMChannel returns the ID of the DM channel the bot opened with a user.
func (f *Fake) DMChannel(userID string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id, ok := f.dmByUser[userID]
	return id, ok
}

// DMMessages returns the messages the bot sent to a user's DM channel, in
// creation order, without deleted ones.
func (f *Fake) DMMessages(userID string) []Message {
	id, ok := f.DMChannel(userID)
	if !ok {
		return nil
	}
	return f.ChannelMessages(id)
}

// dmClosedLocked reports whether a channel is a DM whose user does not
// take messages. f.mu must be held.
func (f *Fake) dmClosedLocked(channelID string) bool {
	ch := f.chans[channelID]
	return ch != nil && ch.typ == discordgo.ChannelTypeDM && f.dmClosed[ch.recipient]
}
