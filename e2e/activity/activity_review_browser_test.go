package activity

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/activity"
	gametable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/sandbox"
)

// The README's pictures of a game's review on the board, written by
// TestActivityReviewInTheBrowser with -update.
const (
	activityReviewScreenshot      = "../../docs/activity-review.png"
	activityReviewPhoneScreenshot = "../../docs/activity-review-phone.png"
)

// reviewView is what the review on the board shows, read by reviewJS.
type reviewView struct {
	View     string   `json:"view"`     // the page's view: "review"
	Step     int      `json:"step"`     // the step shown, -1 before the first
	Said     string   `json:"said"`     // the bar's line: the step's head
	Announce string   `json:"announce"` // the live region: the step in words
	Grade    string   `json:"grade"`    // the grade's badge, "" for none
	Card     string   `json:"card"`     // the step's card beside the board
	Played   string   `json:"played"`   // the arrow of the move played, FROM-TO
	Better   string   `json:"better"`   // the arrow of the better move, FROM-TO
	Tags     []string `json:"tags"`     // the arrows' tags
	Places   []string `json:"places"`   // the squares the arrows' barricades go to
	Pawns    []string `json:"pawns"`    // the squares a pawn is drawn on
	Blocks   []string `json:"blocks"`   // the squares a barricade is drawn on
	Cursor   float64  `json:"cursor"`   // the chart's cursor, in the chart's units
	Now      int      `json:"now"`      // the chart's aria-valuenow
	Turning  int      `json:"turning"`  // the turning points marked on the chart
	Note     string   `json:"note"`
	Overflow bool     `json:"overflow"` // the page is wider than the window
}

const reviewJS = `(() => {
  const all = (q) => [...document.querySelectorAll(q)];
  const arrow = (k) => { const a = document.querySelector('#marks .arrow.' + k); return a ? a.dataset.from + '-' + a.dataset.to : ''; };
  const cursor = document.querySelector('#chart .cursor');
  return {
    view: document.body.dataset.view || '',
    step: Number(document.body.dataset.step ?? -1),
    said: document.querySelector('#said').textContent,
    announce: document.querySelector('#announce').textContent,
    grade: (document.querySelector('#review-step .badge') || {}).textContent || '',
    card: document.querySelector('#review-step').textContent,
    played: arrow('played'), better: arrow('better'),
    tags: all('#marks .tag text').map((e) => e.textContent),
    places: all('#marks .place-mark').map((e) => e.dataset.square),
    pawns: all('#pieces .pawn[data-square]').map((e) => e.dataset.square).sort(),
    blocks: all('#pieces .barricade').map((e) => e.dataset.square).sort(),
    cursor: cursor ? Number(cursor.getAttribute('x1')) : -1,
    now: Number(document.querySelector('#chart').getAttribute('aria-valuenow') || 0),
    turning: all('#chart .turning-mark').length,
    note: document.querySelector('#note').textContent,
    overflow: document.documentElement.scrollWidth > window.innerWidth + 1,
  };
})()`

// readReview reads the review's view.
func readReview(t *testing.T, ctx context.Context) reviewView {
	t.Helper()
	return readPage[reviewView](t, ctx, reviewJS)
}

// waitReview polls the review until ok holds of its view.
func waitReview(t *testing.T, ctx context.Context, what string, ok func(reviewView) bool) reviewView {
	t.Helper()
	return waitPage(t, ctx, reviewJS, "the review", "review-failed.png", what, ok)
}

