package games

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// TestSlowDeliveryDoesNotStallTheNextClick: the game's lock ends at the
// commit's answer (issue 19). Discord takes the post of the next turn's
// message but holds its answer, so the bot does not know the message's
// ID yet; the next player's Roll on that message is answered while the
// delivery is still in flight (a click from a message not recorded yet,
// naming the game's current turn, from the bot in the game's place), and
// the game goes on as recorded once the delivery ends.
func TestSlowDeliveryDoesNotStallTheNextClick(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t)
	gameID, turn := harness.OpenTwoPlayerGame(t, h)

	// Alice plays her first turn; Discord stores the post of Bob's turn
	// message and holds the answer until released.
	_, g := h.Game(gameID)
	roll, target := quietMove(t, g)
	h.Die.Set(roll)
	rolled := h.Click(harness.Alice, turn.ID, harness.Control(t, turn, bot.ActRoll))
	move := ""
	for _, id := range rolled.Message.CustomIDs() {
		if strings.HasPrefix(id, "mf/move/") && strings.HasSuffix(id, "/"+target) {
			move = id
		}
	}
	require.NotEmpty(t, move, "no button for %s among %v", target, rolled.Message.CustomIDs())
	posted := make(chan struct{})
	release := make(chan struct{})
	var held atomic.Bool
	held.Store(true)
	// The next turn's card goes as a follow-up of the move's click.
	h.Fake.OnNext(func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteFollowup || (c.Route == fakediscord.RouteMessageCreate && c.Param("channel") == h.Fake.ChannelID)
	}, fakediscord.AfterServe, func(fakediscord.Call) bool {
		close(posted)
		select {
		case <-release:
		case <-time.After(15 * time.Second):
		}
		held.Store(false)
		return false
	})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	moved := h.Click(harness.Alice, turn.ID, move)
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, moved.Type, "%q", moved.Message.Content)
	select {
	case <-posted:
	case <-time.After(10 * time.Second):
		t.Fatal("the next turn's message was not posted")
	}
	next, ok := h.Fake.LastMessage(h.Fake.ChannelID)
	require.True(t, ok)
	require.True(t, harness.HasControl(next, bot.ActRoll), "Bob's turn message: %v", next.CustomIDs())
	sg, _ := h.Game(gameID)
	require.NotEqual(t, next.ID, sg.TurnMessageID, "the message's ID is not recorded while its post is held")

	// Bob rolls on it while the post is held: answered now, not after.
	_, g = h.Game(gameID)
	roll, target = quietMove(t, g)
	h.Die.Set(roll)
	start := time.Now()
	resp := h.Click(harness.Bob, next.ID, harness.Control(t, next, bot.ActRoll))
	assert.True(t, held.Load(), "the click was answered only after the delivery (%v)", time.Since(start))
	require.False(t, resp.Ephemeral(), "refused: %q", resp.Message.Content)
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type)
	require.True(t, harness.HasControl(*resp.Message, bot.ActMove), "the roll shows Bob's moves: %v", resp.Message.CustomIDs())
	_, g = h.Game(gameID)
	assert.Equal(t, engine.PhaseMove, g.Phase(), "the roll is committed")
	assert.Equal(t, roll, g.Rolled())

	// The delivery ends: the message is recorded, and Bob's move on it
	// goes on as usual.
	close(release)
	require.Eventually(t, func() bool { sg, _ := h.Game(gameID); return sg.TurnMessageID == next.ID },
		10*time.Second, 5*time.Millisecond, "the held post's ID is recorded")
	bobMove := ""
	for _, id := range resp.Message.CustomIDs() {
		if strings.HasPrefix(id, "mf/move/") && strings.HasSuffix(id, "/"+target) {
			bobMove = id
		}
	}
	require.NotEmpty(t, bobMove, "no button for %s among %v", target, resp.Message.CustomIDs())
	done := h.Click(harness.Bob, next.ID, bobMove)
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, done.Type, "%q", done.Message.Content)
	assert.Empty(t, done.Message.CustomIDs(), "Bob's turn message became its line")
	after, running := h.WaitTurn(gameID)
	require.True(t, running)
	assert.NotEqual(t, next.ID, after.ID, "the third turn has a message of its own")
	assert.True(t, strings.Contains(strings.Join(after.Pinged, " "), harness.Alice), "the third turn is Alice's: %v", after.Pinged)
	// Bob's line stays as his click left it: no later edit of the held
	// message brought back its buttons.
	line, _ := h.Fake.Message(next.ID)
	assert.Empty(t, line.CustomIDs())
}

// quietMove returns a roll for the player to move of g and the move it
// allows (FROM-TO) onto an empty square: no capture, no barricade to put.
func quietMove(t *testing.T, g *engine.Game) (int, string) {
	t.Helper()
	p := g.Position()
	for roll := 1; roll <= 6; roll++ {
		for _, m := range p.Moves(roll, g.Rules()) {
			if at := p.At(m.To); at != engine.Barricade && !at.IsPawn() {
				return roll, engine.Move{From: m.From, To: m.To, Place: engine.NoSquare}.String()
			}
		}
	}
	t.Fatal("no quiet move")
	return 0, ""
}
