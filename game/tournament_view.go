package game

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/malefiz-discord/malefiz/tournament"
)

// TournamentBoard is a tournament as the Activity shows it, read for one
// viewer in their language: plain data, every name already written.
type TournamentBoard struct {
	ID     int64
	Name   string
	Format string // "swiss", "round-robin" or "knockout"
	Status malefiz.TournamentStatus
	// Setup is the line of the card: the format, the table size, the
	// rounds, in the viewer's words.
	Setup string
	// Round is the number of the round being played (the last opened),
	// 0 before the first; Rounds how many the tournament plays.
	Round, Rounds int
	// You: the viewer is an entrant.
	You       bool
	Standings []TournamentLine
	// Played are the rounds opened so far, the first first; the last is
	// the current one while the tournament runs.
	Played []TournamentRoundView
}

// TournamentLine is one entrant's line of the standings.
type TournamentLine struct {
	Rank   int
	Name   string
	Points int
	// TieBreak is the format's first tie-break: Buchholz (Swiss),
	// Sonneborn–Berger (round robin), the round reached (knockout).
	TieBreak  float64
	Played    int // tables played to their result
	Withdrawn bool
	Out       bool // knockout: no longer in the bracket
	You       bool // the viewer's own line
}

// TournamentRoundView is one round's tables.
type TournamentRoundView struct {
	Number int
	Done   bool // every table has its result
	Tables []TournamentTableView
}

// TournamentTableView is one table of a round: who sits there, in seat
// order, and how its game stands.
type TournamentTableView struct {
	Number int
	GameID int64 // 0 for a bye, and until the game is opened
	Bye    bool
	// State is "waiting" (no game yet), "playing", "finished" or
	// "cancelled"; a bye is "finished".
	State string
	// ToMove is the name of the player whose turn it is, while playing.
	ToMove string
	Seats  []TournamentSeatView
	You    bool // the viewer sits at the table
}

// TournamentSeatView is an entrant at a table.
type TournamentSeatView struct {
	Name  string
	Color string // the game's colour of the seat, "" before the game
	// Place is the entrant's place at the finished table (1 the
	// winner), 0 before; Points what the place scored.
	Place, Points int
	// Through (knockout): the winner of a finished table, who goes on.
	Through   bool
	Forfeited bool // left the game: resigned, or timed out
	ToMove    bool // their turn, while the game is played
	You       bool
}

// TournamentHere is the tournament the Activity opened in channel of
// guild shows, read for userID in lang: the channel's open tournament,
// else, in the thread of a tournament's table (open or finished), that
// game's tournament. None is nil, no error.
func (s *Service) TournamentHere(ctx context.Context, guild, channel, userID, lang string) (*TournamentBoard, error) {
	if guild == "" || channel == "" {
		return nil, nil
	}
	tdb, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	open, err := tdb.OpenTournaments(ctx, guild, channel)
	if err != nil {
		return nil, err
	}
	id := int64(0)
	if len(open) > 0 {
		id = open[0].ID
	} else if id, err = s.threadTournament(ctx, guild, channel); err != nil || id == 0 {
		return nil, err
	}
	return s.TournamentBoard(ctx, id, guild, userID, lang)
}

// threadTournament is the tournament whose table's game plays in thread
// channel, 0 for none.
func (s *Service) threadTournament(ctx context.Context, guild, channel string) (int64, error) {
	games, err := s.db.OpenGames(ctx, guild, channel)
	if err != nil {
		return 0, err
	}
	done, err := s.db.FinishedGames(ctx, guild, channel, 1)
	if err != nil {
		return 0, err
	}
	for _, sg := range append(games, done...) {
		if sg.ThreadID == channel && sg.TournamentID != 0 {
			return sg.TournamentID, nil
		}
	}
	return 0, nil
}

// TournamentBoard reads tournament id for userID of guild in lang. A
// tournament of another guild and one that does not exist are refused
// alike, as a game of another guild is (the refusal names no tournament).
func (s *Service) TournamentBoard(ctx context.Context, id int64, guild, userID, lang string) (*TournamentBoard, error) {
	tdb, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	t, err := tdb.Tournament(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, tournamentNotHere(id, "no such tournament")
	case err != nil:
		return nil, err
	case t.GuildID != guild || guild == "":
		return nil, tournamentNotHere(id, "of another guild")
	}
	pt, err := tournament.FromKept(t)
	if err != nil {
		return nil, err
	}
	standings, err := pt.Standings()
	if err != nil {
		return nil, err
	}
	names := entrantNames(t, lang)
	b := &TournamentBoard{ID: t.ID, Name: t.Name, Format: t.Setup.Format, Status: t.Status,
		Setup: setupLine(t, lang), Round: len(t.Rounds), Rounds: table.RoundCount(t),
		Standings: []TournamentLine{}, Played: []TournamentRoundView{}}
	_, b.You = t.Entrant(userID)
	for _, st := range standings {
		line := TournamentLine{Rank: st.Rank, Name: names[st.Entrant.ID], Points: st.Points, Played: st.Played,
			Withdrawn: st.Entrant.Withdrawn, Out: st.Out, You: st.Entrant.ID == userID}
		switch tournament.Format(t.Setup.Format) {
		case tournament.Swiss:
			line.TieBreak = st.Buchholz
		case tournament.RoundRobin:
			line.TieBreak = st.SonnebornBerger
		case tournament.Knockout:
			line.TieBreak = float64(st.Reached)
		}
		b.Standings = append(b.Standings, line)
	}
	knockout := tournament.Format(t.Setup.Format) == tournament.Knockout
	for i, r := range t.Rounds {
		rv := TournamentRoundView{Number: r.Number, Done: true}
		for j, kt := range r.Tables {
			tv, err := s.tableView(ctx, guild, kt, pt.Rounds[i].Tables[j], names, userID, lang, knockout)
			if err != nil {
				return nil, err
			}
			rv.Done = rv.Done && tv.State != "playing" && tv.State != "waiting"
			rv.Tables = append(rv.Tables, tv)
		}
		b.Played = append(b.Played, rv)
	}
	return b, nil
}

