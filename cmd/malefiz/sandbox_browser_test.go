package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/activity"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// readmeScreenshot is the README's picture of the sandbox, written by
// TestSandboxInTheBrowser with -update.
const readmeScreenshot = "../../docs/sandbox.png"

// phoneScreenshot is the same turn at a phone's width (400 px).
const phoneScreenshot = "../../docs/sandbox-phone.png"

// seededDie is a fair die from a fixed seed: the same game every run (the
// seed of TestSandboxInTheBrowser gives one of the shorter games, 84 turns).
type seededDie struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func (d *seededDie) Roll() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.rng.IntN(6) + 1
}

// browser starts Chromium headless with a fresh profile. Without Chromium
// the test is skipped, except in CI (the CI variable set), where it fails.
func browser(t *testing.T, width, height int) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if _, statErr := os.Stat("/usr/bin/chromium"); statErr == nil {
			path, err = "/usr/bin/chromium", nil
		}
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed (apt-get install -y chromium); CI needs the browser test")
		}
		t.Skip("chromium is not installed (apt-get install -y chromium)")
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithErrorf(t.Logf))
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelTimeout)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))))
	return ctx
}

// turnView is what the page offers the user right now, read by turnJS.
type turnView struct {
	Winner    string   `json:"winner"`    // the winner line, once there is one
	Roll      string   `json:"roll"`      // custom ID of an enabled Roll button
	Moves     []string `json:"moves"`     // custom IDs of the move buttons
	Pawns     []string `json:"pawns"`     // custom IDs of the pawn buttons
	Places    []string `json:"places"`    // custom IDs of the placement suggestions
	Menus     []string `json:"menus"`     // custom IDs of enabled placement menus
	Signature string   `json:"signature"` // changes whenever the page does
	Pending   bool     `json:"pending"`   // a click is in flight
}

// turnJS reads the newest message with game controls.
const turnJS = `(() => {
  const msgs = [...document.querySelectorAll('#messages .msg')];
  const text = document.querySelector('#messages').innerText;
  const winner = (text.match(/^.*\bwins\b.*$/m) || [''])[0];
  let controls = [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const c = [...msgs[i].querySelectorAll('[data-cid]:not(:disabled)')].filter((e) => /^mf\/(roll|move|pawn|place|prow)\//.test(e.dataset.cid));
    if (c.length) { controls = c; break; }
  }
  const ids = (prefix, tag) => controls.filter((e) => e.dataset.cid.startsWith(prefix) && e.tagName === tag).map((e) => e.dataset.cid);
  return {
    winner,
    roll: ids('mf/roll/', 'BUTTON')[0] || '',
    moves: ids('mf/move/', 'BUTTON'),
    pawns: ids('mf/pawn/', 'BUTTON'),
    places: ids('mf/place/', 'BUTTON'),
    menus: controls.filter((e) => e.tagName === 'SELECT').map((e) => e.dataset.cid),
    signature: msgs.map((m) => m.id + ':' + m.querySelectorAll('[data-cid]').length + ':' + m.textContent.length).join('|'),
    pending: !!document.querySelector('.msg.pending'),
  };
})()`

// chooseSelect picks the first real option of a select menu, as a user
// would with the keyboard, and fires its change event.
const chooseSelectJS = `((cid) => {
  const sel = [...document.querySelectorAll('select[data-cid]')].find((s) => s.dataset.cid === cid);
  if (!sel || sel.options.length < 2) return false;
  sel.focus();
  sel.selectedIndex = 1;
  sel.dispatchEvent(new Event('change', { bubbles: true }));
  return true;
})`

// cidSelector selects the control with a custom ID.
func cidSelector(cid string) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf(`[data-cid=%q]`, cid))
}

// nearestMove returns the move button whose destination is nearest the
// goal: a custom ID mf/move/GAME/TURN/FROM-TO.
func nearestMove(t *testing.T, moves []string) string {
	best, bestDist := moves[0], 1<<30
	for _, cid := range moves {
		arg := cid[strings.LastIndex(cid, "/")+1:]
		_, to, ok := strings.Cut(arg, "-")
		if !ok {
			continue
		}
		sq, err := engine.ParseSquare(to)
		if err != nil {
			t.Logf("move %s: %v", cid, err)
			continue
		}
		if d := engine.DistanceToGoal(sq); d < bestDist {
			best, bestDist = cid, d
		}
	}
	return best
}

// nearestPawn returns the pawn button of the pawn nearest the goal
// (mf/pawn/GAME/TURN/SQUARE or .../home).
func nearestPawn(pawns []string) string {
	best, bestDist := pawns[0], 1<<30
	for _, cid := range pawns {
		sq, err := engine.ParseSquare(cid[strings.LastIndex(cid, "/")+1:])
		if err != nil {
			continue
		}
		if d := engine.DistanceToGoal(sq); d < bestDist {
			best, bestDist = cid, d
		}
	}
	return best
}

