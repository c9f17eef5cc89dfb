package activity

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/game"
)

// TestRoutesNeedASession proves that every route that reads or changes a
// game answers 401 in the sign-in's words, and logs it, without a session
// the server signed and that is still good: none, a forged one, one
// signed with another secret, an access token, and one past its end.
func TestRoutesNeedASession(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	good := e.signIn(ben)
	body, _, _ := strings.Cut(good, ".")
	forged := b64.EncodeToString([]byte(`{"u":"`+ben.ID+`","n":"Ben","l":"en","e":"2100-01-01T00:00:00Z"}`)) + "." + strings.SplitN(good, ".", 2)[1]
	otherSecret := newSessions("another secret", time.Now).sign(Session{UserID: ben.ID, Guild: e.fake.GuildID, Expires: time.Now().Add(time.Hour)})
	routes := []struct{ method, path string }{
		{http.MethodGet, "api/games"},
		{http.MethodGet, "api/new"},
		{http.MethodPost, "api/games"},
		{http.MethodGet, gamePath(id, "")},
		{http.MethodPost, gamePath(id, "play")},
		{http.MethodPost, gamePath(id, "lobby")},
		{http.MethodPost, gamePath(id, "hint")},
		{http.MethodGet, gamePath(id, "review")},
	}
	sessions := []struct {
		name, session string
		skip          time.Duration // the Activity's clock ahead
	}{
		{"none", "", 0},
		{"no signature", body, 0},
		{"forged", forged, 0},
		{"signed with another secret", otherSecret, 0},
		{"an access token", "access.whatever", 0},
		{"expired", good, sessionTTL + time.Minute},
	}
	for _, s := range sessions {
		for _, r := range routes {
			t.Run(s.name+" "+r.method+" "+r.path, func(t *testing.T) {
				e.skip.Store(int64(s.skip))
				defer e.skip.Store(0)
				before := len(e.logs.String())
				status, out := e.call(r.method, r.path, s.session, map[string]string{"Action": "join"})
				assert.Equal(t, http.StatusUnauthorized, status, "%v", out)
				want := signInFailed
				if s.name == "expired" {
					want = locales.Tr(ben.Locale, locales.ActivitySignInFailed) // the expired session says Ben reads German
				}
				assert.Equal(t, want, out["error"])
				assert.Contains(t, e.logs.String()[before:], "without a valid session")
			})
		}
	}
	assert.Len(t, e.stored(id).Seats, 1, "Ben joined nothing")
	status, _ := e.call(http.MethodGet, gamePath(id, ""), good, nil)
	assert.Equal(t, http.StatusOK, status, "the good session reads the game")
}

// TestGamesList proves the channel's games list: the open games of the
// session's channel only, the user's first and marked theirs, with their
// status and seats; from a DM an empty list; and a store that fails is a
// 500 in words, logged.
func TestGamesList(t *testing.T) {
	e := newEnv(t)
	anns := e.lobby(ann, e.fake.ChannelID)
	bens := e.lobby(ben, e.fake.ChannelID) // newer: listed first where neither is the user's
	elsewhere := &malefiz.Game{GuildID: e.fake.GuildID, ChannelID: "900000000000000555", HostID: ann.ID, Status: malefiz.StatusLobby,
		Options: malefiz.Options{Seats: 2}, Seats: []malefiz.Seat{{Color: "red", UserID: ann.ID, Name: ann.Name}}}
	require.NoError(t, e.db.CreateGame(t.Context(), elsewhere))
	e.otherGuildGame(ann)

	type entry struct {
		ID     int64
		Status string
		Seats  []string
		Yours  bool
	}
	list := func(session string) (int, []entry) {
		resp, b := e.do(http.MethodGet, "api/games", session, nil)
		var out []entry
		if resp.StatusCode == http.StatusOK {
			require.NoError(t, json.Unmarshal(b, &out), "%s", b)
		}
		return resp.StatusCode, out
	}
	tests := []struct {
		name    string
		session string
		want    []entry
	}{
		{"Ann's first", e.signIn(ann), []entry{{anns, "lobby", []string{"Ann"}, true}, {bens, "lobby", []string{"Ben"}, false}}},
		{"Ben's first", e.signIn(ben), []entry{{bens, "lobby", []string{"Ben"}, true}, {anns, "lobby", []string{"Ann"}, false}}},
		{"nobody's", e.signIn(cat), []entry{{bens, "lobby", []string{"Ben"}, false}, {anns, "lobby", []string{"Ann"}, false}}},
		{"in a DM", e.act.sessions.sign(Session{UserID: ann.ID, Lang: "en", Expires: time.Now().Add(time.Hour)}), []entry{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, got := list(tt.session)
			require.Equal(t, http.StatusOK, status)
			assert.Equal(t, tt.want, got)
		})
	}

	require.NoError(t, e.db.Close())
	status, out := e.call(http.MethodGet, "api/games", e.signIn(ann), nil)
	assert.Equal(t, http.StatusInternalServerError, status)
	assert.Equal(t, locales.Tr("en", locales.ErrNothingChanged), out["error"])
	assert.Contains(t, e.logs.String(), "activity failed")
}

