package table

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/tournament"
)

// A server's tournament as its table decides and shows it: who may sign
// up, leave, start, pause or cancel, what a round's tables are, and the
// cards the channel reads (the sign-up, then the standings), the round's
// opening post and the final announcement. Plain data in, plain data out:
// package tournament pairs and ranks, the game service loads and commits.

// The tournament's component actions: the custom ID's Game field is the
// tournament's ID.
const (
	ActTourJoin     Action = "tjoin"   // sign-up: sign up
	ActTourLeave    Action = "tleave"  // sign-up: leave the sign-up
	ActTourStart    Action = "tstart"  // sign-up: the host starts the first round
	ActTourCancel   Action = "tcancel" // sign-up or running: the host cancels it
	ActTourComputer Action = "tbot"    // sign-up: the host signs a computer up
	ActTourClose    Action = "tclose"  // sign-up: the host closes the sign-up
)

func init() {
	for _, a := range []Action{ActTourJoin, ActTourLeave, ActTourStart, ActTourCancel, ActTourComputer, ActTourClose} {
		knownActions[a] = true
	}
}

// MaxTournamentName is the longest name a tournament may have, in
// characters: it heads its cards and names its games' threads.
const MaxTournamentName = 60

// TournamentColor is the colour of a tournament's cards.
const TournamentColor = 0xD4A017

// CheckNewTournament says why t, about to be created, is refused: a name
// empty or too long, a format, table size or number of rounds that no
// field of entrants could play, or another tournament open in the
// channel (open lists the channel's open tournaments).
func CheckNewTournament(t *malefiz.Tournament, open []*malefiz.Tournament) error {
	if name := strings.TrimSpace(t.Name); name == "" || utf8.RuneCountInString(name) > MaxTournamentName {
		return Refuse(locales.ErrTourName)
	}
	if len(open) > 0 {
		return Refuse(locales.ErrTourBusy, open[0].Name)
	}
	s := t.Setup
	f := tournament.Format(s.Format)
	switch {
	case f != tournament.Swiss && f != tournament.RoundRobin && f != tournament.Knockout:
		return Refuse(locales.ErrUnknownCommand)
	case s.TableSize < 2 || s.TableSize > 4:
		return Refuse(locales.ErrBadSeats)
	}
	// The most rounds any field allows; the field's own limit is checked
	// at the start (SetupRefusal).
	limit := s.MaxEntrants
	if limit == 0 {
		limit = 256
	}
	if f == tournament.RoundRobin {
		limit = min(limit, tournament.MaxRoundRobinField)
	}
	if most := tournament.MaxRounds(f, limit, s.TableSize); s.Rounds > most {
		return Refuse(locales.ErrTourRounds, s.Rounds, most, limit, s.TableSize)
	}
	return nil
}

// SetupRefusal is the refusal a player reads for err, a setup refused by
// package tournament for the field signed up (a *tournament.SetupError);
// any other error is returned as it is.
func SetupRefusal(err error, s malefiz.TournamentSetup, field int) error {
	var se *tournament.SetupError
	if !errors.As(err, &se) {
		return err
	}
	switch {
	case errors.Is(se.Err, tournament.ErrTooFewEntrants):
		return Refuse(locales.ErrTourTooFew, se.Got, se.Limit)
	case errors.Is(se.Err, tournament.ErrTableLargerThanField):
		return Refuse(locales.ErrTourTableSize, se.Got, se.Limit)
	case errors.Is(se.Err, tournament.ErrFieldTooLarge):
		return Refuse(locales.ErrTourField, se.Got, se.Limit)
	case errors.Is(se.Err, tournament.ErrTooManyRounds):
		return Refuse(locales.ErrTourRounds, se.Got, se.Limit, field, s.TableSize)
	case errors.Is(se.Err, tournament.ErrTooFewRounds):
		return Refuse(locales.ErrTourFewRounds, se.Got, se.Limit)
	case errors.Is(se.Err, tournament.ErrDuplicateEntrant):
		return Refuse(locales.ErrTourSignedUp)
	case errors.Is(se.Err, tournament.ErrTableSize):
		return Refuse(locales.ErrBadSeats)
	}
	return Refuse(locales.ErrTourEntrantId)
}

