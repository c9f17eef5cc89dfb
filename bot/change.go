package bot

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/outbox"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

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
// (see table.CheckOrigin), and its effects go out after this delivery's, in the
// outbox's order, with the message IDs recorded by then.
func (b *Bot) change(ctx context.Context, r *request, id int64, act action) error {
	unlock := b.locks.Lock(id)
	locked := true
	defer func() {
		if locked {
			unlock()
		}
	}()
	// Message IDs recorded from now on by this process's deliveries are
	// newer than the game loaded here.
	loaded := time.Now()
	t, err := b.load(ctx, id, r)
	if err != nil {
		return err
	}
	unrecorded := false
	if r != nil && r.isClick() && !r.originChecked {
		if unrecorded, err = t.CheckOrigin(origin(r)); err != nil {
			return err
		}
	}
	if r != nil {
		t.Touch(r.userID) // kept when the action changes the game
	}
	if err := act(t); err != nil {
		return err
	}
	c, efs, err := b.commit(ctx, r, t, nil)
	if err != nil {
		return err
	}
	d := b.out.Reserve(c, efs)
	defer d.Release() // if the answer panics
	err = answer(r, t, b.boards.file)
	unlock()
	locked = false
	b.deliver(ctx, r, d, loaded, unrecorded)
	return err
}

// create is the path of a new game: act fills the table of a game not
// saved yet; named, when set, adds what names the game (a lobby message
// whose buttons carry its ID), decided once the store knows the ID and
// committed in the same transaction as the game (see store.Commit's
// Created); then the answer, which may use the new game's ID, is set by
// setReply and sent before the effects.
func (b *Bot) create(ctx context.Context, r *request, sg *malefiz.Game, gs malefiz.GuildSettings, act, named, setReply action) error {
	t := &table.Table{Game: sg, Settings: gs, Now: b.now(), Dice: b.dice, Dirty: true, Activity: b.activity}
	if err := act(t); err != nil {
		return err
	}
	c, efs, err := b.commit(ctx, r, t, named)
	if err != nil {
		return err
	}
	if err := setReply(t); err != nil {
		return err
	}
	d := b.out.Reserve(c, efs)
	defer d.Release() // if the answer panics
	err = answer(r, t, b.boards.file)
	b.deliver(ctx, r, d, time.Now(), false) // a new game: no delivery recorded its IDs
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
// changed nothing writes nothing (and returns a nil commit). For a new
// game, named (when set) adds in that transaction what names the game
// (see create).
func (b *Bot) commit(ctx context.Context, r *request, t *table.Table, named action) (*store.Commit, []outbox.Effect, error) {
	effects := t.Effects()
	if !t.Dirty && len(effects) == 0 {
		return nil, nil, nil
	}
	finished := t.Finished()
	var results []malefiz.Result
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
	c := &store.Commit{Game: sg, Events: t.Events, Owner: b.owner, Lease: outbox.Lease, Results: results, Rate: table.Elo}
	efs := make([]outbox.Effect, len(effects))
	var resultPosts []int // the indexes of the result's posts, completed with the ratings
	for i, e := range effects {
		efs[i] = outboxEffect(r, sg, e)
		se, err := efs[i].Stored()
		if err != nil {
			return nil, nil, err
		}
		c.Effects = append(c.Effects, se)
		if e.Result && e.Kind == table.Post {
			resultPosts = append(resultPosts, i)
		}
	}
	if finished {
		sg.Deadline, sg.RemindAt, sg.WakeAt = time.Time{}, time.Time{}, time.Time{}
		// The result shows each rating change, which the store knows
		// only inside the transaction: the result's body is completed
		// there, so that it is final when committed.
		c.Rated = func(rated []malefiz.Result) error {
			return withRatingsAtCommit(sg.Locale, rated, resultPosts, efs, c.Effects)
		}
	}
	if named != nil {
		c.Created = func(id int64) ([]store.Effect, error) {
			t.Game.ID = id
			defer func() { t.Game.ID = 0 }() // the store sets it once committed
			first := len(t.Effects())
			if err := named(t); err != nil {
				return nil, err
			}
			var more []store.Effect
			for _, e := range t.Effects()[first:] {
				ef := outboxEffect(r, sg, e)
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

// deliver hands the effects of delivery d to the outbox, after the answer
// and outside the game's lock (see outbox.Delivery.Deliver: loaded is when
// the game was read; unrecorded, the click came from a message not
// recorded then). Nothing is decided here: the effects are final. A
// missing permission Discord answered is told to the user.
func (b *Bot) deliver(ctx context.Context, r *request, d *outbox.Delivery, loaded time.Time, unrecorded bool) {
	if r != nil {
		b.tellDMRefused(ctx, r) // before the deliveries, which take a while
	}
	if refused := d.Deliver(loaded, unrecorded); refused != nil && r != nil {
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

// origin is where click r comes from, for the table to check.
func origin(r *request) table.Origin {
	o := table.Origin{GuildID: r.i.GuildID, ChannelID: r.i.ChannelID}
	if msg := r.i.Message; msg != nil {
		o.MessageID, o.Private = msg.ID, msg.Flags&discordgo.MessageFlagsEphemeral != 0
		o.FromBot = msg.Author != nil && msg.Author.ID == r.i.AppID
	}
	if r.i.Type == discordgo.InteractionMessageComponent {
		o.CustomID = r.i.MessageComponentData().CustomID
	}
	return o
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
