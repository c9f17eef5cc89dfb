package bot

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/store"
)

// FuzzInteractionEndpoint sends any body to the interactions endpoint of a
// real bot (a database of its own, a Discord that refuses every call),
// twice: with the fuzzer's signature, which is forged, and signed with the
// application's key, as Discord would. A forged signature is 401 and never
// routes (the bot's interaction hook is not called); a signed body, a
// command, a click or junk, never panics (here or in the work it leaves
// running) and is answered 2xx or 4xx, never 5xx.
func FuzzInteractionEndpoint(f *testing.F) {
	pub, priv, err := ed25519.GenerateKey(nil)
	require.NoError(f, err)
	f.Add([]byte(`{"type":1}`), []byte("sig"))
	f.Add([]byte(`{"type":2,"data":{"name":"malefiz","options":[{"name":"new","type":1}]}}`), []byte{})
	f.Add([]byte(`{"type":3,"data":{"custom_id":"mf/move/42/17/3"}}`), make([]byte, ed25519.SignatureSize))
	for _, body := range wireSamples(f) {
		f.Add(body, []byte{})
	}
	db, err := store.Open(f.Context(), filepath.Join(f.TempDir(), "t.db"))
	require.NoError(f, err)
	f.Cleanup(func() { _ = db.Close() })
	var routed atomic.Int64
	b := New(Config{Store: db, Discord: offline{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		DeferAfter: time.Second, Hooks: Hooks{Interaction: func(InteractionKind, Outcome, time.Duration) { routed.Add(1) }}})
	endpoint := b.InteractionsHandler(pub)
	post := func(body []byte, ts string, sig []byte) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(body))
		req.Header.Set("X-Signature-Timestamp", ts)
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
		w := httptest.NewRecorder()
		endpoint.ServeHTTP(w, req)
		return w
	}
	f.Fuzz(func(t *testing.T, body, sig []byte) {
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		signed := append([]byte(ts), body...)
		if !ed25519.Verify(pub, signed, sig) {
			before := routed.Load()
			w := post(body, ts, sig)
			assert.Equal(t, http.StatusUnauthorized, w.Code, "a forged signature never routes")
			b.Wait()
			assert.Equal(t, before, routed.Load(), "a forged signature never routes")
		}

		w := post(body, ts, ed25519.Sign(priv, signed))
		waited := make(chan struct{})
		go func() { b.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-time.After(20 * time.Second): // a hang, not a slow machine
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("hung on %q:\n%s", body, buf[:n])
		}
		assert.True(t, w.Code >= 200 && w.Code < 500, "a signed body: %d %s", w.Code, w.Body)
		assert.NotEqual(t, http.StatusUnauthorized, w.Code, "signed as Discord signs")
	})
}

// offline is a Discord that refuses every call: the endpoint's answers go
// in the HTTP response, and whatever else the bot sends fails as a network
// failure would.
type offline struct{}

var errOffline = errors.New("discord: offline in this test")

func (offline) InteractionRespond(*discordgo.Interaction, *discordgo.InteractionResponse, ...discordgo.RequestOption) error {
	return errOffline
}

func (offline) InteractionResponse(*discordgo.Interaction, ...discordgo.RequestOption) (*discordgo.Message, error) {
	return nil, errOffline
}

func (offline) FollowupMessageCreate(*discordgo.Interaction, bool, *discordgo.WebhookParams, ...discordgo.RequestOption) (*discordgo.Message, error) {
	return nil, errOffline
}

func (offline) InteractionResponseEdit(*discordgo.Interaction, *discordgo.WebhookEdit, ...discordgo.RequestOption) (*discordgo.Message, error) {
	return nil, errOffline
}

func (offline) InteractionResponseDelete(*discordgo.Interaction, ...discordgo.RequestOption) error {
	return errOffline
}

func (offline) ApplicationCommandBulkOverwrite(string, string, []*discordgo.ApplicationCommand, ...discordgo.RequestOption) ([]*discordgo.ApplicationCommand, error) {
	return nil, errOffline
}

func (offline) RequestWithBucketID(string, string, any, string, ...discordgo.RequestOption) ([]byte, error) {
	return nil, errOffline
}

func (offline) RequestRaw(string, string, string, []byte, string, int, ...discordgo.RequestOption) ([]byte, error) {
	return nil, errOffline
}
