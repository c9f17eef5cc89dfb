package game

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/internal/testclock"
	"github.com/malefiz-discord/malefiz/store"
)

// refusal is err's refusal key, "" for none.
func refusal(t *testing.T, err error) locales.Key {
	t.Helper()
	var ref *table.Refusal
	if !errors.As(err, &ref) {
		return ""
	}
	return ref.Key
}

// openTournament opens a tournament in the stand-in's channel, hosted by
// Ann, with the card posted (no interaction).
func (e *env) openTournament(setup malefiz.TournamentSetup) *malefiz.Tournament {
	e.t.Helper()
	out, err := e.s.OpenTournament(e.t.Context(), NewTournament{Guild: e.fake.GuildID, Channel: e.fake.ChannelID,
		User: ann, Lang: "en", Name: "Cup", Setup: setup})
	require.NoError(e.t, err)
	return out.Tournament
}

// tournamentDo runs act on tournament id as a, from the stand-in's channel.
func (e *env) tournamentDo(id int64, a table.Actor, act TournamentAction) (*TournamentOutcome, error) {
	return e.s.ChangeTournament(e.t.Context(), TournamentCommand{Tournament: id, User: a, Guild: e.fake.GuildID,
		Channel: e.fake.ChannelID, Action: act})
}

// newTourClock starts a clock for the service's Config.Now a minute ahead
// of the store's, which keeps the tournaments' wake times.
func newTourClock() *testclock.Clock { return testclock.At(time.Now().Add(time.Minute)) }

func TestTournamentRefusalsChangeNothing(t *testing.T) {
	e := newEnv(t)
	swiss := malefiz.TournamentSetup{Format: "swiss", TableSize: 4, Computers: true}

	_, err := e.s.OpenTournament(t.Context(), NewTournament{Guild: e.fake.GuildID, Channel: e.fake.ChannelID, User: ann,
		Lang: "en", Name: "Cup", Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 4, Rounds: 300}})
	assert.Equal(t, locales.ErrTourRounds, refusal(t, err), "more rounds than any field allows")

	tt := e.openTournament(swiss)
	_, err = e.s.OpenTournament(t.Context(), NewTournament{Guild: e.fake.GuildID, Channel: e.fake.ChannelID, User: ben,
		Lang: "en", Name: "Other", Setup: swiss})
	assert.Equal(t, locales.ErrTourBusy, refusal(t, err), "a second tournament in the channel")

	_, err = e.tournamentDo(tt.ID, ann, TournamentStart{})
	assert.Equal(t, locales.ErrTourTooFew, refusal(t, err), "a field of none")
	_, err = e.tournamentDo(tt.ID, ann, TournamentJoin{})
	require.NoError(t, err)
	_, err = e.tournamentDo(tt.ID, ann, TournamentJoin{})
	assert.Equal(t, locales.ErrTourSignedUp, refusal(t, err))
	_, err = e.tournamentDo(tt.ID, ann, TournamentStart{})
	assert.Equal(t, locales.ErrTourTooFew, refusal(t, err), "a field of one")
	for _, a := range []table.Actor{ben, cat} {
		_, err = e.tournamentDo(tt.ID, a, TournamentJoin{})
		require.NoError(t, err)
	}
	_, err = e.tournamentDo(tt.ID, ann, TournamentStart{})
	assert.Equal(t, locales.ErrTourTableSize, refusal(t, err), "tables of 4 for a field of 3")

	_, err = e.tournamentDo(tt.ID, ben, TournamentStart{})
	assert.Equal(t, locales.ErrTourOnlyHost, refusal(t, err), "Ben is no host")
	_, err = e.tournamentDo(tt.ID, ben, TournamentAddComputer{})
	assert.Equal(t, locales.ErrTourOnlyHost, refusal(t, err))
	manager := ben
	manager.Manager = true
	_, err = e.tournamentDo(tt.ID, manager, TournamentAddComputer{})
	require.NoError(t, err, "Manage Server may")

	// A button naming this tournament from another channel, or a
	// tournament that does not exist, is refused.
	_, err = e.s.ChangeTournament(t.Context(), TournamentCommand{Tournament: tt.ID, User: ann, Guild: e.fake.GuildID,
		Channel: "999", Action: TournamentCancel{}})
	assert.Equal(t, locales.ErrForeignButton, refusal(t, err))
	_, err = e.tournamentDo(tt.ID+100, ann, TournamentJoin{})
	assert.Equal(t, locales.ErrForeignButton, refusal(t, err))

	kept, err := e.db.Tournament(t.Context(), tt.ID)
	require.NoError(t, err)
	assert.Equal(t, malefiz.TournamentSignUp, kept.Status)
	assert.Len(t, kept.Entrants, 4, "three people and a computer")

	_, err = e.tournamentDo(tt.ID, ann, TournamentStart{})
	require.NoError(t, err)
	_, err = e.tournamentDo(tt.ID, table.Actor{UserID: "104", Name: "Dan"}, TournamentJoin{})
	assert.Equal(t, locales.ErrTourClosed, refusal(t, err), "a join after the start")
	kept, err = e.db.Tournament(t.Context(), tt.ID)
	require.NoError(t, err)
	assert.Equal(t, malefiz.TournamentRunning, kept.Status)
	assert.Len(t, kept.Entrants, 4)
	require.Len(t, kept.Rounds, 1)
	assert.Len(t, kept.Rounds[0].Tables, 1, "a table of 4")
}

