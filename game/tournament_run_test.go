package game

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
)

// dan is a fourth player, for a field of four.
var dan = table.Actor{UserID: "104", Name: "Dan", Lang: "en"}

// startField opens a knockout of tables of two in the stand-in's channel,
// signs up actors, starts it and opens its first round's tables.
func (e *env) startField(actors ...table.Actor) *malefiz.Tournament {
	e.t.Helper()
	tt := e.openTournament(malefiz.TournamentSetup{Format: "knockout", TableSize: 2})
	for _, a := range actors {
		_, err := e.tournamentDo(tt.ID, a, TournamentJoin{})
		require.NoError(e.t, err)
	}
	_, err := e.tournamentDo(tt.ID, ann, TournamentStart{})
	require.NoError(e.t, err)
	_, err = e.s.TickTournaments(e.t.Context())
	require.NoError(e.t, err)
	return e.tournament(tt.ID)
}

// tournament is tournament id as the store keeps it.
func (e *env) tournament(id int64) *malefiz.Tournament {
	e.t.Helper()
	t, err := e.db.Tournament(e.t.Context(), id)
	require.NoError(e.t, err)
	return t
}

// resignAt resigns the first human seat of each open table of t's last
// round but the one of keep, and ticks the round opener.
func (e *env) resignAt(t *malefiz.Tournament, keep string) {
	e.t.Helper()
	for _, tb := range t.Rounds[len(t.Rounds)-1].Tables {
		if tb.GameID == 0 || !tb.GameStatus.Open() {
			continue
		}
		sg := e.stored(tb.GameID)
		for _, seat := range sg.Seats {
			if seat.UserID != "" && seat.UserID != keep {
				e.must(tb.GameID, table.Actor{UserID: seat.UserID, Name: seat.Name, Lang: "en"}, Resign{})
				break
			}
		}
	}
	_, err := e.s.TickTournaments(e.t.Context())
	require.NoError(e.t, err)
}

// TestTournamentPlayedToItsEnd: a knockout of four, tables of two, each
// table won by a resignation: the second round opens by itself with the
// winners, and its end finishes the tournament, with Ann, who never
// resigned, its winner. The channel's tournament and its standings are
// there while it runs, and gone once it is over.
func TestTournamentPlayedToItsEnd(t *testing.T) {
	e := newEnv(t)
	tt := e.startField(ann, ben, cat, dan)
	require.Len(t, tt.Rounds, 1)
	require.Len(t, tt.Rounds[0].Tables, 2)

	here, err := e.s.ChannelTournament(t.Context(), e.fake.GuildID, e.fake.ChannelID)
	require.NoError(t, err)
	assert.Equal(t, tt.ID, here.ID)
	st, err := e.s.Standings(t.Context(), e.fake.GuildID, e.fake.ChannelID)
	require.NoError(t, err)
	assert.Equal(t, table.Private, st.Kind)
	assert.Empty(t, st.Message.Rows, "the buttons stay on the card")
	assert.Contains(t, string(textBody(st.Message)), "Cup")

	// The board opened in a table's thread shows its tournament; a
	// finished game is there to review, one still played is not.
	first := e.stored(tt.Rounds[0].Tables[0].GameID)
	require.NotEmpty(t, first.ThreadID)
	board, err := e.s.TournamentHere(t.Context(), e.fake.GuildID, first.ThreadID, ann.UserID, "en")
	require.NoError(t, err)
	require.NotNil(t, board)
	assert.Equal(t, tt.ID, board.ID)
	none, err := e.s.TournamentHere(t.Context(), e.fake.GuildID, "", ann.UserID, "en")
	assert.NoError(t, err)
	assert.Nil(t, none, "no channel, no tournament")
	_, err = e.s.BoardReview(t.Context(), first.ID, e.fake.GuildID, "en")
	assert.Equal(t, locales.ErrUnknownGame, refusal(t, err), "a game still played has no review yet")

	e.resignAt(tt, ann.UserID)
	reviews, err := e.s.ChannelReviews(t.Context(), e.fake.GuildID, first.ThreadID)
	require.NoError(t, err)
	require.Len(t, reviews, 1, "the table's game, over")
	assert.Equal(t, first.ID, reviews[0].ID)
	tt = e.tournament(tt.ID)
	require.Len(t, tt.Rounds, 2, "the final opens once the first round is over")
	final := tt.Rounds[1].Tables
	require.Len(t, final, 1)
	require.NotZero(t, final[0].GameID, "its table's game opened")
	seats := e.stored(final[0].GameID).Seats
	require.Len(t, seats, 2)
	assert.Contains(t, []string{seats[0].UserID, seats[1].UserID}, ann.UserID)

	e.resignAt(tt, ann.UserID)
	tt = e.tournament(tt.ID)
	assert.Equal(t, malefiz.TournamentFinished, tt.Status)
	_, err = e.s.ChannelTournament(t.Context(), e.fake.GuildID, e.fake.ChannelID)
	assert.Equal(t, locales.ErrTourNone, refusal(t, err), "no open tournament here any more")
	_, err = e.s.Standings(t.Context(), e.fake.GuildID, e.fake.ChannelID)
	assert.Equal(t, locales.ErrTourNone, refusal(t, err))
	board, err = e.s.TournamentHere(t.Context(), e.fake.GuildID, e.stored(final[0].GameID).ThreadID, ann.UserID, "en")
	require.NoError(t, err)
	require.NotNil(t, board, "a finished table's thread still shows its tournament")
	assert.Equal(t, malefiz.TournamentFinished, board.Status)
	none, err = e.s.TournamentHere(t.Context(), e.fake.GuildID, e.fake.ChannelID, ann.UserID, "en")
	assert.NoError(t, err)
	assert.Nil(t, none, "the channel's tournament is over")

	// A review of a game of another guild, or of none, is refused alike.
	_, err = e.s.BoardReview(t.Context(), first.ID, "another guild", "en")
	assert.Equal(t, locales.ErrUnknownGame, refusal(t, err))
	_, err = e.s.BoardReview(t.Context(), first.ID+1000, e.fake.GuildID, "en")
	assert.Equal(t, locales.ErrUnknownGame, refusal(t, err))
}

