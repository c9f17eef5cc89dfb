package activity

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/activity"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// The README's pictures of the Activity, written by
// TestActivityInTheBrowser with -update.
const (
	activityScreenshot         = "../../docs/activity.png"
	activityPhoneScreenshot    = "../../docs/activity-phone.png"
	activityWonScreenshot      = "../../docs/activity-won.png"
	activityWonPhoneScreenshot = "../../docs/activity-won-phone.png"
)

// activityView is what the Activity page shows, read by activityJS.
type activityView struct {
	Turn    int      `json:"turn"`    // the turn shown, -1 before the first push
	Movable []string `json:"movable"` // origins of the pawns that may move
	Targets []string `json:"targets"` // destinations of the pawn picked
	Goal    []string `json:"goal"`    // those that reach the goal
	Takes   []string `json:"takes"`   // those that take a barricade
	Places  []string `json:"places"`  // suggested squares for a taken barricade
	Free    []string `json:"free"`    // every square a taken barricade may go to
	Winner  string   `json:"winner"`  // the winner's colour, once over
	Said    string   `json:"said"`
	Note    string   `json:"note"`
	// Animated counts the pieces slid to where a push put them.
	Animated int  `json:"animated"`
	Busy     bool `json:"busy"` // a request is in flight
}

const activityJS = `(() => ({
  turn: Number(document.body.dataset.turn ?? -1),
  movable: [...document.querySelectorAll('#marks .movable')].map((e) => e.dataset.from),
  targets: [...document.querySelectorAll('#marks .target')].map((e) => e.dataset.to),
  goal: [...document.querySelectorAll('#marks .target')].filter((e) => e.textContent === '★').map((e) => e.dataset.to),
  takes: [...document.querySelectorAll('#marks .target')].filter((e) => e.textContent === '🚧').map((e) => e.dataset.to),
  places: [...document.querySelectorAll('#marks .place.suggested')].map((e) => e.dataset.square),
  free: [...document.querySelectorAll('#marks .place')].map((e) => e.dataset.square),
  winner: document.body.dataset.winner || '',
  said: document.querySelector('#said').textContent,
  animated: Number(document.body.dataset.animated || 0),
  busy: !!document.body.dataset.busy,
  note: document.querySelector('#note').textContent,
}))()`

// activityGame starts a sandbox with Alice and Bob, a fixed die, and a
// running two-seat game Alice begins; it returns the sandbox, its server,
// the game's ID and the users.
func activityGame(t testing.TB) (*sandbox.App, *httptest.Server, int64, []sandbox.User) {
	t.Helper()
	app, srv, users := activitySandbox(t)
	return app, srv, newActivityGame(t, app, srv, users), users
}

// activitySandbox starts a sandbox with Alice, Bob and Carol (the
// members of its guild) and a fixed die.
func activitySandbox(t testing.TB) (*sandbox.App, *httptest.Server, []sandbox.User) {
	t.Helper()
	app, srv, users, _ := activityLoggedSandbox(t)
	return app, srv, users
}

// activityLoggedSandbox is activitySandbox with its logs.
func activityLoggedSandbox(t testing.TB) (*sandbox.App, *httptest.Server, []sandbox.User, *harness.LogBuffer) {
	t.Helper()
	return activitySandboxWith(t, 5, nil)
}

// activitySandboxWith is activityLoggedSandbox with its dice seeded
// (seed, 3) and the Activity's options changed by opts when not nil.
func activitySandboxWith(t testing.TB, seed uint64, opts func(*activity.Config)) (*sandbox.App, *httptest.Server, []sandbox.User, *harness.LogBuffer) {
	t.Helper()
	logs := new(harness.LogBuffer)
	app, srv := harness.SeededSandboxLogs(t, logs, seed, opts, "Alice", "Bob", "Carol")
	return app, srv, sandbox.Users("Alice", "Bob", "Carol"), logs
}

