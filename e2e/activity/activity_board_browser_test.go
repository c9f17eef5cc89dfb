package activity

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	bottable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// The README's pictures of the board's lobby and of a placement watched,
// written by TestActivityBoardLobby and TestActivityBoardPlacement with
// -update.
const (
	activityLobbyScreenshot        = "../../docs/activity-lobby.png"
	activityLobbyPhoneScreenshot   = "../../docs/activity-lobby-phone.png"
	activityPlacingScreenshot      = "../../docs/activity-placing.png"
	activityPlacingPhoneScreenshot = "../../docs/activity-placing-phone.png"
)

// boardSizes are the widths every test of this file runs at: a desktop's
// and a phone's.
var boardSizes = []struct {
	name          string
	width, height int
}{
	{"desktop", 1280, 900},
	{"phone", 400, 860},
}

// boardView is what the board page shows beyond activityView, read by
// boardJS.
type boardView struct {
	GameNo   string   `json:"gameNo"`   // the header's game number
	Hint     string   `json:"hint"`     // the hint's words, shown under the bar
	Hinted   []string `json:"hinted"`   // destinations marked as the hint's
	Actions  []string `json:"actions"`  // the bar's buttons, by their data-act
	Seats    []string `json:"seats"`    // the seats' names as listed
	Free     int      `json:"free"`     // the free seats listed
	Remove   []string `json:"remove"`   // the colours of the computers the viewer may remove
	Host     string   `json:"host"`     // the lobby's host line
	Options  []string `json:"options"`  // the lobby's option lines
	Levels   []string `json:"levels"`   // the computer levels the menu offers
	Lifted   string   `json:"lifted"`   // the square of the barricade lifted, "" for none
	Blocks   []string `json:"blocks"`   // the squares a barricade is drawn on
	Pawns    []string `json:"pawns"`    // the squares a pawn is drawn on
	Card     string   `json:"card"`     // the name on the board's card (whose turn, the winner)
	Board    bool     `json:"board"`    // the board is shown
	FormTop  float64  `json:"formTop"`  // where the new-game form's first field is, in px from the top
	FormOpen bool     `json:"formOpen"` // the new-game form is open
	Said     string   `json:"said"`
	Note     string   `json:"note"`
	Turn     int      `json:"turn"`
	Winner   string   `json:"winner"`
}

const boardJS = `(() => {
  const all = (q) => [...document.querySelectorAll(q)];
  const field = document.querySelector('#new-form select');
  const lifted = document.querySelector('#pieces .lifted');
  return {
    gameNo: document.querySelector('#game-no').textContent,
    hint: document.querySelector('#hint').textContent,
    hinted: all('#marks .target.hinted').map((e) => e.dataset.to),
    actions: all('#actions button').map((e) => e.dataset.act || ''),
    seats: all('#seats li:not(.free) .name').map((e) => e.textContent),
    free: all('#seats li.free').length,
    remove: all('#seats button.remove').map((e) => e.closest('li').dataset.color),
    host: document.querySelector('#lobby').hidden ? '' : document.querySelector('#lobby-host').textContent,
    options: document.querySelector('#lobby').hidden ? [] : all('#lobby-options li').map((e) => e.textContent),
    levels: document.querySelector('#add-computer').hidden ? [] : all('#add-computer option').map((e) => e.value).filter(Boolean),
    lifted: lifted ? lifted.getAttribute('data-square') : '',
    blocks: all('#pieces .barricade').map((e) => e.getAttribute('data-square')),
    pawns: all('#pieces .pawn[data-square]').map((e) => e.getAttribute('data-square')),
    card: (document.querySelector('#panel .name') || {}).textContent || '',
    board: getComputedStyle(document.querySelector('#board')).display !== 'none',
    formTop: field ? field.getBoundingClientRect().top : -1,
    formOpen: document.querySelector('#new').open,
    said: document.querySelector('#said').textContent,
    note: document.querySelector('#note').textContent,
    turn: Number(document.body.dataset.turn ?? -1),
    winner: document.body.dataset.winner || '',
  };
})()`

// readBoard reads the page's board view.
func readBoard(t *testing.T, ctx context.Context) boardView {
	t.Helper()
	return readPage[boardView](t, ctx, boardJS)
}

// waitBoard polls the page until ok holds of its board view.
func waitBoard(t *testing.T, ctx context.Context, what string, ok func(boardView) bool) boardView {
	t.Helper()
	return waitPage(t, ctx, boardJS, "the board", "board-failed.png", what, ok)
}

