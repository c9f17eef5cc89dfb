package game

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/malefiz-discord/malefiz/tournament"
)

// Tournaments is what the service reads and writes of a server's
// tournaments (see store/tournament.go); *store.DB implements it.
type Tournaments interface {
	CreateTournament(ctx context.Context, t *malefiz.Tournament, created func(id int64) ([]store.Effect, error)) error
	Tournament(ctx context.Context, id int64) (*malefiz.Tournament, error)
	OpenTournaments(ctx context.Context, guildID, channelID string) ([]*malefiz.Tournament, error)
	JoinTournament(ctx context.Context, t *malefiz.Tournament, e malefiz.TournamentEntrant, effects ...store.Effect) error
	LeaveTournament(ctx context.Context, t *malefiz.Tournament, userID string, effects ...store.Effect) error
	WithdrawEntrant(ctx context.Context, t *malefiz.Tournament, userID string, effects ...store.Effect) error
	StartTournament(ctx context.Context, t *malefiz.Tournament, first malefiz.TournamentRound, effects ...store.Effect) error
	OpenRound(ctx context.Context, t *malefiz.Tournament, r malefiz.TournamentRound, effects ...store.Effect) error
	PauseTournament(ctx context.Context, t *malefiz.Tournament, pause bool, effects ...store.Effect) error
	FinishTournament(ctx context.Context, t *malefiz.Tournament, effects ...store.Effect) error
	CancelTournament(ctx context.Context, t *malefiz.Tournament, effects ...store.Effect) error
	NoteTournament(ctx context.Context, t *malefiz.Tournament, effects ...store.Effect) error
	CloseSignUp(ctx context.Context, t *malefiz.Tournament, effects ...store.Effect) error
	ClaimDueTournaments(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]int64, error)
	NextTournamentWake(ctx context.Context) (time.Time, bool, error)
}

var _ Tournaments = (*store.DB)(nil)

// RoundTurns is how many turns of the setup's time a round lasts at most:
// its deadline is this many turn timeouts after it opens. A game of four
// takes some 15 turns a player; a round leaves every player time for 60
// of theirs. Games still being played at the deadline end without a
// result, forfeited by their table.
const RoundTurns = 60

// NewTournament asks for a new tournament's sign-up in a channel.
type NewTournament struct {
	Guild, Channel string
	User           table.Actor // opens it and hosts it
	Lang           string      // the language of what the channel reads
	Name           string
	Setup          malefiz.TournamentSetup
	// Via is the interaction answered with the sign-up card, which
	// becomes the tournament's card; nil: the card is posted.
	Via *Via
}

// TournamentOutcome is what a tournament command did: the tournament as
// committed and the answer for whoever acted. Its effects are in the
// tournament's outbox, which the sender's loop delivers.
type TournamentOutcome struct {
	Tournament *malefiz.Tournament
	Reply      *table.Reply
	Committed  bool
}

// TournamentCommand is one action on a tournament by a person: who acts,
// from which server and channel (a click names the tournament by its
// custom ID, checked against where it is clicked), and what they ask.
type TournamentCommand struct {
	Tournament     int64
	User           table.Actor
	Guild, Channel string
	Action         TournamentAction
}

// TournamentAction is what a tournament command asks: one of the types
// below.
type TournamentAction interface{ tournamentAction() }

// TournamentJoin signs the user up.
type TournamentJoin struct{}

// TournamentLeave takes the user off the sign-up.
type TournamentLeave struct{}

// TournamentStart starts the first round now (the host, or Manage
// Server).
type TournamentStart struct{}

// TournamentCloseSignUp closes the sign-up (the host): nobody else may
// join; the tournament waits for its start time or the host's Start.
type TournamentCloseSignUp struct{}

// TournamentAddComputer signs a computer of Level up (the host, when the
// setup allows computers).
type TournamentAddComputer struct{ Level string }

// TournamentRemove takes User off the sign-up, or withdraws them once the
// tournament runs (the host).
type TournamentRemove struct{ User string }

// TournamentPause pauses the running tournament, or with Resume resumes
// it (the host): a paused tournament opens no round; its games go on.
type TournamentPause struct{ Resume bool }