// TestTournamentCancelEndsItsGames: the host's cancel ends the open games
// of the round without a result, and the tournament with them.
func TestTournamentCancelEndsItsGames(t *testing.T) {
	e := newEnv(t)
	tt := e.startField(ann, ben, cat, dan)
	_, err := e.tournamentDo(tt.ID, ben, TournamentCancel{})
	assert.Equal(t, locales.ErrTourOnlyHost, refusal(t, err))
	_, err = e.tournamentDo(tt.ID, ann, TournamentCancel{})
	require.NoError(t, err)
	kept := e.tournament(tt.ID)
	assert.Equal(t, malefiz.TournamentCancelled, kept.Status)
	for _, tb := range tt.Rounds[0].Tables {
		assert.Equal(t, malefiz.StatusCancelled, e.stored(tb.GameID).Status, "table %d", tb.Number)
	}
}

// TestTournamentStartsAtItsTime: a tournament with a start time starts
// by itself once it passes, and one whose field is then too small is
// cancelled, saying why in its channel.
func TestTournamentStartsAtItsTime(t *testing.T) {
	clock := newTourClock()
	for _, tc := range []struct {
		name   string
		field  []table.Actor
		status malefiz.TournamentStatus
	}{
		{"a field of two", []table.Actor{ann, ben}, malefiz.TournamentRunning},
		{"a field of one", []table.Actor{ann}, malefiz.TournamentCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, func(c *Config) { c.Now = clock.Now })
			out, err := e.s.OpenTournament(t.Context(), NewTournament{Guild: e.fake.GuildID, Channel: e.fake.ChannelID,
				User: ann, Lang: "en", Name: "Cup", Setup: malefiz.TournamentSetup{Format: "knockout", TableSize: 2,
					StartAt: clock.Now().Add(time.Hour)}})
			require.NoError(t, err)
			id := out.Tournament.ID
			for _, a := range tc.field {
				_, err := e.tournamentDo(id, a, TournamentJoin{})
				require.NoError(t, err)
			}
			_, err = e.s.TickTournaments(t.Context())
			require.NoError(t, err)
			assert.Equal(t, malefiz.TournamentSignUp, e.tournament(id).Status, "not before its time")

			clock.Advance(time.Hour + time.Second)
			_, err = e.s.TickTournaments(t.Context())
			require.NoError(t, err)
			kept := e.tournament(id)
			assert.Equal(t, tc.status, kept.Status)
			if tc.status == malefiz.TournamentRunning {
				require.Len(t, kept.Rounds, 1)
				assert.NotZero(t, kept.Rounds[0].Tables[0].GameID, "its first table opened")
			}
		})
	}
}

