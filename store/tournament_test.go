package store_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/malefiz-discord/malefiz/tournament"
)

// newTournament returns an unsaved Swiss tournament at tables of 4 in
// channel, of as many rounds as its field needs, starting an hour after
// t0.
func newTournament(channel string) *malefiz.Tournament {
	return &malefiz.Tournament{GuildID: "guild1", ChannelID: channel, HostID: "h", Name: "Spring cup", Locale: "de",
		Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 4, TurnTimeout: 90 * time.Minute,
			StartAt: t0.Add(time.Hour), Rated: true, Rules: malefiz.HouseRules{SixAgain: true, Roll: "button"},
			Computers: true, ForfeitLimit: 2}}
}

// signupCard is the sign-up card's post that a new tournament commits, its
// payload naming the tournament.
func signupCard(id int64) ([]store.Effect, error) {
	return []store.Effect{{Kind: "post", Payload: fmt.Appendf(nil, "sign-up %d", id)}}, nil
}

func mustCreateTournament(t *testing.T, db *store.DB, tour *malefiz.Tournament) {
	t.Helper()
	require.NoError(t, db.CreateTournament(ctxT(t), tour, signupCard))
}

// entrant is user u<i>, rated 1500+i.
func entrant(i int) malefiz.TournamentEntrant {
	return malefiz.TournamentEntrant{UserID: fmt.Sprint("u", i), Name: fmt.Sprint("Player ", i), Rating: float64(1500 + i)}
}

// readTournament reads tournament id whole.
func readTournament(t *testing.T, db *store.DB, id int64) *malefiz.Tournament {
	t.Helper()
	got, err := db.Tournament(ctxT(t), id)
	require.NoError(t, err)
	return got
}

// tableGame is the unsaved game of a tournament's table (round and table
// from 1): its entrants seated in the table's order, running, in a thread
// of its own.
func tableGame(tour *malefiz.Tournament, round, table int) *malefiz.Game {
	g := &malefiz.Game{GuildID: tour.GuildID, ChannelID: tour.ChannelID, HostID: tour.HostID,
		Status: malefiz.StatusRunning, Threaded: true, State: []byte("state"),
		TournamentID: tour.ID, TournamentRound: round, TournamentTable: table}
	colors := []string{"red", "green", "yellow", "blue"}
	for i, u := range tour.Rounds[round-1].Tables[table-1].Seats {
		g.Seats = append(g.Seats, malefiz.Seat{Color: colors[i], UserID: u, Name: u})
	}
	return g
}

// openTables creates the games of the current round's tables, byes
// aside, and returns them by table.
func openTables(t *testing.T, db *store.DB, tour *malefiz.Tournament) map[int]*malefiz.Game {
	t.Helper()
	n := len(tour.Rounds)
	games := map[int]*malefiz.Game{}
	for _, table := range tour.Rounds[n-1].Tables {
		if table.Bye() {
			continue
		}
		g := tableGame(tour, n, table.Number)
		require.NoError(t, db.CreateGame(ctxT(t), g, malefiz.Event{Kind: malefiz.EventStart, Data: "red"}))
		games[table.Number] = g
	}
	return games
}

// finishGame finishes g: places[i] is seat i's place (1 wins); the seats
// left leave the game first.
func finishGame(t *testing.T, db *store.DB, g *malefiz.Game, places []int, left ...int) {
	t.Helper()
	require.NoError(t, db.Commit(ctxT(t), finishCommit(g, places, left...)))
}

// finishCommit is the commit that finishes g as finishGame does.
func finishCommit(g *malefiz.Game, places []int, left ...int) *store.Commit {
	for _, i := range left {
		g.Seats[i].Left = true
	}
	var results []malefiz.Result
	for i, s := range g.Seats {
		results = append(results, malefiz.Result{Player: s.UserID, Name: s.Name, Color: s.Color,
			Won: places[i] == 1, Place: places[i], Turns: 10, GameTurns: 40})
	}
	return &store.Commit{Game: g, Results: results, Events: []malefiz.Event{{Kind: malefiz.EventWin}}}
}

// reversed is the places of a table of n won by its last seat, the
// others in reverse seat order.
func reversed(n int) []int {
	places := make([]int, n)
	for i := range places {
		places[i] = n - i
	}
	return places
}