// TournamentCancel ends the tournament without a result (the host); its
// games still open end without a result too.
type TournamentCancel struct{}

func (TournamentJoin) tournamentAction()        {}
func (TournamentLeave) tournamentAction()       {}
func (TournamentStart) tournamentAction()       {}
func (TournamentAddComputer) tournamentAction() {}
func (TournamentCloseSignUp) tournamentAction() {}
func (TournamentRemove) tournamentAction()      {}
func (TournamentPause) tournamentAction()       {}
func (TournamentCancel) tournamentAction()      {}

// tournaments is the store of tournaments, or a refusal when there is none.
func (s *Service) tournamentStore() (Tournaments, error) {
	if s.tdb == nil {
		return nil, errors.New("game: no tournament store")
	}
	return s.tdb, nil
}

// tournamentLock is the key of tournament id's lock: below the rematches'
// (−game ID) and above the servers' (guildLock).
func tournamentLock(id int64) int64 { return -(1 << 61) - id }

// OpenTournament opens a tournament's sign-up as n asks: refused when its
// name or setup is, or the channel has another tournament open. The
// tournament and its card are committed together: answered by an
// interaction (n.Via), the Reply is the card, recorded as the
// tournament's once Discord has made it; else the card is posted.
func (s *Service) OpenTournament(ctx context.Context, n NewTournament) (*TournamentOutcome, error) {
	tdb, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	if n.Guild == "" || n.Channel == "" {
		return nil, table.Refuse(locales.ErrNoGameHere)
	}
	unlock := s.locks.Lock(guildLock(n.Guild))
	defer unlock()
	open, err := tdb.OpenTournaments(ctx, n.Guild, n.Channel)
	if err != nil {
		return nil, err
	}
	t := &malefiz.Tournament{GuildID: n.Guild, ChannelID: n.Channel, HostID: n.User.UserID, Name: strings.TrimSpace(n.Name),
		Setup: n.Setup, Status: malefiz.TournamentSignUp, Locale: n.Lang}
	if err := table.CheckNewTournament(t, open); err != nil {
		return nil, err
	}
	err = tdb.CreateTournament(ctx, t, func(id int64) ([]store.Effect, error) {
		t.ID = id
		defer func() { t.ID = 0 }()
		e := table.Effect{Kind: table.Adopt, Record: malefiz.RoleTournament}
		if n.Via == nil {
			card := table.SignUpCard(t)
			e = table.Effect{Kind: table.Post, Message: &card, Record: malefiz.RoleTournament}
		}
		se, err := s.tournamentEffect(n.Via, t, e)
		return []store.Effect{se}, err
	})
	if err != nil {
		return nil, err
	}
	s.out.Nudge()
	s.nudgeTournaments()
	out := &TournamentOutcome{Tournament: t, Committed: true}
	if n.Via != nil {
		out.Reply = &table.Reply{Kind: table.Public, Message: table.SignUpCard(t)}
	}
	return out, nil
}

// tournamentEffect is e, an effect of tournament t, as its outbox keeps
// it: laid out as a game's in the tournament's channel.
func (s *Service) tournamentEffect(via *Via, t *malefiz.Tournament, e table.Effect) (store.Effect, error) {
	sg := &malefiz.Game{GuildID: t.GuildID, ChannelID: t.ChannelID, Locale: t.Locale}
	return s.layout.Effect(via, sg, e).Stored()
}

// cardEdit is the edit of t's card to msg.
func (s *Service) cardEdit(t *malefiz.Tournament, msg table.Message) (store.Effect, error) {
	return s.tournamentEffect(nil, t, table.Effect{Kind: table.Edit, Message: &msg, Target: malefiz.RoleTournament, RepostIfGone: true})
}

// tournamentPost is a post of msg in t's channel.
func (s *Service) tournamentPost(t *malefiz.Tournament, msg table.Message) (store.Effect, error) {
	return s.tournamentEffect(nil, t, table.Effect{Kind: table.Post, Message: &msg})
}