// newActivityGame opens a two-seat game as Alice, seats Bob and starts it.
func newActivityGame(t testing.TB, app *sandbox.App, srv *httptest.Server, users []sandbox.User) int64 {
	t.Helper()
	id, lobby := newActivityLobby(t, app, srv, users)
	m, ok := app.Fake.Message(lobby)
	require.True(t, ok)
	var join, start string
	for _, id := range m.CustomIDs() {
		switch {
		case strings.HasPrefix(id, "mf/join/"):
			join = id
		case strings.HasPrefix(id, "mf/start/"):
			start = id
		}
	}
	require.NotEmpty(t, start, "the lobby has a Start button: %v", m.CustomIDs())
	sandboxPost(t, srv, "/api/click", map[string]string{"user": users[1].ID, "message": lobby, "custom_id": join})
	sandboxPost(t, srv, "/api/click", map[string]string{"user": users[0].ID, "message": lobby, "custom_id": start})
	return id
}

// newActivityLobby opens a two-seat lobby as Alice: its game and message.
func newActivityLobby(t testing.TB, app *sandbox.App, srv *httptest.Server, users []sandbox.User) (int64, string) {
	t.Helper()
	lobby := sandboxPost(t, srv, "/api/command", map[string]string{"user": users[0].ID, "line": "/malefiz new seats:2"})["message"].(string)
	m, ok := app.Fake.Message(lobby)
	require.True(t, ok)
	for _, cid := range m.CustomIDs() {
		if strings.HasPrefix(cid, "mf/start/") {
			id, err := strconv.ParseInt(strings.Split(cid, "/")[2], 10, 64)
			require.NoError(t, err)
			return id, lobby
		}
	}
	t.Fatalf("the lobby has no Start button: %v", m.CustomIDs())
	return 0, ""
}

// sandboxPost posts v to the sandbox page's API and wants a 200.
func sandboxPost(t testing.TB, srv *httptest.Server, path string, v any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(v)
	resp, err := http.Post(srv.URL+path, "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %v", path, out)
	return out
}

// readActivity reads the page's view.
func readActivity(t *testing.T, ctx context.Context) activityView {
	t.Helper()
	return readPage[activityView](t, ctx, activityJS)
}

// waitActivity polls the page until ok holds of its view.
func waitActivity(t *testing.T, ctx context.Context, what string, ok func(activityView) bool) activityView {
	t.Helper()
	return waitPage(t, ctx, activityJS, "the Activity", "activity-failed.png", what, ok)
}

// readPage reads a view V of the page, as the script js returns it.
func readPage[V any](t *testing.T, ctx context.Context, js string) V {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[V](js))
	require.NoError(t, err)
	return v
}

