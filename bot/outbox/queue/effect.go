package queue

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// Op is the Discord request an effect makes.
type Op string

// The operations of effects (the table's effect kinds, as stored).
const (
	Post  Op = "post"  // create a message in a channel
	Edit  Op = "edit"  // edit one of the game's messages
	Adopt Op = "adopt" // record an interaction's response as one of the game's messages
	// Thread starts the game's thread from its lobby message (the thread
	// gets the message's ID) and records it as RoleThread.
	Thread  Op = "thread"
	Member  Op = "member"  // add a user to the game's thread
	Archive Op = "archive" // archive the game's thread
	Settle  Op = "settle"  // leave the game's thread to auto-archive an hour after its last message
	Delete  Op = "delete"  // delete one of the game's messages
	DM      Op = "dm"      // a direct message to a user who asked for them
)

// LinkPlaceholder in a direct message's text becomes the jump link to the
// game's message its effect targets, known when it is delivered (the
// table's LinkPlaceholder, which the bot checks is the same).
const LinkPlaceholder = "{link}"

// CardQueue is the queue of the edits of a game's scoreboard card
// (store.Effect.Queue): claimed when due by the sender's loop, never
// delivered with the commit.
const CardQueue = "card"

// Effect is an effect as it waits in the outbox: the Discord request, what
// to send, where, and where Discord's answer goes. It is decided with the
// change, complete (ratings, links known then, layout); the sender only
// sends it.
type Effect struct {
	Op      Op     `json:"op"`
	Channel string `json:"channel,omitempty"`
	// InPlay: the message goes where the game plays as it is when the
	// effect is delivered, its thread once made, else Channel (a thread
	// that could not be made leaves the game in the channel).
	InPlay bool            `json:"place,omitempty"`
	Body   json.RawMessage `json:"body,omitempty"` // the message as Discord takes it
	// Board, when set, is drawn and attached as board.png.
	Board *render.Scene `json:"board,omitempty"`
	// Chart, when set, is drawn (Config.Chart) and attached as
	// chances.png.
	Chart json.RawMessage `json:"chart,omitempty"`
	// Chances, when set, are the chances the body shows, read when it is
	// delivered (Config.Chances) and put in place of their tokens.
	Chances json.RawMessage `json:"chances,omitempty"`
	// Target is the message an edit changes: the game's message of that
	// role as recorded when the edit is delivered (an earlier post of the
	// same game is delivered first).
	Target malefiz.MessageRole `json:"target,omitempty"`
	// Repost: when the edited message is gone (deleted, or never
	// recorded), post the body as a new message and record it as Target.
	Repost bool `json:"repost,omitempty"`
	// Record is where a post's or adoption's new message ID goes.
	Record malefiz.MessageRole `json:"record,omitempty"`
	// App and Token name the interaction an adoption reads @original of.
	App   string `json:"app,omitempty"`
	Token string `json:"token,omitempty"`
	// Text is a direct message's text; LinkTo, when set, is 1 + the index
	// in its commit of the post whose message the text links to, at
	// LinkPlaceholder; Linked is that message's ID, set by the sender
	// once it delivered that post (not stored).
	Text   string `json:"text,omitempty"`
	LinkTo int    `json:"link_to,omitempty"`
	Linked string `json:"-"`
	// Name is a new thread's name; User the user a thread member op adds
	// or a DM goes to.
	Name string `json:"name,omitempty"`
	User string `json:"user,omitempty"`
	// Via, on a post, is the interaction whose follow-up the post may be
	// (see Interaction): Discord's interaction routes count against no
	// global limit.
	Via *Interaction `json:"via,omitempty"`
	// FirstTry, set by the sender (not stored): delivered by the process
	// that committed it, never tried before (no earlier request's outcome
	// to look for).
	FirstTry bool `json:"-"`
	// Queue is the outbox queue the effect waits in (see store.Effect):
	// "" for the game's main queue, CardQueue for the card's edits. It is
	// the store's column, not part of the payload.
	Queue string `json:"-"`
}

// Interaction is the interaction a post may follow up: its application
// and token, the channel it was made in (a follow-up lands there) and
// when it was made (its token lasts 15 minutes from then).
type Interaction struct {
	App     string    `json:"app"`
	Token   string    `json:"token"`
	Channel string    `json:"channel"`
	At      time.Time `json:"at"`
}

// Stored is the effect as the outbox keeps it.
func (e Effect) Stored() (store.Effect, error) {
	data, err := json.Marshal(e)
	if err != nil {
		return store.Effect{}, fmt.Errorf("effect %s: %w", e.Op, err)
	}
	return store.Effect{Kind: string(e.Op), Payload: data, Queue: e.Queue}, nil
}

// Decode reads a stored effect's payload.
func Decode(e store.Effect) (Effect, error) {
	var ef Effect
	if err := json.Unmarshal(e.Payload, &ef); err != nil {
		return Effect{}, fmt.Errorf("effect %d: %w", e.ID, err)
	}
	ef.Queue = e.Queue
	return ef, nil
}
