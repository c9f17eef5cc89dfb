package sandbox

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
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

// textLiteral is what a reader surely finds of a text on the page: its
// longest stretch without a verb, a placeholder or markdown, trimmed.
func textLiteral(t *testing.T, lang, key string) string {
	t.Helper()
	text, ok := bot.LocaleTexts(lang)[key]
	require.True(t, ok, "%s has no plain text %q", lang, key)
	best := ""
	for _, part := range regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z]|\{[^}]*\}|\*\*|[\n*_`+"`"+`#>]`).Split(text, -1) {
		if part = strings.TrimSpace(part); len([]rune(part)) > len([]rune(best)) {
			best = part
		}
	}
	require.GreaterOrEqual(t, len([]rune(best)), 4, "%s %s: %q has no literal to look for", lang, key, text)
	return best
}

// chooseIn picks value in the select sel and fires its change event, as a
// user does.
func chooseIn(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q;
  s.dispatchEvent(new Event('change', { bubbles: true })); })()`, sel, value))
}

// lastMessage waits for the newest message of the open channel to
// contain want and returns its text.
func lastMessage(t *testing.T, ctx context.Context, want string) string {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, harness.Poll(
		fmt.Sprintf(`(() => { const m = document.querySelector('#messages .msg:last-child'); return !!m && m.innerText.includes(%q); })()`, want))), "no message with %q; the page reads %q", want, pageText(t, ctx, "#messages"))
	return pageText(t, ctx, `#messages .msg:last-child`)
}

