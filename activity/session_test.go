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

func TestLimiter(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	l := limiter{per: time.Second, burst: 3, now: func() time.Time { return now }}
	for i := range 3 {
		assert.True(t, l.allow("alice"), "play %d of the burst", i+1)
	}
	assert.False(t, l.allow("alice"), "beyond the burst")
	assert.True(t, l.allow("bob"), "each user has a bucket")
	now = now.Add(time.Second)
	assert.True(t, l.allow("alice"), "a second later one more")
	assert.False(t, l.allow("alice"))
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
