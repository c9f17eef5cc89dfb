package sandbox

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// firefoxPrefs keep Firefox from reaching for the network: updates,
// telemetry, remote settings, captive portal checks.
const firefoxPrefs = `user_pref("app.update.disabledForTesting", true);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("services.settings.server", "http://127.0.0.1:9/");
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("browser.safebrowsing.malware.enabled", false);
user_pref("browser.safebrowsing.phishing.enabled", false);
user_pref("extensions.update.enabled", false);
user_pref("browser.newtabpage.enabled", false);
`

// bidi is a minimal WebDriver BiDi client: Firefox speaks the protocol
// itself, so no driver is needed.
type bidi struct {
	t       *testing.T
	conn    *websocket.Conn
	context string // the browsing context (tab) the commands go to

	mu      sync.Mutex
	next    int
	waiting map[int]chan bidiReply
}

type bidiReply struct {
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error"`
	Msg    string          `json:"message"`
}

// firefox starts Firefox headless with a fresh profile and opens a BiDi
// session. Without Firefox the test is skipped; CI installs it (.ci/run).
func firefox(t *testing.T) *bidi {
	t.Helper()
	path, err := exec.LookPath("firefox-esr")
	if err != nil {
		if path, err = exec.LookPath("firefox"); err != nil {
			t.Skip("firefox is not installed (apt-get install -y firefox-esr)")
		}
	}
	profile := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(profile, "user.js"), []byte(firefoxPrefs), 0o600))
	cmd := exec.Command(path, "--headless", "--no-remote", "--profile", profile, "--remote-debugging-port=0", "about:blank")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stderr)
		for lines.Scan() {
			if url, ok := strings.CutPrefix(lines.Text(), "WebDriver BiDi listening on "); ok {
				found <- url
			}
		}
	}()
	var url string
	select {
	case url = <-found:
	case <-time.After(harness.Patience):
		t.Fatal("firefox did not open its WebDriver BiDi port")
	}
	conn, _, err := websocket.DefaultDialer.Dial(url+"/session", nil)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	b := &bidi{t: t, conn: conn, waiting: map[int]chan bidiReply{}}
	go b.read()
	b.call("session.new", map[string]any{"capabilities": map[string]any{}})
	var tree struct {
		Contexts []struct {
			Context string `json:"context"`
		} `json:"contexts"`
	}
	require.NoError(t, json.Unmarshal(b.call("browsingContext.getTree", map[string]any{}), &tree))
	require.NotEmpty(t, tree.Contexts)
	b.context = tree.Contexts[0].Context
	return b
}

// read hands the replies to their callers; events are dropped.
func (b *bidi) read() {
	for {
		_, data, err := b.conn.ReadMessage()
		if err != nil {
			b.mu.Lock()
			for id, ch := range b.waiting {
				ch <- bidiReply{Error: "connection closed", Msg: err.Error()}
				delete(b.waiting, id)
			}
			b.mu.Unlock()
			return
		}
		var msg struct {
			ID *int `json:"id"`
			bidiReply
		}
		if json.Unmarshal(data, &msg) != nil || msg.ID == nil {
			continue
		}
		b.mu.Lock()
		ch := b.waiting[*msg.ID]
		delete(b.waiting, *msg.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- msg.bidiReply
		}
	}
}

// call sends a command and returns its result.
func (b *bidi) call(method string, params map[string]any) json.RawMessage {
	b.t.Helper()
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan bidiReply, 1)
	b.waiting[id] = ch
	err := b.conn.WriteJSON(map[string]any{"id": id, "method": method, "params": params})
	b.mu.Unlock()
	require.NoError(b.t, err)
	select {
	case r := <-ch:
		require.Empty(b.t, r.Error, "%s: %s", method, r.Msg)
		return r.Result
	case <-time.After(harness.Patience): // a new session took past 30 s in CI beside the race phase
		b.t.Fatalf("%s: no answer", method)
		return nil
	}
}

// eval evaluates a JavaScript expression in the page (promises awaited)
// and returns its value as JSON.
func (b *bidi) eval(expr string) json.RawMessage {
	b.t.Helper()
	raw := b.call("script.evaluate", map[string]any{
		"expression": expr, "target": map[string]any{"context": b.context}, "awaitPromise": true,
		"resultOwnership": "none", "serializationOptions": map[string]any{"maxObjectDepth": 0},
	})
	var res struct {
		Type             string `json:"type"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
		Result struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"result"`
	}
	require.NoError(b.t, json.Unmarshal(raw, &res))
	if res.ExceptionDetails != nil {
		b.t.Fatalf("%s: %s", expr, res.ExceptionDetails.Text)
	}
	return res.Result.Value
}

