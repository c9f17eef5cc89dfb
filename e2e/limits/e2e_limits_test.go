package limits

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

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/ratelimit"
	"github.com/malefiz-discord/malefiz/serve"
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
// that no turn card waits on a card edit, and that the bot got at most a
// stray global 429 (see below).
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
	// The twenty are opened at once in one channel, more lobbies than the
	// channel's default bound (10): the test raises it, as a server that
	// wants twenty games at once in one channel would.
	openAtOnce := func(cfg *serve.Config) {
		httpMode(cfg)
		cfg.Game.LobbiesPerChannel = games
	}
	h := newHarnessWith(t, openAtOnce, deferAfterASecond, fakediscord.WithHTTPInteractions(nil))
	defer harness.LogRateLimited(t, h.Fake)
	s := malefiz.DefaultGuildSettings()
	s.Roll = "button" // the test rolls the die it chose (threads on: the default)
	require.NoError(t, h.Main.DB().SetGuildSettings(h.Ctx(), h.Fake.GuildID, s))

	began := time.Now()
	channels := make([]string, games)
	for i := range channels {
		channels[i] = h.Fake.ChannelID
	}
	played := playLimitGames(t, h, channels, turnsPerGame)
	finished := time.Since(began)
	checkCardsShowTheResult(t, h, played)
	// How far the cards were behind: from the click that ended a game to
	// its card's last edit (the result), the longest of the games.
	lastEdit := map[string]time.Time{}
	edits := 0
	for _, c := range h.Fake.Calls() {
		if c.Route == fakediscord.RouteMessageEdit && c.Param("channel") == h.Fake.ChannelID && c.OK() {
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
	st := h.Fake.LimitStats()
	t.Logf("%d games in %v: %d turn posts, delay p50 %v max %v; %d card edits, the last result on its card %v after its game ended; "+
		"%d requests, %d globally limited, 429s %v, %d invalid",
		games, finished.Round(time.Millisecond), len(delays), delays[len(delays)/2].Round(time.Millisecond),
		slowest.Round(time.Millisecond), edits, behind.Round(time.Millisecond), st.Requests, st.GlobalCounted, st.Limited, st.Invalid)
	// The twenty starts at once offer more than the global limit for a
	// few seconds, which the limiter paces at 45 a second plus a burst of
	// 3: 48 as sent in any second, 2 under the stand-in's 50 counted on
	// arrival in a fixed window. Requests the race detector held back for
	// ~70 ms and then let go together can put one over it: seen once in
	// about twenty runs (1 global 429, 1 invalid request). A storm is
	// dozens; the limiter's own 0 under the limit is BenchmarkTokenThroughput's
	// and ratelimit's Storm benchmark's.
	assert.LessOrEqual(t, st.Limited[fakediscord.ScopeGlobal], 2, "global 429s")
	assert.LessOrEqual(t, st.Invalid, 2, "invalid requests")
	assert.False(t, st.Banned)
	// The premise: the cards were backed up. The twenty results alone
	// need four of the bucket's 5-second windows after the first.
	assert.Greater(t, behind, 5*time.Second, "the cards were not backed up")
	// No turn card waited on a card. A turn card goes as a follow-up of
	// the click, on that interaction's own bucket (one request of its 5
	// per 2 s) and under no global limit: what it takes is CPU, the
	// board's PNG and the store. Under -race, with the other limits tests
	// running beside it on a loaded 2-core machine, that was p50 80 to
	// 190 ms and at most 1.0 s in fourteen runs. A turn card that waits on
	// a card waits for the loop's edit of that card, which waits for the
	// channel's bucket that twenty cards share: up to its 5-second window
	// (the bug this test found: the slowest turn post took 1.0 to 2.6 s
	// under -race, 1.6 to 2.4 s without; TestACardEditHoldsBackNoPost in
	// bot/outbox pins it). Two seconds is twice the slowest CPU-bound post
	// seen and a small part of how far the cards run behind (behind).
	assert.Less(t, slowest, 2*time.Second, "the slowest turn post")
}

// deferAfterASecond is the bot's configuration of the limits tests: its
// answers deferred after 1 s instead of 2.5, as in
// TestHTTPHundredGamesCardsShowTheirResult. These tests run beside others
// under -race, where both cores can stall the process for more than the
// half second production keeps before Discord's 3 s (a resignation was
// refused at 3.26 s). An answer that is deferred still ends as it would.
func deferAfterASecond(c *bot.Config) { c.DeferAfter = time.Second }

// playLimitGames opens a game of a person against a computer in each of
// channels (a channel may be named more than once), has each person play
// turns turns with playRacing (they play at once) and resign, and returns
// the games.
func playLimitGames(t *testing.T, h *harness.Harness, channels []string, turns int) []*limitsGame {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	played := make([]*limitsGame, len(channels))
	errs := make([]error, len(channels))
	var (
		wg    sync.WaitGroup
		dieMu sync.Mutex
	)
	for i, ch := range channels {
		g := &limitsGame{player: fmt.Sprintf("3400000000000%05d", i)}
		played[i] = g
		wg.Go(func() {
			var err error
			if g.id, g.card, err = openComputerGame(ctx, h.Fake, ch, g.player); err != nil {
				errs[i] = err
				return
			}
			errs[i] = playRacing(ctx, h, ch, g, &dieMu, turns)
		})
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "game %d", i)
	}
	return played
}

