// Package tournaments plays whole tournaments through the real program and
// the Discord stand-in: the sign-up card, rounds that open by themselves,
// each table a game in its own thread, the standings card, the end.
package tournaments

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/game"
	"github.com/malefiz-discord/malefiz/store"
	tournamentpkg "github.com/malefiz-discord/malefiz/tournament"
)

// Dave signs up and never plays: his turns time out until the computer
// takes his seat over, a forfeit.
const Dave = "100000000000000004"

// newHarness runs the program with a clock of the test's: the games'
// timers and the round opener run when the test ticks them. The clock
// starts ahead of the store's (the wall clock), so that what the store
// makes due now is due at the test's time too.
func newHarness(t *testing.T, postgres bool) (*harness.Harness, *harness.Clock) {
	clock := harness.ClockAt(time.Now().Add(10 * time.Minute).Truncate(time.Second))
	h := harness.NewWithClock(t, clock, harness.WithoutMessageBuckets())
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the program's log, its end:\n%s", tail(h.Logs.String(), 4000))
		}
	})
	// Easy computers: a tournament's games are many, and the normal
	// computer's search is what takes the time (under -race most of it).
	h.BotOptions = func(c *bot.Config) { c.Defaults.Level = "easy" }
	h.Stop()
	h.Start()
	if postgres {
		url := harness.NewPostgresDatabase(t)
		h.Stop()
		h.DBPath = url
		h.Start()
		require.Contains(t, h.Main.DB().String(), "postgres://")
	}
	return h, clock
}

// openTournament opens a tournament as Alice with opts and returns its
// card and ID.
func openTournament(t *testing.T, h *harness.Harness, opts map[string]any) (fakediscord.Message, int64) {
	t.Helper()
	resp := h.Command(harness.Alice, "tournament new", opts)
	require.NotNil(t, resp.Message, "the card answers the command")
	card := *resp.Message
	require.Contains(t, card.Text(), opts["name"])
	id, err := table.ParseCustomID(control(t, card, table.ActTourJoin))
	require.NoError(t, err)
	return card, id.Game
}

// control is the custom ID of the card's button of action a.
func control(t *testing.T, m fakediscord.Message, a table.Action) string {
	t.Helper()
	for _, id := range m.CustomIDs() {
		if strings.HasPrefix(id, "mf/"+string(a)+"/") {
			return id
		}
	}
	t.Fatalf("no %s button on %q", a, m.Text())
	return ""
}

// tournament reads tournament id as the store keeps it.
func tournament(t *testing.T, h *harness.Harness, id int64) *malefiz.Tournament {
	t.Helper()
	tt, err := h.Main.DB().Tournament(h.Ctx(), id)
	require.NoError(t, err)
	return tt
}

// playRound plays the games of the tournament's current round to their
// end: people click their turns (the racer's move), computers play when
// the timers are ticked, and forfeiter's turns time out (the clock moves
// an hour, the turn timeout, once every open game waits for them).
func playRound(t *testing.T, h *harness.Harness, clock *harness.Clock, id int64, forfeiter string) []int64 {
	t.Helper()
	tt := tournament(t, h, id)
	r := tt.Rounds[len(tt.Rounds)-1]
	var games []int64
	for _, tb := range r.Tables {
		if !tb.Bye() {
			require.NotZero(t, tb.GameID, "round %d, table %d has no game", r.Number, tb.Number)
			games = append(games, tb.GameID)
		}
	}
	for step := 0; ; step++ {
		require.Less(t, step, 4000, "round %d: the games did not end", r.Number)
		open, waiting := 0, 0
		for _, gid := range games {
			sg, g := snapshot(t, h, gid)
			if sg.Status != malefiz.StatusRunning || g == nil || g.Over() {
				continue
			}
			open++
			var seat *malefiz.Seat
			for i := range sg.Seats {
				if table.SeatColor(&sg.Seats[i]) == g.Turn() {
					seat = &sg.Seats[i]
				}
			}
			require.NotNil(t, seat)
			switch {
			case seat.Computer != "":
				h.Tick()
			case seat.UserID == forfeiter:
				waiting++
			default:
				playTurn(t, h, gid, seat.UserID, g.TurnNumber())
			}
		}
		if open == 0 {
			return games
		}
		if waiting == open {
			clock.Advance(time.Hour)
			h.Tick()
		}
	}
}

// snapshot reads a game and its engine state as last committed (the
// harness's Game replays the whole log, too slow for a tournament).
func snapshot(t *testing.T, h *harness.Harness, id int64) (*malefiz.Game, *engine.Game) {
	t.Helper()
	sg, err := h.Main.DB().Game(h.Ctx(), id)
	require.NoError(t, err)
	if len(sg.State) == 0 {
		return sg, nil
	}
	var g engine.Game
	require.NoError(t, g.UnmarshalSnapshot(sg.State))
	return sg, &g
}

