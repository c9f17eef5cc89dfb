package table

import (
	"slices"
	"strings"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
)

// cancelVoteTime is how long the other players have to agree to a host's
// cancel.
const cancelVoteTime = 24 * time.Hour

// EventCancelVote is the event of a host asking to cancel a running game.
const EventCancelVote = "cancel_vote"

// firstTurnPlayed reports whether the running game is past its first turn.
func (t *Table) firstTurnPlayed() bool { return t.State != nil && t.State.TurnNumber() > 1 }

// otherHumans are the user IDs of the people still playing, but userID.
func (t *Table) otherHumans(userID string) []string {
	var out []string
	for _, s := range t.Game.Seats {
		if s.UserID != "" && s.Computer == "" && !s.Left && s.UserID != userID {
			out = append(out, s.UserID)
		}
	}
	return out
}

// askCancel opens the vote on a host's cancel: a message where the game
// plays asks the other players to agree, for cancelVoteTime.
func (t *Table) askCancel(a Actor) error {
	g := t.Game
	if v := g.Options.CancelVote; v != nil && t.Now.Before(v.Until) {
		return Refuse(locales.ErrVoteOpen)
	}
	g.Options.CancelVote = &malefiz.CancelVote{By: a.UserID, Until: t.Now.Add(cancelVoteTime)}
	t.record(EventCancelVote, a.UserID, "", "")
	t.post(t.voteMessage(t.otherHumans(a.UserID)), "")
	t.answerPrivate(tr(a.Lang, locales.VoteAsked))
	return nil
}

// voteMessage is the vote's message: who asks, who agreed, the buttons.
func (t *Table) voteMessage(others []string) Message {
	lang := t.Game.Locale
	v := t.Game.Options.CancelVote
	var agreed []string
	for _, u := range v.Agreed {
		agreed = append(agreed, Mention(u))
	}
	text := tr(lang, locales.VoteText, Mention(v.By), t.Game.ID, v.Until.Unix())
	for _, u := range others {
		text = Mention(u) + " " + text
	}
	if len(agreed) > 0 {
		text += "\n" + tr(lang, locales.VoteAgreed, strings.Join(agreed, ", "))
	}
	cid := func(a Action) string { return CustomID{Action: a, Game: t.Game.ID}.String() }
	return Message{Content: text, Pings: others, Rows: []Row{{Buttons: []Button{
		{Label: tr(lang, locales.ButtonVoteYes), Style: Danger, CustomID: cid(ActVoteYes)},
		{Label: tr(lang, locales.ButtonVoteNo), Style: Secondary, CustomID: cid(ActVoteNo)},
	}}}}
}

// Vote applies a click on a cancel vote's message: agreement (yes), or
// refusal.
func (t *Table) Vote(a Actor, yes bool) error {
	g := t.Game
	v := g.Options.CancelVote
	switch {
	case g.Status != malefiz.StatusRunning:
		return Refuse(locales.ErrGameEnded)
	case v == nil || !t.Now.Before(v.Until):
		g.Options.CancelVote = nil
		t.changed()
		t.answer(Update, Text(tr(g.Locale, locales.VoteClosed)))
		return nil
	}
	others := t.otherHumans(v.By)
	if !slices.Contains(others, a.UserID) {
		return Refuse(locales.ErrNotYourVote)
	}
	if !yes {
		g.Options.CancelVote = nil
		t.record(EventCancelVote, a.UserID, "", "refused")
		t.answer(Update, Text(tr(g.Locale, locales.VoteRefused, Quote(a.Name))))
		return nil
	}
	if !slices.Contains(v.Agreed, a.UserID) {
		v.Agreed = append(v.Agreed, a.UserID)
		t.record(EventCancelVote, a.UserID, "", "agreed")
	}
	for _, u := range others {
		if !slices.Contains(v.Agreed, u) {
			vv := t.voteMessage(nil)
			t.answer(Update, Message{Content: vv.Content, Rows: vv.Rows})
			return nil
		}
	}
	// Everyone agreed: the game ends without a result.
	t.answer(Update, Text(tr(g.Locale, locales.VoteCancelled, g.ID)))
	t.endWithoutResult(v.By, "vote")
	return nil
}
