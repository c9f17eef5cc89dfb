package fakediscord_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/internal/testclock"
)

// answer is a raw answer of the fake.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the answer's body.
func (a answer) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(a.body, &m), "body %s", a.body)
	return m
}

// rest sends one request to the fake's API with the given Authorization
// ("" for none) and JSON body ("" for none).
func rest(t *testing.T, fake *fakediscord.Fake, method, path, auth, body string) answer {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, fake.URL()+"/api/v10"+path, r)
	require.NoError(t, err)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return answer{status: resp.StatusCode, header: resp.Header, body: data}
}

// botAuth returns the fake's bot Authorization header.
func botAuth(fake *fakediscord.Fake) string { return "Bot " + fake.Token() }

// postMessage creates a message in a channel and returns its ID.
func postMessage(t *testing.T, fake *fakediscord.Fake, channel, content string) string {
	t.Helper()
	a := rest(t, fake, http.MethodPost, "/channels/"+channel+"/messages", botAuth(fake), `{"content":"`+content+`"}`)
	require.Equal(t, http.StatusOK, a.status, "create: %s", a.body)
	return a.json(t)["id"].(string)
}

// limitedFake starts a fake whose limits are l on a clock the test moves.
func limitedFake(t *testing.T, l fakediscord.Limits, opts ...fakediscord.Option) (*fakediscord.Fake, *testclock.Clock) {
	clock := testclock.At(time.Now())
	opts = append(opts, fakediscord.WithLimits(l), fakediscord.WithLimitClock(clock.Now))
	return fakediscord.New(t, opts...), clock
}

// TestLimitHeadersOnEveryAnswer: every answer of a route carries its
// bucket's headers (https://discord.com/developers/docs/topics/rate-limits,
// Header Format), the bucket hash one per route shape, the same in every
// channel; create and edit are separate buckets.
func TestLimitHeadersOnEveryAnswer(t *testing.T) {
	t.Parallel()
	other := "123456789012345678"
	fake, clock := limitedFake(t, fakediscord.DefaultLimits(),
		fakediscord.WithGuild(fakediscord.Guild{Channels: []string{"223456789012345678", other}}))
	start := clock.Now()

	first := rest(t, fake, http.MethodPost, "/channels/"+fake.ChannelID+"/messages", botAuth(fake), `{"content":"a"}`)
	require.Equal(t, http.StatusOK, first.status)
	assert.Equal(t, "5", first.header.Get("X-RateLimit-Limit"))
	assert.Equal(t, "4", first.header.Get("X-RateLimit-Remaining"))
	assert.Equal(t, "5.000", first.header.Get("X-RateLimit-Reset-After"))
	assert.Equal(t, strconv.FormatFloat(float64(start.Add(5*time.Second).UnixMilli())/1000, 'f', 3, 64), first.header.Get("X-RateLimit-Reset"))
	require.NotEmpty(t, first.header.Get("X-RateLimit-Bucket"))

	clock.Advance(1500 * time.Millisecond)
	second := rest(t, fake, http.MethodPost, "/channels/"+fake.ChannelID+"/messages", botAuth(fake), `{"content":"b"}`)
	assert.Equal(t, "3", second.header.Get("X-RateLimit-Remaining"))
	assert.Equal(t, "3.500", second.header.Get("X-RateLimit-Reset-After"))

	elsewhere := rest(t, fake, http.MethodPost, "/channels/"+other+"/messages", botAuth(fake), `{"content":"c"}`)
	assert.Equal(t, "4", elsewhere.header.Get("X-RateLimit-Remaining"), "each channel its own bucket")
	assert.Equal(t, first.header.Get("X-RateLimit-Bucket"), elsewhere.header.Get("X-RateLimit-Bucket"), "one hash per route shape")

	id := first.json(t)["id"].(string)
	edit := rest(t, fake, http.MethodPatch, "/channels/"+fake.ChannelID+"/messages/"+id, botAuth(fake), `{"content":"a2"}`)
	require.Equal(t, http.StatusOK, edit.status)
	assert.Equal(t, "4", edit.header.Get("X-RateLimit-Remaining"), "an edit is not counted with the creates")
	assert.NotEqual(t, first.header.Get("X-RateLimit-Bucket"), edit.header.Get("X-RateLimit-Bucket"))

	refused := rest(t, fake, http.MethodGet, "/channels/"+fake.ChannelID+"/messages/1", botAuth(fake), "")
	assert.Equal(t, http.StatusNotFound, refused.status)
	assert.NotEmpty(t, refused.header.Get("X-RateLimit-Remaining"), "an error answer has the headers too")
}

