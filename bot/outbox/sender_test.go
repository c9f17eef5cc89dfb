package outbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/ratelimit"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// TestAGamesLifeInOrder: a game's effects go out in order, each message ID
// Discord gives recorded where its effect says and used by the effects
// after it: a lobby, its thread with a member, a turn post and a DM that
// links to it, the turn's edit, a reminder and its deletion, and the
// thread settled.
func TestAGamesLifeInOrder(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, e.deliver(queue.Effect{Op: queue.Post, Body: text("lobby"), Record: malefiz.RoleLobby}))
	lobby := e.stored().LobbyMessageID
	require.NotEmpty(t, lobby)

	require.NoError(t, e.deliver(
		queue.Effect{Op: queue.Thread, Name: "Malefiz #1", Record: malefiz.RoleThread},
		queue.Effect{Op: queue.Member, InPlay: true, User: "1"},
		post("turn 1", malefiz.RoleTurn),
		queue.Effect{Op: queue.DM, User: "1", Text: "your turn: " + queue.LinkPlaceholder, LinkTo: 3, Target: malefiz.RoleTurn},
	))
	g := e.stored()
	assert.Equal(t, lobby, g.ThreadID, "a thread has its message's ID")
	require.NotEmpty(t, g.TurnMessageID)
	assert.Equal(t, []string{"turn 1"}, e.messages(g.ThreadID), "the turn goes where the game plays")
	assert.Contains(t, e.fake.ThreadMembers(g.ThreadID), "1")
	dms := e.fake.DMMessages("1")
	require.Len(t, dms, 1)
	assert.Equal(t, "your turn: https://discord.com/channels/"+g.GuildID+"/"+g.ThreadID+"/"+g.TurnMessageID, dms[0].Content)

	require.NoError(t, e.deliver(
		queue.Effect{Op: queue.Edit, InPlay: true, Target: malefiz.RoleTurn, Body: text("turn 1: played")},
		post("reminder", malefiz.RoleReminder),
		queue.Effect{Op: queue.Delete, InPlay: true, Target: malefiz.RoleReminder},
		queue.Effect{Op: queue.DM, User: "1", Text: "over: " + queue.LinkPlaceholder, Target: malefiz.RoleLobby},
		queue.Effect{Op: queue.Settle, InPlay: true},
	))
	assert.Equal(t, []string{"turn 1: played"}, e.messages(g.ThreadID), "edited, and the reminder deleted")
	dms = e.fake.DMMessages("1")
	require.Len(t, dms, 2)
	assert.Equal(t, "over: https://discord.com/channels/"+g.GuildID+"/"+g.ChannelID+"/"+lobby, dms[1].Content,
		"a link to the card goes to the channel")
	assert.Equal(t, 1, e.calls(fakediscord.RouteDMCreate), "the DM channel is opened once")

	require.NoError(t, e.deliver(queue.Effect{Op: queue.Archive, InPlay: true}))
	for _, st := range e.effects() {
		assert.True(t, st.Done && !st.Failed, "effect %d (%s): %s", st.ID, st.Kind, st.Result)
	}
	for i := 1; i < len(e.fake.Calls()); i++ {
		assert.Less(t, e.fake.Calls()[i-1].Seq, e.fake.Calls()[i].Seq)
	}
}

// TestOpsWithNothingToDo: a thread op of a game without a thread, a delete
// of a message never recorded, an edit of a message gone (with and without
// repost) and one in an archived thread are done without a request that
// fails.
func TestOpsWithNothingToDo(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, e.deliver(
		queue.Effect{Op: queue.Thread, Name: "no lobby", Record: malefiz.RoleThread},
		queue.Effect{Op: queue.Member, InPlay: true, User: "1"},
		queue.Effect{Op: queue.Settle, InPlay: true},
		queue.Effect{Op: queue.Archive, InPlay: true},
		queue.Effect{Op: queue.Delete, InPlay: true, Target: malefiz.RoleReminder},
		queue.Effect{Op: queue.Edit, InPlay: true, Target: malefiz.RoleTurn, Body: text("nothing to edit")},
	))
	results := map[string]int{}
	for _, st := range e.effects() {
		require.True(t, st.Done && !st.Failed, "%s: %s", st.Kind, st.Result)
		results[st.Result]++
	}
	assert.Equal(t, map[string]int{"no lobby message": 1, "no thread": 3, "none": 1, "gone": 1}, results)

	require.NoError(t, e.deliver(post("turn", malefiz.RoleTurn)))
	turn := e.stored().TurnMessageID
	require.True(t, e.fake.DeleteMessage(e.game.ChannelID, turn))
	require.NoError(t, e.deliver(queue.Effect{Op: queue.Edit, InPlay: true, Target: malefiz.RoleTurn, Body: text("again"), Repost: true}))
	again := e.stored().TurnMessageID
	assert.NotEqual(t, turn, again, "a message gone is posted again and recorded")
	assert.Equal(t, []string{"again"}, e.messages(e.game.ChannelID))
	require.True(t, e.fake.DeleteMessage(e.game.ChannelID, again))
	require.NoError(t, e.deliver(queue.Effect{Op: queue.Edit, InPlay: true, Target: malefiz.RoleTurn, Body: text("never mind")}))
	assert.Equal(t, "gone", e.effects()[len(e.effects())-1].Result)
}