// fiveSandbox is a sandbox with Alice, Bob and Carol whose die always
// shows 5 (from its house, a red pawn then takes the barricade on a3 or
// e3), the first seat beginning.
func fiveSandbox(t *testing.T) (*sandbox.App, *httptest.Server, []sandbox.User) {
	t.Helper()
	limits := fakediscord.DefaultLimits()
	limits.ChannelMessages, limits.MessageEdits = fakediscord.Rate{}, fakediscord.Rate{}
	app, err := sandbox.Start(context.Background(), sandbox.Options{
		Users:  []string{"Alice", "Bob", "Carol"},
		Limits: &limits,
		Logger: harness.Logger(new(harness.LogBuffer)),
		Bot: func(c *bot.Config) {
			c.Dice = engine.DiceFunc(func() int { return 5 })
			c.Draw = func(int) int { return 0 }
		},
	})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, app.Close()) })
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	return app, srv, sandbox.Users("Alice", "Bob", "Carol")
}

// boardPages opens the Activity for each user on game id (0: the game of
// the channel), each in a browser context of its own at width × height.
func boardPages(t *testing.T, srv *httptest.Server, width, height int, id int64, users ...sandbox.User) []context.Context {
	t.Helper()
	first := harness.Browser(t, width, height)
	var pages []context.Context
	for i, u := range users {
		ctx := first
		if i > 0 {
			var cancel context.CancelFunc
			ctx, cancel = chromedp.NewContext(first, chromedp.WithNewBrowserContext())
			t.Cleanup(cancel)
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))))
		}
		url := fmt.Sprintf("%s/.proxy/?user=%s", srv.URL, u.ID)
		if id > 0 {
			url += fmt.Sprintf("&game=%d", id)
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url)))
		pages = append(pages, ctx)
	}
	return pages
}

// rollIfAsked taps Roll when the page offers it (a server that rolls by
// button), then waits for the pawns to move.
func rollIfAsked(t *testing.T, ctx context.Context) activityView {
	t.Helper()
	v := waitActivity(t, ctx, "a roll or a move", func(v activityView) bool { return len(v.Movable) > 0 || hasAct(readBoard(t, ctx), "roll") })
	if len(v.Movable) == 0 {
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#actions button[data-act="roll"]`)))
		v = waitActivity(t, ctx, "the pawns to move", func(v activityView) bool { return len(v.Movable) > 0 })
	}
	return v
}

func hasAct(v boardView, act string) bool {
	for _, a := range v.Actions {
		if a == act {
			return true
		}
	}
	return false
}

// TestActivityBoardPlacement: Alice's pawn takes a barricade; while she
// picks its square, Bob (and Carol, watching) see her pawn on the square
// it took and the barricade lifted off it, and read that she is placing
// it, not choosing a move; once she taps a square, the barricade is down
// there for everyone. The header names the game.
func TestActivityBoardPlacement(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	for _, sz := range boardSizes {
		t.Run(sz.name, func(t *testing.T) {
			app, srv, users := fiveSandbox(t)
			id := newActivityGame(t, app, srv, users)
			pages := boardPages(t, srv, sz.width, sz.height, id, users...)
			alice, bob, carol := pages[0], pages[1], pages[2]
			for _, ctx := range pages {
				v := waitBoard(t, ctx, "the game", func(v boardView) bool { return v.Turn > 0 })
				assert.Equal(t, fmt.Sprintf("Malefiz · game #%d", id), v.GameNo)
			}
			v := rollIfAsked(t, alice)
			require.Equal(t, []string{"home"}, v.Movable)
			require.NoError(t, chromedp.Do(alice, chromedp.Click(`#marks .movable[data-from="home"]`)))
			v = waitActivity(t, alice, "the destinations", func(v activityView) bool { return len(v.Takes) > 0 })
			take := v.Takes[0]
			require.Contains(t, readBoard(t, bob).Blocks, take, "the barricade is there before the move")
			require.NoError(t, chromedp.Do(alice, chromedp.Click(fmt.Sprintf(`#marks .target[data-to=%q]`, take))))
			waitActivity(t, alice, "the squares for the barricade", func(v activityView) bool { return len(v.Free) > 0 })

			for _, ctx := range []context.Context{bob, carol} {
				w := waitBoard(t, ctx, "the pending move", func(v boardView) bool { return v.Lifted == take })
				assert.Contains(t, w.Pawns, take, "the pawn on the square it took")
				assert.NotContains(t, w.Blocks, take, "the barricade lifted off it")
				assert.Contains(t, w.Said, "took a barricade and is choosing its square")
				assert.NotContains(t, w.Said, "choosing a move")
				assert.Empty(t, w.Note)
				assert.Empty(t, readActivity(t, ctx).Free, "only the mover places")
			}
			assert.Contains(t, readBoard(t, carol).Said, "You are watching")
			a := readBoard(t, alice)
			assert.Equal(t, take, a.Lifted, "the mover sees it lifted too")
			assert.Contains(t, a.Pawns, take)
			time.Sleep(500 * time.Millisecond) // the pawn's slide ends
			shot := activityPlacingScreenshot
			if sz.name == "phone" {
				shot = activityPlacingPhoneScreenshot
			}
			harness.Screenshot(t, bob, filepath.Join(t.ArtifactDir(), filepath.Base(shot)))
			if *harness.Update {
				harness.Screenshot(t, bob, shot)
			}

			free := readActivity(t, alice).Free
			square := lowest(free)
			require.NoError(t, chromedp.Do(alice, chromedp.Click(fmt.Sprintf(`#marks .place[data-square=%q]`, square))))
			for _, ctx := range pages {
				w := waitBoard(t, ctx, "the barricade put down", func(v boardView) bool { return v.Lifted == "" && v.Turn > 1 })
				assert.Contains(t, w.Blocks, square)
				assert.Contains(t, w.Pawns, take)
				assert.NotContains(t, w.Said, "took a barricade")
			}
		})
	}
}

