package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// readmeScreenshot is the README's picture of the sandbox, written by
// TestSandboxInTheBrowser with -update.
const readmeScreenshot = "../../docs/sandbox.png"

// phoneScreenshot is the same turn at a phone's width (400 px).
const phoneScreenshot = "../../docs/sandbox-phone.png"

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

// turnJS defines turnView in the page, which reads the newest message
// with game controls, and nextView, which waits for the page to differ
// from a signature: it looks again on each change of #messages (a
// MutationObserver), so a test waiting for the computer's turn costs the
// page nothing until something changes, however slow the machine (a loop
// that read the page every 20 ms read it 15,000 times in a 5-minute game).
const turnJS = `window.turnView = () => {
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
};
window.nextView = (signature, ms) => new Promise((resolve) => {
  let timer;
  const observer = new MutationObserver(() => look(false));
  const look = (last) => {
    const view = turnView();
    if (last || view.winner || (view.signature !== signature && !view.pending)) {
      observer.disconnect();
      clearTimeout(timer);
      resolve(view);
    }
  };
  observer.observe(document.querySelector('#messages'), { subtree: true, childList: true, attributes: true, characterData: true });
  timer = setTimeout(() => look(true), ms);
  look(false);
});`

// nextView returns the page's view once it differs from signature and no
// click is in flight, or the page's view as it is after wait.
func nextView(t *testing.T, ctx context.Context, signature string, wait time.Duration) turnView {
	t.Helper()
	js := fmt.Sprintf(`(() => { if (!window.nextView) { %s } return window.nextView(%q, %d); })()`, turnJS, signature, wait.Milliseconds())
	view, err := chromedp.Run(ctx, chromedp.Evaluate[turnView](js, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	return view
}

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

// seededSandbox starts the sandbox with users and the bot's dice seeded
// (5, 3), the lobby's draw always the first seat, and serves its page; both
// close when the test ends.
func seededSandbox(t testing.TB, users ...string) (*sandbox.App, *httptest.Server) {
	t.Helper()
	return harness.SeededSandboxLogs(t, new(harness.LogBuffer), 5, nil, users...)
}

// TestSandboxInTheBrowser plays a whole game in the sandbox page with a
// real Chromium: /malefiz new with a computer, Start, then every turn by
// clicking what the page offers the player to move, until the winner's
// line; on the way Bob presses a button of Alice's turn and gets a
// refusal only he can see.
func TestSandboxInTheBrowser(t *testing.T) {
	_, srv := seededSandbox(t, strings.Split(sandbox.DefaultUsers, ",")...)
	ctx := harness.Browser(t, 1280, 800) // closed first: its event stream ends before the server
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
		harness.Poll(`document.querySelector('#channels li.thread a')`),
	))
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { [...document.querySelectorAll('#channels li.thread a')].pop().click(); return true; })()`))
	require.NoError(t, err)

	// Before Alice's sixth move: the V2 turn whole, from its header to its
	// legend, on a desktop's width, then on a phone's; and Bob presses a
	// button of her turn.
	refused := false
	view := playToTheEnd(t, ctx, func(moves int, view turnView) {
		if moves != 5 {
			return
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1060)))
		time.Sleep(200 * time.Millisecond) // the page lays itself out again
		harness.Screenshot(t, ctx, filepath.Join(out, "sandbox-midgame.png"))
		if *harness.Update {
			harness.Screenshot(t, ctx, readmeScreenshot)
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(400, 860)))
		time.Sleep(200 * time.Millisecond) // the page lays itself out again
		harness.Screenshot(t, ctx, filepath.Join(out, "sandbox-phone.png"))
		if *harness.Update {
			harness.Screenshot(t, ctx, phoneScreenshot)
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)))
		refusedAsBob(t, ctx, out, view)
		refused = true
	})
	turns := regexp.MustCompile(`wins after (\d+) turns`).FindStringSubmatch(view.Winner)
	require.Len(t, turns, 2, "winner line %q", view.Winner)
	assert.True(t, refused, "the game ended before Bob could try a button")
	harness.Screenshot(t, ctx, filepath.Join(out, "sandbox-end.png"))

	// The result is recorded: /malefiz history lists the game.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("command"), "/malefiz history"+kb.Enter),
		harness.Poll(`document.querySelector('#messages .msg:last-child').textContent.includes('/malefiz history')`),
	))
	history := pageText(t, ctx, `#messages .msg:last-child`)
	assert.Contains(t, history, "Alice used /malefiz history")
	assert.Contains(t, history, "#1 · 🏆")
	assert.Contains(t, history, turns[1]+" turns")
	harness.Screenshot(t, ctx, filepath.Join(out, "sandbox-history.png"))
}