// waitPage polls the page's view V (read by js) until ok holds of it, for
// harness.Patience; then it keeps a screenshot as shot among the test's artifacts
// and fails, saying what of page it waited for.
func waitPage[V any](t *testing.T, ctx context.Context, js, page, shot, what string, ok func(V) bool) V {
	t.Helper()
	deadline := time.Now().Add(harness.Patience)
	for {
		v := readPage[V](t, ctx, js)
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			harness.Screenshot(t, ctx, filepath.Join(t.ArtifactDir(), shot))
			t.Fatalf("%s never showed %s: %+v", page, what, v)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// threadTurnMessage returns the newest message of the game's thread with
// move buttons, and their custom IDs, waiting up to 10 s for one whose
// buttons are for turn (any turn when turn < 0): the thread's messages go
// out after the commit.
func threadTurnMessage(t *testing.T, app *sandbox.App, id int64, turn int) (fakediscord.Message, []string) {
	t.Helper()
	deadline := time.Now().Add(harness.Patience)
	for {
		msg, cids := newestTurnMessage(t, app, id)
		if len(cids) > 0 && (turn < 0 || strings.Contains(cids[0], fmt.Sprintf("/%d/%d/", id, turn))) {
			return msg, cids
		}
		if time.Now().After(deadline) {
			t.Fatalf("the thread has no turn card for turn %d (newest: %v)", turn, cids)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// newestTurnMessage returns the newest message of the game's thread with
// move or pawn buttons, and their custom IDs.
func newestTurnMessage(t *testing.T, app *sandbox.App, id int64) (fakediscord.Message, []string) {
	t.Helper()
	sg, err := app.Main.DB().Game(context.Background(), id)
	require.NoError(t, err)
	msgs := app.Fake.ChannelMessages(sg.ThreadID)
	for i := len(msgs) - 1; i >= 0 && sg.ThreadID != ""; i-- {
		var moves []string
		for _, cid := range msgs[i].CustomIDs() {
			if strings.HasPrefix(cid, fmt.Sprintf("mf/move/%d/", id)) || strings.HasPrefix(cid, fmt.Sprintf("mf/pawn/%d/", id)) {
				moves = append(moves, cid)
			}
		}
		if len(moves) > 0 {
			return msgs[i], moves
		}
	}
	return fakediscord.Message{}, nil
}

// shoot takes the pictures of both pages (Alice's at 1280 px, Bob's at
// 400), for the README with -update.
func shoot(t *testing.T, pages []context.Context, out string) {
	t.Helper()
	time.Sleep(150 * time.Millisecond) // the halo's dash settles
	harness.Screenshot(t, pages[0], filepath.Join(out, "activity.png"))
	harness.Screenshot(t, pages[1], filepath.Join(out, "activity-phone.png"))
	if *harness.Update {
		harness.Screenshot(t, pages[0], activityScreenshot)
		harness.Screenshot(t, pages[1], activityPhoneScreenshot)
	}
}

// shootEnd takes the pictures of both pages once the game is won, for
// the README with -update.
func shootEnd(t *testing.T, pages []context.Context, out string) {
	t.Helper()
	time.Sleep(500 * time.Millisecond) // the last move's slide ends
	harness.Screenshot(t, pages[0], filepath.Join(out, "activity-won.png"))
	harness.Screenshot(t, pages[1], filepath.Join(out, "activity-won-phone.png"))
	if *harness.Update {
		harness.Screenshot(t, pages[0], activityWonScreenshot)
		harness.Screenshot(t, pages[1], activityWonPhoneScreenshot)
	}
}

// TestActivityInTheBrowser plays a whole game in two browsers, Alice's
// at 1280 px and Bob's at 400, each signed in through the stand-in's
// OAuth2, with the dice seeded: each taps the board on their turn (a pawn,
// then its destination; a taken barricade's square) and sees the other's
// moves pushed; the thread carries the same turn cards and a history line
// per move; a move clicked in the thread appears in both Activities; both
// show the winner. Alice's page slides the pieces a push moved; Bob's,
// asking for reduced motion, does not.
func TestActivityInTheBrowser(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	// A game of 48 taps with this policy; the test taps faster than a
	// person may (TestActivityRefusesBadPlays meets the limit).
	app, srv, users, _ := activitySandboxWith(t, 7, func(c *activity.Config) { c.PlaysPerMinute = 6000 })
	id, _ := newActivityLobby(t, app, srv, users)
	alice := harness.Browser(t, 1280, 900)
	bob, cancel := chromedp.NewContext(alice, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	out := t.ArtifactDir()
	pages := []context.Context{alice, bob}
	for i, ctx := range pages {
		url := fmt.Sprintf("%s/.proxy/?user=%s&game=%d", srv.URL, users[i].ID, id)
		if i == 1 {
			// Bob as the README says: by name, the game found in the
			// channel the page says it was opened in.
			url = srv.URL + "/.proxy/?user=Bob"
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(400, 860)))
		}
		if i == 0 {
			harness.WithMotion(t, ctx) // Alice's pieces slide; Bob asks for reduced motion
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url)))
		waitActivity(t, ctx, "the game", func(v activityView) bool { return v.Turn >= 0 })
	}

	// Into the game from the Activity: Bob takes the second seat, Alice
	// (the host) starts once she sees him seated.
	require.NoError(t, chromedp.Do(bob, chromedp.Click(`#actions button[data-act="join"]`)))
	require.NoError(t, chromedp.Do(alice, chromedp.Click(`#actions button[data-act="start"]`)))
	for _, ctx := range pages {
		waitActivity(t, ctx, "the game started", func(v activityView) bool { return v.Turn > 0 })
	}
	// The thread shows the first turn card before the first tap. (A
	// play that comes before the card of the commit ahead of it is
	// delivered leaves that card unedited in the thread: the Activity's
	// play has no click whose message the delivery waits for.)
	threadTurnMessage(t, app, id, readActivity(t, alice).Turn)

	// The one to move has pawns to tap; the other none. Once over,
	// nobody has.
	mover := func() int {
		deadline := time.Now().Add(harness.Patience)
		for time.Now().Before(deadline) {
			for i, ctx := range pages {
				if v := readActivity(t, ctx); len(v.Movable) > 0 || len(v.Free) > 0 {
					return i
				} else if v.Winner != "" {
					return -1
				}
			}
			time.Sleep(25 * time.Millisecond)
		}
		t.Fatal("nobody has a move in the Activity")
		return -1
	}
	// Each plays its lead pawn to the goal, else onto a barricade, else
	// as far up and in as the roll takes it, and puts a taken barricade
	// on the lowest free square: a short game.
	tapped, clicked := 0, false
	for {
		i := mover()
		if i < 0 {
			break
		}
		require.Less(t, tapped, 400, "the game ends")
		me, other := pages[i], pages[1-i]
		v := readActivity(t, me)
		turn := v.Turn
		if tapped == 6 && !clicked { // a move clicked by button in the thread reaches both Activities
			clicked = true
			clickInThread(t, app, srv, id, users[i].ID, turn)
			for _, ctx := range pages {
				waitActivity(t, ctx, "the thread's move", func(v activityView) bool { return v.Turn > turn || len(v.Free) > 0 })
			}
			if v = readActivity(t, me); v.Turn > turn {
				continue
			}
		}
		if len(v.Free) == 0 {
			from := highest(v.Movable)
			if tapped == 1 { // the keyboard: Tab to the pawn, Enter
				require.NoError(t, chromedp.Do(me, chromedp.Focus(fmt.Sprintf(`#marks .movable[data-from=%q]`, from)),
					chromedp.KeyEvent("\r")))
			} else {
				require.NoError(t, chromedp.Do(me, chromedp.Click(fmt.Sprintf(`#marks .movable[data-from=%q]`, from))))
			}
			v = waitActivity(t, me, "the destinations", func(v activityView) bool { return len(v.Targets) > 0 })
			if tapped == 3 { // the pawn picked, its destinations lit
				shoot(t, pages, out)
			}
			require.NoError(t, chromedp.Do(me, chromedp.Click(fmt.Sprintf(`#marks .target[data-to=%q]`, best(v)))))
		}
		v = waitActivity(t, me, "the move played", func(v activityView) bool { return v.Turn != turn || len(v.Free) > 0 || v.Winner != "" })
		if v.Turn == turn && v.Winner == "" { // a barricade taken: its square, tapped
			require.NoError(t, chromedp.Do(me, chromedp.Click(fmt.Sprintf(`#marks .place[data-square=%q]`, lowest(v.Free)))))
		}
		seen := waitActivity(t, other, "the other's move pushed", func(v activityView) bool { return v.Turn > turn || v.Winner != "" })
		require.Empty(t, seen.Note, "no refusal")
		tapped++
		if seen.Winner != "" {
			break
		}
		// The thread follows: its newest turn card is for the turn the
		// Activities show.
		threadTurnMessage(t, app, id, seen.Turn)
	}
	t.Logf("a whole game in %d moves tapped in the Activity", tapped)
	require.True(t, clicked, "a move was clicked in the thread")

	for i, ctx := range pages {
		v := waitActivity(t, ctx, "the winner", func(v activityView) bool { return v.Winner != "" })
		assert.Contains(t, v.Said, "wins", "page %d names the winner", i)
		if i == 0 {
			assert.Positive(t, v.Animated, "Alice's page slid the pieces the pushes moved")
		} else {
			assert.Zero(t, v.Animated, "Bob's page, asking for reduced motion, slid no piece")
		}
	}
	shootEnd(t, pages, out)

	// The thread holds the history: a line per turn played, the turn
	// cards collapsed into them.
	sg, err := app.Main.DB().Game(context.Background(), id)
	require.NoError(t, err)
	assert.Equal(t, malefiz.StatusFinished, sg.Status)
	events, err := app.Main.DB().Events(t.Context(), id)
	require.NoError(t, err)
	moves := 0
	for _, e := range events {
		if e.Kind == malefiz.EventMove {
			moves++
		}
	}
	assert.GreaterOrEqual(t, moves, tapped+1, "every move tapped, and the one clicked in the thread")
	require.Eventually(t, func() bool {
		lines := 0
		for _, m := range app.Fake.ChannelMessages(sg.ThreadID) {
			lines += strings.Count(m.Text(), "→")
		}
		return lines >= moves
	}, harness.Patience, 50*time.Millisecond, "a history line per move in the thread: %s", threadText(app, sg.ThreadID))
	_, cids := newestTurnMessage(t, app, id)
	assert.Empty(t, cids, "no turn card is left to click")
}

// threadText is what the thread says, for a failure's message.
func threadText(app *sandbox.App, thread string) string {
	var b strings.Builder
	for _, m := range app.Fake.ChannelMessages(thread) {
		b.WriteString(m.Text() + "\n---\n")
	}
	return b.String()
}

// clickInThread plays the turn by the buttons of its card in the
// thread, as userID: a pawn (when the card asks for one), then its move.
func clickInThread(t *testing.T, app *sandbox.App, srv *httptest.Server, id int64, userID string, turn int) {
	t.Helper()
	msg, cids := threadTurnMessage(t, app, id, turn)
	sandboxPost(t, srv, "/api/click", map[string]string{"user": userID, "message": msg.ID, "custom_id": cids[0]})
	if strings.HasPrefix(cids[0], "mf/pawn/") { // a pawn first, then its move
		next, ok := app.Fake.Message(msg.ID)
		require.True(t, ok)
		move := slices.IndexFunc(next.CustomIDs(), func(c string) bool { return strings.HasPrefix(c, "mf/move/") })
		require.GreaterOrEqual(t, move, 0, "%v", next.CustomIDs())
		sandboxPost(t, srv, "/api/click", map[string]string{"user": userID, "message": msg.ID, "custom_id": next.CustomIDs()[move]})
	}
}

// best is the destination a player in a hurry taps: the goal, else the
// highest square, a barricade taken counting a row and a half, the
// centre column (the goal's) breaking ties.
func best(v activityView) string {
	if len(v.Goal) > 0 {
		return v.Goal[0]
	}
	score := func(sq string) int {
		s := 10*row(sq) - abs(int(sq[0])-'i')
		if slices.Contains(v.Takes, sq) {
			s += 15
		}
		return s
	}
	return slices.MaxFunc(v.Targets, func(a, b string) int { return score(a) - score(b) })
}

func abs(n int) int { return max(n, -n) }

// row is the row of a square ("i13" is 13); a house is row 0.
func row(square string) int {
	n, _ := strconv.Atoi(strings.TrimLeft(square, "abcdefghijklmnopq"))
	return n
}

// highest and lowest are the squares furthest up and down the board.
func highest(squares []string) string {
	return slices.MaxFunc(squares, func(a, b string) int { return row(a) - row(b) })
}

func lowest(squares []string) string {
	return slices.MinFunc(squares, func(a, b string) int { return row(a) - row(b) })
}

// TestActivityPicksAmongTheChannelsGames opens the Activity in a channel
// with two games: it shows the user's first and lists both to switch.
func TestActivityPicksAmongTheChannelsGames(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	app, srv, users := activitySandbox(t)
	first := newActivityGame(t, app, srv, users)
	second, _ := newActivityLobby(t, app, srv, users)
	ctx := harness.Browser(t, 1280, 900)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/.proxy/?user=Bob")))
	v := waitActivity(t, ctx, "the first game", func(v activityView) bool { return v.Turn > 0 })
	assert.Positive(t, v.Turn, "Bob's game first: the running one, where he is seated")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(fmt.Sprintf(`#games button[data-act="%d"]`, second))))
	waitActivity(t, ctx, "the lobby", func(v activityView) bool { return v.Turn == 0 })
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(fmt.Sprintf(`#games button[data-act="%d"]`, first))))
	waitActivity(t, ctx, "the first game again", func(v activityView) bool { return v.Turn > 0 })
}

