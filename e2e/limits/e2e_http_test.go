package limits

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
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
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/serve"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// newHTTPHarness runs the program in http mode: no gateway connection,
// interactions POSTed by the fake to the program's /interactions.
func newHTTPHarness(t testing.TB, opts ...fakediscord.Option) *harness.Harness {
	return newHarnessConfigured(t, httpMode, append([]fakediscord.Option{fakediscord.WithHTTPInteractions(nil)}, opts...)...)
}

// httpMode configures http mode on a free loopback port.
func httpMode(cfg *serve.Config) {
	cfg.Discord.Interactions = serve.InteractionsHTTP
	cfg.HTTP.Listen = "127.0.0.1:0"
}

// newHarnessConfigured is newHarness (games in the channel, a Roll
// button) with the configuration changed by configure; http mode takes the
// public key of the fake.
func newHarnessConfigured(t testing.TB, configure func(*serve.Config), opts ...fakediscord.Option) *harness.Harness {
	return newHarnessWith(t, configure, nil, opts...)
}

// newHarnessWith is newHarnessConfigured with the bot's configuration
// changed by botOptions (nil: none) from the first start on.
func newHarnessWith(t testing.TB, configure func(*serve.Config), botOptions func(*bot.Config), opts ...fakediscord.Option) *harness.Harness {
	h := &harness.Harness{T: t, Fake: fakediscord.New(t, opts...), DBPath: t.TempDir() + "/malefiz.db",
		Die: harness.NewDie(), BotOptions: botOptions}
	h.Configure = func(cfg *serve.Config) {
		configure(cfg)
		cfg.Discord.PublicKey = hex.EncodeToString(h.Fake.PublicKey())
	}
	h.Start()
	t.Cleanup(h.Stop)
	h.PlayInChannel()
	return h
}

func TestHTTPWholeGame(t *testing.T) {
	h := newHTTPHarness(t, harness.WithoutMessageBuckets())
	require.Empty(t, h.Fake.Identifies(), "http mode opens no gateway connection")
	require.NoError(t, h.Fake.Ping(h.Ctx(), ""))
	gameID, _ := harness.OpenTwoPlayerGame(t, h)
	captures := 0
	for turn := 0; ; turn++ {
		require.Less(t, turn, 300, "no winner after 300 turns")
		if _, running := h.WaitTurn(gameID); !running {
			break
		}
		if c, _ := harness.PlayTurn(t, h, gameID, captures == 0); c {
			captures++
		}
	}
	sg, g := h.Game(gameID)
	require.True(t, g.Over())
	assert.Equal(t, malefiz.StatusFinished, sg.Status)
	answers := 0
	for _, c := range h.Fake.Calls() {
		switch c.Route {
		case fakediscord.RouteHTTPInteraction:
			answers++
			assert.True(t, c.OK(), "interaction answered %d: %s", c.Status, c.Response)
		case fakediscord.RouteInteractionCallback:
			t.Errorf("http mode answered an interaction over REST: %s", c.Path)
		}
	}
	assert.Greater(t, answers, 20, "the answers went out as HTTP responses")
	harness.CheckStatsCommands(t, h, gameID, g)
}

// The answer carrying the board is a multipart response with payload_json
// and the file.
func TestHTTPAnswerCarriesTheBoard(t *testing.T) {
	h := newHTTPHarness(t)
	_, turn := harness.OpenTwoPlayerGame(t, h)
	h.Die.Set(6)
	resp := h.Click(turn.Pinged[0], turn.ID, harness.Control(t, turn, bot.ActRoll))
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type)
	assert.True(t, strings.HasPrefix(resp.Call.Header.Get("Content-Type"), "multipart/form-data"), resp.Call.Header.Get("Content-Type"))
	assert.True(t, harness.HasBoard(*resp.Message), "the roll's answer shows the board")
}