// screenshot saves the viewport as a PNG, the mouse moved out of the way
// (a hovered message shows its time and a lighter background).
func screenshot(t *testing.T, ctx context.Context, path string) []byte {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, 1, 799)))
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot %s", path)
	return png
}

// seededSandbox starts the sandbox with users and the bot's dice seeded
// (5, 3), the lobby's draw always the first seat, and serves its page; both
// close when the test ends.
func seededSandbox(t testing.TB, users ...string) (*sandboxApp, *httptest.Server) {
	t.Helper()
	return seededSandboxLogs(t, new(logBuffer), 5, nil, users...)
}

// seededSandboxLogs is seededSandbox logging into logs, its dice seeded
// (seed, 3), the Activity's options changed by activity when not nil.
func seededSandboxLogs(t testing.TB, logs *logBuffer, seed uint64, activity func(*activity.Config), users ...string) (*sandboxApp, *httptest.Server) {
	t.Helper()
	// The browser tests play whole games through the page as fast as
	// Chromium clicks and are not about Discord's limits: the channels'
	// message buckets off (see withoutMessageBuckets; TestSandboxInTheBrowser
	// found no winner in its time with them).
	limits := fakediscord.DefaultLimits()
	limits.ChannelMessages, limits.MessageEdits = fakediscord.Rate{}, fakediscord.Rate{}
	app, err := startSandbox(context.Background(), sandboxOptions{
		Users:  users,
		Limits: &limits,
		Logger: testLogger(logs),
		Bot: func(c *bot.Config) {
			c.Dice = &seededDie{rng: rand.New(rand.NewPCG(seed, 3))}
			c.Draw = func(int) int { return 0 }
		},
		Activity: activity,
	})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, app.Close()) })
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	return app, srv
}

// TestSandboxInTheBrowser plays a whole game in the sandbox page with a
// real Chromium: /malefiz new with a computer, Start, then every turn by
// clicking what the page offers the player to move, until the winner's
// line; on the way Bob presses a button of Alice's turn and gets a
// refusal only he can see.
func TestSandboxInTheBrowser(t *testing.T) {
	_, srv := seededSandbox(t, strings.Split(defaultSandboxUsers, ",")...)
	ctx := browser(t, 1280, 800) // closed first: its event stream ends before the server
	out := t.ArtifactDir()

	// The command box by keyboard, as a user types it: Tab completes the
	// command and the subcommand from the registered ones.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`)),
		chromedp.SendKeys(chromedp.ID("command"), "/mal"+kb.Tab+"ne"+kb.Tab),
	))
	typed, err := chromedp.Run(ctx, chromedp.Value(chromedp.ID("command")))
	require.NoError(t, err)
	require.Equal(t, "/malefiz new ", typed, "Tab completes the command and its subcommand")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("command"), "bots:1 seats:2"+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`button[data-cid^="mf/start/"]:not(:disabled)`)),
	))
	lobby := pageText(t, ctx, `#messages`)
	assert.Contains(t, lobby, "Alice used /malefiz new bots:1 seats:2")
	assert.Contains(t, lobby, "Computer")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-cid^="mf/start/"]`))))

	// The bot plays the game in a thread: follow it there (the page's own
	// click on the channel list's entry, which is redrawn as events come).
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Poll[chromedp.Void](`document.querySelector('#channels li.thread a')`, chromedp.WithPollingTimeout(10*time.Second)),
	))
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { [...document.querySelectorAll('#channels li.thread a')].pop().click(); return true; })()`))
	require.NoError(t, err)

	deadline := time.Now().Add(70 * time.Second)
	clicks, retries, humanMoves, refused := 0, 0, 0, false
	var view turnView
	for time.Now().Before(deadline) {
		view, err = chromedp.Run(ctx, chromedp.Evaluate[turnView](turnJS))
		require.NoError(t, err)
		if view.Winner != "" {
			break
		}
		if view.Pending {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if !refused && humanMoves >= 5 && len(view.Moves) > 0 {
			// The V2 turn whole, from its header to its legend, on a
			// desktop's width; then on a phone's.
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1060)))
			time.Sleep(200 * time.Millisecond) // the page lays itself out again
			screenshot(t, ctx, filepath.Join(out, "sandbox-midgame.png"))
			if *update {
				screenshot(t, ctx, readmeScreenshot)
			}
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(400, 860)))
			time.Sleep(200 * time.Millisecond) // the page lays itself out again
			screenshot(t, ctx, filepath.Join(out, "sandbox-phone.png"))
			if *update {
				screenshot(t, ctx, phoneScreenshot)
			}
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)))
			refusedAsBob(t, ctx, out, view)
			refused = true
			continue
		}
		var act func() error
		switch {
		case view.Roll != "":
			act = func() error { return chromedp.Do(ctx, chromedp.Click(cidSelector(view.Roll))) }
		case len(view.Moves) > 0:
			cid := nearestMove(t, view.Moves)
			humanMoves++
			act = func() error { return chromedp.Do(ctx, chromedp.Click(cidSelector(cid))) }
		case len(view.Pawns) > 0:
			cid := nearestPawn(view.Pawns)
			act = func() error { return chromedp.Do(ctx, chromedp.Click(cidSelector(cid))) }
		case len(view.Places) > 0:
			act = func() error { return chromedp.Do(ctx, chromedp.Click(cidSelector(view.Places[0]))) }
		case len(view.Menus) > 0:
			cid := view.Menus[len(view.Menus)-1]
			act = func() error {
				_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](chooseSelectJS+"("+fmt.Sprintf("%q", cid)+")"))
				return err
			}
		default:
			time.Sleep(30 * time.Millisecond) // the computer's turn, or the bot still answering
			continue
		}
		require.NoError(t, act())
		clicks++
		if !waitForChange(t, ctx, view.Signature) {
			// A click that landed as its message was redrawn is lost, as
			// on Discord: look again and click again.
			retries++
			require.Less(t, retries, 5, "the page did not change after click %d: %+v", clicks, view)
		}
	}
	require.NotEmpty(t, view.Winner, "no winner after %d clicks", clicks)
	t.Logf("%d clicks (%d again), %d moves of Alice; %s", clicks, retries, humanMoves, view.Winner)
	turns := regexp.MustCompile(`wins after (\d+) turns`).FindStringSubmatch(view.Winner)
	require.Len(t, turns, 2, "winner line %q", view.Winner)
	assert.True(t, refused, "the game ended before Bob could try a button")
	screenshot(t, ctx, filepath.Join(out, "sandbox-end.png"))

	// The result is recorded: /malefiz history lists the game.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("command"), "/malefiz history"+kb.Enter),
		chromedp.Poll[chromedp.Void](`document.querySelector('#messages .msg:last-child').textContent.includes('/malefiz history')`,
			chromedp.WithPollingTimeout(10*time.Second)),
	))
	history := pageText(t, ctx, `#messages .msg:last-child`)
	assert.Contains(t, history, "Alice used /malefiz history")
	assert.Contains(t, history, "#1 · 🏆")
	assert.Contains(t, history, turns[1]+" turns")
	screenshot(t, ctx, filepath.Join(out, "sandbox-history.png"))
}

