package table

import (
	"strings"

	"github.com/malefiz-discord/malefiz"
)

// Kind is what an effect asks of Discord.
type Kind string

// The kinds of effects.
const (
	Post  Kind = "post"  // create a message
	Edit  Kind = "edit"  // edit one of the game's messages
	Adopt Kind = "adopt" // record the answer to the request as one of the game's messages
	// StartThread starts the game's thread from its lobby message (the
	// thread gets the message's ID) and records it as RoleThread.
	StartThread Kind = "thread"
	AddMember   Kind = "member"  // add a user to the game's thread
	Archive     Kind = "archive" // archive the game's thread (a game cancelled)
	// Settle leaves the game's thread to Discord's auto-archive an hour
	// after its last message (the result), so players can still talk
	// there; nothing the bot must edit is left in it.
	Settle Kind = "settle"
	Delete Kind = "delete" // delete one of the game's messages
	DM     Kind = "dm"     // a direct message to a user who wants them
)

// LinkPlaceholder in a direct message's text is where the jump link to the
// message of an earlier effect of the change goes (Effect.LinkTo), once
// Discord has made it. A link to a message the game has already is written
// into the text at once.
const LinkPlaceholder = "{link}"

// Effect is one thing a change asks of Discord, decided with the change and
// delivered after it is committed, in the order of the table's effects.
type Effect struct {
	Kind    Kind
	Message *Message // Post, Edit: the body
	// InPlay: sent where the game plays, its thread once made, else its
	// channel (a thread that could not be made leaves the game there).
	InPlay bool
	// Target is the game's message an Edit or Delete changes, or the one a
	// DM links to.
	Target malefiz.MessageRole
	// Record is where the ID of a Post's or an Adopt's message goes.
	Record malefiz.MessageRole
	// RepostIfGone: an Edit whose message is gone posts it again.
	RepostIfGone bool
	// Result: the Post is the game's result; the rating changes are
	// added to its first embed.
	Result bool
	// Followup: the Post may go as a follow-up of the click that made the
	// change (Discord's interaction routes count against no global
	// limit): the next turn's card, whose buttons tell a repeat. The
	// adapter names the interaction; delivery decides whether its token is
	// still live and it was made where the post goes.
	Followup bool
	// LinkTo, for a DM, is 1 + the index in the change's effects of the
	// Post whose message the text links to (at LinkPlaceholder); 0 when
	// the text is complete. Target names the same message by its role,
	// for a delivery that no longer knows the post's answer.
	LinkTo int
	User   string // AddMember, DM: the user
	Name   string // StartThread: the thread's name
	Text   string // DM: the text (with LinkPlaceholder)
}

// post adds a Post of msg where the game plays; record, when set, is where
// its ID goes.
func (t *Table) post(msg Message, record malefiz.MessageRole) {
	t.effects = append(t.effects, Effect{Kind: Post, Message: &msg, InPlay: true, Record: record})
}

// edit adds an Edit of the game's message of role target to msg (its
// content, embeds and components replaced, attachments dropped); with
// repost, a message that is gone is posted again.
func (t *Table) edit(target malefiz.MessageRole, msg Message, repost bool) {
	t.effects = append(t.effects, Effect{Kind: Edit, Message: &msg, InPlay: target != malefiz.RoleLobby,
		Target: target, RepostIfGone: repost})
}

// startThread adds the start of the game's thread from its lobby message,
// then the adding of every human player to it.
func (t *Table) startThread(name string) {
	t.effects = append(t.effects, Effect{Kind: StartThread, Name: name, Record: malefiz.RoleThread})
	for _, s := range t.Game.Seats {
		if s.UserID != "" && s.Computer == "" && !s.Left {
			t.effects = append(t.effects, Effect{Kind: AddMember, InPlay: true, User: s.UserID})
		}
	}
}

// archive adds the archiving of the game's thread, if it has one.
func (t *Table) archive() {
	if t.Game.Threaded {
		t.effects = append(t.effects, Effect{Kind: Archive, InPlay: true})
	}
}

// settle adds the leaving of the game's thread, if it has one, to
// Discord's auto-archive after an hour without messages.
func (t *Table) settle() {
	if t.Game.Threaded {
		t.effects = append(t.effects, Effect{Kind: Settle, InPlay: true})
	}
}

// remove adds the deletion of the game's message of role target.
func (t *Table) remove(target malefiz.MessageRole) {
	t.effects = append(t.effects, Effect{Kind: Delete, InPlay: true, Target: target})
}

// adopt adds the recording of the answer's message as the game's message of
// role record, once Discord has made it.
func (t *Table) adopt(record malefiz.MessageRole) {
	t.effects = append(t.effects, Effect{Kind: Adopt, Record: record})
}

// notify adds a direct message to userID, if the user asked for direct
// messages, with text, whose LinkPlaceholder links to the game's message of
// role target: written in now when the game has it, else (a message this
// change posts) the post of that role.
func (t *Table) notify(userID, text string, target malefiz.MessageRole) {
	if !t.DMs[userID] {
		return
	}
	e := Effect{Kind: DM, User: userID, Text: text, Target: target}
	posted := -1
	for i, p := range t.effects {
		if p.Kind == Post && p.Record == target {
			posted = i
		}
	}
	switch id := t.messageID(target); {
	case posted >= 0:
		e.LinkTo = posted + 1
	case id != "":
		e.Text = strings.ReplaceAll(text, LinkPlaceholder, t.link(target, id))
	}
	t.effects = append(t.effects, e)
}

// messageID is the recorded ID of the game's message of role.
func (t *Table) messageID(role malefiz.MessageRole) string {
	switch role {
	case malefiz.RoleLobby:
		return t.Game.LobbyMessageID
	case malefiz.RoleTurn:
		return t.Game.TurnMessageID
	case malefiz.RoleReminder:
		return t.Game.ReminderMessageID
	}
	return ""
}

// link is the jump link to the game's message id of role: the lobby in its
// channel, the others where the game plays.
func (t *Table) link(role malefiz.MessageRole, id string) string {
	if role == malefiz.RoleLobby {
		return "https://discord.com/channels/" + t.Game.GuildID + "/" + t.Game.ChannelID + "/" + id
	}
	return JumpLink(t.Game, id)
}
