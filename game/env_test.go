package game

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/store"
)

// env is a service over a real SQLite database in t.TempDir(), delivering
// to the Discord stand-in, with a die of 4 (a choice of moves from home)
// and the host beginning.
type env struct {
	t    *testing.T
	fake *fakediscord.Fake
	db   *store.DB
	out  *outbox.Sender
	s    *Service
}

// Ann, Ben and Cat are people of the stand-in's guild.
var (
	ann = table.Actor{UserID: "101", Name: "Ann", Lang: "en"}
	ben = table.Actor{UserID: "102", Name: "Ben", Lang: "de"}
	cat = table.Actor{UserID: "103", Name: "Cat", Lang: "fr"}
)

func newEnv(t *testing.T, cfg ...func(*Config)) *env {
	t.Helper()
	fake := fakediscord.New(t, fakediscord.WithoutLimits())
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "malefiz.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	dc, err := discordgo.New("Bot " + fake.Token())
	require.NoError(t, err)
	base, err := url.Parse(fake.URL())
	require.NoError(t, err)
	dc.Client = &http.Client{Transport: toFake{base}, Timeout: 10 * time.Second}
	dc.MaxRestRetries = 0
	e := &env{t: t, fake: fake, db: db}
	e.out = outbox.New(outbox.Config{Store: db, Discord: dc, Owner: "test"})
	c := Config{Store: db, Outbox: e.out, Layout: textLayout{}, Owner: "test",
		Dice: engine.DiceFunc(func() int { return 4 }), Draw: func(int) int { return 0 }}
	for _, f := range cfg {
		f(&c)
	}
	e.s = New(c)
	t.Cleanup(e.s.Wait)
	return e
}

// toFake sends every request discordgo makes to the stand-in.
type toFake struct{ base *url.URL }

func (t toFake) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = t.base.Scheme, t.base.Host, t.base.Host
	return http.DefaultTransport.RoundTrip(r)
}

// textLayout lays the table's messages out as plain text messages: the
// service's tests are about decisions, commits and deliveries, not about
// Discord's components (package bot's layout).
type textLayout struct{}

func (textLayout) Effect(via *Via, sg *malefiz.Game, e table.Effect) queue.Effect {
	out := queue.Effect{Op: queue.Op(e.Kind), Channel: sg.ChannelID, InPlay: e.InPlay, Target: e.Target, Record: e.Record,
		Repost: e.RepostIfGone, Text: e.Text, LinkTo: e.LinkTo, Name: e.Name, User: e.User}
	if e.Message != nil {
		out.Body = textBody(*e.Message)
	}
	if e.Kind == table.Adopt && via != nil {
		out.App, out.Token = via.App, via.Token
	}
	return out
}

func (textLayout) WithRatings(lang string, rated []malefiz.Result, efs []queue.Effect, posts []int) error {
	for _, i := range posts {
		var lines []string
		for _, r := range rated {
			lines = append(lines, r.Player)
		}
		efs[i].Body = textBody(table.Text("ratings: " + strings.Join(lines, ", ")))
	}
	return nil
}

// textBody is msg's text as a message body.
func textBody(msg table.Message) json.RawMessage {
	parts := []string{msg.Content}
	for _, em := range msg.Embeds {
		parts = append(parts, em.Title, em.Description)
	}
	text := strings.TrimSpace(strings.Join(parts, "\n"))
	if text == "" {
		text = "-"
	}
	if len(text) > 2000 {
		text = text[:2000]
	}
	data, _ := json.Marshal(map[string]any{"content": text, "allowed_mentions": map[string]any{"parse": []string{}}})
	return data
}

// open opens a lobby in the stand-in's channel, hosted by host, with
// values, posted (no interaction), its effects delivered.
func (e *env) open(host table.Actor, values map[string]any) *malefiz.Game {
	e.t.Helper()
	o, err := e.s.Open(e.t.Context(), NewLobby{Guild: e.fake.GuildID, Channel: e.fake.ChannelID, User: host, Lang: "en", Threads: true, Values: values})
	require.NoError(e.t, err)
	require.NoError(e.t, o.Deliver())
	return o.Table.Game
}

// do runs action on game id as user, from the stand-in's guild, and
// delivers its effects; it returns the outcome.
func (e *env) do(id int64, user table.Actor, action Action) (*Outcome, error) {
	e.t.Helper()
	o, err := e.s.Change(e.t.Context(), Command{Game: id, Guild: e.fake.GuildID, User: user, Action: action})
	if err != nil {
		return nil, err
	}
	o.Deliver()
	return o, nil
}

// must is do that must succeed.
func (e *env) must(id int64, user table.Actor, action Action) *Outcome {
	e.t.Helper()
	o, err := e.do(id, user, action)
	require.NoError(e.t, err)
	return o
}

// stored is game id as stored.
func (e *env) stored(id int64) *malefiz.Game {
	e.t.Helper()
	g, err := e.db.Game(context.Background(), id)
	require.NoError(e.t, err)
	return g
}

// live is game id as user sees it on the board.
func (e *env) live(id int64, user table.Actor) table.Live {
	e.t.Helper()
	l, err := e.s.Live(e.t.Context(), id, e.fake.GuildID, user.UserID, user.Lang)
	require.NoError(e.t, err)
	return l
}

// running opens a two-player game of Ann and Ben and starts it: Ann, who
// hosts it, begins.
func (e *env) running() int64 {
	e.t.Helper()
	sg := e.open(ann, map[string]any{"seats": 2.0})
	e.must(sg.ID, ben, Join{})
	e.must(sg.ID, ann, Start{})
	return sg.ID
}

// firstMove is a play of the first move user may make now.
func (e *env) firstMove(id int64, user table.Actor) Play {
	e.t.Helper()
	l := e.live(id, user)
	require.True(e.t, l.YourTurn, "%s to move", user.Name)
	if l.Phase == "roll" {
		return Play{ID: table.CustomID{Action: table.ActRoll, Game: id, Turn: l.Turn}}
	}
	require.NotEmpty(e.t, l.Moves)
	m := l.Moves[0]
	return Play{ID: table.CustomID{Action: table.ActMove, Game: id, Turn: l.Turn, Arg: m.From + "-" + m.To}}
}
