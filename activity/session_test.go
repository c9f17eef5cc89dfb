package activity

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionTokens(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	ss := newSessions("secret", clock)
	good := ss.sign(Session{UserID: "1001", Name: "Alice", Lang: "de", Expires: now.Add(time.Hour)})
	body, sig, _ := strings.Cut(good, ".")
	forgedBody := b64.EncodeToString([]byte(`{"u":"1002","n":"Bob","l":"en","e":"2030-01-01T00:00:00Z"}`))
	tests := []struct {
		name  string
		token string
		ok    bool
	}{
		{"good", good, true},
		{"missing", "", false},
		{"no signature", body, false},
		{"another user with the signature", forgedBody + "." + sig, false},
		{"signed by another secret", newSessions("other", clock).sign(Session{UserID: "1002", Expires: now.Add(time.Hour)}), false},
		{"expired", ss.sign(Session{UserID: "1001", Expires: now}), false},
		{"no user", ss.sign(Session{Expires: now.Add(time.Hour)}), false},
		{"garbage", "a.b.c", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ss.read(tt.token)
			if !tt.ok {
				require.ErrorIs(t, err, ErrSession)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "1001", s.UserID)
			assert.Equal(t, "Alice", s.Name)
			assert.Equal(t, "de", s.Lang)
		})
	}
}

// TestSDKBundleFresh fails when the bundle of Discord's SDK is older than
// its lock file or its entry: run scripts/activity-sdk/build.sh and commit
// the bundle with its hash.
func TestSDKBundleFresh(t *testing.T) {
	lock, err := os.ReadFile("../scripts/activity-sdk/package-lock.json")
	require.NoError(t, err)
	entry, err := os.ReadFile("../scripts/activity-sdk/entry.js")
	require.NoError(t, err)
	sum := sha256.Sum256(append(lock, entry...))
	recorded, err := os.ReadFile("static/discord-sdk.hash")
	require.NoError(t, err)
	assert.Equal(t, strings.TrimSpace(string(recorded)), hex.EncodeToString(sum[:]),
		"activity/static/discord-sdk.js is stale: run scripts/activity-sdk/build.sh")
	bundle, err := os.ReadFile("static/discord-sdk.js")
	require.NoError(t, err)
	assert.Contains(t, string(bundle), "DiscordSDKMock", "the bundle exposes the SDK and its mock")
}

func TestLimiter(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		steps []time.Duration // the time before each try
		want  []bool
	}{
		{"the burst at once, then refused", []time.Duration{0, 0, 0, 0}, []bool{true, true, true, false}},
		{"a sliver of time gives no token", []time.Duration{0, 0, 0, time.Millisecond}, []bool{true, true, true, false}},
		{"one token back after per", []time.Duration{0, 0, 0, time.Second, 0}, []bool{true, true, true, true, false}},
		{"full again after burst times per", []time.Duration{0, 0, 0, 3 * time.Second, 0, 0, 0}, []bool{true, true, true, true, true, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := now
			l := limiter{per: time.Second, burst: 3, now: func() time.Time { return at }}
			var got []bool
			for _, d := range tt.steps {
				at = at.Add(d)
				got = append(got, l.allow("u"))
			}
			assert.Equal(t, tt.want, got)
			assert.True(t, l.allow("another user"), "each key has its own bucket")
		})
	}
}
