package limits

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/ratelimit"
	"github.com/malefiz-discord/malefiz/serve"
	"github.com/malefiz-discord/malefiz/store"
)

// The load of TestReplicasShareTheGlobalLimit.
const (
	// limitGlobal is the stand-in's global limit, requests a second:
	// Discord's 50 turned down so that twice it is a load two replicas
	// under -race offer in a short test.
	limitGlobal = 10
	// limitRate is the replicas' global_rate: one process alone stays
	// under limitGlobal with its burst on top, and one request of room is
	// left for a share of the budget sent late on a loaded machine, as
	// the default 45 (48 with the burst) leaves 2 of Discord's 50.
	limitRate = limitGlobal - ratelimit.DefaultBurst - 1
	// limitGames are the games played at once, each in a channel of its
	// own; limitClicks the clicks each person makes before resigning.
	limitGames  = 8
	limitClicks = 4
	// limitOffered is the least load offered, in times limitGlobal: 2.2
	// to 3.7 times were measured under -race on a shared 2-core machine;
	// the bound leaves room for CI, where other tests share the cores.
	limitOffered = 1.5
)

// TestReplicasShareTheGlobalLimit: two replicas on one PostgreSQL
// database and one bot token, offered two to three times the token's
// global limit, stay under it together: no global 429, every game ends,
// nothing is posted twice and no invalid request comes near the ban. It
// plays the same load three times, each on a database and a stand-in of
// its own:
//
//   - offered: the stand-in's global limit off and each replica pacing
//     itself at the most global_rate allows (47): the globally limited
//     requests a second the games send when nothing holds them back, from
//     the starts until the first game ends (while all of them play), must
//     be at least limitOffered times limitGlobal (under -race on a shared
//     2-core machine: 22 to 37 a second, 2.2 to 3.7 times);
//   - shared budget: the limit limitGlobal, global_rate limitRate, the
//     replicas sharing the budget in the database: no global 429;
//   - own budgets: the same, each replica with a bucket of its own
//     (Main.OwnBudget), as replicas without the shared budget would be:
//     global 429s come, so the second run can fail.
//
// The stand-in keeps Discord's limits but two: the global limit is
// lowered to limitGlobal a second (and global_rate to limitRate, so that
// one replica alone stays under it, as 45 stays under 50), and the
// channels' message buckets (5 posts and 5 edits per 5 s per channel) are
// off: with them the two players' DM channels, not the token, bound the
// load (in one run under -race, 8 globally limited requests a second
// over the whole run instead of 19; a bot reaches the global limit over
// dozens of channels at once).
//
// The load: limitGames two-seat games (a person against an easy
// computer), each in a channel of its own, alice and bob each playing
// half of them and asking for a DM on every turn (/malefiz notify dm:true
// ping:always). The lobbies are opened first; then every game is started
// at once, as a server full of people pressing Start: each start asks the
// bot token for its thread, the person added to it, the first turn card
// (posted, since the click was in the channel, not the thread), the
// turn's DM (and the DM channel, once per replica and person) and the
// card's edit. Each person then makes limitClicks clicks (each turn's
// card goes as a follow-up, exempt; its DM is globally limited) and
// resigns (the result is posted with the bot token in the thread), while
// the round-robin delivery hands every interaction to the other replica
// in turn.
func TestReplicasShareTheGlobalLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two programs")
	}
	t.Parallel()
	t.Run("offered", func(t *testing.T) {
		r := playAtTheLimit(t, modeOffered)
		assert.GreaterOrEqual(t, r.offered, limitOffered*limitGlobal, "globally limited requests a second while every game played")
	})
	t.Run("shared budget", func(t *testing.T) {
		r := playAtTheLimit(t, modeShared)
		assert.Zero(t, r.stats.Limited[fakediscord.ScopeGlobal], "global 429s: %v", r.stats.Limited)
		assert.LessOrEqual(t, r.peak, limitGlobal, "the most globally limited requests in any second")
	})
	t.Run("own budgets", func(t *testing.T) {
		r := playAtTheLimit(t, modeOwn)
		assert.Positive(t, r.stats.Limited[fakediscord.ScopeGlobal], "without the shared budget the replicas together overrun the limit")
		assert.Greater(t, r.peak, limitGlobal, "the most globally limited requests in any second")
	})
}

