package activity

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	gametable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/sandbox"
	"github.com/malefiz-discord/malefiz/store"
)

// The README's pictures of a tournament on the board, written by
// TestActivityTournamentInTheBrowser with -update.
const (
	activityTournamentScreenshot      = "../../docs/activity-tournament.png"
	activityTournamentPhoneScreenshot = "../../docs/activity-tournament-phone.png"
)

// tourView is what the tournament on the board shows, read by tourJS.
type tourView struct {
	View      string     `json:"view"` // the page's view: "tournament"
	Name      string     `json:"name"`
	Status    string     `json:"status"`
	Headers   []string   `json:"headers"`   // the standings' column headers
	Standings [][]string `json:"standings"` // each row's cells: place, player, points, tie-break, games
	You       []string   `json:"you"`       // the rows marked as the viewer's: their player cell
	Current   []tourCard `json:"current"`   // the current round's tables
	Earlier   []tourCard `json:"earlier"`   // the earlier rounds' tables
	Rounds    []string   `json:"rounds"`    // the headings of the earlier rounds
	Note      string     `json:"note"`
	Overflow  bool       `json:"overflow"` // the page is wider than the window
}

// tourCard is a table as the page shows it.
type tourCard struct {
	State  string   `json:"state"` // data-state: playing, finished, …
	Game   string   `json:"game"`
	Title  string   `json:"title"`
	Line   string   `json:"line"`   // whose turn, or that the game is over
	Seats  []string `json:"seats"`  // each seat's line
	Button string   `json:"button"` // the button's accessible name
	You    bool     `json:"you"`
}

const tourJS = `(() => {
  const all = (root, q) => [...(root || document).querySelectorAll(q)];
  const text = (e) => (e ? e.textContent : '');
  const card = (li) => ({
    state: li.dataset.state || '', game: li.dataset.game || '',
    title: text(li.querySelector('h5')), line: text(li.querySelector('.state')),
    seats: all(li, '.tour-seats li').map((s) => s.textContent),
    button: (li.querySelector('button') || { getAttribute: () => '' }).getAttribute('aria-label') || '',
    you: li.classList.contains('you'),
  });
  return {
    view: document.body.dataset.view || '',
    name: text(document.querySelector('#tour-name')),
    status: document.body.dataset.status || '',
    headers: all(null, '#tournament thead th').map(text),
    standings: all(null, '#tournament tbody tr').map((tr) => all(tr, 'td, th').map(text)),
    you: all(null, '#tournament tbody tr.you th').map(text),
    current: all(null, '#tournament .tour-current .tour-table').map(card),
    earlier: all(null, '#tournament .tour-rounds .tour-table').map(card),
    rounds: all(null, '#tournament .tour-rounds h4').map(text),
    note: text(document.querySelector('#note')),
    overflow: document.documentElement.scrollWidth > window.innerWidth + 1,
  };
})()`

// waitTour polls the tournament's view until ok holds of it.
func waitTour(t *testing.T, ctx context.Context, what string, ok func(tourView) bool) tourView {
	t.Helper()
	return waitPage(t, ctx, tourJS, "the tournament", "tournament-failed.png", what, ok)
}

// tourControl is the custom ID of the card's button of action a.
func tourControl(t *testing.T, m fakediscord.Message, a gametable.Action) string {
	t.Helper()
	for _, id := range m.CustomIDs() {
		if strings.HasPrefix(id, "mf/"+string(a)+"/") {
			return id
		}
	}
	t.Fatalf("no %s button on %q", a, m.Text())
	return ""
}