// TestNewLobbyForm proves that the form of a new lobby is the options of
// /malefiz new in the user's language.
func TestNewLobbyForm(t *testing.T) {
	e := newEnv(t)
	for _, tt := range []struct {
		name string
		user string
		lang string
	}{{"English", "ann", "en"}, {"German", "ben", "de"}} {
		t.Run(tt.name, func(t *testing.T) {
			u := map[string]string{"ann": ann.ID, "ben": ben.ID}[tt.user]
			session := e.act.sessions.sign(Session{UserID: u, Lang: tt.lang, Guild: e.fake.GuildID, Expires: time.Now().Add(time.Hour)})
			resp, b := e.do(http.MethodGet, "api/new", session, nil)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			var got []game.FormField
			require.NoError(t, json.Unmarshal(b, &got))
			assert.Equal(t, game.LobbyForm(tt.lang), got)
			require.NotEmpty(t, got)
			assert.Equal(t, locales.Tr(tt.lang, locales.OptSeats), got[0].Label)
		})
	}
}

// TestNewLobby proves that the page opens a lobby in the session's
// channel, hosted by the user, with the options it sends, checked as the
// command checks them, and its card posted in the channel; what the
// command refuses (in the user's words) or a body that is no options
// makes nothing, and a DM has no channel to open one in.
func TestNewLobby(t *testing.T) {
	e := newEnv(t)
	ann := e.signIn(ann)
	ben := e.signIn(ben)
	open := func() int {
		games, err := e.db.OpenGames(t.Context(), e.fake.GuildID, e.fake.ChannelID)
		require.NoError(t, err)
		return len(games)
	}
	tooMany := map[string]any{}
	for i := range 17 {
		tooMany[fmt.Sprint("k", i)] = 1
	}
	refusals := []struct {
		name    string
		session string
		body    any
		status  int
		says    string
	}{
		{"five seats", ann, map[string]any{"seats": 5}, http.StatusConflict, ""},
		{"as many computers as seats", ben, map[string]any{"seats": 2, "bots": 2}, http.StatusConflict, ""},
		{"a level that does not exist", ann, map[string]any{"level": "godlike"}, http.StatusConflict, ""},
		{"not options", ann, `["seats"]`, http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownCommand)},
		{"too many options", ann, tooMany, http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownCommand)},
		{"from a DM", e.act.sessions.sign(Session{UserID: "100000000000000101", Lang: "en", Expires: time.Now().Add(time.Hour)}),
			map[string]any{}, http.StatusConflict, ""},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			status, out := e.call(http.MethodPost, "api/games", tt.session, tt.body)
			assert.Equal(t, tt.status, status, "%v", out)
			require.NotEmpty(t, out["error"])
			if tt.says != "" {
				assert.Equal(t, tt.says, out["error"])
			}
			assert.Zero(t, open(), "no lobby made")
		})
	}
	status, out := e.call(http.MethodPost, "api/games", ben, map[string]any{"seats": 5})
	require.Equal(t, http.StatusConflict, status)
	_, en := e.call(http.MethodPost, "api/games", ann, map[string]any{"seats": 5})
	assert.NotEqual(t, en["error"], out["error"], "each in their own words")

	status, out = e.call(http.MethodPost, "api/games", ann, map[string]any{"seats": 3, "six-again": true})
	require.Equal(t, http.StatusOK, status, "%v", out)
	id := int64(out["ID"].(float64))
	sg := e.stored(id)
	assert.Equal(t, "100000000000000101", sg.HostID)
	assert.Equal(t, e.fake.GuildID, sg.GuildID)
	assert.Equal(t, e.fake.ChannelID, sg.ChannelID)
	assert.Equal(t, 3, sg.Options.Seats)
	assert.True(t, sg.Options.SixAgain)
	assert.Equal(t, 1, open())
	require.Eventually(t, func() bool { return len(e.fake.ChannelMessages(e.fake.ChannelID)) > 0 },
		10*time.Second, 10*time.Millisecond, "the lobby's card is posted")
}