// TestActivityBoardHint: on a server with hints, the player to move asks
// the board for one: the same words as the turn card's Hint button, shown
// to her alone, its move marked; the other player has no Hint, and the
// hint is recorded as the button's is.
func TestActivityBoardHint(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	for _, sz := range boardSizes {
		t.Run(sz.name, func(t *testing.T) {
			app, srv, users := fiveSandbox(t)
			gs, err := app.Main.DB().GuildSettings(t.Context(), app.Fake.GuildID)
			require.NoError(t, err)
			gs.Hints = true
			require.NoError(t, app.Main.DB().SetGuildSettings(t.Context(), app.Fake.GuildID, gs))
			id := newActivityGame(t, app, srv, users)
			pages := boardPages(t, srv, sz.width, sz.height, id, users[0], users[1])
			alice, bob := pages[0], pages[1]
			waitBoard(t, bob, "the game", func(v boardView) bool { return v.Turn > 0 })
			rollIfAsked(t, alice)
			v := waitBoard(t, alice, "the Hint button", func(v boardView) bool { return hasAct(v, "hint") })
			assert.Empty(t, v.Hint)
			assert.False(t, hasAct(readBoard(t, bob), "hint"), "only the player to move may ask")

			require.NoError(t, chromedp.Do(alice, chromedp.Click(`#actions button[data-act="hint"]`)))
			v = waitBoard(t, alice, "the hint", func(v boardView) bool { return v.Hint != "" })
			assert.True(t, strings.HasPrefix(v.Hint, "💡 The computer would play"), v.Hint)
			require.Len(t, v.Hinted, 1, "its move marked on the board")
			assert.Contains(t, []string{"a3", "e3"}, v.Hinted[0])
			assert.Empty(t, v.Note)
			harness.Screenshot(t, alice, filepath.Join(t.ArtifactDir(), "activity-hint.png"))
			b := readBoard(t, bob)
			assert.Empty(t, b.Hint, "Bob does not see Alice's hint")
			assert.Empty(t, b.Note)

			events, err := app.Main.DB().Events(t.Context(), id)
			require.NoError(t, err)
			asked := 0
			for _, e := range events {
				if e.Kind == bottable.EventHint {
					asked++
				}
			}
			assert.Equal(t, 1, asked, "recorded for the coach's verdict")

			// The hint's move, tapped, takes a barricade: the hint stays,
			// its square for the barricade marked; once placed, the next
			// turn shows no hint.
			require.NoError(t, chromedp.Do(alice, chromedp.Click(fmt.Sprintf(`#marks .target[data-to=%q]`, v.Hinted[0]))))
			waitActivity(t, alice, "the squares for the barricade", func(v activityView) bool { return len(v.Free) > 0 })
			v = readBoard(t, alice)
			assert.NotEmpty(t, v.Hint, "the hint says where the barricade goes")
			place, err := chromedp.Run(alice, chromedp.Evaluate[string](`(document.querySelector('#marks .place.hinted') || {dataset: {}}).dataset.square || ''`))
			require.NoError(t, err)
			require.NotEmpty(t, place, "the hint's square for the barricade marked")
			assert.Contains(t, v.Hint, "barricade to "+place)
			harness.Screenshot(t, alice, filepath.Join(t.ArtifactDir(), "activity-hint-place.png"))
			require.NoError(t, chromedp.Do(alice, chromedp.Click(fmt.Sprintf(`#marks .place[data-square=%q]`, place))))
			v = waitBoard(t, alice, "the next turn", func(v boardView) bool { return v.Turn > 1 })
			assert.Empty(t, v.Hint, "a hint is for its turn")
		})
	}
}

