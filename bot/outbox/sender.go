// Package outbox delivers what the bot's changes committed for Discord:
// the stored effects (Effect), the sender that takes them from the
// store's outbox and makes their requests, in order per game, retries what
// Discord refuses for now and gives up what it refuses for good, and
// records the IDs of the messages it makes. It decides nothing: every
// effect is complete when committed (its text, its layout, its ratings),
// and what the sender cannot know itself (how a board or a chart is
// drawn, how a message is laid out without a picture) is passed in (see
// Config). It imports neither the table nor the locales.
//
// The bot calls it twice per change: Reserve with the commit (under the
// game's lock), then Delivery.Deliver once the interaction is answered.
// Run delivers the rest: retries, card edits, and what a process that
// died left behind.
//
// Never twice: a message is created with Discord's nonce ("mf" and the
// effect's ID) and enforce_nonce, so that when a crash, or a claim that
// ran out mid-request, comes after Discord created the message but before
// its ID was recorded, the repeated request returns the message made the
// first time instead of a second one (Discord keeps nonces for a few
// minutes; a claim lasts Lease). An edit sets the whole message and is
// the same when sent again; a thread made by an earlier try is found by
// its error; recording an interaction's response reads it again.
//
// Why not River (riverqueue/river, v0.51.2, read before this was written):
// its open-source queue has unique jobs but no ordering of jobs by a key,
// and a game's effects must go out in order (post the turn, then collapse
// it); its SQLite driver calls itself "in early testing" and asks for a
// single-connection pool, while the store keeps one write connection and a
// read pool of its own on the same file, so the two would wait on each
// other's locks. The outbox is one table and a few statements instead.
package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/ratelimit"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

const (
	// batch is how many effects one pass of the sender claims.
	batch = 20
	// idle is the longest the sender sleeps: other processes' new effects
	// are seen at the latest then.
	idle = 10 * time.Second
	// maxBackoff bounds the wait between two tries: once Discord answers
	// again after an outage, every effect is tried within a minute.
	maxBackoff = time.Minute
	// callTimeout bounds one Discord call of a delivery.
	callTimeout = 20 * time.Second
	// pendingPoll and maxPendingPoll space the looks of a delivery that
	// waits behind a game's older effects another process is delivering
	// (see deliverPending): 10 ms, doubled up to 160 ms.
	pendingPoll    = 10 * time.Millisecond
	maxPendingPoll = 160 * time.Millisecond
)

// Store is what the sender reads and writes; *store.DB implements it.
type Store interface {
	ClaimEffects(ctx context.Context, owner string, lease time.Duration, limit int) ([]store.Effect, error)
	ClaimedEffects(ctx context.Context, owner string, gameID int64) ([]store.Effect, error)
	HeldElsewhere(ctx context.Context, owner string, gameID int64) (bool, error)
	Outdated(ctx context.Context, e store.Effect) (bool, error)
	Superseded(ctx context.Context, e store.Effect) (bool, error)
	RecordDeliveries(ctx context.Context, owner string, deliveries []store.Delivery) error
	RenewClaims(ctx context.Context, owner string, ids []int64, lease time.Duration) (time.Time, error)
	RetryEffect(ctx context.Context, owner string, id int64, wait time.Duration, reason string) error
	EffectFailed(ctx context.Context, owner string, id int64, reason string) error
	NextEffectAt(ctx context.Context) (time.Time, bool, error)
	Game(ctx context.Context, id int64) (*malefiz.Game, error)
	// Tournament reads a tournament, whose outbox's effects go to its
	// channel and card.
	Tournament(ctx context.Context, id int64) (*malefiz.Tournament, error)
	// MarkDMRefused records that a user's DMs are closed to the bot.
	MarkDMRefused(ctx context.Context, userID string) error
	// Time is the store's clock, which the outbox's times are kept by.
	Time() time.Time
}

var _ Store = (*store.DB)(nil)

// Discord is the part of Discord's API the sender uses;
// *discordgo.Session implements it.
type Discord interface {
	InteractionResponse(i *discordgo.Interaction, options ...discordgo.RequestOption) (*discordgo.Message, error)
	// RequestWithBucketID and RequestRaw send the outbox's requests as
	// they were stored (with Discord's nonce, which MessageSend lacks).
	RequestWithBucketID(method, urlStr string, data interface{}, bucketID string, options ...discordgo.RequestOption) ([]byte, error)
	RequestRaw(method, urlStr, contentType string, b []byte, bucketID string, sequence int, options ...discordgo.RequestOption) ([]byte, error)
}

