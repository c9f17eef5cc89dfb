package store_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/store"
)

// Threaded games share their channel; games played in the channel keep it
// to themselves; a game is found by its channel and by its thread.
func TestThreadedGamesShareAChannel(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		first, second := newGame("chan"), newGame("chan")
		first.Threaded, second.Threaded = true, true
		require.NoError(t, db.CreateGame(ctxT(t), first))
		require.NoError(t, db.CreateGame(ctxT(t), second))
		inChannel := newGame("chan")
		require.NoError(t, db.CreateGame(ctxT(t), inChannel), "one game that is not threaded may join them")
		require.ErrorIs(t, db.CreateGame(ctxT(t), newGame("chan")), store.ErrChannelBusy)

		require.NoError(t, db.SetMessageID(ctxT(t), first.ID, malefiz.RoleThread, "777"))
		require.NoError(t, db.SetMessageID(ctxT(t), first.ID, malefiz.RoleReminder, "778"))
		got, err := db.Game(ctxT(t), first.ID)
		require.NoError(t, err)
		assert.True(t, got.Threaded)
		assert.Equal(t, "777", got.ThreadID)
		assert.Equal(t, "778", got.ReminderMessageID)

		open, err := db.OpenGames(ctxT(t), first.GuildID, "chan")
		require.NoError(t, err)
		require.Len(t, open, 3)
		assert.Equal(t, []int64{inChannel.ID, second.ID, first.ID}, []int64{open[0].ID, open[1].ID, open[2].ID})
		inThread, err := db.OpenGames(ctxT(t), first.GuildID, "777")
		require.NoError(t, err)
		require.Len(t, inThread, 1)
		assert.Equal(t, first.ID, inThread[0].ID)
	})
}

// GameResults reads back what finishing a game recorded, ratings included.
func TestGameResults(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("chan")
		require.NoError(t, db.CreateGame(ctxT(t), g))
		none, err := db.GameResults(ctxT(t), g.ID)
		require.NoError(t, err)
		assert.Empty(t, none)
		results := []malefiz.Result{
			{Player: "u1", Name: "Anna", Color: "red", Won: true, Turns: 10, GameTurns: 20},
			{Player: "ai:easy", Name: "Computer", Computer: true, Color: "green", Turns: 10, GameTurns: 20},
		}
		require.NoError(t, db.FinishGame(ctxT(t), g, results))
		got, err := db.GameResults(ctxT(t), g.ID)
		require.NoError(t, err)
		require.Len(t, got, 2)
		byColor := map[string]malefiz.Result{got[0].Color: got[0], got[1].Color: got[1]}
		assert.Equal(t, store.InitialRating, byColor["red"].RatingBefore)
		assert.Greater(t, byColor["red"].RatingAfter, store.InitialRating)
		assert.Less(t, byColor["green"].RatingAfter, store.InitialRating)
		assert.True(t, byColor["red"].Won)
	})
}

// A user's settings default to off and round-trip; UserGames lists the
// open games the user sits in.
func TestUserSettingsAndGames(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		s, err := db.UserSettings(ctxT(t), "u1")
		require.NoError(t, err)
		assert.Equal(t, malefiz.UserSettings{}, s)
		require.NoError(t, db.SetUserSettings(ctxT(t), "u1", malefiz.UserSettings{DM: true, DMRefused: true}))
		s, err = db.UserSettings(ctxT(t), "u1")
		require.NoError(t, err)
		assert.Equal(t, malefiz.UserSettings{DM: true, DMRefused: true}, s)

		mine := newGame("chan")
		require.NoError(t, db.CreateGame(ctxT(t), mine))
		other := newGame("chan2")
		other.Seats[0].UserID = "u2"
		require.NoError(t, db.CreateGame(ctxT(t), other))
		games, err := db.UserGames(ctxT(t), "guild1", "u1")
		require.NoError(t, err)
		require.Len(t, games, 1)
		assert.Equal(t, mine.ID, games[0].ID)
	})
}

