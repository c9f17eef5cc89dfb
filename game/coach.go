package game

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/store"
)

// The coach grades the moves of the human players (engine/ai's Grader) in
// the background. A commit with moves to grade marks its game in the
// database as waiting for the coach (store.Commit.Coach, in the same
// transaction), and the coach's loop (RunCoach) claims one waiting game at
// a time (store.ClaimGrading: finished games first, so that verdicts go
// out; then the game that has waited longest), grades its rolls not graded
// yet and stores their grades with the game. No click waits for it, and
// replicas share the work by their claims; a coach that stops leaves its
// claim to run out. When a finished game is graded whole, the coach's
// verdict (table.CoachMessage) goes into the outbox with the last grades,
// in one transaction, and the players' accuracies into their results.
//
// The coach keeps up by not falling behind: a game that waited for a coach
// longer than DefaultCoachBehind has its waiting rolls marked skipped instead of
// graded, and its verdict says how many moves the coach could not grade.
// So under more clicks than the coach can grade, the wait stays bounded
// (DefaultCoachBehind and one game's grading) and the coach's time goes to the
// games people are still looking at.

// Coaching is what the coach needs of the database; *store.DB implements
// it.
type Coaching interface {
	ClaimGrading(ctx context.Context, owner string, lease time.Duration) (store.Claim, bool, error)
	ResumeCoaching(ctx context.Context) error
	Grading(ctx context.Context, gameID int64) (*store.Grading, error)
	Grades(ctx context.Context, gameID int64) ([]store.Grade, bool, error)
	SaveGrades(ctx context.Context, c *store.Coaching) error
}

// graded reports whether events give the coach work: a move or a pass to
// grade, or the end of the game (its verdict).
func graded(events []malefiz.Event) bool {
	for _, e := range events {
		switch e.Kind {
		case malefiz.EventMove, malefiz.EventPlace, malefiz.EventPass, malefiz.EventWin, malefiz.EventResign, malefiz.EventCancel:
			return true
		}
	}
	return false
}

// coachShare is the share of one core the coach's grading takes at most:
// after each graded roll it rests (1−share)/share times as long as the
// grading took, so that the clicks keep the machine's cores.
const coachShare = 0.5

// coachBatch is how many graded rolls are stored at once: a restart loses
// at most that much work. Each batch renews the coach's claim.
const coachBatch = 16

// coachIdle is how long the coach's loop sleeps without a game to grade
// (a commit on this process wakes it sooner; one on another replica is
// seen then).
const coachIdle = time.Minute

// coachLease is how long a claim on a game to grade lasts unless renewed:
// a coach that stopped leaves the game to another after that.
const coachLease = 2 * time.Minute

// DefaultCoachBehind is how long a game may wait for a coach unless
// Config.CoachBehind says otherwise: past it, its waiting rolls are
// skipped, not graded (see above).
const DefaultCoachBehind = 10 * time.Minute

// coach claims and grades games.
type coach struct {
	db     Coaching
	log    *slog.Logger
	out    queue.Outbox
	layout Layout
	off    bool
	owner  string
	stale  time.Duration
	wake   chan struct{}

	grader  *ai.Grader // used by one grading at a time (gradeMu)
	gradeMu sync.Mutex
}

func newCoach(db Coaching, log *slog.Logger, out queue.Outbox, layout Layout, off bool, owner string) *coach {
	return &coach{db: db, log: log, out: out, layout: layout, off: off, owner: owner, stale: DefaultCoachBehind,
		wake: make(chan struct{}, 1), grader: ai.NewGrader()}
}

