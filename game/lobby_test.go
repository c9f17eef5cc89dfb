package game

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
)

// TestLobbyOptions: the options of a new lobby are read and checked once,
// for the command and the board's form alike; a bad one is a refusal
// that names what is wrong.
func TestLobbyOptions(t *testing.T) {
	s := New(Config{Defaults: Defaults{Seats: 3, Level: "easy", SixAgain: true}})
	tests := []struct {
		name   string
		values map[string]any
		want   malefiz.Options
		bots   int
		level  string
		key    locales.Key
	}{
		{name: "the defaults", want: malefiz.Options{Seats: 3, Roll: table.RollAuto, SixAgain: true}, level: "easy"},
		{name: "everything said", values: map[string]any{"seats": 4.0, "bots": 2.0, "level": "hard", "turn-timeout": "1h",
			"roll": "button", "six-again": false, "safe-row-2": true},
			want: malefiz.Options{Seats: 4, TurnTimeout: time.Hour, Roll: table.RollButton, SafeRow2: true}, bots: 2, level: "hard"},
		{name: "an int from Go", values: map[string]any{"seats": 2}, want: malefiz.Options{Seats: 2, Roll: table.RollAuto, SixAgain: true}, level: "easy"},
		{name: "an empty string is the default", values: map[string]any{"level": ""}, want: malefiz.Options{Seats: 3, Roll: table.RollAuto, SixAgain: true}, level: "easy"},
		{name: "unknown options are ignored", values: map[string]any{"colour": "red"}, want: malefiz.Options{Seats: 3, Roll: table.RollAuto, SixAgain: true}, level: "easy"},
		{name: "five seats", values: map[string]any{"seats": 5.0}, key: locales.ErrBadSeats},
		{name: "one seat", values: map[string]any{"seats": 1.0}, key: locales.ErrBadSeats},
		{name: "as many computers as seats", values: map[string]any{"seats": 2.0, "bots": 2.0}, key: locales.ErrBadBots},
		{name: "fewer than no computers", values: map[string]any{"bots": -1.0}, key: locales.ErrBadBots},
		{name: "half a seat", values: map[string]any{"seats": 2.5}, key: locales.ErrUnknownCommand},
		{name: "seats as text", values: map[string]any{"seats": "2"}, key: locales.ErrUnknownCommand},
		{name: "a flag as a number", values: map[string]any{"six-again": 1.0}, key: locales.ErrUnknownCommand},
		{name: "a level as a number", values: map[string]any{"level": 3.0}, key: locales.ErrUnknownCommand},
		{name: "a level unknown", values: map[string]any{"level": "godlike"}, key: locales.ErrBadLevel},
		{name: "a minute per turn", values: map[string]any{"turn-timeout": "1m"}, key: locales.ErrBadTimeout},
		{name: "a timeout of words", values: map[string]any{"turn-timeout": "soon"}, key: locales.ErrBadTimeout},
		{name: "a roll unknown", values: map[string]any{"roll": "telekinesis"}, key: locales.ErrUnknownCommand},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, bots, level, err := s.lobbyOptions(tt.values, malefiz.GuildSettings{})
			if tt.key != "" {
				var ref *table.Refusal
				require.ErrorAs(t, err, &ref)
				assert.Equal(t, tt.key, ref.Key)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, opts)
			assert.Equal(t, tt.bots, bots)
			assert.Equal(t, tt.level, level)
		})
	}
	opts, _, _, err := s.lobbyOptions(nil, malefiz.GuildSettings{Roll: table.RollButton})
	require.NoError(t, err)
	assert.Equal(t, table.RollButton, opts.Roll, "the server's roll by default")
}

// TestLobbyForm: the board's form is the options of a new lobby in the
// reader's words, with their ranges and choices.
func TestLobbyForm(t *testing.T) {
	for _, lang := range []string{"en", "de", "pt-BR"} {
		form := LobbyForm(lang)
		require.Len(t, form, len(LobbyFields()))
		for i, f := range form {
			field := LobbyFields()[i]
			assert.Equal(t, field.Name, f.Name)
			assert.Equal(t, string(field.Kind), f.Kind)
			assert.Equal(t, locales.Tr(lang, field.Desc), f.Label)
			assert.NotEmpty(t, f.Label)
			require.Len(t, f.Choices, len(field.Choices))
			for j, c := range f.Choices {
				assert.Equal(t, field.Choices[j].Value, c.Value)
				assert.NotEmpty(t, c.Label)
			}
		}
	}
	levels := LobbyForm("de")[2]
	require.Equal(t, "level", levels.Name)
	assert.Equal(t, locales.Tr("de", locales.Level("normal")), levels.Choices[1].Label)
}