// An answer slower than DeferAfter is deferred and finished through the
// webhook.
func TestHTTPSlowAnswerIsDeferred(t *testing.T) {
	// Every answer deferred: DeferAfter of a nanosecond, and every answer
	// made slower than that for sure (a fast one, ready before the endpoint
	// looks, is sent as it is, and a loaded machine can make that happen).
	h := newHarnessConfigured(t, httpMode, fakediscord.WithHTTPInteractions(nil))
	h.Stop()
	h.BotOptions = func(c *bot.Config) {
		c.DeferAfter = 1
		c.Store = slowAnswers{Store: c.Store, delay: 100 * time.Millisecond}
	}
	h.Start()
	resp := h.Command(harness.Alice, "new", map[string]any{"seats": 2})
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, resp.Type)
	// Discord makes the deferral's message a little after the response
	// (fakediscord.DefaultHTTPResponseDelay): an edit before then is
	// Unknown Webhook, and the bot edits again.
	call, err := h.Fake.WaitFor(h.Ctx(), func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteWebhookMessageEdit && c.InteractionID == resp.InteractionID && c.OK()
	})
	require.NoError(t, err, "edit of the deferred answer")
	require.True(t, call.OK(), "edit of the deferred answer: %d %s", call.Status, call.Response)
	lobby, ok := h.Fake.Message(resp.Message.ID)
	require.True(t, ok)
	join := harness.Control(t, lobby, bot.ActJoin)
	click := h.Click(harness.Bob, lobby.ID, join)
	require.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, click.Type)
	_, err = h.Fake.WaitFor(h.Ctx(), func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteWebhookMessageEdit && c.InteractionID == click.InteractionID && c.OK()
	})
	require.NoError(t, err)
	lobby, _ = h.Fake.Message(lobby.ID)
	assert.Contains(t, lobby.Text(), harness.Bob, "the deferred join edited the lobby")

	// A refusal after a deferred update is a private follow-up.
	refused := h.Click(harness.Bob, lobby.ID, harness.Control(t, lobby, bot.ActStart))
	require.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, refused.Type)
	call, err = h.Fake.WaitFor(h.Ctx(), func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteFollowup && c.InteractionID == refused.InteractionID && c.OK()
	})
	require.NoError(t, err, "no private follow-up")
	var body struct {
		Content string `json:"content"`
		Flags   int    `json:"flags"`
	}
	require.NoError(t, call.Decode(&body))
	assert.Contains(t, body.Content, "Only the host")
	assert.Equal(t, int(discordgo.MessageFlagsEphemeral), body.Flags&int(discordgo.MessageFlagsEphemeral))

	// A private answer to a deferred command: the public "thinking…" goes,
	// the answer is a private follow-up.
	stats := h.Command(harness.Carol, "stats", nil)
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, stats.Type)
	_, err = h.Fake.WaitFor(h.Ctx(), func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteWebhookMessageDel && c.InteractionID == stats.InteractionID && c.OK()
	})
	require.NoError(t, err, "the public deferral was not deleted")
	call, err = h.Fake.WaitFor(h.Ctx(), func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteFollowup && c.InteractionID == stats.InteractionID && c.OK()
	})
	require.NoError(t, err, "no private follow-up")
	require.NoError(t, call.Decode(&body))
	assert.Equal(t, int(discordgo.MessageFlagsEphemeral), body.Flags&int(discordgo.MessageFlagsEphemeral), body.Content)
}

// tamperTest sends a tampered /malefiz new and checks that it is refused
// with 401 and changes nothing.
func tamperTest(t *testing.T, tamper fakediscord.Tamper) {
	h := newHTTPHarness(t)
	status, err := h.Fake.SendTampered(h.Ctx(), fakediscord.Invocation{User: harness.Alice, Name: "malefiz", Sub: "new"}, tamper)
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, status)
	_, err = h.Main.DB().OpenGame(h.Ctx(), h.Fake.GuildID, h.Fake.ChannelID)
	assert.ErrorIs(t, err, store.ErrNotFound, "a refused request made a game")
	for _, c := range h.Fake.Calls() {
		assert.NotEqual(t, fakediscord.RouteFollowup, c.Route, "a refused request was answered")
	}
	// The same request, signed, is taken.
	resp := h.Command(harness.Alice, "new", nil)
	assert.False(t, resp.Ephemeral())
}

func TestHTTPRefusesWrongKey(t *testing.T)     { tamperTest(t, fakediscord.TamperWrongKey) }
func TestHTTPRefusesChangedBody(t *testing.T)  { tamperTest(t, fakediscord.TamperBody) }
func TestHTTPRefusesOldTimestamp(t *testing.T) { tamperTest(t, fakediscord.TamperOldTimestamp) }
func TestHTTPRefusesNoSignature(t *testing.T)  { tamperTest(t, fakediscord.TamperNoSignature) }
func TestHTTPRefusesNoTimestamp(t *testing.T)  { tamperTest(t, fakediscord.TamperNoTimestamp) }

