package fakediscord_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// endpoint is a bot's interactions endpoint as a test runs it: it
// verifies each request with discordgo.VerifyInteraction and, when
// checkAge is set, refuses a timestamp more than 5 s off, answers PING with
// PONG, and passes every other interaction to handle.
type endpoint struct {
	*httptest.Server
	hits atomic.Int32 // interactions passed to handle
}

func newEndpoint(t *testing.T, pub ed25519.PublicKey, checkAge bool, got chan<- *discordgo.Interaction, handle func(http.ResponseWriter, *discordgo.Interaction)) *endpoint {
	e := &endpoint{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !discordgo.VerifyInteraction(r, pub) {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		ts, err := strconv.ParseInt(r.Header.Get("X-Signature-Timestamp"), 10, 64)
		if age := time.Since(time.Unix(ts, 0)); checkAge && (err != nil || age > 5*time.Second || age < -5*time.Second) {
			http.Error(w, "stale request", http.StatusUnauthorized)
			return
		}
		var i discordgo.Interaction
		if err := json.NewDecoder(r.Body).Decode(&i); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if i.Type == discordgo.InteractionPing {
			writeJSON(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
			return
		}
		e.hits.Add(1)
		if got != nil {
			got <- &i
		}
		handle(w, &i)
	}))
	t.Cleanup(e.Close)
	return e
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// writeMultipart answers with v and files as discordgo sends them.
func writeMultipart(t *testing.T, w http.ResponseWriter, v any, files []*discordgo.File) {
	ct, body, err := discordgo.MultipartBodyWithJSON(v, files)
	assert.NoError(t, err)
	w.Header().Set("Content-Type", ct)
	_, _ = w.Write(body)
}

// registerOverREST registers the test command with a session that never
// opens the gateway, as a bot in HTTP mode does.
func registerOverREST(t *testing.T, fake *fakediscord.Fake) *discordgo.Session {
	s := newSession(t, fake)
	register(t, s, fake)
	return s
}

func TestHTTPInteractions(t *testing.T) {
	t.Parallel()
	// The answers' messages at once: the delay has its own test.
	fake := fakediscord.New(t, fakediscord.WithHTTPInteractions(nil), fakediscord.WithResponseDelay(0))
	png := boardPNG(t)
	got := make(chan *discordgo.Interaction, 16)
	handle := func(w http.ResponseWriter, i *discordgo.Interaction) {
		switch {
		case i.Type == discordgo.InteractionMessageComponent:
			writeMultipart(t, w, discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{
					Content: "joined by " + i.Member.User.ID,
					Embeds:  []*discordgo.MessageEmbed{{Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
				},
			}, []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}})
		case i.ApplicationCommandData().Options[0].Name == "stats":
			writeJSON(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		default:
			writeJSON(w, discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "lobby", Components: buttons("mf/join/1")},
			})
		}
	}
	a := newEndpoint(t, fake.PublicKey(), true, got, handle)
	b := newEndpoint(t, fake.PublicKey(), true, got, handle)
	fake.SetInteractionEndpoints(a.URL, b.URL)
	s := registerOverREST(t, fake)
	ctx := timeout(t, 10*time.Second)

	app, err := s.Application("@me")
	require.NoError(t, err)
	assert.Equal(t, fake.PublicKey(), mustHex(t, app.VerifyKey))
	require.NoError(t, fake.Ping(ctx, a.URL))
	require.NoError(t, fake.Ping(ctx, b.URL))

	resp, err := fake.SlashCommand(ctx, fakediscord.Invocation{Name: "malefiz", Sub: "new"})
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
	assert.Equal(t, "lobby", resp.Message.Content)
	assert.Equal(t, fakediscord.RouteHTTPInteraction, resp.Call.Route)
	assert.Equal(t, a.URL, resp.Call.Path, "the first endpoint first")
	assert.Positive(t, resp.Latency)
	<-got

	click, err := fake.Click(ctx, fakediscord.Invocation{MessageID: resp.Message.ID, CustomID: "mf/join/1"})
	require.NoError(t, err, "a multipart answer")
	assert.Equal(t, b.URL, click.Call.Path, "then the second")
	assert.Equal(t, "joined by "+fake.UserID, click.Message.Content)
	board, ok := click.Message.Attachment("board.png")
	require.True(t, ok)
	assert.Equal(t, png, board.Data)
	<-got

	chosen, err := fake.SlashCommand(ctx, fakediscord.Invocation{Name: "malefiz", Sub: "new", Endpoint: b.URL})
	require.NoError(t, err)
	assert.Equal(t, b.URL, chosen.Call.Path)
	<-got
	for range 4 {
		_, err := fake.SlashCommand(ctx, fakediscord.Invocation{Name: "malefiz", Sub: "join"})
		require.NoError(t, err)
		<-got
	}
	assert.Equal(t, int32(3), a.hits.Load(), "round robin")
	assert.Equal(t, int32(4), b.hits.Load(), "round robin plus the chosen one")

	// A deferred answer is finished through the webhook, as over the
	// gateway.
	deferred, err := fake.SlashCommand(ctx, fakediscord.Invocation{Name: "malefiz", Sub: "stats", Options: map[string]any{"user": "1100000000000000042"}})
	require.NoError(t, err)
	assert.NotZero(t, deferred.Message.Flags&discordgo.MessageFlagsLoading)
	i := <-got
	content := "1512 → 1528 (+16)"
	_, err = s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content})
	require.NoError(t, err)
	m, _ := fake.Message(deferred.Message.ID)
	assert.Equal(t, content, m.Content)

	for _, c := range fake.Calls() {
		assert.NotEqual(t, fakediscord.RouteInteractionCallback, c.Route, "no REST callback in HTTP mode")
	}
	assert.Empty(t, fake.Identifies(), "no gateway in HTTP mode")
}