// TestALobbyAnsweredByItsInteraction: /malefiz new answers with the lobby
// message, adopted as the game's; a refused option opens nothing.
func TestALobbyAnsweredByItsInteraction(t *testing.T) {
	e := newEnv(t)
	via := &Via{App: "1", Token: "t", ID: "1", Channel: e.fake.ChannelID}
	o, err := e.s.Open(t.Context(), NewLobby{Guild: e.fake.GuildID, Channel: e.fake.ChannelID, User: ann, Lang: "en", Values: map[string]any{"bots": 1.0}, Via: via})
	require.NoError(t, err)
	require.NotNil(t, o.Reply)
	assert.Equal(t, table.Public, o.Reply.Kind, "the lobby message, for everyone")
	effects := o.Table.Effects()
	require.NotEmpty(t, effects)
	assert.Equal(t, table.Adopt, effects[0].Kind, "the answer becomes the lobby message")
	o.Release()
	assert.Len(t, e.stored(o.Table.Game.ID).Seats, 2)

	_, err = e.s.Open(t.Context(), NewLobby{Guild: e.fake.GuildID, Channel: e.fake.ChannelID, User: ann, Values: map[string]any{"seats": 9.0}})
	var ref *table.Refusal
	require.ErrorAs(t, err, &ref)
	_, err = e.s.Open(t.Context(), NewLobby{Channel: e.fake.ChannelID, User: ann})
	require.ErrorAs(t, err, &ref, "a lobby needs a server")
	assert.Equal(t, locales.ErrNoGameHere, ref.Key)
}

// TestNewServiceDefaults: what a Service takes when its config leaves a
// setting out.
func TestNewServiceDefaults(t *testing.T) {
	s := New(Config{Defaults: Defaults{Seats: 7}})
	assert.Equal(t, Defaults{Seats: 4, Level: "normal",
		Lobbies: table.LobbyCaps{PerUser: DefaultLobbiesPerUser, PerChannel: DefaultLobbiesPerChannel}}, s.Defaults())
	assert.NotEmpty(t, s.Owner())
	assert.Equal(t, "p", New(Config{Owner: "p"}).Owner())
	d := s.dice.Roll()
	assert.True(t, d >= 1 && d <= 6)
}

// TestOpenLobbyCaps proves the bounds on open lobbies, decided by the
// table for every front-end: a host past their bound, counted over all of
// the server's channels, and a channel past its own are refused in the
// command's words, nothing committed and nothing posted; a started game
// no longer counts, nor does another server's lobby.
func TestOpenLobbyCaps(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Defaults.Lobbies = table.LobbyCaps{PerUser: 2, PerChannel: 3} })
	two := map[string]any{"seats": 2.0}
	openIn := func(guild, channel string, host table.Actor) (*Outcome, error) {
		return e.s.Open(e.t.Context(), NewLobby{Guild: guild, Channel: channel, User: host, Lang: "en", Values: two})
	}
	refused := func(host table.Actor, channel string, key locales.Key, n int) {
		t.Helper()
		calls := len(e.fake.Calls())
		_, err := openIn(e.fake.GuildID, channel, host)
		var ref *table.Refusal
		require.ErrorAs(t, err, &ref)
		assert.Equal(t, key, ref.Key)
		text, ok := Refusal(err, "en")
		assert.True(t, ok)
		assert.Equal(t, locales.Tr("en", key, n), text)
		assert.Equal(t, calls, len(e.fake.Calls()), "nothing posted")
	}
	first := e.open(ann, two)
	o, err := openIn(e.fake.GuildID, "other-channel", ann)
	require.NoError(t, err, "another channel")
	_ = o.Deliver()                                              // the stand-in has no such channel: what is posted there does not matter
	refused(ann, e.fake.ChannelID, locales.ErrTooManyLobbies, 2) // one here, one in the other channel
	refused(ann, "third-channel", locales.ErrTooManyLobbies, 2)
	o, err = openIn("other-guild", "elsewhere", ann)
	require.NoError(t, err, "another server has bounds of its own")
	_ = o.Deliver()

	e.open(ben, two)
	e.open(cat, two)
	refused(table.Actor{UserID: "104", Name: "Dan", Lang: "en"}, e.fake.ChannelID, locales.ErrChannelLobbiesFull, 3)
	refused(ann, e.fake.ChannelID, locales.ErrTooManyLobbies, 2) // the host's bound is said first

	e.must(first.ID, ben, Join{})
	e.must(first.ID, ann, Start{})
	e.open(ann, two) // the started one no longer counts, for the host nor the channel
	open, err := e.db.OpenGames(t.Context(), e.fake.GuildID, e.fake.ChannelID)
	require.NoError(t, err)
	assert.Len(t, open, 4)
	hosted, err := e.db.HostedLobbies(t.Context(), e.fake.GuildID, ann.UserID)
	require.NoError(t, err)
	assert.Equal(t, 2, hosted)
}