// waitRound waits until tournament id has round n with each of its
// tables' games opened (running, or over), and returns it.
func waitRound(t *testing.T, app *sandbox.App, id int64, n int) *malefiz.Tournament {
	t.Helper()
	var tt *malefiz.Tournament
	require.Eventually(t, func() bool {
		var err error
		tt, err = app.Main.DB().Tournament(t.Context(), id)
		require.NoError(t, err)
		if len(tt.Rounds) < n {
			return false
		}
		for _, tb := range tt.Rounds[n-1].Tables {
			if !tb.Bye() && (tb.GameID == 0 || tb.GameStatus == malefiz.StatusLobby) {
				return false
			}
		}
		return true
	}, 60*time.Second, 20*time.Millisecond, "round %d opens with its games", n)
	return tt
}

// resignTable ends a table's game of 2: the person at it who is not keep
// resigns (the one after them when both are people).
func resignTable(t *testing.T, app *sandbox.App, tt *malefiz.Tournament, tb malefiz.TournamentTable, keep string) {
	t.Helper()
	for _, id := range slices.Backward(tb.Seats) {
		if e, _ := tt.Entrant(id); e.Computer == "" && id != keep {
			resign(t, app, tb.GameID, id)
			return
		}
	}
	t.Fatalf("table %d has nobody to resign: %v", tb.Number, tb.Seats)
}

// tableOf is the table of round r where user sits.
func tableOf(t *testing.T, r malefiz.TournamentRound, user string) malefiz.TournamentTable {
	t.Helper()
	for _, tb := range r.Tables {
		if slices.Contains(tb.Seats, user) {
			return tb
		}
	}
	t.Fatalf("%s has no table in round %d", user, r.Number)
	return malefiz.TournamentTable{}
}

