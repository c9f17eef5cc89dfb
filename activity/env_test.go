package activity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/outbox"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/game"
	"github.com/malefiz-discord/malefiz/store"
)

// env is the Activity as it runs: its server behind a real HTTP listener,
// over a real game service (SQLite in t.TempDir()) that delivers to the
// Discord stand-in, which also answers the sign-in (OAuth2 token,
// /users/@me) and whether a user is a member of a guild. Every commit of
// the service wakes the Activity's hub. The die shows 4 and the host
// begins.
type env struct {
	t     *testing.T
	fake  *fakediscord.Fake
	db    *store.DB
	games *game.Service
	hub   *Hub
	act   *Server
	srv   *httptest.Server
	logs  *logBuffer
	// skip is how far the Activity's clock runs ahead of the real one.
	skip atomic.Int64
}

// The people of the stand-in's guild (members, see newEnv) and a stranger.
var (
	ann = fakediscord.OAuth2User{ID: "100000000000000101", Name: "Ann"}
	ben = fakediscord.OAuth2User{ID: "100000000000000102", Name: "Ben", Locale: "de"}
	cat = fakediscord.OAuth2User{ID: "100000000000000103", Name: "Cat"}
	eve = fakediscord.OAuth2User{ID: "100000000000000199", Name: "Eve"} // no member
)

// otherGuild and otherChannel are a guild the Activity is not opened in.
const (
	otherGuild   = "900000000000000999"
	otherChannel = "900000000000000998"
)

func newEnv(t *testing.T, cfg ...func(*Config)) *env {
	t.Helper()
	fake := fakediscord.New(t, fakediscord.WithoutLimits())
	for _, u := range []fakediscord.OAuth2User{ann, ben, cat} {
		require.NoError(t, fake.AddMember(fake.GuildID, fakediscord.Member{ID: u.ID, Name: u.Name}))
	}
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "malefiz.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	dc, err := discordgo.New("Bot " + fake.Token())
	require.NoError(t, err)
	base, err := url.Parse(fake.URL())
	require.NoError(t, err)
	client := &http.Client{Transport: toFake{base}, Timeout: 10 * time.Second}
	dc.Client = client
	dc.MaxRestRetries = 0
	e := &env{t: t, fake: fake, db: db, hub: NewHub(), logs: &logBuffer{}}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	out := outbox.New(outbox.Config{Store: db, Discord: dc, Owner: "test", Log: quiet})
	// The hub hears of every commit, as the program's wiring (serve) makes
	// it: the store the service commits to wakes it.
	e.games = game.New(game.Config{Store: watched{DB: db, hub: e.hub}, Outbox: out, Layout: textLayout{}, Owner: "test",
		Dice: engine.DiceFunc(func() int { return 4 }), Draw: func(int) int { return 0 }, Activity: true})
	t.Cleanup(e.games.Wait)
	c := Config{Games: e.games, Hub: e.hub, ClientID: fake.AppID, ClientSecret: fake.ClientSecret(),
		APIURL: fake.URL(), Logger: slog.New(slog.NewTextHandler(e.logs, nil)),
		Now: func() time.Time { return time.Now().Add(time.Duration(e.skip.Load())) },
		// As cmd/malefiz asks Discord, with the bot's token.
		Member: func(ctx context.Context, guild, user string) (bool, error) {
			_, err := dc.GuildMember(guild, user, discordgo.WithContext(ctx))
			var rest *discordgo.RESTError
			if errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusNotFound {
				return false, nil
			}
			return err == nil, err
		},
		Channel: func(ctx context.Context, id string) (string, bool, error) {
			ch, err := dc.Channel(id, discordgo.WithContext(ctx))
			if err != nil {
				return "", false, err
			}
			return ch.GuildID, ch.IsThread(), nil
		},
	}
	for _, f := range cfg {
		f(&c)
	}
	e.act = New(c)
	e.srv = httptest.NewServer(e.act)
	t.Cleanup(e.srv.Close)
	return e
}

// toFake sends every request discordgo makes to the stand-in.
type toFake struct{ base *url.URL }

func (t toFake) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = t.base.Scheme, t.base.Host, t.base.Host
	return http.DefaultTransport.RoundTrip(r)
}

// logBuffer is a log the tests read while the server writes it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// textLayout lays the table's messages out as plain text messages: these
// tests are about the Activity, not about Discord's components.
type textLayout struct{}

func (textLayout) Effect(via *game.Via, sg *malefiz.Game, e table.Effect) queue.Effect {
	out := queue.Effect{Op: queue.Op(e.Kind), Channel: sg.ChannelID, InPlay: e.InPlay, Target: e.Target, Record: e.Record,
		Repost: e.RepostIfGone, Text: e.Text, LinkTo: e.LinkTo, Name: e.Name, User: e.User}
	if e.Message != nil {
		text := strings.TrimSpace(e.Message.Content + " ")
		for _, em := range e.Message.Embeds {
			text += "\n" + em.Title + "\n" + em.Description
		}
		text = strings.TrimSpace(text)
		if text == "" {
			text = "-"
		}
		if len(text) > 2000 {
			text = text[:2000]
		}
		out.Body, _ = json.Marshal(map[string]any{"content": text, "allowed_mentions": map[string]any{"parse": []string{}}})
	}
	if e.Kind == table.Adopt && via != nil {
		out.App, out.Token = via.App, via.Token
	}
	return out
}