// mustHex decodes a hex public key.
func mustHex(t *testing.T, s string) ed25519.PublicKey {
	t.Helper()
	key, err := hex.DecodeString(s)
	require.NoError(t, err)
	return key
}

func TestHTTPAnswerRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		handle func(http.ResponseWriter, *discordgo.Interaction)
		status int // of the recorded call
	}{
		{"server error", func(w http.ResponseWriter, _ *discordgo.Interaction) {
			w.WriteHeader(http.StatusInternalServerError)
		}, http.StatusInternalServerError},
		{"too slow", func(w http.ResponseWriter, _ *discordgo.Interaction) {
			time.Sleep(600 * time.Millisecond)
			writeJSON(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "late"}})
		}, 0},
		{"update of a command", func(w http.ResponseWriter, _ *discordgo.Interaction) {
			writeJSON(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{Content: "x"}})
		}, http.StatusBadRequest},
		{"not JSON", func(w http.ResponseWriter, _ *discordgo.Interaction) {
			_, _ = w.Write([]byte("ok"))
		}, http.StatusBadRequest},
		{"empty", func(w http.ResponseWriter, _ *discordgo.Interaction) {
			w.WriteHeader(http.StatusOK)
		}, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := fakediscord.New(t, fakediscord.WithCallbackDeadline(300*time.Millisecond))
			got := make(chan *discordgo.Interaction, 1)
			e := newEndpoint(t, fake.PublicKey(), true, got, tt.handle)
			fake.SetInteractionEndpoints(e.URL)
			s := registerOverREST(t, fake)
			resp, err := fake.SlashCommand(timeout(t, 10*time.Second), fakediscord.Invocation{Name: "malefiz", Sub: "join"})
			require.Error(t, err)
			require.NotNil(t, resp)
			assert.Equal(t, tt.status, resp.Call.Status)
			assert.Nil(t, resp.Message)
			assert.Empty(t, fake.AllMessages())
			// A refused answer acknowledged nothing: the webhook is unknown.
			_, err = s.FollowupMessageCreate(<-got, true, &discordgo.WebhookParams{Content: "follow-up"})
			requireCode(t, err, http.StatusNotFound, 10015)
		})
	}
}

func TestPingNeedsPong(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	wrong := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource})
	}))
	t.Cleanup(wrong.Close)
	ctx := timeout(t, 10*time.Second)
	require.Error(t, fake.Ping(ctx, wrong.URL))
	require.Error(t, fake.Ping(ctx, ""), "no endpoint configured")
	good := newEndpoint(t, fake.PublicKey(), true, nil, nil)
	require.NoError(t, fake.Ping(ctx, good.URL))
	var statuses []int
	for _, c := range fake.Calls() {
		if c.Route == fakediscord.RouteHTTPInteraction {
			statuses = append(statuses, c.Status)
		}
	}
	assert.Equal(t, []int{http.StatusBadRequest, http.StatusNoContent}, statuses)
}