// MayManage reports whether a may start, pause or cancel tournament t:
// its host, or someone who manages the server.
func MayManage(t *malefiz.Tournament, a Actor) bool {
	return a.UserID != "" && (a.UserID == t.HostID || a.Manager)
}

// CheckJoin says why a may not sign up for t now.
func CheckJoin(t *malefiz.Tournament, a Actor) error {
	switch {
	case t.Status != malefiz.TournamentSignUp:
		return Refuse(locales.ErrTourClosed, t.Name)
	case a.UserID == "":
		return Refuse(locales.ErrTourEntrantId)
	}
	if _, ok := t.Entrant(a.UserID); ok {
		return Refuse(locales.ErrTourSignedUp)
	}
	if SignUpClosed(t) {
		return Refuse(locales.ErrTourClosed, t.Name)
	}
	if limit := t.Setup.MaxEntrants; limit > 0 && len(t.Entrants) >= limit {
		return Refuse(locales.ErrTourFull)
	}
	return nil
}

// SignUpClosed reports whether the host closed t's sign-up: it takes no
// more entrants than it has, fewer than any tournament may (the store's
// 256).
func SignUpClosed(t *malefiz.Tournament) bool {
	return t.Status == malefiz.TournamentSignUp && t.Setup.MaxEntrants > 0 && t.Setup.MaxEntrants < maxEntrants &&
		len(t.Entrants) >= t.Setup.MaxEntrants
}

// maxEntrants is the most entrants any tournament takes (store.MaxEntrants).
const maxEntrants = 256

// CheckLeave says why a may not leave t's sign-up now.
func CheckLeave(t *malefiz.Tournament, a Actor) error {
	if t.Status != malefiz.TournamentSignUp {
		return Refuse(locales.ErrTourClosed, t.Name)
	}
	if _, ok := t.Entrant(a.UserID); !ok {
		return Refuse(locales.ErrTourNotEntrant)
	}
	return nil
}

// ComputerEntrant is the entrant a computer of level signs up as, the
// n-th computer of the tournament (from 1): its ID is unique in it.
func ComputerEntrant(level string, n int) malefiz.TournamentEntrant {
	return malefiz.TournamentEntrant{UserID: "ai:" + level + ":" + strconv.Itoa(n), Name: level, Computer: level}
}

// Computers counts t's computer entrants.
func Computers(t *malefiz.Tournament) int {
	n := 0
	for _, e := range t.Entrants {
		if e.Computer != "" {
			n++
		}
	}
	return n
}

// Withdrawals are the entrants of t to withdraw before its next round:
// those whose forfeits reached the host's threshold, in sign-up order.
func Withdrawals(t *malefiz.Tournament) []string {
	if t.Setup.ForfeitLimit <= 0 {
		return nil
	}
	var out []string
	for _, e := range t.Entrants {
		if !e.Withdrawn && e.Computer == "" && e.Forfeits >= t.Setup.ForfeitLimit {
			out = append(out, e.UserID)
		}
	}
	return out
}

// NextRound pairs t's next round (package tournament) in the store's
// terms, its deadline deadline (zero for none); the setup's refusal for
// the field as a player reads it (SetupRefusal), or tournament.ErrFinished
// once every round is played.
func NextRound(t *malefiz.Tournament, deadline time.Time) (malefiz.TournamentRound, error) {
	pt, err := tournament.FromKept(t)
	if err != nil {
		return malefiz.TournamentRound{}, err
	}
	r, err := pt.NextRound()
	if err != nil {
		return malefiz.TournamentRound{}, SetupRefusal(err, t.Setup, len(t.Entrants))
	}
	return malefiz.TournamentRound{Deadline: deadline, Tables: tournament.KeptTables(r)}, nil
}

// Finished reports whether t has played every round to its result.
func Finished(t *malefiz.Tournament) (bool, error) {
	pt, err := tournament.FromKept(t)
	if err != nil {
		return false, err
	}
	return pt.Finished(), nil
}

// RoundCount is how many rounds t plays for its field.
func RoundCount(t *malefiz.Tournament) int {
	s := tournament.Setup{Format: tournament.Format(t.Setup.Format), TableSize: t.Setup.TableSize, Rounds: t.Setup.Rounds}
	return s.RoundCount(len(t.Entrants))
}