// TestArchivedThread: edits and deletes in an archived thread are left as
// they are; settling it is done.
func TestArchivedThread(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, e.deliver(queue.Effect{Op: queue.Post, Body: text("lobby"), Record: malefiz.RoleLobby},
		queue.Effect{Op: queue.Thread, Name: "Malefiz #1", Record: malefiz.RoleThread}, post("turn", malefiz.RoleTurn)))
	g := e.stored()
	require.True(t, e.fake.SetThreadArchived(g.ThreadID, true))
	require.NoError(t, e.deliver(
		queue.Effect{Op: queue.Edit, InPlay: true, Target: malefiz.RoleTurn, Body: text("edited")},
		queue.Effect{Op: queue.Delete, InPlay: true, Target: malefiz.RoleTurn},
		queue.Effect{Op: queue.Settle, InPlay: true},
	))
	var results []string
	for _, st := range e.effects()[3:] {
		require.True(t, st.Done && !st.Failed, "%s: %s", st.Kind, st.Result)
		results = append(results, st.Result)
	}
	assert.Equal(t, []string{"thread archived", "thread archived", "archived already"}, results)
}

// TestRetryKeepsTheOrder: an effect Discord refuses for now (a 500) waits
// for its retry with the ones after it, and goes out first when it is due.
func TestRetryKeepsTheOrder(t *testing.T) {
	e := newEnv(t)
	e.fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.ServerError, 1)
	require.NoError(t, e.deliver(post("first", ""), post("second", "")))
	states := e.effects()
	require.Len(t, states, 2)
	assert.False(t, states[0].Done)
	assert.Equal(t, 1, states[0].Attempts)
	assert.Contains(t, states[0].Result, "500")
	assert.Empty(t, e.messages(e.game.ChannelID), "the second waits for the first")

	assert.Equal(t, 0, e.pass(e.s, 0), "not due yet")
	assert.Equal(t, 1, e.pass(e.s, maxBackoff), "the first")
	assert.Equal(t, 1, e.pass(e.s, 0), "then the second")
	assert.Equal(t, []string{"first", "second"}, e.messages(e.game.ChannelID))
}

// TestFinalRefusalGivesUpAtOnce: a missing permission is final: the effect
// is given up at its first try, the refusal returned for the user to hear
// of, and the game's next effect goes.
func TestFinalRefusalGivesUpAtOnce(t *testing.T) {
	e := newEnv(t)
	e.fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.MissingPermissions, 1)
	err := e.deliver(post("refused", ""), post("next", ""))
	require.Error(t, err)
	assert.True(t, isCode(err, discordgo.ErrCodeMissingPermissions), "%v", err)
	states := e.effects()
	assert.True(t, states[0].Done && states[0].Failed)
	assert.Equal(t, []string{"next"}, e.messages(e.game.ChannelID))
	assert.Equal(t, 2, e.calls(fakediscord.RouteMessageCreate), "not tried again")
}

// TestNonceMakesARepeatOneMessage: Discord made the message but its answer
// never arrived; the post sent again (by the loop, after the retry's wait)
// returns the same message, which is recorded.
func TestNonceMakesARepeatOneMessage(t *testing.T) {
	e := newEnv(t)
	e.fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.AfterServe, func(fakediscord.Call) bool { return true })
	require.NoError(t, e.deliver(post("turn", malefiz.RoleTurn)))
	require.Len(t, e.fake.ChannelMessages(e.game.ChannelID), 1, "Discord made it")
	assert.Empty(t, e.stored().TurnMessageID, "its ID never arrived")

	assert.Equal(t, 1, e.pass(e.s, maxBackoff))
	msgs := e.fake.ChannelMessages(e.game.ChannelID)
	require.Len(t, msgs, 1, "one message")
	assert.Equal(t, msgs[0].ID, e.stored().TurnMessageID)
	assert.Equal(t, 2, e.calls(fakediscord.RouteMessageCreate))
}

// TestClaimRunsOutMidRequest: a process whose request outlives its claim
// (Discord slow; the process stalled or killed) finds that another took
// the effect over and sent it again with the same nonce: one message, the
// taker's record kept, the late one's refused by the store.
func TestClaimRunsOutMidRequest(t *testing.T) {
	for _, tc := range []struct {
		name string
		drop bool // the slow process never hears the answer (killed)
	}{
		{name: "the slow process hears its answer late"},
		{name: "the slow process is killed before its answer", drop: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			other := e.sender("p2")
			var took atomic.Int32
			e.fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.AfterServe, func(fakediscord.Call) bool {
				// Discord made the message; before it answers, the
				// claim runs out and the other process takes over.
				took.Store(int32(e.pass(other, queue.Lease+time.Second)))
				return tc.drop
			})
			require.NoError(t, e.deliver(post("turn", malefiz.RoleTurn)))
			assert.Equal(t, int32(1), took.Load(), "the other process took the effect over")
			msgs := e.fake.ChannelMessages(e.game.ChannelID)
			require.Len(t, msgs, 1, "never sent twice")
			assert.Equal(t, msgs[0].ID, e.stored().TurnMessageID)
			st := e.effects()[0]
			assert.True(t, st.Done && !st.Failed)
			assert.Equal(t, 2, e.calls(fakediscord.RouteMessageCreate), "sent twice, made once")
			if !tc.drop {
				assert.Contains(t, e.logs.String(), store.ErrLeaseLost.Error(), "the late record is refused")
			}
		})
	}
}