// playTurn plays turn of game id for player by clicks on its turn card,
// which arrives rolled: the racer's move (a pawn first when the card asks
// for one), a captured barricade on the first square suggested.
func playTurn(t *testing.T, h *harness.Harness, id int64, player string, turn int) {
	t.Helper()
	var card fakediscord.Message
	require.Eventually(t, func() bool {
		sg, err := h.Main.DB().Game(h.Ctx(), id)
		require.NoError(t, err)
		m, ok := h.Fake.Message(sg.TurnMessageID)
		if !ok {
			return false
		}
		for _, cid := range m.CustomIDs() {
			if c, err := table.ParseCustomID(cid); err == nil && c.Turn == turn && c.Action != table.ActRoll {
				card = m
				return true
			}
		}
		return false
	}, 30*time.Second, 5*time.Millisecond, "game %d: no card for turn %d", id, turn)
	_, g := snapshot(t, h, id)
	if g.Phase() == engine.PhasePlace {
		// The move went through but its click's answer came too late
		// (see click), and the card kept its move buttons: the
		// barricade goes where the board's play puts it.
		sq := g.PlacementSquares()[0]
		cid := table.CustomID{Action: table.ActPlace, Game: id, Turn: turn, Arg: sq.String()}
		_, err := h.Main.Bot().Games().Apply(h.Ctx(), game.Command{Game: id, User: table.Actor{UserID: player}, Action: game.Play{ID: cid}})
		require.NoError(t, err)
		return
	}
	require.Equal(t, engine.PhaseMove, g.Phase(), "the turn arrives rolled")
	m := harness.RacingMove(g, false)
	msg := card
	if !harness.HasControl(card, table.ActMove) {
		arg := "home"
		if m.From != engine.NoSquare {
			arg = m.From.String()
		}
		resp := click(t, h, player, card.ID, fmt.Sprintf("mf/pawn/%d/%d/%s", id, turn, arg))
		if resp == nil {
			return
		}
		msg = *resp.Message
	}
	target := "/" + engine.Move{From: m.From, To: m.To, Place: engine.NoSquare}.String()
	var moveID string
	for _, cid := range msg.CustomIDs() {
		if strings.HasPrefix(cid, "mf/move/") && strings.HasSuffix(cid, target) {
			moveID = cid
		}
	}
	require.NotEmpty(t, moveID, "no button for %s among %v", target, msg.CustomIDs())
	resp := click(t, h, player, card.ID, moveID)
	if resp != nil && g.Position().At(m.To) == engine.Barricade {
		click(t, h, player, card.ID, harness.Control(t, *resp.Message, table.ActPlace))
	}
}

// click presses a control as player and returns the answer; nil when the
// bot answered after Discord's three seconds (a machine too loaded to
// answer in time: the stand-in refuses the late answer as Discord does),
// for the caller to read the game again and go on from where it is.
func click(t *testing.T, h *harness.Harness, player, msgID, customID string) *fakediscord.Response {
	t.Helper()
	resp, err := h.Fake.Click(h.Ctx(), harness.Invocation(player, msgID, customID))
	if err != nil && strings.Contains(err.Error(), "Unknown interaction") {
		t.Logf("a late answer: %v", err)
		return nil
	}
	require.NoError(t, err, "click %s by %s", customID, player)
	return resp
}

// waitCard waits until the channel's card (message id) says want.
func waitCard(t *testing.T, h *harness.Harness, id, want string) fakediscord.Message {
	t.Helper()
	var m fakediscord.Message
	require.Eventually(t, func() bool {
		var ok bool
		m, ok = h.Fake.Message(id)
		return ok && strings.Contains(m.Text(), want)
	}, 10*time.Second, 5*time.Millisecond, "the card never said %q", want)
	return m
}

// TestSwissTournament plays a Swiss tournament of three people and five
// computers at tables of 4 over three rounds: the sign-up card's buttons
// (forged ones refused), rounds that open by themselves, the standings
// card edited after the games, Dave's forfeit withdrawing him, the
// program restarted between rounds, the winner announced and the podium
// pinged once.
func TestSwissTournament(t *testing.T) { swissTournament(t, false) }

// TestSwissTournamentOnPostgres is TestSwissTournament on PostgreSQL.
func TestSwissTournamentOnPostgres(t *testing.T) { swissTournament(t, true) }