// TestActivityBoardLobby: the lobby on the board as its card says it (the
// game's number, its host, its seats free and taken, its rules, time and
// die); the host seats a computer from the menu and removes it with ✕,
// both shown in the channel's lobby card; Bob, seated, may add one but
// not remove it; the computer is named as in the thread.
func TestActivityBoardLobby(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	for _, sz := range boardSizes {
		t.Run(sz.name, func(t *testing.T) {
			app, srv, users := fiveSandbox(t)
			lobbyMsg := sandboxPost(t, srv, "/api/command", map[string]string{"user": users[0].ID, "line": "/malefiz new seats:3 six-again:true"})["message"].(string)
			pages := boardPages(t, srv, sz.width, sz.height, 0, users[0], users[1])
			alice, bob := pages[0], pages[1]
			v := waitBoard(t, alice, "the lobby", func(v boardView) bool { return v.Host != "" })
			id := readActivity(t, alice).Turn
			assert.Equal(t, 0, id, "a lobby has no turn")
			assert.Regexp(t, `^Malefiz · game #\d+$`, v.GameNo)
			assert.Equal(t, "Host: Alice", v.Host)
			assert.Contains(t, v.Options, "Rules: roll again on a 6")
			assert.True(t, slicesHasPrefix(v.Options, "Die: "), "%v", v.Options)
			assert.Equal(t, []string{"Alice"}, v.Seats)
			assert.Equal(t, 2, v.Free, "two free seats listed")
			assert.Contains(t, v.Levels, "normal")
			assert.Empty(t, v.Remove, "no computer yet")

			w := waitBoard(t, bob, "the lobby", func(v boardView) bool { return v.Host != "" })
			assert.Empty(t, w.Levels, "a watcher adds no computer")
			require.NoError(t, chromedp.Do(bob, chromedp.Click(`#actions button[data-act="join"]`)))
			w = waitBoard(t, bob, "Bob seated", func(v boardView) bool { return len(v.Seats) == 2 })
			assert.NotEmpty(t, w.Levels, "seated, Bob may add a computer, as in the thread")

			require.NoError(t, chromedp.Do(alice, chromedp.SetValue(`#add-computer`, "normal"),
				chromedp.Evaluate[chromedp.Void](`document.querySelector('#add-computer').dispatchEvent(new Event('change'))`)))
			for _, ctx := range pages {
				v = waitBoard(t, ctx, "the computer seated", func(v boardView) bool { return len(v.Seats) == 3 })
				assert.Equal(t, "Computer (normal)", v.Seats[2], "named as in the thread")
				assert.Zero(t, v.Free)
				assert.Empty(t, v.Levels, "no seat left")
			}
			assert.Equal(t, []string{"yellow"}, readBoard(t, alice).Remove, "the host may remove it")
			assert.Empty(t, readBoard(t, bob).Remove, "Bob may not")
			require.Eventually(t, func() bool {
				m, ok := app.Fake.Message(lobbyMsg)
				return ok && strings.Contains(m.Text(), "Computer (normal)")
			}, harness.Patience, 20*time.Millisecond, "the lobby card in the channel shows the computer")
			time.Sleep(150 * time.Millisecond)
			shot := activityLobbyScreenshot
			if sz.name == "phone" {
				shot = activityLobbyPhoneScreenshot
			}
			harness.Screenshot(t, alice, filepath.Join(t.ArtifactDir(), filepath.Base(shot)))
			if *harness.Update {
				harness.Screenshot(t, alice, shot)
			}

			require.NoError(t, chromedp.Do(alice, chromedp.Click(`#seats button.remove`)))
			for _, ctx := range pages {
				v = waitBoard(t, ctx, "the computer removed", func(v boardView) bool { return len(v.Seats) == 2 })
				assert.Equal(t, 1, v.Free)
				assert.Empty(t, v.Note)
			}
			require.Eventually(t, func() bool {
				m, ok := app.Fake.Message(lobbyMsg)
				return ok && !strings.Contains(m.Text(), "Computer (normal)")
			}, harness.Patience, 20*time.Millisecond, "the lobby card in the channel follows")
		})
	}
}

