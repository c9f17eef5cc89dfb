package sandbox

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chancesScreenshot is the README's picture of a finished game's result in
// the sandbox, its turning points and chart, written by
// TestSandboxShowsTheChancesAndTheCoach with -update.
const chancesScreenshot = "../../docs/chances.png"

// TestSandboxShowsTheChancesAndTheCoach plays a game against a hard
// computer in the sandbox page, on a server with hints on, to its end, and
// looks at what issues 20 and 42 added. On the way: the card's chances, the
// computer's reasons, and a hint Alice asks for once, which only she sees.
// After it: the result's turning points and chart at a desktop's width and
// at a phone's, then the coach's verdict, which says she asked, and her
// review, which only she sees. One game serves both: a whole game played
// by clicks in Chromium is most of what a browser test costs CI.
func TestSandboxShowsTheChancesAndTheCoach(t *testing.T) {
	app, srv := seededSandbox(t, strings.Split(sandbox.DefaultUsers, ",")...)
	ctx := harness.Browser(t, 1280, 800)
	out := t.ArtifactDir()
	gs, err := app.Main.DB().GuildSettings(context.Background(), app.Fake.GuildID)
	require.NoError(t, err)
	gs.Hints = true
	require.NoError(t, app.Main.DB().SetGuildSettings(context.Background(), app.Fake.GuildID, gs))

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`)),
		chromedp.SendKeys(chromedp.ID("command"), "/malefiz new bots:1 seats:2 level:hard"+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`button[data-cid^="mf/start/"]:not(:disabled)`)),
		chromedp.Click(chromedp.CSS(`button[data-cid^="mf/start/"]`)),
	))
	// The card in the channel shows each seat's chance once the game runs.
	require.NoError(t, chromedp.Do(ctx,
		harness.Poll(`/ · \d+ to go · \d+%[\s\S]* · \d+ to go · \d+%/.test(document.querySelector('#messages').innerText)`),
	))
	harness.Screenshot(t, ctx, filepath.Join(out, "chances-card.png"))
	openThread(t, ctx)

	view := playToTheEnd(t, ctx, func(moves int, _ turnView) {
		switch moves {
		case 0:
			askForAHint(t, ctx, out)
		case 8:
			harness.Screenshot(t, ctx, filepath.Join(out, "chances-lines.png"))
		}
	})
	require.NotEmpty(t, view.Winner)
	chancesAfterTheGame(t, ctx, srv, out)
	coachAfterTheGame(t, ctx, app, out)
	t.Logf("screenshots in %s", out)
}

// chancesAfterTheGame checks the finished game's page for what issue 20
// added: the computer's reasons, the turning points, and the result with
// its board and chart at a desktop's width and, in a new window, at a
// phone's.
func chancesAfterTheGame(t *testing.T, ctx context.Context, srv *httptest.Server, out string) {
	t.Helper()
	text := pageText(t, ctx, `#messages`)
	assert.Regexp(t, `Computer \(hard\) rolled \d: [^\n]*→[^\n]* — `, text, "a computer's line says why")
	assert.Contains(t, text, "Turning points")
	assert.Regexp(t, `1\. Turn \d+ · .*% → \d+%`, text)

	// The result, with the board and the chart, at a desktop's width.
	result := markResult(t, ctx)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1500), scrollToEnd(result)))
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(result))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(out, "chances-desktop.png"), shot, 0o644))
	if *harness.Update {
		require.NoError(t, os.WriteFile(chancesScreenshot, shot, 0o644))
	}
	images, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`[...document.querySelector('#chances-result').querySelectorAll('img')].filter((i) => i.complete && i.naturalWidth > 0).map((i) => i.src)`))
	require.NoError(t, err)
	assert.Len(t, images, 2, "the board and the chart are shown: %v", images)

	// And at a phone's.
	phone := harness.Browser(t, 400, 1600)
	require.NoError(t, chromedp.Do(phone,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`)),
	))
	openThread(t, phone)
	require.NoError(t, chromedp.Do(phone, harness.Poll(`document.querySelector('#messages').innerText.includes('Turning points')`)))
	result = markResult(t, phone)
	require.NoError(t, chromedp.Do(phone, scrollToEnd(result), chromedp.Sleep(300*time.Millisecond)))
	shot, err = chromedp.Run(phone, chromedp.Screenshot(result))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(out, "chances-phone.png"), shot, 0o644))
}

// scrollToEnd scrolls the element with ID id up to the bottom of the
// window, clear of the page's header.
func scrollToEnd(id chromedp.ID) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById(%q).scrollIntoView({block: 'end'})`, string(id)))
}

// openThread follows the game into its thread, as a user clicks it in the
// channel list.
func openThread(t *testing.T, ctx context.Context) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx,
		harness.Poll(`document.querySelector('#channels li.thread a')`),
	))
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { [...document.querySelectorAll('#channels li.thread a')].pop().click(); return true; })()`))
	require.NoError(t, err)
}

// markResult gives the result message (the one with the turning points)
// the ID chances-result and returns its selector.
func markResult(t *testing.T, ctx context.Context) chromedp.ID {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, harness.Poll(`(() => {
  const m = [...document.querySelectorAll('#messages .msg')].filter((m) => m.textContent.includes('Turning points')).pop();
  if (!m) return false;
  m.id = 'chances-result';
  return [...m.querySelectorAll('img')].every((i) => i.complete && i.naturalWidth > 0);
})()`)))
	return chromedp.ID("chances-result")
}
