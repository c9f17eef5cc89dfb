package bot

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

	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// The sender delivers the outbox: the effects a change committed, in order
// per game. The process that committed them delivers them at once (they are
// claimed by it for deliveryLease); the sender loop of any process takes
// over what is left: effects whose delivery failed and waits for a retry,
// and those of a process that died before delivering them.
//
// Never twice: a message is created with Discord's nonce ("mf" and the
// effect's ID) and enforce_nonce, so that when a crash comes after Discord
// created the message but before its ID was recorded, the repeated request
// returns the message made the first time instead of a second one (Discord
// keeps nonces for a few minutes; a process restarts well within that). An
// edit sets the whole message and is the same when sent again; recording an
// interaction's response reads it again.
//
// Why not River (riverqueue/river, v0.51.2, read before this was written):
// its open-source queue has unique jobs but no ordering of jobs by a key,
// and a game's effects must go out in order (post the turn, then collapse
// it); its SQLite driver calls itself "in early testing" and asks for a
// single-connection pool, while the store keeps one write connection and a
// read pool of its own on the same file, so the two would wait on each
// other's locks. The outbox is one table and five statements instead.
const (
	// senderBatch is how many effects one pass of the sender claims.
	senderBatch = 20
	// senderIdle is the longest the sender sleeps: other processes' new
	// effects are seen at the latest then.
	senderIdle = 10 * time.Second
	// maxAttempts is how often an effect is tried before it is given up.
	maxAttempts = 30
	// maxBackoff bounds the wait between two tries.
	maxBackoff = time.Minute
	// callTimeout bounds one Discord call of a delivery.
	callTimeout = 20 * time.Second
)

// sender delivers the outbox: the effects of the changes this process
// commits, at once, and what is left to deliver (retries, other processes'
// effects) in its loop.
type sender struct {
	db    senderStore
	dc    Discord
	log   *slog.Logger
	owner string
	board func(render.Scene) (*discordgo.File, error) // draws a message's board
	locks keyedLocks                                  // one delivery at a time per game
	ids   recordings                                  // message IDs recorded while a change is under way
	wake  chan struct{}                               // the loop looks at the outbox again
}

// recordings counts, for each game a change is under way on (watch to
// end), the deliveries of this process that recorded message IDs of the
// game: a change loads the game while an earlier one's effects may still
// be delivered, so the IDs it loaded may be older than its delivery needs.
type recordings struct {
	mu sync.Mutex
	m  map[int64]*watchedGame
}

type watchedGame struct {
	watchers int    // changes under way
	records  uint64 // deliveries that recorded IDs, ever while watched
}

// watch starts watching game id and returns the count to compare with
// (see since).
func (w *recordings) watch(id int64) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m == nil {
		w.m = map[int64]*watchedGame{}
	}
	g := w.m[id]
	if g == nil {
		g = &watchedGame{}
		w.m[id] = g
	}
	g.watchers++
	return g.records
}

// end ends one watch of game id.
func (w *recordings) end(id int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if g := w.m[id]; g != nil {
		if g.watchers--; g.watchers <= 0 {
			delete(w.m, id)
		}
	}
}

// recorded notes that a delivery recorded message IDs of game id (after
// they are written).
func (w *recordings) recorded(id int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if g := w.m[id]; g != nil {
		g.records++
	}
}

// since reports whether a delivery recorded IDs of game id since watch
// returned count.
func (w *recordings) since(id int64, count uint64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	g := w.m[id]
	return g != nil && g.records != count
}

// senderStore is what the sender reads and writes.
type senderStore interface {
	Outbox
	Game(ctx context.Context, id int64) (*store.Game, error)
	UserSettings(ctx context.Context, userID string) (store.UserSettings, error)
	SetUserSettings(ctx context.Context, userID string, s store.UserSettings) error
}

