package limits

import (
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/store"
)

// replica is the real program in http mode in a child process: one of
// several identical replicas on one database, behind the fake's
// round-robin delivery.
type replica struct {
	t    *testing.T
	addr string
	cmd  *exec.Cmd
}

// startReplica starts a replica on a free loopback port and waits until its
// /readyz says 200. env adds to (or overrides) its environment.
func startReplica(t *testing.T, fake *fakediscord.Fake, database string, env ...string) *replica {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "MALEFIZ_HELPER_PROCESS=1", "MALEFIZ_DISCORD_TOKEN="+fake.Token(),
		"MALEFIZ_DISCORD_API_URL="+fake.URL(), "MALEFIZ_DATABASE_PATH="+database, "MALEFIZ_GUILD_IDS="+fake.GuildID,
		"MALEFIZ_DISCORD_INTERACTIONS=http", "MALEFIZ_DISCORD_PUBLIC_KEY="+hex.EncodeToString(fake.PublicKey()),
		"MALEFIZ_HTTP_LISTEN="+addr, "MALEFIZ_LOG_LEVEL=error")
	cmd.Env = append(cmd.Env, env...)
	cmd.Dir = t.TempDir()
	if os.Getenv("MALEFIZ_TEST_LOG") != "" {
		cmd.Stderr = os.Stderr
	}
	require.NoError(t, cmd.Start())
	r := &replica{t: t, addr: addr, cmd: cmd}
	t.Cleanup(r.kill)
	client := &http.Client{Timeout: time.Second}
	require.Eventually(t, func() bool {
		res, err := client.Get("http://" + addr + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}, 20*time.Second, 20*time.Millisecond, "replica %s never became ready", addr)
	return r
}

// endpoint is the replica's interactions endpoint.
func (r *replica) endpoint() string { return "http://" + r.addr + "/interactions" }

// kill ends the replica with SIGKILL: no shutdown, no flush.
func (r *replica) kill() {
	if r.cmd != nil && r.cmd.Process != nil {
		r.cmd.Process.Kill()
		r.cmd.Wait()
		r.cmd = nil
	}
}

// table is a two-player game played through the fake by whoever is pinged.
type table struct {
	t    *testing.T
	fake *fakediscord.Fake
	db   *store.DB
	id   int64
	// acknowledged counts the turn clicks the bot answered with an
	// update (the move kept), by event kind they must have written.
	acknowledged map[string]int
}

// turnMessage waits for the current turn's message and returns it with
// whether the game still runs.
func (tb *table) turnMessage() (fakediscord.Message, bool) {
	var m fakediscord.Message
	running := true
	require.Eventually(tb.t, func() bool {
		sg, err := tb.db.Game(tb.t.Context(), tb.id)
		require.NoError(tb.t, err)
		if sg.Status == malefiz.StatusFinished {
			running = false
			return true
		}
		msg, ok := tb.fake.Message(sg.TurnMessageID)
		if !ok || len(msg.Pinged) == 0 || !harness.HasControl(msg, bot.ActRoll) {
			return false
		}
		m = msg
		return true
	}, 20*time.Second, 5*time.Millisecond, "game %d: no turn message to play", tb.id)
	return m, running
}

// turnChoices are a turn's controls after the roll, in the order a test
// player presses them.
var turnChoices = []bot.Action{bot.ActMove, bot.ActPlace, bot.ActPlaceRow, bot.ActPawn}

// playTurn plays one turn from its turn message: roll, then the first
// choice on each view until the turn is over. It returns false when the
// game is over.
func (tb *table) playTurn() bool {
	turn, running := tb.turnMessage()
	if !running {
		return false
	}
	resp := tb.click(turn, fakediscord.Invocation{User: turn.Pinged[0], MessageID: turn.ID, CustomID: harness.Control(tb.t, turn, bot.ActRoll)})
	tb.acknowledged[malefiz.EventRoll]++
	tb.finishTurn(turn, *resp.Message)
	return true
}

// finishTurn plays the choices left on view, the turn message after its roll.
func (tb *table) finishTurn(turn, view fakediscord.Message) {
	for step := 0; step < 8; step++ {
		var inv *fakediscord.Invocation
		var act bot.Action
		for _, a := range turnChoices {
			if harness.HasControl(view, a) {
				id := harness.Control(tb.t, view, a)
				if a == bot.ActMove {
					id = racingMoveButton(view)
				}
				inv = &fakediscord.Invocation{User: turn.Pinged[0], MessageID: turn.ID, CustomID: id}
				if c, _ := view.Component(id); len(c.Options) > 0 {
					inv.Values = []string{c.Options[0].Value}
				}
				act = a
				break
			}
		}
		if inv == nil {
			return // the summary: the turn is played
		}
		resp := tb.click(turn, *inv)
		if act == bot.ActPlace {
			tb.acknowledged[malefiz.EventPlace]++
		}
		view = *resp.Message
	}
	tb.t.Fatalf("game %d: the turn did not end after 8 clicks", tb.id)
}