// TestRouteLimitChangesNothing: a request past its bucket gets a 429 of
// scope user with Discord's body and headers, and the fake does nothing
// of what it asked; once the bucket resets it is served.
func TestRouteLimitChangesNothing(t *testing.T) {
	t.Parallel()
	two := fakediscord.Rate{N: 2, Per: 5 * time.Second}
	tests := []struct {
		name   string
		limits func(l *fakediscord.Limits)
		// run uses up the bucket and returns the request past it, and a
		// check that the request changed nothing.
		run func(t *testing.T, fake *fakediscord.Fake) (method, path, auth, body string, unchanged func(t *testing.T))
	}{
		{"message create", func(l *fakediscord.Limits) { l.ChannelMessages = two }, func(t *testing.T, fake *fakediscord.Fake) (string, string, string, string, func(*testing.T)) {
			postMessage(t, fake, fake.ChannelID, "1")
			postMessage(t, fake, fake.ChannelID, "2")
			return http.MethodPost, "/channels/" + fake.ChannelID + "/messages", botAuth(fake), `{"content":"3"}`, func(t *testing.T) {
				assert.Len(t, fake.ChannelMessages(fake.ChannelID), 2)
			}
		}},
		{"message edit", func(l *fakediscord.Limits) { l.MessageEdits = two }, func(t *testing.T, fake *fakediscord.Fake) (string, string, string, string, func(*testing.T)) {
			id := postMessage(t, fake, fake.ChannelID, "1")
			for _, s := range []string{"2", "3"} {
				a := rest(t, fake, http.MethodPatch, "/channels/"+fake.ChannelID+"/messages/"+id, botAuth(fake), `{"content":"`+s+`"}`)
				require.Equal(t, http.StatusOK, a.status)
			}
			return http.MethodPatch, "/channels/" + fake.ChannelID + "/messages/" + id, botAuth(fake), `{"content":"4"}`, func(t *testing.T) {
				m, _ := fake.Message(id)
				assert.Equal(t, "3", m.Content)
				assert.Equal(t, 2, m.Edits)
			}
		}},
		{"message delete", func(l *fakediscord.Limits) { l.MessageDeletes = two }, func(t *testing.T, fake *fakediscord.Fake) (string, string, string, string, func(*testing.T)) {
			ids := []string{postMessage(t, fake, fake.ChannelID, "1"), postMessage(t, fake, fake.ChannelID, "2"), postMessage(t, fake, fake.ChannelID, "3")}
			for _, id := range ids[:2] {
				a := rest(t, fake, http.MethodDelete, "/channels/"+fake.ChannelID+"/messages/"+id, botAuth(fake), "")
				require.Equal(t, http.StatusNoContent, a.status)
			}
			return http.MethodDelete, "/channels/" + fake.ChannelID + "/messages/" + ids[2], botAuth(fake), "", func(t *testing.T) {
				m, _ := fake.Message(ids[2])
				assert.False(t, m.Deleted)
			}
		}},
		{"follow-up", func(l *fakediscord.Limits) { l.Interaction = two }, func(t *testing.T, fake *fakediscord.Fake) (string, string, string, string, func(*testing.T)) {
			token := answeredInteraction(t, fake)
			before := len(fake.ChannelMessages(fake.ChannelID))
			for _, s := range []string{"1", "2"} {
				a := rest(t, fake, http.MethodPost, "/webhooks/"+fake.AppID+"/"+token, "", `{"content":"`+s+`"}`)
				require.Less(t, a.status, 300, "%s", a.body)
			}
			return http.MethodPost, "/webhooks/" + fake.AppID + "/" + token, "", `{"content":"3"}`, func(t *testing.T) {
				assert.Len(t, fake.ChannelMessages(fake.ChannelID), before+2)
			}
		}},
		{"DM open", func(l *fakediscord.Limits) { l.Route = two }, func(t *testing.T, fake *fakediscord.Fake) (string, string, string, string, func(*testing.T)) {
			for _, u := range []string{"1000000000000000001", "1000000000000000002"} {
				a := rest(t, fake, http.MethodPost, "/users/@me/channels", botAuth(fake), `{"recipient_id":"`+u+`"}`)
				require.Equal(t, http.StatusOK, a.status, "%s", a.body)
			}
			return http.MethodPost, "/users/@me/channels", botAuth(fake), `{"recipient_id":"1000000000000000003"}`, func(t *testing.T) {
				_, ok := fake.DMChannel("1000000000000000003")
				assert.False(t, ok)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l := fakediscord.DefaultLimits()
			tt.limits(&l)
			fake, clock := limitedFake(t, l)
			method, path, auth, body, unchanged := tt.run(t, fake)
			a := rest(t, fake, method, path, auth, body)
			require.Equal(t, http.StatusTooManyRequests, a.status, "%s", a.body)
			assert.Equal(t, fakediscord.ScopeUser, a.header.Get("X-RateLimit-Scope"))
			assert.Equal(t, "2", a.header.Get("X-RateLimit-Limit"))
			assert.Equal(t, "0", a.header.Get("X-RateLimit-Remaining"))
			assert.NotEmpty(t, a.header.Get("Retry-After"))
			assert.NotEmpty(t, a.header.Get("X-RateLimit-Bucket"))
			assert.Empty(t, a.header.Get("X-RateLimit-Global"))
			got := a.json(t)
			assert.Equal(t, "You are being rate limited.", got["message"])
			assert.Equal(t, false, got["global"])
			assert.Greater(t, got["retry_after"], 0.0)
			unchanged(t)
			stats := fake.LimitStats()
			assert.Equal(t, 1, stats.Limited[fakediscord.ScopeUser])
			assert.Equal(t, 1, stats.Invalid)

			clock.Advance(5 * time.Second)
			again := rest(t, fake, method, path, auth, body)
			assert.Less(t, again.status, 300, "served once the bucket reset: %s", again.body)
		})
	}
}

// answeredInteraction clicks through a slash command the bot answers with
// a message and returns the interaction's token.
func answeredInteraction(t *testing.T, fake *fakediscord.Fake) string {
	t.Helper()
	register(t, newSession(t, fake), fake)
	got := make(chan string, 1)
	openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok"},
		})
		got <- ic.Token
	})
	_, err := fake.SlashCommand(timeout(t, 10*time.Second), fakediscord.Invocation{Name: "malefiz", Sub: "join"})
	require.NoError(t, err)
	return <-got
}