// TestRunTournamentsOpensTheRounds: the round opener, running, opens the
// tables of a tournament the host starts, woken by the start, and stops
// with its context.
func TestRunTournamentsOpensTheRounds(t *testing.T) {
	e := newEnv(t)
	tt := e.openTournament(malefiz.TournamentSetup{Format: "knockout", TableSize: 2})
	for _, a := range []table.Actor{ann, ben} {
		_, err := e.tournamentDo(tt.ID, a, TournamentJoin{})
		require.NoError(t, err)
	}
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.s.RunTournaments(ctx)
	}()
	_, err := e.tournamentDo(tt.ID, ann, TournamentStart{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		kept := e.tournament(tt.ID)
		return len(kept.Rounds) == 1 && kept.Rounds[0].Tables[0].GameID != 0
	}, 10*time.Second, 10*time.Millisecond, "the first table's game opened")
	stop()
	<-done
}

// TestTournamentSignUpActions: leaving, the host's remove, close and start
// and their refusals, each answered as a click (the card in place) or as
// a command (privately, the card edited).
func TestTournamentSignUpActions(t *testing.T) {
	e := newEnv(t)
	tt := e.openTournament(malefiz.TournamentSetup{Format: "knockout", TableSize: 2})
	for _, a := range []table.Actor{ann, ben, cat} {
		_, err := e.tournamentDo(tt.ID, a, TournamentJoin{})
		require.NoError(t, err)
	}
	_, err := e.tournamentDo(tt.ID, ann, TournamentAddComputer{})
	assert.Equal(t, locales.ErrTourOnlyHost, refusal(t, err), "no computers in this one")

	out, err := e.tournamentDo(tt.ID, cat, TournamentLeave{})
	require.NoError(t, err)
	assert.Equal(t, table.Private, out.Reply.Kind)
	_, err = e.tournamentDo(tt.ID, cat, TournamentLeave{})
	assert.Error(t, err, "Cat left already")
	_, err = e.tournamentDo(tt.ID, ann, TournamentRemove{User: cat.UserID})
	assert.Equal(t, locales.ErrTourNotEntrant, refusal(t, err))
	_, err = e.tournamentDo(tt.ID, ann, TournamentRemove{User: ben.UserID})
	require.NoError(t, err)
	assert.Len(t, e.tournament(tt.ID).Entrants, 1, "Ann alone")
	_, err = e.tournamentDo(tt.ID, ann, TournamentCloseSignUp{})
	assert.Equal(t, locales.ErrTourTooFew, refusal(t, err), "a field of one")
	_, err = e.tournamentDo(tt.ID, ben, TournamentJoin{})
	require.NoError(t, err)
	_, err = e.tournamentDo(tt.ID, ann, TournamentCloseSignUp{})
	require.NoError(t, err)
	_, err = e.tournamentDo(tt.ID, ann, TournamentCloseSignUp{})
	assert.Equal(t, locales.ErrTourClosed, refusal(t, err), "closed already")

	click := ann
	click.Click = true
	out, err = e.tournamentDo(tt.ID, click, TournamentStart{})
	require.NoError(t, err)
	assert.Equal(t, table.Update, out.Reply.Kind, "a click's answer is the card in place")
	_, err = e.tournamentDo(tt.ID, ann, TournamentStart{})
	assert.Equal(t, locales.ErrAlreadyStarted, refusal(t, err))
	out, err = e.tournamentDo(tt.ID, click, TournamentCancel{})
	require.NoError(t, err)
	assert.Equal(t, table.Update, out.Reply.Kind)
	_, err = e.tournamentDo(tt.ID, ann, TournamentCancel{})
	assert.Equal(t, locales.ErrGameEnded, refusal(t, err), "cancelled already")
}
