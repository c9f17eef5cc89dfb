package harness

import (
	"context"
	"flag"
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

// Browser starts Chromium headless with a fresh profile. Without Chromium
// the test is skipped, except in CI (the CI variable set), where it fails.
func Browser(t *testing.T, width, height int) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if _, statErr := os.Stat("/usr/bin/chromium"); statErr == nil {
			path, err = "/usr/bin/chromium", nil
		}
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed (apt-get install -y chromium); CI needs the Browser test")
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
		// The reduced motion a player can ask for (prefers-reduced-motion):
		// the Activity's movable pawns otherwise spin their halo for as long
		// as it is a player's turn, and Chromium repainted the board at every
		// frame: 20-21 CPU-seconds of Chromium's processes for
		// TestActivityBoardHint and TestActivityInTheBrowser, 12-13 with it.
		chromedp.Flag("force-prefers-reduced-motion", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithErrorf(t.Logf))
	t.Cleanup(cancel)
	// A guard against a page that hangs, not a bound on the pace: a
	// whole game played in the browser takes 30 s on a quiet machine and
	// ran past 90 s with the browser tests run side by side on a loaded
	// one.
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTimeout)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))))
	return ctx
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