// TestActivityOpensALobby opens the Activity in a channel with no game:
// the form of a new lobby is open, with the options of /malefiz new;
// Alice picks two seats and a house rule and opens it: the page shows the
// lobby, and its card is in the channel; Bob, opening the Activity there,
// finds it and joins.
func TestActivityOpensALobby(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	app, srv, _ := activitySandbox(t)
	alice := harness.Browser(t, 400, 860)
	require.NoError(t, chromedp.Do(alice, chromedp.Navigate(srv.URL+"/.proxy/?user=Alice"),
		chromedp.WaitVisible(`#new-form select[name="seats"]`),
		chromedp.SetValue(`#new-form select[name="seats"]`, "2"),
		chromedp.SetValue(`#new-form select[name="six-again"]`, "true")))
	harness.Screenshot(t, alice, filepath.Join(t.ArtifactDir(), "activity-new.png"))
	require.NoError(t, chromedp.Do(alice, chromedp.Click(`#new-form button[data-act="new"]`)))
	v := waitActivity(t, alice, "the new lobby", func(v activityView) bool { return v.Turn == 0 })
	assert.Empty(t, v.Note)
	games, err := app.Main.DB().OpenGames(t.Context(), app.Fake.GuildID, app.Fake.ChannelID)
	require.NoError(t, err)
	require.Len(t, games, 1)
	assert.Equal(t, 2, games[0].Options.Seats)
	assert.True(t, games[0].Options.SixAgain)
	require.Eventually(t, func() bool {
		for _, m := range app.Fake.ChannelMessages(app.Fake.ChannelID) {
			if slices.ContainsFunc(m.CustomIDs(), func(c string) bool { return strings.HasPrefix(c, fmt.Sprintf("mf/join/%d/", games[0].ID)) }) {
				return true
			}
		}
		return false
	}, harness.Patience, 20*time.Millisecond, "the lobby card is in the channel")

	bob, cancel := chromedp.NewContext(alice, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(bob, chromedp.Navigate(srv.URL+"/.proxy/?user=Bob")))
	waitActivity(t, bob, "Alice's lobby", func(v activityView) bool { return v.Turn == 0 })
	require.NoError(t, chromedp.Do(bob, chromedp.Click(`#actions button[data-act="join"]`)))
	require.NoError(t, chromedp.Do(alice, chromedp.WaitVisible(`#actions button[data-act="start"]`)))
	harness.Screenshot(t, alice, filepath.Join(t.ArtifactDir(), "activity-lobby.png"))
}

