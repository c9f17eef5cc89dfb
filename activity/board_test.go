package activity

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/game"
)

// fakeGames is the bot as the Activity's routes see it, without a
// database or Discord: its games are tables in memory, and every action
// is the table's own decision, as the bot makes it (a game of another
// guild is not found; a refusal changes nothing).
type fakeGames struct {
	mu     sync.Mutex
	tables map[int64]*table.Table
	asked  []string // the lobby acts and hints that reached the bot
	// locales are the users' locales the sign-ins kept.
	locales map[string]string
}

var _ Games = (*fakeGames)(nil)

func (f *fakeGames) game(id int64, guild string) (*table.Table, error) {
	t, ok := f.tables[id]
	if !ok || guild == "" || t.Game.GuildID != guild {
		return nil, table.Refuse(locales.ErrUnknownGame, id)
	}
	return t, nil
}

// change applies act to a copy of game id and keeps the copy only when
// act decides without an error, as a commit would.
func (f *fakeGames) change(id int64, guild string, act func(t *table.Table) error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, err := f.game(id, guild)
	if err != nil {
		return err
	}
	sg, err := t.Snapshot()
	if err != nil {
		return err
	}
	g := *sg
	g.Seats = append([]malefiz.Seat(nil), sg.Seats...)
	c, err := table.New(&g, t.Settings, t.Now, t.Dice)
	if err != nil {
		return err
	}
	if err := act(c); err != nil {
		return err
	}
	f.tables[id] = c
	return nil
}

// Apply makes the decision of cmd's action on its game, as the game
// service does (each the table's own), and keeps it only when it decides
// without an error.
func (f *fakeGames) Apply(_ context.Context, cmd game.Command) (*game.Outcome, error) {
	user := cmd.User
	var decided *table.Table
	err := f.change(cmd.Game, cmd.Guild, func(t *table.Table) error {
		decided = t
		switch a := cmd.Action.(type) {
		case game.Play:
			f.asked = append(f.asked, "play")
			return t.Play(user, a.ID)
		case game.Join:
			f.asked = append(f.asked, "lobby:join")
			return t.ChangeLobby(user, table.Join(user))
		case game.Start:
			f.asked = append(f.asked, "lobby:start")
			return t.Start(user, 0)
		case game.AddComputer:
			f.asked = append(f.asked, "computer:addbot:"+a.Level)
			return t.ChangeLobby(user, table.AddComputer(user, a.Level))
		case game.RemoveComputer:
			f.asked = append(f.asked, "computer:removebot:"+a.Color)
			return t.ChangeLobby(user, table.RemoveComputer(user, a.Color))
		case game.BoardHint:
			f.asked = append(f.asked, "hint")
			_, err := t.BoardHint(user, a.Turn)
			return err
		}
		return table.Refuse(locales.ErrUnknownButton)
	})
	if err != nil {
		return nil, err
	}
	return &game.Outcome{Table: decided, Committed: true}, nil
}

func (f *fakeGames) Open(context.Context, game.NewLobby) (*game.Outcome, error) {
	return nil, table.Refuse(locales.ErrUnknownCommand)
}

func (f *fakeGames) Later(*game.Outcome) {}

func (f *fakeGames) Live(_ context.Context, id int64, guild, userID, lang string) (table.Live, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, err := f.game(id, guild)
	if err != nil {
		return table.Live{}, err
	}
	return t.Live(userID, lang), nil
}

func (f *fakeGames) ChannelGames(context.Context, string, string, string) ([]*malefiz.Game, error) {
	return nil, nil
}

// BoardReview refuses: these tests' games never finish (the review's
// route is tested over the game service, review_test.go).
func (f *fakeGames) BoardReview(_ context.Context, id int64, _, _ string) (table.LiveReview, error) {
	return table.LiveReview{}, table.Refuse(locales.ErrUnknownGame, id)
}

func (f *fakeGames) ChannelReviews(context.Context, string, string) ([]*malefiz.Game, error) {
	return nil, nil
}

// TournamentHere: these tests' channels hold no tournament (the
// tournament's routes are tested over the game service,
// tournament_test.go).
func (f *fakeGames) TournamentHere(context.Context, string, string, string, string) (*game.TournamentBoard, error) {
	return nil, nil
}

// TournamentBoard refuses as the service refuses an unknown one.
func (f *fakeGames) TournamentBoard(_ context.Context, id int64, _, _, _ string) (*game.TournamentBoard, error) {
	return nil, table.Refuse(locales.ErrUnknownGame, id)
}

func (f *fakeGames) RememberLocale(_ context.Context, userID, locale string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.locales == nil {
		f.locales = map[string]string{}
	}
	f.locales[userID] = locale
	return nil
}