// TestGameView proves that a session reads a game of its guild as the user
// sees it, and that another guild's game and an unknown ID are both
// refused (409, in words, no game shown), and an ID that is no ID is not
// found.
func TestGameView(t *testing.T) {
	e := newEnv(t)
	id := e.running()
	other := e.otherGuildGame(ann)
	ann := e.signIn(ann)
	tests := []struct {
		name   string
		path   string
		status int
		says   string
	}{
		{"another guild's game", gamePath(other, ""), http.StatusConflict, locales.Tr("en", locales.ErrUnknownGame, other)},
		{"an unknown game, as another guild's", gamePath(other+1000, ""), http.StatusConflict, locales.Tr("en", locales.ErrUnknownGame, other+1000)},
		{"no ID", "api/games/x", http.StatusNotFound, locales.Tr("en", locales.ErrNoSuchGame)},
		{"zero", "api/games/0", http.StatusNotFound, locales.Tr("en", locales.ErrNoSuchGame)},
		{"too large", fmt.Sprintf("api/games/%d", table.MaxGameID+1), http.StatusNotFound, locales.Tr("en", locales.ErrNoSuchGame)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := e.call(http.MethodGet, tt.path, ann, nil)
			assert.Equal(t, tt.status, status, "%v", out)
			assert.Equal(t, map[string]any{"error": tt.says}, out, "nothing of the game")
		})
	}

	resp, b := e.do(http.MethodGet, gamePath(id, ""), ann, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
	var live table.Live
	require.NoError(t, json.Unmarshal(b, &live))
	assert.Equal(t, id, live.Game)
	assert.Equal(t, malefiz.StatusRunning, live.Status)
	assert.True(t, live.YourTurn, "Ann begins")
	assert.Equal(t, "roll", live.Phase)
	require.Len(t, live.Seats, 2)
}