// reviewedGame plays a whole game of Alice against the normal computer
// through the Activity's routes (Alice runs her lead pawn: the goal, a
// barricade, the highest square; a taken barricade on the lowest free
// square), waits for the coach to grade it whole, and returns its ID and
// Alice's session.
func reviewedGame(t *testing.T, app *sandbox.App, srv *httptest.Server, users []sandbox.User) (int64, string) {
	t.Helper()
	lobby := sandboxPost(t, srv, "/api/command", map[string]string{"user": users[0].ID, "line": "/malefiz new seats:2 bots:1 level:normal"})["message"].(string)
	m, ok := app.Fake.Message(lobby)
	require.True(t, ok)
	start := ""
	for _, cid := range m.CustomIDs() {
		if strings.HasPrefix(cid, "mf/start/") {
			start = cid
		}
	}
	require.NotEmpty(t, start)
	var id int64
	_, err := fmt.Sscanf(start, "mf/start/%d", &id)
	require.NoError(t, err)
	sandboxPost(t, srv, "/api/click", map[string]string{"user": users[0].ID, "message": lobby, "custom_id": start})
	session := signIn(t, app, srv, users[0])
	for plays := 0; ; plays++ {
		require.Less(t, plays, 600, "the game ends")
		l := liveOf(t, srv, id, session)
		if l.Status != malefiz.StatusRunning {
			break
		}
		if !l.YourTurn {
			time.Sleep(10 * time.Millisecond) // the computer's turn commits
			continue
		}
		play := map[string]any{"Turn": l.Turn, "Action": "roll"}
		switch l.Phase {
		case "place":
			play["Action"], play["Arg"] = "place", lowest(l.Places)
		case "move":
			mv := racing(l.Moves)
			play["Action"], play["Arg"] = "move", mv.From+"-"+mv.To
		}
		status, out := activityCall(t, srv, http.MethodPost, fmt.Sprintf("api/games/%d/play", id), session, play)
		require.Equal(t, http.StatusOK, status, "%v", out)
	}
	sg, err := app.Main.DB().Game(t.Context(), id)
	require.NoError(t, err)
	require.Equal(t, malefiz.StatusFinished, sg.Status)
	require.Eventually(t, func() bool {
		_, final, err := app.Main.DB().Grades(t.Context(), id)
		return err == nil && final
	}, 3*time.Minute, 50*time.Millisecond, "the coach grades the game whole")
	return id, session
}

// racing is the move of a player in a hurry among moves: the goal, else
// a barricade taken, else the highest square, the centre column breaking
// ties.
func racing(moves []gametable.LiveMove) gametable.LiveMove {
	return slices.MaxFunc(moves, func(a, b gametable.LiveMove) int {
		score := func(m gametable.LiveMove) int {
			s := 10*row(m.To) - abs(int(m.To[0])-'i')
			if m.Goal {
				s += 1000
			}
			if m.Barricade {
				s += 15
			}
			return s
		}
		return score(a) - score(b)
	})
}

// reviewOf is game id's review as the Activity answers it to session.
func reviewOf(t *testing.T, srv *httptest.Server, id int64, session string) gametable.LiveReview {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/.proxy/api/games/%d/review", srv.URL, id), nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+session)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var rv gametable.LiveReview
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&rv))
	return rv
}

// moveOf is a review's move as the board's arrows name it, "" for none.
func moveOf(m *gametable.ReviewMove) string {
	if m == nil {
		return ""
	}
	return m.From + "-" + m.To
}

// squaresOf are the squares of a review's board's pawns, sorted.
func squaresOf(b gametable.ReviewBoard) []string {
	out := []string{}
	for _, p := range b.Pawns {
		out = append(out, p.Square)
	}
	slices.Sort(out)
	return out
}