// TestGlobalLimit: past the global limit every bot-token request gets a
// 429 of scope global, with X-RateLimit-Global and none of a bucket's
// headers, and changes nothing; the interaction routes are not counted
// and need no bot token (https://discord.com/developers/docs/topics/rate-limits,
// Global Rate Limit).
func TestGlobalLimit(t *testing.T) {
	t.Parallel()
	l := fakediscord.DefaultLimits()
	l.Global = fakediscord.Rate{N: 3, Per: time.Second}
	fake, clock := limitedFake(t, l)
	token := answeredInteraction(t, fake) // its calls spend the first window
	clock.Advance(time.Second)

	for i := range 3 {
		postMessage(t, fake, fake.ChannelID, strconv.Itoa(i))
	}
	for i := range 4 { // exempt: not counted, no bot token
		a := rest(t, fake, http.MethodPost, "/webhooks/"+fake.AppID+"/"+token, "", `{"content":"f`+strconv.Itoa(i)+`"}`)
		require.Less(t, a.status, 300, "follow-up %d: %s", i, a.body)
	}
	messages := len(fake.ChannelMessages(fake.ChannelID))

	a := rest(t, fake, http.MethodPost, "/channels/"+fake.ChannelID+"/messages", botAuth(fake), `{"content":"late"}`)
	require.Equal(t, http.StatusTooManyRequests, a.status)
	assert.Equal(t, "true", a.header.Get("X-RateLimit-Global"))
	assert.Equal(t, fakediscord.ScopeGlobal, a.header.Get("X-RateLimit-Scope"))
	assert.NotEmpty(t, a.header.Get("Retry-After"))
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After", "X-RateLimit-Bucket"} {
		assert.Empty(t, a.header.Get(h), h)
	}
	body := a.json(t)
	assert.Equal(t, true, body["global"])
	assert.Equal(t, "You are being rate limited.", body["message"])
	assert.Greater(t, body["retry_after"], 0.0)
	assert.Len(t, fake.ChannelMessages(fake.ChannelID), messages, "a refused request creates nothing")

	other := rest(t, fake, http.MethodGet, "/channels/"+fake.ChannelID, botAuth(fake), "")
	assert.Equal(t, http.StatusTooManyRequests, other.status, "the limit is over every route")

	clock.Advance(time.Second)
	postMessage(t, fake, fake.ChannelID, "next window")
	stats := fake.LimitStats()
	assert.Equal(t, 2, stats.Limited[fakediscord.ScopeGlobal])
	assert.GreaterOrEqual(t, stats.Exempt, 5, "the callback and four follow-ups")
	assert.Equal(t, stats.Requests, stats.GlobalCounted+stats.Exempt+countUnauthenticated(fake))
}