// nudge wakes the coach's loop: a commit marked a game as waiting.
func (c *coach) nudge() {
	if c.off {
		return
	}
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// RunCoach grades the games waiting for the coach until ctx ends: those a
// previous run or another replica left (their claims run out), and each
// game as its commits mark it. It does nothing when the coach is off
// (Config.CoachOff).
func (s *Service) RunCoach(ctx context.Context) {
	c := s.coach
	if c.off {
		return
	}
	if err := c.db.ResumeCoaching(ctx); err != nil && ctx.Err() == nil {
		c.log.Error("coach: resume", "err", err)
	}
	for ctx.Err() == nil {
		if _, err := c.pass(ctx); err != nil && ctx.Err() == nil {
			c.log.Error("coach", "err", err)
		}
		if !sleep(ctx, coachIdle, c.wake) {
			return
		}
	}
}

// pass grades the waiting games, one claim after the other, until none
// waits, and returns how many it graded.
func (c *coach) pass(ctx context.Context) (int, error) {
	n := 0
	var errs []error
	for ctx.Err() == nil {
		claim, ok, err := c.db.ClaimGrading(ctx, c.owner, coachLease)
		if err != nil {
			return n, errors.Join(append(errs, err)...)
		}
		if !ok {
			break
		}
		n++
		if err := c.grade(ctx, claim); err != nil {
			errs = append(errs, fmt.Errorf("game %d: %w", claim.GameID, err))
		}
	}
	return n, errors.Join(errs...)
}

// grade grades the rolls of the claimed game's people not graded yet
// (skips them when the game waited past c.stale), stores them, and when
// the game is finished and graded whole, its verdict; it lets the claim go
// at the end, but after an error.
func (c *coach) grade(ctx context.Context, claim store.Claim) (err error) {
	c.gradeMu.Lock()
	defer c.gradeMu.Unlock()
	id := claim.GameID
	save := &store.Coaching{GameID: id, Owner: c.owner, Release: true}
	defer func() {
		// Nothing saved: let the claim go all the same; after a shutdown
		// with the game still waiting (Again), for the next coach. After
		// another error the claim runs out instead, and the game is
		// graded again then.
		interrupted := ctx.Err() != nil
		if save != nil && (err == nil || interrupted) {
			release := &store.Coaching{GameID: id, Owner: c.owner, Release: true, Again: interrupted}
			if err := c.db.SaveGrades(context.WithoutCancel(ctx), release); err != nil {
				c.log.Warn("coach: release", "game", id, "err", err)
			}
		}
	}()
	gr, err := c.db.Grading(ctx, id)
	if err != nil {
		return err
	}
	sg, events, stored := gr.Game, gr.Events, gr.Grades
	if sg.Status == malefiz.StatusLobby || gr.Final {
		return nil
	}
	t := &table.Table{Game: sg}
	colors := t.GradedColors()
	if len(colors) == 0 {
		return nil
	}
	if sg.Status == malefiz.StatusCancelled {
		save.Final = true
		err := c.db.SaveGrades(ctx, save)
		save = nil
		return err
	}
	g, err := table.Replay(sg, events)
	if err != nil || g == nil {
		return err
	}
	t.State = g
	graded := map[int]bool{}
	for _, s := range stored {
		graded[s.Index] = true
	}
	people := map[engine.Color]bool{}
	for _, col := range colors {
		people[col] = true
	}
	skip := claim.Waited > c.stale
	if skip {
		c.log.Warn("coach: behind, skipping the game's waiting rolls", "game", id, "waited", claim.Waited.Round(time.Second))
	}
	var batch []store.Grade
	for _, r := range ai.Rolls(g) {
		if !people[r.Color] || graded[r.Index] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if skip {
			batch = append(batch, skippedGrade(r))
			continue
		}
		start := time.Now()
		batch = append(batch, storedGrade(c.grader.Grade(r, g.Rules())))
		if !rest(ctx, time.Duration(float64(time.Since(start))*(1-coachShare)/coachShare)) {
			return ctx.Err()
		}
		if len(batch) == coachBatch {
			if err := c.db.SaveGrades(ctx, &store.Coaching{GameID: id, Grades: batch, Owner: c.owner, Lease: coachLease}); err != nil {
				return err
			}
			stored, batch = append(stored, batch...), nil
		}
	}
	save.Grades = batch
	if sg.Status == malefiz.StatusFinished && g.Over() {
		all := append(stored, batch...)
		grades, err := EngineGrades(all)
		if err != nil {
			return err
		}
		msg := t.CoachMessage(grades, t.Hinted(events))
		if skipped := Skipped(all); skipped > 0 {
			t.NotGraded(&msg, skipped, len(all))
		}
		e, err := c.layout.Effect(nil, sg, table.Effect{Kind: table.Post, Message: &msg, InPlay: true}).Stored()
		if err != nil {
			return err
		}
		save.Final, save.Effects = true, []store.Effect{e}
		for col, acc := range t.Accuracies(grades) {
			save.Accuracies = append(save.Accuracies, store.Accuracy{Color: col.String(), Accuracy: acc})
		}
	}
	err = c.db.SaveGrades(ctx, save)
	final := save.Final
	save = nil
	if err != nil {
		return err
	}
	if final {
		c.out.Nudge()
	}
	return nil
}

// rest waits d, or until ctx ends (false).
func rest(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// storedGrade is g as the store keeps it.
func storedGrade(g ai.Grade) store.Grade {
	s := store.Grade{Index: g.Index, Color: g.Color.String(), Turn: g.Turn, Roll: g.Roll, Options: g.Options,
		Loss: g.Loss, Chance: g.Chance, Luck: g.Luck}
	if g.Move != ai.NoMove {
		s.Move = g.Move.String()
	}
	if g.Best != ai.NoMove {
		s.Best = g.Best.String()
	}
	return s
}

// skippedGrade is roll r marked as not graded (see DefaultCoachBehind).
func skippedGrade(r ai.Roll) store.Grade {
	s := store.Grade{Index: r.Index, Color: r.Color.String(), Turn: r.Turn, Roll: r.Roll, Skipped: true}
	if r.Move != ai.NoMove {
		s.Move = r.Move.String()
	}
	return s
}

// Skipped counts the rolls of stored the coach skipped (see DefaultCoachBehind).
func Skipped(stored []store.Grade) int {
	n := 0
	for _, s := range stored {
		if s.Skipped {
			n++
		}
	}
	return n
}

// EngineGrades reads grades as the store keeps them back into the
// engine's (malefiz analyse prints them), leaving out the rolls the coach
// skipped.
func EngineGrades(stored []store.Grade) ([]ai.Grade, error) {
	out := make([]ai.Grade, 0, len(stored))
	for _, s := range stored {
		if s.Skipped {
			continue
		}
		c, err := engine.ParseColor(s.Color)
		if err != nil {
			return nil, err
		}
		g := ai.Grade{Index: s.Index, Color: c, Turn: s.Turn, Roll: s.Roll, Move: ai.NoMove, Best: ai.NoMove,
			Options: s.Options, Loss: s.Loss, Chance: s.Chance, Luck: s.Luck}
		if s.Move != "" {
			if g.Move, err = engine.ParseMove(s.Move); err != nil {
				return nil, err
			}
		}
		if s.Best != "" {
			if g.Best, err = engine.ParseMove(s.Best); err != nil {
				return nil, err
			}
		}
		out = append(out, g)
	}
	return out, nil
}