// ChannelTournament returns the open tournament of a channel, or the
// refusal that there is none.
func (s *Service) ChannelTournament(ctx context.Context, guild, channel string) (*malefiz.Tournament, error) {
	tdb, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	open, err := tdb.OpenTournaments(ctx, guild, channel)
	if err != nil {
		return nil, err
	}
	if len(open) == 0 {
		return nil, table.Refuse(locales.ErrTourNone)
	}
	return tdb.Tournament(ctx, open[0].ID)
}

// Standings answers /malefiz tournament standings: the card of the
// channel's open tournament as it stands, privately.
func (s *Service) Standings(ctx context.Context, guild, channel string) (*table.Reply, error) {
	t, err := s.ChannelTournament(ctx, guild, channel)
	if err != nil {
		return nil, err
	}
	msg, err := table.TournamentCard(t, threads(t))
	if err != nil {
		return nil, err
	}
	msg.Rows = nil // a private copy: the buttons are on the card
	return &table.Reply{Kind: table.Private, Message: msg}, nil
}

// ChangeTournament runs cmd on its tournament: the tournament's lock, one
// read, the check of where it comes from and who may, one write with its
// effects. An error changes nothing.
func (s *Service) ChangeTournament(ctx context.Context, cmd TournamentCommand) (*TournamentOutcome, error) {
	tdb, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	unlock := s.locks.Lock(tournamentLock(cmd.Tournament))
	defer unlock()
	t, err := tdb.Tournament(ctx, cmd.Tournament)
	if errors.Is(err, store.ErrNotFound) {
		return nil, table.Refuse(locales.ErrForeignButton)
	} else if err != nil {
		return nil, err
	}
	if t.GuildID != cmd.Guild || t.ChannelID != cmd.Channel {
		// A forged or foreign button: the tournament named is not
		// this channel's.
		return nil, table.Refuse(locales.ErrForeignButton)
	}
	a := cmd.User
	out := &TournamentOutcome{Tournament: t, Committed: true}
	// answer is the reply with t's card as it is now: in place for a
	// click, else privately with edit the card's change.
	card := func(private locales.Key, args ...any) (*table.Reply, []store.Effect, error) {
		msg, err := table.TournamentCard(t, threads(t))
		if err != nil {
			return nil, nil, err
		}
		if a.Click {
			return &table.Reply{Kind: table.Update, Message: msg}, nil, nil
		}
		edit, err := s.cardEdit(t, msg)
		return &table.Reply{Kind: table.Private, Message: table.Text(locales.Tr(a.Lang, private, args...))}, []store.Effect{edit}, err
	}
	// write runs a store write of t whose card edit is made from t as
	// changed (apply changes the copy the edit is made of).
	write := func(apply func(), do func(effects ...store.Effect) error, private locales.Key, args ...any) error {
		before := *t
		before.Entrants = append([]malefiz.TournamentEntrant(nil), t.Entrants...)
		apply()
		reply, effects, err := card(private, args...)
		if err != nil {
			return err
		}
		*t = before
		if err := do(effects...); err != nil {
			return err
		}
		out.Reply = reply
		return nil
	}
	manage := func() error {
		if !table.MayManage(t, a) {
			return table.Refuse(locales.ErrTourOnlyHost)
		}
		return nil
	}
	switch act := cmd.Action.(type) {
	case TournamentJoin:
		if err := table.CheckJoin(t, a); err != nil {
			return nil, err
		}
		e := malefiz.TournamentEntrant{UserID: a.UserID, Name: a.Name, Rating: s.rating(ctx, t.GuildID, a.UserID)}
		err = write(func() { t.Entrants = append(t.Entrants, e) },
			func(effects ...store.Effect) error { return tdb.JoinTournament(ctx, t, e, effects...) }, locales.TourJoined, t.Name)
	case TournamentLeave:
		if err := table.CheckLeave(t, a); err != nil {
			return nil, err
		}
		err = write(func() { t.Entrants = without(t.Entrants, a.UserID) },
			func(effects ...store.Effect) error { return tdb.LeaveTournament(ctx, t, a.UserID, effects...) }, locales.TourLeft, t.Name)
	case TournamentAddComputer:
		if err := manage(); err != nil {
			return nil, err
		}
		if !t.Setup.Computers {
			return nil, table.Refuse(locales.ErrTourOnlyHost)
		}
		level := act.Level
		if level == "" {
			level = s.defaults.Level
		}
		n := table.Computers(t) + 1
		for _, taken := t.Entrant(table.ComputerEntrant(level, n).UserID); taken; _, taken = t.Entrant(table.ComputerEntrant(level, n).UserID) {
			n++ // a computer taken off left its number
		}
		e := table.ComputerEntrant(level, n)
		e.Rating = s.rating(ctx, t.GuildID, "ai:"+level)
		if err := table.CheckJoin(t, table.Actor{UserID: e.UserID}); err != nil {
			return nil, err
		}
		err = write(func() { t.Entrants = append(t.Entrants, e) },
			func(effects ...store.Effect) error { return tdb.JoinTournament(ctx, t, e, effects...) }, locales.LobbyComputerAdded)
	case TournamentCloseSignUp:
		if err := manage(); err != nil {
			return nil, err
		}
		if t.Status != malefiz.TournamentSignUp || table.SignUpClosed(t) {
			return nil, table.Refuse(locales.ErrTourClosed, t.Name)
		}
		if len(t.Entrants) < 2 {
			return nil, table.Refuse(locales.ErrTourTooFew, len(t.Entrants), 2)
		}
		err = write(func() { t.Setup.MaxEntrants = len(t.Entrants) },
			func(effects ...store.Effect) error { return tdb.CloseSignUp(ctx, t, effects...) }, locales.TourSignupClosed)
	case TournamentRemove:
		if err := manage(); err != nil {
			return nil, err
		}
		if _, ok := t.Entrant(act.User); !ok {
			return nil, table.Refuse(locales.ErrTourNotEntrant)
		}
		if t.Status == malefiz.TournamentSignUp {
			err = write(func() { t.Entrants = without(t.Entrants, act.User) },
				func(effects ...store.Effect) error { return tdb.LeaveTournament(ctx, t, act.User, effects...) }, locales.TourRemoved, table.Mention(act.User))
		} else {
			err = write(func() { withdraw(t, act.User) },
				func(effects ...store.Effect) error { return tdb.WithdrawEntrant(ctx, t, act.User, effects...) }, locales.TourRemoved, table.Mention(act.User))
		}
	case TournamentPause:
		if err := manage(); err != nil {
			return nil, err
		}
		to, key := malefiz.TournamentPaused, locales.TourPaused
		if act.Resume {
			to, key = malefiz.TournamentRunning, locales.TourResumed
		}
		err = write(func() { t.Status = to },
			func(effects ...store.Effect) error { return tdb.PauseTournament(ctx, t, !act.Resume, effects...) }, key)
	case TournamentStart:
		if err := manage(); err != nil {
			return nil, err
		}
		if t.Status != malefiz.TournamentSignUp {
			return nil, table.Refuse(locales.ErrAlreadyStarted)
		}
		if err := s.startTournament(ctx, tdb, t); err != nil {
			return nil, err
		}
		msg, err := table.TournamentCard(t, nil)
		if err != nil {
			return nil, err
		}
		if a.Click {
			out.Reply = &table.Reply{Kind: table.Update, Message: msg}
		} else {
			out.Reply = &table.Reply{Kind: table.Private, Message: table.Text(locales.Tr(a.Lang, locales.LobbyStartedReply))}
		}
		s.out.Nudge()
		s.nudgeTournaments()
		return out, nil
	case TournamentCancel:
		if err := manage(); err != nil {
			return nil, err
		}
		if !t.Status.Open() {
			return nil, table.Refuse(locales.ErrGameEnded)
		}
		if err := s.cancelTournament(ctx, tdb, t); err != nil {
			return nil, err
		}
		out.Reply = &table.Reply{Kind: table.Private, Message: table.CancelledPost(t)}
		if a.Click {
			out.Reply.Kind = table.Update
		}
		s.out.Nudge()
		return out, nil
	default:
		return nil, fmt.Errorf("game: unknown tournament action %T", act)
	}
	if err != nil {
		if errors.Is(err, store.ErrFull) {
			return nil, table.Refuse(locales.ErrTourFull)
		}
		return nil, err
	}
	s.out.Nudge()
	return out, nil
}

