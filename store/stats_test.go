package store_test

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/store"
)

// twoResults: Anna (red) beats the easy computer (green).
func twoResults() []malefiz.Result {
	return []malefiz.Result{
		{Player: "u1", Name: "Anna", Color: "red", Won: true, Captures: 2, Captured: 1, Barricades: 3, Turns: 30, GameTurns: 60},
		{Player: "ai:easy", Name: "Computer (easy)", Computer: true, Color: "green", Captures: 1, Captured: 2, Barricades: 1, Turns: 30, GameTurns: 60},
	}
}

// play creates a game in guild1 with the players of results and finishes it.
func play(t *testing.T, db *store.DB, channel string, results []malefiz.Result) *malefiz.Game {
	t.Helper()
	g := newGame(channel)
	g.Seats = nil
	for _, r := range results {
		s := malefiz.Seat{Color: r.Color, UserID: r.Player, Name: r.Name}
		if r.Computer {
			s = malefiz.Seat{Color: r.Color, Computer: "easy", Name: r.Name}
		}
		g.Seats = append(g.Seats, s)
	}
	mustCreate(t, db, g)
	if err := db.FinishGame(ctxT(t), g, results, malefiz.Event{Kind: malefiz.EventWin}); err != nil {
		t.Fatalf("FinishGame: %v", err)
	}
	return g
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestFinishGame(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		results := twoResults()
		g := play(t, db, "c1", results)
		if g.Status != malefiz.StatusFinished || !g.FinishedAt.Equal(c.Now()) || g.Version != 2 {
			t.Errorf("after FinishGame: status %s, finished %v, version %d", g.Status, g.FinishedAt, g.Version)
		}
		// Two equal players: the winner takes K/2.
		if !near(results[0].RatingBefore, 1500) || !near(results[0].RatingAfter, 1516) ||
			!near(results[1].RatingAfter, 1484) || !results[1].FinishedAt.Equal(c.Now()) {
			t.Errorf("ratings %+v", results)
		}
		if _, err := db.OpenGame(ctxT(t), "guild1", "c1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a finished game is still open: %v", err)
		}
		if err := db.FinishGame(ctxT(t), g, twoResults()); err == nil {
			t.Errorf("finishing a game twice succeeded")
		}
		// A finished game may still be written as finished (a message edited).
		g.TurnMessageID = "m-final"
		if err := db.UpdateGame(ctxT(t), g); err != nil {
			t.Errorf("UpdateGame of a finished game: %v", err)
		}

		recent, err := db.RecentGames(ctxT(t), "guild1", 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(recent) != 1 || recent[0].GameID != g.ID || recent[0].Turns != 60 ||
			!reflect.DeepEqual(recent[0].Results, results) || recent[0].Winner().Player != "u1" {
			t.Errorf("RecentGames: %+v\nwant results %+v", recent, results)
		}
	})
}

func TestFinishGameInvalidResults(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		mustCreate(t, db, g)
		for name, mod := range map[string]func([]malefiz.Result) []malefiz.Result{
			"one seat":    func(r []malefiz.Result) []malefiz.Result { return r[:1] },
			"no winner":   func(r []malefiz.Result) []malefiz.Result { r[0].Won = false; return r },
			"two winners": func(r []malefiz.Result) []malefiz.Result { r[1].Won = true; return r },
			"same colour": func(r []malefiz.Result) []malefiz.Result { r[1].Color = "red"; return r },
			"no player":   func(r []malefiz.Result) []malefiz.Result { r[1].Player = ""; return r },
		} {
			if err := db.FinishGame(ctxT(t), g, mod(twoResults())); err == nil {
				t.Errorf("%s: FinishGame succeeded", name)
			}
		}
		if got, _ := db.Game(ctxT(t), g.ID); got.Status != malefiz.StatusRunning || got.Version != 1 {
			t.Errorf("after failed FinishGame: %s, version %d", got.Status, got.Version)
		}
	})
}

