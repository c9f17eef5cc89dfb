package bot

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/store"
)

// cancelVoteTime is how long the other players have to agree to a host's
// cancel.
const cancelVoteTime = 24 * time.Hour

// askResign answers /malefiz resign (or leave) in a running game privately
// with the choice: Resign, or Keep playing. Nothing changes until Resign.
func (b *Bot) askResign(r *request, sg *store.Game) error {
	if !seated(r.userID)(sg) {
		return refuse(locales.ErrNotInGame)
	}
	cid := func(a Action) string { return CustomID{Action: a, Game: sg.ID}.String() }
	return b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: tr(r.lang, locales.ResignAsk, sg.ID), Flags: discordgo.MessageFlagsEphemeral,
			AllowedMentions: &discordgo.MessageAllowedMentions{},
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: tr(r.lang, locales.ButtonResign), Style: discordgo.DangerButton, CustomID: cid(ActResign)},
				discordgo.Button{Label: tr(r.lang, locales.ButtonKeep), Style: discordgo.SecondaryButton, CustomID: cid(ActKeep)},
			}}}}})
}

// keepPlaying answers Keep playing: the question goes, nothing changes.
func (b *Bot) keepPlaying(r *request) error {
	return b.respond(r, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: closedData(tr(r.lang, locales.ResignKept))})
}

// firstTurnPlayed reports whether the running game is past its first turn.
func (m *match) firstTurnPlayed() bool { return m.game != nil && m.game.TurnNumber() > 1 }

// otherHumans are the user IDs of the people still playing, but userID.
func (m *match) otherHumans(userID string) []string {
	var out []string
	for _, s := range m.stored.Seats {
		if s.UserID != "" && s.Computer == "" && !s.Left && s.UserID != userID {
			out = append(out, s.UserID)
		}
	}
	return out
}

// askCancel opens the vote on a host's cancel: a message where the game
// plays asks the other players to agree, for cancelVoteTime.
func (b *Bot) askCancel(m *match, r *request) error {
	sg := m.stored
	if v := sg.Options.CancelVote; v != nil && m.now.Before(v.Until) {
		return refuse(locales.ErrVoteOpen)
	}
	sg.Options.CancelVote = &store.CancelVote{By: r.userID, Until: m.now.Add(cancelVoteTime)}
	m.record(eventCancelVote, r.userID, "", "")
	others := m.otherHumans(r.userID)
	m.post(b.voteView(m, others), "")
	m.answerPrivate(tr(r.lang, locales.VoteAsked))
	return nil
}

// eventCancelVote is the event of a host asking to cancel a running game.
const eventCancelVote = "cancel_vote"

// voteView is the vote's message: who asks, who agreed, the buttons.
func (b *Bot) voteView(m *match, others []string) view {
	lang := m.stored.Locale
	v := m.stored.Options.CancelVote
	var agreed []string
	for _, u := range v.Agreed {
		agreed = append(agreed, mention(u))
	}
	text := tr(lang, locales.VoteText, mention(v.By), m.stored.ID, v.Until.Unix())
	for _, u := range others {
		text = mention(u) + " " + text
	}
	if len(agreed) > 0 {
		text += "\n" + tr(lang, locales.VoteAgreed, strings.Join(agreed, ", "))
	}
	cid := func(a Action) string { return CustomID{Action: a, Game: m.stored.ID}.String() }
	return view{content: text, pings: others, components: []discordgo.MessageComponent{discordgo.ActionsRow{
		Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr(lang, locales.ButtonVoteYes), Style: discordgo.DangerButton, CustomID: cid(ActVoteYes)},
			discordgo.Button{Label: tr(lang, locales.ButtonVoteNo), Style: discordgo.SecondaryButton, CustomID: cid(ActVoteNo)},
		}}}}
}

// vote applies a click on a cancel vote's message: agreement, or refusal.
// The vote message is the bot's, from where the game plays; its game is in
// the custom ID.
func (b *Bot) vote(ctx context.Context, r *request, id CustomID) error {
	msg := r.i.Message
	if msg == nil || msg.Author == nil || msg.Author.ID != r.i.AppID {
		return refuse(locales.ErrForeignButton)
	}
	r.originChecked = true
	return b.change(ctx, r, id.Game, func(m *match) error {
		sg := m.stored
		if r.i.GuildID != sg.GuildID || (r.i.ChannelID != sg.ChannelID && r.i.ChannelID != sg.ThreadID) {
			return refuse(locales.ErrForeignButton)
		}
		v := sg.Options.CancelVote
		switch {
		case sg.Status != store.StatusRunning:
			return refuse(locales.ErrGameEnded)
		case v == nil || !m.now.Before(v.Until):
			sg.Options.CancelVote = nil
			m.changed()
			m.answer(discordgo.InteractionResponseUpdateMessage, closedData(tr(sg.Locale, locales.VoteClosed)), nil)
			return nil
		}
		others := m.otherHumans(v.By)
		if !slices.Contains(others, r.userID) {
			return refuse(locales.ErrNotYourVote)
		}
		if id.Action == ActVoteNo {
			sg.Options.CancelVote = nil
			m.record(eventCancelVote, r.userID, "", "refused")
			m.answer(discordgo.InteractionResponseUpdateMessage, closedData(tr(sg.Locale, locales.VoteRefused, quote(r.name))), nil)
			return nil
		}
		if !slices.Contains(v.Agreed, r.userID) {
			v.Agreed = append(v.Agreed, r.userID)
			m.record(eventCancelVote, r.userID, "", "agreed")
		}
		for _, u := range others {
			if !slices.Contains(v.Agreed, u) {
				vv := b.voteView(m, nil)
				m.answer(discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{Content: vv.content,
					Components: vv.components, AllowedMentions: &discordgo.MessageAllowedMentions{}}, nil)
				return nil
			}
		}
		// Everyone agreed: the game ends without a result.
		text := tr(sg.Locale, locales.VoteCancelled, sg.ID)
		m.answer(discordgo.InteractionResponseUpdateMessage, closedData(text), nil)
		b.endWithoutResult(m, v.By, "vote")
		return nil
	})
}
