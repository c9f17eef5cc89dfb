package queue

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/store"
)

// FuzzEffect reads any stored payload as an effect: refused, or an
// effect whose stored form reads back as itself (decode∘encode is the
// identity on what decodes).
func FuzzEffect(f *testing.F) {
	f.Add([]byte(`{"op":"post","channel":"1","body":{"content":"hi"},"record":"lobby"}`))
	f.Add([]byte(`{"op":"edit","target":"turn","repost":true,"body":{}}`))
	f.Add([]byte(`{"op":"dm","text":"x","link_to":1}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		ef, err := Decode(store.Effect{Payload: payload})
		if err != nil {
			return
		}
		stored, err := ef.Stored()
		if err != nil {
			return // an effect its sender could not have stored
		}
		again, err := Decode(stored)
		require.NoError(t, err)
		a, _ := json.Marshal(ef)
		b, _ := json.Marshal(again)
		assert.JSONEq(t, string(a), string(b))
	})
}