var _ Discord = (*discordgo.Session)(nil)

// The attachments of the pictures a message may show.
const (
	BoardFile = "board.png"   // the board
	ChartFile = "chances.png" // a result's chance chart
)

// Config is what a Sender needs. Store and Discord are required.
type Config struct {
	Store   Store
	Discord Discord
	Log     *slog.Logger // nil: slog.Default()
	// Owner names this process in the outbox's claims.
	Owner string
	// Board draws an effect's board as BoardFile; Chart its chance chart
	// (the effect's Chart) as ChartFile. nil: the message goes without
	// the picture.
	Board func(render.Scene) (*discordgo.File, error)
	Chart func(json.RawMessage) (*discordgo.File, error)
	// WithoutPicture is a message body (JSON) without what shows the
	// attachment named file, for a picture that could not be drawn; nil
	// sends the body as it is.
	WithoutPicture func(body json.RawMessage, file string) json.RawMessage
	// Chances reads the chances an effect's body shows (the effect's
	// Chances) at once: the words to put in place of each token now, and,
	// when better ones are being read, where they will come (closed
	// without them when they do not). nil: the body goes as it is.
	Chances func(json.RawMessage) (now map[string]string, later <-chan map[string]string, err error)
	// Now is Discord's time, which an interaction token's life is
	// measured by; nil: time.Now.
	Now func() time.Time
}

// Sender delivers the outbox: the effects of the changes this process
// commits, at once (Reserve, Deliver), and what is left to deliver
// (retries, card edits, other processes' effects) in its loop (Run).
type Sender struct {
	cfg   Config
	db    Store
	dc    Discord
	log   *slog.Logger
	owner string
	locks queue.KeyedLocks // one delivery at a time per game, of its main queue
	// queued: one delivery at a time per game of its other queues (the
	// card's edits), apart from the main queue's.
	queued queue.KeyedLocks
	ids    recordings // when deliveries recorded message IDs, per game
	dms    dmChannels // the DM channels opened, by user
	// dmOpens makes the DMs to one user wait for the open of their
	// channel that is going on, by user ID.
	dmOpens queue.KeyedLocks
	wake    chan struct{}
}

// New returns the sender of cfg.
func New(cfg Config) *Sender {
	s := &Sender{cfg: cfg, db: cfg.Store, dc: cfg.Discord, log: cfg.Log, owner: cfg.Owner, wake: make(chan struct{}, 1)}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.cfg.Now == nil {
		s.cfg.Now = time.Now
	}
	return s
}

// Delivery is what a commit leaves to deliver once the interaction is
// answered (see Reserve).
type Delivery struct {
	s       *Sender
	game    *malefiz.Game
	effects []store.Effect
	efs     []queue.Effect
	// head: the effects are the head of the game's queue, and held
	// unlocks the game's delivery (taken at the commit, so that no
	// delivery that starts after the commit takes them first).
	head bool
	held func()
	// reserved is when the commit claimed the effects: they are this
	// process's for Lease from about then.
	reserved time.Time
}

// Reserve returns the delivery of commit c (nil: nothing committed), whose
// effects efs are c.Effects decoded, index for index. Call it right after
// the commit, under the game's lock: when the effects head the game's
// queue it takes the game's delivery, so that they go out before any
// later change's. Deliver or Release the result.
func (s *Sender) Reserve(c *store.Commit, efs []queue.Effect) queue.Reservation {
	d := &Delivery{s: s, held: func() {}, reserved: time.Now()}
	if c == nil || len(c.Effects) == 0 {
		return d
	}
	d.game, d.effects, d.efs = c.Game, c.Effects, efs
	if c.Head {
		d.head = true
		d.held = sync.OnceFunc(s.locks.Lock(c.Game.ID))
	}
	return d
}

// Release lets other deliveries of the game go without this one's (an
// answer that panicked); it may be called more than once, and after
// Deliver.
func (d *Delivery) Release() { d.held() }

