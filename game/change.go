package game

import (
	"context"
	"errors"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// Outcome is what a command did: the game as its table decided it, the
// answer for whoever acted, and the committed effects, reserved for this
// process to deliver. It holds the game's lock until the front-end has
// answered: call Deliver (or Release) exactly once.
type Outcome struct {
	// Table is the game as decided (its Game as committed).
	Table *table.Table
	// Reply is the answer for whoever acted, if the table gave one.
	Reply *table.Reply
	// Committed: the command changed the game and the change is durable.
	Committed bool
	// Settings are the acting user's settings, read with the game.
	Settings malefiz.UserSettings

	delivery   queue.Reservation
	unlock     func()
	loaded     time.Time // when the game was read
	unrecorded bool      // the click came from a message not recorded then
}

// letGo lets the game's lock go, once.
func (o *Outcome) letGo() {
	if o.unlock != nil {
		o.unlock()
		o.unlock = nil
	}
}

// Release lets the game's lock go; the effects stay in the outbox, for
// its loop to deliver. Deliver calls it.
func (o *Outcome) Release() {
	o.letGo()
	if o.delivery != nil {
		o.delivery.Release()
	}
}

// Deliver lets the game's lock go and sends the outcome's effects, in the
// outbox's order for the game, after the front-end's answer: a slow
// Discord holds back no next command on the game. It returns the refusal
// of a request Discord answered with a missing permission, if any.
func (o *Outcome) Deliver() (refused error) {
	o.letGo()
	if o.delivery == nil {
		return nil
	}
	return o.delivery.Deliver(o.loaded, o.unrecorded)
}

// Change runs cmd on its game: the game's lock, one read, the origin of a
// click checked, the table's decision, one commit. An error changes
// nothing: a refusal (a *table.Refusal, store.ErrConflict, …: see
// Refusal) or a failure. The outcome holds the game's lock until the
// caller answers and calls its Deliver.
func (s *Service) Change(ctx context.Context, cmd Command) (*Outcome, error) {
	unlock := s.locks.Lock(cmd.Game)
	o := &Outcome{unlock: unlock, loaded: time.Now()}
	ok := false
	defer func() {
		if !ok {
			o.Release()
		}
	}()
	// Message IDs recorded from now on by this process's deliveries are
	// newer than the game loaded here.
	t, settings, err := s.load(ctx, cmd.Game, cmd.User.UserID)
	if err != nil {
		if cmd.Origin == nil && cmd.User.UserID != "" && !cmd.User.Click {
			err = personal(err, cmd.Game, cmd.Guild) // as inGuild below
		}
		return nil, err
	}
	o.Table, o.Settings = t, settings
	if cmd.Origin != nil {
		if o.unrecorded, err = t.CheckOrigin(*cmd.Origin); err != nil {
			return nil, err
		}
	} else if cmd.User.UserID != "" && !cmd.User.Click {
		// A person's command names its server: a game of another one
		// is not found. (A click its front-end checked, and a timer,
		// name none.)
		if err := inGuild(t, cmd.Guild); err != nil {
			return nil, err
		}
	}
	if cmd.User.UserID != "" {
		t.Touch(cmd.User.UserID) // kept when the action changes the game
	}
	if err := cmd.Action.decide(s, t, cmd.User); err != nil {
		return nil, err
	}
	c, efs, err := s.commit(ctx, cmd.Via, t, nil)
	if err != nil {
		return nil, err
	}
	o.Reply, o.Committed = t.Reply, t.Dirty
	o.delivery = s.out.Reserve(c, efs)
	ok = true
	return o, nil
}

// Apply runs cmd as Change does and answers at commit: the effects are
// delivered in the background (Wait waits for them). It is the path of a
// front-end with no interaction to answer first (the board).
func (s *Service) Apply(ctx context.Context, cmd Command) (*Outcome, error) {
	o, err := s.Change(ctx, cmd)
	if err != nil {
		return nil, err
	}
	s.Later(o)
	return o, nil
}

// Later lets o's lock go and delivers its effects in the background,
// after its commit: the path of a front-end with nothing to answer first
// (Apply, a lobby opened on the board). Wait waits for them.
func (s *Service) Later(o *Outcome) {
	o.letGo()
	s.inflight.Add(1)
	go func() {
		defer s.inflight.Done()
		o.Deliver()
	}()
}

// load reads game id with its server's settings and its players' (and
// user's) settings in one read, and makes its table; settings are user's.
func (s *Service) load(ctx context.Context, id int64, user string) (*table.Table, malefiz.UserSettings, error) {
	var users []string
	if user != "" {
		users = append(users, user)
	}
	l, err := s.db.LoadGame(ctx, id, users...)
	if errors.Is(err, store.ErrNotFound) {
		return nil, malefiz.UserSettings{}, table.Refuse(locales.ErrNoSuchGame)
	} else if err != nil {
		return nil, malefiz.UserSettings{}, err
	}
	t, err := table.New(l.Game, l.Guild, s.now(), s.dice)
	if err != nil {
		return nil, malefiz.UserSettings{}, err
	}
	t.DMs, t.PingAlways, t.Locales = map[string]bool{}, map[string]bool{}, map[string]string{}
	t.Activity = s.activity
	for u, us := range l.Users {
		t.DMs[u], t.PingAlways[u], t.Locales[u] = us.DM, us.PingAlways, us.Locale
	}
	return t, l.Users[user], nil
}

// commit writes what the table holds in one transaction: the game with its
// snapshot, its events, the results when it just finished, and its effects,
// claimed by this process so that it delivers them itself. A table that
// changed nothing writes nothing (and returns a nil commit). For a new
// game, named (when set) adds in that transaction what names the game
// (see Create).
func (s *Service) commit(ctx context.Context, via *Via, t *table.Table, named func(t *table.Table)) (*store.Commit, []queue.Effect, error) {
	effects := t.Effects()
	if !t.Dirty && len(effects) == 0 {
		return nil, nil, nil
	}
	finished := t.Finished()
	var results []malefiz.Result
	if finished {
		// The result's contents come from the whole log, decided
		// before the effects are: they are complete when committed.
		events, err := s.db.Events(ctx, t.Game.ID)
		if err != nil {
			return nil, nil, err
		}
		if results, err = t.Conclude(events); err != nil {
			return nil, nil, err
		}
	}
	sg, err := t.Snapshot()
	if err != nil {
		return nil, nil, err
	}
	c := &store.Commit{Game: sg, Events: t.Events, Owner: s.owner, Lease: queue.Lease, Results: results, Rate: table.Elo,
		Coach: !s.coach.off && graded(t.Events) && t.Coached()}
	efs := make([]queue.Effect, len(effects))
	var resultPosts []int // the indexes of the result's posts, completed with the ratings
	for i, e := range effects {
		efs[i] = s.layout.Effect(via, sg, e)
		se, err := efs[i].Stored()
		if err != nil {
			return nil, nil, err
		}
		c.Effects = append(c.Effects, se)
		if e.Result && e.Kind == table.Post {
			resultPosts = append(resultPosts, i)
		}
	}
	if finished && sg.TournamentID != 0 {
		// The tournament's card shows the result; an unrated
		// tournament's games leave the ratings alone.
		if err := s.tournamentCommit(ctx, c, sg, results); err != nil {
			return nil, nil, err
		}
	}
	if finished {
		sg.Deadline, sg.RemindAt, sg.WakeAt = time.Time{}, time.Time{}, time.Time{}
		// The result shows each rating change, which the store knows
		// only inside the transaction: the result's body is completed
		// there, so that it is final when committed.
		c.Rated = func(rated []malefiz.Result) error {
			if err := s.layout.WithRatings(sg.Locale, rated, efs, resultPosts); err != nil {
				return err
			}
			for _, i := range resultPosts {
				se, err := efs[i].Stored()
				if err != nil {
					return err
				}
				c.Effects[i].Payload = se.Payload
			}
			return nil
		}
	}
	if named != nil {
		c.Created = func(id int64) ([]store.Effect, error) {
			t.Game.ID = id
			defer func() { t.Game.ID = 0 }() // the store sets it once committed
			first := len(t.Effects())
			named(t)
			var more []store.Effect
			for _, e := range t.Effects()[first:] {
				ef := s.layout.Effect(via, sg, e)
				se, err := ef.Stored()
				if err != nil {
					return nil, err
				}
				efs, more = append(efs, ef), append(more, se)
			}
			return more, nil
		}
	}
	start := time.Now()
	err = s.db.Commit(ctx, c)
	s.observe(start, err)
	if err != nil {
		if errors.Is(err, store.ErrChannelBusy) {
			return nil, nil, table.Refuse(locales.ErrChannelBusy)
		}
		return nil, nil, err
	}
	if t.Wake {
		s.nudgeScheduler(sg.WakeAt)
	}
	if sg.TournamentID != 0 && (finished || !sg.Status.Open()) {
		s.nudgeAfterTournamentGame(c)
	}
	if c.Coach {
		s.coach.nudge()
	}
	return c, efs, nil
}
