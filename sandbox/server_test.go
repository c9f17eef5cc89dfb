package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// page is a sandbox served on loopback with the toy bot behind it.
type page struct {
	t     *testing.T
	fake  *fakediscord.Fake
	srv   *Server
	http  *httptest.Server
	clock *Clock
	ticks atomic.Int32
	alice User
	bob   User
}

func newPage(t *testing.T) *page {
	t.Helper()
	return newPageWith(t, Users("Alice", "Bob"))
}

// newPageWith is newPage with other users; the first two are alice and
// bob.
func newPageWith(t *testing.T, users []User) *page {
	t.Helper()
	t.Parallel() // each page's toy bot takes a second to disconnect
	fake := fakediscord.New(t)
	toyBot(t, fake)
	p := &page{t: t, fake: fake, clock: NewClock(nil)}
	p.alice, p.bob = users[0], users[1]
	srv, err := New(Config{Fake: fake, Users: users, Clock: p.clock, Tick: func(context.Context) error {
		p.ticks.Add(1)
		return nil
	}})
	require.NoError(t, err)
	p.srv = srv
	p.http = httptest.NewServer(srv)
	t.Cleanup(p.http.Close)
	return p
}

// post sends a JSON body and returns the status and the decoded answer.
func (p *page) post(path string, body any) (int, map[string]any) {
	p.t.Helper()
	data, err := json.Marshal(body)
	require.NoError(p.t, err)
	resp, err := http.Post(p.http.URL+path, "application/json", bytes.NewReader(data))
	require.NoError(p.t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(p.t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

// view returns what user sees in the default channel.
func (p *page) view(user User) state {
	p.t.Helper()
	return p.viewIn(user, "")
}

// viewIn returns what user sees in a channel ("" for the default one).
func (p *page) viewIn(user User, channel string) state {
	p.t.Helper()
	resp, err := http.Get(p.http.URL + "/api/state?user=" + user.ID + "&channel=" + channel)
	require.NoError(p.t, err)
	defer resp.Body.Close()
	require.Equal(p.t, http.StatusOK, resp.StatusCode)
	var st state
	require.NoError(p.t, json.NewDecoder(resp.Body).Decode(&st))
	return st
}

// command runs a command line as user and requires it to work.
func (p *page) command(user User, line string) map[string]any {
	p.t.Helper()
	code, out := p.post("/api/command", commandRequest{User: user.ID, Line: line})
	require.Equal(p.t, http.StatusOK, code, "%s: %v", line, out)
	return out
}

func TestPageAndStaticFiles(t *testing.T) {
	p := newPage(t)
	for path, want := range map[string]string{
		"/":                 "<title>Malefiz sandbox</title>",
		"/static/app.js":    "new EventSource(",
		"/static/style.css": "--bg-chat: #313338",
	} {
		resp, err := http.Get(p.http.URL + path)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Contains(t, string(body), want, path)
	}
	resp, err := http.Get(p.http.URL + "/nosuch")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestCommandShowsTheAnswerWithItsCommandLine(t *testing.T) {
	p := newPage(t)
	out := p.command(p.alice, "/toy new seats:2 speed:5m fast:yes with:@Bob")
	assert.Equal(t, false, out["ephemeral"])

	st := p.view(p.alice)
	require.Len(t, st.Messages, 1)
	m := st.Messages[0]
	assert.Equal(t, "<@"+p.alice.ID+"> opened a game seats=2 speed=5m fast=true with="+p.bob.ID+", time runs out <t:1900000000:R>", m.Content)
	assert.Equal(t, p.alice.ID, m.Invoker)
	assert.Equal(t, "/toy new seats:2 speed:5m fast:yes with:@Bob", m.Command)
	require.Len(t, m.Embeds, 1)
	img := m.Embeds[0].Image.URL
	assert.True(t, strings.HasPrefix(img, "/attachments/"+m.ID+"/"), "embed image %q points at the sandbox", img)
	assert.Equal(t, 3, m.Embeds[0].Image.Width, "the page keeps the image's place before it loads")
	assert.Equal(t, 2, m.Embeds[0].Image.Height)
	require.Len(t, m.Attachments, 1, "the board is shown by the embed, not again as a file")
	assert.Equal(t, attachmentView{Name: "notes.txt", URL: m.Attachments[0].URL, Size: 5}, m.Attachments[0])
	require.Len(t, st.Commands, 1)
	assert.Equal(t, "toy", st.Commands[0].Name)

	resp, err := http.Get(p.http.URL + img)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "image/png", resp.Header.Get("Content-Type"))
	assert.Equal(t, toyPNG, body)
	resp, err = http.Get(p.http.URL + "/attachments/" + m.ID + "/1/board.png")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "an attachment that is not there")
}

func TestBadCommandLines(t *testing.T) {
	p := newPage(t)
	for line, want := range map[string]string{
		"/toy":                  "needs a subcommand: new, board",
		"/toy fly":              `no subcommand "fly"`,
		"/toy new color:red":    `no option "color"`,
		"/toy new seats:two":    `"two" is not a whole number`,
		"/toy new speed:fast":   `"fast" is not one of 5m, 1h`,
		"/toy new with:@Zoe":    `there is no user "@Zoe"`,
		"/nosuch":               "there is no command /nosuch",
		"toy new":               "a command starts with /",
		`/toy new with:"Bob`:    "a quote is not closed",
		"/toy new seats 2":      "write options as name:value",
		"/toy new fast:perhaps": `"perhaps" is not true or false`,
	} {
		code, out := p.post("/api/command", commandRequest{User: p.alice.ID, Line: line})
		assert.Equal(t, http.StatusBadRequest, code, line)
		assert.Contains(t, out["error"], want, line)
	}
	assert.Empty(t, p.view(p.alice).Messages, "no bad line reached the bot")
}

func TestClickUpdatesTheMessageAndARefusalIsPrivate(t *testing.T) {
	p := newPage(t)
	msg := p.command(p.alice, "/toy new")["message"].(string)

	code, out := p.post("/api/click", clickRequest{User: p.bob.ID, Message: msg, CustomID: "toy/roll"})
	require.Equal(t, http.StatusOK, code, out)
	assert.Equal(t, true, out["ephemeral"])
	bobSees := p.view(p.bob).Messages
	require.Len(t, bobSees, 2)
	assert.True(t, bobSees[1].Ephemeral)
	assert.Equal(t, "It is not your turn.", bobSees[1].Content)
	assert.Equal(t, p.bob.ID, bobSees[1].Invoker)
	assert.Len(t, p.view(p.alice).Messages, 1, "Alice does not see Bob's private answer")
	assert.Equal(t, msg, p.view(p.alice).Channels[0].Last, "nor is it new in the channel for her")
	assert.Equal(t, bobSees[1].ID, p.view(p.bob).Channels[0].Last)

	before := p.view(p.alice).Messages[0]
	assert.False(t, before.Edited)
	code, out = p.post("/api/click", clickRequest{User: p.alice.ID, Message: msg, CustomID: "toy/level", Values: []string{"hard"}})
	require.Equal(t, http.StatusOK, code, out)
	assert.Equal(t, "added a computer: hard", p.view(p.alice).Messages[0].Content)
	code, out = p.post("/api/click", clickRequest{User: p.alice.ID, Message: msg, CustomID: "toy/roll"})
	require.Equal(t, http.StatusOK, code, out)
	m := p.view(p.alice).Messages[0]
	assert.Equal(t, "rolled a 6", m.Content)
	assert.True(t, m.Edited)
	assert.Greater(t, m.Version, before.Version, "the page redraws an edited message")

	code, out = p.post("/api/click", clickRequest{User: p.alice.ID, Message: msg, CustomID: "toy/nosuch"})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, out["error"], `has no component "toy/nosuch"`)
	code, out = p.post("/api/click", clickRequest{User: p.alice.ID, Message: msg, CustomID: "toy/level", Values: []string{"godlike"}})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, out["error"], `"godlike" is not an option`)
}