// Deliver delivers the effects of the game's main queue that d reserved,
// in order, after the answer and outside the game's lock: with the game
// as committed when they head its queue, its message IDs read again when
// they may be older than the effects need (a delivery of this process
// recorded one since loaded, when the game was read, or reread: the click
// came from a message not recorded then, whose post another process may
// have recorded); else behind the older effects, in the outbox's order.
// Card edits and what fails for now are left to the loop (Run). It
// returns Discord's refusal for a missing permission, if one came, for
// the user to hear of.
func (d *Delivery) Deliver(loaded time.Time, reread bool) (refused error) {
	defer d.held()
	if d.game == nil {
		return nil
	}
	s := d.s
	if !d.head {
		return s.deliverPending(d.game.ID, d.reserved.Add(queue.Lease/2))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*callTimeout)
	defer cancel()
	g := *d.game
	if reread || s.ids.since(g.ID, loaded) {
		now, err := s.db.Game(ctx, g.ID)
		if err != nil {
			s.log.Error("outbox: could not read the game's messages", "game", g.ID, "err", err)
			s.Nudge() // the loop delivers them, with the game read then
			return nil
		}
		for _, id := range []struct {
			to   *string
			from string
		}{{&g.LobbyMessageID, now.LobbyMessageID},
			{&g.TurnMessageID, now.TurnMessageID}, {&g.ThreadID, now.ThreadID}, {&g.ReminderMessageID, now.ReminderMessageID}} {
			if id.from != "" {
				*id.to = id.from
			}
		}
	}
	effects, efs := mainQueue(d.effects, d.efs)
	if len(effects) < len(d.effects) {
		defer s.Nudge() // the loop takes the card's edits
	}
	return s.deliverInOrder(ctx, &g, effects, efs, true)
}

// mainQueue is effects (and efs, index for index) without those of the
// card's queue, which the loop delivers; a DM's link to a post keeps
// pointing at the same post.
func mainQueue(effects []store.Effect, efs []queue.Effect) ([]store.Effect, []queue.Effect) {
	var outE []store.Effect
	var outF []queue.Effect
	newIndex := make([]int, len(effects)) // 1 + the index in out; 0: dropped
	for i, e := range effects {
		if e.Queue != "" {
			continue
		}
		ef := efs[i]
		if k := ef.LinkTo; k > 0 && k <= i {
			ef.LinkTo = newIndex[k-1]
		}
		outE, outF = append(outE, e), append(outF, ef)
		newIndex[i] = len(outE)
	}
	return outE, outF
}

// deliverPending delivers, after a commit whose effects wait behind older
// ones of the game, the effects at the head of the game's queue that this
// process holds, with the game as it is read then. The older ones may be
// in delivery by this process (the game's lock orders the two) or by
// another, which handled the game's previous click: while that one's
// claim is live (store's HeldElsewhere) it looks again, 10 ms later, then
// 20, … up to every 160 ms, until they are delivered or until half of its
// own claim's lease (until) is gone. What is not this process's to
// deliver then (an older effect waiting for a retry, or still going out
// elsewhere) is the loop's: its claim runs out and any process's loop
// takes the effects in order. Without the looks a turn committed on one
// replica while another still sent the game's previous turn waited for
// its own claim to run out (5 s) before anyone sent it.
func (s *Sender) deliverPending(gameID int64, until time.Time) (refused error) {
	for wait := pendingPoll; ; wait = min(2*wait, maxPendingPoll) {
		done, refused := s.deliverHeld(gameID)
		if done {
			return refused
		}
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		held, err := s.db.HeldElsewhere(ctx, s.owner, gameID)
		cancel()
		if err != nil {
			s.log.Error("outbox", "game", gameID, "err", err)
		}
		if !held || !time.Now().Add(wait).Before(until) {
			s.Nudge()
			return nil
		}
		time.Sleep(wait)
	}
}