// countUnauthenticated counts the calls without the bot token that were
// not on an interaction route (GET /gateway may come without one).
func countUnauthenticated(fake *fakediscord.Fake) int {
	n := 0
	for _, c := range fake.Calls() {
		if c.Route != "" && c.Header.Get("Authorization") != "Bot "+fake.Token() &&
			c.Route != fakediscord.RouteInteractionCallback && !strings.Contains(c.Route, "/webhooks/") {
			n++
		}
	}
	return n
}

// TestInvalidRequestBan: 401, 403 and 429 answers count as invalid
// requests, shared 429s do not; once the limit fell within the window
// every request gets Cloudflare's 429 until the ban ends
// (https://discord.com/developers/docs/topics/rate-limits, Invalid Request
// Limit aka Cloudflare bans).
func TestInvalidRequestBan(t *testing.T) {
	t.Parallel()
	l := fakediscord.DefaultLimits()
	l.Invalid = fakediscord.Rate{N: 5, Per: 10 * time.Minute}
	fake, clock := limitedFake(t, l)
	channel := "/channels/" + fake.ChannelID

	// Two invalid ones, then ten minutes pass: they leave the window.
	for range 2 {
		require.Equal(t, http.StatusUnauthorized, rest(t, fake, http.MethodGet, channel, "Bot wrong", "").status)
	}
	clock.Advance(10*time.Minute + time.Second)
	fake.FailNext(fakediscord.OnRoute(fakediscord.RouteChannel), fakediscord.Fault{Status: http.StatusTooManyRequests, Scope: fakediscord.ScopeShared}, 3)
	for range 3 {
		a := rest(t, fake, http.MethodGet, channel, botAuth(fake), "")
		require.Equal(t, http.StatusTooManyRequests, a.status)
		require.Equal(t, fakediscord.ScopeShared, a.header.Get("X-RateLimit-Scope"))
	}
	fake.SetPermissions(fake.ChannelID, 0)
	for range 3 { // 403 Missing Access
		require.Equal(t, http.StatusForbidden, rest(t, fake, http.MethodGet, channel, botAuth(fake), "").status)
	}
	fake.FailNext(nil, fakediscord.RateLimited, 1)
	require.Equal(t, http.StatusTooManyRequests, rest(t, fake, http.MethodGet, channel, botAuth(fake), "").status)
	stats := fake.LimitStats()
	assert.Equal(t, 6, stats.Invalid)
	assert.Equal(t, 4, stats.PeakInvalid)
	assert.False(t, stats.Banned)

	require.Equal(t, http.StatusUnauthorized, rest(t, fake, http.MethodGet, channel, "Bot wrong", "").status)
	stats = fake.LimitStats()
	assert.Equal(t, 5, stats.PeakInvalid)
	require.True(t, stats.Banned)
	assert.Equal(t, clock.Now().Add(time.Hour), stats.BannedUntil)

	fake.SetPermissions(fake.ChannelID, fakediscord.DefaultAppPermissions)
	for _, path := range []string{channel, "/webhooks/" + fake.AppID + "/token"} {
		a := rest(t, fake, http.MethodGet, path, botAuth(fake), "")
		assert.Equal(t, http.StatusTooManyRequests, a.status)
		assert.Contains(t, a.header.Get("Content-Type"), "text/html", "Cloudflare's page, not Discord's JSON")
		assert.Empty(t, a.header.Get("X-RateLimit-Scope"))
		assert.Contains(t, string(a.body), "1015")
	}
	assert.Equal(t, 2, fake.LimitStats().Limited[fakediscord.ScopeCloudflare])
	assert.Equal(t, 7, fake.LimitStats().Invalid, "refused by the ban is not counted again")

	clock.Advance(time.Hour)
	assert.Equal(t, http.StatusOK, rest(t, fake, http.MethodGet, channel, botAuth(fake), "").status)
	assert.False(t, fake.LimitStats().Banned)
}

