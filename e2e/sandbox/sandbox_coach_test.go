package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// coachScreenshot is the README's picture of the coach's verdict and a
// player's review in the sandbox, written by
// TestSandboxShowsTheChancesAndTheCoach with -update.
const coachScreenshot = "../../docs/coach.png"

// askForAHint asks for a hint on Alice's first move, which only she
// sees, and dismisses it as a player would: the page is as before.
func askForAHint(t *testing.T, ctx context.Context, out string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`button[data-cid^="mf/hint/"]`)),
		harness.Poll(`document.querySelector('#messages').innerText.includes('The computer would play')`),
	))
	harness.Screenshot(t, ctx, filepath.Join(out, "hint.png"))
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
  [...document.querySelectorAll('#messages .msg.ephemeral button')].filter((b) => b.textContent === 'Dismiss message').forEach((b) => b.click());
  return true;
})()`))
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, harness.Poll(`!document.querySelector('#messages').innerText.includes('The computer would play')`)))
}

// coachAfterTheGame checks the coach's verdict on the finished game, which
// says that Alice asked for a hint, and her review, which only she sees.
func coachAfterTheGame(t *testing.T, ctx context.Context, app *sandbox.App, out string) {
	t.Helper()
	// The verdict follows the result once the game is graded: first the
	// coach's work in the database (it grades at half a core, behind the
	// game, so on a loaded machine it can take minutes), then the page.
	db := app.Main.DB()
	require.Eventually(t, func() bool {
		games, err := db.RecentGames(t.Context(), app.Fake.GuildID, 1)
		if err != nil || len(games) == 0 {
			return false
		}
		_, final, err := db.Grades(t.Context(), games[0].GameID)
		return err == nil && final
	}, 5*time.Minute, 100*time.Millisecond, "the coach grades the game")
	text := waitPageText(t, ctx, `#messages`, "The coach's verdict", harness.Patience)
	assert.Regexp(t, `Alice: accuracy \d+% · \d+ inaccurac`, text)
	assert.Contains(t, text, "Asked the computer for hints: 🔴 Alice")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`button[data-cid^="mf/review/"]`)),
		harness.Poll(`document.querySelector('#messages').innerText.includes('Your review of game')`),
	))
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
  const msgs = [...document.querySelectorAll('#messages .msg')];
  const v = msgs.filter((m) => m.textContent.includes("The coach's verdict")).pop();
  const r = msgs.filter((m) => m.textContent.includes('Your review of game')).pop();
  v.id = 'coach-verdict'; r.id = 'coach-review';
  r.scrollIntoView({block: 'end'});
  return true;
})()`))
	require.NoError(t, err)
	assert.Contains(t, pageText(t, ctx, `#coach-review`), "Only you can see this")
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1400), chromedp.Sleep(300*time.Millisecond)))
	shot := harness.Screenshot(t, ctx, filepath.Join(out, "coach.png"))
	if *harness.Update {
		require.NoError(t, os.WriteFile(coachScreenshot, shot, 0o644))
	}
}