// TestPlay proves the play route: the mover's roll and move apply, each
// answered ok and seen in the game; a body that is no play, an argument
// too long, a negative turn or no game ID are 400; a play the table
// refuses (not their turn, an old turn, no such move, another guild's
// game) is 409 in the user's own words, nothing changed.
func TestPlay(t *testing.T) {
	e := newEnv(t)
	id := e.running()
	other := e.otherGuildGame(ann)
	annS, benS := e.signIn(ann), e.signIn(ben)
	live := e.live(id, ann)
	require.True(t, live.YourTurn)
	path := gamePath(id, "play")
	roll := map[string]any{"Turn": live.Turn, "Action": "roll"}
	tests := []struct {
		name    string
		session string
		path    string
		body    any
		status  int
		says    string
	}{
		{"not JSON", annS, path, "{", http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton)},
		{"an argument too long", annS, path, map[string]any{"Turn": live.Turn, "Action": "move", "Arg": strings.Repeat("a", table.MaxArgLen+1)},
			http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton)},
		{"a negative turn", annS, path, map[string]any{"Turn": -1, "Action": "roll"}, http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton)},
		{"no game ID", annS, "api/games/x/play", roll, http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton)},
		{"a body too large", annS, path, `{"Arg":"` + strings.Repeat("a", 5000) + `"}`, http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton)},
		{"not his turn, in German", benS, path, roll, http.StatusConflict, locales.Tr("de", locales.ErrNotYourTurn)},
		{"another guild's game", annS, gamePath(other, "play"), roll, http.StatusConflict, locales.Tr("en", locales.ErrUnknownGame, other)},
		{"an unknown action", annS, path, map[string]any{"Turn": live.Turn, "Action": "rematch"}, http.StatusConflict, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := e.call(http.MethodPost, tt.path, tt.session, tt.body)
			assert.Equal(t, tt.status, status, "%v", out)
			if tt.says != "" {
				assert.Equal(t, tt.says, out["error"])
			} else {
				assert.NotEmpty(t, out["error"])
			}
			assert.Equal(t, live, e.live(id, ann), "nothing changed")
		})
	}

	status, out := e.call(http.MethodPost, path, annS, roll)
	require.Equal(t, http.StatusOK, status, "%v", out)
	assert.Equal(t, map[string]any{"ok": true}, out)
	rolled := e.live(id, ann)
	assert.Equal(t, "move", rolled.Phase)
	assert.Equal(t, 4, rolled.Roll)
	require.NotEmpty(t, rolled.Moves)

	status, out = e.call(http.MethodPost, path, annS, roll)
	assert.Equal(t, http.StatusConflict, status, "the roll again: %v", out)
	assert.NotEmpty(t, out["error"])
	status, out = e.call(http.MethodPost, path, annS, map[string]any{"Turn": rolled.Turn, "Action": "move", "Arg": "a1-q14"})
	assert.Equal(t, http.StatusConflict, status, "no such move: %v", out)
	assert.Equal(t, rolled, e.live(id, ann), "nothing changed")

	mv := rolled.Moves[0]
	status, out = e.call(http.MethodPost, path, annS, map[string]any{"Turn": rolled.Turn, "Action": "move", "Arg": mv.From + "-" + mv.To})
	require.Equal(t, http.StatusOK, status, "%v", out)
	moved := e.live(id, ann)
	assert.NotEqual(t, rolled.Pawns, moved.Pawns, "the pawn moved")
	assert.False(t, moved.YourTurn, "Ben's turn")
}

// TestPlayLimit proves that a user's plays past the burst are refused in
// their words (429) before the game is read, and logged, while another
// user plays on.
func TestPlayLimit(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.PlaysPerMinute = 1 })
	id := e.running()
	benS, catS := e.signIn(ben), e.signIn(cat)
	path := gamePath(id, "play")
	play := map[string]any{"Turn": e.live(id, ann).Turn, "Action": "roll"}
	for i := range 20 {
		status, _ := e.call(http.MethodPost, path, benS, play)
		require.Equal(t, http.StatusConflict, status, "play %d reaches the game", i)
	}
	status, out := e.call(http.MethodPost, path, benS, play)
	assert.Equal(t, http.StatusTooManyRequests, status)
	assert.Equal(t, locales.Tr("de", locales.ActivityTooFast), out["error"])
	assert.Contains(t, e.logs.String(), "rate limited "+ben.ID)
	status, _ = e.call(http.MethodPost, gamePath(id, "lobby"), benS, map[string]string{"Action": "leave"})
	assert.Equal(t, http.StatusTooManyRequests, status, "lobby actions count with plays")
	status, _ = e.call(http.MethodPost, path, catS, play)
	assert.Equal(t, http.StatusConflict, status, "Cat has her own bucket")
}

