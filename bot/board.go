package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/store"
)

// adoptResponse records the response to r as the game's message of role.
func (b *Bot) adoptResponse(r *request, gameID int64, role store.MessageRole) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := b.out.original(ctx, r.i)
	if err != nil {
		b.log.Warn("could not read the answer's message", "game", gameID, "err", err)
		return
	}
	if err := b.db.SetMessageID(ctx, gameID, role, msg.ID); err != nil {
		b.log.Warn("could not record the answer's message", "game", gameID, "err", err)
		return
	}
	b.out.ids.recorded(gameID)
}

// adopt reads the message Discord made of an interaction's answer, for
// the effect that records it.
func (s *sender) adopt(ctx context.Context, ef effect) (string, *store.MessageRecord, error) {
	m, err := s.original(ctx, &discordgo.Interaction{AppID: ef.App, Token: ef.Token})
	if err != nil {
		return "", nil, err
	}
	return m.ID, record(ef.Record, m.ID), nil
}

// originalTries and originalWait bound how long original waits for the
// message of an answer: Discord makes the message of an HTTP answer a
// little after the response, and @original is Unknown Webhook until then.
const (
	originalTries = 6
	originalWait  = 50 * time.Millisecond
)

// original reads the message of interaction i's answer (@original). An
// answer Discord has not made a message of yet (Unknown Webhook) is asked
// for again, waiting 50 ms, 100 ms, 200 ms, … in between; if it is still
// not there, the error says to try later (see retryable).
func (s *sender) original(ctx context.Context, i *discordgo.Interaction) (*discordgo.Message, error) {
	wait := originalWait
	for try := 1; ; try++ {
		m, err := s.dc.InteractionResponse(i, discordgo.WithContext(ctx))
		if !isDiscordCode(err, discordgo.ErrCodeUnknownWebhook) {
			return m, err
		}
		if try == originalTries {
			return nil, &notYet{err}
		}
		select {
		case <-ctx.Done():
			return nil, &notYet{err}
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// notYet is a refusal that may pass: the outbox tries again later.
type notYet struct{ err error }

func (e *notYet) Error() string { return "not there yet: " + e.err.Error() }
func (e *notYet) Unwrap() error { return e.err }
