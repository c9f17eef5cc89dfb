package activity

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// axeViolation is one rule axe-core found broken on the page.
type axeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
}

// audit runs axe-core (e2e/activity/testdata/axe.min.js, copied there by
// scripts/axe-core/build.sh) on the page, WCAG 2.2 A and AA's rules and
// axe's best practices, and returns its violations.
func audit(t *testing.T, ctx context.Context) []axeViolation {
	t.Helper()
	src, err := os.ReadFile("testdata/axe.min.js")
	require.NoError(t, err)
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](string(src)+";true"))
	require.NoError(t, err)
	const run = `axe.run(document, {resultTypes: ["violations"]}).then((r) => r.violations.map((v) => ({
  id: v.id, impact: v.impact || "", help: v.help, targets: v.nodes.slice(0, 5).map((n) => String(n.target)),
})))`
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](run, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	return got
}

// serious are the violations of serious or critical impact.
func serious(vs []axeViolation) []string {
	var out []string
	for _, v := range vs {
		if v.Impact == "serious" || v.Impact == "critical" {
			out = append(out, fmt.Sprintf("%s (%s): %s %v", v.ID, v.Impact, v.Help, v.Targets))
		}
	}
	return out
}

// TestAxeBundleFresh: the axe-core file the audit injects is the one
// scripts/axe-core's lock file pins.
func TestAxeBundleFresh(t *testing.T) {
	lock, err := os.ReadFile("../../scripts/axe-core/package-lock.json")
	require.NoError(t, err)
	sum := sha256.Sum256(lock)
	recorded, err := os.ReadFile("testdata/axe.hash")
	require.NoError(t, err)
	assert.Equal(t, hex.EncodeToString(sum[:]), strings.TrimSpace(string(recorded)),
		"e2e/activity/testdata/axe.min.js is stale: run scripts/axe-core/build.sh")
	bundle, err := os.ReadFile("testdata/axe.min.js")
	require.NoError(t, err)
	assert.Contains(t, string(bundle), "axe.version")
}

// cellView is the board's cell in focus and a target's place, read by
// cellJS.
type cellView struct {
	Active string  `json:"active"` // the data-cell of the focused cell, "" when none has focus
	X, Y   float64 // the focused cell's centre
	TX, TY float64 // the target cell's centre
	Label  string  `json:"label"` // the focused cell's aria-label
}

const cellJS = `((target) => {
  const a = document.activeElement, c = a && a.closest ? a.closest("#cells .cell") : null;
  const t = document.querySelector('#cells .cell[data-cell="' + target + '"]');
  return { active: c ? c.dataset.cell : "", X: c ? Number(c.dataset.x) : 0, Y: c ? Number(c.dataset.y) : 0,
    TX: Number(t.dataset.x), TY: Number(t.dataset.y), label: c ? c.getAttribute("aria-label") : "" };
})`