func TestCreateTournament(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		tour := newTournament("c1")
		tour.Entrants = []malefiz.TournamentEntrant{entrant(1), {UserID: "ai:hard:1", Name: "Computer", Computer: "hard", Rating: 1700}}
		mustCreateTournament(t, db, tour)
		assert.Positive(t, tour.ID)
		assert.Equal(t, int64(1), tour.Version)
		assert.Equal(t, malefiz.TournamentSignUp, tour.Status)
		assert.Equal(t, store.MaxEntrants, tour.Setup.MaxEntrants)
		assert.Equal(t, t0.Add(time.Hour), tour.WakeAt, "due at its start")
		assert.Equal(t, []int{1, 2}, []int{tour.Entrants[0].Order, tour.Entrants[1].Order})
		assert.Equal(t, c.Now(), tour.Entrants[1].JoinedAt)
		assert.Equal(t, tour, readTournament(t, db, tour.ID))

		effects, err := db.TournamentEffects(ctxT(t), tour.ID)
		require.NoError(t, err)
		require.Len(t, effects, 1)
		assert.Equal(t, fmt.Sprintf("sign-up %d", tour.ID), string(effects[0].Payload))
		assert.Equal(t, tour.ID, effects[0].TournamentID)
		assert.Zero(t, effects[0].GameID)

		// A second tournament of the channel is the service's to refuse.
		other := newTournament("c1")
		other.Setup.StartAt = time.Time{}
		mustCreateTournament(t, db, other)
		assert.True(t, other.WakeAt.IsZero(), "the host starts it")
		elsewhere := newTournament("c2")
		mustCreateTournament(t, db, elsewhere)
		list, err := db.OpenTournaments(ctxT(t), "guild1", "c1")
		require.NoError(t, err)
		assert.Equal(t, []int64{tour.ID, other.ID}, ids(list))
		list, err = db.OpenTournaments(ctxT(t), "guild1", "")
		require.NoError(t, err)
		assert.Equal(t, []int64{tour.ID, other.ID, elsewhere.ID}, ids(list))
		assert.Empty(t, list[0].Entrants, "a list without entrants")
		require.NoError(t, db.CancelTournament(ctxT(t), other))
		list, err = db.OpenTournaments(ctxT(t), "guild1", "c1")
		require.NoError(t, err)
		assert.Equal(t, []int64{tour.ID}, ids(list))

		_, err = db.Tournament(ctxT(t), 999)
		assert.ErrorIs(t, err, store.ErrNotFound)
	})
}

func ids(list []*malefiz.Tournament) []int64 {
	var out []int64
	for _, t := range list {
		out = append(out, t.ID)
	}
	return out
}

func TestCreateTournamentInvalid(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		for _, tc := range []struct {
			name   string
			change func(*malefiz.Tournament)
		}{
			{"no channel", func(t *malefiz.Tournament) { t.ChannelID = "" }},
			{"no name", func(t *malefiz.Tournament) { t.Name = "" }},
			{"running", func(t *malefiz.Tournament) { t.Status = malefiz.TournamentRunning }},
			{"an unknown format", func(t *malefiz.Tournament) { t.Setup.Format = "ladder" }},
			{"a table of 5", func(t *malefiz.Tournament) { t.Setup.TableSize = 5 }},
			{"a table of 1", func(t *malefiz.Tournament) { t.Setup.TableSize = 1 }},
			{"negative rounds", func(t *malefiz.Tournament) { t.Setup.Rounds = -1 }},
			{"more entrants than the store takes", func(t *malefiz.Tournament) { t.Setup.MaxEntrants = store.MaxEntrants + 1 }},
			{"more entrants than it takes", func(t *malefiz.Tournament) {
				t.Setup.MaxEntrants = 2
				t.Entrants = []malefiz.TournamentEntrant{entrant(1), entrant(2), entrant(3)}
			}},
			{"an entrant twice", func(t *malefiz.Tournament) { t.Entrants = []malefiz.TournamentEntrant{entrant(1), entrant(1)} }},
			{"rounds already", func(t *malefiz.Tournament) { t.Rounds = []malefiz.TournamentRound{{}} }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tour := newTournament("c1")
				tc.change(tour)
				created := false
				err := db.CreateTournament(ctxT(t), tour, func(id int64) ([]store.Effect, error) {
					created = true
					return nil, nil
				})
				assert.Error(t, err)
				assert.False(t, created)
				assert.Zero(t, tour.ID)
			})
		}
		// created's error rolls the creation back.
		tour := newTournament("c1")
		err := db.CreateTournament(ctxT(t), tour, func(id int64) ([]store.Effect, error) { return nil, errors.New("no card") })
		assert.ErrorContains(t, err, "no card")
		list, err := db.OpenTournaments(ctxT(t), "guild1", "")
		require.NoError(t, err)
		assert.Empty(t, list)
	})
}

