package game

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
)

// TestTournamentBoard reads a knockout of Ann, Ben and two computers at
// tables of 2 as the board shows it, once Ann resigned her first game:
// her table over (the computer goes through, her forfeit said), Ben's
// being played (whose turn), Ann's line hers and out; another guild's
// tournament and an unknown one are refused alike.
func TestTournamentBoard(t *testing.T) {
	e := newEnv(t)
	tt := e.openTournament(malefiz.TournamentSetup{Format: "knockout", TableSize: 2, Computers: true})
	_, err := e.tournamentDo(tt.ID, ann, TournamentJoin{})
	require.NoError(t, err)
	_, err = e.tournamentDo(tt.ID, ben, TournamentJoin{})
	require.NoError(t, err)
	for range 2 {
		_, err = e.tournamentDo(tt.ID, ann, TournamentAddComputer{})
		require.NoError(t, err)
	}
	_, err = e.tournamentDo(tt.ID, ann, TournamentStart{})
	require.NoError(t, err)
	_, err = e.s.TickTournaments(t.Context())
	require.NoError(t, err)

	b, err := e.s.TournamentHere(t.Context(), e.fake.GuildID, e.fake.ChannelID, ann.UserID, "en")
	require.NoError(t, err)
	require.NotNil(t, b, "the channel's tournament")
	assert.Equal(t, tt.ID, b.ID)
	assert.Equal(t, "Knockout · tables of 2 · as many rounds as the format needs", b.Setup)
	assert.True(t, b.You)
	require.Len(t, b.Played, 1)
	var annGame int64
	for _, tv := range b.Played[0].Tables {
		assert.Equal(t, "playing", tv.State, "table %d", tv.Number)
		assert.NotEmpty(t, tv.ToMove, "table %d: whose turn", tv.Number)
		require.Len(t, tv.Seats, 2)
		for _, s := range tv.Seats {
			assert.NotEmpty(t, s.Color, "each seat in the colour it plays")
		}
		if tv.You {
			annGame = tv.GameID
		}
	}
	require.NotZero(t, annGame, "Ann sits at a table")

	_, err = e.s.Apply(t.Context(), Command{Game: annGame, Guild: e.fake.GuildID, User: ann, Action: Resign{}})
	require.NoError(t, err)
	b, err = e.s.TournamentBoard(t.Context(), tt.ID, e.fake.GuildID, ann.UserID, "en")
	require.NoError(t, err)
	require.Len(t, b.Played, 1)
	assert.False(t, b.Played[0].Done, "Ben's table still plays")
	for _, tv := range b.Played[0].Tables {
		if tv.GameID != annGame {
			assert.Equal(t, "playing", tv.State)
			continue
		}
		assert.Equal(t, "finished", tv.State)
		assert.Empty(t, tv.ToMove)
		for _, s := range tv.Seats {
			if s.You {
				assert.Equal(t, 2, s.Place)
				assert.True(t, s.Forfeited, "Ann resigned")
				assert.False(t, s.Through)
			} else {
				assert.Equal(t, 1, s.Place)
				assert.Equal(t, 6, s.Points)
				assert.True(t, s.Through, "the computer goes through")
				assert.Contains(t, s.Name, "Computer (")
			}
		}
	}
	mine := 0
	for _, l := range b.Standings {
		if l.You {
			mine++
			assert.Equal(t, "Ann", l.Name)
			assert.True(t, l.Out, "out of the bracket")
		}
	}
	assert.Equal(t, 1, mine, "Ann's own line, once")

	_, err = e.s.TournamentBoard(t.Context(), tt.ID, "999", ann.UserID, "en")
	assert.Equal(t, locales.ErrTourUnknown, refusal(t, err), "another guild's")
	_, err = e.s.TournamentBoard(t.Context(), tt.ID+100, e.fake.GuildID, ann.UserID, "en")
	assert.Equal(t, locales.ErrTourUnknown, refusal(t, err), "an unknown one, alike")
	none, err := e.s.TournamentHere(t.Context(), e.fake.GuildID, "555", ann.UserID, "en")
	require.NoError(t, err)
	assert.Nil(t, none, "a channel without one")
}
