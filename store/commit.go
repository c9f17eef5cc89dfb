package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/malefiz-discord/malefiz"
)

// Commit is everything one action writes, in one transaction: a game created
// or changed, the events it appends to the game's log, the results that
// finish it, and the effects it adds to the outbox.
type Commit struct {
	// Game is created when its ID is 0 (as CreateGame), else written at
	// Game.Version (as UpdateGame, or FinishGame when Results is set).
	Game    *malefiz.Game
	Events  []malefiz.Event
	Results []malefiz.Result // non-nil: the game finishes (see FinishGame)
	// Rate rates the finished game; nil means the DB's Rate.
	Rate Rating
	// Rated, when set, is called inside the transaction with the results
	// as rated (each player's rating before and after), before Effects
	// are written: it may complete their payloads with the ratings, which
	// are known only there, so that they are final when committed. An
	// error rolls the commit back.
	Rated func(rated []malefiz.Result) error
	// Effects are appended to the game's outbox, each to its queue (see
	// Effect), in order; Commit sets their ID, GameID and CreatedAt.
	Effects []Effect
	// TournamentEffects are appended to the outbox of the game's
	// tournament (Game.TournamentID), as Effects to the game's: the
	// standings card's edit that a finished game brings, say. Commit sets
	// their ID, TournamentID and CreatedAt.
	TournamentEffects []Effect
	// Created, when set and the game is new, is called inside the
	// transaction with the game's ID, once it is known, before Effects
	// are written: it returns the effects that name the game (a lobby
	// message whose buttons carry its ID), written after Effects, so
	// that the game and its messages are committed together. On success
	// Effects holds them all. An error rolls the commit back.
	Created func(id int64) ([]Effect, error)
	// Owner, when set, claims the new effects of the main queue for Lease:
	// the writer delivers them itself right after the commit, and anyone
	// may take them over once the lease runs out (see ClaimEffects).
	// Queued effects are never claimed here: ClaimEffects takes them when
	// they are due.
	Owner string
	Lease time.Duration
	// Coach marks the game as waiting for the coach, in the same
	// transaction (the commit has moves to grade; see ClaimGrading).
	Coach bool
	// Head is set by Commit: the new effects of the main queue are its
	// head (no older main effect is pending), so their owner may deliver
	// them now, in order, without asking the store (see ClaimedEffects).
	// False when the commit has no main effect.
	Head bool
}

// Commit writes c in one transaction, committed to disk before it returns.
// On ErrConflict, ErrChannelBusy or any other error nothing is written and
// c.Game is unchanged.
func (db *DB) Commit(ctx context.Context, c *Commit) error {
	g := c.Game
	what := fmt.Sprintf("update game %d", g.ID)
	switch {
	case g.ID == 0:
		what = "create game"
	case c.Results != nil:
		what = fmt.Sprintf("finish game %d", g.ID)
	}
	if c.Results != nil {
		if err := checkResults(c.Results); err != nil {
			return fmt.Errorf("store: %s: %w", what, conflict(err))
		}
	}
	now := db.now()

	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, conflict(err))
	}
	defer tx.Rollback()

	var (
		id    = g.ID
		u     updated
		rated []malefiz.Result
	)
	all := c.Effects
	if id == 0 {
		if id, err = createGame(ctx, tx, g, now, c.Events); err != nil {
			return fmt.Errorf("store: %s: %w", what, conflict(err))
		}
		if c.Created != nil {
			more, err := c.Created(id)
			if err != nil {
				return fmt.Errorf("store: %s: %w", what, err)
			}
			all = append(slices.Clip(all), more...)
		}
	} else {
		if u, err = updateGame(ctx, tx, g, c.Results != nil, now, c.Events); err != nil {
			return fmt.Errorf("store: %s: %w", what, conflict(err))
		}
		if c.Results != nil {
			if rated, err = recordResults(ctx, tx.dtx, id, g.GuildID, now, c.Results, db.rating(c)); err != nil {
				return fmt.Errorf("store: %s: %w", what, conflict(err))
			}
			if c.Rated != nil {
				if err := c.Rated(rated); err != nil {
					return fmt.Errorf("store: %s: %w", what, err)
				}
			}
		}
	}
	effects, err := insertEffects(ctx, tx, stream{game: id}, now, all, c.Owner, c.Lease)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, conflict(err))
	}
	tournament := g.TournamentID
	if g.ID != 0 {
		tournament = u.tournament // as stored: fixed at creation
	}
	if len(c.TournamentEffects) > 0 && tournament == 0 {
		return fmt.Errorf("store: %s: tournament effects for a game outside a tournament", what)
	}
	if tournament != 0 && g.ID != 0 && (len(c.TournamentEffects) > 0 || !u.status.Open()) {
		// The game is over, and its round may be (a new game's table
		// is linked by createGame); or it writes to its tournament's
		// outbox. The tournament is locked first (see lockTournament).
		if err := tournamentGameChanged(ctx, tx, tournament, !u.status.Open(), now); err != nil { // tournament.go
			return fmt.Errorf("store: %s: %w", what, conflict(err))
		}
	}
	var tournamentEffects []Effect
	if len(c.TournamentEffects) > 0 {
		if tournamentEffects, err = insertEffects(ctx, tx, stream{tournament: tournament}, now, c.TournamentEffects, "", 0); err != nil {
			return fmt.Errorf("store: %s: %w", what, conflict(err))
		}
	}
	if c.Coach {
		if err := markCoaching(ctx, tx, id, c.Results != nil, now); err != nil { // coach.go
			return fmt.Errorf("store: %s: %w", what, conflict(err))
		}
	}
	head := false
	if i := slices.IndexFunc(effects, func(e Effect) bool { return e.Queue == "" }); i >= 0 {
		if head, err = firstInQueue(ctx, tx, stream{game: id}, effects[i].ID); err != nil {
			return fmt.Errorf("store: %s: %w", what, conflict(err))
		}
	}
	if err := notifyGame(ctx, tx, db.d, c.Owner, id); err != nil { // notify.go
		return fmt.Errorf("store: %s: %w", what, conflict(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: %w", what, conflict(err))
	}
	db.changes.Add(1)

	if g.ID == 0 {
		g.ID, g.Version, g.LastSeq = id, 1, int64(len(c.Events))
		g.CreatedAt, g.UpdatedAt, g.FinishedAt = now, now, time.Time{}
	} else {
		u.apply(g)
	}
	copy(c.Results, rated)
	copy(c.TournamentEffects, tournamentEffects)
	if len(all) > len(c.Effects) {
		c.Effects = effects
	} else {
		copy(c.Effects, effects)
	}
	c.Head = head
	return nil
}

// rating is the rule that rates c's game: its own, else the DB's.
func (db *DB) rating(c *Commit) Rating {
	if c.Rate != nil {
		return c.Rate
	}
	return db.Rate
}