func TestClickOnAMessageThatDoesNotExist(t *testing.T) {
	p := newPage(t)
	code, out := p.post("/api/click", clickRequest{User: p.alice.ID, Message: "123", CustomID: "toy/roll"})
	assert.Equal(t, http.StatusNotFound, code)
	assert.Contains(t, out["error"], `there is no message "123"`)

	// Someone else's private message does not exist for Alice either.
	private := p.command(p.bob, "/toy board")
	require.Equal(t, true, private["ephemeral"])
	code, _ = p.post("/api/click", clickRequest{User: p.alice.ID, Message: private["message"].(string), CustomID: "x"})
	assert.Equal(t, http.StatusNotFound, code)
}

func TestUnknownUser(t *testing.T) {
	p := newPage(t)
	msg := p.command(p.alice, "/toy new")["message"].(string)
	for _, path := range []string{"/events?user=42", "/api/state?user=42", "/events"} {
		resp, err := http.Get(p.http.URL + path)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, path)
		assert.Contains(t, string(body), "unknown user", path)
	}
	code, out := p.post("/api/command", commandRequest{User: "42", Line: "/toy new"})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, out["error"], `unknown user "42"`)
	code, out = p.post("/api/click", clickRequest{User: "42", Message: msg, CustomID: "toy/roll"})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, out["error"], `unknown user "42"`)
	code, _ = p.post("/api/click", map[string]any{"user": p.alice.ID, "messag": msg})
	assert.Equal(t, http.StatusBadRequest, code, "unknown fields are refused")
	resp, err := http.Post(p.http.URL+"/api/command", "text/plain", strings.NewReader(`{"user":"`+p.alice.ID+`","line":"/toy new"}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode, "what another site's form could send is refused")

	resp, err = http.Get(p.http.URL + "/api/state?user=" + p.alice.ID + "&channel=77")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "unknown channel")
}

// events reads server-sent events.
type events struct {
	t    *testing.T
	r    *bufio.Reader
	body io.Closer
}

func (p *page) events(user User) *events {
	p.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.http.URL+"/events?user="+user.ID, nil)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(p.t, err)
	require.Equal(p.t, http.StatusOK, resp.StatusCode)
	require.Equal(p.t, "text/event-stream", resp.Header.Get("Content-Type"))
	p.t.Cleanup(func() { resp.Body.Close() })
	return &events{t: p.t, r: bufio.NewReader(resp.Body), body: resp.Body}
}

// next returns the next state event.
func (e *events) next() state {
	e.t.Helper()
	var name, data string
	for {
		line, err := e.r.ReadString('\n')
		require.NoError(e.t, err)
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		case line == "" && data != "":
			require.Equal(e.t, "state", name)
			var st state
			require.NoError(e.t, json.Unmarshal([]byte(data), &st))
			return st
		}
	}
}

// until reads states until one satisfies ok.
func (e *events) until(ok func(state) bool) state {
	e.t.Helper()
	done := make(chan state, 1)
	go func() {
		for {
			st := e.next()
			if ok(st) {
				done <- st
				return
			}
		}
	}()
	select {
	case st := <-done:
		return st
	case <-time.After(10 * time.Second):
		e.body.Close()
		e.t.Fatal("no such state arrived")
		return state{}
	}
}

func TestDirectMessagesAreSeenOnlyByTheirUser(t *testing.T) {
	p := newPage(t)
	p.command(p.alice, "/toy dm")
	var dm channelView
	for _, c := range p.view(p.alice).Channels {
		if c.DM {
			dm = c
		}
	}
	require.NotEmpty(t, dm.ID, "Alice's channel list has her DMs with the bot")
	assert.Equal(t, "Malefiz", dm.Name)
	for _, c := range p.view(p.bob).Channels {
		assert.False(t, c.DM, "Bob does not see Alice's DMs")
	}

	resp, err := http.Get(p.http.URL + "/api/state?user=" + p.alice.ID + "&channel=" + dm.ID)
	require.NoError(t, err)
	var st state
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	resp.Body.Close()
	require.Len(t, st.Messages, 1)
	assert.Equal(t, "psst, it is your turn", st.Messages[0].Content)
	assert.Equal(t, st.Messages[0].ID, dm.Last)

	resp, err = http.Get(p.http.URL + "/api/state?user=" + p.bob.ID + "&channel=" + dm.ID)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "Bob cannot open Alice's DMs")
}

func TestEventStreamFollowsChanges(t *testing.T) {
	p := newPage(t)
	alice, bob := p.events(p.alice), p.events(p.bob)
	first := alice.next()
	assert.Empty(t, first.Messages)
	assert.Equal(t, p.alice.ID, first.User)
	assert.Equal(t, p.fake.ChannelID, first.Channel)
	require.Len(t, first.Channels, 1)
	assert.Equal(t, "general", first.Channels[0].Name)
	assert.Equal(t, "toy", first.Commands[0].Name)
	bob.next()

	msg := p.command(p.alice, "/toy new")["message"].(string)
	st := alice.until(func(s state) bool { return len(s.Messages) == 1 && s.Messages[0].Command != "" })
	assert.Equal(t, msg, st.Messages[0].ID)
	assert.True(t, st.Messages[0].Pinged, "the message mentions Alice")
	st = bob.until(func(s state) bool { return len(s.Messages) == 1 })
	assert.False(t, st.Messages[0].Pinged)

	p.post("/api/click", clickRequest{User: p.alice.ID, Message: msg, CustomID: "toy/roll"})
	st = bob.until(func(s state) bool { return len(s.Messages) == 1 && s.Messages[0].Content == "rolled a 6" })
	assert.True(t, st.Messages[0].Edited)

	p.post("/api/skip", skipRequest{By: "2h"})
	st = alice.until(func(s state) bool { return s.Offset > 0 })
	assert.Equal(t, (2 * time.Hour).Milliseconds(), st.Offset)
}

func TestSkipAheadMovesTheClockAndRunsTheTimers(t *testing.T) {
	p := newPage(t)
	before := time.Now()
	code, out := p.post("/api/skip", skipRequest{By: "24h"})
	require.Equal(t, http.StatusOK, code, out)
	assert.Equal(t, float64((24 * time.Hour).Milliseconds()), out["offset"])
	assert.EqualValues(t, 1, p.ticks.Load(), "the timers ran once after the skip")
	assert.WithinDuration(t, before.Add(24*time.Hour), p.clock.Now(), 5*time.Second)
	for _, by := range []string{"", "soon", "-1h", "0s", "1000h"} {
		code, out := p.post("/api/skip", skipRequest{By: by})
		assert.Equal(t, http.StatusBadRequest, code, by)
		assert.Contains(t, out["error"], "want a duration", by)
	}
	assert.EqualValues(t, 1, p.ticks.Load())
}

func TestNewChecksItsConfig(t *testing.T) {
	fake := fakediscord.New(t)
	for name, cfg := range map[string]Config{
		"no fake":        {Users: Users("A")},
		"no users":       {Fake: fake},
		"twice the same": {Fake: fake, Users: []User{{ID: "1", Name: "A"}, {ID: "1", Name: "B"}}},
		"no name":        {Fake: fake, Users: []User{{ID: "1"}}},
		"no such locale": {Fake: fake, Users: []User{{ID: "1", Name: "A", Locale: "xx"}}},
	} {
		_, err := New(cfg)
		assert.Error(t, err, name)
	}
}

// Each user's Discord language, the server's and the admin's Manage Server
// reach the bot in the interactions, as Discord sends them (locale,
// guild_locale, member.permissions), and the page changes the languages.
func TestLocalesAndTheAdminReachTheBot(t *testing.T) {
	users := Users("Alice", "Bob", "Dave")
	users[0].Locale, users[2].Admin = "de", true
	p := newPageWith(t, users)
	dave := users[2]
	whoami := func(u User) string {
		t.Helper()
		id := p.command(u, "/toy whoami")["message"].(string)
		m, ok := p.fake.Message(id)
		require.True(t, ok)
		return m.Content
	}
	setLocale := func(body localeRequest) (int, map[string]any) {
		t.Helper()
		return p.post("/api/locale", body)
	}
	assert.Equal(t, "locale=de guild_locale=en-US manage_server=false", whoami(p.alice))
	assert.Equal(t, "locale=en-US guild_locale=en-US manage_server=false", whoami(p.bob))
	assert.Equal(t, "locale=en-US guild_locale=en-US manage_server=true", whoami(dave), "Dave is the server's admin")

	for _, c := range []struct {
		name   string
		body   localeRequest
		status int
		answer string
	}{
		{"the server in Spanish", localeRequest{Server: true, Locale: "es-es"}, http.StatusOK, "es-ES"},
		{"Bob in Polish", localeRequest{User: p.bob.ID, Locale: "pl"}, http.StatusOK, "pl"},
		{"not a locale", localeRequest{User: p.bob.ID, Locale: "klingon"}, http.StatusBadRequest, "not a Discord locale"},
		{"a base Discord offers by region", localeRequest{Server: true, Locale: "es"}, http.StatusBadRequest, "es-419 or es-ES"},
		{"nobody", localeRequest{Locale: "de"}, http.StatusBadRequest, "unknown user"},
		{"both", localeRequest{User: p.bob.ID, Server: true, Locale: "de"}, http.StatusBadRequest, "not both"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, out := setLocale(c.body)
			assert.Equal(t, c.status, status)
			if c.status == http.StatusOK {
				assert.Equal(t, c.answer, out["locale"])
			} else {
				assert.Contains(t, out["error"], c.answer)
			}
		})
	}
	assert.Equal(t, "locale=de guild_locale=es-ES manage_server=false", whoami(p.alice))
	assert.Equal(t, "locale=pl guild_locale=es-ES manage_server=false", whoami(p.bob))

	st := p.view(p.alice)
	assert.Equal(t, "es-ES", st.GuildLocale)
	assert.Equal(t, []User{
		{ID: p.alice.ID, Name: "Alice", Locale: "de"},
		{ID: p.bob.ID, Name: "Bob", Locale: "pl"},
		{ID: dave.ID, Name: "Dave", Locale: "en-US", Admin: true},
	}, st.Users)
}

func TestParseLocale(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"de", "de", ""},
		{"pt-br", "pt-BR", ""},
		{"pt_BR", "pt-BR", ""},
		{" en-US ", "en-US", ""},
		{"pt", "", "pt-BR"},
		{"de-DE", "", "not a Discord locale"},
		{"", "", "not a Discord locale"},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseLocale(c.in)
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
	locales := Locales()
	assert.Equal(t, "en-US", locales[0].Value, "English (United States) first")
	assert.Len(t, locales, 31)
}