// TableGame is the game of round r's table of t (its entrants seated in
// order, computers of level filling the table when the host allowed it), a lobby
// of exactly its seats that the host's Start opens at once, in a thread
// of its own: the same path as every game from there.
func TableGame(t *malefiz.Tournament, r malefiz.TournamentRound, table malefiz.TournamentTable, roll, level string) *malefiz.Game {
	sg := &malefiz.Game{GuildID: t.GuildID, ChannelID: t.ChannelID, HostID: t.HostID, Status: malefiz.StatusLobby,
		Locale: t.Locale, Threaded: true, TournamentID: t.ID, TournamentRound: r.Number, TournamentTable: table.Number}
	for _, id := range table.Seats {
		e, _ := t.Entrant(id)
		if e.Computer != "" {
			sg.Seats = append(sg.Seats, malefiz.Seat{Computer: e.Computer, Name: e.Computer})
			continue
		}
		sg.Seats = append(sg.Seats, malefiz.Seat{UserID: e.UserID, Name: e.Name})
	}
	if t.Setup.Computers {
		for len(sg.Seats) < t.Setup.TableSize {
			sg.Seats = append(sg.Seats, malefiz.Seat{Computer: level, Name: level})
		}
	}
	rules := t.Setup.Rules
	if rules.Roll != "" {
		roll = rules.Roll
	}
	sg.Options = malefiz.Options{Seats: len(sg.Seats), TurnTimeout: t.Setup.TurnTimeout, Roll: roll,
		SixAgain: rules.SixAgain, SafeRow2: rules.SafeRow2}
	return sg
}

// OpenTable fills the lobby of a tournament table's game (TableGame):
// its seats as they are, recorded.
func (t *Table) OpenTable() {
	for _, s := range t.Game.Seats {
		if s.Computer != "" {
			t.record(malefiz.EventJoin, "", "", "ai:"+s.Computer)
		} else {
			t.record(malefiz.EventJoin, s.UserID, "", "")
		}
	}
	t.recolor()
	t.Wake = true
}

// StartTable starts a tournament table's game, its lobby posted: as the
// host's Start of a lobby (the thread, the players added, the first
// turn), by the tournament's host, whose Start the service asks.
func (t *Table) StartTable(first int) error {
	switch {
	case t.Game.TournamentID == 0:
		return Refuse(locales.ErrNotALobby)
	case t.Game.Status != malefiz.StatusLobby:
		return nil // started already (by its timer, or by another process)
	}
	return t.Start(Actor{UserID: t.Game.HostID}, first)
}

// entrantName is how a card names entrant e: a person by mention (which
// pings nobody: a card's Pings are empty), a computer by its level.
func entrantName(lang string, e malefiz.TournamentEntrant) string {
	if e.Computer != "" {
		return "🤖 " + tr(lang, locales.Computer, tr(lang, locales.Level(e.Computer)))
	}
	return Mention(e.UserID)
}

// nameOf is entrantName of the entrant id of t.
func nameOf(t *malefiz.Tournament, lang, id string) string {
	e, ok := t.Entrant(id)
	if !ok {
		return id
	}
	return entrantName(lang, e)
}

// setupLine is the line saying t's format, table size and rounds.
func setupLine(t *malefiz.Tournament, lang string) string {
	rounds := tr(lang, locales.TourRoundsAuto)
	if t.Setup.Rounds > 0 {
		rounds = tr(lang, locales.TourRounds, t.Setup.Rounds)
	}
	return tr(lang, locales.TourSetup, tr(lang, locales.Key("tour.format."+t.Setup.Format)), t.Setup.TableSize, rounds)
}