// TestMessageIDsReadAgain: a change loaded before a delivery of this
// process recorded the turn message delivers with the recorded ID, read
// again; so does one told its click came from a message not recorded
// then.
func TestMessageIDsReadAgain(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reread bool
		before bool // loaded before the turn was recorded
	}{
		{name: "loaded before the record", before: true},
		{name: "a click from a message not recorded", reread: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			loaded := time.Now()
			if !tc.before {
				time.Sleep(time.Millisecond)
			}
			stale := *e.game // as the change loaded it: no turn message
			require.NoError(t, e.deliver(post("turn", malefiz.RoleTurn)))
			if !tc.before {
				loaded = time.Now()
			}
			e.game = &stale
			e.game.Version = e.stored().Version
			_, d := e.commit(e.s, queue.Effect{Op: queue.Edit, InPlay: true, Target: malefiz.RoleTurn, Body: text("played")})
			require.NoError(t, d.Deliver(loaded, tc.reread))
			assert.Equal(t, []string{"played"}, e.messages(e.game.ChannelID), "the recorded message is edited")
		})
	}
}

// TestA429Storm: Discord answers a storm of 429s (some global) to every
// route; the requests wait them out and every effect goes once, in order.
func TestA429Storm(t *testing.T) {
	e := newEnv(t)
	e.fake.FailNext(nil, fakediscord.Fault{Status: http.StatusTooManyRequests, Message: "You are being rate limited.",
		RetryAfter: 5 * time.Millisecond}, 20)
	e.fake.FailNext(nil, fakediscord.Fault{Status: http.StatusTooManyRequests, Message: "You are being rate limited.",
		RetryAfter: 5 * time.Millisecond, Global: true}, 5)
	var efs []queue.Effect
	for i := range 5 {
		efs = append(efs, post(fmt.Sprintf("post %d", i), ""))
	}
	for e.fake.PendingFaults() > 0 || len(e.messages(e.game.ChannelID)) < 5 {
		if len(efs) > 0 {
			_ = e.deliver(efs...)
			efs = nil
			continue
		}
		if e.pass(e.s, maxBackoff) == 0 {
			break
		}
	}
	assert.Equal(t, []string{"post 0", "post 1", "post 2", "post 3", "post 4"}, e.messages(e.game.ChannelID))
	for _, st := range e.effects() {
		assert.True(t, st.Done && !st.Failed, "%s", st.Result)
	}
}

// TestAnOutageGivesNothingUp: Discord answers 5xx (or nothing) to every
// request for long (far more tries than the old limit of 30); no effect is
// given up, and once it answers again, one pass a minute later brings
// every game current, nothing posted twice.
func TestAnOutageGivesNothingUp(t *testing.T) {
	e := newEnv(t)
	games := []*malefiz.Game{e.game}
	for range 2 {
		g := *e.game
		g.ID, g.Version, g.Threaded = 0, 0, true // several games in one channel, each with a thread
		require.NoError(t, e.db.CreateGame(ctx(t), &g))
		games = append(games, &g)
	}
	const tries = 40
	var down atomic.Bool
	down.Store(true)
	e.fake.FailNext(func(fakediscord.Call) bool { return down.Load() }, fakediscord.ServerError, 1<<30)
	for i, g := range games {
		e.game = g
		require.NoError(t, e.deliver(queue.Effect{Op: queue.Post, Body: text(fmt.Sprintf("card %d", i)), Record: malefiz.RoleLobby},
			post(fmt.Sprintf("game %d turn 1", i), malefiz.RoleTurn)))
	}
	var outage time.Duration
	for range tries {
		outage += maxBackoff
		e.pass(e.s, maxBackoff)
	}
	assert.GreaterOrEqual(t, outage, 40*time.Minute)
	for _, g := range games {
		e.game = g
		st := e.effects()[0]
		assert.False(t, st.Done, "nothing given up")
		assert.GreaterOrEqual(t, st.Attempts, tries)
	}
	// Discord answers again: within a minute every game is current.
	down.Store(false)
	for e.pass(e.s, maxBackoff) > 0 {
		e.clock.Advance(-maxBackoff) // the passes that follow come at once
	}
	for i, g := range games {
		e.game = g
		sg := e.stored()
		require.NotEmpty(t, sg.TurnMessageID)
		m, ok := e.fake.Message(sg.TurnMessageID)
		require.True(t, ok)
		assert.Equal(t, fmt.Sprintf("game %d turn 1", i), m.Content)
		for _, st := range e.effects() {
			assert.True(t, st.Done && !st.Failed, "%s", st.Result)
		}
	}
	assert.Len(t, e.fake.ChannelMessages(e.game.ChannelID), 2*len(games), "nothing posted twice")
}