func TestRatings(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		four := []malefiz.Result{
			{Player: "u1", Color: "red", Won: true, Turns: 20, GameTurns: 80},
			{Player: "u2", Color: "green", Turns: 20, GameTurns: 80},
			{Player: "u3", Color: "yellow", Turns: 20, GameTurns: 80},
			{Player: "ai:hard", Computer: true, Color: "blue", Turns: 20, GameTurns: 80},
		}
		play(t, db, "c1", four)
		// Four equal players: three matches of K/3 at even odds.
		if !near(four[0].RatingAfter, 1516) || !near(four[1].RatingAfter, 1500-16.0/3) {
			t.Errorf("after a game of four equals: %v, %v", four[0].RatingAfter, four[1].RatingAfter)
		}
		// Zero-sum, and an upset pays more than a favourite's win.
		two := []malefiz.Result{
			{Player: "u2", Color: "red", Won: true, Turns: 10, GameTurns: 20},
			{Player: "u1", Color: "green", Turns: 10, GameTurns: 20},
		}
		play(t, db, "c2", two)
		gain := two[0].RatingAfter - two[0].RatingBefore
		loss := two[1].RatingBefore - two[1].RatingAfter
		if !near(gain, loss) || gain <= 16 {
			t.Errorf("upset: gain %v, loss %v; want equal and more than 16", gain, loss)
		}
		if !near(two[0].RatingBefore, four[1].RatingAfter) {
			t.Errorf("u2's rating before the second game %v, want %v", two[0].RatingBefore, four[1].RatingAfter)
		}
	})
}