// SignUpCard is t's card during its sign-up: the setup, when it starts,
// who signed up, and Join, Leave and the host's buttons.
func SignUpCard(t *malefiz.Tournament) Message {
	lang := t.Locale
	lines := []string{setupLine(t, lang)}
	if t.Setup.Rated {
		lines = append(lines, tr(lang, locales.TourRated))
	}
	if t.Setup.StartAt.IsZero() {
		lines = append(lines, tr(lang, locales.TourStartsByHost))
	} else {
		lines = append(lines, tr(lang, locales.TourStartsAt, fmt.Sprintf("<t:%d:R>", t.Setup.StartAt.Unix())))
	}
	closed := SignUpClosed(t)
	if closed {
		lines = append(lines, tr(lang, locales.TourSignupClosed))
	}
	lines = append(lines, "")
	if len(t.Entrants) == 0 {
		lines = append(lines, tr(lang, locales.TourNoEntrants))
	} else {
		lines = append(lines, tr(lang, locales.TourEntrants, len(t.Entrants)))
		var names []string
		for _, e := range t.Entrants {
			names = append(names, entrantName(lang, e))
		}
		lines = append(lines, strings.Join(clipLines(lang, names, standingsBudget), ", "))
	}
	cid := func(a Action) string { return CustomID{Action: a, Game: t.ID}.String() }
	var buttons []Button
	if !closed {
		buttons = append(buttons, Button{Label: tr(lang, locales.ButtonJoin), Style: Success, CustomID: cid(ActTourJoin)})
	}
	buttons = append(buttons, Button{Label: tr(lang, locales.ButtonLeave), Style: Secondary, CustomID: cid(ActTourLeave)},
		Button{Label: tr(lang, locales.ButtonStart), Style: Primary, CustomID: cid(ActTourStart)})
	if !closed {
		if t.Setup.Computers {
			buttons = append(buttons, Button{Label: tr(lang, locales.ButtonTourComputer), Style: Secondary, CustomID: cid(ActTourComputer)})
		}
		buttons = append(buttons, Button{Label: tr(lang, locales.ButtonTourClose), Style: Secondary, CustomID: cid(ActTourClose)})
	}
	buttons = append(buttons, Button{Label: tr(lang, locales.ButtonCancel), Style: Danger, CustomID: cid(ActTourCancel)})
	return Message{Embeds: []Embed{{Title: "🏆 " + t.Name, Description: JoinLines(lines), Color: TournamentColor}},
		Rows: buttonRows(buttons)}
}

// StandingsCard is t's card once it has started: the standings, then the
// current round's tables with links to their threads (threads, by game
// ID, those known), the host's Cancel while it runs.
func StandingsCard(t *malefiz.Tournament, threads map[int64]string) (Message, error) {
	lang := t.Locale
	pt, err := tournament.FromKept(t)
	if err != nil {
		return Message{}, err
	}
	standings, err := pt.Standings()
	if err != nil {
		return Message{}, err
	}
	title := tr(lang, locales.TourRoundTitle, t.Name, len(t.Rounds), RoundCount(t))
	if t.Status == malefiz.TournamentFinished {
		title = tr(lang, locales.TourFinalTitle, t.Name)
	}
	lines := []string{setupLine(t, lang)}
	if t.Status == malefiz.TournamentPaused {
		lines = append(lines, tr(lang, locales.TourPaused))
	}
	lines = append(lines, "")
	var ranks []string
	for _, s := range standings {
		line := tr(lang, locales.TourStanding, s.Rank, nameOf(t, lang, s.Entrant.ID), tr(lang, locales.TourPoints, s.Points))
		if s.Entrant.Withdrawn {
			line += " (" + tr(lang, locales.TourWithdrawn) + ")"
		}
		ranks = append(ranks, line)
	}
	lines = append(lines, clipLines(lang, ranks, standingsBudget)...)
	if n := len(t.Rounds); n > 0 && t.Status.Open() {
		lines = append(lines, "")
		lines = append(lines, clipLines(lang, roundLines(t, t.Rounds[n-1], lang, threads), tablesBudget)...)
	}
	msg := Message{Embeds: []Embed{{Title: "🏆 " + title, Description: JoinLines(lines), Color: TournamentColor}}}
	if t.Status.Open() {
		msg.Rows = buttonRows([]Button{{Label: tr(lang, locales.ButtonCancel), Style: Danger,
			CustomID: CustomID{Action: ActTourCancel, Game: t.ID}.String()}})
	}
	return msg, nil
}