// TestDMs: a DM to a user whose DMs are closed records the refusal by the
// store's own method, keeping the user's settings; a DM channel Discord
// forgot is opened again.
func TestDMs(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, e.db.SetUserSettings(ctx(t), "2", malefiz.UserSettings{DM: true, PingAlways: true}))
	e.fake.SetDMsClosed("2", true)
	require.NoError(t, e.deliver(queue.Effect{Op: queue.DM, User: "2", Text: "hello"}))
	us, err := e.db.UserSettings(ctx(t), "2")
	require.NoError(t, err)
	assert.Equal(t, malefiz.UserSettings{DM: true, DMRefused: true, PingAlways: true}, us)
	assert.Equal(t, "refused", e.effects()[0].Result)

	require.NoError(t, e.deliver(queue.Effect{Op: queue.DM, User: "3", Text: "one"}))
	e.fake.SetDMsClosed("3", true)
	require.NoError(t, e.deliver(queue.Effect{Op: queue.DM, User: "3", Text: "two"}))
	us, err = e.db.UserSettings(ctx(t), "3")
	require.NoError(t, err)
	assert.True(t, us.DMRefused, "refused at the message, the channel open")
	assert.Equal(t, 2, e.calls(fakediscord.RouteDMCreate), "the channel is kept (one for each user)")

	e.fake.SetDMsClosed("3", false)
	e.fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.UnknownChannel, 1)
	require.NoError(t, e.deliver(queue.Effect{Op: queue.DM, User: "3", Text: "three"}))
	assert.Equal(t, 1, e.pass(e.s, maxBackoff))
	assert.Equal(t, 3, e.calls(fakediscord.RouteDMCreate), "a channel Discord forgot is opened again")
	dms := e.fake.DMMessages("3")
	require.NotEmpty(t, dms)
	assert.Equal(t, "three", dms[len(dms)-1].Content)

	// DM channels opened too fast (400, code 40003): the DM is given up
	// (the ping stays the notice; the game's next effects do not wait
	// behind it), the user's DMs are not marked closed.
	e.fake.FailNext(fakediscord.OnRoute(fakediscord.RouteDMCreate),
		fakediscord.Fault{Status: http.StatusBadRequest, Code: 40003, Message: "You are opening direct messages too fast"}, 1)
	require.NoError(t, e.deliver(queue.Effect{Op: queue.DM, User: "4", Text: "four"}))
	st := e.effects()[len(e.effects())-1]
	assert.True(t, st.Failed, "given up: %s", st.Result)
	assert.Empty(t, e.fake.DMMessages("4"))
	us, err = e.db.UserSettings(ctx(t), "4")
	require.NoError(t, err)
	assert.False(t, us.DMRefused)
}

// TestDMChannelOpenedOnce: DMs of two games to one user that go at once
// open the user's DM channel once (Discord refuses opens that come too
// fast, with 40003).
func TestDMChannelOpenedOnce(t *testing.T) {
	e := newEnv(t)
	other := *e.game
	other.ID, other.ChannelID = 0, "2000000000000000099"
	require.NoError(t, e.db.CreateGame(ctx(t), &other))
	var deliveries []queue.Reservation
	for _, g := range []*malefiz.Game{e.game, &other} {
		ef := queue.Effect{Op: queue.DM, User: "5", Text: fmt.Sprintf("game %d", g.ID), Channel: g.ChannelID}
		se, err := ef.Stored()
		require.NoError(t, err)
		c := &store.Commit{Game: g, Owner: e.s.owner, Lease: queue.Lease, Effects: []store.Effect{se}}
		require.NoError(t, e.db.Commit(ctx(t), c))
		deliveries = append(deliveries, e.s.Reserve(c, []queue.Effect{ef}))
	}
	e.fake.OnNext(fakediscord.OnRoute(fakediscord.RouteDMCreate), fakediscord.BeforeServe, func(fakediscord.Call) bool {
		time.Sleep(100 * time.Millisecond) // the other DM comes meanwhile
		return false
	})
	var wg sync.WaitGroup
	for _, d := range deliveries {
		wg.Go(func() { assert.NoError(t, d.Deliver(time.Now(), false)) })
	}
	wg.Wait()
	assert.Equal(t, 1, e.calls(fakediscord.RouteDMCreate))
	assert.ElementsMatch(t, []string{fmt.Sprintf("game %d", e.game.ID), fmt.Sprintf("game %d", other.ID)}, contents(e.fake.DMMessages("5")))
}

// countingStore counts the looks of a sender at the effects it holds.
type countingStore struct {
	*store.DB
	claimed atomic.Int64
}

func (c *countingStore) ClaimedEffects(ctx context.Context, owner string, gameID int64) ([]store.Effect, error) {
	c.claimed.Add(1)
	return c.DB.ClaimedEffects(ctx, owner, gameID)
}

// contents are the messages' contents.
func contents(ms []fakediscord.Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Content)
	}
	return out
}

// TestPictures: a board and a chart travel as files; one that cannot be
// drawn leaves the message without it, through the bot's layout.
func TestPictures(t *testing.T) {
	scene := &render.Scene{}
	chart := json.RawMessage(`{"series":[]}`)
	t.Run("drawn", func(t *testing.T) {
		e := newEnv(t)
		require.NoError(t, e.deliver(queue.Effect{Op: queue.Post, Body: text("result"), Board: scene, Chart: chart}))
		msgs := e.fake.ChannelMessages(e.game.ChannelID)
		require.Len(t, msgs, 1)
		var names []string
		for _, a := range msgs[0].Attachments {
			names = append(names, a.Filename)
		}
		assert.ElementsMatch(t, []string{BoardFile, ChartFile}, names)
	})
	t.Run("not drawn", func(t *testing.T) {
		var dropped []string
		e := newEnv(t, func(c *Config) {
			c.Board = func(render.Scene) (*discordgo.File, error) { return nil, errors.New("no") }
			c.Chart = nil
			c.WithoutPicture = func(body json.RawMessage, file string) json.RawMessage {
				dropped = append(dropped, file)
				return text("without pictures")
			}
		})
		require.NoError(t, e.deliver(queue.Effect{Op: queue.Post, Body: text("result"), Board: scene, Chart: chart}))
		assert.Equal(t, []string{BoardFile, ChartFile}, dropped)
		assert.Equal(t, []string{"without pictures"}, e.messages(e.game.ChannelID))
	})
}