// racingMoveButton returns the move button of view that ends closest to the
// goal, so that games end.
func racingMoveButton(view fakediscord.Message) string {
	best, bestDist := "", 1<<30
	for _, id := range view.CustomIDs() {
		c, err := bot.ParseCustomID(id)
		if err != nil || c.Action != bot.ActMove {
			continue
		}
		m, err := engine.ParseMove(c.Arg)
		if err != nil {
			continue
		}
		if d := engine.DistanceToGoal(m.To); d < bestDist {
			best, bestDist = id, d
		}
	}
	return best
}

// click presses a control and wants the message updated.
func (tb *table) click(turn fakediscord.Message, inv fakediscord.Invocation) *fakediscord.Response {
	tb.t.Helper()
	resp, err := tb.fake.Click(tb.t.Context(), inv)
	require.NoError(tb.t, err, "%s by %s", inv.CustomID, inv.User)
	require.False(tb.t, resp.Ephemeral(), "%s refused: %s", inv.CustomID, resp.Message.Text())
	require.Equal(tb.t, discordgo.InteractionResponseUpdateMessage, resp.Type)
	return resp
}

// checkKept checks, once the game is over, that every acknowledged roll and
// placement is an event, that the outbox is empty and that each turn got
// exactly one turn message.
func (tb *table) checkKept() {
	events, err := tb.db.Events(tb.t.Context(), tb.id)
	require.NoError(tb.t, err)
	kinds := map[string]int{}
	for _, e := range events {
		kinds[e.Kind]++
	}
	assert.Equal(tb.t, tb.acknowledged[malefiz.EventRoll], kinds[malefiz.EventRoll], "acknowledged rolls vs roll events")
	assert.Equal(tb.t, tb.acknowledged[malefiz.EventPlace], kinds[malefiz.EventPlace], "acknowledged placements vs events")
	assert.Equal(tb.t, kinds[malefiz.EventRoll], kinds[malefiz.EventMove]+kinds[malefiz.EventPass], "every roll was played or passed")
	require.Eventually(tb.t, func() bool {
		n, err := tb.db.PendingEffects(tb.t.Context())
		return err == nil && n == 0
	}, 20*time.Second, 20*time.Millisecond, "effects left in the outbox")
	sg, err := tb.db.Game(tb.t.Context(), tb.id)
	require.NoError(tb.t, err)
	var g engine.Game
	require.NoError(tb.t, g.UnmarshalSnapshot(sg.State))
	turns := map[string]int{} // turn messages by their "**Turn N**" head
	for _, m := range tb.fake.ChannelMessages(tb.fake.ChannelID) {
		if head, _, ok := strings.Cut(m.Text(), " · "); ok && strings.HasPrefix(head, "**Turn ") {
			turns[head]++
		}
	}
	require.True(tb.t, g.Over())
	assert.Len(tb.t, turns, g.TurnNumber(), "turns with a turn message")
	for head, n := range turns {
		assert.Equal(tb.t, 1, n, "messages of %s", head)
	}
}

