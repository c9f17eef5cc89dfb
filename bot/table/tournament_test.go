package table

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/tournament"
)

// refusalKey is err's refusal key, "" for none.
func refusalKey(err error) locales.Key {
	var ref *Refusal
	if errors.As(err, &ref) {
		return ref.Key
	}
	return ""
}

func TestCheckNewTournament(t *testing.T) {
	open := []*malefiz.Tournament{{Name: "Old"}}
	for _, tc := range []struct {
		name  string
		t     malefiz.Tournament
		open  []*malefiz.Tournament
		want  locales.Key
		about string
	}{
		{"swiss", malefiz.Tournament{Name: "Cup", Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 4}}, nil, "", ""},
		{"no name", malefiz.Tournament{Name: "  ", Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 4}}, nil, locales.ErrTourName, ""},
		{"busy", malefiz.Tournament{Name: "Cup", Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 4}}, open, locales.ErrTourBusy, ""},
		{"table of 5", malefiz.Tournament{Name: "Cup", Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 5}}, nil, locales.ErrBadSeats, ""},
		{"format", malefiz.Tournament{Name: "Cup", Setup: malefiz.TournamentSetup{Format: "arena", TableSize: 2}}, nil, locales.ErrUnknownCommand, ""},
		{"rounds", malefiz.Tournament{Name: "Cup", Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 2, Rounds: 256}}, nil, locales.ErrTourRounds, ""},
		{"knockout rounds", malefiz.Tournament{Name: "Cup", Setup: malefiz.TournamentSetup{Format: "knockout", TableSize: 4, Rounds: 5}}, nil, locales.ErrTourRounds, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, refusalKey(CheckNewTournament(&tc.t, tc.open)))
		})
	}
}

func TestSetupRefusalSaysTheLimit(t *testing.T) {
	s := malefiz.TournamentSetup{Format: "swiss", TableSize: 4, Rounds: 3}
	entrants := []tournament.Entrant{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}
	err := tournament.Setup{Format: tournament.Swiss, TableSize: 4, Rounds: 3}.Validate(entrants)
	require.Error(t, err)
	ref := SetupRefusal(err, s, len(entrants))
	var r *Refusal
	require.ErrorAs(t, ref, &r)
	assert.Equal(t, locales.ErrTourRounds, r.Key)
	assert.Equal(t, "At most 2 rounds for 5 players at tables of 4; you asked for 3.", locales.Tr("en", r.Key, r.Args...))
}

func TestJoinAndLeave(t *testing.T) {
	tt := &malefiz.Tournament{Name: "Cup", Status: malefiz.TournamentSignUp, Setup: malefiz.TournamentSetup{MaxEntrants: 2},
		Entrants: []malefiz.TournamentEntrant{{UserID: "1"}}}
	assert.Equal(t, locales.ErrTourSignedUp, refusalKey(CheckJoin(tt, Actor{UserID: "1"})))
	assert.NoError(t, CheckJoin(tt, Actor{UserID: "2"}))
	assert.Equal(t, locales.ErrTourNotEntrant, refusalKey(CheckLeave(tt, Actor{UserID: "2"})))
	assert.NoError(t, CheckLeave(tt, Actor{UserID: "1"}))
	tt.Entrants = append(tt.Entrants, malefiz.TournamentEntrant{UserID: "2"})
	// A field limited below the most any tournament takes is a sign-up
	// the host closed (Close sign-up sets the limit to the field).
	assert.Equal(t, locales.ErrTourClosed, refusalKey(CheckJoin(tt, Actor{UserID: "3"})))
	full := &malefiz.Tournament{Name: "Cup", Status: malefiz.TournamentSignUp, Setup: malefiz.TournamentSetup{MaxEntrants: maxEntrants}}
	for i := range maxEntrants {
		full.Entrants = append(full.Entrants, malefiz.TournamentEntrant{UserID: fmt.Sprint(100 + i)})
	}
	assert.Equal(t, locales.ErrTourFull, refusalKey(CheckJoin(full, Actor{UserID: "3"})))
	tt.Status = malefiz.TournamentRunning
	assert.Equal(t, locales.ErrTourClosed, refusalKey(CheckJoin(tt, Actor{UserID: "3"})))
	assert.Equal(t, locales.ErrTourClosed, refusalKey(CheckLeave(tt, Actor{UserID: "1"})))
	assert.True(t, MayManage(tt, Actor{UserID: "9", Manager: true}))
	assert.False(t, MayManage(tt, Actor{UserID: "9"}))
}

func TestWithdrawalsAtTheThreshold(t *testing.T) {
	tt := &malefiz.Tournament{Setup: malefiz.TournamentSetup{ForfeitLimit: 2}, Entrants: []malefiz.TournamentEntrant{
		{UserID: "a", Forfeits: 2}, {UserID: "b", Forfeits: 1}, {UserID: "c", Forfeits: 3, Withdrawn: true}, {UserID: "d", Forfeits: 2}}}
	assert.Equal(t, []string{"a", "d"}, Withdrawals(tt))
	tt.Setup.ForfeitLimit = 0
	assert.Empty(t, Withdrawals(tt), "no threshold withdraws nobody")
}

