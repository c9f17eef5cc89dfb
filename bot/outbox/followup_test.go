package outbox

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// card is a turn card whose button carries customID.
func card(content, customID string) json.RawMessage {
	return mustJSON(map[string]any{"content": content, "allowed_mentions": map[string]any{"parse": []string{}},
		"components": []any{map[string]any{"type": 1, "components": []any{
			map[string]any{"type": 2, "style": 1, "label": "Roll", "custom_id": customID}}}}})
}

// clicked is a click on the button customID of the bot's message msg,
// answered by a deferred update, as the interaction a follow-up names.
func (e *env) clicked(msg, customID string) *queue.Interaction {
	e.t.Helper()
	got := make(chan *queue.Interaction, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i struct {
			Type      int    `json:"type"`
			Token     string `json:"token"`
			App       string `json:"application_id"`
			ChannelID string `json:"channel_id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&i)
		w.Header().Set("Content-Type", "application/json")
		if i.Type == 1 {
			_, _ = w.Write([]byte(`{"type":1}`))
			return
		}
		got <- &queue.Interaction{App: i.App, Token: i.Token, Channel: i.ChannelID, At: time.Now()}
		_, _ = w.Write([]byte(`{"type":6}`))
	}))
	e.t.Cleanup(srv.Close)
	e.fake.SetInteractionEndpoints(srv.URL)
	_, err := e.fake.Click(e.t.Context(), fakediscord.Invocation{User: "1", MessageID: msg, CustomID: customID})
	require.NoError(e.t, err)
	return <-got
}

// turnOne posts the first turn's card by bot and clicks it.
func (e *env) turnOne() *queue.Interaction {
	e.t.Helper()
	require.NoError(e.t, e.deliver(queue.Effect{Op: queue.Post, InPlay: true, Body: card("turn 1", "roll/1/1"), Record: malefiz.RoleTurn}))
	return e.clicked(e.stored().TurnMessageID, "roll/1/1")
}

// next is the second turn's card, a follow-up of via where it may.
func next(via *queue.Interaction) queue.Effect {
	return queue.Effect{Op: queue.Post, InPlay: true, Body: card("turn 2", "roll/1/2"), Record: malefiz.RoleTurn, Via: via}
}

// cardsOfTurnTwo counts the messages of the channel with turn 2's button.
func (e *env) cardsOfTurnTwo() int {
	n := 0
	for _, m := range e.fake.ChannelMessages(e.game.ChannelID) {
		for _, id := range m.CustomIDs() {
			if id == "roll/1/2" {
				n++
			}
		}
	}
	return n
}

// TestTheNextCardIsAFollowup: the next turn's card goes as a follow-up of
// the click that ended the turn (an exempt route), is recorded, and is
// edited by the bot's token like any message of the bot's; where it may
// not (a token too old, a click from another channel, a body without a
// button), it goes by the bot's token with its nonce.
func TestTheNextCardIsAFollowup(t *testing.T) {
	for _, tc := range []struct {
		name     string
		age      time.Duration // how old the token is at delivery
		channel  string        // the click's channel, when not the game's
		body     json.RawMessage
		followup bool
	}{
		{name: "a fresh click in the game's channel", followup: true},
		{name: "a token near the end of its life", age: 12 * time.Minute, followup: true},
		{name: "a token past 15 minutes less the margin", age: 14 * time.Minute},
		{name: "a token past 15 minutes", age: 16 * time.Minute},
		{name: "a click in another channel", channel: "elsewhere"},
		{name: "a body without a button", body: text("turn 2")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			via := e.turnOne()
			e.s.cfg.Now = func() time.Time { return via.At.Add(tc.age) }
			if tc.channel != "" {
				via.Channel = tc.channel
			}
			ef := next(via)
			if tc.body != nil {
				ef.Body = tc.body
			}
			require.NoError(t, e.deliver(ef))
			assert.Equal(t, map[bool]int{true: 1, false: 0}[tc.followup], e.calls(fakediscord.RouteFollowup))
			assert.Equal(t, map[bool]int{true: 1, false: 2}[tc.followup], e.calls(fakediscord.RouteMessageCreate))
			turn := e.stored().TurnMessageID
			m, ok := e.fake.Message(turn)
			require.True(t, ok)
			assert.Equal(t, "turn 2", m.Content)
			assert.Equal(t, tc.followup, m.InteractionID != "", "made by the interaction's webhook")

			require.NoError(t, e.deliver(queue.Effect{Op: queue.Edit, InPlay: true, Target: malefiz.RoleTurn, Body: text("turn 2: played")}))
			m, _ = e.fake.Message(turn)
			assert.Equal(t, "turn 2: played", m.Content, "edited by the bot's token")
			assert.Equal(t, 0, e.calls(fakediscord.RouteWebhookMessageEdit))
		})
	}
}

// TestAFollowupIsNeverSentTwice: a follow-up whose outcome is not known
// (Discord made the message and the answer was lost; the process was
// killed before or after Discord made it; its claim ran out mid-request
// and another process took the effect over) is looked for among the
// channel's messages before it is sent again: one turn card, recorded.
func TestAFollowupIsNeverSentTwice(t *testing.T) {
	for _, tc := range []struct {
		name  string
		at    fakediscord.Moment
		other bool          // another process takes it over mid-request
		age   time.Duration // the token's age at the retry
		made  bool          // Discord made the message on the first try
	}{
		{name: "made, the answer lost", at: fakediscord.AfterServe, made: true},
		{name: "made, the answer lost, retried after the token's life", at: fakediscord.AfterServe, made: true, age: time.Hour},
		{name: "killed before Discord made it", at: fakediscord.BeforeServe},
		{name: "killed before Discord made it, retried after the token's life", at: fakediscord.BeforeServe, age: time.Hour},
		{name: "the claim ran out mid-request", at: fakediscord.AfterServe, other: true, made: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			via := e.turnOne()
			other := e.sender("p2")
			e.fake.OnNext(fakediscord.OnRoute(fakediscord.RouteFollowup), tc.at, func(fakediscord.Call) bool {
				if tc.other {
					assert.Equal(t, 1, e.pass(other, queue.Lease+time.Second), "taken over")
					return false
				}
				return true // the connection closes: no answer
			})
			require.NoError(t, e.deliver(next(via)))
			if tc.made {
				assert.Equal(t, 1, e.cardsOfTurnTwo(), "Discord made it")
			}
			if !tc.other {
				later := func() time.Time { return via.At.Add(tc.age) }
				e.s.cfg.Now = later
				assert.Equal(t, 1, e.pass(e.s, maxBackoff), "the retry")
			}
			assert.Equal(t, 1, e.cardsOfTurnTwo(), "one turn card")
			turn := e.stored().TurnMessageID
			m, ok := e.fake.Message(turn)
			require.True(t, ok, "recorded")
			assert.Equal(t, []string{"roll/1/2"}, m.CustomIDs())
			for _, st := range e.effects() {
				assert.True(t, st.Done && !st.Failed, "%s", st.Result)
			}
			assert.Equal(t, 1, e.calls(fakediscord.RouteChannelMessages), "looked once")
		})
	}
}

// TestARefusedFollowupFallsBack: a follow-up Discord refuses for good (its
// token unknown) made nothing: the card goes by the bot's token at once.
func TestARefusedFollowupFallsBack(t *testing.T) {
	unknown := fakediscord.Fault{Status: http.StatusNotFound, Code: 10015, Message: "Unknown Webhook"}
	for _, tc := range []struct {
		name     string
		refusals int
		followup bool
	}{
		// An answer given as the HTTP response is known a moment later.
		{"the answer not known yet", 2, true},
		{"a token Discord does not know", originalTries, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			via := e.turnOne()
			e.fake.FailNext(fakediscord.OnRoute(fakediscord.RouteFollowup), unknown, tc.refusals)
			require.NoError(t, e.deliver(next(via)))
			assert.Equal(t, 1, e.cardsOfTurnTwo())
			m, ok := e.fake.Message(e.stored().TurnMessageID)
			require.True(t, ok)
			if tc.followup {
				assert.NotEmpty(t, m.InteractionID, "a follow-up")
				return
			}
			assert.Empty(t, m.InteractionID, "posted by the bot's token")
			assert.Contains(t, e.logs.String(), "a follow-up refused")
		})
	}
}