// TestChancesReadAtDelivery: the chances a body shows are read when it is
// delivered and put in place of their tokens, escaped for JSON; without a
// reader the body goes as it is.
func TestChancesReadAtDelivery(t *testing.T) {
	fill := json.RawMessage(`{"position":"x"}`)
	var read []string
	e := newEnv(t, func(c *Config) {
		c.Chances = func(data json.RawMessage) (map[string]string, <-chan map[string]string, error) {
			read = append(read, string(data))
			return map[string]string{"{chance:r}": `57 "%"`, "{chance:g}": "43 %"}, nil, nil
		}
	})
	require.NoError(t, e.deliver(queue.Effect{Op: queue.Post, Body: text("red {chance:r} · green {chance:g}"), Chances: fill}))
	assert.Equal(t, []string{`red 57 "%" · green 43 %`}, e.messages(e.game.ChannelID))
	assert.Equal(t, []string{string(fill)}, read)
	require.NoError(t, e.deliver(queue.Effect{Op: queue.Post, Body: text("no chances")}))
	assert.Len(t, read, 1, "a body without chances reads none")

	e = newEnv(t)
	require.NoError(t, e.deliver(queue.Effect{Op: queue.Post, Body: text("red {chance:r}"), Chances: fill}))
	assert.Equal(t, []string{"red {chance:r}"}, e.messages(e.game.ChannelID))
}

// TestCardEditedAgainWithBetterChances: a card's edit goes with the
// chances known at once, and the card is edited again when the better
// ones come, unless a newer edit of the card came meanwhile.
func TestCardEditedAgainWithBetterChances(t *testing.T) {
	fill := json.RawMessage(`{"position":"x"}`)
	var later chan map[string]string
	e := newEnv(t, func(c *Config) {
		c.Chances = func(json.RawMessage) (map[string]string, <-chan map[string]string, error) {
			later = make(chan map[string]string, 1)
			return map[string]string{"{chance:r}": "10%"}, later, nil
		}
	})
	require.NoError(t, e.deliver(post("card", malefiz.RoleLobby)))
	edit := func(body string) {
		e.game = e.stored()
		_, d := e.commit(e.s, queue.Effect{Op: queue.Edit, Target: malefiz.RoleLobby, Body: text(body), Queue: queue.CardQueue, Chances: fill})
		require.NoError(t, d.Deliver(time.Now(), false), "left to the loop")
		require.Equal(t, 1, e.pass(e.s, store.DefaultQueueGap))
	}
	edit("red {chance:r}")
	assert.Equal(t, []string{"red 10%"}, e.messages(e.game.ChannelID), "the chances known at once")
	later <- map[string]string{"{chance:r}": "38%"}
	close(later)
	// The stand-in records a call once it has answered it, after the
	// message changed: wait for both.
	assert.Eventually(t, func() bool {
		ms := e.messages(e.game.ChannelID)
		return len(ms) == 1 && ms[0] == "red 38%" && e.calls(fakediscord.RouteMessageEdit) == 2
	}, 30*time.Second, 10*time.Millisecond, "edited again with the better ones")

	edit("red {chance:r}, turn 2")
	first := later
	edit("red {chance:r}, turn 3")
	first <- map[string]string{"{chance:r}": "99%"}
	close(first)
	close(later)
	time.Sleep(100 * time.Millisecond) // the refresh, if it were to go, goes now
	assert.Equal(t, []string{"red 10%, turn 3"}, e.messages(e.game.ChannelID), "a newer edit came: no refresh")
	assert.Equal(t, 4, e.calls(fakediscord.RouteMessageEdit))
}

// TestGiveUps: an effect that cannot be read, or whose delivery panics, is
// given up, and the game's next effect goes.
func TestGiveUps(t *testing.T) {
	e := newEnv(t, func(c *Config) {
		c.Chart = func(json.RawMessage) (*discordgo.File, error) { panic("a broken renderer") }
	})
	c := &store.Commit{Game: e.game, Effects: []store.Effect{{Kind: "post", Payload: []byte("{not json")}}}
	require.NoError(t, e.db.Commit(ctx(t), c))
	_, d := e.commit(e.s, queue.Effect{Op: queue.Post, Body: text("drawn"), Chart: json.RawMessage(`{"series":[]}`)}, post("next", ""))
	require.NoError(t, d.Deliver(time.Now(), false))
	assert.Equal(t, 1, e.pass(e.s, 0), "the unreadable one")
	// The two behind it were claimed at their commit: the loop takes them
	// once that claim runs out.
	assert.Equal(t, 1, e.pass(e.s, queue.Lease+time.Second), "the panicking one")
	assert.Equal(t, 1, e.pass(e.s, 0), "the next")
	states := e.effects()
	require.Len(t, states, 3)
	assert.True(t, states[0].Failed)
	assert.Contains(t, states[0].Result, "unreadable")
	assert.True(t, states[1].Failed)
	assert.Contains(t, states[1].Result, "a broken renderer")
	assert.False(t, states[2].Failed)
	assert.Equal(t, []string{"next"}, e.messages(e.game.ChannelID))
}

// TestAdoptionWaitsForTheAnswer: an interaction's answer Discord has not
// made a message of yet is asked for a few times, then tried again later.
func TestAdoptionWaitsForTheAnswer(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, e.deliver(queue.Effect{Op: queue.Adopt, App: e.fake.AppID, Token: "no-such-token", Record: malefiz.RoleTurn}))
	st := e.effects()[0]
	assert.False(t, st.Done)
	assert.Equal(t, 1, st.Attempts)
	assert.Contains(t, st.Result, "not there yet")
	assert.Equal(t, originalTries, e.calls(fakediscord.RouteWebhookMessage))
}