func TestPlayerStatsAndLeaderboard(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		// u1: wins in 30, wins in 20, loses to u2, wins in 25: streak 1.
		// u2: loses, -, wins, loses. ai:easy: loses, loses, -, -.
		games := [][]malefiz.Result{
			{
				{Player: "u1", Name: "Anna", Color: "red", Won: true, Captures: 2, Barricades: 1, Turns: 30, GameTurns: 90},
				{Player: "u2", Name: "Ben", Color: "green", Captured: 1, Turns: 30, GameTurns: 90},
				{Player: "ai:easy", Computer: true, Color: "yellow", Captured: 1, Barricades: 4, Turns: 30, GameTurns: 90},
			},
			{
				{Player: "u1", Name: "Anna", Color: "blue", Won: true, Captures: 1, Turns: 20, GameTurns: 40},
				{Player: "ai:easy", Computer: true, Color: "red", Captured: 1, Turns: 20, GameTurns: 40},
			},
			{
				{Player: "u1", Name: "Anna", Color: "red", Captured: 3, Turns: 15, GameTurns: 30},
				{Player: "u2", Name: "Benjamin", Color: "green", Won: true, Forfeit: true, Captures: 3, Barricades: 2, Turns: 15, GameTurns: 30},
			},
			{
				{Player: "u1", Name: "Anna", Color: "red", Won: true, Turns: 25, GameTurns: 50},
				{Player: "u2", Name: "Benjamin", Color: "yellow", Turns: 25, GameTurns: 50},
			},
		}
		var ids []int64
		for i, r := range games {
			c.Advance(24 * time.Hour)
			ids = append(ids, play(t, db, string(rune('a'+i)), r).ID)
		}
		// A cancelled game counts for nothing.
		g := newGame("x")
		mustCreate(t, db, g)
		g.Status = malefiz.StatusCancelled
		if err := db.UpdateGame(ctxT(t), g); err != nil {
			t.Fatal(err)
		}

		s, err := db.PlayerStats(ctxT(t), "guild1", "u1")
		if err != nil {
			t.Fatal(err)
		}
		if s.Name != "Anna" || s.Games != 4 || s.Wins != 3 || !near(s.WinRate, 0.75) || s.Captures != 3 ||
			s.Captured != 3 || s.Barricades != 1 || !near(s.AvgTurnsToWin, 25) || s.FastestWin != 20 ||
			s.Streak != 1 || s.FavoriteColor != "red" || s.Rank != 1 || s.Computer {
			t.Errorf("PlayerStats(u1): %+v", s)
		}
		if len(s.History) != 4 || s.History[0].GameID != ids[0] || s.History[3].GameID != ids[3] ||
			!s.History[3].At.Equal(c.Now()) || !near(s.History[3].Rating, s.Rating) || s.History[2].Won {
			t.Errorf("rating history %+v", s.History)
		}

		s, err = db.PlayerStats(ctxT(t), "guild1", "ai:easy")
		if err != nil {
			t.Fatal(err)
		}
		if !s.Computer || s.Games != 2 || s.Wins != 0 || s.Streak != -2 || s.FastestWin != 0 || s.AvgTurnsToWin != 0 {
			t.Errorf("PlayerStats(ai:easy): %+v", s)
		}
		s, _ = db.PlayerStats(ctxT(t), "guild1", "u2")
		if s.Name != "Benjamin" || s.Streak != -1 || s.Rank != 2 {
			t.Errorf("PlayerStats(u2): %+v", s)
		}
		if _, err := db.PlayerStats(ctxT(t), "guild1", "nobody"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("PlayerStats of a stranger: %v", err)
		}
		if _, err := db.PlayerStats(ctxT(t), "guild2", "u1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("PlayerStats in another guild: %v", err)
		}

		// All time.
		board, total, err := db.Leaderboard(ctxT(t), "guild1", time.Time{}, 0, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if total != 3 || len(board) != 3 {
			t.Fatalf("Leaderboard: %d lines of %d, want 3", len(board), total)
		}
		var order []string
		for i, e := range board {
			order = append(order, e.Player)
			if e.Rank != i+1 {
				t.Errorf("line %d has rank %d", i, e.Rank)
			}
		}
		if !reflect.DeepEqual(order, []string{"u1", "u2", "ai:easy"}) {
			t.Errorf("Leaderboard order %v", order)
		}
		if e := board[0]; e.Games != 4 || e.Wins != 3 || !near(e.WinRate, .75) || e.Captures != 3 || e.Barricades != 1 || e.Name != "Anna" {
			t.Errorf("line 1: %+v", e)
		}
		if e := board[2]; !e.Computer || e.Barricades != 4 {
			t.Errorf("line 3: %+v", e)
		}

		// Paging, minimum games.
		page, total, _ := db.Leaderboard(ctxT(t), "guild1", time.Time{}, 0, 1, 1)
		if len(page) != 1 || page[0].Player != "u2" || page[0].Rank != 2 || total != 3 {
			t.Errorf("page 2 of 1: %+v of %d", page, total)
		}
		page, total, _ = db.Leaderboard(ctxT(t), "guild1", time.Time{}, 0, 5, 1)
		if len(page) != 0 || total != 3 {
			t.Errorf("past the end: %+v of %d", page, total)
		}
		page, total, _ = db.Leaderboard(ctxT(t), "guild1", time.Time{}, 0, 0, 0)
		if len(page) != 0 || total != 3 {
			t.Errorf("limit 0: %+v of %d", page, total)
		}
		page, total, _ = db.Leaderboard(ctxT(t), "guild1", time.Time{}, 3, 0, 10)
		if len(page) != 2 || total != 2 {
			t.Errorf("min 3 games: %+v of %d", page, total)
		}

		// The last two days: games 3 and 4.
		since := c.Now().Add(-36 * time.Hour)
		board, total, err = db.Leaderboard(ctxT(t), "guild1", since, 0, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if total != 2 || len(board) != 2 || board[0].Player != "u1" || board[0].Games != 2 || board[0].Wins != 1 ||
			board[1].Player != "u2" || board[1].Captures != 3 || board[1].Barricades != 2 || !near(board[1].WinRate, .5) {
			t.Errorf("Leaderboard since %v: %+v of %d", since, board, total)
		}
		if !near(board[0].Rating, s.Rating) && !near(board[1].Rating, s.Rating) {
			t.Errorf("period board does not show current ratings")
		}

		e, err := db.LeaderboardRank(ctxT(t), "guild1", time.Time{}, 0, "ai:easy")
		if err != nil || e.Rank != 3 || e.Games != 2 {
			t.Errorf("LeaderboardRank(ai:easy): %+v, %v", e, err)
		}
		e, err = db.LeaderboardRank(ctxT(t), "guild1", since, 0, "u2")
		if err != nil || e.Rank != 2 || e.Games != 2 || !near(e.WinRate, .5) {
			t.Errorf("LeaderboardRank(u2, since): %+v, %v", e, err)
		}
		if _, err := db.LeaderboardRank(ctxT(t), "guild1", since, 0, "ai:easy"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LeaderboardRank of one who did not play in the period: %v", err)
		}
		if _, err := db.LeaderboardRank(ctxT(t), "guild1", time.Time{}, 3, "ai:easy"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LeaderboardRank below the minimum: %v", err)
		}

		recent, _ := db.RecentGames(ctxT(t), "guild1", 2)
		if len(recent) != 2 || recent[0].GameID != ids[3] || recent[1].GameID != ids[2] || recent[1].Winner().Player != "u2" {
			t.Errorf("RecentGames: %+v", recent)
		}
		if board, total, _ := db.Leaderboard(ctxT(t), "guild2", time.Time{}, 0, 0, 10); len(board) != 0 || total != 0 {
			t.Errorf("another guild's board: %+v of %d", board, total)
		}
	})
}
