package harness

import (
	"context"
	"errors"
	"flag"
	"log"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/malefiz-discord/malefiz/activity"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Browser opens a window of its own in the test binary's Chromium,
// headless, at width × height, for the test's life (see browserGuard).
// Without Chromium the test is skipped, except in CI (the CI variable
// set), where it fails.
//
// The tests of a binary share one Chromium (see chromium), each in a
// window of its own: starting a Chromium costs 1.8 CPU-seconds and a
// window 0.8, and the browser tests open some 50 of them in CI. A window is
// as much a page of its own as a browser was: no test server sets a cookie
// or stores anything, and each test's server is an origin of its own.
func Browser(t *testing.T, width, height int) context.Context {
	t.Helper()
	browser := chromium.acquire(t)
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	ctx, cancelGuard := context.WithTimeout(ctx, browserGuard(t))
	t.Cleanup(cancelGuard)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))))
	return ctx
}

// browserGuard bounds a test's window: a guard against a page that hangs,
// not a bound on the pace, which the tests that play whole games keep
// themselves (they fail when the page stands still for a minute). A whole
// game in the browser takes 16 s alone under -race on a quiet machine and
// took 301 s in CI beside the race phase, past the 5 minutes this guard
// once was; so the guard is 15 minutes, or ends a minute before the test
// binary's -timeout, whichever comes first, so that a page that hangs
// fails its test with its screenshots rather than the binary with a panic.
func browserGuard(t *testing.T) time.Duration {
	guard := 15 * time.Minute
	if deadline, ok := t.Deadline(); ok {
		guard = min(guard, time.Until(deadline)-time.Minute)
	}
	return guard
}

// Poll waits in the page until the JavaScript expression expr is truthy,
// for Patience at most. It looks every 50 ms by a timer. chromedp's Poll
// looks at each animation frame, and its timeout is read only in that
// loop: an expression that threw on a later frame, or frames that stopped
// coming, left a test waiting for its window's guard (the sandbox's
// /malefiz history after a whole game hung so, in CI and here). Here an
// expression that throws (an element not drawn yet) counts as false, and
// the wait's context ends half a minute after the page's own timeout.
func Poll(expr string) chromedp.Action[chromedp.Void] {
	poll := chromedp.Poll[chromedp.Void](`(() => { try { return !!(`+expr+`); } catch (e) { return false; } })()`,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(Patience))
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		ctx, cancel := context.WithTimeout(ctx, Patience+30*time.Second)
		defer cancel()
		return poll(ctx, t)
	}
}

// CloseBrowser stops the test binary's Chromium, if it runs: from a
// TestMain, after the tests (otherwise it stops when no test has used it
// for a few seconds, or with the binary).
func CloseBrowser() { chromium.close(false) }

// RunTests runs m's tests, then stops the Chromium they shared, and
// returns their exit code: a browser test package's TestMain is
// os.Exit(harness.RunTests(m)).
func RunTests(m *testing.M) int {
	code := m.Run()
	CloseBrowser()
	return code
}

// chromium is the test binary's Chromium: started by the first Browser,
// stopped once no test has had a window in it for browserLinger, or by
// CloseBrowser.
var chromium sharedBrowser

// browserLinger is how long the Chromium waits for the next test once
// the last window's test ended: the browser tests of a package come one
// after another with other tests between them.
const browserLinger = 5 * time.Second

type sharedBrowser struct {
	mu      sync.Mutex
	browser context.Context // its first tab; nil while none runs
	stop    func()          // stops it and removes its profile
	windows int             // the tests with a window open in it
	idle    *time.Timer     // stops it, once windows went to 0
}

// acquire returns the Chromium's first tab, starting it if it is not
// running, and holds it open until t ends.
func (b *sharedBrowser) acquire(t *testing.T) context.Context {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.idle != nil {
		b.idle.Stop()
		b.idle = nil
	}
	if b.browser == nil {
		browser, stop, err := startChromium()
		if errors.Is(err, errNoChromium) {
			if os.Getenv("CI") != "" {
				t.Fatal("chromium is not installed (apt-get install -y chromium); CI needs the Browser test")
			}
			t.Skip("chromium is not installed (apt-get install -y chromium)")
		}
		require.NoError(t, err, "starting Chromium")
		b.browser, b.stop = browser, stop
	}
	b.windows++
	t.Cleanup(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.windows--
		if b.windows == 0 {
			b.idle = time.AfterFunc(browserLinger, func() { b.close(true) })
		}
	})
	return b.browser
}

