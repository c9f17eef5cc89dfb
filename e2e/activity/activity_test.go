package activity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/activity"
	"github.com/malefiz-discord/malefiz/bot/locales"
	gametable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/sandbox"
	"github.com/malefiz-discord/malefiz/serve"
)

// activityCall sends a request to the Activity with a session (none when
// ""), and returns the status and the JSON answer.
func activityCall(t testing.TB, srv *httptest.Server, method, path, session string, body any) (int, map[string]any) {
	t.Helper()
	var data []byte
	if body != nil {
		data, _ = json.Marshal(body)
	}
	req, err := http.NewRequest(method, srv.URL+"/.proxy/"+path, bytes.NewReader(data))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if session != "" {
		req.Header.Set("Authorization", "Bearer "+session)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

// signIn signs a sandbox user in as the page does: a code from the
// stand-in's authorize, exchanged by the server.
func signIn(t testing.TB, app *sandbox.App, srv *httptest.Server, u sandbox.User) string {
	t.Helper()
	code, err := app.Fake.Authorize(app.Fake.AppID, fakediscord.OAuth2User{ID: u.ID, Name: u.Name}, []string{"identify"})
	require.NoError(t, err)
	status, out := activityCall(t, srv, http.MethodPost, "api/token", "", tokenRequest(app, code))
	require.Equal(t, http.StatusOK, status, "%v", out)
	assert.NotContains(t, fmt.Sprint(out), app.Fake.ClientSecret(), "the secret stays on the server")
	return out["session"].(string)
}

// tokenRequest is the page's sign-in: the code, and the guild and channel
// the sandbox's Activity is opened in.
func tokenRequest(app *sandbox.App, code string) map[string]string {
	return map[string]string{"Code": code, "Guild": app.Fake.GuildID, "Channel": app.Fake.ChannelID}
}

// liveOf reads the game as user sees it.
func liveOf(t testing.TB, srv *httptest.Server, id int64, session string) gametable.Live {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/.proxy/api/games/%d", srv.URL, id), nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+session)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var l gametable.Live
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&l))
	return l
}

// movesBy counts the moves userID played in game id.
func movesBy(t *testing.T, app *sandbox.App, id int64, userID string) int {
	t.Helper()
	events, err := app.Main.DB().Events(t.Context(), id)
	require.NoError(t, err)
	n := 0
	for _, e := range events {
		if e.Kind == malefiz.EventMove && e.UserID == userID {
			n++
		}
	}
	return n
}