// rating is user's rating in guild now, which seeds a tournament's field
// and breaks its late ties: store.InitialRating for one who has finished
// no game there (or when the store keeps no statistics).
func (s *Service) rating(ctx context.Context, guild, user string) float64 {
	st, ok := s.db.(interface {
		PlayerStats(ctx context.Context, guild, player string) (*store.PlayerStats, error)
	})
	if !ok {
		return store.InitialRating
	}
	ps, err := st.PlayerStats(ctx, guild, user)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("tournament: a player's rating", "guild", guild, "user", user, "err", err)
		}
		return store.InitialRating
	}
	return ps.Rating
}

// without is entrants less the one of user.
func without(entrants []malefiz.TournamentEntrant, user string) []malefiz.TournamentEntrant {
	var out []malefiz.TournamentEntrant
	for _, e := range entrants {
		if e.UserID != user {
			out = append(out, e)
		}
	}
	return out
}

// withdraw marks user withdrawn in t.
func withdraw(t *malefiz.Tournament, user string) {
	for i := range t.Entrants {
		if t.Entrants[i].UserID == user {
			t.Entrants[i].Withdrawn = true
		}
	}
}

// roundDeadline is the deadline of a round of t opened now (see
// RoundTurns): none when the tournament's turns take the server's time.
func (s *Service) roundDeadline(ctx context.Context, t *malefiz.Tournament) time.Time {
	timeout := t.Setup.TurnTimeout
	if timeout == 0 {
		gs, err := s.db.GuildSettings(ctx, t.GuildID)
		if err != nil {
			return time.Time{}
		}
		timeout = gs.TurnTimeout
	}
	if timeout <= 0 {
		return time.Time{}
	}
	return s.now().Add(RoundTurns * timeout)
}