func swissTournament(t *testing.T, postgres bool) {
	h, clock := newHarness(t, postgres)
	card, id := openTournament(t, h, map[string]any{"name": "Winter Cup", "format": "swiss", "table-size": 4,
		"rounds": 3, "turn-timeout": "1h", "computers": true, "forfeits": 1})
	assert.Contains(t, card.Text(), locales.Tr("en", locales.TourNoEntrants))

	// A second tournament in the channel is refused.
	again := h.Command(harness.Bob, "tournament new", map[string]any{"name": "Other"})
	assert.Contains(t, again.Message.Text(), locales.Tr("en", locales.ErrTourBusy, "Winter Cup"))

	for _, u := range []string{harness.Alice, harness.Bob, Dave} {
		resp := h.Click(u, card.ID, control(t, card, table.ActTourJoin))
		require.Contains(t, resp.Message.Text(), "<@"+u+">", "the card shows who signed up")
	}
	for range 5 {
		h.Click(harness.Alice, card.ID, control(t, card, table.ActTourComputer))
	}
	// The host's buttons are the host's: Bob's Start changes nothing.
	resp := h.Click(harness.Bob, card.ID, control(t, card, table.ActTourStart))
	assert.Contains(t, resp.Message.Text(), locales.Tr("en", locales.ErrTourOnlyHost))
	tt := tournament(t, h, id)
	require.Len(t, tt.Entrants, 8)
	require.Equal(t, malefiz.TournamentSignUp, tt.Status)

	resp = h.Click(harness.Alice, card.ID, control(t, card, table.ActTourStart))
	assert.Contains(t, resp.Message.Text(), locales.Tr("en", locales.TourRoundTitle, "Winter Cup", 1, 3))
	assert.NotContains(t, resp.Message.CustomIDs(), control(t, card, table.ActTourJoin), "no Join once it runs")

	for round := 1; round <= 3; round++ {
		if round == 2 {
			h.Stop() // a deploy between two rounds
			h.Start()
		}
		// The round opener: round 1's tables, then each next round as
		// the last game of the one before ends.
		h.TickTournaments()
		tt = tournament(t, h, id)
		require.Len(t, tt.Rounds, round, "round %d opened by itself", round)
		if round == 2 {
			// Dave's forfeit withdrew him before the round's pairing.
			waitCard(t, h, card.ID, locales.Tr("en", locales.TourWithdrawn))
		}
		forfeiter := ""
		if round == 1 {
			forfeiter = Dave
		}
		games := playRound(t, h, clock, id, forfeiter)
		require.Len(t, games, 2, "round %d: two tables of 4 (7 entrants: 4+3, a computer filling the 3)", round)
		for _, gid := range games {
			sg, _ := h.Game(gid)
			assert.NotEmpty(t, sg.ThreadID, "each table plays in its thread")
		}
		if round == 1 {
			standings := h.Command(harness.Bob, "tournament standings", nil)
			assert.Contains(t, standings.Message.Text(), locales.Tr("en", locales.TourRoundTitle, "Winter Cup", 1, 3), "privately, the card as it stands")
		}
	}
	h.TickTournaments()
	tt = tournament(t, h, id)
	require.Equal(t, malefiz.TournamentFinished, tt.Status)
	require.Len(t, tt.Rounds, 3)
	dave, _ := tt.Entrant(Dave)
	assert.True(t, dave.Withdrawn, "Dave forfeited and was withdrawn")
	for _, r := range tt.Rounds[1:] {
		for _, tb := range r.Tables {
			assert.NotContains(t, tb.Seats, Dave, "later rounds pair without him")
		}
	}

	var stats *store.PlayerStats
	final := waitCard(t, h, card.ID, locales.Tr("en", locales.TourFinalTitle, "Winter Cup"))
	assert.Greater(t, final.Edits, 3, "the standings card is edited as the games end")
	// The announcement is a message of its own, delivered beside the
	// card's edits: on a loaded machine it may come after the final card.
	announced := func() (won []fakediscord.Message) {
		for _, m := range h.Fake.ChannelMessages(h.Fake.ChannelID) {
			if strings.Contains(m.Text(), "🏆 **Winter Cup**") {
				won = append(won, m)
			}
		}
		return won
	}
	require.Eventually(t, func() bool { return len(announced()) > 0 }, 30*time.Second, 20*time.Millisecond, "the winner is announced")
	won := announced()
	require.Len(t, won, 1, "the winner is announced once")
	pt, err := tournamentpkg.FromKept(tt)
	require.NoError(t, err)
	standings, err := pt.Standings()
	require.NoError(t, err)
	var podium []string
	for _, s := range standings[:3] {
		if e, _ := tt.Entrant(s.Entrant.ID); e.Computer == "" {
			podium = append(podium, e.UserID)
		}
	}
	assert.ElementsMatch(t, podium, won[0].Pinged, "the podium's people are pinged, nobody else")
	stats, err = h.Main.DB().PlayerStats(h.Ctx(), h.Fake.GuildID, harness.Alice)
	require.NoError(t, err)
	assert.Equal(t, 3, stats.Games, "Alice's three games are in her stats")
}