// TestActivityRefusesBadPlays sends the Activity each bad input the issue
// lists: a clear message, nothing changed, logged.
func TestActivityRefusesBadPlays(t *testing.T) {
	// One play a minute after the burst of 20: the burst's refusals below
	// do not depend on how fast a loaded machine sends them (at the
	// default, one each 0.5 s, 25 plays taking 3 s under -race on a busy
	// machine were refused only once).
	app, srv, users, logs := activitySandboxWith(t, 5, func(c *activity.Config) { c.PlaysPerMinute = 1 })
	id := newActivityGame(t, app, srv, users)
	alice := signIn(t, app, srv, users[0])
	bob := signIn(t, app, srv, users[1])
	carol := signIn(t, app, srv, users[2])
	other := gameOfAnotherGuild(t, app, users[0])

	live := liveOf(t, srv, id, alice)
	require.True(t, live.YourTurn, "Alice begins: %+v", live)
	require.NotEmpty(t, live.Moves)
	mv := live.Moves[0]
	play := map[string]any{"Turn": live.Turn, "Action": "move", "Arg": mv.From + "-" + mv.To}
	path := fmt.Sprintf("api/games/%d/play", id)
	forged := alice[:strings.Index(alice, ".")] + ".AAAA"
	tests := []struct {
		name    string
		session string
		path    string
		play    map[string]any
		status  int
		says    string
		logged  string
	}{
		{"no session", "", path, play, http.StatusUnauthorized, "could not sign you in", "without a valid session"},
		{"forged session", forged, path, play, http.StatusUnauthorized, "could not sign you in", "without a valid session"},
		{"an access token as a session", "access.whatever", path, play, http.StatusUnauthorized, "could not sign you in", "without a valid session"},
		{"not seated", carol, path, play, http.StatusConflict, "not in this game", "activity refused"},
		{"not their turn", bob, path, play, http.StatusConflict, "turn", "activity refused"},
		{"old turn", alice, path, map[string]any{"Turn": live.Turn - 1, "Action": "move", "Arg": play["Arg"]}, http.StatusConflict, "earlier turn", "activity refused"},
		{"a pawn pick is the page's", alice, path, map[string]any{"Turn": live.Turn, "Action": "pawn", "Arg": mv.From}, http.StatusConflict, "", "activity refused"},
		{"no such move", alice, path, map[string]any{"Turn": live.Turn, "Action": "move", "Arg": "a1-q14"}, http.StatusConflict, "", "activity refused"},
		{"unknown action", alice, path, map[string]any{"Turn": live.Turn, "Action": "rematch"}, http.StatusConflict, "", "activity refused"},
		{"another guild's game, played", alice, fmt.Sprintf("api/games/%d/play", other), map[string]any{"Turn": 0, "Action": "roll"},
			http.StatusConflict, fmt.Sprintf("no game #%d on this server", other), "activity refused"},
		{"another guild's lobby, joined", bob, fmt.Sprintf("api/games/%d/lobby", other), map[string]any{"Action": "join"},
			http.StatusConflict, fmt.Sprintf("no game #%d on this server", other), "activity refused"},
		{"another guild's lobby, started by its host", alice, fmt.Sprintf("api/games/%d/lobby", other), map[string]any{"Action": "start"},
			http.StatusConflict, fmt.Sprintf("no game #%d on this server", other), "activity refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(logs.String())
			status, out := activityCall(t, srv, http.MethodPost, tt.path, tt.session, tt.play)
			assert.Equal(t, tt.status, status, "%v", out)
			assert.Contains(t, out["error"], tt.says)
			assert.Equal(t, live.Turn, liveOf(t, srv, id, alice).Turn, "nothing changed")
			assert.Contains(t, logs.String()[before:], tt.logged, "the refusal is logged")
		})
	}
	assert.Zero(t, movesBy(t, app, id, users[0].ID), "no move was played")
	sg, err := app.Main.DB().Game(t.Context(), other)
	require.NoError(t, err)
	assert.Len(t, sg.Seats, 1, "nobody joined the other guild's lobby")
	assert.Equal(t, malefiz.StatusLobby, sg.Status, "nor started it")

	// Another guild's game is not read either, by a request or a socket.
	status, out := activityCall(t, srv, http.MethodGet, fmt.Sprintf("api/games/%d", other), alice, nil)
	assert.Equal(t, http.StatusConflict, status)
	assert.Contains(t, out["error"], fmt.Sprintf("no game #%d on this server", other))
	dialer := websocket.Dialer{Subprotocols: activity.LiveProtocols(alice)}
	conn, _, err := dialer.Dial(fmt.Sprintf("ws%s/.proxy/api/games/%d/live", strings.TrimPrefix(srv.URL, "http"), other), nil)
	require.NoError(t, err)
	defer conn.Close()
	var refused map[string]any
	require.NoError(t, conn.ReadJSON(&refused))
	assert.Contains(t, refused["error"], fmt.Sprintf("no game #%d on this server", other), "the socket says why")
	_, _, err = conn.ReadMessage()
	var closed *websocket.CloseError
	require.ErrorAs(t, err, &closed)
	assert.Equal(t, 4004, closed.Code, "and closes without a state")

	// The same play twice at once (a double tap, a resent request): one
	// applies, the other is refused.
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range statuses {
		wg.Go(func() { statuses[i], _ = activityCall(t, srv, http.MethodPost, path, alice, play) })
	}
	wg.Wait()
	assert.ElementsMatch(t, []int{http.StatusOK, http.StatusConflict}, statuses)
	assert.Equal(t, 1, movesBy(t, app, id, users[0].ID), "the move applied once")

	// The same play replayed later: its turn is over.
	before := len(logs.String())
	status, out = activityCall(t, srv, http.MethodPost, path, alice, play)
	assert.Equal(t, http.StatusConflict, status, "%v", out)
	assert.NotEmpty(t, out["error"])
	assert.Equal(t, 1, movesBy(t, app, id, users[0].ID), "the replay changed nothing")
	assert.Contains(t, logs.String()[before:], "activity refused")

	// Plays faster than a person taps: past 20 at once (Carol played
	// one above), refused before the game is read; here one more a minute.
	counts := map[int]int{}
	for range 25 {
		status, out := activityCall(t, srv, http.MethodPost, path, carol, play)
		counts[status]++
		if status == http.StatusTooManyRequests {
			assert.Equal(t, "Too many moves at once: wait a moment.", out["error"])
		}
	}
	assert.Len(t, counts, 2, "refused by the game or as too fast: %v", counts)
	assert.GreaterOrEqual(t, counts[http.StatusTooManyRequests], 4, "too fast: %v", counts)
	assert.Contains(t, logs.String(), "rate limited "+users[2].ID)
}

