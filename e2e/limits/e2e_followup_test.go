package limits

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// globallyLimited reports whether Discord counts call c against the bot
// token's global limit of 50 requests/s: every REST call but the
// interaction routes (the callback, and everything under
// /webhooks/{application}/{interaction token}), which have per-token
// buckets of their own
// (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit).
func globallyLimited(c fakediscord.Call) bool {
	return c.Route != "" && c.Route != fakediscord.RouteInteractionCallback &&
		!strings.Contains(c.Route, "/webhooks/{app}/{token}")
}

// TestGlobalRequestsPerHumanTurn plays one two-player game, alice against
// a computer, over the gateway with the defaults (threads on, roll auto),
// and counts the requests of the whole game, from the Start click to the
// result, that count against the bot token's global limit, per human
// turn. The next turn's card goes as a follow-up of the click that ended
// the turn before (an interaction route): what is left is mainly the card
// in the channel, edited once a turn.
func TestGlobalRequestsPerHumanTurn(t *testing.T) {
	h := harness.NewThreads(t)
	lobby := *h.Command(harness.Alice, "new", map[string]any{"seats": 2, "bots": 1, "level": "easy"}).Message
	id, err := bot.ParseCustomID(harness.Control(t, lobby, bot.ActStart))
	require.NoError(t, err)
	start := len(h.Fake.Calls())
	h.Click(harness.Alice, lobby.ID, harness.Control(t, lobby, bot.ActStart))
	turns := 0
	for {
		_, _, running := harness.PlayRolledTurn(t, h, id.Game, false)
		if !running {
			break
		}
		turns++
		require.Less(t, turns, 300, "no winner after 300 turns")
	}
	sg, _ := h.Game(id.Game)
	require.Equal(t, malefiz.StatusFinished, sg.Status)
	require.Eventually(t, func() bool {
		n, err := h.Main.DB().PendingEffects(h.Ctx())
		return err == nil && n == 0
	}, 10*time.Second, 10*time.Millisecond, "the outbox drains")

	byRoute := map[string]int{}
	global, exempt := 0, 0
	for _, c := range h.Fake.Calls()[start:] {
		if globallyLimited(c) {
			global++
			byRoute[c.Route]++
		} else if c.Route != "" {
			exempt++
		}
	}
	var routes []string
	for r, n := range byRoute {
		routes = append(routes, fmt.Sprintf("%s %d", r, n))
	}
	sort.Strings(routes)
	perTurn := float64(global) / float64(turns)
	t.Logf("%d human turns: %d globally limited requests (%.2f per human turn), %d on interaction routes; %s",
		turns, global, perTurn, exempt, strings.Join(routes, ", "))
	assert.LessOrEqual(t, perTurn, 1.2, "globally limited requests per human turn")
}

// TestCrashesDuringAFollowupSendNoCardTwice kills the real program with
// SIGKILL while it sends the next turn's card as a follow-up of the click
// that ended the turn: before Discord made it, and after (its answer
// lost; a follow-up has no nonce). The program started again finds the
// card Discord made, or sends it: one card for that turn, and the game
// goes on from it.
func TestCrashesDuringAFollowupSendNoCardTwice(t *testing.T) {
	t.Parallel() // waits on leases, restarts or pacing more than it computes
	if testing.Short() {
		t.Skip("starts the program several times")
	}
	for _, tc := range []struct {
		name string
		at   fakediscord.Moment
	}{
		{"before Discord made the card", fakediscord.BeforeServe},
		{"after Discord made the card, before its ID was recorded", fakediscord.AfterServe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := fakediscord.New(t)
			c := &child{t: t, fake: fake, dbPath: filepath.Join(t.TempDir(), "malefiz.db")}
			c.start()
			tb := openTable(t, fake, c.dbPath) // in the channel, with a Roll button
			first, running := tb.turnMessage()
			require.True(t, running)
			killed := make(chan struct{})
			fake.OnNext(fakediscord.OnRoute(fakediscord.RouteFollowup), tc.at, func(fakediscord.Call) bool {
				c.kill()
				close(killed)
				return true
			})
			require.True(t, tb.playTurn())
			select {
			case <-killed:
			case <-time.After(10 * time.Second):
				t.Fatal("the next card never went as a follow-up")
			}
			c.start()
			next, running := tb.turnMessage()
			require.True(t, running)
			assert.NotEqual(t, first.ID, next.ID)
			assert.Equal(t, 1, turnMessages(fake, 2), "cards of turn 2")
			if tc.at == fakediscord.AfterServe {
				assert.NotEmpty(t, next.InteractionID, "the follow-up Discord made is the card")
			}
			require.True(t, tb.playTurn(), "the game goes on")
			_, running = tb.turnMessage()
			require.True(t, running)
			assert.Equal(t, 1, turnMessages(fake, 3), "cards of turn 3")
		})
	}
}