// TestSandboxInTheUsersAndTheServersLanguages switches the server's admin
// (Dave) to German and the server to Spanish on the page's menus, as a
// translator does, and reads each text where players read it: the help
// and the settings answer privately in German, the lobby and the turn card
// in Spanish. A direct message's link stays inside the sandbox, as the
// board's jump link does.
func TestSandboxInTheUsersAndTheServersLanguages(t *testing.T) {
	_, srv := seededSandbox(t, strings.Split(sandbox.DefaultUsers, ",")...)
	ctx := harness.Browser(t, 1280, 800)
	out := t.ArtifactDir()

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`)),
	))
	users := pageUsers(t, ctx)
	dave := users["Dave · admin"]
	require.NotEmpty(t, dave, "the menu marks the server's admin: %v", users)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("user"), dave),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#user').dispatchEvent(new Event('change'))`),
		harness.Poll(fmt.Sprintf(`document.body.dataset.user === %q`, dave)),
		chooseIn("#user-locale", "de"),
		harness.Poll(`document.documentElement.lang === 'de'`),
		chooseIn("#guild-locale", "es-ES"),
		harness.Poll(`document.querySelector('#toast').textContent.includes('Spanish (Spain)')`),
	))
	harness.Screenshot(t, ctx, filepath.Join(out, "locale-menus.png"))

	send := func(line string) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("command"), line+kb.Enter)))
	}
	// Dave types the commands as his Discord shows them, in German
	// ("/malefiz hilfe"); private answers come in his language.
	de := bot.LocaleTexts("de")
	help := "/malefiz " + de["name.help"]
	require.NotEqual(t, "/malefiz help", help, "the commands have German names")
	send(help)
	require.Contains(t, lastMessage(t, ctx, "Only you can see this"), "Dave used "+help)
	help = lastMessage(t, ctx, "Only you can see this")
	assert.Contains(t, help, textLiteral(t, "de", "text.help"))
	assert.NotContains(t, help, textLiteral(t, "en", "text.help"))
	send("/malefiz " + de["name.settings"])
	settings := lastMessage(t, ctx, "/malefiz "+de["name.settings"])
	assert.Contains(t, settings, "Only you can see this")
	assert.Contains(t, settings, textLiteral(t, "de", "settings.now"), "the admin reads the server's settings")
	harness.Screenshot(t, ctx, filepath.Join(out, "locale-settings.png"))
	notify := fmt.Sprintf("/malefiz %s %s:true", de["name.notify"], de["name.dm"])
	send(notify)
	lastMessage(t, ctx, notify)

	// What the whole channel reads: in the server's language.
	lobbyLine := fmt.Sprintf("/malefiz %s %s:1 %s:2", de["name.new"], de["name.bots"], de["name.seats"])
	send(lobbyLine)
	lobby := lastMessage(t, ctx, lobbyLine)
	assert.Contains(t, lobby, textLiteral(t, "es", "button.join"))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(`button[data-cid^="mf/start/"]:not(:disabled)`)),
		chromedp.Click(chromedp.CSS(`button[data-cid^="mf/start/"]`)),
	))
	openThread(t, ctx)
	require.NoError(t, chromedp.Do(ctx, harness.Poll(
		`!!document.querySelector('#messages .msg:last-child [data-cid^="mf/move/"]:not(:disabled)')`)))
	turn := pageText(t, ctx, `#messages .msg:last-child`)
	assert.Contains(t, turn, strings.SplitN(textLiteral(t, "es", "turn.title"), " ", 2)[0]+" ", "the turn card's title")
	assert.Contains(t, turn, textLiteral(t, "es", "board.others_move"))
	assert.NotContains(t, turn, textLiteral(t, "en", "board.others_move"))
	// The deadline (<t:…:R>) is written by Discord's client, in its
	// reader's language.
	assert.Contains(t, turn, "in 24 Stunden")
	harness.Screenshot(t, ctx, filepath.Join(out, "locale-turn.png"))
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(400, 860)))
	time.Sleep(200 * time.Millisecond) // the page lays itself out again
	harness.Screenshot(t, ctx, filepath.Join(out, "locale-turn-phone.png"))
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)))

	// A day later the timeout has played Dave's turn and the next one
	// finds him away: a direct message, whose link opens the turn in the
	// sandbox, not on discord.com.
	require.NoError(t, chromedp.Do(ctx,
		chooseIn("#skip-by", "24h"),
		chromedp.Click(chromedp.ID("skip")),
		harness.Poll(`!!document.querySelector('#dms li a')`),
		harness.Poll(`!document.querySelector('#toast').hidden`),
	))
	// The Skip-ahead notice is read whole beside a thread's name, at any
	// window's width, not cut ("due ti…").
	for _, width := range []int64{1280, 1100, 1000, 900, 400} {
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(width, 800)))
		notice, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`(() => { const t = document.querySelector('#toast');
  return { text: t.textContent, hidden: t.hidden, cut: t.scrollWidth > t.clientWidth || t.scrollHeight > t.clientHeight }; })()`))
		require.NoError(t, err)
		require.Equal(t, false, notice["hidden"], "the notice went before %d px was looked at", width)
		assert.Equal(t, false, notice["cut"], "at %d px the notice %q is cut", width, notice["text"])
	}
	harness.Screenshot(t, ctx, filepath.Join(out, "locale-skip-phone.png"))
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)))
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#dms li a`))))
	dm := lastMessage(t, ctx, "Malefiz")
	t.Logf("direct message: %s", dm)
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#messages .msg:last-child .content a').getAttribute('href')`))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(href, "#c="), "the link %q stays in the sandbox", href)
	// Drawn as Discord draws a message link: the channel's name and 💬,
	// not an address of discord.com.
	assert.Regexp(t, `#Malefiz #1 · [^›]+ › 💬$`, dm)
	assert.NotContains(t, dm, "discord.com")
	harness.Screenshot(t, ctx, filepath.Join(out, "locale-dm.png"))
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#messages .msg:last-child .content a`))))
	require.NoError(t, chromedp.Do(ctx, harness.Poll(
		`document.body.dataset.channel !== undefined && document.querySelector('#channels a[aria-current="page"]') !== null && document.querySelector('#channels a[aria-current="page"]').closest('li').classList.contains('thread')`)), "the link opens the game's thread")
}