// gameOfAnotherGuild stores a lobby hosted by host in a guild that is not
// the sandbox's, and returns its ID.
func gameOfAnotherGuild(t testing.TB, app *sandbox.App, host sandbox.User) int64 {
	t.Helper()
	g := &malefiz.Game{GuildID: "900000000000000999", ChannelID: "900000000000000998", HostID: host.ID,
		Status: malefiz.StatusLobby, Options: malefiz.Options{Seats: 2},
		Seats: []malefiz.Seat{{Color: "red", UserID: host.ID, Name: host.Name}}}
	require.NoError(t, app.Main.DB().CreateGame(t.Context(), g))
	return g.ID
}

// TestActivityRefusesAnExpiredSession signs Bob in, lets the Activity's
// clock pass the session's end, and has him join a lobby: refused in
// words, nothing changed, logged.
func TestActivityRefusesAnExpiredSession(t *testing.T) {
	var skipped atomic.Int64 // the Activity's clock runs ahead of the real one by this
	app, srv, users, logs := activitySandboxWith(t, 5, func(c *activity.Config) {
		c.Now = func() time.Time { return time.Now().Add(time.Duration(skipped.Load())) }
	})
	bob := signIn(t, app, srv, users[1])
	skipped.Store(int64(13 * time.Hour)) // a session lasts 12 h at most
	id, _ := newActivityLobby(t, app, srv, users)
	before := len(logs.String())
	status, out := activityCall(t, srv, http.MethodPost, fmt.Sprintf("api/games/%d/lobby", id), bob, map[string]string{"Action": "join"})
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Contains(t, out["error"], "could not sign you in")
	assert.Contains(t, logs.String()[before:], "without a valid session")
	sg, err := app.Main.DB().Game(t.Context(), id)
	require.NoError(t, err)
	assert.Len(t, sg.Seats, 1, "Bob did not join")
}

// TestActivitySignIn sends the sign-in what a page should not: a forged
// code, a guild the user is not in, an ID that is no ID, too many at
// once; and opens it in a DM, where it has no game to show.
func TestActivitySignIn(t *testing.T) {
	app, srv, users, logs := activityLoggedSandbox(t)
	code := func(u sandbox.User) string {
		c, err := app.Fake.Authorize(app.Fake.AppID, fakediscord.OAuth2User{ID: u.ID, Name: u.Name}, []string{"identify"})
		require.NoError(t, err)
		return c
	}
	stranger := sandbox.User{ID: "100000000000000077", Name: "Eve"} // not a member of the sandbox's guild
	tests := []struct {
		name   string
		body   map[string]string
		status int
		logged string
	}{
		{"a forged code", map[string]string{"Code": "forged", "Guild": app.Fake.GuildID}, http.StatusUnauthorized, "sign-in refused"},
		{"no code", map[string]string{"Guild": app.Fake.GuildID}, http.StatusBadRequest, "bad token request"},
		{"a guild that is no ID", map[string]string{"Code": code(users[0]), "Guild": "../1"}, http.StatusBadRequest, "bad token request"},
		{"a guild the user is not in", map[string]string{"Code": code(users[0]), "Guild": "900000000000000999"}, http.StatusForbidden, "not a member"},
		{"a channel that is not the guild's", map[string]string{"Code": code(users[0]), "Guild": app.Fake.GuildID, "Channel": "900000000000000998"},
			http.StatusForbidden, "not of its guild"},
		{"a guild without its channel", map[string]string{"Code": code(users[0]), "Guild": app.Fake.GuildID}, http.StatusForbidden, "not of its guild"},
		{"a stranger in the sandbox's guild", map[string]string{"Code": code(stranger), "Guild": app.Fake.GuildID}, http.StatusForbidden, "not a member"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(logs.String())
			status, out := activityCall(t, srv, http.MethodPost, "api/token", "", tt.body)
			assert.Equal(t, tt.status, status, "%v", out)
			assert.Contains(t, out["error"], "could not sign you in")
			assert.Nil(t, out["session"])
			assert.Contains(t, logs.String()[before:], tt.logged)
		})
	}

	t.Run("in a DM", func(t *testing.T) {
		id, _ := newActivityLobby(t, app, srv, users)
		status, out := activityCall(t, srv, http.MethodPost, "api/token", "", map[string]string{"Code": code(users[0])})
		require.Equal(t, http.StatusOK, status, "%v", out)
		dm := out["session"].(string)
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/.proxy/api/games", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+dm)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var games []any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&games))
		resp.Body.Close()
		assert.Empty(t, games, "a DM has no games")
		status, out = activityCall(t, srv, http.MethodGet, fmt.Sprintf("api/games/%d", id), dm, nil)
		assert.Equal(t, http.StatusConflict, status, "nor reads a guild's: %v", out)
	})

	t.Run("too many", func(t *testing.T) {
		// One user: five at once, then one each 6 s.
		var statuses []int
		for range 6 {
			status, _ := activityCall(t, srv, http.MethodPost, "api/token", "", tokenRequest(app, code(users[1])))
			statuses = append(statuses, status)
		}
		assert.Equal(t, []int{200, 200, 200, 200, 200, http.StatusTooManyRequests}, statuses)
		// One address: fifty at once, before Discord is asked anything.
		calls := len(app.Fake.Calls())
		refused := 0
		for range 60 {
			if status, _ := activityCall(t, srv, http.MethodPost, "api/token", "", map[string]string{"Code": "x"}); status == http.StatusTooManyRequests {
				refused++
			}
		}
		assert.Positive(t, refused, "the address is bounded")
		assert.LessOrEqual(t, len(app.Fake.Calls())-calls, 60-refused, "a refused sign-in costs no call to Discord")
		assert.Contains(t, logs.String(), "sign-ins from")
	})
}