func TestJoinAndLeave(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		tour := newTournament("c1")
		tour.Setup.MaxEntrants, tour.Setup.TableSize = 3, 2
		mustCreateTournament(t, db, tour)
		stale := readTournament(t, db, tour.ID)

		c.Advance(time.Minute)
		require.NoError(t, db.JoinTournament(ctxT(t), tour, entrant(1), store.Effect{Queue: "card", Kind: "edit", Payload: []byte("1 entrant")}))
		assert.Equal(t, int64(2), tour.Version)
		assert.Equal(t, c.Now(), tour.Entrants[0].JoinedAt)
		assert.Equal(t, tour, readTournament(t, db, tour.ID))
		effects, err := db.TournamentEffects(ctxT(t), tour.ID)
		require.NoError(t, err)
		assert.Len(t, effects, 2, "the card's post and its edit")

		err = db.JoinTournament(ctxT(t), stale, entrant(2))
		assert.ErrorIs(t, err, store.ErrConflict, "a stale version")
		assert.Equal(t, int64(1), stale.Version, "unchanged")
		err = db.JoinTournament(ctxT(t), tour, entrant(1))
		assert.ErrorIs(t, err, store.ErrConflict, "a second join")
		assert.Equal(t, int64(2), tour.Version)

		require.NoError(t, db.JoinTournament(ctxT(t), tour, entrant(2)))
		require.NoError(t, db.JoinTournament(ctxT(t), tour, entrant(3)))
		err = db.JoinTournament(ctxT(t), tour, entrant(4))
		assert.ErrorIs(t, err, store.ErrFull)

		err = db.LeaveTournament(ctxT(t), tour, "u9")
		assert.ErrorIs(t, err, store.ErrNotFound)
		require.NoError(t, db.LeaveTournament(ctxT(t), tour, "u2"))
		require.NoError(t, db.JoinTournament(ctxT(t), tour, entrant(4)))
		assert.Equal(t, []string{"u1", "u3", "u4"}, entrantIDs(tour))
		assert.Equal(t, []int{1, 3, 4}, []int{tour.Entrants[0].Order, tour.Entrants[1].Order, tour.Entrants[2].Order})
		assert.Equal(t, tour, readTournament(t, db, tour.ID))

		// Withdrawing is for a tournament under way: in the sign-up one leaves.
		err = db.WithdrawEntrant(ctxT(t), tour, "u1")
		assert.ErrorIs(t, err, store.ErrConflict)

		startSwiss(t, db, tour, time.Time{})
		err = db.JoinTournament(ctxT(t), tour, entrant(5))
		assert.ErrorIs(t, err, store.ErrConflict, "a join after the start")
		err = db.LeaveTournament(ctxT(t), tour, "u1")
		assert.ErrorIs(t, err, store.ErrConflict, "a leave after the start")

		err = db.WithdrawEntrant(ctxT(t), tour, "u9")
		assert.ErrorIs(t, err, store.ErrNotFound)
		require.NoError(t, db.WithdrawEntrant(ctxT(t), tour, "u3"))
		err = db.WithdrawEntrant(ctxT(t), tour, "u3")
		assert.ErrorIs(t, err, store.ErrConflict, "withdrawn already")
		got := readTournament(t, db, tour.ID)
		e, ok := got.Entrant("u3")
		require.True(t, ok)
		assert.True(t, e.Withdrawn)
		assert.Equal(t, tour.Entrants, got.Entrants)
	})
}

func entrantIDs(tour *malefiz.Tournament) []string {
	var out []string
	for _, e := range tour.Entrants {
		out = append(out, e.UserID)
	}
	return out
}

// startSwiss starts tour with the first round package tournament pairs,
// with deadline.
func startSwiss(t *testing.T, db *store.DB, tour *malefiz.Tournament, deadline time.Time) {
	t.Helper()
	round := nextRound(t, tour)
	require.NoError(t, db.StartTournament(ctxT(t), tour, malefiz.TournamentRound{Deadline: deadline, Tables: round}))
}

// nextRound is the tables of tour's next round, as package tournament
// pairs them.
func nextRound(t *testing.T, tour *malefiz.Tournament) []malefiz.TournamentTable {
	t.Helper()
	kept, err := tournament.FromKept(tour)
	require.NoError(t, err)
	round, err := kept.NextRound()
	require.NoError(t, err)
	return tournament.KeptTables(round)
}

