package game

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/store"
)

// The coach grades the moves of the human players (engine/ai's Grader) in
// the background: a commit of a game with people in it queues the game,
// and the coach's loop (RunCoach) grades the rolls not graded yet and
// stores their grades with the game. No click waits for it. When a
// finished game is graded whole, the coach's verdict (table.CoachMessage)
// goes into the outbox with the last grades, in one transaction, and the
// players' accuracies into their results. After a restart the loop takes
// up the games whose grading is not final.

// Coaching is what the coach needs of the database; *store.DB implements
// it.
type Coaching interface {
	Grading(ctx context.Context, gameID int64) (*store.Grading, error)
	Grades(ctx context.Context, gameID int64) ([]store.Grade, bool, error)
	SaveGrades(ctx context.Context, c *store.Coaching) error
	CoachingOpen(ctx context.Context) ([]int64, error)
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
// at most that much work.
const coachBatch = 16

// coachIdle is how long the coach's loop sleeps without a game to grade.
const coachIdle = time.Minute

// coach queues and grades games.
type coach struct {
	db     Coaching
	log    *slog.Logger
	out    *outbox.Sender
	layout Layout
	off    bool
	wake   chan struct{}

	mu     sync.Mutex
	queue  []int64
	queued map[int64]bool

	grader  *ai.Grader // used by one grading at a time (gradeMu)
	gradeMu sync.Mutex
}

func newCoach(db Coaching, log *slog.Logger, out *outbox.Sender, layout Layout, off bool) *coach {
	return &coach{db: db, log: log, out: out, layout: layout, off: off, wake: make(chan struct{}, 1),
		queued: map[int64]bool{}, grader: ai.NewGrader()}
}

// nudge queues game id to be graded.
func (c *coach) nudge(id int64) {
	if c.off {
		return
	}
	c.mu.Lock()
	if !c.queued[id] {
		c.queued[id] = true
		c.queue = append(c.queue, id)
	}
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// next takes the next queued game; ok is false when none is.
func (c *coach) next() (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		return 0, false
	}
	id := c.queue[0]
	c.queue = c.queue[1:]
	delete(c.queued, id) // a commit from now on queues it again
	return id, true
}

// RunCoach grades the games' moves until ctx ends: first the games whose
// grading a previous run left unfinished, then each game as its commits
// queue it. It does nothing when the coach is off (Config.CoachOff).
func (s *Service) RunCoach(ctx context.Context) {
	c := s.coach
	if c.off {
		return
	}
	if err := c.resume(ctx); err != nil && ctx.Err() == nil {
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

// resume queues the games whose grading is not final.
func (c *coach) resume(ctx context.Context) error {
	ids, err := c.db.CoachingOpen(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		c.nudge(id)
	}
	return nil
}

// pass grades the queued games, one after the other.
func (c *coach) pass(ctx context.Context) (int, error) {
	n := 0
	var errs []error
	for ctx.Err() == nil {
		id, ok := c.next()
		if !ok {
			break
		}
		n++
		if err := c.grade(ctx, id); err != nil {
			errs = append(errs, fmt.Errorf("game %d: %w", id, err))
		}
	}
	return n, errors.Join(errs...)
}

// grade grades the rolls of game id's people not graded yet, stores them,
// and when the game is finished and graded whole, its verdict.
func (c *coach) grade(ctx context.Context, id int64) error {
	c.gradeMu.Lock()
	defer c.gradeMu.Unlock()
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
		return c.db.SaveGrades(ctx, &store.Coaching{GameID: id, Final: true})
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
	var batch []store.Grade
	for _, r := range ai.Rolls(g) {
		if !people[r.Color] || graded[r.Index] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		batch = append(batch, storedGrade(c.grader.Grade(r, g.Rules())))
		if !rest(ctx, time.Duration(float64(time.Since(start))*(1-coachShare)/coachShare)) {
			return ctx.Err()
		}
		if len(batch) == coachBatch {
			if err := c.db.SaveGrades(ctx, &store.Coaching{GameID: id, Grades: batch}); err != nil {
				return err
			}
			stored, batch = append(stored, batch...), nil
		}
	}
	save := &store.Coaching{GameID: id, Grades: batch}
	if sg.Status == malefiz.StatusFinished && g.Over() {
		all, err := EngineGrades(append(stored, batch...))
		if err != nil {
			return err
		}
		msg := t.CoachMessage(all, t.Hinted(events))
		e, err := c.layout.Effect(nil, sg, table.Effect{Kind: table.Post, Message: &msg, InPlay: true}).Stored()
		if err != nil {
			return err
		}
		save.Final, save.Effects = true, []store.Effect{e}
		for col, acc := range t.Accuracies(all) {
			save.Accuracies = append(save.Accuracies, store.Accuracy{Color: col.String(), Accuracy: acc})
		}
	}
	if len(save.Grades) == 0 && !save.Final {
		return nil
	}
	if err := c.db.SaveGrades(ctx, save); err != nil {
		return err
	}
	if save.Final {
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

// EngineGrades reads grades as the store keeps them back into the
// engine's (malefiz analyse prints them).
func EngineGrades(stored []store.Grade) ([]ai.Grade, error) {
	out := make([]ai.Grade, len(stored))
	for i, s := range stored {
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
		out[i] = g
	}
	return out, nil
}