// /healthz, /readyz and /metrics on the listener.
func TestHTTPHealthAndMetrics(t *testing.T) {
	h := newHTTPHarness(t)
	harness.OpenTwoPlayerGame(t, h)
	base := "http://" + h.Main.HTTPAddr()
	status, _ := get(t, base+"/healthz")
	assert.Equal(t, http.StatusOK, status)
	status, body := get(t, base+"/readyz")
	assert.Equal(t, http.StatusOK, status, body)
	var out, errOut strings.Builder
	assert.Equal(t, 0, subcommand.Run("healthcheck", serve.Healthcheck, []string{"-addr", h.Main.HTTPAddr()}, &out, &errOut), errOut.String())
	assert.Equal(t, 0, subcommand.Run("healthcheck", serve.Healthcheck, []string{"-ready", "-addr", h.Main.HTTPAddr()}, &out, &errOut), errOut.String())
	wants := []string{
		`malefiz_interactions_total{kind="command",outcome="ok"} 1`,
		`malefiz_interactions_total{kind="component",outcome="refused"} 1`, // bob pressed Start
		`malefiz_interaction_duration_seconds_count{kind="component"} 3`,
		`malefiz_store_commit_duration_seconds_count{result="ok"}`,
		`malefiz_render_duration_seconds_count`,
		`malefiz_games_running 1`,
		"malefiz_outbox_pending ",
		`malefiz_discord_requests_total{method="PUT",route="/applications/{id}/guilds/{id}/commands",status="200"} 1`,
	}
	// An interaction is counted once its effects are out, just after its
	// answer.
	var missing []string
	assert.Eventually(t, func() bool {
		status, body = get(t, base+"/metrics")
		require.Equal(t, http.StatusOK, status)
		missing = missing[:0]
		for _, want := range wants {
			if !strings.Contains(body, want) {
				missing = append(missing, want)
			}
		}
		return len(missing) == 0
	}, 5*time.Second, 20*time.Millisecond, "missing from /metrics: %v", missing)
	addr := h.Main.HTTPAddr()
	h.Stop()
	assert.Equal(t, 1, subcommand.Run("healthcheck", serve.Healthcheck, []string{"-addr", addr}, &out, &errOut), "healthcheck of a stopped bot")
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(data)
}

// Close (what SIGTERM does) while interactions arrive: the listener stops
// accepting, the interactions already taken are answered, and exactly the
// answered ones changed anything.
func TestHTTPShutdownAnswersWhatIsInFlight(t *testing.T) {
	const n = 40
	channels := make([]string, n)
	for i := range channels {
		channels[i] = fmt.Sprintf("2100000000000%05d", i)
	}
	h := newHTTPHarness(t, fakediscord.WithGuild(fakediscord.Guild{Channels: channels}))
	var (
		wg       sync.WaitGroup
		answered = make([]bool, n)
		first    = make(chan struct{})
		once     sync.Once
	)
	send := func(i int) {
		wg.Go(func() {
			// A host each: one user's lobbies are bounded (3).
			host := fmt.Sprintf("2110000000000%05d", i)
			resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: host, Channel: channels[i], Name: "malefiz", Sub: "new"})
			if err == nil && !resp.Ephemeral() {
				answered[i] = true
				once.Do(func() { close(first) })
			}
		})
	}
	// A quarter before the shutdown, the rest while it runs: it closes the
	// listener first, so the last ones are refused however slow the
	// machine is (a time-staggered burst could all be in before it).
	for i := range n / 4 {
		send(i)
		time.Sleep(time.Millisecond)
	}
	<-first
	main := h.Main
	h.Main = nil
	closed := make(chan error, 1)
	go func() { closed <- main.Close() }()
	for i := n / 4; i < n; i++ {
		send(i)
		time.Sleep(2 * time.Millisecond)
	}
	require.NoError(t, <-closed)
	wg.Wait()

	db, err := store.Open(h.Ctx(), h.DBPath)
	require.NoError(t, err)
	defer db.Close()
	kept := 0
	for i, ch := range channels {
		_, err := db.OpenGame(h.Ctx(), h.Fake.GuildID, ch)
		if answered[i] {
			kept++
			assert.NoError(t, err, "channel %d: answered, but no lobby", i)
		} else {
			assert.ErrorIs(t, err, store.ErrNotFound, "channel %d: a lobby nobody was told about", i)
		}
	}
	t.Logf("%d of %d answered before the shutdown", kept, n)
	assert.Less(t, kept, n, "the shutdown came after every interaction: the test proved nothing")
}

// slowAnswers is a store whose reads that start an answer (a command's or
// a click's) take delay more.
type slowAnswers struct {
	bot.Store
	delay time.Duration
}

func (s slowAnswers) LoadGame(ctx context.Context, id int64, users ...string) (*store.Loaded, error) {
	time.Sleep(s.delay)
	return s.Store.LoadGame(ctx, id, users...)
}

func (s slowAnswers) OpenGames(ctx context.Context, guildID, channelID string) ([]*malefiz.Game, error) {
	time.Sleep(s.delay)
	return s.Store.OpenGames(ctx, guildID, channelID)
}

func (s slowAnswers) PlayerStats(ctx context.Context, guild, player string) (*store.PlayerStats, error) {
	time.Sleep(s.delay)
	return s.Store.PlayerStats(ctx, guild, player)
}