// TestBehindOlderEffects: a commit whose effects wait behind older ones
// the same process holds delivers them all, in order; one behind an
// effect waiting for its retry leaves them to the loop.
func TestBehindOlderEffects(t *testing.T) {
	e := newEnv(t)
	_, first := e.commit(e.s, post("first", malefiz.RoleTurn))
	c, second := e.commit(e.s, queue.Effect{Op: queue.Edit, InPlay: true, Target: malefiz.RoleTurn, Body: text("first, edited")},
		queue.Effect{Op: queue.DM, User: "1", Text: "see " + queue.LinkPlaceholder, LinkTo: 0, Target: malefiz.RoleTurn})
	require.False(t, c.Head)
	first.Release() // its answer panicked: it is never delivered by itself
	first.Release() // more than once is fine
	require.NoError(t, second.Deliver(time.Now(), false), "delivers the first too")
	assert.Equal(t, []string{"first, edited"}, e.messages(e.game.ChannelID))
	dms := e.fake.DMMessages("1")
	require.Len(t, dms, 1)
	assert.True(t, strings.HasSuffix(dms[0].Content, "/"+e.stored().TurnMessageID), dms[0].Content)

	e.fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.ServerError, 1)
	require.NoError(t, e.deliver(post("third", "")))
	_, fourth := e.commit(e.s, post("fourth", ""))
	require.NoError(t, fourth.Deliver(time.Now(), false))
	assert.Len(t, e.messages(e.game.ChannelID), 1, "both wait for the retry")
	for e.pass(e.s, maxBackoff) > 0 {
	}
	assert.Equal(t, []string{"first, edited", "third", "fourth"}, e.messages(e.game.ChannelID))
}

// TestBehindAnotherProcesssDelivery: a change committed on one process
// while another still sends the game's previous effects goes out as soon
// as those are recorded, by the process that committed it, not after its
// claim runs out (5 s, the loop's); and where the older effect stays
// another's (its claim live and not recorded), the delivery gives up
// looking after half its lease and leaves the effects to the loop.
func TestBehindAnotherProcesssDelivery(t *testing.T) {
	for _, tc := range []struct {
		name string
		hold time.Duration // how long the other process's post takes
		want []string      // the channel once the second Deliver returned
	}{
		{name: "the older post is recorded a moment later", hold: 150 * time.Millisecond,
			want: []string{"first", "second"}},
		{name: "the older post outlasts half the lease", hold: queue.Lease/2 + time.Second,
			want: []string{"first"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			other := e.sender("p2")
			sent := make(chan struct{})
			e.fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.AfterServe, func(fakediscord.Call) bool {
				close(sent)
				time.Sleep(tc.hold) // made, and answered only then
				return false
			})
			_, first := e.commit(other, post("first", malefiz.RoleTurn))
			firstDone := make(chan error, 1)
			go func() { firstDone <- first.Deliver(time.Now(), false) }()
			<-sent
			c, second := e.commit(e.s, post("second", ""))
			require.False(t, c.Head, "behind the other process's post")
			require.NoError(t, second.Deliver(time.Now(), false))
			assert.Equal(t, tc.want, e.messages(e.game.ChannelID))
			require.NoError(t, <-firstDone)
			if len(tc.want) == 1 {
				assert.Zero(t, e.pass(e.s, 0), "the claim is still the committer's")
				assert.Equal(t, 1, e.pass(other, queue.Lease), "once it ran out, the loop of any process takes it")
				assert.Equal(t, []string{"first", "second"}, e.messages(e.game.ChannelID))
			}
			for _, st := range e.effects() {
				assert.True(t, st.Done && !st.Failed, "effect %d", st.ID)
			}
		})
	}
}

// TestBehindARetryNoLooks: a change committed behind an older effect
// that waits for its retry (not in delivery anywhere) is left to the loop
// at once: its delivery does not look again for half a lease.
func TestBehindARetryNoLooks(t *testing.T) {
	e := newEnv(t)
	looks := &countingStore{DB: e.db}
	s := e.sender("p1", func(c *Config) { c.Store = looks })
	other := e.sender("p2")
	e.fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.ServerError, 1)
	_, first := e.commit(other, post("first", malefiz.RoleTurn))
	require.NoError(t, first.Deliver(time.Now(), false))
	_, second := e.commit(s, post("second", ""))
	require.NoError(t, second.Deliver(time.Now(), false))
	assert.Equal(t, int64(1), looks.claimed.Load(), "looks at what it holds")
	assert.Empty(t, e.messages(e.game.ChannelID))
	for e.pass(e.s, maxBackoff) > 0 {
	}
	assert.Equal(t, []string{"first", "second"}, e.messages(e.game.ChannelID))
}