// TestActivityTournamentInTheBrowser runs a Swiss tournament of Alice,
// Bob, Carol and a computer at tables of 2 over two rounds in the
// sandbox: round 1 played out (a resignation at each table), round 2
// with one table over and Alice's still being played. Opened in the
// tournament's channel, the board shows the tournament (at 1280 px and at
// 400 px): its standings as the service ranks them with Alice's own row
// marked, the current round's tables with whose turn it is or the places,
// round 1 below; her table's Play opens its game on the board. When her
// game ends, the page shows it within its poll, the tournament finished.
func TestActivityTournamentInTheBrowser(t *testing.T) {
	t.Parallel() // a sandbox and a window of its own
	app, srv, users, _ := activitySandboxWith(t, 7, nil)
	alice := users[0].ID
	resp, err := app.Fake.SlashCommand(t.Context(), fakediscord.Invocation{User: alice, UserName: users[0].Name, Name: "malefiz", Sub: "tournament new",
		Options: map[string]any{"name": "Evening Cup", "format": "swiss", "table-size": 2, "rounds": 2, "computers": true}})
	require.NoError(t, err)
	require.NotNil(t, resp.Message)
	card := *resp.Message
	for _, u := range users {
		_, err := app.Fake.Click(t.Context(), fakediscord.Invocation{User: u.ID, UserName: u.Name, MessageID: card.ID, CustomID: tourControl(t, card, gametable.ActTourJoin)})
		require.NoError(t, err)
	}
	_, err = app.Fake.Click(t.Context(), fakediscord.Invocation{User: alice, UserName: users[0].Name, MessageID: card.ID, CustomID: tourControl(t, card, gametable.ActTourComputer)})
	require.NoError(t, err)
	open, err := app.Main.DB().OpenTournaments(t.Context(), app.Fake.GuildID, app.Fake.ChannelID)
	require.NoError(t, err)
	require.Len(t, open, 1)
	id := open[0].ID
	_, err = app.Fake.Click(t.Context(), fakediscord.Invocation{User: alice, UserName: users[0].Name, MessageID: card.ID, CustomID: tourControl(t, card, gametable.ActTourStart)})
	require.NoError(t, err)

	// Round 1, played out: someone resigns at each table.
	tt := waitRound(t, app, id, 1)
	require.Len(t, tt.Rounds[0].Tables, 2)
	for _, tb := range tt.Rounds[0].Tables {
		resignTable(t, app, tt, tb, "")
	}
	// Round 2: the table without Alice ends; hers is being played.
	tt = waitRound(t, app, id, 2)
	mine := tableOf(t, tt.Rounds[1], alice)
	for _, tb := range tt.Rounds[1].Tables {
		if tb.Number != mine.Number {
			resignTable(t, app, tt, tb, "")
		}
	}
	require.Eventually(t, func() bool {
		tt, err = app.Main.DB().Tournament(t.Context(), id)
		require.NoError(t, err)
		done := 0
		for _, tb := range tt.Rounds[1].Tables {
			if tb.Done() {
				done++
			}
		}
		return done == len(tt.Rounds[1].Tables)-1
	}, harness.Patience, 20*time.Millisecond, "round 2's other table is over")
	require.Equal(t, malefiz.TournamentRunning, tt.Status)

	// What the page must show: the service's own reading, for Alice.
	want, err := app.Main.Bot().Games().TournamentBoard(t.Context(), id, app.Fake.GuildID, alice, "en")
	require.NoError(t, err)
	require.Len(t, want.Standings, 4)

	for _, sz := range boardSizes {
		t.Run(sz.name, func(t *testing.T) {
			ctx := harness.Browser(t, sz.width, sz.height)
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/.proxy/?user=%s", srv.URL, alice))))
			v := waitTour(t, ctx, "the tournament", func(v tourView) bool { return v.View == "tournament" && len(v.Standings) == 4 })
			assert.Equal(t, "🏆 Evening Cup", v.Name)
			assert.Equal(t, "running", v.Status)
			assert.Equal(t, []string{"Place", "Player", "Points", "Buchholz", "Games"}, v.Headers)
			for i, s := range want.Standings {
				row := v.Standings[i]
				assert.Equal(t, fmt.Sprint(s.Rank), row[0], "row %d", i)
				assert.True(t, strings.HasPrefix(row[1], s.Name), "row %d: %q is %s", i, row[1], s.Name)
				assert.Equal(t, fmt.Sprint(s.Points), row[2], "row %d", i)
				assert.Equal(t, fmt.Sprint(s.Played), row[4], "row %d", i)
			}
			assert.Equal(t, []string{"Alice (you)"}, v.You, "Alice's own row is marked")

			require.Len(t, v.Current, 2, "round 2's two tables")
			var playing, finished tourCard
			for _, c := range v.Current {
				switch c.State {
				case "playing":
					playing = c
				case "finished":
					finished = c
				}
			}
			assert.Equal(t, fmt.Sprint(mine.GameID), playing.Game, "Alice's table is being played")
			assert.True(t, playing.You)
			assert.Contains(t, playing.Line, " to move")
			assert.Equal(t, fmt.Sprintf("Play · Table %d · #%d", mine.Number, mine.GameID), playing.Button)
			require.Len(t, finished.Seats, 2)
			assert.True(t, strings.HasPrefix(finished.Seats[0], "1. "), "the winner first: %v", finished.Seats)
			assert.Contains(t, finished.Seats[0], "6 points")
			assert.Contains(t, finished.Line, "Game over")
			assert.Contains(t, finished.Button, "Review")

			assert.Equal(t, []string{"Round 1"}, v.Rounds, "the earlier round below")
			require.Len(t, v.Earlier, 2)
			for _, c := range v.Earlier {
				assert.Equal(t, "finished", c.State)
				assert.Contains(t, strings.Join(c.Seats, " "), "forfeited", "someone resigned at each table")
			}
			assert.Empty(t, v.Note)
			assert.False(t, v.Overflow, "nothing wider than the window")
			issues := serious(audit(t, ctx))
			assert.Empty(t, issues, "the tournament reads aloud")

			file := activityTournamentScreenshot
			if sz.name == "phone" {
				file = activityTournamentPhoneScreenshot
			}
			harness.Screenshot(t, ctx, filepath.Join(t.ArtifactDir(), filepath.Base(file)))
			if *harness.Update {
				harness.Screenshot(t, ctx, file)
			}

			if sz.name == "desktop" {
				// Play opens Alice's game on the board, and Tournament
				// beside it brings the tournament back.
				require.NoError(t, chromedp.Do(ctx, chromedp.Click(fmt.Sprintf(`#tournament button[data-act="game-%d"]`, mine.GameID))))
				waitActivity(t, ctx, "Alice's game", func(v activityView) bool { return v.Turn >= 0 })
				gameNo, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#game-no').textContent`))
				require.NoError(t, err)
				assert.Equal(t, locales.Tr("en", locales.GameFooter, mine.GameID), gameNo)
				require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#games button[data-act="tournament"]`)))
				waitTour(t, ctx, "the tournament again", func(v tourView) bool { return v.View == "tournament" && len(v.Current) == 2 })
				return
			}
			// Alice's game ends: the page shows it within its poll, the
			// tournament over after its last round.
			resignTable(t, app, tt, mine, "")
			v = func() tourView {
				t.Helper()
				deadline := time.Now().Add(harness.Patience)
				for {
					v := readPage[tourView](t, ctx, tourJS)
					if v.Status == "finished" || time.Now().After(deadline) {
						return v
					}
					time.Sleep(100 * time.Millisecond)
				}
			}()
			assert.Equal(t, "finished", v.Status, "the poll shows the tournament finished")
			assert.Empty(t, v.Current, "no current round once it is over")
			assert.Equal(t, []string{"Round 1", "Round 2"}, v.Rounds)
		})
	}
}