// Two processes join the last place at once, each from the same read: one
// gets it, the other's write is stale, and read again it finds the
// tournament full.
func TestRaceForTheLastPlace(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		one, two, _ := openTwo(t, b)
		for race := range 10 {
			tour := newTournament(fmt.Sprint("c", race))
			tour.Setup.MaxEntrants = 3
			tour.Entrants = []malefiz.TournamentEntrant{entrant(1), entrant(2)}
			mustCreateTournament(t, one, tour)
			dbs := []*store.DB{one, two}
			var read [2]*malefiz.Tournament
			for i, db := range dbs {
				read[i] = readTournament(t, db, tour.ID)
			}
			var (
				wg   sync.WaitGroup
				errs [2]error
			)
			for i, db := range dbs {
				wg.Go(func() { errs[i] = db.JoinTournament(ctxT(t), read[i], entrant(10+i)) })
			}
			wg.Wait()
			won := slices.IndexFunc(errs[:], func(err error) bool { return err == nil })
			require.NotEqual(t, -1, won, "race %d: %v", race, errs)
			lost := 1 - won
			require.ErrorIs(t, errs[lost], store.ErrConflict, "race %d", race)
			again := readTournament(t, dbs[lost], tour.ID)
			assert.ErrorIs(t, dbs[lost].JoinTournament(ctxT(t), again, entrant(10+lost)), store.ErrFull)
			got := readTournament(t, one, tour.ID)
			assert.Equal(t, []string{"u1", "u2", fmt.Sprint("u", 10+won)}, entrantIDs(got))
		}
	})
}