// tournamentNotHere is the refusal of a tournament a person may not read
// from where they are: none and another guild's read alike ("There is no
// tournament #N on this server"); the error's text, which is logged, tells
// them apart.
func tournamentNotHere(id int64, why string) error {
	return fmt.Errorf("tournament %d not here: %s: %w", id, why, table.Refuse(locales.ErrTourUnknown, id))
}

// tableView is kept table kt (pt in package tournament's terms, with its
// result) as the viewer reads it; a game being played is read for whose
// turn it is.
func (s *Service) tableView(ctx context.Context, guild string, kt malefiz.TournamentTable, pt tournament.Table,
	names map[string]string, userID, lang string, knockout bool) (TournamentTableView, error) {
	tv := TournamentTableView{Number: kt.Number, GameID: kt.GameID, Bye: kt.Bye(), State: "waiting"}
	for i, id := range kt.Seats {
		seat := TournamentSeatView{Name: names[id], You: id == userID}
		if i < len(kt.Results) {
			seat.Color = kt.Results[i].Color
		}
		tv.You = tv.You || seat.You
		tv.Seats = append(tv.Seats, seat)
	}
	switch {
	case kt.Bye():
		tv.State = "finished"
		tv.Seats[0].Place, tv.Seats[0].Points, tv.Seats[0].Through = 1, tournament.ByePoints, knockout
		return tv, nil
	case kt.GameStatus == malefiz.StatusCancelled:
		tv.State = "cancelled"
	case kt.GameStatus == malefiz.StatusFinished:
		tv.State = "finished"
	case kt.GameID != 0:
		tv.State = "playing"
	}
	if r := pt.Result; r != nil {
		for place, id := range r.Places {
			i := slices.Index(kt.Seats, id)
			if i < 0 {
				continue
			}
			tv.Seats[i].Place = place + 1
			tv.Seats[i].Points = tournament.Points(place+1, len(kt.Seats))
			tv.Seats[i].Forfeited = slices.Contains(r.Forfeited, id)
			tv.Seats[i].Through = knockout && place == 0 && !tv.Seats[i].Forfeited
		}
	}
	if tv.State != "playing" {
		return tv, nil
	}
	t, err := s.Viewed(ctx, kt.GameID, guild)
	if err != nil {
		return tv, err
	}
	for i := range tv.Seats { // the game seats the table's entrants first, in order
		if i < len(t.Game.Seats) {
			tv.Seats[i].Color = t.Game.Seats[i].Color
		}
	}
	if t.State == nil || t.State.Over() {
		return tv, nil
	}
	turn := t.State.Turn()
	for j := range t.Game.Seats {
		st := &t.Game.Seats[j]
		if table.SeatColor(st) != turn {
			continue
		}
		tv.ToMove = table.SeatName(lang, st)
		for i := range tv.Seats {
			tv.Seats[i].ToMove = tv.Seats[i].Color == st.Color
		}
	}
	return tv, nil
}

// setupLine says t's format, table size and rounds in lang, as its card
// does.
func setupLine(t *malefiz.Tournament, lang string) string {
	rounds := locales.Tr(lang, locales.TourRoundsAuto)
	if t.Setup.Rounds > 0 {
		rounds = locales.Tr(lang, locales.TourRounds, t.Setup.Rounds)
	}
	return locales.Tr(lang, locales.TourSetup, locales.Tr(lang, locales.Key("tour.format."+t.Setup.Format)), t.Setup.TableSize, rounds)
}

// entrantNames are the names of t's entrants as the board writes them: a
// person by the name they signed up with, a computer by its level, and
// by its number when the tournament has more than one.
func entrantNames(t *malefiz.Tournament, lang string) map[string]string {
	out := make(map[string]string, len(t.Entrants))
	computers := table.Computers(t)
	n := 0
	for _, e := range t.Entrants {
		if e.Computer == "" {
			out[e.UserID] = e.Name
			continue
		}
		n++
		out[e.UserID] = table.SeatName(lang, &malefiz.Seat{Computer: e.Computer})
		if computers > 1 {
			out[e.UserID] += " " + strconv.Itoa(n)
		}
	}
	return out
}