// TestActivitySignInAsksDiscordForTheMember signs in on the bot as it
// runs in production, not in the sandbox: whether the user is a member of
// the guild the page names is asked of the stand-in with the bot's token
// (GET /guilds/{guild}/members/{user}). A member signs in; a user who is
// not one, or who left, is refused with the sign-in's message, logged,
// and gets no session.
func TestActivitySignInAsksDiscordForTheMember(t *testing.T) {
	const eve = "100000000000000099" // no member of the guild
	fake := fakediscord.New(t, fakediscord.WithApplicationFlags(fakediscord.ApplicationFlagEmbedded),
		fakediscord.WithGuild(fakediscord.Guild{ID: "1000000000000000001", Members: []fakediscord.Member{{ID: harness.Alice, Name: "alice"}}}))
	require.NoError(t, fake.AddMember(fake.GuildID, fakediscord.Member{ID: harness.Bob, Name: "bob"}))
	cfg := serve.DefaultConfig()
	cfg.Discord.Token, cfg.Discord.APIURL, cfg.Discord.GuildIDs = fake.Token(), fake.URL(), []string{fake.GuildID}
	cfg.Discord.ClientSecret = fake.ClientSecret()
	cfg.Database.Path = filepath.Join(t.TempDir(), "malefiz.db")
	cfg.HTTP.Listen = "127.0.0.1:0"
	var logs harness.LogBuffer
	m := &serve.Main{Config: cfg, Logger: harness.Logger(&logs)}
	require.NoError(t, m.Run(t.Context()))
	t.Cleanup(func() { assert.NoError(t, m.Close()) })
	require.Eventually(t, func() bool { return m.Activity() != nil && len(fake.Commands(fake.GuildID)) > 0 }, harness.Patience, 10*time.Millisecond)
	signIn := func(t *testing.T, user, name string) (int, map[string]any) {
		t.Helper()
		code, err := fake.Authorize(fake.AppID, fakediscord.OAuth2User{ID: user, Name: name}, []string{"identify"})
		require.NoError(t, err)
		body, err := json.Marshal(map[string]string{"Code": code, "Guild": fake.GuildID, "Channel": fake.ChannelID})
		require.NoError(t, err)
		resp, err := http.Post("http://"+m.HTTPAddr()+"/.proxy/api/token", "application/json", bytes.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		return resp.StatusCode, out
	}
	tests := []struct {
		name, user, userName string
		leaves               bool // the user leaves the guild first
		status, asked        int  // the sign-in's status, Discord's answer to the member call
	}{
		{"a member", harness.Alice, "Alice", false, http.StatusOK, http.StatusOK},
		{"a member added later", harness.Bob, "Bob", false, http.StatusOK, http.StatusOK},
		{"not a member", eve, "Eve", false, http.StatusForbidden, http.StatusNotFound},
		{"a member who left", harness.Bob, "Bob", true, http.StatusForbidden, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.leaves {
				require.True(t, fake.RemoveMember(fake.GuildID, tt.user))
			}
			before, calls := len(logs.String()), len(fake.Calls())
			status, out := signIn(t, tt.user, tt.userName)
			assert.Equal(t, tt.status, status, "%v", out)
			var asked []fakediscord.Call
			for _, c := range fake.Calls()[calls:] {
				if c.Route == fakediscord.RouteGuildMember {
					asked = append(asked, c)
				}
			}
			require.Len(t, asked, 1, "Discord is asked once")
			assert.Equal(t, tt.user, asked[0].Param("user"))
			assert.Equal(t, fake.GuildID, asked[0].Param("guild"))
			assert.Equal(t, "Bot "+fake.Token(), asked[0].Header.Get("Authorization"), "with the bot's token")
			assert.Equal(t, tt.asked, asked[0].Status)
			if tt.status == http.StatusOK {
				assert.NotEmpty(t, out["session"])
				return
			}
			assert.Nil(t, out["session"])
			assert.Equal(t, "Discord could not sign you in. Close the board and open it again.", out["error"])
			assert.Contains(t, logs.String()[before:], "not a member of the guild the page names")
		})
	}
}