// TestActivityReviewInTheBrowser plays a whole game of Alice against the
// computer in the sandbox, the coach grading it; the verdict's Review
// answers her with Review on the board, and /malefiz replay in the channel
// offers it too, both launching the Activity. Opened in the game's thread,
// the Activity shows the game's review (at 1280 px); opened in the
// channel, it lists the game as a review, which opens when chosen (at 400
// px). At both widths Alice steps
// through every roll with the → key (and back with ←, Home and End), with
// the buttons, and by tapping the chart at each step; each step draws the
// board as it stood, the move played as an arrow and the coach's better
// one where it found one, the grade in the coach's words, the chart's
// cursor at the step, and says the step in the live region.
func TestActivityReviewInTheBrowser(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	app, srv, users, _ := activitySandboxWith(t, 4, func(c *activity.Config) { c.PlaysPerMinute = 6000 })
	id, session := reviewedGame(t, app, srv, users)
	rv := reviewOf(t, srv, id, session)
	require.True(t, rv.Final)
	sg, err := app.Main.DB().Game(t.Context(), id)
	require.NoError(t, err)
	require.NotEmpty(t, sg.ThreadID)

	// The thread: the verdict's Review, then Review on the board.
	var verdict fakediscord.Message
	require.Eventually(t, func() bool {
		for _, m := range app.Fake.ChannelMessages(sg.ThreadID) {
			if slices.Contains(m.CustomIDs(), fmt.Sprintf("mf/review/%d/0", id)) {
				verdict = m
				return true
			}
		}
		return false
	}, harness.Patience, 20*time.Millisecond, "the coach's verdict in the thread")
	board := fmt.Sprintf("mf/board/%d/0", id)
	out := sandboxPost(t, srv, "/api/click", map[string]string{"user": users[0].ID, "message": verdict.ID, "custom_id": fmt.Sprintf("mf/review/%d/0", id)})
	answer, ok := app.Fake.Message(out["message"].(string))
	require.True(t, ok)
	assert.True(t, answer.Ephemeral, "Alice's review is hers alone")
	assert.Contains(t, answer.Labels(), "Review on the board")
	require.Contains(t, answer.CustomIDs(), board)
	out = sandboxPost(t, srv, "/api/click", map[string]string{"user": users[0].ID, "message": answer.ID, "custom_id": board})
	assert.Equal(t, true, out["launch"], "Discord opens the Activity: %v", out)
	// /malefiz replay in the game's channel offers it too.
	replay := sandboxPost(t, srv, "/api/command", map[string]string{"user": users[1].ID, "line": fmt.Sprintf("/malefiz replay game:%d", id)})["message"].(string)
	require.Eventually(t, func() bool {
		m, ok := app.Fake.Message(replay)
		return ok && slices.Contains(m.CustomIDs(), board)
	}, harness.Patience, 20*time.Millisecond, "the replay offers the review on the board")
	out = sandboxPost(t, srv, "/api/click", map[string]string{"user": users[1].ID, "message": replay, "custom_id": board})
	assert.Equal(t, true, out["launch"], "%v", out)

	// The step of the pictures: the move that lost most of those whose
	// better move lands elsewhere.
	shot := -1
	for i, st := range rv.Steps {
		if st.Better != nil && st.Played != nil && st.Better.To != st.Played.To &&
			(shot < 0 || st.Grade.Points > rv.Steps[shot].Grade.Points) {
			shot = i
		}
	}
	require.GreaterOrEqual(t, shot, 0, "a move the coach found a better one for")
	for _, sz := range boardSizes {
		t.Run(sz.name, func(t *testing.T) {
			ctx := harness.Browser(t, sz.width, sz.height)
			if sz.name == "desktop" {
				// As Discord opens it from the thread's buttons: the board
				// opened in the game's thread shows its review.
				require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/.proxy/?user=%s&channel=%s", srv.URL, users[0].ID, sg.ThreadID))))
			} else {
				// As Discord opens it from the replay in the channel: the
				// channel has no open game, its finished one is listed as
				// a review, and chosen, opens as its review.
				require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/.proxy/?user=%s", srv.URL, users[0].ID))))
				listed := fmt.Sprintf(`#games button[data-act="%d"]`, id)
				require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(listed)))
				label, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-label")`, listed)))
				require.NoError(t, err)
				assert.Equal(t, fmt.Sprintf("Review: #%d · Alice, Computer (normal)", id), label, "named as on the board")
				require.NoError(t, chromedp.Do(ctx, chromedp.Click(listed)))
			}
			v := waitReview(t, ctx, "the review", func(v reviewView) bool { return v.View == "review" && v.Step == 0 })
			assert.Equal(t, len(rv.Turning), v.Turning, "the turning points on the chart")
			assert.Empty(t, v.Note)
			check := func(i int, how string) reviewView {
				t.Helper()
				v := waitReview(t, ctx, fmt.Sprintf("step %d (%s)", i, how), func(v reviewView) bool { return v.Step == i })
				st := rv.Steps[i]
				assert.Equal(t, st.Head, v.Said, "step %d", i)
				assert.Equal(t, st.Said, v.Announce, "step %d: said in the live region", i)
				assert.Equal(t, squaresOf(st.Board), v.Pawns, "step %d: the board as it stood", i)
				assert.ElementsMatch(t, st.Board.Blocks, v.Blocks, "step %d", i)
				assert.Equal(t, moveOf(st.Played), v.Played, "step %d: the move played", i)
				assert.Equal(t, moveOf(st.Better), v.Better, "step %d: the better move", i)
				if st.Grade != nil {
					assert.Contains(t, v.Grade, st.Grade.Label, "step %d", i)
				} else {
					assert.Empty(t, v.Grade, "step %d", i)
				}
				if st.Better != nil {
					assert.Equal(t, []string{"better", "played"}, v.Tags, "step %d: both arrows labelled", i)
					assert.Contains(t, v.Card, "Better: "+st.Better.Text)
				}
				assert.Equal(t, i+1, v.Now, "the chart's value")
				assert.False(t, v.Overflow, "step %d: nothing wider than the window", i)
				return v
			}
			// The keyboard: → through every step from the chart.
			tabTo(t, ctx, "#chart")
			prev := check(0, "opened")
			changed := 0
			for i := 1; i < len(rv.Steps); i++ {
				require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)))
				v := check(i, "→")
				if !slices.Equal(v.Pawns, prev.Pawns) || v.Played != prev.Played {
					changed++
				}
				assert.Greater(t, v.Cursor, prev.Cursor, "the cursor moves right")
				prev = v
			}
			assert.Greater(t, changed, len(rv.Steps)/2, "the board changes with the steps")
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)))
			check(len(rv.Steps)-1, "→ at the end stays")
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)))
			check(len(rv.Steps)-2, "←")
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Home)))
			check(0, "Home")
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.End)))
			check(len(rv.Steps)-1, "End")
			// The buttons.
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#actions button[data-act="first"]`)))
			check(0, "⏮")
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#actions button[data-act="next"]`)))
			check(1, "▶")
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#actions button[data-act="previous"]`)))
			check(0, "◀")
			// A tap on the chart, at every step.
			for i := len(rv.Steps) - 1; i >= 0; i-- {
				x, y := chartPoint(t, ctx, i)
				require.NoError(t, chromedp.Do(ctx, chromedp.MouseClickXY(x, y)))
				check(i, "a tap on the chart")
			}
			if len(rv.Turning) > 0 {
				require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#turning button`)))
				check(rv.Turning[0].Step, "the first turning point")
			}

			require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#actions button[data-act="first"]`)))
			for range shot {
				require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#actions button[data-act="next"]`)))
			}
			check(shot, "the picture's step")
			v = readReview(t, ctx)
			assert.NotEmpty(t, v.Better)
			file := activityReviewScreenshot
			if sz.name == "phone" {
				file = activityReviewPhoneScreenshot
			}
			harness.Screenshot(t, ctx, filepath.Join(t.ArtifactDir(), filepath.Base(file)))
			if *harness.Update {
				harness.Screenshot(t, ctx, file)
			}
		})
	}
}

// chartPoint is where on the page step i of the review's chart is drawn
// (its cursor's place), halfway up the chart.
func chartPoint(t *testing.T, ctx context.Context, i int) (float64, float64) {
	t.Helper()
	type point struct{ X, Y float64 }
	p := readPage[point](t, ctx, fmt.Sprintf(`(() => {
  const chart = document.querySelector('#chart'), g = chartGeometry();
  chart.scrollIntoView({block: 'nearest'});
  const b = chart.getBoundingClientRect();
  return { X: b.left + (g.left + %d * g.dx) / g.W * b.width, Y: b.top + b.height / 2 };
})()`, i))
	return p.X, p.Y
}