// TestOldMessageEditCap: edits of messages older than an hour past their
// cap get 400 with code 30046 and change nothing; a young message is not
// counted.
func TestOldMessageEditCap(t *testing.T) {
	t.Parallel()
	l := fakediscord.DefaultLimits()
	l.OldEdits = fakediscord.Rate{N: 2, Per: time.Hour}
	fake, clock := limitedFake(t, l)
	s := newSession(t, fake)
	old := postMessage(t, fake, fake.ChannelID, "old")
	clock.Advance(61 * time.Minute)
	young := postMessage(t, fake, fake.ChannelID, "young")
	_ = young

	for i := range 2 {
		_, err := s.ChannelMessageEdit(fake.ChannelID, old, "edit "+strconv.Itoa(i))
		require.NoError(t, err)
	}
	_, err := s.ChannelMessageEdit(fake.ChannelID, old, "one too many")
	requireCode(t, err, http.StatusBadRequest, 30046)
	m, _ := fake.Message(old)
	assert.Equal(t, "edit 1", m.Content)
	assert.Equal(t, 2, m.Edits)
}

// TestDMOpensTooFast: past the cap, opening a DM channel gets 400 with
// code 40003 and opens nothing.
func TestDMOpensTooFast(t *testing.T) {
	t.Parallel()
	l := fakediscord.DefaultLimits()
	l.DMOpens = fakediscord.Rate{N: 2, Per: 10 * time.Second}
	fake, clock := limitedFake(t, l)
	s := newSession(t, fake)
	for _, u := range []string{"1000000000000000001", "1000000000000000002"} {
		_, err := s.UserChannelCreate(u)
		require.NoError(t, err)
	}
	_, err := s.UserChannelCreate("1000000000000000003")
	requireCode(t, err, http.StatusBadRequest, 40003)
	_, ok := fake.DMChannel("1000000000000000003")
	assert.False(t, ok)
	clock.Advance(10 * time.Second)
	_, err = s.UserChannelCreate("1000000000000000003")
	require.NoError(t, err)
}

// TestDiscordgoWaitsOutBuckets: a client that reads the headers, as
// discordgo does, sends more than a bucket holds without a 429.
func TestDiscordgoWaitsOutBuckets(t *testing.T) {
	t.Parallel()
	l := fakediscord.DefaultLimits()
	l.ChannelMessages = fakediscord.Rate{N: 2, Per: 100 * time.Millisecond}
	fake := fakediscord.New(t, fakediscord.WithLimits(l))
	s := newSession(t, fake)
	for i := range 7 {
		_, err := s.ChannelMessageSend(fake.ChannelID, strconv.Itoa(i))
		require.NoError(t, err)
	}
	assert.Len(t, fake.ChannelMessages(fake.ChannelID), 7)
	assert.Zero(t, fake.LimitStats().Limited[fakediscord.ScopeUser])
}

// TestWithoutLimits: nothing is refused, and the headers still say so.
func TestWithoutLimits(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, fakediscord.WithoutLimits())
	for i := range 60 {
		postMessage(t, fake, fake.ChannelID, strconv.Itoa(i))
	}
	a := rest(t, fake, http.MethodGet, "/channels/"+fake.ChannelID, botAuth(fake), "")
	assert.Equal(t, http.StatusOK, a.status)
	assert.NotEmpty(t, a.header.Get("X-RateLimit-Remaining"))
	assert.Empty(t, fake.LimitStats().Limited)
}