// TestCardQueueIsTheLoops: the in-process delivery sends only the game's
// main queue; a card edit (queue "card") is the loop's, and a DM's link
// to a post of the commit survives the skip.
func TestCardQueueIsTheLoops(t *testing.T) {
	effects := []store.Effect{{ID: 1}, {ID: 2, Queue: queue.CardQueue}, {ID: 3}, {ID: 4}}
	efs := []queue.Effect{{Op: queue.Post}, {Op: queue.Edit, Queue: queue.CardQueue}, {Op: queue.Post}, {Op: queue.DM, LinkTo: 3}}
	gotE, gotF := mainQueue(effects, efs)
	require.Len(t, gotE, 3)
	assert.Equal(t, []int64{1, 3, 4}, []int64{gotE[0].ID, gotE[1].ID, gotE[2].ID})
	assert.Equal(t, 2, gotF[2].LinkTo, "the DM links to the same post, now second")

	e := newEnv(t)
	_, d := e.commit(e.s, post("turn", ""))
	dd := d.(*Delivery)
	dd.efs[0].Queue, dd.effects[0].Queue = queue.CardQueue, queue.CardQueue
	require.NoError(t, d.Deliver(time.Now(), false))
	assert.Empty(t, e.messages(e.game.ChannelID), "left to the loop")
	select {
	case <-e.s.wake:
	default:
		t.Fatal("the loop was not nudged")
	}
}

// TestAnOutdatedCardEditIsNotSent: a card's edit claimed by the loop
// before a newer state of the card was committed (which cannot replace a
// claimed edit) is not sent: it is recorded as superseded and the newer
// edit goes in its turn, the card ends on the last state.
func TestAnOutdatedCardEditIsNotSent(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, e.deliver(post("card", malefiz.RoleLobby)))
	edit := func(body string) {
		e.game = e.stored()
		_, d := e.commit(e.s, queue.Effect{Op: queue.Edit, Target: malefiz.RoleLobby, Body: text(body), Queue: queue.CardQueue})
		require.NoError(t, d.Deliver(time.Now(), false), "left to the loop")
	}
	edit("card, turn 1")
	claimed, err := e.db.ClaimEffects(ctx(t), e.s.owner, queue.Lease, batch)
	require.NoError(t, err)
	require.Len(t, claimed, 1)
	edit("card, turn 2")

	e.s.deliverClaimed(ctx(t), claimed[0])
	assert.Zero(t, e.calls(fakediscord.RouteMessageEdit), "the outdated edit is not sent")
	states := e.effects()
	require.Len(t, states, 3)
	assert.True(t, states[1].Done)
	assert.Equal(t, store.Superseded, states[1].Result)

	assert.Equal(t, 1, e.pass(e.s, store.DefaultQueueGap))
	assert.Equal(t, 1, e.calls(fakediscord.RouteMessageEdit))
	assert.Equal(t, []string{"card, turn 2"}, e.messages(e.game.ChannelID))
}

// TestDMOpensTooFastPause: after Discord refuses a DM channel's open as
// too fast (40003), the DMs of users whose channel is not open yet are
// given up for dmOpenPause without a request: each would have met the
// same refusal, a globally limited request every time. A user whose
// channel is open still gets DMs; past the pause the opens resume.
func TestDMOpensTooFastPause(t *testing.T) {
	now := time.Now()
	var mu sync.Mutex
	e := newEnv(t, func(c *Config) {
		c.Now = func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			return now
		}
	})
	require.NoError(t, e.deliver(queue.Effect{Op: queue.DM, User: "1", Text: "open"}))
	tooFast := fakediscord.Fault{Status: http.StatusBadRequest, Code: discordgo.ErrCodeOpeningDirectMessagesTooFast,
		Message: "You are opening direct messages too fast"}
	e.fake.FailNext(fakediscord.OnRoute(fakediscord.RouteDMCreate), tooFast, 1)
	require.NoError(t, e.deliver(queue.Effect{Op: queue.DM, User: "2", Text: "refused"}))
	require.NoError(t, e.deliver(queue.Effect{Op: queue.DM, User: "3", Text: "paused"}))
	require.NoError(t, e.deliver(queue.Effect{Op: queue.DM, User: "1", Text: "kept"}))
	assert.Equal(t, 2, e.calls(fakediscord.RouteDMCreate), "no open while paused")
	states := e.effects()
	require.Len(t, states, 4)
	assert.True(t, states[1].Failed, "the refused DM is given up")
	assert.Equal(t, dmOpensPausedResult, states[2].Result)
	assert.Len(t, e.fake.DMMessages("1"), 2, "an open channel is used")
	assert.Empty(t, e.fake.DMMessages("3"))

	mu.Lock()
	now = now.Add(dmOpenPause)
	mu.Unlock()
	require.NoError(t, e.deliver(queue.Effect{Op: queue.DM, User: "3", Text: "resumed"}))
	assert.Equal(t, 3, e.calls(fakediscord.RouteDMCreate))
	assert.Len(t, e.fake.DMMessages("3"), 1)
}