// slicesHasPrefix reports whether a line of lines starts with prefix.
func slicesHasPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// TestActivityBoardOpensOnTheForm: in a channel with no game the Activity
// opens on the form of a new game, in sight at the top, with no empty
// board and a bar that says what to do; no game number.
func TestActivityBoardOpensOnTheForm(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	for _, sz := range boardSizes {
		t.Run(sz.name, func(t *testing.T) {
			_, srv, users := fiveSandbox(t)
			ctx := boardPages(t, srv, sz.width, sz.height, 0, users[0])[0]
			require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#new-form select[name="seats"]`)))
			v := waitBoard(t, ctx, "the form", func(v boardView) bool { return v.FormOpen && v.Said != "" })
			assert.False(t, v.Board, "no empty board")
			assert.Equal(t, "No game is open in this channel yet: choose its options and open one.", v.Said)
			assert.Empty(t, v.GameNo)
			assert.Positive(t, v.FormTop)
			assert.Less(t, v.FormTop, 250.0, "the form's first field in sight at the top")
			harness.Screenshot(t, ctx, filepath.Join(t.ArtifactDir(), "activity-form.png"))

			// Opened, the lobby is drawn on the board.
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#new-form button[data-act="new"]`)))
			v = waitBoard(t, ctx, "the new lobby", func(v boardView) bool { return v.Host != "" })
			assert.True(t, v.Board)
			assert.False(t, v.FormOpen)
			assert.NotEmpty(t, v.GameNo)
		})
	}
}

// TestActivityBoardNamesComputers: a computer's seat is "Computer
// (normal)" on the board as in the thread, in the seats, on the board's
// card and in the winner's line; Alice resigns and the computer wins.
func TestActivityBoardNamesComputers(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	for _, sz := range boardSizes {
		t.Run(sz.name, func(t *testing.T) {
			app, srv, users := fiveSandbox(t)
			lobbyMsg := sandboxPost(t, srv, "/api/command", map[string]string{"user": users[0].ID, "line": "/malefiz new seats:2 bots:1 level:normal"})["message"].(string)
			m, ok := app.Fake.Message(lobbyMsg)
			require.True(t, ok)
			var start string
			for _, cid := range m.CustomIDs() {
				if strings.HasPrefix(cid, "mf/start/") {
					start = cid
				}
			}
			require.NotEmpty(t, start)
			id := int64(0)
			_, err := fmt.Sscanf(start, "mf/start/%d", &id)
			require.NoError(t, err)
			ctx := boardPages(t, srv, sz.width, sz.height, id, users[0])[0]
			v := waitBoard(t, ctx, "the lobby", func(v boardView) bool { return len(v.Seats) == 2 })
			assert.Equal(t, []string{"Alice", "Computer (normal)"}, v.Seats)
			sandboxPost(t, srv, "/api/click", map[string]string{"user": users[0].ID, "message": lobbyMsg, "custom_id": start})
			v = waitBoard(t, ctx, "the game", func(v boardView) bool { return v.Turn > 0 })
			assert.Equal(t, []string{"Alice", "Computer (normal)"}, v.Seats)

			sg, err := app.Main.DB().Game(t.Context(), id)
			require.NoError(t, err)
			ask, err := app.Fake.SlashCommand(t.Context(), fakediscord.Invocation{User: users[0].ID, Channel: sg.ThreadID, Name: "malefiz", Sub: "resign"})
			require.NoError(t, err)
			if ask.Message != nil && harness.HasControl(*ask.Message, bot.ActResign) {
				_, err = app.Fake.Click(t.Context(), fakediscord.Invocation{User: users[0].ID, Channel: sg.ThreadID,
					MessageID: ask.Message.ID, CustomID: harness.Control(t, *ask.Message, bot.ActResign)})
				require.NoError(t, err)
			}
			v = waitBoard(t, ctx, "the winner", func(v boardView) bool { return v.Winner != "" })
			assert.Equal(t, "Computer (normal) wins!", v.Said)
			assert.Equal(t, "Computer (normal)", v.Card, "on the board's card")
			assert.NotContains(t, v.Said, "🤖")
			sg, err = app.Main.DB().Game(t.Context(), id)
			require.NoError(t, err)
			assert.Equal(t, malefiz.StatusFinished, sg.Status)
			harness.Screenshot(t, ctx, filepath.Join(t.ArtifactDir(), "activity-computer-won.png"))
		})
	}
}