// deliverHeld delivers the effects at the head of the game's main queue
// that this process holds. It reports done unless it found none to
// deliver (an older effect is someone else's or waits for a retry).
func (s *Sender) deliverHeld(gameID int64) (done bool, refused error) {
	unlock := s.locks.Lock(gameID)
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*callTimeout)
	defer cancel()
	claimed, err := s.db.ClaimedEffects(ctx, s.owner, gameID)
	if err != nil {
		s.log.Error("outbox", "game", gameID, "err", err)
		s.Nudge()
		return true, nil
	}
	if len(claimed) == 0 {
		return false, nil
	}
	g, err := s.db.Game(ctx, gameID)
	if err != nil {
		s.log.Error("outbox: could not read the game", "game", gameID, "err", err)
		s.Nudge()
		return true, nil
	}
	var effects []store.Effect
	var efs []queue.Effect
	for _, e := range claimed {
		if e.Queue != "" {
			s.Nudge()
			break // the card's edits are the loop's; the rest keeps its order
		}
		ef, err := queue.Decode(e)
		if err != nil {
			s.Nudge() // the loop gives it up
			break
		}
		ef.LinkTo = 0 // its index is its commit's: the link is the target's
		effects, efs = append(effects, e), append(efs, ef)
	}
	return true, s.deliverInOrder(ctx, g, effects, efs, false)
}

// deliverInOrder delivers effects of game g, in order: each message ID
// Discord assigns is kept in g for the effects after it, and for a DM
// that links to an earlier effect of the list. The outcomes are recorded
// in one transaction at the end. An effect that fails for now is left to
// the loop, with the ones after it.
func (s *Sender) deliverInOrder(ctx context.Context, g *malefiz.Game, effects []store.Effect, efs []queue.Effect, linked bool) (refused error) {
	var done []store.Delivery
	defer func() {
		if err := s.record(ctx, g.ID, done); err != nil {
			s.log.Error("outbox: could not record the deliveries", "game", g.ID, "err", err)
			s.Nudge()
		}
	}()
	posted := make([]string, len(effects)) // the message IDs of the posts
	until := claimsEnd(effects)
	for i, e := range effects {
		if !s.db.Time().Add(queue.Lease / 2).Before(until) {
			// Half the claim is gone (Discord's buckets held the
			// batch back, say): what went out is recorded and the
			// rest kept, or another process would send it all again.
			var err error
			if until, err = s.keepClaims(ctx, g.ID, done, effects[i:]); err != nil {
				s.log.Error("outbox: could not keep the claims", "game", g.ID, "err", err)
				s.Nudge()
				return refused
			}
			done = nil
		}
		ef := efs[i]
		if k := ef.LinkTo; linked && k > 0 && k <= i {
			ef.Linked = posted[k-1]
		}
		// Delivered by the process that committed it: an effect it has
		// not tried yet has no earlier outcome to look for.
		ef.FirstTry = e.Attempts == 0
		d, next, err := s.deliver(ctx, e, ef, g)
		if d != nil && !d.Failed && ef.Op == queue.Post {
			posted[i] = d.Result
		}
		if refused == nil && (isCode(err, discordgo.ErrCodeMissingPermissions) || isCode(err, discordgo.ErrCodeMissingAccess)) {
			refused = err
		}
		if d != nil {
			done = append(done, *d)
		}
		if !next {
			s.Nudge()
			return refused
		}
	}
	return refused
}

// claimsEnd is when the first of the claims on effects runs out.
func claimsEnd(effects []store.Effect) time.Time {
	var end time.Time
	for _, e := range effects {
		if end.IsZero() || e.LeaseUntil.Before(end) {
			end = e.LeaseUntil
		}
	}
	return end
}

// keepClaims records the deliveries done so far and renews the claims on
// the effects of game gameID still to go; it returns when those run out.
func (s *Sender) keepClaims(ctx context.Context, gameID int64, done []store.Delivery, rest []store.Effect) (time.Time, error) {
	if err := s.record(ctx, gameID, done); err != nil {
		return time.Time{}, err
	}
	ids := make([]int64, len(rest))
	for i, e := range rest {
		ids[i] = e.ID
	}
	return s.db.RenewClaims(ctx, s.owner, ids, queue.Lease)
}

// Run delivers the outbox until ctx ends: what could not be delivered at
// once, the card edits, and what another process left behind.
func (s *Sender) Run(ctx context.Context) {
	for ctx.Err() == nil {
		n, err := s.Pass(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Error("outbox", "err", err)
		}
		if n > 0 {
			continue
		}
		wait := idle
		if next, ok, err := s.db.NextEffectAt(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("outbox: next effect", "err", err)
		} else if ok {
			wait = min(max(next.Sub(s.db.Time()), 0), idle) // the outbox keeps the store's time
		}
		if !sleep(ctx, wait, s.wake) {
			return
		}
	}
}

