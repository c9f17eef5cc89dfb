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

// TestOpenLobbyCaps proves the bounds on a channel's open lobbies, decided
// by the table for every front-end: a host past their bound and a channel
// past its own are refused in the command's words, nothing committed and
// nothing posted; a started game no longer counts, and another channel
// has bounds of its own.
func TestOpenLobbyCaps(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Defaults.Lobbies = table.LobbyCaps{PerUser: 2, PerChannel: 3} })
	two := map[string]any{"seats": 2.0}
	first := e.open(ann, two)
	e.open(ann, two)
	refused := func(host table.Actor, channel string, key locales.Key, n int) {
		t.Helper()
		calls := len(e.fake.Calls())
		_, err := e.s.Open(e.t.Context(), NewLobby{Guild: e.fake.GuildID, Channel: channel, User: host, Lang: "en", Values: two})
		var ref *table.Refusal
		require.ErrorAs(t, err, &ref)
		assert.Equal(t, key, ref.Key)
		text, ok := Refusal(err, "en")
		assert.True(t, ok)
		assert.Equal(t, locales.Tr("en", key, n), text)
		assert.Equal(t, calls, len(e.fake.Calls()), "nothing posted")
	}
	refused(ann, e.fake.ChannelID, locales.ErrTooManyLobbies, 2)
	e.open(ben, two)
	refused(cat, e.fake.ChannelID, locales.ErrChannelLobbiesFull, 3)
	o, err := e.s.Open(e.t.Context(), NewLobby{Guild: e.fake.GuildID, Channel: "other-channel", User: ann, Lang: "en", Values: two})
	require.NoError(t, err, "another channel")
	e.s.Later(o)

	e.must(first.ID, ben, Join{})
	e.must(first.ID, ann, Start{})
	e.open(ann, two) // the started one no longer counts
	open, err := e.db.OpenGames(t.Context(), e.fake.GuildID, e.fake.ChannelID)
	require.NoError(t, err)
	assert.Len(t, open, 4)
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