// startTournament pairs t's first round and starts it: the card becomes
// the standings, the round's post goes out; the tables' games open next
// (openTables, by the round opener). A field the setup refuses is the
// refusal.
func (s *Service) startTournament(ctx context.Context, tdb Tournaments, t *malefiz.Tournament) error {
	first, err := table.NextRound(t, s.roundDeadline(ctx, t))
	if err != nil {
		return err
	}
	after := *t
	after.Status = malefiz.TournamentRunning
	first.Number = 1
	after.Rounds = []malefiz.TournamentRound{first}
	effects, err := s.roundEffects(&after, first, nil)
	if err != nil {
		return err
	}
	return tdb.StartTournament(ctx, t, first, effects...)
}

// roundEffects are the effects of opening round r of t (as it will be):
// the card's edit, the round's post.
func (s *Service) roundEffects(t *malefiz.Tournament, r malefiz.TournamentRound, withdrawn []string) ([]store.Effect, error) {
	for i := range r.Tables {
		r.Tables[i].Number = i + 1
	}
	t.Rounds[len(t.Rounds)-1] = r
	msg, err := table.StandingsCard(t, nil)
	if err != nil {
		return nil, err
	}
	edit, err := s.cardEdit(t, msg)
	if err != nil {
		return nil, err
	}
	post, err := s.tournamentPost(t, table.RoundPost(t, r, withdrawn))
	if err != nil {
		return nil, err
	}
	return []store.Effect{edit, post}, nil
}

// cancelTournament cancels t and ends its open games without a result.
func (s *Service) cancelTournament(ctx context.Context, tdb Tournaments, t *malefiz.Tournament) error {
	edit, err := s.cardEdit(t, table.CancelledPost(t))
	if err != nil {
		return err
	}
	if err := tdb.CancelTournament(ctx, t, edit); err != nil {
		return err
	}
	// The tournament is cancelled whatever happens to its games: one
	// that could not be ended now plays on, outside it (logged).
	_ = s.endOpenGames(ctx, t)
	return nil
}