// sleep waits d, or until nudge or ctx ends (false).
func sleep(ctx context.Context, d time.Duration, nudge <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
	case <-nudge:
	}
	return true
}

// Pass claims the effects that are due and delivers them; it returns how
// many it took. Each is delivered with the game read as it is now (the
// effects of a pass may come from other processes) and recorded at once.
func (s *Sender) Pass(ctx context.Context) (int, error) {
	effects, err := s.db.ClaimEffects(ctx, s.owner, queue.Lease, batch)
	if err != nil {
		return 0, err
	}
	for _, e := range effects {
		unlock := s.lockStream(e)
		s.deliverClaimed(ctx, e) // the outcome is recorded and logged
		unlock()
	}
	return len(effects), nil
}

// lockStream takes the lock of e's queue of its stream and returns its
// release. A card edit takes the card's lock, not the game's: it may wait
// seconds for its channel's bucket, shared by every card there, and the
// game's posts (the click's answer reserves them) must not wait with it.
// The store orders the two queues.
func (s *Sender) lockStream(e store.Effect) (unlock func()) {
	if e.Queue != "" {
		return s.queued.Lock(streamKey(e))
	}
	return s.locks.Lock(streamKey(e))
}

// deliverClaimed delivers one effect the loop claimed.
func (s *Sender) deliverClaimed(ctx context.Context, e store.Effect) {
	ef, err := queue.Decode(e)
	if err != nil {
		s.giveUp(ctx, e, "unreadable: "+err.Error())
		return
	}
	// A card's edit claimed before a newer state of the card was
	// committed (which could not replace it then) shows a state already
	// gone: the newer edit follows, so this one is not sent. In a busy
	// channel, whose cards share one bucket of edits, that halves the
	// edits and the lag of the last one.
	if outdated, err := s.db.Outdated(ctx, e); err == nil && outdated {
		if err := s.db.RecordDeliveries(ctx, s.owner, []store.Delivery{{ID: e.ID, Result: store.Superseded}}); err != nil {
			s.log.Error("outbox: could not record a superseded edit", "game", e.GameID, "effect", e.ID, "err", err)
		}
		return
	}
	g, err := s.streamGame(ctx, e)
	if err != nil {
		s.log.Error("outbox: could not read the game", "game", e.GameID, "tournament", e.TournamentID, "effect", e.ID, "err", err)
		return
	}
	if d, _, _ := s.deliver(ctx, e, ef, g); d != nil {
		if err := s.db.RecordDeliveries(ctx, s.owner, []store.Delivery{*d}); err != nil {
			s.log.Error("outbox: could not record a delivery", "game", e.GameID, "effect", e.ID, "err", err)
		}
		if e.TournamentID == 0 {
			s.noteRecords(e.GameID, []store.Delivery{*d})
		}
	}
}

// streamKey is the key of the locks of e's outbox: its game's ID, or the
// negated ID of its tournament (games have positive IDs).
func streamKey(e store.Effect) int64 {
	if e.TournamentID != 0 {
		return -e.TournamentID
	}
	return e.GameID
}

// streamGame is the game e's effect is delivered with: its game as it is
// now, or for a tournament's effect the tournament's channel and card as
// a game's lobby message (the card is the message its edits target, and
// its post records it as malefiz.RoleTournament).
func (s *Sender) streamGame(ctx context.Context, e store.Effect) (*malefiz.Game, error) {
	if e.TournamentID == 0 {
		return s.db.Game(ctx, e.GameID)
	}
	t, err := s.db.Tournament(ctx, e.TournamentID)
	if err != nil {
		return nil, err
	}
	return &malefiz.Game{GuildID: t.GuildID, ChannelID: t.ChannelID, LobbyMessageID: t.MessageID, Locale: t.Locale}, nil
}

// noteRecords notes that deliveries of game id recorded message IDs (see
// recordings), when one of done did.
func (s *Sender) noteRecords(id int64, done []store.Delivery) {
	for _, d := range done {
		if d.Record != nil {
			s.ids.recorded(id, time.Now())
			return
		}
	}
}

// record records the outcomes of deliveries of game gameID, and notes
// (recorded or not) that message IDs of the game may have changed.
func (s *Sender) record(ctx context.Context, gameID int64, done []store.Delivery) error {
	err := s.db.RecordDeliveries(ctx, s.owner, done)
	s.noteRecords(gameID, done)
	return err
}