// deliverCommitted delivers the effects a commit just wrote and claimed for
// this process, in order, with the game as committed (no read), loaded
// while watch returned since; held unlocks the game's delivery, which the
// caller took at the commit. The message IDs are read again when they may
// be older than the effects need: a delivery of this process recorded one
// since the load, or the click came from a message not recorded then
// (unrecorded; its post may have been recorded by another process); an
// ID the store does not have stays as committed. It returns Discord's
// refusal for a missing permission, if one came, for the user to hear of.
func (s *sender) deliverCommitted(g store.Game, c *store.Commit, efs []effect, held func(), since uint64, unrecorded bool) (refused error) {
	defer held()
	ctx, cancel := context.WithTimeout(context.Background(), 2*callTimeout)
	defer cancel()
	if unrecorded || s.ids.since(g.ID, since) {
		now, err := s.db.Game(ctx, g.ID)
		if err != nil {
			s.log.Error("outbox: could not read the game's messages", "game", g.ID, "err", err)
			s.nudge() // the loop delivers them, with the game read then
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
	return s.deliverInOrder(ctx, &g, c.Effects, efs, c.Results, true)
}

// deliverPending delivers, after a commit whose effects wait behind older
// ones of the game (whose delivery by this process may still be going on),
// the effects at the head of the game's queue that this process holds,
// with the game as it is read then. What another process holds, or what
// waits for a retry, is the sender loop's.
func (s *sender) deliverPending(gameID int64) (refused error) {
	unlock := s.locks.lock(gameID)
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*callTimeout)
	defer cancel()
	effects, err := s.db.ClaimedEffects(ctx, s.owner, gameID)
	if err != nil || len(effects) == 0 {
		if err != nil {
			s.log.Error("outbox", "game", gameID, "err", err)
		}
		s.nudge()
		return nil
	}
	g, err := s.db.Game(ctx, gameID)
	if err != nil {
		s.log.Error("outbox: could not read the game", "game", gameID, "err", err)
		s.nudge()
		return nil
	}
	efs := make([]effect, len(effects))
	var results []store.Result
	for i, e := range effects {
		if err := json.Unmarshal(e.Payload, &efs[i]); err != nil {
			s.nudge() // the loop gives it up
			return nil
		}
		efs[i].LinkTo = 0 // its index is its commit's: the link is the target's
		if efs[i].Ratings && results == nil {
			if results, err = s.db.GameResults(ctx, gameID); err != nil {
				s.nudge()
				return nil
			}
		}
	}
	return s.deliverInOrder(ctx, g, effects, efs, results, false)
}

// deliverInOrder delivers effects of game g, in order: each message ID
// Discord assigns is kept in g for the effects after it, and for a DM
// that links to an earlier effect of the list. The outcomes are recorded
// in one transaction at the end. An effect that fails for now is left to
// the sender loop, with the ones after it.
func (s *sender) deliverInOrder(ctx context.Context, g *store.Game, effects []store.Effect, efs []effect, results []store.Result, linked bool) (refused error) {
	var done []store.Delivery
	defer func() {
		if err := s.db.RecordDeliveries(ctx, s.owner, done); err != nil {
			s.log.Error("outbox: could not record the deliveries", "game", g.ID, "err", err)
			s.nudge()
		}
		s.noteRecords(g.ID, done)
	}()
	posted := make([]string, len(effects)) // the message IDs of the posts
	for i, e := range effects {
		ef := efs[i]
		if k := ef.LinkTo; linked && k > 0 && k <= i {
			ef.linked = posted[k-1]
		}
		d, next, err := s.deliver(ctx, e, ef, g, results)
		if d != nil && !d.Failed && ef.Op == opPost {
			posted[i] = d.Result
		}
		if refused == nil && (isDiscordCode(err, discordgo.ErrCodeMissingPermissions) || isDiscordCode(err, discordgo.ErrCodeMissingAccess)) {
			refused = err
		}
		if d != nil {
			done = append(done, *d)
		}
		if !next {
			s.nudge()
			return refused
		}
	}
	return refused
}

// RunSender delivers the outbox until ctx ends: what could not be delivered
// at once, and what another process left behind.
func (b *Bot) RunSender(ctx context.Context) { b.out.run(ctx) }

// SendPass claims the effects that are due and delivers them; it returns
// how many it took.
func (b *Bot) SendPass(ctx context.Context) (int, error) { return b.out.pass(ctx) }

// run is the sender's loop (see RunSender).
func (s *sender) run(ctx context.Context) {
	for ctx.Err() == nil {
		n, err := s.pass(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Error("outbox", "err", err)
		}
		if n > 0 {
			continue
		}
		wait := senderIdle
		if next, ok, err := s.db.NextEffectAt(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("outbox: next effect", "err", err)
		} else if ok {
			wait = min(max(next.Sub(s.db.Time()), 0), senderIdle) // the outbox keeps the store's time
		}
		if !sleep(ctx, wait, s.wake) {
			return
		}
	}
}

// pass claims the effects that are due and delivers them; it returns how
// many it took. Each is delivered with the game read as it is now (the
// effects of a pass may come from other processes) and recorded at once.
func (s *sender) pass(ctx context.Context) (int, error) {
	effects, err := s.db.ClaimEffects(ctx, s.owner, deliveryLease, senderBatch)
	if err != nil {
		return 0, err
	}
	for _, e := range effects {
		unlock := s.locks.lock(e.GameID)
		s.deliverClaimed(ctx, e) // the outcome is recorded and logged
		unlock()
	}
	return len(effects), nil
}

// deliverClaimed delivers one effect the sender loop claimed.
func (s *sender) deliverClaimed(ctx context.Context, e store.Effect) {
	var ef effect
	if err := json.Unmarshal(e.Payload, &ef); err != nil {
		s.giveUp(ctx, e, "unreadable: "+err.Error())
		return
	}
	g, err := s.db.Game(ctx, e.GameID)
	if err != nil {
		s.log.Error("outbox: could not read the game", "game", e.GameID, "effect", e.ID, "err", err)
		return
	}
	var results []store.Result
	if ef.Ratings {
		if results, err = s.db.GameResults(ctx, e.GameID); err != nil {
			s.log.Error("outbox: could not read the results", "game", e.GameID, "effect", e.ID, "err", err)
			return
		}
	}
	if d, _, _ := s.deliver(ctx, e, ef, g, results); d != nil {
		if err := s.db.RecordDeliveries(ctx, s.owner, []store.Delivery{*d}); err != nil {
			s.log.Error("outbox: could not record a delivery", "game", e.GameID, "effect", e.ID, "err", err)
		}
		s.noteRecords(e.GameID, []store.Delivery{*d})
	}
}

// noteRecords tells the changes under way on game id that deliveries
// recorded message IDs (see recordings), when one of done did.
func (s *sender) noteRecords(id int64, done []store.Delivery) {
	for _, d := range done {
		if d.Record != nil {
			s.ids.recorded(id)
			return
		}
	}
}

// nudge wakes the loop to look at the outbox again.
func (s *sender) nudge() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// deliver sends one claimed effect of game g (whose message IDs it updates
// with the new message's) and returns its outcome to record, if it is done
// (delivered, or given up): then the game's next effect may follow. An
// effect refused for now is put back for a retry (recorded at once; no
// outcome) and Discord's refusal returned.
func (s *sender) deliver(ctx context.Context, e store.Effect, ef effect, g *store.Game, results []store.Result) (d *store.Delivery, next bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic while delivering an effect", "panic", p, "game", e.GameID, "effect", e.ID,
				"stack", string(debug.Stack()))
			d, next, err = &store.Delivery{ID: e.ID, Failed: true, Result: fmt.Sprintf("panic: %v", p)}, true, errPanic
		}
	}()
	result, rec, err := s.attempt(ctx, e, ef, g, results)
	switch {
	case err == nil:
		if rec != nil {
			setMessageID(g, *rec)
		}
		return &store.Delivery{ID: e.ID, Result: result, Record: rec}, true, nil
	case retryable(err) && e.Attempts+1 < maxAttempts:
		wait := backoff(e.Attempts)
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
func setMessageID(g *store.Game, rec store.MessageRecord) {
	switch rec.Role {
	case store.RoleLobby:
		g.LobbyMessageID = rec.MessageID
	case store.RoleTurn:
		g.TurnMessageID = rec.MessageID
	case store.RoleThread:
		g.ThreadID = rec.MessageID
	case store.RoleReminder:
		g.ReminderMessageID = rec.MessageID
	}
}

func (s *sender) giveUp(ctx context.Context, e store.Effect, reason string) {
	if err := s.db.EffectFailed(ctx, s.owner, e.ID, reason); err != nil {
		s.log.Error("outbox: could not record a failure", "game", e.GameID, "effect", e.ID, "err", err)
	}
}

// retryable reports whether Discord may take the request later: a rate
// limit, a server error, no answer at all, or a message not made yet. Any other refusal (a missing
// permission, an unknown channel) is final.
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
// maxBackoff, with a little jitter.
func backoff(attempts int) time.Duration {
	d := maxBackoff
	if attempts < 6 {
		d = time.Second << attempts
	}
	return d + time.Duration(rand.Int64N(int64(d/4)+1))
}