func TestTournamentTablesOpenAsGames(t *testing.T) {
	e := newEnv(t)
	tt := e.openTournament(malefiz.TournamentSetup{Format: "knockout", TableSize: 2, Computers: true})
	_, err := e.tournamentDo(tt.ID, ann, TournamentJoin{})
	require.NoError(t, err)
	for range 3 {
		_, err = e.tournamentDo(tt.ID, ann, TournamentAddComputer{})
		require.NoError(t, err)
	}
	_, err = e.tournamentDo(tt.ID, ann, TournamentStart{})
	require.NoError(t, err)
	n, err := e.s.TickTournaments(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, n)

	kept, err := e.db.Tournament(t.Context(), tt.ID)
	require.NoError(t, err)
	require.Len(t, kept.Rounds[0].Tables, 2)
	for _, tb := range kept.Rounds[0].Tables {
		require.NotZero(t, tb.GameID, "table %d has its game", tb.Number)
		sg, err := e.db.Game(t.Context(), tb.GameID)
		require.NoError(t, err)
		assert.True(t, sg.Status.Open())
		assert.Equal(t, tt.ID, sg.TournamentID)
		assert.True(t, sg.Threaded, "a table plays in a thread of its own")
		assert.Len(t, sg.Seats, 2)
	}
	// Ticking again opens nothing twice.
	_, err = e.s.TickTournaments(t.Context())
	require.NoError(t, err)
	again, err := e.db.Tournament(t.Context(), tt.ID)
	require.NoError(t, err)
	assert.Equal(t, kept.Rounds[0].Tables[0].GameID, again.Rounds[0].Tables[0].GameID)
}

func TestTournamentCardPostedThenEdited(t *testing.T) {
	e := newEnv(t)
	tt := e.openTournament(malefiz.TournamentSetup{Format: "swiss", TableSize: 2})
	pass := func() {
		t.Helper()
		for range 10 {
			n, err := e.out.Pass(t.Context())
			require.NoError(t, err)
			if n == 0 {
				return
			}
		}
	}
	pass()
	kept, err := e.db.Tournament(t.Context(), tt.ID)
	require.NoError(t, err)
	require.NotEmpty(t, kept.MessageID, "the card's post records its ID")
	card, ok := e.fake.Message(kept.MessageID)
	require.True(t, ok)
	assert.Contains(t, card.Text(), locales.Tr("en", locales.TourNoEntrants))

	// A command (not a click) answers privately and edits the card.
	out, err := e.tournamentDo(tt.ID, ben, TournamentJoin{})
	require.NoError(t, err)
	assert.Equal(t, table.Private, out.Reply.Kind)
	pass()
	card, _ = e.fake.Message(kept.MessageID)
	assert.Contains(t, card.Text(), "<@"+ben.UserID+">", "the card shows Ben signed up")
	assert.Equal(t, 1, card.Edits)
}

func TestTournamentCloseSignUp(t *testing.T) {
	e := newEnv(t)
	tt := e.openTournament(malefiz.TournamentSetup{Format: "swiss", TableSize: 2})
	_, err := e.tournamentDo(tt.ID, ann, TournamentJoin{})
	require.NoError(t, err)
	_, err = e.tournamentDo(tt.ID, ann, TournamentCloseSignUp{})
	assert.Equal(t, locales.ErrTourTooFew, refusal(t, err), "a sign-up of one is not closed")
	_, err = e.tournamentDo(tt.ID, ben, TournamentJoin{})
	require.NoError(t, err)
	_, err = e.tournamentDo(tt.ID, ben, TournamentCloseSignUp{})
	assert.Equal(t, locales.ErrTourOnlyHost, refusal(t, err))
	out, err := e.tournamentDo(tt.ID, table.Actor{UserID: ann.UserID, Name: "Ann", Click: true}, TournamentCloseSignUp{})
	require.NoError(t, err)
	assert.Contains(t, out.Reply.Message.Embeds[0].Description, locales.Tr("en", locales.TourSignupClosed))
	_, err = e.tournamentDo(tt.ID, cat, TournamentJoin{})
	assert.Equal(t, locales.ErrTourClosed, refusal(t, err), "a join after the sign-up closed")
	kept, err := e.db.Tournament(t.Context(), tt.ID)
	require.NoError(t, err)
	assert.Len(t, kept.Entrants, 2)
	_, err = e.tournamentDo(tt.ID, ann, TournamentStart{})
	require.NoError(t, err, "the host starts a closed sign-up")
}