// The people of these tests: Alice hosts, Bob joins, Carol watches.
var (
	alice = table.Actor{UserID: "1001", Name: "Alice", Lang: "en"}
	bob   = table.Actor{UserID: "1002", Name: "Bob", Lang: "en"}
	carol = table.Actor{UserID: "1003", Name: "Carol", Lang: "en"}
)

var testNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// boardServer is an Activity server over games, its clock fixed, and a
// function that signs a session for a user in guild g1.
func boardServer(t *testing.T, games *fakeGames) (*Server, func(a table.Actor) string) {
	t.Helper()
	s := New(Config{Games: games, Hub: NewHub(), ClientID: "app", ClientSecret: "secret",
		Now: func() time.Time { return testNow }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Member:  func(context.Context, string, string) (bool, error) { return true, nil },
		Channel: func(context.Context, string) (string, bool, error) { return "g1", false, nil }})
	return s, func(a table.Actor) string {
		return s.sessions.sign(Session{UserID: a.UserID, Name: a.Name, Lang: a.Lang, Guild: "g1", Channel: "c1", Expires: testNow.Add(time.Hour)})
	}
}

// lobbyGames is a two-seat lobby (game 7, guild g1) hosted by Alice, with
// a free seat, and a game of another guild (8).
func lobbyGames(t *testing.T, settings malefiz.GuildSettings) *fakeGames {
	t.Helper()
	f := &fakeGames{tables: map[int64]*table.Table{}}
	for id, guild := range map[int64]string{7: "g1", 8: "g2"} {
		g := &malefiz.Game{ID: id, GuildID: guild, ChannelID: "c1", HostID: alice.UserID, Status: malefiz.StatusLobby,
			Locale: "en", Options: malefiz.Options{Seats: 2, Roll: table.RollButton}}
		tb, err := table.New(g, settings, testNow, engine.DiceFunc(func() int { return 6 }))
		require.NoError(t, err)
		tb.Open(alice, 0, "")
		f.tables[id] = tb
	}
	return f
}

// post sends body to path as the session's user and returns the status
// and the answer.
func post(t *testing.T, s *Server, session, path string, body any) (int, map[string]any) {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	req := httptest.NewRequest(http.MethodPost, Prefix+path, bytes.NewReader(b))
	if session != "" {
		req.Header.Set("Authorization", "Bearer "+session)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	var out map[string]any
	require.NoError(t, json.NewDecoder(w.Body).Decode(&out), w.Body.String())
	return w.Code, out
}

// TestLobbyComputersRoute: a computer is added and removed through the
// lobby route, decided by the lobby; every refusal is the user's words,
// nothing changed.
func TestLobbyComputersRoute(t *testing.T) {
	games := lobbyGames(t, malefiz.GuildSettings{})
	s, session := boardServer(t, games)
	seats := func() int { return len(games.tables[7].Game.Seats) }

	tests := []struct {
		name   string
		as     table.Actor
		path   string
		body   any
		status int
		want   string // the refusal, "" for none
		seats  int
	}{
		{"a watcher may not add", carol, "api/games/7/lobby", map[string]string{"Action": "addbot", "Arg": "easy"},
			http.StatusConflict, locales.Tr("en", locales.ErrNotInGame), 1},
		{"an unknown level", alice, "api/games/7/lobby", map[string]string{"Action": "addbot", "Arg": "godlike"},
			http.StatusConflict, locales.Tr("en", locales.ErrBadLevel), 1},
		{"an argument too long", alice, "api/games/7/lobby", map[string]string{"Action": "addbot", "Arg": string(make([]byte, 41))},
			http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton), 1},
		{"another guild's game", alice, "api/games/8/lobby", map[string]string{"Action": "addbot", "Arg": "easy"},
			http.StatusConflict, "There is no game #8 on this server.", 1},
		{"the host adds one", alice, "api/games/7/lobby", map[string]string{"Action": "addbot", "Arg": "hard"},
			http.StatusOK, "", 2},
		{"no seat left", alice, "api/games/7/lobby", map[string]string{"Action": "addbot", "Arg": "easy"},
			http.StatusConflict, locales.Tr("en", locales.ErrLobbyFull), 2},
		{"only the host removes", bob, "api/games/7/lobby", map[string]string{"Action": "removebot", "Arg": "green"},
			http.StatusConflict, locales.Tr("en", locales.ErrOnlyHostRemoves), 2},
		{"not a person", alice, "api/games/7/lobby", map[string]string{"Action": "removebot", "Arg": "red"},
			http.StatusConflict, locales.Tr("en", locales.ErrNoComputerThere), 2},
		{"the host removes it", alice, "api/games/7/lobby", map[string]string{"Action": "removebot", "Arg": "green"},
			http.StatusOK, "", 1},
		{"gone already", alice, "api/games/7/lobby", map[string]string{"Action": "removebot", "Arg": "green"},
			http.StatusConflict, locales.Tr("en", locales.ErrNoComputerThere), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := post(t, s, session(tt.as), tt.path, tt.body)
			assert.Equal(t, tt.status, status, "%v", out)
			if tt.want != "" {
				assert.Equal(t, tt.want, out["error"])
			}
			assert.Equal(t, tt.seats, seats())
		})
	}
	status, _ := post(t, s, "", "api/games/7/lobby", map[string]string{"Action": "addbot", "Arg": "easy"})
	assert.Equal(t, http.StatusUnauthorized, status, "no session")
	assert.Equal(t, 1, seats())

	// The join, leave and start of Bot.Lobby still go there.
	status, out := post(t, s, session(bob), "api/games/7/lobby", map[string]string{"Action": "join"})
	assert.Equal(t, http.StatusOK, status, "%v", out)
	assert.Equal(t, "lobby:join", games.asked[len(games.asked)-1])
}