// close stops the Chromium if it runs (and, when idleOnly, if no test has
// a window in it).
func (b *sharedBrowser) close(idleOnly bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.browser == nil || (idleOnly && b.windows > 0) {
		return
	}
	b.stop()
	b.browser, b.stop = nil, nil
}

var errNoChromium = errors.New("chromium is not installed")

// startChromium starts Chromium headless with a fresh profile and returns
// its first tab.
func startChromium() (context.Context, func(), error) {
	path, err := exec.LookPath("chromium")
	if err != nil {
		if _, statErr := os.Stat("/usr/bin/chromium"); statErr != nil {
			return nil, nil, errNoChromium
		}
		path = "/usr/bin/chromium"
	}
	dir, err := os.MkdirTemp("", "malefiz-chromium-")
	if err != nil {
		return nil, nil, err
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
		// The reduced motion a player can ask for (prefers-reduced-motion):
		// the Activity's movable pawns otherwise spin their halo for as long
		// as it is a player's turn, and Chromium repainted the board at every
		// frame: 20-21 CPU-seconds of Chromium's processes for
		// TestActivityBoardHint and TestActivityInTheBrowser, 12-13 with it.
		chromedp.Flag("force-prefers-reduced-motion", true),
		// Headless Chromium still builds each window's omnibox, whose popup
		// is a WebUI page in a renderer of its own, loaded for every window
		// (each Browser, and each browser context a test opens) though no
		// test ever sees it: a Chromium cost 3.2 CPU-seconds to start and a
		// window 2.4, without it 1.8 and 0.8 (Chromium 156; Puppeteer's
		// launcher turns the same features off, puppeteer/puppeteer#15278).
		chromedp.Flag("disable-features", "WebUIOmniboxPopup,WebUIOmniboxAimPopup"),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
	)
	// Its errors are chromedp's own (an event it cannot decode), not a
	// test's: it outlives the test that started it.
	browser, cancel := chromedp.NewContext(alloc, chromedp.WithErrorf(log.Printf))
	stop := func() {
		cancel()
		cancelAlloc()
		_ = os.RemoveAll(dir)
	}
	if err := chromedp.Do(browser); err != nil { // starts it
		stop()
		return nil, nil, err
	}
	return browser, stop, nil
}

// WithMotion lets the page in ctx move again (Browser asks every page for
// reduced motion): for a test of the page's animations.
func WithMotion(t *testing.T, ctx context.Context) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "no-preference"}},
		})
		return err
	})))
}

// Screenshot saves the viewport as a PNG, the mouse moved out of the way
// (a hovered message shows its time and a lighter background).
func Screenshot(t *testing.T, ctx context.Context, path string) []byte {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, 1, 799)))
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("Screenshot %s", path)
	return png
}

// SeededSandboxLogs is e2e/sandbox's seededSandbox logging into logs, its dice seeded
// (seed, 3), the Activity's options changed by activity when not nil.
func SeededSandboxLogs(t testing.TB, logs *LogBuffer, seed uint64, activity func(*activity.Config), users ...string) (*sandbox.App, *httptest.Server) {
	t.Helper()
	// The Browser tests play whole games through the page as fast as
	// Chromium clicks and are not about Discord's limits: the channels'
	// message buckets off (see withoutMessageBuckets; TestSandboxInTheBrowser
	// found no winner in its time with them).
	limits := fakediscord.DefaultLimits()
	limits.ChannelMessages, limits.MessageEdits = fakediscord.Rate{}, fakediscord.Rate{}
	app, err := sandbox.Start(context.Background(), sandbox.Options{
		Users:  users,
		Limits: &limits,
		Logger: Logger(logs),
		Bot: func(c *bot.Config) {
			c.Dice = &SeededDie{rng: rand.New(rand.NewPCG(seed, 3))}
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

// SeededDie is a fair die from a fixed seed: the same game every run (the
// seed of TestSandboxInTheBrowser gives one of the shorter games, 84 turns).
type SeededDie struct {
	mu  sync.Mutex
	rng *rand.Rand
}

// Update, set by go test's -update flag, rewrites the golden files and the
// screenshots under docs/ that the README shows instead of only comparing
// them.
var Update = flag.Bool("update", false, "rewrite testdata/*.golden and the README's screenshots under docs/")

// Roll rolls the die.
func (d *SeededDie) Roll() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.rng.IntN(6) + 1
}
