package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/store"
)

// limitsGame is one game of a limits test: a person against a computer.
type limitsGame struct {
	id     int64
	card   string // the lobby message in the channel, the game's card
	player string
	// delays are, for each turn the person ended, the time from the
	// answer to the click that ended it to the next turn card in the
	// thread.
	delays []time.Duration
	// ended is when the click that ended the game was answered.
	ended time.Time
}

// TestTwentyGamesInOneChannelWithLimits plays twenty games in one channel
// against a stand-in with Discord's limits on (fakediscord.DefaultLimits),
// in HTTP mode, each game in its own thread and all their cards in the
// channel: every card edit of every game goes through that channel's one
// bucket of message edits (5 per 5 s), which twenty games playing at once
// keep backed up for many seconds. Each game is a person against a
// computer: the person plays three turns (racing: the best roll, the move
// closest to the goal) and resigns, which ends the game with a result. It
// checks that every game ends, that every card ends showing its result,
// that no turn card waits on a card edit, and that the bot got no global
// 429 and made no invalid request.
//
// It found that the sender's loop delivered a card edit under the game's
// delivery lock: while the edit waited for the channel's bucket, the next
// click's commit waited to reserve its delivery, and its turn card came
// 1.5 to 2.4 s after the answer (outbox.Sender.Pass).
func TestTwentyGamesInOneChannelWithLimits(t *testing.T) {
	t.Parallel()
	// Each person plays turnsPerGame turns and resigns: a race to the
	// goal takes some 27 turns a game, 150 s under -race for the twenty;
	// three take 15 s, then the cards' last edits queue for 20 to 30 s
	// more, which costs no CPU (hence t.Parallel).
	const games, turnsPerGame = 20, 3
	h := newHTTPHarness(t)
	defer logRateLimited(t, h.fake)
	s := store.DefaultGuildSettings()
	s.Roll = "button" // the test rolls the die it chose (threads on: the default)
	require.NoError(t, h.main.db.SetGuildSettings(h.ctx(), h.fake.GuildID, s))

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	began := time.Now()
	played := make([]*limitsGame, games)
	errs := make([]error, games)
	var (
		wg    sync.WaitGroup
		dieMu sync.Mutex
	)
	for i := range played {
		wg.Go(func() {
			g := &limitsGame{player: fmt.Sprintf("3400000000000%05d", i)}
			played[i] = g
			var err error
			if g.id, g.card, err = openComputerGame(ctx, h.fake, h.fake.ChannelID, g.player); err != nil {
				errs[i] = err
				return
			}
			errs[i] = playRacing(ctx, h, h.fake.ChannelID, g, &dieMu, turnsPerGame)
		})
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "game %d", i)
	}
	finished := time.Since(began)

	// Every game finished, and its card shows the result: the last state
	// was delivered, however long the edits queued.
	for _, g := range played {
		sg, err := h.main.db.Game(h.ctx(), g.id)
		require.NoError(t, err)
		assert.Equal(t, store.StatusFinished, sg.Status, "game %d", g.id)
		assert.Equal(t, g.card, sg.LobbyMessageID, "game %d: its card is the lobby message", g.id)
		require.Eventually(t, func() bool {
			card, ok := h.fake.Message(g.card)
			return ok && strings.HasPrefix(title(card), "🏆")
		}, time.Minute, 20*time.Millisecond, "the card of game %d shows its result", g.id)
	}
	// How far the cards were behind: from the click that ended a game to
	// its card's last edit (the result), the longest of the games.
	lastEdit := map[string]time.Time{}
	edits := 0
	for _, c := range h.fake.Calls() {
		if c.Route == fakediscord.RouteMessageEdit && c.Param("channel") == h.fake.ChannelID && c.OK() {
			lastEdit[c.Param("message")] = c.Time
			edits++
		}
	}
	var behind time.Duration
	for _, g := range played {
		behind = max(behind, lastEdit[g.card].Sub(g.ended))
	}

	var delays []time.Duration
	for _, g := range played {
		delays = append(delays, g.delays...)
	}
	slices.Sort(delays)
	require.NotEmpty(t, delays)
	slowest := delays[len(delays)-1]
	st := h.fake.LimitStats()
	t.Logf("%d games in %v: %d turn posts, delay p50 %v max %v; %d card edits, the last result on its card %v after its game ended; "+
		"%d requests, %d globally limited, 429s %v, %d invalid",
		games, finished.Round(time.Millisecond), len(delays), delays[len(delays)/2].Round(time.Millisecond),
		slowest.Round(time.Millisecond), edits, behind.Round(time.Millisecond), st.Requests, st.GlobalCounted, st.Limited, st.Invalid)
	assert.Zero(t, st.Limited[fakediscord.ScopeGlobal], "global 429s")
	assert.Zero(t, st.Invalid, "invalid requests")
	assert.False(t, st.Banned)
	// The premise: the cards were backed up. The twenty results alone
	// need four of the bucket's 5-second windows after the first.
	assert.Greater(t, behind, 5*time.Second, "the cards were not backed up")
	// No turn card waited on a card. A turn card goes as a follow-up of
	// the click, on that interaction's own bucket (one request of its 5
	// per 2 s) and under no global limit: what it takes is CPU, the
	// board's PNG and the store (p50 ~110 ms, max ~290 ms under -race on
	// two cores). A turn card that waits on a card waits for the loop's
	// edit, which waits for the channel's bucket, shared by the twenty
	// cards: seconds (1.5 to 2.4 s measured before the fix). A second
	// lies between the two, a few times the slowest seen either way.
	assert.Less(t, slowest, time.Second, "the slowest turn post")
}

