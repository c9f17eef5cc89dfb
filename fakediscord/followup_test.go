package fakediscord_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/internal/testclock"
)

// TestFollowUpRules: a follow-up lands in the interaction's channel, takes
// IS_COMPONENTS_V2 and then refuses content, ignores a nonce, is the bot's
// message (editable by bot token at any time), and its token works for 15
// minutes on the fake's clock
// (https://discord.com/developers/docs/interactions/receiving-and-responding).
func TestFollowUpRules(t *testing.T) {
	t.Parallel()
	clock := testclock.At(time.Now())
	// One clock for the token and the buckets: five follow-ups spend the
	// token's bucket, and the 15 minutes reset it.
	fake := fakediscord.New(t, fakediscord.WithClock(clock.Now), fakediscord.WithLimitClock(clock.Now))
	token := answeredInteraction(t, fake)
	hook := "/webhooks/" + fake.AppID + "/" + token
	post := func(body string) answer { return rest(t, fake, http.MethodPost, hook+"?wait=true", "", body) }

	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantCode   float64 // Discord's code of a refusal
	}{
		{"plain", `{"content":"next turn"}`, http.StatusOK, 0},
		{"a nonce is ignored", `{"content":"again","nonce":"n1","enforce_nonce":true}`, http.StatusOK, 0},
		{"the same nonce again makes a second message", `{"content":"again","nonce":"n1","enforce_nonce":true}`, http.StatusOK, 0},
		{"components v2", `{"flags":32768,"components":[{"type":10,"content":"card"}]}`, http.StatusOK, 0},
		{"components v2 refuses content", `{"flags":32768,"content":"no","components":[{"type":10,"content":"card"}]}`, http.StatusBadRequest, 50035},
	}
	var made []string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := post(tt.body)
			require.Equal(t, tt.wantStatus, a.status, "%s", a.body)
			if tt.wantCode != 0 {
				assert.Equal(t, tt.wantCode, a.json(t)["code"])
				return
			}
			m, ok := fake.Message(a.json(t)["id"].(string))
			require.True(t, ok)
			assert.Equal(t, fake.ChannelID, m.ChannelID, "in the interaction's channel")
			made = append(made, m.ID)
		})
	}
	require.Len(t, made, 4)
	assert.NotEqual(t, made[1], made[2], "a nonce does not make a repeat the same message")
	v2, _ := fake.Message(made[3])
	assert.True(t, v2.ComponentsV2())

	edit := func(path, auth string) int {
		return rest(t, fake, http.MethodPatch, path, auth, `{"content":"edited"}`).status
	}
	byBot := "/channels/" + fake.ChannelID + "/messages/" + made[0]
	assert.Equal(t, http.StatusOK, edit(byBot, botAuth(fake)), "the bot's own message")
	assert.Equal(t, http.StatusOK, edit(hook+"/messages/"+made[0], ""), "the webhook within 15 minutes")

	clock.Advance(15 * time.Minute)
	for _, tt := range []struct{ name, method, path, body string }{
		{"follow-up", http.MethodPost, hook, `{"content":"late"}`},
		{"edit of a follow-up", http.MethodPatch, hook + "/messages/" + made[0], `{"content":"late"}`},
		{"edit of @original", http.MethodPatch, hook + "/messages/@original", `{"content":"late"}`},
	} {
		a := rest(t, fake, tt.method, tt.path, "", tt.body)
		assert.Equal(t, http.StatusUnauthorized, a.status, "%s: %s", tt.name, a.body)
		assert.Equal(t, 50027.0, a.json(t)["code"], tt.name)
	}
	assert.Equal(t, http.StatusOK, edit(byBot, botAuth(fake)), "the bot token edits it after the 15 minutes")
	m, _ := fake.Message(made[0])
	assert.Equal(t, "edited", m.Content)
	assert.Len(t, fake.ChannelMessages(fake.ChannelID), 5, "the answer and four follow-ups, nothing late")
}