// text evaluates an expression whose value is a string.
func (b *bidi) text(expr string) string {
	b.t.Helper()
	var s string
	require.NoError(b.t, json.Unmarshal(b.eval(expr), &s), expr)
	return s
}

// waitFor evaluates a JavaScript condition until it is true.
func (b *bidi) waitFor(what, cond string) {
	b.t.Helper()
	for end := time.Now().Add(harness.Patience); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if string(b.eval("!!("+cond+")")) == "true" {
			return
		}
	}
	b.t.Fatalf("firefox: no %s", what)
}

// TestSandboxInFirefox checks the page in Firefox: the event stream, the
// command box, a click, the board image, the private answer. Firefox is
// driven over WebDriver BiDi; the clicks are the page's own (element.click).
func TestSandboxInFirefox(t *testing.T) {
	ff := firefox(t)
	app, err := sandbox.Start(context.Background(), sandbox.Options{
		Users: strings.Split(sandbox.DefaultUsers, ","), Logger: harness.Logger(new(harness.LogBuffer)),
		Bot: func(c *bot.Config) { c.Draw = func(int) int { return 0 } },
	})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, app.Close()) })
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		ff.call("browsingContext.navigate", map[string]any{"context": ff.context, "url": "about:blank", "wait": "complete"})
	})

	ff.call("browsingContext.setViewport", map[string]any{"context": ff.context, "viewport": map[string]any{"width": 1280, "height": 800}})
	ff.call("browsingContext.navigate", map[string]any{"context": ff.context, "url": srv.URL, "wait": "complete"})
	ff.waitFor("page ready", `document.body.dataset.ready`)
	ff.eval(`(() => {
		const box = document.querySelector('#command');
		box.focus();
		box.value = '/malefiz new bots:1 seats:2';
		box.dispatchEvent(new Event('input'));
		box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
	})()`)
	ff.waitFor("lobby", `document.querySelector('button[data-cid^="mf/start/"]:not(:disabled)')`)
	assert.Contains(t, ff.text(`document.querySelector('#messages').textContent`), "Alice used /malefiz new bots:1 seats:2")
	ff.eval(`document.querySelector('button[data-cid^="mf/start/"]').click()`)
	// The game plays in its thread: follow it there.
	ff.waitFor("thread", `document.querySelector('#channels li.thread a')`)
	ff.eval(`[...document.querySelectorAll('#channels li.thread a')].pop().click()`)
	ff.waitFor("turn", `document.querySelector('button[data-cid^="mf/roll/"], button[data-cid^="mf/move/"]')`)
	ff.waitFor("board image", `[...document.querySelectorAll('.embed-image img, .v2-gallery img')].some((i) => i.complete && i.naturalWidth > 0)`)

	users := map[string]string{}
	require.NoError(t, json.Unmarshal([]byte(ff.text(`JSON.stringify(Object.fromEntries([...document.querySelectorAll('#user option')].map((o) => [o.textContent, o.value])))`)), &users))
	ff.eval(fmt.Sprintf(`(() => { const s = document.querySelector('#user'); s.value = %q; s.dispatchEvent(new Event('change')); })()`, users["Bob"]))
	ff.waitFor("Bob's view", fmt.Sprintf(`document.body.dataset.user === %q && document.querySelector('button[data-cid^="mf/roll/"], button[data-cid^="mf/move/"]')`, users["Bob"]))
	ff.eval(`document.querySelector('button[data-cid^="mf/roll/"], button[data-cid^="mf/move/"]').click()`)
	ff.waitFor("private refusal", `document.querySelector('.msg.ephemeral .ephemeral-note')`)
	assert.Contains(t, ff.text(`document.querySelector('.msg.ephemeral').textContent`), "Only you can see this")

	var shot struct {
		Data string `json:"data"`
	}
	require.NoError(t, json.Unmarshal(ff.call("browsingContext.captureScreenshot", map[string]any{"context": ff.context}), &shot))
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	require.NoError(t, err)
	path := filepath.Join(t.ArtifactDir(), "sandbox-firefox.png")
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot %s", path)
}