// The README's pictures of the sandbox with the Activity open, written by
// TestSandboxOpensTheActivityInAPane with -update.
const (
	sandboxActivityScreenshot      = "../../docs/activity-sandbox.png"
	sandboxActivityPhoneScreenshot = "../../docs/activity-sandbox-phone.png"
)

// TestSandboxOpensTheActivityInAPane clicks Play on the board on the
// card of a running game in the sandbox page: the Activity opens as the
// Discord client opens it, in a pane beside the chat at 1280 px and over
// the whole screen at 400 px, not in a new tab; the page in it, not
// embedded in Discord, signs in through the SDK's DiscordSDKMock and the
// stand-in's OAuth2, and shows the game of the channel.
func TestSandboxOpensTheActivityInAPane(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	_, srv, id, users := activityGame(t)
	board := fmt.Sprintf("mf/board/%d/0", id)
	sizes := []struct {
		name          string
		width, height int
		beside        bool // the chat stays in sight
		golden        string
	}{
		{"desktop", 1280, 800, true, sandboxActivityScreenshot},
		{"phone", 400, 860, false, sandboxActivityPhoneScreenshot},
	}
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			ctx := harness.Browser(t, sz.width, sz.height)
			require.NoError(t, chromedp.Do(ctx,
				chromedp.Navigate(srv.URL),
				chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`)),
				chromedp.SetValue(chromedp.ID("user"), users[0].ID),
				chromedp.Evaluate[chromedp.Void](`document.querySelector('#user').dispatchEvent(new Event('change'))`),
				chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`button[data-cid=%q]`, board))),
				chromedp.Click(chromedp.CSS(fmt.Sprintf(`button[data-cid=%q]`, board))),
				chromedp.WaitVisible(chromedp.ID("activity-pane")),
			))
			deadline := time.Now().Add(harness.Patience)
			for {
				turn, err := chromedp.Run(ctx, chromedp.Evaluate[int](
					`Number(document.querySelector('#activity-frame').contentDocument?.body?.dataset.turn ?? -1)`))
				require.NoError(t, err)
				if turn > 0 {
					break
				}
				if time.Now().After(deadline) {
					harness.Screenshot(t, ctx, filepath.Join(t.ArtifactDir(), "pane-failed.png"))
					t.Fatal("the Activity in the pane never showed the game")
				}
				time.Sleep(50 * time.Millisecond)
			}
			targets, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.length`))
			require.NoError(t, err)
			assert.Equal(t, 1, targets, "one frame: the pane's")
			chat, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector('.chat').getBoundingClientRect().width`))
			require.NoError(t, err)
			pane, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector('#activity-pane').getBoundingClientRect().width`))
			require.NoError(t, err)
			if sz.beside {
				assert.Greater(t, chat, 300.0, "the chat beside the pane")
				assert.GreaterOrEqual(t, pane, 360.0)
			} else {
				assert.InDelta(t, float64(sz.width), pane, 1, "the whole screen")
			}
			time.Sleep(300 * time.Millisecond) // the board's halo settles
			harness.Screenshot(t, ctx, filepath.Join(t.ArtifactDir(), "activity-sandbox-"+sz.name+".png"))
			if *harness.Update {
				harness.Screenshot(t, ctx, sz.golden)
			}
			// Closing it returns to the chat.
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("activity-close")),
				chromedp.WaitNotVisible(chromedp.ID("activity-pane"))))
		})
	}
}