// playRacing plays game g as its person, in channel ch: the best roll for
// a racer (the die is set under dieMu, which the games share), then the
// move that ends closest to the goal, a barricade on the first square
// offered; after turns turns (0: no limit) the person resigns, which ends
// the game with the computer alone. It records the delay of every turn
// card that follows a turn the person ended, and when the game ended.
func playRacing(ctx context.Context, h *harness, ch string, g *limitsGame, dieMu *sync.Mutex, turns int) error {
	for played := 0; ; played++ {
		sg, eg, err := snapshot(ctx, h.main.db, g.id)
		if err != nil {
			return err
		}
		if eg.Over() {
			return nil
		}
		if turns > 0 && played == turns {
			if err := resignGame(ctx, h.fake, ch, g.player); err != nil {
				return fmt.Errorf("game %d: %w", g.id, err)
			}
			g.ended = time.Now()
			return nil
		}
		if sg.ThreadID == "" {
			time.Sleep(10 * time.Millisecond) // the thread is on its way
			played--
			continue
		}
		turn := eg.TurnNumber()
		card, err := waitTurnCard(ctx, h.fake, sg.ThreadID, g.id, turn)
		if err != nil {
			return err
		}
		roll, _ := bestRoll(eg.Position(), eg.Rules(), false)
		if roll == 0 {
			roll = 6 // nothing is legal: any roll passes
		}
		inv := fakediscord.Invocation{User: g.player, MessageID: card.ID, CustomID: fmt.Sprintf("mf/roll/%d/%d", g.id, turn)}
		dieMu.Lock()
		h.die.set(roll)
		resp, err := h.fake.Click(ctx, inv)
		dieMu.Unlock()
		if err != nil {
			return fmt.Errorf("game %d turn %d: roll: %w", g.id, turn, err)
		}
		answered := time.Now()
		view, err := settled(ctx, h.fake, resp)
		if err != nil {
			return err
		}
		for step := 0; ; step++ {
			if step == 8 {
				return fmt.Errorf("game %d turn %d: not over after 8 clicks: %v", g.id, turn, view.CustomIDs())
			}
			next, ok := turnChoice(view, g.player)
			if !ok {
				break // the turn's line: the turn is played
			}
			next.MessageID = card.ID
			if resp, err = h.fake.Click(ctx, next); err != nil {
				return fmt.Errorf("game %d turn %d: %s: %w", g.id, turn, next.CustomID, err)
			}
			answered = time.Now()
			if view, err = settled(ctx, h.fake, resp); err != nil {
				return err
			}
		}
		sg, eg, err = snapshot(ctx, h.main.db, g.id)
		if err != nil {
			return err
		}
		if eg.Over() {
			g.ended = answered
			return nil
		}
		if eg.TurnNumber() == turn {
			return fmt.Errorf("game %d turn %d: the turn's buttons are gone but the turn goes on", g.id, turn)
		}
		next, err := waitTurnCard(ctx, h.fake, sg.ThreadID, g.id, eg.TurnNumber())
		if err != nil {
			return err
		}
		g.delays = append(g.delays, max(next.Created.Sub(answered), 0))
	}
}

// turnChoice is the click that goes on with a turn whose view (the turn
// message after its roll) is view, in the order turnChoices gives: the
// move closest to the goal, the first square offered for a barricade. It
// is false when view has no choice left: the turn is played.
func turnChoice(view fakediscord.Message, user string) (fakediscord.Invocation, bool) {
	for _, a := range turnChoices {
		for _, id := range view.CustomIDs() {
			if !strings.HasPrefix(id, "mf/"+string(a)+"/") {
				continue
			}
			if a == bot.ActMove {
				id = racingMoveButton(view)
			}
			inv := fakediscord.Invocation{User: user, MessageID: view.ID, CustomID: id}
			if c, _ := view.Component(id); len(c.Options) > 0 {
				inv.Values = []string{c.Options[0].Value}
			}
			return inv, true
		}
	}
	return fakediscord.Invocation{}, false
}

// snapshot reads game id's stored state.
func snapshot(ctx context.Context, db *store.DB, id int64) (*store.Game, *engine.Game, error) {
	sg, err := db.Game(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	var g engine.Game
	if err := g.UnmarshalSnapshot(sg.State); err != nil {
		return nil, nil, fmt.Errorf("game %d: %w", id, err)
	}
	return sg, &g, nil
}

// waitTurnCard waits for the turn card of turn of game id in thread: a
// message with that turn's Roll button.
func waitTurnCard(ctx context.Context, fake *fakediscord.Fake, thread string, id int64, turn int) (fakediscord.Message, error) {
	roll := fmt.Sprintf("mf/roll/%d/%d", id, turn)
	for {
		msgs := fake.ChannelMessages(thread)
		for i := len(msgs) - 1; i >= 0; i-- {
			if slices.Contains(msgs[i].CustomIDs(), roll) {
				return msgs[i], nil
			}
		}
		select {
		case <-ctx.Done():
			return fakediscord.Message{}, fmt.Errorf("game %d: no turn card for turn %d in thread %s: %w", id, turn, thread, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}