// TestHintRoute: the hint answers the player to move, for their turn,
// with the move the computer would play; anyone else, another turn, a
// server without hints and another guild's game are refused in words.
func TestHintRoute(t *testing.T) {
	games := lobbyGames(t, malefiz.GuildSettings{Hints: true})
	s, session := boardServer(t, games)
	for _, step := range []struct {
		as   table.Actor
		path string
		body any
	}{
		{bob, "api/games/7/lobby", map[string]string{"Action": "join"}},
		{alice, "api/games/7/lobby", map[string]string{"Action": "start"}},
	} {
		status, out := post(t, s, session(step.as), step.path, step.body)
		require.Equal(t, http.StatusOK, status, "%v", out)
	}
	live := games.tables[7].Live(alice.UserID, "en")
	require.True(t, live.YourTurn, "Alice begins")
	status, out := post(t, s, session(alice), "api/games/7/hint", map[string]int{"Turn": live.Turn})
	assert.Equal(t, http.StatusConflict, status, "before the roll: %v", out)
	assert.Equal(t, locales.Tr("en", locales.ErrNotYourTurn), out["error"])

	status, out = post(t, s, session(alice), "api/games/7/play", map[string]any{"Turn": live.Turn, "Action": "roll"})
	require.Equal(t, http.StatusOK, status, "%v", out)
	live = games.tables[7].Live(alice.UserID, "en")
	require.True(t, live.Hints, "the page offers a hint")

	tests := []struct {
		name   string
		as     table.Actor
		game   string
		body   any
		status int
		want   string
	}{
		{"the other player", bob, "7", map[string]int{"Turn": live.Turn}, http.StatusConflict, locales.Tr("en", locales.ErrNotYourTurn)},
		{"a watcher", carol, "7", map[string]int{"Turn": live.Turn}, http.StatusConflict, locales.Tr("en", locales.ErrNotInGame)},
		{"an old turn", alice, "7", map[string]int{"Turn": live.Turn - 1}, http.StatusConflict, locales.Tr("en", locales.ErrNotYourTurn)},
		{"a bad turn", alice, "7", map[string]int{"Turn": -1}, http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton)},
		{"not a game", alice, "x", map[string]int{"Turn": live.Turn}, http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton)},
		{"another guild's game", alice, "8", map[string]int{"Turn": live.Turn}, http.StatusConflict, "There is no game #8 on this server."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := post(t, s, session(tt.as), "api/games/"+tt.game+"/hint", tt.body)
			assert.Equal(t, tt.status, status, "%v", out)
			assert.Equal(t, tt.want, out["error"])
		})
	}

	status, out = post(t, s, session(alice), "api/games/7/hint", map[string]int{"Turn": live.Turn})
	require.Equal(t, http.StatusOK, status, "%v", out)
	assert.Contains(t, live.Moves, table.LiveMove{From: out["From"].(string), To: out["To"].(string)}, "a move Alice may play")
	assert.Contains(t, out["Text"], "💡")
	assert.Equal(t, live.Turn, games.tables[7].State.TurnNumber(), "asking plays nothing")

	games.tables[7].Settings.Hints = false
	status, out = post(t, s, session(alice), "api/games/7/hint", map[string]int{"Turn": live.Turn})
	assert.Equal(t, http.StatusConflict, status)
	assert.Equal(t, locales.Tr("en", locales.HintOff), out["error"])
}

func (f *fakeGames) Viewed(_ context.Context, id int64, guild string) (*table.Table, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.game(id, guild)
}