// TestActivityRacesAClick sends a play in the Activity and the click of
// the same move in the thread at once: one applies.
func TestActivityRacesAClick(t *testing.T) {
	app, srv, id, users := activityGame(t)
	alice := signIn(t, app, srv, users[0])
	live := liveOf(t, srv, id, alice)
	require.True(t, live.YourTurn)
	msg, cids := threadTurnMessage(t, app, id, live.Turn)
	var click string
	for _, c := range cids {
		if strings.HasPrefix(c, "mf/move/") {
			click = c
			break
		}
	}
	require.NotEmpty(t, click, "the turn card has move buttons: %v", cids)
	arg := click[strings.LastIndex(click, "/")+1:]
	var wg sync.WaitGroup
	var playStatus int
	wg.Go(func() {
		playStatus, _ = activityCall(t, srv, http.MethodPost, fmt.Sprintf("api/games/%d/play", id), alice,
			map[string]any{"Turn": live.Turn, "Action": "move", "Arg": arg})
	})
	wg.Go(func() {
		body, _ := json.Marshal(map[string]string{"user": users[0].ID, "message": msg.ID, "custom_id": click})
		resp, err := http.Post(srv.URL+"/api/click", "application/json", bytes.NewReader(body))
		if err == nil {
			resp.Body.Close()
		}
	})
	wg.Wait()
	assert.Contains(t, []int{http.StatusOK, http.StatusConflict}, playStatus)
	assert.Equal(t, 1, movesBy(t, app, id, users[0].ID), "the move applied once")
}

// TestPlayOnTheBoard clicks Play on the board on the card in the channel
// and on the turn card in the thread, as a player and as Carol, who only
// watches: Discord is answered LAUNCH_ACTIVITY, which the sandbox page
// turns into the Activity, and the game is not changed.
func TestPlayOnTheBoard(t *testing.T) {
	app, srv, id, users := activityGame(t)
	board := fmt.Sprintf("mf/board/%d/0", id)
	var sg *malefiz.Game
	require.Eventually(t, func() bool {
		var err error
		sg, err = app.Main.DB().Game(t.Context(), id)
		require.NoError(t, err)
		m, ok := app.Fake.Message(sg.LobbyMessageID)
		turn, posted := app.Fake.Message(sg.TurnMessageID)
		return ok && slices.Contains(m.CustomIDs(), board) && posted && slices.Contains(turn.CustomIDs(), board)
	}, harness.Patience, 20*time.Millisecond, "the card and the turn card of the running game offer the board")
	for _, c := range []struct {
		name, message, user string
	}{
		{"the card, by a player", sg.LobbyMessageID, users[1].ID},
		{"the turn card, by a watcher", sg.TurnMessageID, users[2].ID},
		{"the turn card, by a player", sg.TurnMessageID, users[0].ID},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, _ := app.Fake.Message(c.message)
			assert.Contains(t, m.Labels(), "Play on the board")
			out := sandboxPost(t, srv, "/api/click", map[string]string{"user": c.user, "message": c.message, "custom_id": board})
			assert.Equal(t, true, out["launch"], "Discord opens the Activity: %v", out)
			after, err := app.Main.DB().Game(t.Context(), id)
			require.NoError(t, err)
			assert.Equal(t, sg.Version, after.Version, "the game is not changed")
		})
	}
}

