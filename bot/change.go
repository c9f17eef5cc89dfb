package bot

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// deliveryLease is how long the process that commits effects keeps them to
// deliver itself; after that the sender of any process takes them (after a
// crash, the restarted process). A delivery that outlasts it may be sent a
// second time by another process, which Discord's nonce makes harmless.
const deliveryLease = 5 * time.Second

// action decides what happens to a game: a method of its table (see
// package table). It does no I/O; an error changes nothing.
type action func(t *table.Table) error

// change is the one path of every change to an existing game: a click, a
// command, a timer. It takes the game's lock, loads the game, checks that
// a click belongs to it, lets act decide, commits and answers; then it
// releases the lock and delivers the effects (see commit, answer,
// deliver). The lock ends at the commit's answer, so a slow Discord
// delivery does not stall the next click on the game: that click may come
// from the message this delivery is posting, whose ID is not recorded yet
// (see checkOrigin), and its effects go out after this delivery's, in the
// outbox's order, with the message IDs recorded by then.
func (b *Bot) change(ctx context.Context, r *request, id int64, act action) error {
	unlock := b.locks.lock(id)
	locked := true
	defer func() {
		if locked {
			unlock()
		}
	}()
	// Message IDs recorded from now on by this process's deliveries are
	// newer than the game loaded here.
	since := b.out.ids.watch(id)
	defer b.out.ids.end(id)
	t, err := b.load(ctx, id, r)
	if err != nil {
		return err
	}
	unrecorded := false
	if r != nil && r.isClick() && !r.originChecked {
		if unrecorded, err = checkOrigin(t, r); err != nil {
			return err
		}
	}
	if r != nil {
		t.Touch(r.userID) // kept when the action changes the game
	}
	if err := act(t); err != nil {
		return err
	}
	c, efs, err := b.commit(ctx, r, t)
	if err != nil {
		return err
	}
	d := b.out.reserve(c, efs)
	defer d.held() // if the answer panics
	err = answer(r, t, b.boards.file)
	unlock()
	locked = false
	d.since, d.unrecorded = since, unrecorded
	b.deliver(ctx, r, t, err, d)
	return err
}

// create is the path of a new game: act fills the table of a game not
// saved yet; it is committed like a change, then the answer, which may use
// the new game's ID, is set by setReply and sent before the effects.
func (b *Bot) create(ctx context.Context, r *request, sg *store.Game, gs store.GuildSettings, act, setReply action) error {
	t := &table.Table{Game: sg, Settings: gs, Now: b.now(), Dice: b.dice, Dirty: true}
	if err := act(t); err != nil {
		return err
	}
	c, efs, err := b.commit(ctx, r, t)
	if err != nil {
		return err
	}
	if err := setReply(t); err != nil {
		return err
	}
	d := b.out.reserve(c, efs)
	defer d.held() // if the answer panics
	err = answer(r, t, b.boards.file)
	b.deliver(ctx, r, t, err, d)
	return err
}

// load reads game id with its server's settings and its players' (and
// r's user's) settings in one read, and makes its table.
func (b *Bot) load(ctx context.Context, id int64, r *request) (*table.Table, error) {
	var users []string
	if r != nil {
		users = append(users, r.userID)
	}
	l, err := b.db.LoadGame(ctx, id, users...)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(locales.ErrNoSuchGame)
	} else if err != nil {
		return nil, err
	}
	if r != nil {
		r.settings, r.settingsRead = l.Users[r.userID], true
	}
	t, err := table.New(l.Game, l.Guild, b.now(), b.dice)
	if err != nil {
		return nil, err
	}
	t.DMs, t.PingAlways = map[string]bool{}, map[string]bool{}
	t.Activity = b.activity
	for u, us := range l.Users {
		t.DMs[u], t.PingAlways[u] = us.DM, us.PingAlways
	}
	return t, nil
}

