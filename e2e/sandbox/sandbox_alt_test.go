package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// pictureJS marks the newest message whose image's alt text starts with a
// prefix (the first argument) with the ID given (the second), once its
// images are loaded, and returns that alt text ("" until then).
const pictureJS = `((prefix, id) => {
  const imgs = [...document.querySelectorAll('#messages .msg img')].filter((i) => i.alt.startsWith(prefix));
  const img = imgs.pop();
  if (!img || !img.complete || img.naturalWidth === 0) return '';
  img.closest('.msg').id = id;
  return img.alt;
})`

// TestSandboxStatsAndReplayCarryAltText starts a game against a computer
// in the sandbox page, resigns it, then asks /malefiz stats and /malefiz
// replay: each
// answer shows its picture with the picture in words as the image's alt
// text, as a screen reader finds it, at a desktop's width and at a
// phone's (the screenshots go to the test's artifact directory).
func TestSandboxStatsAndReplayCarryAltText(t *testing.T) {
	_, srv := seededSandbox(t, strings.Split(sandbox.DefaultUsers, ",")...)
	ctx := harness.Browser(t, 1280, 900)
	out := t.ArtifactDir()

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`)),
		chromedp.SendKeys(chromedp.ID("command"), "/malefiz new bots:1 seats:2 level:easy"+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`button[data-cid^="mf/start/"]:not(:disabled)`)),
	))
	start, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('button[data-cid^="mf/start/"]').dataset.cid`))
	require.NoError(t, err)
	id, err := bot.ParseCustomID(start)
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-cid^="mf/start/"]`))))
	openThread(t, ctx)
	// Alice resigns: the computer wins, and the game has its result.
	// Once the thread holds the first turn, the game knows its thread.
	// The page redraws its messages as the card is edited: the button is
	// found and clicked in one step, by script, so that a redrawn one is
	// never waited for.
	require.NoError(t, chromedp.Do(ctx,
		harness.Poll(`/rolled a \d and is choosing a move/.test(document.querySelector('#messages').innerText)`),
		chromedp.SendKeys(chromedp.ID("command"), "/malefiz resign"+kb.Enter),
		harness.Poll(`(() => { const b = document.querySelector('button[data-cid^="mf/resign/"]:not(:disabled)'); if (b) b.click(); return !!b; })()`),
	), "no Resign button: %s", pageText(t, ctx, "#messages"))
	require.NoError(t, chromedp.Do(ctx, harness.Poll(`document.querySelector('#messages').innerText.includes(' wins: ')`)), "no result: %s", pageText(t, ctx, "#messages"))

	picture := func(ctx context.Context, command, prefix, mark string) string {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("command"), command+kb.Enter)))
		alt := ""
		deadline := time.Now().Add(harness.Patience)
		for alt == "" && time.Now().Before(deadline) {
			alt, err = chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf("%s(%q, %q)", pictureJS, prefix, mark)))
			require.NoError(t, err)
			time.Sleep(50 * time.Millisecond)
		}
		require.NotEmpty(t, alt, "%s: no picture whose alt text starts %q; the page reads %q", command, prefix, pageText(t, ctx, "#messages"))
		return alt
	}
	shoot := func(ctx context.Context, mark, name string) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx, scrollToEnd(chromedp.ID(mark)), chromedp.Sleep(300*time.Millisecond)))
		shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID(mark)))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(out, name), shot, 0o644))
	}

	stats := picture(ctx, "/malefiz stats", "Line chart of the rating of ", "stats-answer")
	t.Log(stats)
	assert.Contains(t, stats, " after 1 game, ")
	assert.Contains(t, stats, " starting from 1500. Rating now: 1484.", "the lost game's rating")
	text := pageText(t, ctx, "#stats-answer")
	assert.Contains(t, text, "Games: 1", "the figures, one a line")
	shoot(ctx, "stats-answer", "stats-desktop.png")

	replay := picture(ctx, fmt.Sprintf("/malefiz replay game:%d", id.Game), fmt.Sprintf("Animated replay of Malefiz game #%d, ", id.Game), "replay-answer")
	t.Log(replay)
	assert.Contains(t, replay, "Players: Alice (Red), Computer (easy) (Green); ")
	assert.Contains(t, replay, "Computer (easy) (Green) won because every other player left the game.")
	assert.Contains(t, replay, "Alice (Red) left the game on turn ")
	shoot(ctx, "replay-answer", "replay-desktop.png")

	// The same answers at a phone's width.
	phone := harness.Browser(t, 400, 1400)
	require.NoError(t, chromedp.Do(phone, chromedp.Navigate(srv.URL), chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`))))
	openThread(t, phone)
	for mark, prefix := range map[string]string{"stats-answer": "Line chart of the rating of ", "replay-answer": "Animated replay of Malefiz game #"} {
		var alt string
		deadline := time.Now().Add(harness.Patience)
		for alt == "" && time.Now().Before(deadline) {
			alt, err = chromedp.Run(phone, chromedp.Evaluate[string](fmt.Sprintf("%s(%q, %q)", pictureJS, prefix, mark)))
			require.NoError(t, err)
			time.Sleep(50 * time.Millisecond)
		}
		require.NotEmpty(t, alt, mark)
		shoot(phone, mark, strings.TrimSuffix(mark, "-answer")+"-phone.png")
	}
	t.Logf("screenshots in %s", out)
}