// endOpenGames ends the open games of t's last round without a result, as
// the tournament's host (a manager's cancel needs no vote), and returns
// the first error of those it could not end (each logged).
func (s *Service) endOpenGames(ctx context.Context, t *malefiz.Tournament) error {
	if len(t.Rounds) == 0 {
		return nil
	}
	var failed error
	for _, table := range t.Rounds[len(t.Rounds)-1].Tables {
		if table.GameID == 0 || !table.GameStatus.Open() {
			continue
		}
		o, err := s.Change(ctx, Command{Game: table.GameID, Action: Cancel{}, User: tableActor(t), Guild: t.GuildID})
		if err != nil {
			s.log.Error("tournament: could not end a game", "tournament", t.ID, "game", table.GameID, "err", err)
			failed = cmp.Or(failed, err)
			continue
		}
		o.Deliver()
	}
	return failed
}

// tableActor is the tournament's host as the tables' games see them: a
// manager, who starts and ends them without a vote.
func tableActor(t *malefiz.Tournament) table.Actor {
	return table.Actor{UserID: t.HostID, Name: t.Name, Lang: t.Locale, Manager: true}
}

// StartTable starts a tournament table's game, its lobby opened by the
// round opener.
type StartTable struct{}

func (StartTable) decide(s *Service, t *table.Table, _ table.Actor) error {
	return t.StartTable(s.draw(max(len(t.Game.Seats), 1)))
}

// The round opener.

const (
	// tournamentsPerPass bounds the tournaments one pass handles.
	tournamentsPerPass = 20
	// tournamentLease is how long a process holds the tournaments it
	// claimed: long enough to open a round of many tables.
	tournamentLease = 5 * time.Minute
)

// RunTournaments opens the rounds of the tournaments until ctx ends: a
// tournament due (its start time, a round over or past its deadline, a
// round's tables without their games) is claimed, so that one process
// opens its round, and advanced. It sleeps until the next tournament is
// due, or a game of a tournament ends (the commit wakes it).
func (s *Service) RunTournaments(ctx context.Context) {
	tdb, err := s.tournamentStore()
	if err != nil {
		return
	}
	for {
		n, err := s.TickTournaments(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Error("tournaments", "err", err)
		}
		wait := idleWait
		switch next, ok, werr := tdb.NextTournamentWake(ctx); {
		case err != nil:
			wait = retryWait // what failed is due again at once: not in a loop
		case n >= tournamentsPerPass:
			wait = 0
		case werr != nil:
			wait = retryWait
		case ok:
			wait = min(max(next.Sub(s.now()), 0), idleWait)
			if n == 0 && wait == 0 {
				wait = claimedWait
			}
		}
		if !sleep(ctx, wait, s.wakeTournaments) {
			return
		}
	}
}

// nudgeTournaments wakes the round opener.
func (s *Service) nudgeTournaments() {
	select {
	case s.wakeTournaments <- struct{}{}:
	default:
	}
}

// TickTournaments advances every tournament due now and returns how many
// it claimed, and the first error of those that failed (logged, each): the
// round opener's pass (RunTournaments; tests with a clock of their own
// call it).
func (s *Service) TickTournaments(ctx context.Context) (int, error) {
	tdb, err := s.tournamentStore()
	if err != nil {
		return 0, err
	}
	due, err := tdb.ClaimDueTournaments(ctx, s.owner, s.now(), tournamentLease, tournamentsPerPass)
	if err != nil {
		return 0, err
	}
	var failed error
	for _, id := range due {
		if err := s.advanceSafely(ctx, tdb, id); err != nil {
			s.log.Error("tournament", "tournament", id, "err", err)
			failed = cmp.Or(failed, err)
		}
	}
	return len(due), failed
}