// limitsMode is how the replicas of a run of
// TestReplicasShareTheGlobalLimit pace the token's global limit.
type limitsMode int

const (
	modeOffered limitsMode = iota // nothing holds them back
	modeShared                    // the shared budget, under limitGlobal
	modeOwn                       // a bucket of each replica's own, under limitGlobal
)

// limitsRun is what playAtTheLimit measured.
type limitsRun struct {
	stats  fakediscord.LimitStats
	global []time.Time // when each globally limited request arrived, from the starts on
	peak   int         // the most of them in any second
	took   time.Duration
	// offered is the rate of them while every game was playing: from
	// the starts until the first game ended.
	offered float64
}

// playAtTheLimit plays TestReplicasShareTheGlobalLimit's games through two
// replicas paced as mode says, and checks what must hold whatever the
// pace: every game ended by its resignation, every effect delivered,
// nothing posted twice, no invalid request near the ban.
func playAtTheLimit(t *testing.T, mode limitsMode) limitsRun {
	channels := make([]string, limitGames)
	for i := range channels {
		channels[i] = fmt.Sprintf("2500000000000%05d", i)
	}
	limits := fakediscord.DefaultLimits()
	limits.Global = fakediscord.Rate{N: limitGlobal, Per: time.Second}
	limits.ChannelMessages, limits.MessageEdits = fakediscord.Rate{}, fakediscord.Rate{}
	rate := limitRate
	if mode == modeOffered {
		limits.Global = fakediscord.Rate{}
		rate = ratelimit.GlobalLimit - ratelimit.DefaultBurst
	}
	fake := fakediscord.New(t, fakediscord.WithGuild(fakediscord.Guild{Channels: channels}),
		fakediscord.WithHTTPInteractions(nil), fakediscord.WithLimits(limits))
	dbURL := harness.NewPostgresDatabase(t)
	// Alice and Bob each host half the lobbies, all opened before the
	// starts: more than a host's default bound (3).
	env := []string{"MALEFIZ_DISCORD_GLOBAL_RATE=" + strconv.Itoa(rate), "MALEFIZ_GAME_LOBBIES_PER_USER=" + strconv.Itoa(limitGames)}
	if mode != modeShared {
		env = append(env, harness.OwnBudgetEnv+"=1")
	}
	a, b := startReplica(t, fake, dbURL, env...), startReplica(t, fake, dbURL, env...)
	fake.SetInteractionEndpoints(a.endpoint(), b.endpoint())
	db, err := store.Open(t.Context(), dbURL)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()

	users := []string{harness.Alice, harness.Bob}
	for _, u := range users {
		resp, err := fake.SlashCommand(ctx, fakediscord.Invocation{User: u, Name: "malefiz", Sub: "notify",
			Options: map[string]any{"dm": true, "ping": "always"}})
		require.NoError(t, err)
		_, err = settled(ctx, fake, resp)
		require.NoError(t, err)
	}
	lobbies := make([]fakediscord.Message, limitGames)
	for i, ch := range channels {
		resp, err := fake.SlashCommand(ctx, fakediscord.Invocation{User: users[i%2], Channel: ch, Name: "malefiz", Sub: "new",
			Options: map[string]any{"seats": 2, "bots": 1, "level": "easy"}})
		require.NoError(t, err)
		lobbies[i], err = settled(ctx, fake, resp)
		require.NoError(t, err)
	}

	began := time.Now()
	ids := make([]int64, limitGames)
	errs := make([]error, limitGames)
	ended := make([]time.Time, limitGames)
	var wg sync.WaitGroup
	for i, ch := range channels {
		wg.Go(func() {
			ids[i], errs[i] = playAndResign(ctx, fake, db, ch, users[i%2], lobbies[i])
			ended[i] = time.Now()
		})
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "game in channel %s", channels[i])
	}
	require.Eventually(t, func() bool {
		n, err := db.PendingEffects(ctx)
		return err == nil && n == 0
	}, time.Minute, 20*time.Millisecond, "effects left in the outbox")
	r := limitsRun{stats: fake.LimitStats(), took: time.Since(began)}

	// Every game ended, every effect delivered (none given up).
	for _, id := range ids {
		sg, err := db.Game(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, malefiz.StatusFinished, sg.Status, "game %d", id)
		effects, err := db.Effects(ctx, id)
		require.NoError(t, err)
		for _, e := range effects {
			assert.True(t, e.Done && !e.Failed, "game %d: effect %d (%s) done %v failed %v: %s", id, e.ID, e.Kind, e.Done, e.Failed, e.Result)
		}
	}
	// Nothing posted twice: no two messages carry the same controls (a
	// turn's custom IDs name its game and turn), no person got the same
	// DM twice (each links to its turn's card).
	controls := map[string]int{}
	for _, m := range fake.AllMessages() {
		if ids := m.CustomIDs(); len(ids) > 0 {
			controls[strings.Join(ids, " ")]++
		}
	}
	for key, n := range controls {
		assert.Equal(t, 1, n, "messages with the controls %s", key)
	}
	for _, u := range users {
		dms := map[string]int{}
		for _, m := range fake.DMMessages(u) {
			dms[m.Text()]++
		}
		for text, n := range dms {
			assert.Equal(t, 1, n, "DMs to %s reading %q", u, text)
		}
	}
	assert.False(t, r.stats.Banned)
	assert.Less(t, r.stats.PeakInvalid, 100, "invalid requests in ten minutes")

	token := "Bot " + fake.Token()
	for _, c := range fake.Calls() {
		if c.Time.After(began) && c.Header.Get("Authorization") == token {
			r.global = append(r.global, c.Time)
		}
	}
	slices.SortFunc(r.global, time.Time.Compare)
	for i, j := 0, 0; j < len(r.global); j++ {
		for r.global[j].Sub(r.global[i]) >= time.Second {
			i++
		}
		r.peak = max(r.peak, j-i+1)
	}
	firstEnd := slices.MinFunc(ended, time.Time.Compare)
	before := 0
	for _, at := range r.global {
		if at.Before(firstEnd) {
			before++
		}
	}
	r.offered = float64(before) / firstEnd.Sub(began).Seconds()
	perSecond := make([]int, int(r.took/time.Second)+1)
	for _, at := range r.global {
		perSecond[int(at.Sub(began)/time.Second)]++
	}
	t.Logf("%d games in %v: %d globally limited requests (%.1f/s; %.1f/s in the %v until the first game ended; at most %d in a second; per second %v), %d exempt; 429s %v; peak invalid %d",
		limitGames, r.took.Round(time.Millisecond), len(r.global), float64(len(r.global))/r.took.Seconds(), r.offered,
		firstEnd.Sub(began).Round(time.Millisecond), r.peak, perSecond, r.stats.Exempt, r.stats.Limited, r.stats.PeakInvalid)
	return r
}