// roundLines are round r's tables, one a line, each with its thread's
// link when known, else its game's number.
func roundLines(t *malefiz.Tournament, r malefiz.TournamentRound, lang string, threads map[int64]string) []string {
	var lines []string
	for _, table := range r.Tables {
		var names []string
		for _, id := range table.Seats {
			names = append(names, nameOf(t, lang, id))
		}
		if table.Bye() {
			lines = append(lines, tr(lang, locales.TourBye, names[0]))
			continue
		}
		line := tr(lang, locales.TourTable, table.Number, strings.Join(names, ", "))
		switch {
		case threads[table.GameID] != "":
			line += " · <#" + threads[table.GameID] + ">"
		case table.GameID != 0:
			line += " · #" + strconv.FormatInt(table.GameID, 10)
		}
		if table.GameStatus == malefiz.StatusFinished || table.GameStatus == malefiz.StatusCancelled {
			line += " ✅"
		}
		lines = append(lines, line)
	}
	return lines
}

// The budgets of a card's and a post's lists, in characters: Discord
// takes at most 4,000 in a message's text displays, and a field of 256
// has 256 lines of standings and 64 tables.
const (
	standingsBudget = 2200
	tablesBudget    = 1400
	postBudget      = 1600
)

// clipLines is lines, as many as budget characters hold, then "and N
// more" for the rest.
func clipLines(lang string, lines []string, budget int) []string {
	used := 0
	for i, l := range lines {
		used += utf8.RuneCountInString(l) + 1
		if used > budget {
			return append(lines[:i:i], "… "+tr(lang, locales.AltMore, len(lines)-i))
		}
	}
	return lines
}

// RoundPost is the post that opens round r of t: its tables (names, no
// pings: each game pings its players once, in its thread), the round's
// end, and who was withdrawn for their forfeits before it.
func RoundPost(t *malefiz.Tournament, r malefiz.TournamentRound, withdrawn []string) Message {
	lang := t.Locale
	games := 0
	for _, table := range r.Tables {
		if !table.Bye() {
			games++
		}
	}
	lines := []string{tr(lang, locales.TourRoundOpen, games, t.Name, r.Number)}
	for _, id := range withdrawn {
		lines = append(lines, tr(lang, locales.TourForfeitOut, nameOf(t, lang, id)))
	}
	lines = append(lines, clipLines(lang, roundLines(t, r, lang, nil), postBudget)...)
	if !r.Deadline.IsZero() {
		lines = append(lines, tr(lang, locales.TourRoundDeadline, fmt.Sprintf("<t:%d:R>", r.Deadline.Unix())))
	}
	return Message{Content: JoinLines(lines)}
}

// FinalPost announces t's winner and pings its podium, once: the
// standings' first three people.
func FinalPost(t *malefiz.Tournament) (Message, error) {
	lang := t.Locale
	pt, err := tournament.FromKept(t)
	if err != nil {
		return Message{}, err
	}
	standings, err := pt.Standings()
	if err != nil || len(standings) == 0 {
		return Message{}, err
	}
	var podium, pings []string
	for _, s := range standings[:min(3, len(standings))] {
		podium = append(podium, nameOf(t, lang, s.Entrant.ID))
		if e, ok := t.Entrant(s.Entrant.ID); ok && e.Computer == "" {
			pings = append(pings, e.UserID)
		}
	}
	return Message{Content: tr(lang, locales.TourWon, t.Name, podium[0], strings.Join(podium, ", ")), Pings: pings}, nil
}

// CancelledPost says that t was cancelled.
func CancelledPost(t *malefiz.Tournament) Message {
	return Text(tr(t.Locale, locales.TourCancelled, t.Name))
}

// TournamentCard is t's card as it stands: the sign-up's, then the
// standings'.
func TournamentCard(t *malefiz.Tournament, threads map[int64]string) (Message, error) {
	if t.Status == malefiz.TournamentSignUp {
		return SignUpCard(t), nil
	}
	if t.Status == malefiz.TournamentCancelled {
		return CancelledPost(t), nil
	}
	return StandingsCard(t, threads)
}

// PlayingEntrants are the entrants of t not withdrawn.
func PlayingEntrants(t *malefiz.Tournament) []string {
	var out []string
	for _, e := range t.Entrants {
		if !e.Withdrawn {
			out = append(out, e.UserID)
		}
	}
	return slices.Clip(out)
}