// tabTo presses Tab until the element in focus matches selector.
func tabTo(t *testing.T, ctx context.Context, selector string) {
	t.Helper()
	for range 80 {
		on, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!(document.activeElement && document.activeElement.matches(%q))`, selector)))
		require.NoError(t, err)
		if on {
			return
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)))
	}
	t.Fatalf("Tab never reached %s", selector)
}

// walkTo moves the board's focus with the arrow keys alone to the cell
// target ("sq:e3", "home:red") and returns its name as a screen reader
// reads it.
func walkTo(t *testing.T, ctx context.Context, target string) string {
	t.Helper()
	tabTo(t, ctx, "#cells .cell")
	for range 60 {
		v := readPage[cellView](t, ctx, fmt.Sprintf("%s(%q)", cellJS, target))
		if v.Active == target {
			return v.Label
		}
		dx, dy := v.TX-v.X, v.TY-v.Y
		key := kb.ArrowRight
		switch {
		case math.Abs(dy) > 0.3 && dy > 0:
			key = kb.ArrowDown
		case math.Abs(dy) > 0.3:
			key = kb.ArrowUp
		case dx < 0:
			key = kb.ArrowLeft
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(key)))
	}
	t.Fatalf("the arrow keys never reached %s", target)
	return ""
}

// TestActivityAccessibility audits the board with axe-core at a desktop's
// and a phone's width, for the player to move (her pawn picked and its
// squares offered, then the squares for a barricade) and for the one who
// watches: no serious or critical violation. Alice plays her turn by the
// keyboard alone, every square and home named; Bob's screen reader hears
// her move. Bob resigns, and Alice opens the game's review by the
// keyboard: its step said in the live region, and no violation at all, on
// its first step (her move, graded, its arrow drawn) and its end.
func TestActivityAccessibility(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	for _, sz := range boardSizes {
		t.Run(sz.name, func(t *testing.T) {
			app, srv, users := fiveSandbox(t)
			id := newActivityGame(t, app, srv, users)
			pages := boardPages(t, srv, sz.width, sz.height, id, users[0], users[1])
			alice, bob := pages[0], pages[1]
			waitBoard(t, bob, "the game", func(v boardView) bool { return v.Turn > 0 })
			waitBoard(t, alice, "the game", func(v boardView) bool { return v.Turn > 0 })
			check := func(when string, ctx context.Context) {
				t.Helper()
				vs := audit(t, ctx)
				for _, v := range vs {
					t.Logf("%s: %s (%s) %s %v", when, v.ID, v.Impact, v.Help, v.Targets)
				}
				assert.Empty(t, serious(vs), "%s at %d px", when, sz.width)
			}
			check("the watcher, before the roll", bob)

			if hasAct(readBoard(t, alice), "roll") {
				tabTo(t, alice, `#actions button[data-act="roll"]`)
				require.NoError(t, chromedp.Do(alice, chromedp.KeyEvent(kb.Enter)))
			}
			waitActivity(t, alice, "the pawns to move", func(v activityView) bool { return len(v.Movable) > 0 })
			label := walkTo(t, alice, "home:red")
			assert.Contains(t, label, "Home of Alice (Red): 5 pawns")
			assert.Contains(t, label, "Enter picks it")
			require.NoError(t, chromedp.Do(alice, chromedp.KeyEvent(kb.Enter)))
			v := waitActivity(t, alice, "the destinations", func(v activityView) bool { return len(v.Takes) > 0 })
			check("the mover, her moves offered", alice)
			check("the watcher, her moves offered", bob)

			take := v.Takes[0]
			label = walkTo(t, alice, "sq:"+take)
			assert.Equal(t, take+": barricade · Enter moves your pawn here", label)
			require.NoError(t, chromedp.Do(alice, chromedp.KeyEvent(kb.Enter)))
			v = waitActivity(t, alice, "the squares for the barricade", func(v activityView) bool { return len(v.Free) > 0 })
			check("the mover, placing the barricade", alice)
			square := lowest(v.Free)
			assert.Contains(t, walkTo(t, alice, "sq:"+square), "Enter puts the barricade here")
			require.NoError(t, chromedp.Do(alice, chromedp.KeyEvent(kb.Enter)))

			waitBoard(t, bob, "Bob's turn", func(v boardView) bool { return v.Turn > 1 })
			said, err := chromedp.Run(bob, chromedp.Evaluate[string](`document.querySelector("#announce").textContent`))
			require.NoError(t, err)
			assert.Contains(t, said, "Alice (Red): pawn from home to "+take)
			assert.Contains(t, said, "barricade to "+square)
			assert.Equal(t, take+": pawn of Alice (Red)", walkTo(t, bob, "sq:"+take))

			// Bob resigns: the game is over, and Alice opens its review
			// from the bar, by the keyboard; the coach grades her move.
			resign(t, app, id, users[1].ID)
			waitBoard(t, alice, "the winner", func(v boardView) bool { return v.Winner != "" && hasAct(v, "review") })
			require.Eventually(t, func() bool {
				_, final, err := app.Main.DB().Grades(t.Context(), id)
				return err == nil && final
			}, 2*time.Minute, 50*time.Millisecond, "the coach grades Alice's move")
			tabTo(t, alice, `#actions button[data-act="review"]`)
			require.NoError(t, chromedp.Do(alice, chromedp.KeyEvent(kb.Enter)))
			rv := waitReview(t, alice, "the review, graded", func(v reviewView) bool { return v.View == "review" && v.Grade != "" })
			assert.Equal(t, "Alice (Red)", strings.SplitN(strings.TrimPrefix(rv.Said, "Turn 1 · "), " rolled", 2)[0])
			assert.Equal(t, rv.Said+": home→"+take, strings.SplitN(rv.Announce, ",", 2)[0], "the step said in the live region")
			assert.NotEmpty(t, rv.Played)
			audited := audit(t, alice)
			for _, v := range audited {
				t.Logf("the review: %s (%s) %s %v", v.ID, v.Impact, v.Help, v.Targets)
			}
			assert.Empty(t, audited, "the review at %d px: no violation at all", sz.width)
			tabTo(t, alice, "#chart")
			require.NoError(t, chromedp.Do(alice, chromedp.KeyEvent(kb.End)))
			end := waitReview(t, alice, "the end", func(v reviewView) bool { return v.Step > 0 && v.Played == "" })
			assert.Contains(t, end.Announce, "Alice (Red) wins")
			audited = audit(t, alice)
			for _, v := range audited {
				t.Logf("the review's end: %s (%s) %s %v", v.ID, v.Impact, v.Help, v.Targets)
			}
			assert.Empty(t, audited, "the review's end at %d px", sz.width)
		})
	}
}

// resign makes userID leave game id, confirmed as /malefiz resign asks.
func resign(t *testing.T, app *sandbox.App, id int64, userID string) {
	t.Helper()
	sg, err := app.Main.DB().Game(t.Context(), id)
	require.NoError(t, err)
	ask, err := app.Fake.SlashCommand(t.Context(), fakediscord.Invocation{User: userID, Channel: sg.ThreadID, Name: "malefiz", Sub: "resign"})
	require.NoError(t, err)
	if ask.Message != nil && harness.HasControl(*ask.Message, bot.ActResign) {
		_, err = app.Fake.Click(t.Context(), fakediscord.Invocation{User: userID, Channel: sg.ThreadID,
			MessageID: ask.Message.ID, CustomID: harness.Control(t, *ask.Message, bot.ActResign)})
		require.NoError(t, err)
	}
}