// TestActivitySaysWhyInTheBrowser opens the Activity on a game of
// another guild: the page says there is no such game on this server, and
// stays so (no reconnecting to a refused socket).
func TestActivitySaysWhyInTheBrowser(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	app, srv, users, logs := activityLoggedSandbox(t)
	other := gameOfAnotherGuild(t, app, users[0])
	ctx := harness.Browser(t, 400, 860)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/.proxy/?user=Alice&game=%d", srv.URL, other))))
	want := fmt.Sprintf("There is no game #%d on this server.", other)
	waitActivity(t, ctx, "the refusal", func(v activityView) bool { return v.Note == want })
	time.Sleep(time.Second) // a reconnect would come after 0.5 s
	v := readActivity(t, ctx)
	assert.Equal(t, want, v.Note, "still said, not reconnecting")
	assert.Equal(t, -1, v.Turn, "no state drawn")
	// Logged once, and the log (not the page) says why: another guild's.
	assert.Equal(t, 1, strings.Count(logs.String(), fmt.Sprintf("game %d not here: of another guild", other)), "refused once, logged")
}

// TestActivitySignsInAgainInTheBrowser proves the page's socket through
// its drops: a socket that drops is opened again with the page's session
// offered in the upgrade request; once the server refuses that session
// before the upgrade (as one that expired while the page slept), the page
// says to sign in again and stops trying, rather than reconnect for ever.
func TestActivitySignsInAgainInTheBrowser(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	app, srv, users, logs := activityLoggedSandbox(t)
	id := newActivityGame(t, app, srv, users)
	ctx := harness.Browser(t, 400, 860)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/.proxy/?user=Alice&game=%d", srv.URL, id))))
	waitActivity(t, ctx, "the game", func(v activityView) bool { return v.Turn >= 0 })

	// A drop: the page opens its socket again, signed in.
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`state.socket.close(), true`))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		open, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`state.socket.readyState === WebSocket.OPEN`))
		return err == nil && open
	}, harness.Patience, 20*time.Millisecond, "open again")
	assert.NotContains(t, logs.String(), "activity socket without a valid session")
	// The game did not change while the socket was down: the page says
	// no more that it is reconnecting once the server pushed it again.
	waitActivity(t, ctx, "reconnected", func(v activityView) bool { return v.Note == "" })

	// A session the server no longer takes, then a drop.
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`state.session = "forged", state.socket.close(), true`))
	require.NoError(t, err)
	want := "Discord could not sign you in. Close the board and open it again."
	waitActivity(t, ctx, "sign in again", func(v activityView) bool { return v.Note == want })
	time.Sleep(2 * time.Second) // a reconnect would come after 0.5 s, then 1 s
	assert.Equal(t, want, readActivity(t, ctx).Note, "still said, not reconnecting")
	assert.Equal(t, 1, strings.Count(logs.String(), "activity socket without a valid session"), "refused once, before the upgrade")
}