func TestSendTampered(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	answer := func(w http.ResponseWriter, _ *discordgo.Interaction) {
		writeJSON(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "ok", Components: buttons("mf/join/1")}})
	}
	strict := newEndpoint(t, fake.PublicKey(), true, nil, answer)
	signatureOnly := newEndpoint(t, fake.PublicKey(), false, nil, answer)
	var unchecked atomic.Int32
	open := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { unchecked.Add(1) }))
	t.Cleanup(open.Close)
	fake.SetInteractionEndpoints(strict.URL)
	registerOverREST(t, fake)
	ctx := timeout(t, 10*time.Second)

	lobby, err := fake.SlashCommand(ctx, fakediscord.Invocation{Name: "malefiz", Sub: "new"})
	require.NoError(t, err, "an untampered request passes")
	tampers := []struct {
		name         string
		tamper       fakediscord.Tamper
		signatureBad bool // the signature itself fails, not only the age
	}{
		{"wrong key", fakediscord.TamperWrongKey, true},
		{"changed body", fakediscord.TamperBody, true},
		{"old timestamp", fakediscord.TamperOldTimestamp, false},
		{"no signature", fakediscord.TamperNoSignature, true},
		{"no timestamp", fakediscord.TamperNoTimestamp, true},
	}
	invocations := map[string]fakediscord.Invocation{
		"command": {Name: "malefiz", Sub: "join"},
		"click":   {MessageID: lobby.Message.ID, CustomID: "mf/join/1"},
	}
	for _, tt := range tampers {
		for kind, inv := range invocations {
			status, err := fake.SendTampered(ctx, inv, tt.tamper)
			require.NoError(t, err)
			assert.Equal(t, http.StatusUnauthorized, status, "%s %s at the strict endpoint", tt.name, kind)
			inv.Endpoint = signatureOnly.URL
			status, err = fake.SendTampered(ctx, inv, tt.tamper)
			require.NoError(t, err)
			want := http.StatusOK
			if tt.signatureBad {
				want = http.StatusUnauthorized
			}
			assert.Equal(t, want, status, "%s %s at an endpoint that checks only the signature", tt.name, kind)
			inv.Endpoint = open.URL
			status, err = fake.SendTampered(ctx, inv, tt.tamper)
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, status, "%s %s reaches an endpoint that checks nothing", tt.name, kind)
		}
	}
	assert.Equal(t, int32(1), strict.hits.Load(), "only the untampered request got through")
	assert.Equal(t, int32(2), signatureOnly.hits.Load(), "the two old-timestamp requests")
	assert.Equal(t, int32(2*len(tampers)), unchecked.Load())
	assert.Len(t, fake.AllMessages(), 1, "tampered requests change nothing")
	_, err = fake.SendTampered(ctx, invocations["command"], fakediscord.Tamper(99))
	require.Error(t, err)
}

func TestHTTPConcurrentClicks(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	update := func(w http.ResponseWriter, i *discordgo.Interaction) {
		writeJSON(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{Content: "rolled by " + i.Member.User.ID}})
	}
	a := newEndpoint(t, fake.PublicKey(), true, nil, update)
	b := newEndpoint(t, fake.PublicKey(), true, nil, update)
	fake.SetInteractionEndpoints(a.URL, b.URL)
	s := newSession(t, fake)
	m, err := s.ChannelMessageSendComplex(fake.ChannelID, &discordgo.MessageSend{Content: "roll!", Components: buttons("mf/roll/1/1")})
	require.NoError(t, err)
	ctx := timeout(t, 10*time.Second)
	const clicks = 10
	var wg sync.WaitGroup
	for i := range clicks {
		wg.Go(func() {
			_, err := fake.Click(ctx, fakediscord.Invocation{User: strconv.Itoa(5000 + i), MessageID: m.ID, CustomID: "mf/roll/1/1"})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	assert.Equal(t, int32(clicks/2), a.hits.Load())
	assert.Equal(t, int32(clicks/2), b.hits.Load())
	got, _ := fake.Message(m.ID)
	assert.Equal(t, clicks, got.Edits)
}

// TestHTTPResponseDelay checks the adopt race of issue 23: the message an
// interactions endpoint's answer creates is made a little after the
// answer, and @original is unknown (404, 10015) until then.
func TestHTTPResponseDelay(t *testing.T) {
	t.Parallel()
	const delay = 300 * time.Millisecond
	fake := fakediscord.New(t, fakediscord.WithHTTPInteractions(nil), fakediscord.WithResponseDelay(delay))
	got := make(chan *discordgo.Interaction, 1)
	e := newEndpoint(t, fake.PublicKey(), true, got, func(w http.ResponseWriter, i *discordgo.Interaction) {
		writeJSON(w, discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "lobby", Components: buttons("mf/join/1")},
		})
	})
	fake.SetInteractionEndpoints(e.URL)
	s := registerOverREST(t, fake)
	resp, err := fake.SlashCommand(timeout(t, 10*time.Second), fakediscord.Invocation{Name: "malefiz", Sub: "new"})
	require.NoError(t, err)
	answered := time.Now()
	i := <-got
	assert.Equal(t, "lobby", resp.Message.Content, "the fake's model has the message at once")

	_, err = s.InteractionResponse(i)
	if time.Since(answered) < delay {
		requireCode(t, err, http.StatusNotFound, 10015)
	}
	_, err = s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: ptr("lobby · Alice")})
	if time.Since(answered) < delay {
		requireCode(t, err, http.StatusNotFound, 10015)
	}
	time.Sleep(time.Until(answered.Add(delay)))
	m, err := s.InteractionResponse(i)
	require.NoError(t, err)
	assert.Equal(t, resp.Message.ID, m.ID)
	_, err = s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: ptr("lobby · Alice")})
	require.NoError(t, err)
}

// TestGatewayNoResponseDelay checks that a REST callback's message is
// there when the callback is answered, whatever WithResponseDelay says.
func TestGatewayNoResponseDelay(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, fakediscord.WithResponseDelay(time.Hour))
	done := make(chan error, 1)
	s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "lobby"},
		})
		if err == nil {
			_, err = s.InteractionResponse(ic.Interaction)
		}
		done <- err
	})
	register(t, s, fake)
	_, err := fake.SlashCommand(timeout(t, 10*time.Second), fakediscord.Invocation{Name: "malefiz", Sub: "new"})
	require.NoError(t, err)
	require.NoError(t, <-done)
}