func TestStartAndRoundsRefuse(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		tour := newTournament("c1")
		for i := 1; i <= 6; i++ {
			tour.Entrants = append(tour.Entrants, entrant(i))
		}
		mustCreateTournament(t, db, tour)
		round := func(tables ...[]string) malefiz.TournamentRound {
			r := malefiz.TournamentRound{}
			for _, seats := range tables {
				r.Tables = append(r.Tables, malefiz.TournamentTable{Seats: seats})
			}
			return r
		}
		for _, tc := range []struct {
			name  string
			round malefiz.TournamentRound
		}{
			{"no table", round()},
			{"an empty table", round([]string{"u1", "u2"}, nil)},
			{"a table larger than the setup's", round([]string{"u1", "u2", "u3", "u4", "u5"})},
			{"someone at two tables", round([]string{"u1", "u2", "u3"}, []string{"u3", "u4", "u5"})},
			{"someone not signed up", round([]string{"u1", "u2", "u3"}, []string{"u4", "u5", "x"})},
		} {
			t.Run(tc.name, func(t *testing.T) {
				err := db.StartTournament(ctxT(t), tour, tc.round)
				assert.Error(t, err)
				assert.Equal(t, int64(1), tour.Version)
				got := readTournament(t, db, tour.ID)
				assert.Equal(t, malefiz.TournamentSignUp, got.Status)
				assert.Empty(t, got.Rounds)
			})
		}
		err := db.OpenRound(ctxT(t), tour, round([]string{"u1", "u2"}))
		assert.ErrorIs(t, err, store.ErrConflict, "a round before the start")

		deadline := c.Now().Add(24 * time.Hour)
		require.NoError(t, db.StartTournament(ctxT(t), tour,
			malefiz.TournamentRound{Deadline: deadline, Tables: round([]string{"u1", "u2", "u3"}, []string{"u4", "u5"}, []string{"u6"}).Tables}))
		assert.Equal(t, malefiz.TournamentRunning, tour.Status)
		require.Len(t, tour.Rounds, 1)
		assert.Equal(t, 1, tour.Rounds[0].Number)
		assert.Equal(t, c.Now(), tour.Rounds[0].OpenedAt)
		assert.Equal(t, []int{1, 2, 3}, []int{tour.Rounds[0].Tables[0].Number, tour.Rounds[0].Tables[1].Number, tour.Rounds[0].Tables[2].Number})
		assert.Equal(t, c.Now(), tour.WakeAt, "due at once: tables to open")
		assert.Equal(t, tour, readTournament(t, db, tour.ID))
		err = db.StartTournament(ctxT(t), tour, round([]string{"u1", "u2"}))
		assert.ErrorIs(t, err, store.ErrConflict, "started already")

		// The games of the round: a table's game is set once, for the
		// current round, and never for a bye.
		for _, tc := range []struct {
			name   string
			change func(g *malefiz.Game)
			want   error
		}{
			{"a bye", func(g *malefiz.Game) { g.TournamentTable = 3 }, store.ErrConflict},
			{"a table that is not", func(g *malefiz.Game) { g.TournamentTable = 4 }, store.ErrNotFound},
			{"a round that is not the current one", func(g *malefiz.Game) { g.TournamentRound = 2 }, store.ErrConflict},
			{"a tournament that is not", func(g *malefiz.Game) { g.TournamentID = 999 }, store.ErrNotFound},
			{"another's seat", func(g *malefiz.Game) { g.Seats[1].UserID = "u6" }, nil},
			{"fewer seats than the table", func(g *malefiz.Game) { g.Seats = g.Seats[:2] }, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				g := tableGame(tour, 1, 1)
				tc.change(g)
				err := db.CreateGame(ctxT(t), g)
				require.Error(t, err)
				if tc.want != nil {
					assert.ErrorIs(t, err, tc.want)
				}
				assert.Zero(t, g.ID)
			})
		}
		games := map[int]*malefiz.Game{1: tableGame(tour, 1, 1), 2: tableGame(tour, 1, 2)}
		// A computer fills the table of two: its seat follows theirs.
		games[2].Seats = append(games[2].Seats, malefiz.Seat{Color: "yellow", Computer: "easy", Name: "Computer"})
		require.NoError(t, db.CreateGame(ctxT(t), games[1]))
		assert.Equal(t, c.Now(), readTournament(t, db, tour.ID).WakeAt, "due: a table to open")
		require.NoError(t, db.CreateGame(ctxT(t), games[2]))
		assert.Equal(t, deadline, readTournament(t, db, tour.ID).WakeAt, "due at the deadline while its games play")
		again := tableGame(tour, 1, 1)
		err = db.CreateGame(ctxT(t), again)
		assert.ErrorIs(t, err, store.ErrConflict, "the table has its game")

		got, err := db.Game(ctxT(t), games[2].ID)
		require.NoError(t, err)
		assert.Equal(t, tour.ID, got.TournamentID)
		assert.Equal(t, 1, got.TournamentRound)
		assert.Equal(t, 2, got.TournamentTable)

		err = db.OpenRound(ctxT(t), tour, round([]string{"u1", "u4"}))
		assert.ErrorIs(t, err, store.ErrConflict, "a round while the last is played")
		err = db.FinishTournament(ctxT(t), tour)
		assert.ErrorIs(t, err, store.ErrConflict, "the end while a round is played")

		finishGame(t, db, games[1], []int{1, 2, 3})
		err = db.OpenRound(ctxT(t), tour, round([]string{"u1", "u4"}))
		assert.ErrorIs(t, err, store.ErrConflict, "one game still played")
		cancelled := games[2]
		cancelled.Status = malefiz.StatusCancelled
		require.NoError(t, db.UpdateGame(ctxT(t), cancelled, malefiz.Event{Kind: malefiz.EventCancel}))
		assert.Equal(t, c.Now(), readTournament(t, db, tour.ID).WakeAt, "due: the round is over")

		require.NoError(t, db.WithdrawEntrant(ctxT(t), tour, "u6"))
		err = db.OpenRound(ctxT(t), tour, round([]string{"u1", "u6"}))
		assert.Error(t, err, "a withdrawn entrant seated")
		c.Advance(time.Minute)
		require.NoError(t, db.OpenRound(ctxT(t), tour, round([]string{"u1", "u4"}, []string{"u2", "u5"}, []string{"u3"})))
		require.Len(t, tour.Rounds, 2)
		assert.Equal(t, c.Now(), tour.Rounds[0].FinishedAt)
		assert.Equal(t, 2, tour.Rounds[1].Number)
		assert.True(t, tour.Rounds[1].Deadline.IsZero())
		got2 := readTournament(t, db, tour.ID)
		for r := range got2.Rounds {
			for i := range got2.Rounds[r].Tables {
				got2.Rounds[r].Tables[i].GameID, got2.Rounds[r].Tables[i].GameStatus, got2.Rounds[r].Tables[i].Results = 0, "", nil
			}
		}
		assert.Equal(t, tour, got2, "as written, the games aside")

		// Paused, it is due never; its games go on.
		require.NoError(t, db.PauseTournament(ctxT(t), tour, true))
		assert.True(t, tour.WakeAt.IsZero())
		err = db.OpenRound(ctxT(t), tour, round([]string{"u1", "u2"}))
		assert.ErrorIs(t, err, store.ErrConflict, "a round while paused")
		g := tableGame(tour, 2, 1)
		err = db.CreateGame(ctxT(t), g)
		assert.ErrorIs(t, err, store.ErrConflict, "a game while paused")
		err = db.PauseTournament(ctxT(t), tour, true)
		assert.ErrorIs(t, err, store.ErrConflict, "paused already")
		require.NoError(t, db.PauseTournament(ctxT(t), tour, false))
		assert.Equal(t, c.Now(), tour.WakeAt, "tables to open")

		require.NoError(t, db.CancelTournament(ctxT(t), tour))
		assert.Equal(t, malefiz.TournamentCancelled, tour.Status)
		assert.Equal(t, c.Now(), tour.FinishedAt)
		assert.True(t, tour.WakeAt.IsZero())
		err = db.CancelTournament(ctxT(t), tour)
		assert.ErrorIs(t, err, store.ErrConflict, "cancelled already")
		err = db.FinishTournament(ctxT(t), tour)
		assert.ErrorIs(t, err, store.ErrConflict)
	})
}

