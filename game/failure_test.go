package game

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
)

// TestAFailingDatabaseIsNoRefusal: with the database gone, every command
// and read of the service fails with the database's error, not with a
// refusal a person would read as the truth ("There is no game #1",
// "There is no tournament here"), and changes nothing.
func TestAFailingDatabaseIsNoRefusal(t *testing.T) {
	e := newEnv(t)
	id := e.running()
	tt := e.openTournament(malefiz.TournamentSetup{Format: "knockout", TableSize: 2})
	guild, channel := e.fake.GuildID, e.fake.ChannelID
	require.NoError(t, e.db.Close())

	ctx := t.Context()
	check := func(what string, err error) {
		t.Helper()
		if assert.Error(t, err, what) {
			assert.Empty(t, refusal(t, err), "%s: %v", what, err)
		}
	}
	_, err := e.s.Change(ctx, Command{Game: id, Guild: guild, User: ann, Action: Resign{}})
	check("a command", err)
	_, err = e.s.Open(ctx, NewLobby{Guild: guild, Channel: channel, User: ben, Lang: "en"})
	check("a new lobby", err)
	_, err = e.s.Live(ctx, id, guild, ann.UserID, "en")
	check("the board", err)
	_, err = e.s.Review(ctx, id, guild, ann)
	check("a review", err)
	_, err = e.s.BoardReview(ctx, id, guild, "en")
	check("the board's review", err)
	_, err = e.s.ChannelReviews(ctx, guild, channel)
	check("the channel's reviews", err)
	_, err = e.s.OpenTournament(ctx, NewTournament{Guild: guild, Channel: "other", User: ann, Lang: "en", Name: "Cup",
		Setup: malefiz.TournamentSetup{Format: "knockout", TableSize: 2}})
	check("a new tournament", err)
	_, err = e.tournamentDo(tt.ID, ben, TournamentJoin{})
	check("a tournament's command", err)
	_, err = e.s.ChannelTournament(ctx, guild, channel)
	check("the channel's tournament", err)
	_, err = e.s.Standings(ctx, guild, channel)
	check("the standings", err)
	_, err = e.s.TournamentHere(ctx, guild, channel, ann.UserID, "en")
	check("the board's tournament", err)
	_, err = e.s.TournamentBoard(ctx, tt.ID, guild, ann.UserID, "en")
	check("a tournament's board", err)
	_, err = e.s.Tick(ctx)
	check("the timers", err)
	_, err = e.s.TickTournaments(ctx)
	check("the round opener", err)
}