// HostedLobbies counts a host's lobbies in every channel of one guild:
// not another host's, not another guild's, not a running or ended game.
func TestHostedLobbies(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		lobby := func(guild, channel, host string) *malefiz.Game {
			g := newGame(channel)
			g.GuildID, g.HostID, g.Status, g.Threaded = guild, host, malefiz.StatusLobby, true
			require.NoError(t, db.CreateGame(ctxT(t), g))
			return g
		}
		lobby("guild1", "a", "u1")
		lobby("guild1", "b", "u1")
		ended := lobby("guild1", "c", "u1")
		lobby("guild1", "a", "u2")
		lobby("guild2", "a", "u1")
		running := newGame("d")
		running.Threaded = true
		require.NoError(t, db.CreateGame(ctxT(t), running)) // hosted by u1
		ended.Status = malefiz.StatusCancelled
		require.NoError(t, db.UpdateGame(ctxT(t), ended))

		for _, c := range []struct {
			name, guild, host string
			want              int
		}{
			{"every channel", "guild1", "u1", 2},
			{"another host", "guild1", "u2", 1},
			{"another guild", "guild2", "u1", 1},
			{"none", "guild1", "u3", 0},
		} {
			got, err := db.HostedLobbies(ctxT(t), c.guild, c.host)
			require.NoError(t, err, c.name)
			assert.Equal(t, c.want, got, c.name)
		}
	})
}

// FinishedGames lists a channel's finished games, the last finished
// first, those of its threads included, none of another channel or still
// open; a thread's lists its own game.
func TestFinishedGamesOfAChannel(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, c := openTest(t, b)
		results := []malefiz.Result{
			{Player: "u1", Name: "Anna", Color: "red", Won: true, Turns: 10, GameTurns: 20},
			{Player: "ai:easy", Name: "Computer", Computer: true, Color: "green", Turns: 10, GameTurns: 20},
		}
		finish := func(channel, thread string) *malefiz.Game {
			t.Helper()
			g := newGame(channel)
			g.Threaded = true
			require.NoError(t, db.CreateGame(ctxT(t), g))
			if thread != "" {
				require.NoError(t, db.SetMessageID(ctxT(t), g.ID, malefiz.RoleThread, thread))
				g.ThreadID = thread
			}
			g.Status = malefiz.StatusFinished
			require.NoError(t, db.FinishGame(ctxT(t), g, results))
			c.Advance(time.Minute)
			return g
		}
		first := finish("chan", "777")
		other := finish("elsewhere", "")
		second := finish("chan", "")
		open := newGame("chan")
		open.Threaded = true
		require.NoError(t, db.CreateGame(ctxT(t), open))

		ids := func(games []*malefiz.Game) []int64 {
			var out []int64
			for _, g := range games {
				out = append(out, g.ID)
			}
			return out
		}
		got, err := db.FinishedGames(ctxT(t), first.GuildID, "chan", 10)
		require.NoError(t, err)
		assert.Equal(t, []int64{second.ID, first.ID}, ids(got), "the last finished first")
		require.Len(t, got[1].Seats, 2, "with their seats")
		got, err = db.FinishedGames(ctxT(t), first.GuildID, "chan", 1)
		require.NoError(t, err)
		assert.Equal(t, []int64{second.ID}, ids(got), "at most limit")
		got, err = db.FinishedGames(ctxT(t), first.GuildID, "777", 10)
		require.NoError(t, err)
		assert.Equal(t, []int64{first.ID}, ids(got), "the thread's own")
		got, err = db.FinishedGames(ctxT(t), "another guild", "elsewhere", 10)
		require.NoError(t, err)
		assert.Empty(t, got, "another guild's channel")
		got, err = db.FinishedGames(ctxT(t), first.GuildID, "elsewhere", 10)
		require.NoError(t, err)
		assert.Equal(t, []int64{other.ID}, ids(got))
	})
}