// A whole tournament: created, eight sign up, started, three rounds of
// tables whose games finish with results (one player leaves a game),
// read whole after each, ranked by package tournament, finished.
func TestTournamentLife(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		tour := newTournament("c1")
		tour.Setup.Rounds = 3
		mustCreateTournament(t, db, tour)
		for i := 1; i <= 8; i++ {
			c.Advance(time.Minute)
			read := readTournament(t, db, tour.ID)
			require.NoError(t, db.JoinTournament(ctxT(t), read, entrant(i)))
			tour = read
		}
		assert.Equal(t, int64(9), tour.Version)
		assert.Equal(t, tour, readTournament(t, db, tour.ID))

		c.Advance(time.Hour)
		due, err := db.ClaimDueTournaments(ctxT(t), "opener", c.Now(), time.Minute, 10)
		require.NoError(t, err)
		assert.Equal(t, []int64{tour.ID}, due, "due at its start")
		startSwiss(t, db, tour, c.Now().Add(24*time.Hour))

		left := ""
		for n := 1; n <= 3; n++ {
			require.Len(t, tour.Rounds, n)
			games := openTables(t, db, tour)
			require.Len(t, games, 2, "8 at tables of 4")
			got := readTournament(t, db, tour.ID)
			assert.Equal(t, tour.Rounds[n-1].Deadline, got.WakeAt)
			for _, table := range got.Rounds[n-1].Tables {
				assert.Equal(t, games[table.Number].ID, table.GameID)
				assert.Equal(t, malefiz.StatusRunning, table.GameStatus)
				assert.Empty(t, table.Results)
			}
			due, err := db.ClaimDueTournaments(ctxT(t), "opener", c.Now(), time.Minute, 10)
			require.NoError(t, err)
			assert.Empty(t, due, "its games are played")

			c.Advance(time.Hour)
			for number, g := range games {
				if n == 2 && number == 1 {
					left = g.Seats[0].UserID
					finishGame(t, db, g, reversed(len(g.Seats)), 0) // the first seat leaves
				} else {
					finishGame(t, db, g, reversed(len(g.Seats)))
				}
			}
			got = readTournament(t, db, tour.ID)
			assert.Equal(t, c.Now(), got.WakeAt, "due: the round is over")
			for _, table := range got.Rounds[n-1].Tables {
				require.Len(t, table.Results, len(table.Seats))
				assert.Equal(t, malefiz.StatusFinished, table.GameStatus)
				for i, r := range table.Results {
					assert.Equal(t, table.Seats[i], r.Player, "in seat order")
				}
			}
			kept, err := tournament.FromKept(got)
			require.NoError(t, err)
			require.True(t, kept.Rounds[n-1].Done())
			for _, table := range kept.Rounds[n-1].Tables {
				assert.Equal(t, table.Seats[len(table.Seats)-1], table.Result.Places[0], "the last seat won")
			}
			due, err = db.ClaimDueTournaments(ctxT(t), "opener", c.Now(), time.Minute, 10)
			require.NoError(t, err)
			assert.Equal(t, []int64{tour.ID}, due)

			tour = got
			if n < 3 {
				require.NoError(t, db.OpenRound(ctxT(t), tour, malefiz.TournamentRound{
					Deadline: c.Now().Add(24 * time.Hour), Tables: nextRound(t, tour)}))
			}
		}
		got := readTournament(t, db, tour.ID)
		e, ok := got.Entrant(left)
		require.True(t, ok)
		assert.Equal(t, 1, e.Forfeits, "the game they left")
		kept, err := tournament.FromKept(got)
		require.NoError(t, err)
		assert.True(t, kept.Finished())
		standings, err := kept.Standings()
		require.NoError(t, err)
		require.Len(t, standings, 8)
		_, err = kept.NextRound()
		assert.ErrorIs(t, err, tournament.ErrFinished)

		require.NoError(t, db.FinishTournament(ctxT(t), tour))
		got = readTournament(t, db, tour.ID)
		assert.Equal(t, malefiz.TournamentFinished, got.Status)
		assert.Equal(t, c.Now(), got.FinishedAt)
		assert.Equal(t, c.Now(), got.Rounds[2].FinishedAt)
		assert.True(t, got.WakeAt.IsZero())
		due, err = db.ClaimDueTournaments(ctxT(t), "other", c.Now().Add(time.Hour), time.Minute, 10)
		require.NoError(t, err)
		assert.Empty(t, due)
		list, err := db.OpenTournaments(ctxT(t), "guild1", "")
		require.NoError(t, err)
		assert.Empty(t, list)
		// Each game counts in the statistics as any game does.
		stats, err := db.PlayerStats(ctxT(t), "guild1", "u1")
		require.NoError(t, err)
		assert.Equal(t, 3, stats.Games)
	})
}