// TestActivityTournamentRefusals reads tournaments through the Activity
// as it must not: without a session, and another guild's by its number,
// refused in words as an unknown one is; the sandbox's channel without a
// tournament answers none.
func TestActivityTournamentRefusals(t *testing.T) {
	app, srv, users, logs := activitySandboxWith(t, 5, nil)
	other := &malefiz.Tournament{GuildID: "900000000000000999", ChannelID: "900000000000000998", HostID: users[0].ID,
		Name: "Elsewhere Cup", Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 2}, Status: malefiz.TournamentSignUp, Locale: "en"}
	require.NoError(t, app.Main.DB().CreateTournament(t.Context(), other, func(int64) ([]store.Effect, error) { return nil, nil }))
	require.NotZero(t, other.ID)
	session := signIn(t, app, srv, users[0])

	status, out := activityCall(t, srv, http.MethodGet, "api/tournament", session, nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Nil(t, out, "no tournament in the sandbox's channel: null")

	before := len(logs.String())
	status, out = activityCall(t, srv, http.MethodGet, fmt.Sprintf("api/tournaments/%d", other.ID), session, nil)
	assert.Equal(t, http.StatusConflict, status)
	assert.Equal(t, locales.Tr("en", locales.ErrTourUnknown, other.ID), out["error"])
	assert.NotContains(t, fmt.Sprint(out), "Elsewhere Cup", "nothing of it is told")
	assert.Contains(t, logs.String()[before:], "of another guild")
	status, unknown := activityCall(t, srv, http.MethodGet, fmt.Sprintf("api/tournaments/%d", other.ID+1000), session, nil)
	assert.Equal(t, http.StatusConflict, status)
	assert.Equal(t, locales.Tr("en", locales.ErrTourUnknown, other.ID+1000), unknown["error"], "an unknown one reads alike")
	status, out = activityCall(t, srv, http.MethodGet, "api/tournaments/x", session, nil)
	assert.Equal(t, http.StatusNotFound, status)
	assert.NotEmpty(t, out["error"])

	for _, path := range []string{"api/tournament", fmt.Sprintf("api/tournaments/%d", other.ID)} {
		status, out = activityCall(t, srv, http.MethodGet, path, "", nil)
		assert.Equal(t, http.StatusUnauthorized, status, path)
		assert.Contains(t, out["error"], "could not sign you in", path)
		assert.NotContains(t, fmt.Sprint(out), "Elsewhere Cup")
	}
}