// advanceSafely advances tournament id; a panic is logged with its stack.
func (s *Service) advanceSafely(ctx context.Context, tdb Tournaments, id int64) (err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic in a tournament", "tournament", id, "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("tournament %d: panic (logged with its stack)", id)
		}
	}()
	unlock := s.locks.Lock(tournamentLock(id))
	defer unlock()
	// Each step is one write; a tournament may take several at once
	// (the last game ended: the next round opens, its tables too).
	for range 4 {
		t, err := tdb.Tournament(ctx, id)
		if err != nil {
			return err
		}
		more, err := s.advance(ctx, tdb, t)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// advance takes tournament t one step, and reports whether another may
// follow at once.
func (s *Service) advance(ctx context.Context, tdb Tournaments, t *malefiz.Tournament) (bool, error) {
	now := s.now()
	switch t.Status {
	case malefiz.TournamentSignUp:
		if t.Setup.StartAt.IsZero() || t.Setup.StartAt.After(now) {
			return false, nil
		}
		if err := s.startTournament(ctx, tdb, t); err != nil {
			var ref *table.Refusal
			if !errors.As(err, &ref) {
				return false, err
			}
			// The field the setup refuses (too few signed up): the
			// tournament cannot be played, and says why.
			why, err2 := s.tournamentPost(t, table.Text(locales.Tr(t.Locale, ref.Key, ref.Args...)))
			if err2 != nil {
				return false, err2
			}
			edit, err2 := s.cardEdit(t, table.CancelledPost(t))
			if err2 != nil {
				return false, err2
			}
			return false, tdb.CancelTournament(ctx, t, edit, why)
		}
		s.out.Nudge()
		return true, nil
	case malefiz.TournamentRunning:
	default:
		return false, nil
	}
	if len(t.Rounds) == 0 {
		return false, nil
	}
	r := t.Rounds[len(t.Rounds)-1]
	unopened, open := 0, 0
	for _, tb := range r.Tables {
		switch {
		case tb.Bye():
		case tb.GameID == 0:
			unopened++
		case tb.GameStatus.Open():
			open++
		}
	}
	switch {
	case unopened > 0:
		return false, s.openTables(ctx, tdb, t, r)
	case open > 0 && !r.Deadline.IsZero() && !r.Deadline.After(now):
		if err := s.endOpenGames(ctx, t); err != nil {
			return false, err // its next pass tries again
		}
		return true, nil
	case open > 0:
		return false, nil
	}
	// The round is over: the forfeits withdraw, then the next round or
	// the end.
	withdrawn := table.Withdrawals(t)
	for _, u := range withdrawn {
		if err := tdb.WithdrawEntrant(ctx, t, u); err != nil {
			return false, err
		}
		withdraw(t, u)
	}
	done, err := table.Finished(t)
	if err != nil {
		return false, err
	}
	if done {
		return false, s.finishTournament(ctx, tdb, t)
	}
	next, err := table.NextRound(t, s.roundDeadline(ctx, t))
	if errors.Is(err, tournament.ErrFinished) {
		return false, s.finishTournament(ctx, tdb, t)
	} else if err != nil {
		return false, err
	}
	after := *t
	next.Number = len(t.Rounds) + 1
	after.Rounds = append(append([]malefiz.TournamentRound(nil), t.Rounds...), next)
	effects, err := s.roundEffects(&after, next, withdrawn)
	if err != nil {
		return false, err
	}
	if err := tdb.OpenRound(ctx, t, next, effects...); err != nil {
		return false, err
	}
	s.out.Nudge()
	return true, nil
}

// finishTournament ends t: the final standings on its card, the winner
// announced and the podium pinged once.
func (s *Service) finishTournament(ctx context.Context, tdb Tournaments, t *malefiz.Tournament) error {
	after := *t
	after.Status = malefiz.TournamentFinished
	msg, err := table.StandingsCard(&after, nil)
	if err != nil {
		return err
	}
	edit, err := s.cardEdit(t, msg)
	if err != nil {
		return err
	}
	final, err := table.FinalPost(t)
	if err != nil {
		return err
	}
	post, err := s.tournamentPost(t, final)
	if err != nil {
		return err
	}
	if err := tdb.FinishTournament(ctx, t, edit, post); err != nil {
		return err
	}
	s.out.Nudge()
	return nil
}

// openTables opens round r's tables of t that have no game yet, each as a
// game (a lobby of its seats, posted, then started by the host: its
// thread, its players added and pinged once, its first turn), and then
// edits the card with the links to their threads.
func (s *Service) openTables(ctx context.Context, tdb Tournaments, t *malefiz.Tournament, r malefiz.TournamentRound) error {
	gs, err := s.db.GuildSettings(ctx, t.GuildID)
	if err != nil {
		return err
	}
	opened := 0
	for _, tb := range r.Tables {
		if tb.Bye() || tb.GameID != 0 {
			continue
		}
		sg := table.TableGame(t, r, tb, ServerRoll(gs), s.defaults.Level)
		sg.WakeAt = s.now() // started at once; the timer starts it if this process dies first
		o, err := s.create(ctx, nil, sg, gs, (*table.Table).OpenTable, (*table.Table).PostLobby,
			func(*table.Table) *table.Reply { return nil })
		if err != nil {
			if errors.Is(err, store.ErrConflict) {
				continue // opened by another process meanwhile
			}
			return err
		}
		o.Deliver()
		started, err := s.Change(ctx, Command{Game: o.Table.Game.ID, Action: StartTable{}})
		if err != nil {
			s.log.Error("tournament: could not start a table's game", "tournament", t.ID, "game", o.Table.Game.ID, "err", err)
			continue
		}
		started.Deliver()
		opened++
	}
	if opened == 0 {
		return nil
	}
	// The card with the links to the threads just made.
	now, err := tdb.Tournament(ctx, t.ID)
	if err != nil {
		return err
	}
	msg, err := table.StandingsCard(now, threads(now))
	if err != nil {
		return err
	}
	edit, err := s.cardEdit(now, msg)
	if err != nil {
		return err
	}
	if err := tdb.NoteTournament(ctx, now, edit); err != nil && !errors.Is(err, store.ErrConflict) {
		return err
	}
	s.out.Nudge()
	return nil
}

// threads are the threads of the games of t's last round, by game ID,
// those made: read with the tournament (TournamentTable.ThreadID).
func threads(t *malefiz.Tournament) map[int64]string {
	if len(t.Rounds) == 0 {
		return nil
	}
	out := map[int64]string{}
	for _, tb := range t.Rounds[len(t.Rounds)-1].Tables {
		if tb.GameID != 0 && tb.ThreadID != "" {
			out[tb.GameID] = tb.ThreadID
		}
	}
	return out
}

// tournamentCommit completes commit c of a tournament's game that just
// finished: the tournament's card edited with the result (its standings
// as they are now), and the ratings left alone when the tournament is not
// rated. The game's results are results, as its table concluded them.
func (s *Service) tournamentCommit(ctx context.Context, c *store.Commit, sg *malefiz.Game, results []malefiz.Result) error {
	if s.tdb == nil {
		return nil
	}
	t, err := s.tdb.Tournament(ctx, sg.TournamentID)
	if err != nil {
		return err
	}
	if !t.Setup.Rated {
		c.Rate = func(before []float64, _ int) []float64 { return make([]float64, len(before)) }
	}
	if !t.Status.Open() {
		return nil
	}
	// The tournament as it will be: this game finished with its results.
	for r := range t.Rounds {
		for i := range t.Rounds[r].Tables {
			tb := &t.Rounds[r].Tables[i]
			if tb.GameID != sg.ID {
				continue
			}
			tb.GameStatus = malefiz.StatusFinished
			tb.Results = make([]malefiz.Result, len(results))
			copy(tb.Results, results)
			for j := range tb.Results {
				if j < len(sg.Seats) {
					tb.Results[j].Left = sg.Seats[j].Left
				}
			}
		}
	}
	msg, err := table.StandingsCard(t, threads(t))
	if err != nil {
		return err
	}
	edit, err := s.cardEdit(t, msg)
	if err != nil {
		return err
	}
	c.TournamentEffects = append(c.TournamentEffects, edit)
	return nil
}

// nudgeAfterTournamentGame wakes the sender for the card's edit and the
// round opener for the round's end.
func (s *Service) nudgeAfterTournamentGame(c *store.Commit) {
	if len(c.TournamentEffects) > 0 {
		s.out.Nudge()
	}
	s.nudgeTournaments()
}