// playToTheEnd plays Alice's turns by what the page offers, the move
// nearest the goal first, until the winner's line, and returns the page's
// last view; before each of her moves it calls before with the number of
// moves she made and the view. The first choice of squares for a captured
// barricade is kept as places.png among the test's artifacts. It gives up when the page stands still for
// a minute: a whole game's time is no bound (it took past 70 s under
// -race beside three other test binaries, and more than two minutes on
// CI's slower machines), a page that no longer changes is.
func playToTheEnd(t *testing.T, ctx context.Context, before func(moves int, view turnView)) turnView {
	t.Helper()
	const stall = time.Minute
	clicks, retries, lost, moves := 0, 0, 0, 0
	placesShot := false
	var view turnView
	seen, changed := "", time.Now()
	for time.Since(changed) < stall {
		view = nextView(t, ctx, seen, time.Second)
		if view.Winner != "" {
			t.Logf("%d clicks (%d again), %d moves of Alice; %s", clicks, retries, moves, view.Winner)
			return view
		}
		if view.Signature != seen {
			seen, changed = view.Signature, time.Now()
		}
		if view.Pending {
			continue
		}
		var act func(context.Context) error
		switch {
		case view.Roll != "":
			act = func(ctx context.Context) error { return clickControl(ctx, view.Roll) }
		case len(view.Moves) > 0:
			before(moves, view)
			moves++
			cid := nearestMove(t, view.Moves)
			act = func(ctx context.Context) error { return clickControl(ctx, cid) }
		case len(view.Pawns) > 0:
			cid := nearestPawn(view.Pawns)
			act = func(ctx context.Context) error { return clickControl(ctx, cid) }
		case len(view.Places) > 0:
			if len(view.Places) > 1 && !placesShot {
				harness.Screenshot(t, ctx, filepath.Join(t.ArtifactDir(), "places.png"))
				placesShot = true
			}
			act = func(ctx context.Context) error { return clickControl(ctx, view.Places[0]) }
		case len(view.Menus) > 0:
			cid := view.Menus[len(view.Menus)-1]
			act = func(ctx context.Context) error {
				_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](chooseSelectJS+"("+fmt.Sprintf("%q", cid)+")"))
				return err
			}
		default: // the computer's turn, or the bot still answering
			continue
		}
		clickCtx, cancel := context.WithTimeout(ctx, clickPatience)
		err := act(clickCtx)
		cancel()
		clicks++
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			err = errLostClick
		}
		if err == nil && !waitForChange(t, ctx, view.Signature) {
			err = errLostClick
		}
		if errors.Is(err, errLostClick) {
			// A click that landed as its message was redrawn is lost, as
			// on Discord, and one whose control was redrawn before it
			// landed never happened: look again and click again.
			retries++
			lost++
			require.Less(t, lost, 5, "the page did not change after %d clicks in a row, the last click %d: %+v", lost, clicks, view)
			continue
		}
		require.NoError(t, err)
		lost = 0
	}
	t.Fatalf("the page stood still for %s before the game's end: %+v", stall, view)
	return view
}

// clickPatience bounds one click of playToTheEnd; one that runs out
// counts as a lost click.
const clickPatience = 20 * time.Second

// errLostClick is a click that changed nothing, or found nothing to click
// in clickPatience.
var errLostClick = errors.New("the click changed nothing")

// clickControl clicks the control with custom ID cid: chromedp's Click,
// which waits for its selector's node and then clicks at its centre. ctx
// bounds the wait: a control redrawn away before the click found it kept
// a test waiting for its window's guard (a barricade's square, once the
// page had switched users and back; here, one run in eight).
func clickControl(ctx context.Context, cid string) error {
	return chromedp.Do(ctx, chromedp.Click(cidSelector(cid)))
}

// waitForChange waits a few seconds for the page to differ from
// signature and reports whether it did.
func waitForChange(t *testing.T, ctx context.Context, signature string) bool {
	t.Helper()
	if view := nextView(t, ctx, signature, 4*time.Second); view.Signature != signature && !view.Pending {
		return true
	}
	harness.Screenshot(t, ctx, filepath.Join(t.ArtifactDir(), "sandbox-unchanged.png"))
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
		harness.Poll(fmt.Sprintf(`document.body.dataset.user === %q`, users["Bob"])),
		harness.Poll(fmt.Sprintf(`[...document.querySelectorAll('[data-cid]')].some((e) => e.dataset.cid === %q && !e.disabled)`, cid)),
	))
	clickCtx, cancel := context.WithTimeout(ctx, harness.Patience)
	defer cancel()
	require.NoError(t, clickControl(clickCtx, cid), "Bob clicks %s", cid)
	require.NoError(t, chromedp.Do(ctx, harness.Poll(`document.querySelector('#messages .msg.ephemeral')`)))
	private := pageText(t, ctx, `#messages .msg.ephemeral:last-child`)
	assert.Contains(t, private, "Only you can see this")
	assert.Contains(t, private, "Bob used a button or menu")
	harness.Screenshot(t, ctx, filepath.Join(out, "sandbox-refusal.png"))

	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("user"), users["Alice"]),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#user').dispatchEvent(new Event('change'))`),
		harness.Poll(fmt.Sprintf(`document.body.dataset.user === %q`, users["Alice"])),
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

// waitPageText reads the text of sel until it holds want, for up to
// timeout, and returns it, reading from the test every 50 ms.
func waitPageText(t *testing.T, ctx context.Context, sel, want string, timeout time.Duration) string {
	t.Helper()
	var text string
	deadline := time.Now().Add(timeout)
	for {
		text = pageText(t, ctx, sel)
		if strings.Contains(text, want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.Contains(t, text, want, "the page's %s", sel)
	return text
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
