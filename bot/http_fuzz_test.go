package bot

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// FuzzInteractionEndpoint sends any body with any signature to the
// interactions endpoint, whose bot is nil: a forged signature is 401 and
// never routed (routing would touch the bot and panic), and any body,
// signed or not, decodes or is refused without a panic.
func FuzzInteractionEndpoint(f *testing.F) {
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`{"type":1}`), []byte("sig"))
	f.Add([]byte(`{"type":2,"data":{"name":"malefiz","options":[{"name":"new","type":1}]}}`), []byte{})
	f.Add([]byte(`{"type":3,"data":{"custom_id":"mf/move/42/17/3"}}`), make([]byte, ed25519.SignatureSize))
	endpoint := &interactionsEndpoint{key: pub}
	f.Fuzz(func(t *testing.T, body, sig []byte) {
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		if ed25519.Verify(pub, append([]byte(ts), body...), sig) {
			return // the fuzzer forged a signature: it cannot
		}
		req := httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(body))
		req.Header.Set("X-Signature-Timestamp", ts)
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
		w := httptest.NewRecorder()
		endpoint.ServeHTTP(w, req)
		assert.Equal(t, http.StatusUnauthorized, w.Code, "a forged signature never routes")

		// A body Discord signed: decoded or refused, never a panic.
		if i, err := decodeInteraction(body); err == nil {
			assert.NotNil(t, i)
		}
	})
}