// TestLobbyRoute proves the lobby actions through the game service: Ben
// joins and leaves, a computer is added and removed by the host, only the
// host starts; an unknown action or a bad body changes nothing.
func TestLobbyRoute(t *testing.T) {
	e := newEnv(t)
	id := e.lobby(ann, e.fake.ChannelID)
	annS, benS, catS := e.signIn(ann), e.signIn(ben), e.signIn(cat)
	seats := func() []string {
		var out []string
		for _, s := range e.stored(id).Seats {
			if !s.Left {
				out = append(out, s.Name)
			}
		}
		return out
	}
	steps := []struct {
		name    string
		session string
		body    any
		status  int
		says    string
		seats   []string
	}{
		{"an unknown action", annS, map[string]string{"Action": "dance"}, http.StatusConflict, locales.Tr("en", locales.ErrUnknownButton), []string{"Ann"}},
		{"not JSON", annS, "join", http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton), []string{"Ann"}},
		{"an argument too long", annS, map[string]string{"Action": "addbot", "Arg": strings.Repeat("x", table.MaxArgLen+1)},
			http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton), []string{"Ann"}},
		{"Ben joins", benS, map[string]string{"Action": LobbyJoin}, http.StatusOK, "", []string{"Ann", "Ben"}},
		{"Ben leaves", benS, map[string]string{"Action": LobbyLeave}, http.StatusOK, "", []string{"Ann"}},
		{"the host adds a computer", annS, map[string]string{"Action": LobbyAddComputer, "Arg": "easy"}, http.StatusOK, "", nil},
		{"the host removes it", annS, map[string]string{"Action": LobbyRemoveComputer, "Arg": "green"}, http.StatusOK, "", []string{"Ann"}},
		{"Cat joins", catS, map[string]string{"Action": LobbyJoin}, http.StatusOK, "", []string{"Ann", "Cat"}},
		{"Cat may not start", catS, map[string]string{"Action": LobbyStart}, http.StatusConflict, "", []string{"Ann", "Cat"}},
		{"the host starts", annS, map[string]string{"Action": LobbyStart}, http.StatusOK, "", []string{"Ann", "Cat"}},
	}
	for _, tt := range steps {
		t.Run(tt.name, func(t *testing.T) {
			status, out := e.call(http.MethodPost, gamePath(id, "lobby"), tt.session, tt.body)
			assert.Equal(t, tt.status, status, "%v", out)
			if tt.status != http.StatusOK {
				require.NotEmpty(t, out["error"])
			}
			if tt.says != "" {
				assert.Equal(t, tt.says, out["error"])
			}
			if tt.seats != nil {
				assert.Equal(t, tt.seats, seats())
			} else {
				assert.Len(t, seats(), 2)
			}
		})
	}
	assert.Equal(t, malefiz.StatusRunning, e.stored(id).Status)
}