// TestRematchLobbyCapped proves that a rematch's new lobby is bounded as
// every opening is: its clicker past their bound, or the channel past its
// own, is refused in the command's words with nothing opened; a later
// click still takes a seat in a rematch lobby already open.
func TestRematchLobbyCapped(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Defaults.Lobbies = table.LobbyCaps{PerUser: 1, PerChannel: 2} })
	finished := func() int64 {
		id := e.running()
		e.must(id, ben, Resign{})
		require.Equal(t, malefiz.StatusFinished, e.stored(id).Status)
		return id
	}
	one, two := finished(), finished()
	rematch := func(of int64, user table.Actor) (*Outcome, error) {
		return e.s.Rematch(t.Context(), Rematch{Of: of, Guild: e.fake.GuildID, Channel: e.fake.ChannelID, User: user})
	}
	refused := func(of int64, user table.Actor, key locales.Key, n int) {
		t.Helper()
		_, err := rematch(of, user)
		var ref *table.Refusal
		require.ErrorAs(t, err, &ref)
		assert.Equal(t, key, ref.Key)
		text, ok := Refusal(err, "en")
		assert.True(t, ok)
		assert.Equal(t, locales.Tr("en", key, n), text)
	}
	lobbies := func() int {
		t.Helper()
		open, err := e.db.OpenGames(t.Context(), e.fake.GuildID, e.fake.ChannelID)
		require.NoError(t, err)
		return len(open)
	}

	e.open(ben, map[string]any{"seats": 2.0})
	refused(one, ben, locales.ErrTooManyLobbies, 1)
	assert.Equal(t, 1, lobbies(), "nothing opened")

	o, err := rematch(one, ann)
	require.NoError(t, err)
	require.NoError(t, o.Deliver())
	re := o.Table.Game.ID
	assert.Equal(t, 2, lobbies())

	refused(two, cat, locales.ErrChannelLobbiesFull, 2)
	assert.Equal(t, 2, lobbies(), "nothing opened")

	o, err = rematch(one, cat)
	require.NoError(t, err, "a later click joins the lobby open already")
	require.NoError(t, o.Deliver())
	assert.Equal(t, re, o.Table.Game.ID)
	assert.True(t, Seated(cat.UserID)(e.stored(re)))
}

// FuzzLobbyOptions reads any JSON object as the options of /malefiz new
// (the command's and the board's form's alike): a refusal, or options a
// game may have (2 to 4 seats, fewer computers than seats).
func FuzzLobbyOptions(f *testing.F) {
	f.Add([]byte(`{"seats":4,"bots":2,"level":"hard","turn-timeout":"1h","roll":"button","six-again":true}`))
	f.Add([]byte(`{"seats":2.5}`))
	f.Add([]byte(`{"turn-timeout":"9999999h"}`))
	s := New(Config{Defaults: Defaults{Seats: 3, Level: "easy"}})
	f.Fuzz(func(t *testing.T, data []byte) {
		var values map[string]any
		if json.Unmarshal(data, &values) != nil {
			return
		}
		opts, bots, _, err := s.lobbyOptions(values, malefiz.GuildSettings{})
		if err != nil {
			_, refused := Refusal(err, "en")
			assert.True(t, refused, "a bad option is a refusal in words: %v", err)
			return
		}
		assert.True(t, opts.Seats >= 2 && opts.Seats <= 4, "%d seats", opts.Seats)
		assert.True(t, bots >= 0 && bots < opts.Seats, "%d computers of %d seats", bots, opts.Seats)
	})
}