func (textLayout) WithRatings(string, []malefiz.Result, []queue.Effect, []int) error { return nil }

// code is what the Discord client hands the page when u accepts the
// authorize prompt (scope identify).
func (e *env) code(u fakediscord.OAuth2User) string {
	e.t.Helper()
	c, err := e.fake.Authorize(e.fake.AppID, u, []string{"identify"})
	require.NoError(e.t, err)
	return c
}

// signIn signs u in as the page does in the stand-in's channel, and
// returns the session.
func (e *env) signIn(u fakediscord.OAuth2User) string {
	e.t.Helper()
	status, out := e.call(http.MethodPost, "api/token", "",
		map[string]string{"Code": e.code(u), "Guild": e.fake.GuildID, "Channel": e.fake.ChannelID})
	require.Equal(e.t, http.StatusOK, status, "%v", out)
	return out["session"].(string)
}

// do sends a request to the Activity with a session (none when "") and
// body as JSON (none when nil), and returns the response, its body read.
func (e *env) do(method, path, session string, body any) (*http.Response, []byte) {
	e.t.Helper()
	var data io.Reader = http.NoBody
	if s, ok := body.(string); ok {
		data = strings.NewReader(s)
	} else if body != nil {
		b, err := json.Marshal(body)
		require.NoError(e.t, err)
		data = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.srv.URL+Prefix+path, data)
	require.NoError(e.t, err)
	if session != "" {
		req.Header.Set("Authorization", "Bearer "+session)
	}
	resp, err := e.srv.Client().Do(req)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(e.t, err)
	return resp, b
}

// call is do of a JSON object answer.
func (e *env) call(method, path, session string, body any) (int, map[string]any) {
	e.t.Helper()
	resp, b := e.do(method, path, session, body)
	var out map[string]any
	require.NoError(e.t, json.Unmarshal(b, &out), "%s", b)
	return resp.StatusCode, out
}

// lobby opens a lobby of two seats (the die rolled by a button) in
// channel, in a thread of its own, hosted by host, as /malefiz new does,
// and returns its ID.
func (e *env) lobby(host fakediscord.OAuth2User, channel string) int64 {
	e.t.Helper()
	o, err := e.games.Open(e.t.Context(), game.NewLobby{Guild: e.fake.GuildID, Channel: channel,
		User: actor(host), Lang: "en", Threads: true, Values: map[string]any{"seats": 2.0, "roll": table.RollButton}})
	require.NoError(e.t, err)
	require.NoError(e.t, o.Deliver())
	return o.Table.Game.ID
}

// running is a game of Ann and Ben, started: Ann begins, to roll.
func (e *env) running() int64 {
	e.t.Helper()
	id := e.lobby(ann, e.fake.ChannelID)
	for _, step := range []struct {
		u   fakediscord.OAuth2User
		act game.Action
	}{{ben, game.Join{}}, {ann, game.Start{}}} {
		o, err := e.games.Change(e.t.Context(), game.Command{Game: id, Guild: e.fake.GuildID, User: actor(step.u), Action: step.act})
		require.NoError(e.t, err)
		o.Deliver()
	}
	return id
}

// otherGuildGame stores a lobby of another guild, hosted by host.
func (e *env) otherGuildGame(host fakediscord.OAuth2User) int64 {
	e.t.Helper()
	g := &malefiz.Game{GuildID: otherGuild, ChannelID: otherChannel, HostID: host.ID, Status: malefiz.StatusLobby,
		Options: malefiz.Options{Seats: 2}, Seats: []malefiz.Seat{{Color: "red", UserID: host.ID, Name: host.Name}}}
	require.NoError(e.t, e.db.CreateGame(e.t.Context(), g))
	return g.ID
}

// live is game id as u sees it, in their language, read from the
// service.
func (e *env) live(id int64, u fakediscord.OAuth2User) table.Live {
	e.t.Helper()
	l, err := e.games.Live(e.t.Context(), id, e.fake.GuildID, u.ID, locales.Language(u.Locale))
	require.NoError(e.t, err)
	return l
}

// stored is game id as stored.
func (e *env) stored(id int64) *malefiz.Game {
	e.t.Helper()
	g, err := e.db.Game(e.t.Context(), id)
	require.NoError(e.t, err)
	return g
}

// actor is u at the table.
func actor(u fakediscord.OAuth2User) table.Actor {
	return table.Actor{UserID: u.ID, Name: u.Name, Lang: "en"}
}

// gamePath is the path of game id's route rest ("" for the game).
func gamePath(id int64, rest string) string {
	if rest == "" {
		return fmt.Sprintf("api/games/%d", id)
	}
	return fmt.Sprintf("api/games/%d/%s", id, rest)
}

// watched is a store whose commits wake the hub's watchers of their game.
type watched struct {
	*store.DB
	hub *Hub
}

func (w watched) Commit(ctx context.Context, c *store.Commit) error {
	err := w.DB.Commit(ctx, c)
	if err == nil && c.Game != nil && c.Game.ID != 0 {
		w.hub.Changed(c.Game.ID)
	}
	return err
}