// TestKnockoutTournament plays a knockout of eight at tables of 2: four
// tables, then two, then the final; Alice plays her games, computers the
// rest.
func TestKnockoutTournament(t *testing.T) {
	h, clock := newHarness(t, false)
	card, id := openTournament(t, h, map[string]any{"name": "Sudden Death", "format": "knockout", "table-size": 2,
		"turn-timeout": "1h", "computers": true})
	h.Click(harness.Alice, card.ID, control(t, card, table.ActTourJoin))
	for range 7 {
		h.Click(harness.Alice, card.ID, control(t, card, table.ActTourComputer))
	}
	h.Click(harness.Alice, card.ID, control(t, card, table.ActTourStart))
	for round, tables := range []int{4, 2, 1} {
		h.TickTournaments()
		tt := tournament(t, h, id)
		require.Len(t, tt.Rounds, round+1, "round %d opened by itself", round+1)
		require.Len(t, tt.Rounds[round].Tables, tables)
		for _, tb := range tt.Rounds[round].Tables {
			require.Len(t, tb.Seats, 2)
		}
		playRound(t, h, clock, id, "")
	}
	h.TickTournaments()
	tt := tournament(t, h, id)
	require.Equal(t, malefiz.TournamentFinished, tt.Status)
	require.Len(t, tt.Rounds, 3)
	waitCard(t, h, card.ID, locales.Tr("en", locales.TourFinalTitle, "Sudden Death"))
}

// tail is the end of s, at most n bytes.
func tail(s string, n int) string { return s[max(len(s)-n, 0):] }

// BenchmarkOpen64Tables opens the first round of a Swiss tournament of
// 256 at tables of 4, sixty-four games at once, with every limit of the
// stand-in on: each table's lobby post and its thread, in one channel.
// It fails on any global 429 or a thread refused, and reports how long the
// round took to open and the 429s by scope (a bucket's 429 is waited out,
// a global one would be the bot's fault).
func BenchmarkOpen64Tables(b *testing.B) {
	for range b.N {
		clock := harness.ClockAt(time.Now().Add(10 * time.Minute).Truncate(time.Second))
		h := harness.NewWithClock(b, clock)
		games := h.Main.Bot().Games()
		out, err := games.OpenTournament(b.Context(), game.NewTournament{Guild: h.Fake.GuildID, Channel: h.Fake.ChannelID,
			User: table.Actor{UserID: harness.Alice, Name: "Alice"}, Lang: "en", Name: "Big Cup",
			Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 4, Rounds: 1, Computers: true}})
		require.NoError(b, err)
		do := func(act game.TournamentAction) {
			_, err := games.ChangeTournament(b.Context(), game.TournamentCommand{Tournament: out.Tournament.ID,
				User: table.Actor{UserID: harness.Alice, Name: "Alice"}, Guild: h.Fake.GuildID, Channel: h.Fake.ChannelID, Action: act})
			require.NoError(b, err)
		}
		for range 256 {
			do(game.TournamentAddComputer{Level: "easy"})
		}
		do(game.TournamentStart{})
		start := time.Now()
		ctx, cancel := context.WithTimeout(b.Context(), 10*time.Minute)
		_, err = games.TickTournaments(ctx) // longer than the harness's 20 s
		cancel()
		require.NoError(b, err)
		opened := time.Since(start)
		tt, err := h.Main.DB().Tournament(b.Context(), out.Tournament.ID)
		require.NoError(b, err)
		require.Len(b, tt.Rounds[0].Tables, 64)
		threads := 0
		for _, tb := range tt.Rounds[0].Tables {
			require.NotZero(b, tb.GameID, "table %d has no game; the log:\n%s", tb.Number, tail(h.Logs.String(), 3000))
			sg, err := h.Main.DB().Game(b.Context(), tb.GameID)
			require.NoError(b, err)
			if sg.ThreadID != "" {
				threads++
			}
		}
		limited := map[string]int{}
		var first, last time.Time
		for _, c := range h.Fake.Calls() {
			if c.Limited != "" {
				limited[c.Limited]++
			}
			if c.Route == fakediscord.RouteThreadStart && c.Status < 300 {
				if first.IsZero() {
					first = c.Time
				}
				last = c.Time
			}
		}
		require.Zero(b, limited[fakediscord.ScopeGlobal], "global 429s")
		require.Equal(b, 64, threads, "every table has its thread")
		b.ReportMetric(opened.Seconds(), "s/round")
		b.ReportMetric(last.Sub(first).Seconds(), "s-threads")
		b.Logf("64 tables opened in %v, their threads made over %v; 429s by scope: %v", opened, last.Sub(first), limited)
		h.Stop()
	}
}