// Nudge wakes the loop to look at the outbox again.
func (s *Sender) Nudge() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// errPanic stands for a panic recovered while delivering.
var errPanic = errors.New("panic while delivering (logged with its stack)")

// deliver sends one claimed effect of game g (whose message IDs it updates
// with the new message's) and returns its outcome to record, if it is done
// (delivered, or given up): then the game's next effect may follow. An
// effect refused for now is put back for a retry (recorded at once; no
// outcome), however often that happened before: Discord's outages end, and
// nothing is lost to one. A final refusal gives the effect up at once.
func (s *Sender) deliver(ctx context.Context, e store.Effect, ef queue.Effect, g *malefiz.Game) (d *store.Delivery, next bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic while delivering an effect", "panic", p, "game", e.GameID, "effect", e.ID,
				"stack", string(debug.Stack()))
			d, next, err = &store.Delivery{ID: e.ID, Failed: true, Result: fmt.Sprintf("panic: %v", p)}, true, errPanic
		}
	}()
	if ef.Queue != "" || ef.Op == queue.DM || ef.Op == queue.Settle {
		// No one waits on these: near Discord's ban threshold the
		// limiter holds them back (see ratelimit.Deferrable).
		ctx = ratelimit.Deferrable(ctx)
	}
	result, rec, err := s.attempt(ctx, e, ef, g)
	switch {
	case err == nil:
		if rec != nil {
			setMessageID(g, *rec)
		}
		return &store.Delivery{ID: e.ID, Result: result, Record: rec}, true, nil
	case retryable(err):
		wait := backoff(e.Attempts)
		var le *ratelimit.Error
		if errors.As(err, &le) && le.RetryAfter > wait {
			wait = le.RetryAfter // never into a window Discord or the limiter named
		}
		s.log.Warn("outbox: Discord refused for now, will retry", "game", e.GameID, "effect", e.ID, "op", ef.Op,
			"attempt", e.Attempts+1, "in", wait, "err", err)
		if err := s.db.RetryEffect(ctx, s.owner, e.ID, wait, err.Error()); err != nil {
			s.log.Error("outbox: could not schedule a retry", "game", e.GameID, "effect", e.ID, "err", err)
		}
		return nil, false, err
	default:
		s.log.Warn("outbox: Discord refused, giving up", "game", e.GameID, "effect", e.ID, "op", ef.Op, "err", err)
		return &store.Delivery{ID: e.ID, Failed: true, Result: err.Error()}, true, err
	}
}

// setMessageID keeps a delivery's new message ID in g.
func setMessageID(g *malefiz.Game, rec malefiz.MessageRecord) {
	switch rec.Role {
	case malefiz.RoleLobby, malefiz.RoleTournament:
		g.LobbyMessageID = rec.MessageID
	case malefiz.RoleTurn:
		g.TurnMessageID = rec.MessageID
	case malefiz.RoleThread:
		g.ThreadID = rec.MessageID
	case malefiz.RoleReminder:
		g.ReminderMessageID = rec.MessageID
	}
}

func (s *Sender) giveUp(ctx context.Context, e store.Effect, reason string) {
	if err := s.db.EffectFailed(ctx, s.owner, e.ID, reason); err != nil {
		s.log.Error("outbox: could not record a failure", "game", e.GameID, "effect", e.ID, "err", err)
	}
}

// retryable reports whether Discord may take the request later: a rate
// limit, a server error, no answer at all (any error that is not Discord's
// answer, a limiter's included), or a message not made yet. Any other
// refusal (a missing permission, an unknown channel) is final.
func retryable(err error) bool {
	var ny *notYet
	if errors.As(err, &ny) {
		return true
	}
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		return re.Response.StatusCode == http.StatusTooManyRequests || re.Response.StatusCode >= 500
	}
	return true
}

// backoff is the wait before try attempts+2: 1 s, 2 s, 4 s, … up to
// maxBackoff, less a little jitter (at most a quarter), so that no wait is
// longer than maxBackoff.
func backoff(attempts int) time.Duration {
	d := maxBackoff
	if attempts < 6 {
		d = time.Second << attempts
	}
	return d - time.Duration(rand.Int64N(int64(d/4)+1))
}

// isCode reports whether err is Discord's JSON error with code.
func isCode(err error, code int) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Message != nil && re.Message.Code == code
}