// waitForChange waits a few seconds for the page to differ from
// signature and reports whether it did.
func waitForChange(t *testing.T, ctx context.Context, signature string) bool {
	t.Helper()
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(15 * time.Millisecond) {
		view, err := chromedp.Run(ctx, chromedp.Evaluate[turnView](turnJS))
		require.NoError(t, err)
		if view.Signature != signature && !view.Pending {
			return true
		}
	}
	screenshot(t, ctx, filepath.Join(t.ArtifactDir(), "sandbox-unchanged.png"))
	return false
}

// refusedAsBob switches to Bob, presses a button of Alice's turn and
// checks that the refusal is private: Bob sees it with "Only you can see
// this", Alice does not.
func refusedAsBob(t *testing.T, ctx context.Context, out string, view turnView) {
	t.Helper()
	cid := view.Roll
	if cid == "" {
		cid = view.Moves[0]
	}
	users := pageUsers(t, ctx)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("user"), users["Bob"]),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#user').dispatchEvent(new Event('change'))`),
		chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.body.dataset.user === %q`, users["Bob"]), chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Click(cidSelector(cid)),
		chromedp.WaitVisible(chromedp.CSS(`#messages .msg.ephemeral`)),
	))
	private := pageText(t, ctx, `#messages .msg.ephemeral:last-child`)
	assert.Contains(t, private, "Only you can see this")
	assert.Contains(t, private, "Bob used a button or menu")
	screenshot(t, ctx, filepath.Join(out, "sandbox-refusal.png"))

	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("user"), users["Alice"]),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#user').dispatchEvent(new Event('change'))`),
		chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.body.dataset.user === %q`, users["Alice"]), chromedp.WithPollingTimeout(10*time.Second)),
	))
	ephemeral, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#messages .msg.ephemeral').length`))
	require.NoError(t, err)
	assert.Zero(t, ephemeral, "Alice sees none of Bob's private answers")
}

// pageText returns the text of the element sel selects, its white space
// collapsed.
func pageText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	require.NoError(t, err)
	return strings.Join(strings.Fields(text), " ")
}

// pageUsers returns the page's user IDs by name.
func pageUsers(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	ids, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](
		`Object.fromEntries([...document.querySelectorAll('#user option')].map((o) => [o.textContent, o.value]))`))
	require.NoError(t, err)
	require.Contains(t, ids, "Bob")
	return ids
}