// TestACardEditHoldsBackNoPost: while the loop's edit of a game's card
// waits on Discord (the card's channel has one bucket of edits, 5 per 5 s,
// for every card there, so twenty games in a channel keep it waiting for
// seconds), the game's next change reserves its post and delivers it at
// once: the card's queue is not the game's. The edit here is held in the
// stand-in until the post is in; with the card edit holding the game's
// delivery lock, the commit's Reserve (made before the click is answered)
// waited for it.
func TestACardEditHoldsBackNoPost(t *testing.T) {
	// The bot's session, whose requests discordgo does not queue behind
	// one mutex per channel (see ratelimit.Session).
	e := newEnv(t, func(c *Config) { c.Discord = ratelimit.Session{Session: c.Discord.(*discordgo.Session)} })
	require.NoError(t, e.deliver(post("card", malefiz.RoleLobby)))
	e.game = e.stored()
	_, d := e.commit(e.s, queue.Effect{Op: queue.Edit, Target: malefiz.RoleLobby, Body: text("card, edited"), Queue: queue.CardQueue})
	require.NoError(t, d.Deliver(time.Now(), false), "the card's edit is left to the loop")

	held, release := make(chan struct{}), make(chan struct{})
	e.fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageEdit), fakediscord.BeforeServe, func(fakediscord.Call) bool {
		close(held)
		<-release
		return false
	})
	// Released at the latest then, so that the test ends with the bug too.
	safety := time.AfterFunc(10*time.Second, func() { close(release) })
	passed := make(chan int, 1)
	go func() {
		n, _ := e.s.Pass(t.Context())
		passed <- n
	}()
	select {
	case <-held:
	case <-time.After(10 * time.Second):
		t.Fatal("the loop did not send the card's edit")
	}

	_, next := e.commit(e.s, post("next turn", malefiz.RoleTurn))
	require.NoError(t, next.Deliver(time.Now(), false))
	select {
	case <-passed:
		t.Fatal("the post went only once the card's edit was done")
	default:
	}
	assert.Equal(t, []string{"card", "next turn"}, e.messages(e.game.ChannelID), "the post went while the edit waited")

	if safety.Stop() {
		close(release)
	}
	assert.Equal(t, 1, <-passed)
	assert.Equal(t, []string{"card, edited", "next turn"}, e.messages(e.game.ChannelID))
}

// TestRun: the loop delivers what is due until its context ends.
func TestRun(t *testing.T) {
	e := newEnv(t)
	c := &store.Commit{Game: e.game}
	se, err := post("from another process", "").Stored()
	require.NoError(t, err)
	se.Payload = bytes.Replace(se.Payload, []byte(`"place":true`), []byte(`"channel":"`+e.game.ChannelID+`","place":true`), 1)
	c.Effects = []store.Effect{se}
	require.NoError(t, e.db.Commit(ctx(t), c))
	runCtx, cancel := contextWithCancel(t)
	done := make(chan struct{})
	go func() { e.s.Run(runCtx); close(done) }()
	require.Eventually(t, func() bool { return len(e.messages(e.game.ChannelID)) == 1 }, 5*time.Second, 5*time.Millisecond)
	e.s.Nudge()
	cancel()
	<-done
}

// braking is the limiter near Discord's ban threshold: it holds back the
// requests marked deferrable, as ratelimit.Transport does at its brake.
type braking struct{ next http.RoundTripper }

func (b braking) RoundTrip(r *http.Request) (*http.Response, error) {
	if ratelimit.IsDeferrable(r.Context()) {
		return nil, &ratelimit.Error{Method: r.Method, Route: r.URL.Path, Scope: ratelimit.ScopeBrake, RetryAfter: 7 * time.Minute}
	}
	return b.next.RoundTrip(r)
}

// TestTheBrakeHoldsBackWhatCanWait: near the ban threshold a DM waits
// until the window the limiter named has passed (longer than any backoff),
// while the turn's post goes.
func TestTheBrakeHoldsBackWhatCanWait(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, e.db.SetUserSettings(ctx(t), "2", malefiz.UserSettings{DM: true}))
	dc := e.session()
	dc.Client.Transport = braking{dc.Client.Transport}
	s := e.sender("p1", func(c *Config) { c.Discord = dc })
	_, d := e.commit(s, post("turn", malefiz.RoleTurn), queue.Effect{Op: queue.DM, User: "2", Text: "your turn"})
	require.NoError(t, d.Deliver(time.Now(), false))
	assert.Equal(t, []string{"turn"}, e.messages(e.game.ChannelID), "the post is not deferrable")
	states := e.effects()
	require.Len(t, states, 2)
	assert.True(t, states[0].Done)
	assert.False(t, states[1].Done, "the DM waits")
	assert.Contains(t, states[1].Result, "held back")
	assert.False(t, states[1].NextAt.Before(e.clock.Now().Add(7*time.Minute).Truncate(time.Millisecond)), "not before the window named: %v", states[1].NextAt)
	assert.Equal(t, 0, e.pass(s, maxBackoff), "not after the longest backoff")
}

// TestASlowBatchKeepsItsClaims: a process whose delivery of a commit's
// effects outlasts half its claim (each post held back 3/4 of a lease)
// records what went out and keeps the rest, so that another process's
// loop, passing once the first claim would have run out, takes nothing
// and sends nothing twice. Before, the deliveries were recorded only at
// the batch's end: the other process sent all three again.
func TestASlowBatchKeepsItsClaims(t *testing.T) {
	e := newEnv(t)
	other := e.sender("p2")
	slow := 3 * queue.Lease / 4
	var took []int
	var hold func(fakediscord.Call) bool
	hold = func(fakediscord.Call) bool {
		// The post took 3/4 of a lease; by the next one, the other
		// process's loop passes.
		e.clock.Advance(slow)
		e.fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.BeforeServe, func(fakediscord.Call) bool {
			took = append(took, e.pass(other, 0))
			e.fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.AfterServe, hold)
			return false
		})
		return false
	}
	e.fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.AfterServe, hold)
	require.NoError(t, e.deliver(post("one", malefiz.RoleTurn), post("two", ""), post("three", "")))
	assert.Equal(t, []int{0, 0}, took, "the other process took none of the effects")
	assert.Equal(t, []string{"one", "two", "three"}, e.messages(e.game.ChannelID), "each sent once")
	for _, st := range e.effects() {
		assert.True(t, st.Done && !st.Failed, "effect %d", st.ID)
	}
	assert.Zero(t, e.pass(other, queue.Lease), "nothing left")
}
