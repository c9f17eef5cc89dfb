package bot

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
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
// a click belongs to it, lets act decide, then commits, answers and
// delivers (see commit). The lock is held until the effects are delivered,
// so that the next action on the game sees the IDs of the messages this one
// made (a click on the new turn message waits for its ID to be recorded).
func (b *Bot) change(ctx context.Context, r *request, id int64, act action) error {
	unlock := b.locks.lock(id)
	defer unlock()
	t, err := b.load(ctx, id, r)
	if err != nil {
		return err
	}
	if r != nil && r.isClick() && !r.originChecked {
		if err := checkOrigin(t.Game, r); err != nil {
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
	return b.answerAndDeliver(ctx, r, t, c, efs)
}

// create is the path of a new game: act fills the table of a game not
// saved yet; it is committed like a change, then the answer, which may use
// the new game's ID, is set by answer and sent before the effects.
func (b *Bot) create(ctx context.Context, r *request, sg *store.Game, gs store.GuildSettings, act, answer action) error {
	t := &table.Table{Game: sg, Settings: gs, Now: b.now(), Dice: b.dice, Dirty: true}
	if err := act(t); err != nil {
		return err
	}
	c, efs, err := b.commit(ctx, r, t)
	if err != nil {
		return err
	}
	if err := answer(t); err != nil {
		return err
	}
	return b.answerAndDeliver(ctx, r, t, c, efs)
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
	return c, efs, nil
}

// answerAndDeliver answers the request with the table's reply (drawing its
// board), then delivers the effects of commit c, with the game as
// committed.
func (b *Bot) answerAndDeliver(ctx context.Context, r *request, t *table.Table, c *store.Commit, efs []effect) error {
	if r != nil {
		r.committed = t.Dirty
	}
	var err error
	if r != nil && t.Reply != nil {
		err = r.reply(t.Reply, b.boards.file)
		if err == nil && t.AdoptReply != "" {
			b.adoptResponse(r, t.Game.ID, t.AdoptReply)
		}
	}
	if r != nil {
		b.tellDMRefused(ctx, r) // before the deliveries, which take a while
	}
	var refused error
	switch {
	case c == nil || len(c.Effects) == 0:
	case c.Head:
		refused = b.out.deliverCommitted(*c.Game, c, efs)
	default: // older effects of the game go first
		refused = b.out.deliverPending(c.Game.ID)
	}
	if refused != nil && r != nil {
		r.replyPrivate(ctx, tr(r.lang, locales.ErrMissingPermissions))
	}
	return err
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
// thread, else the channel), or a private message of the bot.
func checkOrigin(sg *malefiz.Game, r *request) error {
	inChannel := r.i.ChannelID == sg.ChannelID
	inThread := sg.ThreadID != "" && r.i.ChannelID == sg.ThreadID
	if r.i.GuildID != sg.GuildID || !(inChannel || inThread) {
		return refuse(locales.ErrForeignButton)
	}
	msg := r.i.Message
	if msg == nil {
		return refuse(locales.ErrForeignButton)
	}
	atPlay := inThread || (inChannel && sg.ThreadID == "")
	fromBot := msg.Author != nil && msg.Author.ID == r.i.AppID
	switch {
	case !fromBot:
		return refuse(locales.ErrForeignButton)
	case msg.Flags&discordgo.MessageFlagsEphemeral != 0:
		return nil // only the bot makes its private messages, for this user
	case msg.ID == sg.LobbyMessageID && inChannel:
		return nil
	case msg.ID == sg.TurnMessageID && atPlay:
		return nil
	case msg.ID == sg.LobbyMessageID || msg.ID == sg.TurnMessageID:
		return refuse(locales.ErrForeignButton) // the game's message, but not from its place
	case sg.Status == store.StatusLobby && sg.LobbyMessageID == "" && inChannel:
		return nil // the lobby's ID is being recorded (see cmdNew)
	}
	return refuse(locales.ErrOldButton) // an older message of the game
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
