package limits

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/store"
)

// child is the real program (`malefiz run`) in a child process, against a
// fake Discord of the parent test and a database file both share.
type child struct {
	t      *testing.T
	fake   *fakediscord.Fake
	dbPath string
	cmd    *exec.Cmd
	// db reads the shared database for the test, opened once (the tests
	// poll it every 20 ms, and an Open reads the schema and checks the
	// migrations: opening it for each poll cost the test binary a quarter
	// of its CPU).
	db *store.DB
}

func (c *child) start() {
	c.t.Helper()
	before := len(c.fake.Identifies())
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "MALEFIZ_HELPER_PROCESS=1", "MALEFIZ_DISCORD_TOKEN="+c.fake.Token(),
		"MALEFIZ_DISCORD_API_URL="+c.fake.URL(), "MALEFIZ_DATABASE_PATH="+c.dbPath, "MALEFIZ_GUILD_IDS="+c.fake.GuildID,
		"MALEFIZ_LOG_LEVEL=error")
	cmd.Dir = c.t.TempDir()
	if os.Getenv("MALEFIZ_TEST_LOG") != "" {
		cmd.Stderr = os.Stderr
	}
	require.NoError(c.t, cmd.Start())
	c.cmd = cmd
	c.t.Cleanup(c.kill)
	require.Eventually(c.t, func() bool { return len(c.fake.Identifies()) > before }, 20*time.Second, 10*time.Millisecond,
		"the bot never connected")
	require.NoError(c.t, c.fake.WaitReady(c.t.Context()))
	require.Eventually(c.t, func() bool { return len(c.fake.Commands(c.fake.GuildID)) > 0 }, 20*time.Second,
		10*time.Millisecond, "the bot registered no commands")
}

// kill ends the child with SIGKILL: no shutdown, no flush.
func (c *child) kill() {
	if c.cmd != nil && c.cmd.Process != nil {
		c.cmd.Process.Kill()
		c.cmd.Wait()
		c.cmd = nil
	}
}

// game reads the channel's open game from the shared database.
func (c *child) game() *malefiz.Game {
	c.t.Helper()
	if c.db == nil {
		db, err := store.Open(c.t.Context(), c.dbPath)
		require.NoError(c.t, err)
		c.t.Cleanup(func() { db.Close() })
		c.db = db
	}
	sg, err := c.db.OpenGame(c.t.Context(), c.fake.GuildID, c.fake.ChannelID)
	require.NoError(c.t, err)
	return sg
}

// turnMessages counts the turn messages of turn n, in the channel and in
// the game's thread.
func turnMessages(fake *fakediscord.Fake, n int) int {
	count := 0
	for _, m := range fake.AllMessages() {
		if !m.Deleted && !m.Ephemeral && strings.HasPrefix(harness.Title(m), "Turn "+strconv.Itoa(n)+" ") {
			count++
		}
	}
	return count
}

// TestCrashesLoseNoEffectAndSendNoneTwice kills the real program with
// SIGKILL at each point of a change's path — after the commit but before
// the answer, during the delivery of its effects, and after Discord made the
// new turn message but before the bot learnt its ID — then starts it again:
// every effect is delivered exactly once, and the game goes on.
func TestCrashesLoseNoEffectAndSendNoneTwice(t *testing.T) {
	t.Parallel() // waits on leases, restarts or pacing more than it computes
	if testing.Short() {
		t.Skip("starts the program several times")
	}
	for _, tc := range []struct {
		name  string
		route string
		at    fakediscord.Moment
	}{
		{"after commit, before the answer", fakediscord.RouteInteractionCallback, fakediscord.BeforeServe},
		{"during delivery", fakediscord.RouteMessageCreate, fakediscord.BeforeServe},
		{"after Discord made the message, before its ID was recorded", fakediscord.RouteMessageCreate, fakediscord.AfterServe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := fakediscord.New(t)
			c := &child{t: t, fake: fake, dbPath: filepath.Join(t.TempDir(), "malefiz.db")}
			c.start()
			ctx := t.Context()
			lobby, err := fake.SlashCommand(ctx, fakediscord.Invocation{User: harness.Alice, Name: "malefiz", Sub: "new",
				Options: map[string]any{"seats": 2, "roll": "button"}})
			require.NoError(t, err)
			_, err = fake.Click(ctx, fakediscord.Invocation{User: harness.Bob, MessageID: lobby.Message.ID,
				CustomID: harness.Control(t, *lobby.Message, bot.ActJoin)})
			require.NoError(t, err)
			require.Eventually(t, func() bool { return c.game().LobbyMessageID == lobby.Message.ID }, 10*time.Second,
				10*time.Millisecond, "the lobby's ID was never recorded")

			// /malefiz start by command: the lobby message is edited and the
			// first turn message posted, both through the outbox.
			killed := make(chan struct{})
			fake.OnNext(fakediscord.OnRoute(tc.route), tc.at, func(fakediscord.Call) bool {
				c.kill()
				close(killed)
				return true
			})
			short, cancel := context.WithTimeout(ctx, 5*time.Second)
			fake.SlashCommand(short, fakediscord.Invocation{User: harness.Alice, Name: "malefiz", Sub: "start"})
			cancel()
			select {
			case <-killed:
			case <-time.After(10 * time.Second):
				t.Fatal("the crash point was never reached")
			}
			sg := c.game()
			require.Equal(t, malefiz.StatusRunning, sg.Status, "the start was committed before anything went out")

			c.start()
			require.Eventually(t, func() bool { return c.game().TurnMessageID != "" }, 20*time.Second, 20*time.Millisecond,
				"the first turn message was not posted after the restart")
			assert.Equal(t, 1, turnMessages(fake, 1), "messages for turn 1")
			openers := 0
			for _, m := range fake.AllMessages() {
				if strings.Contains(m.Text(), "The die decided") {
					openers++
					assert.Equal(t, lobby.Message.ID, m.ChannelID, "the opener is posted in the game's thread")
				}
			}
			assert.Equal(t, 1, openers, "the thread's opener")
			// The card's edit goes out from its own queue, after the
			// game's posts.
			assert.Eventually(t, func() bool {
				lobbyNow, _ := fake.Message(lobby.Message.ID)
				return len(lobbyNow.CustomIDs()) == 0
			}, 20*time.Second, 20*time.Millisecond, "the lobby message lost its buttons")

			// The game goes on from the turn message.
			turn, ok := fake.Message(c.game().TurnMessageID)
			require.True(t, ok)
			require.Len(t, turn.Pinged, 1)
			resp, err := fake.Click(ctx, fakediscord.Invocation{User: turn.Pinged[0], MessageID: turn.ID,
				CustomID: harness.Control(t, turn, bot.ActRoll)})
			require.NoError(t, err)
			assert.False(t, resp.Ephemeral(), "the roll was refused: %q", resp.Message.Text())
		})
	}
}