// TestGlobalCommandsKeepTheEntryPoint starts the bot with the Activity on
// and its commands registered globally, on an app whose Activities are
// enabled: the overwrite keeps Discord's Entry Point command (Discord
// refuses one that leaves it out), now with its description, and every
// command, subcommand and option has its name and description in the
// bot's eight languages (English the default, the others as Discord's
// localizations, which the stand-in checks as Discord does). A German
// browser's sign-in refused before Discord names the user reads German.
func TestGlobalCommandsKeepTheEntryPoint(t *testing.T) {
	fake := fakediscord.New(t, fakediscord.WithApplicationFlags(fakediscord.ApplicationFlagEmbedded))
	entry := fake.Commands("")[0]
	cfg := serve.DefaultConfig()
	cfg.Discord.Token, cfg.Discord.APIURL = fake.Token(), fake.URL()
	cfg.Discord.ClientSecret = fake.ClientSecret()
	cfg.Database.Path = filepath.Join(t.TempDir(), "malefiz.db")
	cfg.HTTP.Listen = "127.0.0.1:0"
	var logs harness.LogBuffer
	m := &serve.Main{Config: cfg, Logger: harness.Logger(&logs)}
	require.NoError(t, m.Run(t.Context()))
	t.Cleanup(func() { assert.NoError(t, m.Close()) })
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 2 }, harness.Patience, 10*time.Millisecond,
		"the global commands: %v; logs: %s", fake.Commands(""), logs.String())
	var names []string
	for _, c := range fake.Commands("") {
		names = append(names, c.Name)
		if c.Type == fakediscord.CommandTypePrimaryEntryPoint {
			assert.Equal(t, entry.ID, c.ID, "the Entry Point is kept as it was")
			assert.Equal(t, locales.Tr("en", locales.ButtonBoard), c.Description)
		}
		inEightLanguages(t, c.Name, c.NameLocalizations, c.DescriptionLocalizations)
		var walk func(opts []*discordgo.ApplicationCommandOption)
		walk = func(opts []*discordgo.ApplicationCommandOption) {
			for _, o := range opts {
				inEightLanguages(t, c.Name+" "+o.Name, &o.NameLocalizations, &o.DescriptionLocalizations)
				walk(o.Options)
			}
		}
		walk(c.Options)
	}
	assert.ElementsMatch(t, []string{"malefiz", "launch"}, names)
	assert.NotContains(t, logs.String(), "could not register")

	req, err := http.NewRequest(http.MethodPost, "http://"+m.HTTPAddr()+"/.proxy/api/token",
		strings.NewReader(`{"Code": "forged", "Guild": "", "Channel": ""}`))
	require.NoError(t, err)
	req.Header.Set("Accept-Language", "de-DE,de;q=0.9,en;q=0.5")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var refusal map[string]string
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&refusal))
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Equal(t, locales.Tr("de", locales.ActivitySignInFailed), refusal["error"], "refused in German before sign-in")
}

// otherLocales are Discord's locales of the bot's seven languages besides
// English, which is every command's default.
var otherLocales = []discordgo.Locale{discordgo.German, discordgo.SpanishES, discordgo.French, discordgo.Italian,
	discordgo.Dutch, discordgo.Polish, discordgo.PortugueseBR}

// inEightLanguages checks that what has names and descriptions has both
// in each of otherLocales.
func inEightLanguages(t *testing.T, what string, names, descs *map[discordgo.Locale]string) {
	t.Helper()
	require.NotNil(t, names, "%s: no name_localizations", what)
	require.NotNil(t, descs, "%s: no description_localizations", what)
	for _, l := range otherLocales {
		assert.NotEmpty(t, (*names)[l], "%s: no name in %s", what, l)
		assert.NotEmpty(t, (*descs)[l], "%s: no description in %s", what, l)
	}
}