func TestTableGameSeatsTheTable(t *testing.T) {
	tt := &malefiz.Tournament{ID: 7, GuildID: "g", ChannelID: "c", HostID: "h", Locale: "de",
		Setup:    malefiz.TournamentSetup{TableSize: 4, Computers: true, Rules: malefiz.HouseRules{SixAgain: true}},
		Entrants: []malefiz.TournamentEntrant{{UserID: "a", Name: "Ann"}, ComputerEntrant("easy", 1), {UserID: "b", Name: "Ben"}}}
	r := malefiz.TournamentRound{Number: 2}
	sg := TableGame(tt, r, malefiz.TournamentTable{Number: 3, Seats: []string{"b", "ai:easy:1", "a"}}, RollAuto, "hard")
	require.Len(t, sg.Seats, 4, "a computer fills the table of 3")
	assert.Equal(t, "b", sg.Seats[0].UserID)
	assert.Equal(t, "easy", sg.Seats[1].Computer)
	assert.Empty(t, sg.Seats[1].UserID)
	assert.Equal(t, "a", sg.Seats[2].UserID)
	assert.Equal(t, "hard", sg.Seats[3].Computer)
	assert.Equal(t, 4, sg.Options.Seats)
	assert.True(t, sg.Options.SixAgain)
	assert.True(t, sg.Threaded)
	assert.Equal(t, []any{int64(7), 2, 3}, []any{sg.TournamentID, sg.TournamentRound, sg.TournamentTable})

	tt.Setup.Computers = false
	sg = TableGame(tt, r, malefiz.TournamentTable{Number: 1, Seats: []string{"a", "b"}}, RollAuto, "hard")
	assert.Len(t, sg.Seats, 2, "no computer fills a table the host did not allow")
}

func TestFinalPostPingsThePodiumsPeople(t *testing.T) {
	tt := &malefiz.Tournament{Name: "Cup", Locale: "en", Status: malefiz.TournamentFinished,
		Setup:    malefiz.TournamentSetup{Format: "swiss", TableSize: 2, Rounds: 1},
		Entrants: []malefiz.TournamentEntrant{{UserID: "a", Order: 1}, {UserID: "b", Order: 2}, ComputerEntrant("easy", 1), {UserID: "d", Order: 4}},
		Rounds: []malefiz.TournamentRound{{Number: 1, Tables: []malefiz.TournamentTable{
			{Number: 1, Seats: []string{"a", "b"}, GameID: 1, GameStatus: malefiz.StatusFinished,
				Results: []malefiz.Result{{Player: "a", Place: 2}, {Player: "b", Place: 1, Won: true}}},
			{Number: 2, Seats: []string{"ai:easy:1", "d"}, GameID: 2, GameStatus: malefiz.StatusFinished,
				Results: []malefiz.Result{{Player: "ai:easy", Computer: true, Place: 1, Won: true}, {Player: "d", Place: 2}}},
		}}}}
	tt.Entrants[2].Order = 3
	msg, err := FinalPost(tt)
	require.NoError(t, err)
	assert.Contains(t, msg.Content, "<@b> wins")
	assert.ElementsMatch(t, []string{"b", "a"}, msg.Pings, "the podium's people: the winner, the computer, then a")
	card, err := StandingsCard(tt, nil)
	require.NoError(t, err)
	assert.Contains(t, card.Embeds[0].Title, locales.Tr("en", locales.TourFinalTitle, "Cup"))
	assert.Empty(t, card.Rows, "a finished tournament's card has no buttons")
}

func TestCardsOfABigFieldFitDiscord(t *testing.T) {
	tt := &malefiz.Tournament{ID: 1, Name: "Big Cup", Locale: "en", Status: malefiz.TournamentRunning,
		Setup: malefiz.TournamentSetup{Format: "swiss", TableSize: 4, Rounds: 1, Computers: true}}
	var round malefiz.TournamentRound
	round.Number = 1
	for i := range 256 {
		tt.Entrants = append(tt.Entrants, malefiz.TournamentEntrant{UserID: fmt.Sprint(100000000000000000 + i), Order: i + 1})
	}
	for i := range 64 {
		tb := malefiz.TournamentTable{Number: i + 1, GameID: int64(i + 1), GameStatus: malefiz.StatusRunning}
		for j := range 4 {
			tb.Seats = append(tb.Seats, tt.Entrants[4*i+j].UserID)
		}
		round.Tables = append(round.Tables, tb)
	}
	tt.Rounds = []malefiz.TournamentRound{round}
	card, err := StandingsCard(tt, nil)
	require.NoError(t, err)
	text := card.Embeds[0].Title + card.Embeds[0].Description
	assert.LessOrEqual(t, utf8.RuneCountInString(text), 4000, "Discord's limit on a message's text")
	assert.Contains(t, text, locales.Tr("en", locales.AltMore, 256-clippedAt(card.Embeds[0].Description)))
	post := RoundPost(tt, round, nil)
	assert.LessOrEqual(t, utf8.RuneCountInString(post.Content), 2000)
	tt.Status = malefiz.TournamentSignUp
	tt.Rounds = nil
	signUp := SignUpCard(tt)
	assert.LessOrEqual(t, utf8.RuneCountInString(signUp.Embeds[0].Description), 4000)
}

// clippedAt counts the standings' lines shown in a card's description.
func clippedAt(desc string) int {
	n := 0
	for _, l := range strings.Split(desc, "\n") {
		if strings.Contains(l, " — ") && strings.Contains(l, "point") {
			n++
		}
	}
	return n
}