func TestTournamentPauseAndRemove(t *testing.T) {
	e := newEnv(t)
	tt := e.openTournament(malefiz.TournamentSetup{Format: "swiss", TableSize: 2, Computers: true})
	for _, a := range []table.Actor{ann, ben, cat} {
		_, err := e.tournamentDo(tt.ID, a, TournamentJoin{})
		require.NoError(t, err)
	}
	_, err := e.tournamentDo(tt.ID, ann, TournamentRemove{User: cat.UserID})
	require.NoError(t, err, "the host takes Cat off the sign-up")
	_, err = e.tournamentDo(tt.ID, ann, TournamentAddComputer{Level: "easy"})
	require.NoError(t, err)
	_, err = e.tournamentDo(tt.ID, ann, TournamentStart{})
	require.NoError(t, err)
	_, err = e.tournamentDo(tt.ID, ann, TournamentPause{})
	require.NoError(t, err)
	_, err = e.tournamentDo(tt.ID, ben, TournamentPause{Resume: true})
	assert.Equal(t, locales.ErrTourOnlyHost, refusal(t, err))
	n, err := e.s.TickTournaments(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "a paused tournament opens nothing")
	kept, err := e.db.Tournament(t.Context(), tt.ID)
	require.NoError(t, err)
	assert.Equal(t, malefiz.TournamentPaused, kept.Status)
	assert.Zero(t, kept.Rounds[0].Tables[0].GameID)

	_, err = e.tournamentDo(tt.ID, ann, TournamentPause{Resume: true})
	require.NoError(t, err)
	_, err = e.tournamentDo(tt.ID, ann, TournamentRemove{User: ben.UserID})
	require.NoError(t, err, "the host withdraws Ben once it runs")
	_, err = e.s.TickTournaments(t.Context())
	require.NoError(t, err)
	kept, err = e.db.Tournament(t.Context(), tt.ID)
	require.NoError(t, err)
	assert.Equal(t, malefiz.TournamentRunning, kept.Status)
	assert.NotZero(t, kept.Rounds[0].Tables[0].GameID, "resumed, its tables open")
	_, gone := kept.Entrant(cat.UserID)
	assert.False(t, gone)
	b, _ := kept.Entrant(ben.UserID)
	assert.True(t, b.Withdrawn)
}

func TestTournamentRoundEndsAtItsDeadline(t *testing.T) {
	clock := newTourClock()
	e := newEnv(t, func(c *Config) { c.Now = clock.Now })
	tt := e.openTournament(malefiz.TournamentSetup{Format: "knockout", TableSize: 2, TurnTimeout: 5 * time.Minute})
	for _, a := range []table.Actor{ann, ben} {
		_, err := e.tournamentDo(tt.ID, a, TournamentJoin{})
		require.NoError(t, err)
	}
	_, err := e.tournamentDo(tt.ID, ann, TournamentStart{})
	require.NoError(t, err)
	_, err = e.s.TickTournaments(t.Context())
	require.NoError(t, err)
	kept, err := e.db.Tournament(t.Context(), tt.ID)
	require.NoError(t, err)
	r := kept.Rounds[0]
	assert.WithinDuration(t, clock.Now().Add(RoundTurns*5*time.Minute), r.Deadline, time.Millisecond)
	gameID := r.Tables[0].GameID
	require.NotZero(t, gameID)

	// Nobody plays; the round's deadline passes (the turns' timers are
	// not run here: the game is still open at the deadline).
	clock.Advance(RoundTurns*5*time.Minute + time.Second)
	_, err = e.s.TickTournaments(t.Context())
	require.NoError(t, err)
	sg, err := e.db.Game(t.Context(), gameID)
	require.NoError(t, err)
	assert.Equal(t, malefiz.StatusCancelled, sg.Status, "the game still open at the deadline ends without a result")
	kept, err = e.db.Tournament(t.Context(), tt.ID)
	require.NoError(t, err)
	assert.Equal(t, malefiz.TournamentFinished, kept.Status, "a final forfeited by both: the tournament is over")
}

func TestTournamentEntrantsSignUpWithTheirRating(t *testing.T) {
	e := newEnv(t)
	tt := e.openTournament(malefiz.TournamentSetup{Format: "swiss", TableSize: 2, Computers: true})
	_, err := e.tournamentDo(tt.ID, ann, TournamentJoin{})
	require.NoError(t, err)
	kept, err := e.db.Tournament(t.Context(), tt.ID)
	require.NoError(t, err)
	assert.Equal(t, store.InitialRating, kept.Entrants[0].Rating, "a player without a finished game starts where everyone does")
}
