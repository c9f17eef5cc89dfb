package table

import (
	"strconv"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
)

// Origin is where a click comes from, as Discord tells it: the place, the
// clicked message and its component.
type Origin struct {
	GuildID, ChannelID string
	MessageID          string // "" when Discord sent no message
	FromBot            bool   // the message is the bot's
	Private            bool   // the message is ephemeral (only the bot makes those)
	CustomID           string // the clicked component's
}

// CheckOrigin refuses a click that does not come from this game's place:
// another server, another channel, or a message that is not this game's
// lobby (in the channel) or turn message (where the game plays: its
// thread, else the channel), or a private message of the bot. The game's
// lock ends before its effects are delivered, so a click may come from a
// turn message whose ID is not recorded yet: a message of the bot in the
// game's place, newer than the messages recorded, is taken for it when
// the click's custom ID names this game, a turn action and the current
// turn (unrecorded is then true, and the table's game names the clicked
// message as its turn message; the action checks its state).
func (t *Table) CheckOrigin(o Origin) (unrecorded bool, err error) {
	sg := t.Game
	inChannel := o.ChannelID == sg.ChannelID
	inThread := sg.ThreadID != "" && o.ChannelID == sg.ThreadID
	// A thread being made has its lobby message's ID.
	makingThread := sg.Threaded && sg.ThreadID == "" && sg.LobbyMessageID != "" && o.ChannelID == sg.LobbyMessageID
	if o.GuildID != sg.GuildID || !(inChannel || inThread || makingThread) || o.MessageID == "" {
		return false, Refuse(locales.ErrForeignButton)
	}
	atPlay := inThread || makingThread || (inChannel && sg.ThreadID == "")
	switch id := o.MessageID; {
	case !o.FromBot:
		return false, Refuse(locales.ErrForeignButton)
	case o.Private:
		return false, nil // only the bot makes its private messages, for this user
	case id == sg.LobbyMessageID && inChannel:
		return false, nil
	case id == sg.TurnMessageID && atPlay:
		return false, nil
	case id == sg.LobbyMessageID || id == sg.TurnMessageID:
		return false, Refuse(locales.ErrForeignButton) // the game's message, but not from its place
	case sg.Status == malefiz.StatusLobby && sg.LobbyMessageID == "" && inChannel:
		return false, nil // the lobby's ID is being recorded (the table takes the click's)
	case atPlay && t.newTurnMessage(o):
		// The table sees the clicked message as the turn's (the store
		// keeps the recorded one until the post's delivery records it).
		sg.TurnMessageID = id
		if makingThread {
			sg.ThreadID = o.ChannelID
		}
		return true, nil
	}
	return false, Refuse(locales.ErrOldButton) // an older message of the game
}

// newTurnMessage reports whether the clicked message may be the current
// turn's message, posted but not recorded yet: newer than the game's
// recorded messages (Discord's IDs grow with time), with a turn control of
// this game's current turn.
func (t *Table) newTurnMessage(o Origin) bool {
	sg := t.Game
	if sg.Status != malefiz.StatusRunning || t.State == nil || !newerID(o.MessageID, sg.TurnMessageID) || !newerID(o.MessageID, sg.LobbyMessageID) {
		return false
	}
	c, err := ParseCustomID(o.CustomID)
	if err != nil || c.Game != sg.ID || c.Turn != t.State.TurnNumber() {
		return false
	}
	switch c.Action {
	case ActRoll, ActPawn, ActMove, ActBack, ActPlace, ActPlaceRow, ActHint:
		return true
	}
	return false
}

// newerID reports whether Discord ID a is newer than b ("" is older than
// every ID).
func newerID(a, b string) bool {
	x, err := strconv.ParseUint(a, 10, 64)
	if err != nil {
		return false
	}
	if b == "" {
		return true
	}
	y, err := strconv.ParseUint(b, 10, 64)
	return err == nil && x > y
}