// playAndResign starts a lobby of a person and a computer, plays
// limitClicks clicks of its person as soon as each turn's card is there,
// then resigns for them and waits until the game is over.
func playAndResign(ctx context.Context, fake *fakediscord.Fake, db *store.DB, ch, user string, lobby fakediscord.Message) (int64, error) {
	start, err := waitControl(ctx, fake, lobby.ID, bot.ActStart)
	if err != nil {
		return 0, err
	}
	id, err := bot.ParseCustomID(start)
	if err != nil {
		return 0, err
	}
	resp, err := fake.Click(ctx, fakediscord.Invocation{User: user, Channel: ch, MessageID: lobby.ID, CustomID: start})
	if err != nil {
		return 0, fmt.Errorf("start: %w", err)
	}
	if started, err := settled(ctx, fake, resp); err != nil || started.Ephemeral {
		return 0, fmt.Errorf("start: %v %q", err, started.Text())
	}
	for clicks := 0; clicks < limitClicks; {
		changed := fake.Changed()
		inv, ok := nextClick(ctx, db, fake, id.Game, [2]string{user, user})
		if !ok { // the card is on its way
			select {
			case <-ctx.Done():
				return 0, fmt.Errorf("game %d: no turn to play after %d clicks: %w", id.Game, clicks, ctx.Err())
			case <-changed:
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		resp, err := fake.Click(ctx, inv)
		if errors.Is(err, fakediscord.ErrInvocation) {
			continue // the card changed under the click
		}
		if err != nil {
			return 0, fmt.Errorf("game %d: %s: %w", id.Game, inv.CustomID, err)
		}
		if _, err := settled(ctx, fake, resp); err != nil {
			return 0, fmt.Errorf("game %d: %s: %w", id.Game, inv.CustomID, err)
		}
		clicks++
	}
	ask, err := fake.SlashCommand(ctx, fakediscord.Invocation{User: user, Channel: ch, Name: "malefiz", Sub: "resign"})
	if err != nil {
		return 0, fmt.Errorf("resign: %w", err)
	}
	question, err := settled(ctx, fake, ask)
	if err != nil {
		return 0, fmt.Errorf("resign: %w", err)
	}
	confirm, err := waitControl(ctx, fake, question.ID, bot.ActResign)
	if err != nil {
		return 0, fmt.Errorf("resign: %w", err)
	}
	if resp, err = fake.Click(ctx, fakediscord.Invocation{User: user, Channel: ch, MessageID: question.ID, CustomID: confirm}); err != nil {
		return 0, fmt.Errorf("confirm: %w", err)
	}
	if _, err := settled(ctx, fake, resp); err != nil {
		return 0, fmt.Errorf("confirm: %w", err)
	}
	for {
		sg, err := db.Game(ctx, id.Game)
		if err != nil {
			return 0, err
		}
		if sg.Status == malefiz.StatusFinished {
			return id.Game, nil
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("game %d never ended: %s", id.Game, sg.Status)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestBudgetOptions: the shared budget's ceiling is what one process's
// bucket allows in a second, at every global_rate the configuration
// accepts, and its batch leaves the replicas together at least three
// quarters of global_rate sustained.
func TestBudgetOptions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rate  float64
		batch int
		want  float64 // sustained requests a second
	}{
		{name: "the default", rate: ratelimit.DefaultRate, batch: 4, want: 35.2},
		{name: "a ceiling of 10", rate: 7, batch: 1, want: 7.2},
		{name: "a ceiling of 16", rate: 13, batch: 2, want: 11.2},
		{name: "the least", rate: 1, batch: 1, want: 2.4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := serve.BudgetOptions(tc.rate)
			assert.Equal(t, tc.batch, o.Batch)
			assert.InDelta(t, tc.want, o.Rate, 1e-9)
			assert.Equal(t, serve.BudgetLease, o.Lease)
		})
	}
	for rate := 1.0; rate+ratelimit.DefaultBurst <= ratelimit.GlobalLimit; rate++ {
		o := serve.BudgetOptions(rate)
		assert.InDelta(t, rate+ratelimit.DefaultBurst, o.Ceiling(), 1e-9, "global_rate %v", rate)
		assert.GreaterOrEqual(t, o.Rate, 0.75*rate, "global_rate %v", rate)
		assert.True(t, o.Batch >= 1 && o.Batch <= serve.BudgetBatch, "global_rate %v: batch %d", rate, o.Batch)
	}
}