// checkCardsShowTheResult checks that every game finished and that its
// card ends showing its result: the last state was delivered, however
// long the edits queued.
func checkCardsShowTheResult(t *testing.T, h *harness.Harness, played []*limitsGame) {
	t.Helper()
	for _, g := range played {
		sg, err := h.Main.DB().Game(h.Ctx(), g.id)
		require.NoError(t, err)
		assert.Equal(t, malefiz.StatusFinished, sg.Status, "game %d", g.id)
		assert.Equal(t, g.card, sg.LobbyMessageID, "game %d: its card is the lobby message", g.id)
		require.Eventually(t, func() bool {
			card, ok := h.Fake.Message(g.card)
			return ok && strings.HasPrefix(harness.Title(card), "🏆")
		}, time.Minute, 20*time.Millisecond, "the card of game %d shows its result", g.id)
	}
}

// playRacing plays game g as its person, in channel ch: the best roll for
// a racer (the die is set under dieMu, which the games share), then the
// move that ends closest to the goal, a barricade on the first square
// offered; after turns turns (0: no limit) the person resigns, which ends
// the game with the computer alone. It records the delay of every turn
// card that follows a turn the person ended, and when the game ended.
func playRacing(ctx context.Context, h *harness.Harness, ch string, g *limitsGame, dieMu *sync.Mutex, turns int) error {
	for played := 0; ; played++ {
		sg, eg, err := snapshot(ctx, h.Main.DB(), g.id)
		if err != nil {
			return err
		}
		if eg.Over() {
			return nil
		}
		if turns > 0 && played == turns {
			if err := resignGame(ctx, h.Fake, ch, g.player); err != nil {
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
		card, err := waitTurnCard(ctx, h.Fake, sg.ThreadID, g.id, turn)
		if err != nil {
			return err
		}
		roll, _ := harness.BestRoll(eg.Position(), eg.Rules(), false)
		if roll == 0 {
			roll = 6 // nothing is legal: any roll passes
		}
		inv := fakediscord.Invocation{User: g.player, MessageID: card.ID, CustomID: fmt.Sprintf("mf/roll/%d/%d", g.id, turn)}
		dieMu.Lock()
		h.Die.Set(roll)
		resp, err := h.Fake.Click(ctx, inv)
		dieMu.Unlock()
		if err != nil {
			return fmt.Errorf("game %d turn %d: roll: %w", g.id, turn, err)
		}
		answered := time.Now()
		view, err := settled(ctx, h.Fake, resp)
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
			if resp, err = h.Fake.Click(ctx, next); err != nil {
				return fmt.Errorf("game %d turn %d: %s: %w", g.id, turn, next.CustomID, err)
			}
			answered = time.Now()
			if view, err = settled(ctx, h.Fake, resp); err != nil {
				return err
			}
		}
		sg, eg, err = snapshot(ctx, h.Main.DB(), g.id)
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
		next, err := waitTurnCard(ctx, h.Fake, sg.ThreadID, g.id, eg.TurnNumber())
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
func snapshot(ctx context.Context, db *store.DB, id int64) (*malefiz.Game, *engine.Game, error) {
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
// message with that turn's Roll button. It looks at the thread's last
// message, and at the whole thread every tenth look, so that twenty games
// waiting at once take little of the CPU the bot needs.
func waitTurnCard(ctx context.Context, fake *fakediscord.Fake, thread string, id int64, turn int) (fakediscord.Message, error) {
	roll := fmt.Sprintf("mf/roll/%d/%d", id, turn)
	for look := 0; ; look++ {
		if m, ok := fake.LastMessage(thread); ok && slices.Contains(m.CustomIDs(), roll) {
			return m, nil
		}
		if look%10 == 9 {
			msgs := fake.ChannelMessages(thread)
			for i := len(msgs) - 1; i >= 0; i-- {
				if slices.Contains(msgs[i].CustomIDs(), roll) {
					return msgs[i], nil
				}
			}
		}
		select {
		case <-ctx.Done():
			return fakediscord.Message{}, fmt.Errorf("game %d: no turn card for turn %d in thread %s: %w", id, turn, thread, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestGlobalLimitLoweredTo10 plays games against a stand-in whose global
// limit is 10 requests a second instead of Discord's 50 (the other limits
// Discord's), in HTTP mode, each game in a channel of its own with its
// thread. With the bot's global_rate at its default (45 a second) the bot
// offers more than the limit when the games start and end: it must learn
// from the global 429s, wait out each window it is given and not be
// banned. With global_rate 5 (with the limiter's burst of 3, at most 8 in
// any second as sent) it must get no global 429 at all: two requests of
// margin for requests that arrive closer together than they were sent, as
// the default (45 and 3 against Discord's 50) keeps (7, ten in any second
// as sent, got none in three runs either). Each case plays six games of
// a person against a computer, three turns and a resignation, to their
// end, every card ending on its result.
func TestGlobalLimitLoweredTo10(t *testing.T) {
	t.Parallel()
	const games, turnsPerGame = 6, 3
	for _, tc := range []struct {
		name string
		rate float64 // [discord] global_rate; 0 keeps the default
	}{
		{name: "default global_rate", rate: 0},
		{name: "global_rate under the limit", rate: 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			channels := make([]string, games)
			for i := range channels {
				channels[i] = fmt.Sprintf("2400000000000%05d", i)
			}
			limits := fakediscord.DefaultLimits()
			limits.Global = fakediscord.Rate{N: 10, Per: time.Second}
			// One start: a second process on the token, with a budget of
			// its own, would add its requests to the same second.
			h := newHarnessWith(t, func(cfg *serve.Config) {
				httpMode(cfg)
				if tc.rate > 0 {
					cfg.Discord.GlobalRate = tc.rate
				}
			}, deferAfterASecond, fakediscord.WithHTTPInteractions(nil), fakediscord.WithGuild(fakediscord.Guild{Channels: channels}),
				fakediscord.WithLimits(limits))
			defer harness.LogRateLimited(t, h.Fake)
			s := malefiz.DefaultGuildSettings()
			s.Roll = "button" // the test rolls the die it chose (threads on: the default)
			require.NoError(t, h.Main.DB().SetGuildSettings(h.Ctx(), h.Fake.GuildID, s))

			began := time.Now()
			played := playLimitGames(t, h, channels, turnsPerGame)
			checkCardsShowTheResult(t, h, played)
			require.Eventually(t, func() bool {
				n, err := h.Main.DB().PendingEffects(h.Ctx())
				return err == nil && n == 0
			}, time.Minute, 20*time.Millisecond, "effects left in the outbox")
			elapsed := time.Since(began)

			st := h.Fake.LimitStats()
			t.Logf("global_rate %v against a global limit of 10/s: %d games in %v, %d requests (%d globally limited, %.1f/s), 429s %v, %d invalid, peak %d in 10 min, banned %v",
				tc.rate, games, elapsed.Round(time.Millisecond), st.Requests, st.GlobalCounted,
				float64(st.GlobalCounted)/elapsed.Seconds(), st.Limited, st.Invalid, st.PeakInvalid, st.Banned)
			assert.False(t, st.Banned, "the token was banned")
			assert.Zero(t, st.Limited[fakediscord.ScopeCloudflare], "requests refused by a ban")
			// Far from the ban: Discord bans at 10,000 invalid requests in
			// 10 minutes, 16.7 a second. After a global 429 the limiter
			// stops every globally limited request until the window
			// Discord named has passed, so only the requests already in
			// flight meet the same window: a few 429s a second at most
			// while the bot offers more than the limit, none otherwise.
			// A quarter of the ban's rate, kept up for ten minutes, still
			// stays a quarter of the ban.
			banRate := float64(ratelimit.InvalidLimit) / ratelimit.InvalidWindow.Seconds()
			assert.LessOrEqual(t, float64(st.Invalid), banRate/4*elapsed.Seconds(), "invalid requests in %v", elapsed)
			if tc.rate > 0 {
				assert.Zero(t, st.Limited[fakediscord.ScopeGlobal], "global 429s under a global_rate within the limit")
			}
		})
	}
}