// Two replicas in http mode on one database (SQLite, and PostgreSQL when
// MALEFIZ_TEST_POSTGRES_URL is set): a whole game with the
// interactions sent to both in turn, and 10 identical clicks at once split
// over both apply exactly once.
func TestReplicasPlayAGameRoundRobin(t *testing.T) {
	t.Parallel() // waits on its replicas more than it computes
	if testing.Short() {
		t.Skip("starts two programs")
	}
	for _, d := range databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			t.Parallel() // a stand-in, a database and replicas of its own
			fake := fakediscord.New(t, fakediscord.WithHTTPInteractions(nil), harness.WithoutMessageBuckets())
			dbPath := d.NewURL(t)
			a, b := startReplica(t, fake, dbPath), startReplica(t, fake, dbPath)
			fake.SetInteractionEndpoints(a.endpoint(), b.endpoint())
			tb := openTable(t, fake, dbPath)

			turn, running := tb.turnMessage()
			require.True(t, running)
			var (
				wg      sync.WaitGroup
				mu      sync.Mutex
				updates int
			)
			for i := range 10 {
				endpoint := []string{a.endpoint(), b.endpoint()}[i%2]
				wg.Go(func() {
					resp, err := fake.Click(t.Context(), fakediscord.Invocation{User: turn.Pinged[0], MessageID: turn.ID,
						CustomID: harness.Control(t, turn, bot.ActRoll), Endpoint: endpoint})
					if errors.Is(err, fakediscord.ErrInvocation) {
						return // the button was gone before this click left
					}
					if assert.NoError(t, err) && !resp.Ephemeral() {
						mu.Lock()
						updates++
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			assert.Equal(t, 1, updates, "identical clicks on two replicas applied")
			events, err := tb.db.Events(t.Context(), tb.id)
			require.NoError(t, err)
			assert.Equal(t, malefiz.EventRoll, events[len(events)-1].Kind)
			assert.NotEqual(t, malefiz.EventRoll, events[len(events)-2].Kind, "two rolls kept")
			tb.acknowledged[malefiz.EventRoll]++
			// Finish that turn, then the game.
			view, _ := fake.Message(turn.ID)
			tb.finishTurn(turn, view)
			for turns := 0; tb.playTurn(); turns++ {
				require.Less(t, turns, 1000, "no winner after 1000 turns")
			}
			sg, err := tb.db.Game(t.Context(), tb.id)
			require.NoError(t, err)
			assert.Equal(t, malefiz.StatusFinished, sg.Status)
			tb.checkKept()
			served := map[string]int{}
			for _, c := range fake.Calls() {
				if c.Route == fakediscord.RouteHTTPInteraction {
					served[c.Path]++
					assert.True(t, c.OK(), "answer %d: %s", c.Status, c.Response)
				}
			}
			assert.Greater(t, served[a.endpoint()], 20, "replica a served %v", served)
			assert.Greater(t, served[b.endpoint()], 20, "replica b served %v", served)
		})
	}
}

// SIGKILL of one replica mid-game: the game goes on through the other,
// every acknowledged move is kept and every effect is delivered once (the
// dead replica's claims are taken over when their lease ends).
func TestReplicaKilledMidGame(t *testing.T) {
	t.Parallel() // waits on leases, restarts or pacing more than it computes
	if testing.Short() {
		t.Skip("starts two programs")
	}
	for _, d := range databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			t.Parallel() // a stand-in, a database and replicas of its own
			fake := fakediscord.New(t, fakediscord.WithHTTPInteractions(nil), harness.WithoutMessageBuckets())
			dbPath := d.NewURL(t)
			a, b := startReplica(t, fake, dbPath), startReplica(t, fake, dbPath)
			fake.SetInteractionEndpoints(a.endpoint(), b.endpoint())
			tb := openTable(t, fake, dbPath)
			for range 10 {
				require.True(t, tb.playTurn(), "the game ended in 10 turns")
			}
			_, running := tb.turnMessage() // the last turn's effects are out
			require.True(t, running)
			// Kill a while it delivers the next turn message: its effects stay
			// claimed by a dead process until their lease ends.
			killed := make(chan struct{})
			fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate, fakediscord.RouteFollowup), fakediscord.BeforeServe, func(fakediscord.Call) bool {
				a.kill()
				close(killed)
				return true
			})
			fake.SetInteractionEndpoints(a.endpoint())
			require.True(t, tb.playTurn())
			select {
			case <-killed:
			case <-time.After(10 * time.Second):
				t.Fatal("replica a was never killed")
			}
			fake.SetInteractionEndpoints(b.endpoint())
			for turns := 0; tb.playTurn(); turns++ {
				require.Less(t, turns, 1000, "no winner after 1000 turns")
			}
			tb.checkKept()
		})
	}
}

// openTable opens a two-player game in the channel with a Roll button:
// alice's lobby, bob joins, alice starts.
func openTable(t *testing.T, fake *fakediscord.Fake, dbPath string) *table {
	db, err := store.Open(t.Context(), dbPath)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	gs := malefiz.DefaultGuildSettings()
	gs.Threads, gs.Roll = false, "button" // the game in the channel, a Roll button
	require.NoError(t, db.SetGuildSettings(t.Context(), fake.GuildID, gs))
	resp, err := fake.SlashCommand(t.Context(), fakediscord.Invocation{User: harness.Alice, Name: "malefiz", Sub: "new",
		Options: map[string]any{"seats": 2}})
	require.NoError(t, err)
	lobby := *resp.Message
	_, err = fake.Click(t.Context(), fakediscord.Invocation{User: harness.Bob, MessageID: lobby.ID, CustomID: harness.Control(t, lobby, bot.ActJoin)})
	require.NoError(t, err)
	id, err := bot.ParseCustomID(harness.Control(t, lobby, bot.ActStart))
	require.NoError(t, err)
	_, err = fake.Click(t.Context(), fakediscord.Invocation{User: harness.Alice, MessageID: lobby.ID, CustomID: harness.Control(t, lobby, bot.ActStart)})
	require.NoError(t, err)
	return &table{t: t, fake: fake, db: db, id: id.Game, acknowledged: map[string]int{}}
}