// commit writes what the table holds in one transaction: the game with its
// snapshot, its events, the results when it just finished, and its effects,
// claimed by this process so that it delivers them itself. A table that
// changed nothing writes nothing (and returns a nil commit).
func (b *Bot) commit(ctx context.Context, r *request, t *table.Table) (*store.Commit, []effect, error) {
	effects := t.Effects()
	if !t.Dirty && len(effects) == 0 {
		return nil, nil, nil
	}
	finished := t.Finished()
	var results []store.Result
	if finished {
		// The result's contents come from the whole log, decided
		// before the effects are: they are complete when committed.
		events, err := b.db.Events(ctx, t.Game.ID)
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
	c := &store.Commit{Game: sg, Events: t.Events, Owner: b.owner, Lease: deliveryLease, Results: results, Rate: table.Elo}
	efs := make([]effect, len(effects))
	for i, e := range effects {
		efs[i] = outboxEffect(r, sg, e)
		se, err := efs[i].stored()
		if err != nil {
			return nil, nil, err
		}
		c.Effects = append(c.Effects, se)
	}
	if finished {
		sg.Deadline, sg.RemindAt, sg.WakeAt = time.Time{}, time.Time{}, time.Time{}
		// The result shows each rating change, which the store knows
		// only inside the transaction: the result's body is completed
		// there, so that it is final when committed.
		c.Rated = func(rated []store.Result) error { return withRatingsAtCommit(sg.Locale, rated, efs, c.Effects) }
	}
	start := time.Now()
	err = b.db.Commit(ctx, c)
	b.hooks.observeCommit(start, err)
	if err != nil {
		if errors.Is(err, store.ErrChannelBusy) {
			return nil, nil, refuse(locales.ErrChannelBusy)
		}
		return nil, nil, err
	}
	if t.Wake {
		b.nudgeScheduler(sg.WakeAt)
	}
	if graded(t.Events) && t.Coached() {
		b.coach.nudge(sg.ID)
	}
	return c, efs, nil
}

// answer answers request r with table t's reply, its board drawn by
// board.
func answer(r *request, t *table.Table, board func(render.Scene) (*discordgo.File, error)) error {
	if r == nil {
		return nil
	}
	r.committed = t.Dirty
	if t.Reply == nil {
		return nil
	}
	return r.reply(t.Reply, board)
}

// delivery is what a commit leaves to deliver once answered.
type delivery struct {
	c   *store.Commit
	efs []effect
	// head: the effects are the head of the game's queue, and held
	// unlocks the game's delivery (the sender's lock, taken at the
	// commit, so that no delivery that starts after the commit takes
	// them first); held may be called more than once.
	head bool
	held func()
	// since is the count of recorded message IDs when the game was
	// loaded (see recordings); unrecorded: the click came from a message
	// not recorded then (see checkOrigin).
	since      uint64
	unrecorded bool
}

// reserve returns the delivery of commit c with effects efs; it takes the
// game's delivery lock when they are the head of its queue.
func (s *sender) reserve(c *store.Commit, efs []effect) delivery {
	d := delivery{c: c, efs: efs, held: func() {}}
	if c != nil && c.Head && len(c.Effects) > 0 {
		d.head = true
		d.held = sync.OnceFunc(s.locks.lock(c.Game.ID))
	}
	return d
}

// deliver delivers the effects of delivery d, after the answer (whose
// error is answered) and outside the game's lock: with the game as
// committed when they are the head of the game's queue (its message IDs
// read again when they may be older than the effects need), else behind
// the older effects, in the outbox's order. Nothing is decided here: the
// effects are final.
func (b *Bot) deliver(ctx context.Context, r *request, t *table.Table, answered error, d delivery) {
	if r != nil && t.Reply != nil && t.AdoptReply != "" && answered == nil {
		b.adoptResponse(r, t.Game.ID, t.AdoptReply)
	}
	if r != nil {
		b.tellDMRefused(ctx, r) // before the deliveries, which take a while
	}
	var refused error
	switch c := d.c; {
	case c == nil || len(c.Effects) == 0:
	case d.head:
		refused = b.out.deliverCommitted(*c.Game, c, d.efs, d.held, d.since, d.unrecorded)
	default: // older effects of the game go first
		refused = b.out.deliverPending(c.Game.ID)
	}
	if refused != nil && r != nil {
		r.replyPrivate(ctx, tr(r.lang, locales.ErrMissingPermissions))
	}
}

// actor is who makes the request, as the table sees them.
func actor(r *request) table.Actor {
	a := table.Actor{UserID: r.userID, Name: r.name, Lang: r.lang, Click: r.isClick(),
		Manager: r.perms&(discordgo.PermissionManageGuild|discordgo.PermissionManageChannels|discordgo.PermissionAdministrator) != 0}
	if r.i.Message != nil {
		a.MessageID = r.i.Message.ID
	}
	return a
}

// checkOrigin refuses a click that does not come from this game's place:
// another server, another channel, or a message that is not this game's
// lobby (in the channel) or turn message (where the game plays: its
// thread, else the channel), or a private message of the bot. The game's
// lock ends before its effects are delivered, so a click may come from a
// turn message whose ID is not recorded yet: a message of the bot in the
// game's place, newer than the messages recorded, is taken for it when
// the click's custom ID names this game, a turn action and the current
// turn (unrecorded is then true, and the table's game names the clicked
// message as its turn message; the table checks the action's state).
func checkOrigin(t *table.Table, r *request) (unrecorded bool, err error) {
	sg := t.Game
	inChannel := r.i.ChannelID == sg.ChannelID
	inThread := sg.ThreadID != "" && r.i.ChannelID == sg.ThreadID
	// A thread being made has its lobby message's ID.
	makingThread := sg.Threaded && sg.ThreadID == "" && sg.LobbyMessageID != "" && r.i.ChannelID == sg.LobbyMessageID
	if r.i.GuildID != sg.GuildID || !(inChannel || inThread || makingThread) {
		return false, refuse(locales.ErrForeignButton)
	}
	msg := r.i.Message
	if msg == nil {
		return false, refuse(locales.ErrForeignButton)
	}
	atPlay := inThread || makingThread || (inChannel && sg.ThreadID == "")
	fromBot := msg.Author != nil && msg.Author.ID == r.i.AppID
	switch {
	case !fromBot:
		return false, refuse(locales.ErrForeignButton)
	case msg.Flags&discordgo.MessageFlagsEphemeral != 0:
		return false, nil // only the bot makes its private messages, for this user
	case msg.ID == sg.LobbyMessageID && inChannel:
		return false, nil
	case msg.ID == sg.TurnMessageID && atPlay:
		return false, nil
	case msg.ID == sg.LobbyMessageID || msg.ID == sg.TurnMessageID:
		return false, refuse(locales.ErrForeignButton) // the game's message, but not from its place
	case sg.Status == store.StatusLobby && sg.LobbyMessageID == "" && inChannel:
		return false, nil // the lobby's ID is being recorded (see cmdNew; the table takes the click's)
	case atPlay && newTurnMessage(t, r, msg.ID):
		// The table sees the clicked message as the turn's (the store
		// keeps the recorded one until the post's delivery records it).
		sg.TurnMessageID = msg.ID
		if makingThread {
			sg.ThreadID = r.i.ChannelID
		}
		return true, nil
	}
	return false, refuse(locales.ErrOldButton) // an older message of the game
}

// newTurnMessage reports whether message id may be the current turn's
// message, posted but not recorded yet: newer than the game's recorded
// messages (Discord's IDs grow with time), with a turn control of this
// game's current turn.
func newTurnMessage(t *table.Table, r *request, id string) bool {
	sg := t.Game
	if sg.Status != store.StatusRunning || t.State == nil || !newerID(id, sg.TurnMessageID) || !newerID(id, sg.LobbyMessageID) {
		return false
	}
	c, err := ParseCustomID(r.i.MessageComponentData().CustomID)
	if err != nil || c.Game != sg.ID || c.Turn != t.State.TurnNumber() {
		return false
	}
	switch c.Action {
	case ActRoll, ActPawn, ActMove, ActBack, ActPlace, ActPlaceRow, ActHint:
		return true
	}
	return false
}

// newerID reports whether Discord ID a is newer than b ("" is older than
// every ID).
func newerID(a, b string) bool {
	x, err := strconv.ParseUint(a, 10, 64)
	if err != nil {
		return false
	}
	if b == "" {
		return true
	}
	y, err := strconv.ParseUint(b, 10, 64)
	return err == nil && x > y
}

// nudgeScheduler wakes the scheduler to look at the deadlines again when a
// game's timer at wake comes before the scheduler's next look.
func (b *Bot) nudgeScheduler(wake time.Time) {
	if next := b.schedulerNext.Load(); wake.IsZero() || (next != 0 && wake.UnixMilli() >= next) {
		return
	}
	select {
	case b.wakeScheduler <- struct{}{}:
	default:
	}
}