// The round opener's claims: a due tournament is one process's for the
// lease, its own again at once, anyone's once the lease ran out; two
// processes claiming at once get it once.
func TestClaimDueTournaments(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		one, two, c := openTwo(t, b)
		tour := newTournament("c1")
		mustCreateTournament(t, one, tour)
		later := newTournament("c2")
		later.Setup.StartAt = t0.Add(2 * time.Hour)
		mustCreateTournament(t, one, later)
		never := newTournament("c3")
		never.Setup.StartAt = time.Time{}
		mustCreateTournament(t, one, never)

		at, ok, err := two.NextTournamentWake(ctxT(t))
		require.NoError(t, err)
		assert.True(t, ok)
		assert.Equal(t, t0.Add(time.Hour), at)
		due, err := one.ClaimDueTournaments(ctxT(t), "one", c.Now(), time.Minute, 10)
		require.NoError(t, err)
		assert.Empty(t, due, "not yet")

		c.Advance(3 * time.Hour)
		due, err = one.ClaimDueTournaments(ctxT(t), "one", c.Now(), time.Minute, 1)
		require.NoError(t, err)
		assert.Equal(t, []int64{tour.ID}, due, "the earliest first")
		due, err = two.ClaimDueTournaments(ctxT(t), "two", c.Now(), time.Minute, 10)
		require.NoError(t, err)
		assert.Equal(t, []int64{later.ID}, due, "the other is one's")
		due, err = one.ClaimDueTournaments(ctxT(t), "one", c.Now(), time.Minute, 10)
		require.NoError(t, err)
		assert.Equal(t, []int64{tour.ID}, due, "one's own again")
		c.Advance(time.Minute)
		due, err = two.ClaimDueTournaments(ctxT(t), "two", c.Now(), time.Minute, 10)
		require.NoError(t, err)
		assert.Equal(t, []int64{tour.ID, later.ID}, due, "the lease ran out")

		for race := range 10 {
			c.Advance(time.Minute)
			var (
				wg  sync.WaitGroup
				got [2][]int64
			)
			for i, db := range []*store.DB{one, two} {
				wg.Go(func() {
					var err error
					got[i], err = db.ClaimDueTournaments(ctxT(t), fmt.Sprint("p", race, i), c.Now(), time.Minute, 10)
					assert.NoError(t, err)
				})
			}
			wg.Wait()
			all := append(slices.Clone(got[0]), got[1]...)
			slices.Sort(all)
			assert.Equal(t, []int64{tour.ID, later.ID}, all, "race %d: each once", race)
		}
	})
}

// The last two games of a round finish at once, through two processes:
// whichever commits last sees the round over, and the tournament is due.
func TestLastGamesFinishAtOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		one, two, c := openTwo(t, b)
		for race := range 8 {
			tour := newTournament(fmt.Sprint("c", race))
			tour.Setup.TableSize = 2
			for i := 1; i <= 4; i++ {
				tour.Entrants = append(tour.Entrants, entrant(i))
			}
			mustCreateTournament(t, one, tour)
			startSwiss(t, one, tour, c.Now().Add(time.Hour))
			games := openTables(t, one, tour)
			require.Len(t, games, 2)
			require.Equal(t, c.Now().Add(time.Hour), readTournament(t, one, tour.ID).WakeAt)
			var wg sync.WaitGroup
			for i, db := range []*store.DB{one, two} {
				wg.Go(func() { assert.NoError(t, db.Commit(ctxT(t), finishCommit(games[i+1], []int{1, 2}))) })
			}
			wg.Wait()
			assert.Equal(t, c.Now(), readTournament(t, two, tour.ID).WakeAt, "race %d: due", race)
		}
	})
}