// TestActivityLobby takes a seat and starts the game from the Activity:
// the lobby decides who may, and the lobby message in the channel becomes
// the card.
func TestActivityLobby(t *testing.T) {
	app, srv, users := activitySandbox(t)
	id, lobbyMsg := newActivityLobby(t, app, srv, users)
	// The lobby made by /malefiz new offers the board: Carol, not
	// seated, opens the Activity from it.
	board := fmt.Sprintf("mf/board/%d/0", id)
	m, _ := app.Fake.Message(lobbyMsg)
	require.Contains(t, m.CustomIDs(), board)
	launched := sandboxPost(t, srv, "/api/click", map[string]string{"user": users[2].ID, "message": lobbyMsg, "custom_id": board})
	assert.Equal(t, true, launched["launch"], "Discord opens the Activity: %v", launched)
	alice := signIn(t, app, srv, users[0])
	bob := signIn(t, app, srv, users[1])
	path := fmt.Sprintf("api/games/%d/lobby", id)
	steps := []struct {
		name    string
		session string
		action  string
		status  int
	}{
		{"Bob cannot start another's lobby", bob, "start", http.StatusConflict},
		{"Alice cannot start alone", alice, "start", http.StatusConflict},
		{"Bob joins", bob, "join", http.StatusOK},
		{"Bob cannot join twice", bob, "join", http.StatusConflict},
		{"no such action", bob, "cancel", http.StatusConflict},
		{"Alice starts", alice, "start", http.StatusOK},
		{"a running game takes no seat", bob, "leave", http.StatusConflict},
	}
	for _, st := range steps {
		status, out := activityCall(t, srv, http.MethodPost, path, st.session, map[string]string{"Action": st.action})
		assert.Equal(t, st.status, status, "%s: %v", st.name, out)
	}
	assert.Equal(t, malefiz.StatusRunning, liveOf(t, srv, id, bob).Status)
	require.Eventually(t, func() bool {
		m, ok := app.Fake.Message(lobbyMsg)
		return ok && slices.Equal(m.CustomIDs(), []string{board})
	}, harness.Patience, 20*time.Millisecond, "the lobby message became the card, its one button Play on the board")
}

// TestActivitySpeaksTheUsersLanguage signs in a user whose Discord
// speaks German: the page's texts and its refusals are German.
func TestActivitySpeaksTheUsersLanguage(t *testing.T) {
	app, srv, id, users := activityGame(t)
	code, err := app.Fake.Authorize(app.Fake.AppID, fakediscord.OAuth2User{ID: users[1].ID, Name: "Bob", Locale: "de"}, []string{"identify"})
	require.NoError(t, err)
	status, out := activityCall(t, srv, http.MethodPost, "api/token", "", tokenRequest(app, code))
	require.Equal(t, http.StatusOK, status)
	texts := out["texts"].(map[string]any)
	assert.Equal(t, "Du bist am Zug: Würfle.", texts["yourRoll"])
	live := liveOf(t, srv, id, out["session"].(string))
	assert.Contains(t, live.Said, "würfelt", "whose turn it is, in German: %q", live.Said)
	status, refusal := activityCall(t, srv, http.MethodPost, fmt.Sprintf("api/games/%d/play", id), out["session"].(string),
		map[string]any{"Turn": live.Turn, "Action": "roll"})
	assert.Equal(t, http.StatusConflict, status)
	assert.NotContains(t, refusal["error"], "turn", "not the English refusal: %v", refusal)
}