// TestHintThroughTheService proves the hint through the game service: where the
// server's hints are on, the player to move gets the move the computer
// would play, among their moves, and nothing is played; the other player
// is refused in their words, a bad body is 400; where hints are off it is
// refused.
func TestHintThroughTheService(t *testing.T) {
	e := newEnv(t)
	settings, err := e.db.GuildSettings(t.Context(), e.fake.GuildID)
	require.NoError(t, err)
	settings.Hints = true
	require.NoError(t, e.db.SetGuildSettings(t.Context(), e.fake.GuildID, settings))
	id := e.running()
	annS, benS := e.signIn(ann), e.signIn(ben)
	status, out := e.call(http.MethodPost, gamePath(id, "play"), annS, map[string]any{"Turn": e.live(id, ann).Turn, "Action": "roll"})
	require.Equal(t, http.StatusOK, status, "%v", out)
	live := e.live(id, ann)
	require.True(t, live.Hints, "Ann may ask")
	tests := []struct {
		name    string
		session string
		path    string
		body    any
		status  int
		says    string
	}{
		{"the other player, in German", benS, gamePath(id, "hint"), map[string]int{"Turn": live.Turn}, http.StatusConflict, locales.Tr("de", locales.ErrNotYourTurn)},
		{"a negative turn", annS, gamePath(id, "hint"), map[string]int{"Turn": -1}, http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton)},
		{"not JSON", annS, gamePath(id, "hint"), "?", http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton)},
		{"no game ID", annS, "api/games/-1/hint", map[string]int{"Turn": live.Turn}, http.StatusBadRequest, locales.Tr("en", locales.ErrUnknownButton)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := e.call(http.MethodPost, tt.path, tt.session, tt.body)
			assert.Equal(t, tt.status, status, "%v", out)
			assert.Equal(t, tt.says, out["error"])
		})
	}
	status, out = e.call(http.MethodPost, gamePath(id, "hint"), annS, map[string]int{"Turn": live.Turn})
	require.Equal(t, http.StatusOK, status, "%v", out)
	assert.Contains(t, live.Moves, table.LiveMove{From: out["From"].(string), To: out["To"].(string)}, "one of Ann's moves")
	assert.NotEmpty(t, out["Text"])
	assert.Equal(t, live, e.live(id, ann), "asking plays nothing")

	settings.Hints = false
	require.NoError(t, e.db.SetGuildSettings(t.Context(), e.fake.GuildID, settings))
	status, out = e.call(http.MethodPost, gamePath(id, "hint"), annS, map[string]int{"Turn": live.Turn})
	assert.Equal(t, http.StatusConflict, status)
	assert.Equal(t, locales.Tr("en", locales.HintOff), out["error"])
}

// TestNewLobbyCapped proves that the board's new lobby is bounded as the
// command's is (the service decides): past the host's open lobbies in the
// channel, refused in the command's words, nothing opened.
func TestNewLobbyCapped(t *testing.T) {
	e := newEnv(t)
	sess := e.signIn(ann)
	for range game.DefaultLobbiesPerUser {
		e.lobby(ann, e.fake.ChannelID)
	}
	status, out := e.call(http.MethodPost, "api/games", sess, map[string]any{"seats": 2})
	assert.Equal(t, http.StatusConflict, status)
	assert.Equal(t, locales.Tr("en", locales.ErrTooManyLobbies, game.DefaultLobbiesPerUser), out["error"])
	games, err := e.db.OpenGames(t.Context(), e.fake.GuildID, e.fake.ChannelID)
	require.NoError(t, err)
	assert.Len(t, games, game.DefaultLobbiesPerUser)
}

// TestUnauthenticatedLogsAreBounded proves that requests without a valid
// session cannot flood the log: past the minute's lines (here 5) each is
// still refused but not logged, and the first line of the next minute
// says how many were left out.
func TestUnauthenticatedLogsAreBounded(t *testing.T) {
	const burst, sent = 5, 12
	e := newEnv(t, func(c *Config) { c.UnauthenticatedLogs = burst })
	lines := func() []string {
		var out []string
		for l := range strings.Lines(e.logs.String()) {
			if strings.Contains(l, "without a valid session") {
				out = append(out, l)
			}
		}
		return out
	}
	for i := range sent {
		status, out := e.call(http.MethodGet, "api/games", "forged.session", nil)
		require.Equal(t, http.StatusUnauthorized, status, "request %d: %v", i, out)
	}
	got := lines()
	require.Len(t, got, burst, "lines logged in the first minute")
	for _, l := range got {
		assert.NotContains(t, l, "suppressed_before")
	}

	e.skip.Store(int64(time.Minute + time.Second))
	status, _ := e.call(http.MethodGet, "api/games", "", nil)
	require.Equal(t, http.StatusUnauthorized, status)
	got = lines()
	require.Len(t, got, burst+1)
	assert.Contains(t, got[burst], fmt.Sprintf("suppressed_before=%d", sent-burst))
	status, _ = e.call(http.MethodGet, "api/games", "", nil)
	require.Equal(t, http.StatusUnauthorized, status)
	got = lines()
	require.Len(t, got, burst+2)
	assert.NotContains(t, got[burst+1], "suppressed_before", "the count is said once")
}
