package game

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"
)

const (
	// idleWait is how long the scheduler sleeps when nothing is pending.
	idleWait = 10 * time.Minute
	// duePerPass bounds the games one pass handles; the next pass follows at once.
	duePerPass = 100
	// skipAfterPanic is how long a game whose timer panicked is left alone.
	skipAfterPanic = 5 * time.Minute
	// retryWait is how long the scheduler waits after it could not read
	// the next timer.
	retryWait = 5 * time.Second
	// timerLease is how long a process holds the due games it claimed.
	timerLease = time.Minute
	// claimedWait is how long the scheduler waits when the due games are
	// all held by other processes.
	claimedWait = time.Second
)

// RunScheduler acts on the games' timers until ctx ends: reminders, turns
// that ran out of time, lobbies never started, computers with more turns to
// play. It sleeps until the next timer stored in the database, so it
// resumes after a restart by itself.
func (s *Service) RunScheduler(ctx context.Context) {
	for {
		s.schedulerNext.Store(0) // looking now: every new timer wakes it again
		n, err := s.Tick(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Error("scheduler", "err", err)
		}
		wait := idleWait
		switch next, ok, err := s.db.NextWake(ctx); {
		case n >= duePerPass:
			wait = 0
		case err != nil:
			if ctx.Err() == nil {
				s.log.Error("scheduler: could not read the next timer", "err", err, "retry in", retryWait)
			}
			wait = retryWait
		case ok:
			wait = min(max(next.Sub(s.now()), 0), idleWait)
			if n == 0 && wait == 0 {
				wait = claimedWait // due, but another process holds it
			}
		}
		s.schedulerNext.Store(s.now().Add(wait).UnixMilli())
		if !sleep(ctx, wait, s.wakeScheduler) {
			return
		}
	}
}

// Tick handles every game whose timer is due now and returns how many it
// looked at. Each goes through the same change path as a click (the game's
// lock and version check), so a click and a timer at the same moment apply
// once. A game whose timer fails or panics is logged and skipped; the
// others are served.
//
// The due games are claimed in the database for timerLease, so that when
// several processes share it each game's timer is worked on by one of them.
func (s *Service) Tick(ctx context.Context) (int, error) {
	due, err := s.db.ClaimDueGames(ctx, s.owner, s.now(), timerLease, duePerPass)
	if err != nil {
		return 0, err
	}
	for _, id := range due {
		if s.skip.has(id, s.now()) {
			continue
		}
		if err := s.wakeSafely(ctx, id); err != nil {
			s.log.Error("timer", "game", id, "err", err)
		}
	}
	return len(due), nil
}

// wakeSafely runs a game's due timer; a panic is logged with its stack and
// the game is skipped for a while, so that one bad game never stops the
// others, nor crashes the process again and again.
func (s *Service) wakeSafely(ctx context.Context, id int64) (err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic in a timer; the game is skipped for a while", "game", id, "panic", p,
				"skip", skipAfterPanic, "stack", string(debug.Stack()))
			s.skip.add(id, s.now().Add(skipAfterPanic))
			err = fmt.Errorf("game %d: panic in its timer (logged with its stack)", id)
		}
	}()
	o, err := s.Change(ctx, Command{Game: id, Action: Due{}})
	if err != nil {
		return err
	}
	o.Deliver()
	return nil
}

// skipList remembers games left alone until a time.
type skipList struct {
	mu    sync.Mutex
	until map[int64]time.Time
}

func (s *skipList) add(id int64, until time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.until == nil {
		s.until = map[int64]time.Time{}
	}
	s.until[id] = until
}

func (s *skipList) has(id int64, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	until, ok := s.until[id]
	if ok && !now.Before(until) {
		delete(s.until, id)
		return false
	}
	return ok
}

// sleep waits for d, or until nudge wakes it; it reports false when ctx
// ended first.
func sleep(ctx context.Context, d time.Duration, nudge <-chan struct{}) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-nudge:
	case <-timer.C:
	}
	return true
}

// nudgeScheduler wakes the scheduler to look at the deadlines again when a
// game's timer at wake comes before the scheduler's next look.
func (s *Service) nudgeScheduler(wake time.Time) {
	if next := s.schedulerNext.Load(); wake.IsZero() || (next != 0 && wake.UnixMilli() >= next) {
		return
	}
	select {
	case s.wakeScheduler <- struct{}{}:
	default:
	}
}