// TestActivityPage checks what the page is served with: the
// Content-Security-Policy Discord's proxy allows (its own origin, sockets
// included), relative URLs only, and no client secret in anything the
// page can read.
func TestActivityPage(t *testing.T) {
	app, srv, _ := activitySandbox(t)
	get := func(path string) (*http.Response, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		var b bytes.Buffer
		_, err = b.ReadFrom(resp.Body)
		require.NoError(t, err)
		return resp, b.String()
	}
	tests := []struct {
		name, path, contains string
	}{
		{"the page", "/.proxy/", `src="static/app.js"`},
		{"its script", "/.proxy/static/app.js", "DiscordSDKMock"},
		{"Discord's SDK", "/.proxy/static/discord-sdk.js", "DiscordSDK"},
		{"the config", "/.proxy/api/config", app.Fake.AppID},
		{"the layout", "/.proxy/api/layout", `"Squares"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(tt.path)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Contains(t, body, tt.contains)
			assert.NotContains(t, body, app.Fake.ClientSecret(), "the secret stays on the server")
			csp := resp.Header.Get("Content-Security-Policy")
			assert.Contains(t, csp, "default-src 'self'")
			assert.Contains(t, csp, "connect-src 'self'")
			assert.NotContains(t, csp, "unsafe-inline")
		})
	}
	_, page := get("/.proxy/")
	assert.NotRegexp(t, `(src|href)="(/|https?:)`, page, "relative URLs only")
	_, script := get("/.proxy/static/app.js")
	assert.NotRegexp(t, `fetch\("/|new URL\("/|"/api/`, script, "relative URLs only")
}

// TestActivityNewLobby opens lobbies from the Activity with the options of
// /malefiz new: the bot's checks, one lobby, its message in the channel;
// what the command refuses is refused, nothing made.
func TestActivityNewLobby(t *testing.T) {
	app, srv, users, _ := activityLoggedSandbox(t)
	bob := signIn(t, app, srv, users[1])
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/.proxy/api/new", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+bob)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var form []struct{ Name, Kind string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&form))
	resp.Body.Close()
	var names []string
	for _, f := range form {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"seats", "bots", "level", "turn-timeout", "roll", "six-again", "safe-row-2"}, names, "the options of /malefiz new")

	open := func() int {
		games, err := app.Main.DB().OpenGames(t.Context(), app.Fake.GuildID, app.Fake.ChannelID)
		require.NoError(t, err)
		return len(games)
	}
	refusals := []struct {
		name   string
		values map[string]any
		says   string
	}{
		{"five seats", map[string]any{"seats": 5}, "seats"},
		{"as many computers as seats", map[string]any{"seats": 2, "bots": 2}, "computer"},
		{"a level that does not exist", map[string]any{"level": "godlike"}, "level"},
		{"a timeout off the list", map[string]any{"turn-timeout": "1s"}, ""},
		{"seats as text", map[string]any{"seats": "two"}, ""},
		{"a house rule as text", map[string]any{"six-again": "yes"}, ""},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			status, out := activityCall(t, srv, http.MethodPost, "api/games", bob, tt.values)
			assert.Equal(t, http.StatusConflict, status, "%v", out)
			assert.Contains(t, strings.ToLower(fmt.Sprint(out["error"])), tt.says)
			assert.Zero(t, open(), "no lobby made")
		})
	}

	status, out := activityCall(t, srv, http.MethodPost, "api/games", bob, map[string]any{"seats": 2, "six-again": true, "level": "easy", "bots": 1})
	require.Equal(t, http.StatusOK, status, "%v", out)
	id := int64(out["ID"].(float64))
	sg, err := app.Main.DB().Game(t.Context(), id)
	require.NoError(t, err)
	assert.Equal(t, users[1].ID, sg.HostID)
	assert.Equal(t, app.Fake.ChannelID, sg.ChannelID)
	assert.Equal(t, 2, sg.Options.Seats)
	assert.True(t, sg.Options.SixAgain)
	require.Len(t, sg.Seats, 2, "Bob and the computer he asked for")
	assert.Equal(t, "easy", sg.Seats[1].Computer)
	require.Eventually(t, func() bool {
		for _, m := range app.Fake.ChannelMessages(app.Fake.ChannelID) {
			if slices.ContainsFunc(m.CustomIDs(), func(c string) bool { return strings.HasPrefix(c, fmt.Sprintf("mf/start/%d/", id)) }) {
				return true
			}
		}
		return false
	}, harness.Patience, 20*time.Millisecond, "the lobby card is posted in the channel")
	assert.Equal(t, 1, open())
	harness.LobbyInOneCommit(t, app.Main.DB(), id)

	// Without a session, or from a DM, no lobby.
	status, out = activityCall(t, srv, http.MethodPost, "api/games", "", map[string]any{})
	assert.Equal(t, http.StatusUnauthorized, status, "%v", out)
	code, err := app.Fake.Authorize(app.Fake.AppID, fakediscord.OAuth2User{ID: users[0].ID, Name: "Alice"}, []string{"identify"})
	require.NoError(t, err)
	_, tok := activityCall(t, srv, http.MethodPost, "api/token", "", map[string]string{"Code": code})
	status, out = activityCall(t, srv, http.MethodPost, "api/games", tok["session"].(string), map[string]any{})
	assert.Equal(t, http.StatusConflict, status, "%v", out)
	assert.Equal(t, 1, open())
}
