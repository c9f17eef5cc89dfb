package tournaments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// The README's pictures of a tournament's cards, written by
// TestTournamentCardsInTheBrowser with -update.
const (
	signUpScreenshot    = "../../docs/tournament-signup.png"
	standingsScreenshot = "../../docs/tournament-standings.png"
)

// TestTournamentCardsInTheBrowser opens a tournament in the sandbox page
// with a real Chromium, as a user types and clicks it: the sign-up card
// with Alice and three computers signed up, then Start and the standings
// card with the first round's tables and their threads.
func TestTournamentCardsInTheBrowser(t *testing.T) {
	_, srv := harness.SeededSandboxLogs(t, new(harness.LogBuffer), 5, nil, strings.Split(sandbox.DefaultUsers, ",")...)
	ctx := harness.Browser(t, 1280, 1000)
	out := t.ArtifactDir()
	click := func(prefix string) {
		t.Helper()
		sel := chromedp.CSS(`button[data-cid^="` + prefix + `"]:not(:disabled)`)
		require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(sel), chromedp.Click(sel)))
		time.Sleep(300 * time.Millisecond) // the page draws the answer
	}
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`)),
		chromedp.SendKeys(chromedp.ID("command"), "/malefiz tournament new name:Winter table-size:2 computers:true rounds:2"+kb.Enter),
	))
	click("mf/tjoin/")
	for range 3 {
		click("mf/tbot/")
	}
	// shot saves the picture of the newest message whose text matches
	// re: the card.
	shot := func(re, name, readme string) {
		t.Helper()
		id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('#messages .msg')].filter((m) => /`+re+`/.test(m.innerText)).map((m) => m.id).pop() || ''`))
		require.NoError(t, err)
		require.NotEmpty(t, id, "no message says %s", re)
		_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.getElementById('`+id+`').scrollIntoView({block: 'center'}); return true; })()`))
		require.NoError(t, err)
		time.Sleep(300 * time.Millisecond) // the page scrolls
		png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID(id)))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(out, name), png, 0o644))
		if *harness.Update {
			require.NoError(t, os.WriteFile(readme, png, 0o644))
		}
	}
	shot("Sign-up|signed up", "tournament-signup.png", signUpScreenshot)
	click("mf/tstart/")
	// The sandbox's timers open the round's tables within a second; the
	// card shows their threads once made.
	require.NoError(t, chromedp.Do(ctx, harness.Poll(
		`[...document.querySelectorAll('#messages .msg')].some((m) => /Table 2:.*#/.test(m.innerText))`)))
	time.Sleep(500 * time.Millisecond)
	shot("round 1 of 2", "tournament-standings.png", standingsScreenshot)
}