// Two processes open the same table's game at once: one game is the
// table's, the other is not created.
func TestTwoGamesForOneTable(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		one, two, _ := openTwo(t, b)
		for race := range 8 {
			tour := newTournament(fmt.Sprint("c", race))
			tour.Setup.TableSize = 2
			tour.Entrants = []malefiz.TournamentEntrant{entrant(1), entrant(2)}
			mustCreateTournament(t, one, tour)
			startSwiss(t, one, tour, time.Time{})
			var (
				wg    sync.WaitGroup
				games [2]*malefiz.Game
				errs  [2]error
			)
			for i, db := range []*store.DB{one, two} {
				games[i] = tableGame(tour, 1, 1)
				wg.Go(func() { errs[i] = db.CreateGame(ctxT(t), games[i]) })
			}
			wg.Wait()
			won := slices.IndexFunc(errs[:], func(err error) bool { return err == nil })
			require.NotEqual(t, -1, won, "race %d: %v", race, errs)
			assert.ErrorIs(t, errs[1-won], store.ErrConflict, "race %d", race)
			got := readTournament(t, two, tour.ID)
			assert.Equal(t, games[won].ID, got.Rounds[0].Tables[0].GameID)
			assert.True(t, got.WakeAt.IsZero(), "no deadline: the game plays")
		}
	})
}

// A tournament's outbox keeps the order and queues of a game's: its card
// edits wait for its post, its post does not wait for a game's effects,
// and the delivery records the card's message on the tournament. A game's
// commit adds to its tournament's outbox.
func TestTournamentOutbox(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		g := newGame("c0")
		g.Threaded = true
		commitTo(t, db, g, "", effect("post", "game post"))
		tour := newTournament("c1")
		tour.Setup.TableSize = 2
		mustCreateTournament(t, db, tour)
		require.NoError(t, db.JoinTournament(ctxT(t), tour, entrant(1), card("1 entrant")))
		require.NoError(t, db.JoinTournament(ctxT(t), tour, entrant(2), card("2 entrants")))

		// The game's post and the card's post; the edits wait for the card.
		claimed, err := db.ClaimEffects(ctxT(t), "sender", time.Minute, 20)
		require.NoError(t, err)
		require.Len(t, claimed, 2)
		assert.Equal(t, "game post", string(claimed[0].Payload))
		post := claimed[1]
		assert.Equal(t, fmt.Sprintf("sign-up %d", tour.ID), string(post.Payload))
		assert.Equal(t, tour.ID, post.TournamentID)
		require.NoError(t, db.RetryEffect(ctxT(t), "sender", post.ID, time.Second, "later"))
		c.Advance(time.Second)
		assert.Equal(t, []string{fmt.Sprintf("sign-up %d", tour.ID)}, claimPayloads(t, db, "sender"), "the card's post again, alone")
		outdated, err := db.Outdated(ctxT(t), store.Effect{ID: post.ID, TournamentID: tour.ID, Queue: "card"})
		require.NoError(t, err)
		assert.True(t, outdated, "a newer edit of its queue is pending")

		require.NoError(t, db.RecordDeliveries(ctxT(t), "sender", []store.Delivery{
			{ID: claimed[0].ID, Result: "ok"},
			{ID: post.ID, Result: "ok", Record: &malefiz.MessageRecord{Role: malefiz.RoleTournament, MessageID: "m-card"}}}))
		assert.Equal(t, "m-card", readTournament(t, db, tour.ID).MessageID)
		assert.Equal(t, []string{"2 entrants"}, deliverAll(t, db, "sender"), "the newest edit; the first superseded")
		err = db.RecordDeliveries(ctxT(t), "sender", []store.Delivery{
			{ID: post.ID, Result: "ok", Record: &malefiz.MessageRecord{Role: malefiz.RoleLobby, MessageID: "m"}}})
		assert.ErrorIs(t, err, store.ErrLeaseLost)
		require.NoError(t, db.SetTournamentMessageID(ctxT(t), tour.ID, "m-standings"))
		assert.Equal(t, "m-standings", readTournament(t, db, tour.ID).MessageID)
		assert.ErrorIs(t, db.SetTournamentMessageID(ctxT(t), 999, "m"), store.ErrNotFound)

		// The game's end edits the standings, in its commit.
		startSwiss(t, db, tour, time.Time{})
		games := openTables(t, db, tour)
		c.Advance(store.DefaultQueueGap)
		fin := finishCommit(games[1], []int{2, 1})
		fin.TournamentEffects = []store.Effect{card("standings")}
		require.NoError(t, db.Commit(ctxT(t), fin))
		assert.Equal(t, tour.ID, fin.TournamentEffects[0].TournamentID)
		effects, err := db.TournamentEffects(ctxT(t), tour.ID)
		require.NoError(t, err)
		assert.Equal(t, "standings", string(effects[len(effects)-1].Payload))
		assert.Equal(t, []string{"standings"}, deliverAll(t, db, "sender"))

		outside := newGame("c9")
		err = db.Commit(ctxT(t), &store.Commit{Game: outside, TournamentEffects: []store.Effect{card("x")}})
		assert.ErrorContains(t, err, "outside a tournament")
	})
}
