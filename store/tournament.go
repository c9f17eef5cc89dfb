package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/malefiz-discord/malefiz"
)

// A tournament is kept as its row (setup, status, version, card, wake),
// its entrants, its rounds, their tables and each table's seats; a table's
// game is a game like any other, which names its tournament, round and
// table (malefiz.Game.TournamentID) and is linked to the table when it is
// created (Commit). Every write of a tournament is one transaction at the
// version it was computed from, like a game's, and adds its effects to the
// tournament's outbox, which keeps the order and queues of a game's (see
// Effect). The store refuses what the record forbids: a join after the
// sign-up or beyond the tournament's size, a round that seats someone
// twice or a withdrawn entrant, a round opened while the last one is still
// being played, a table given a second game. Pairing and scoring are
// package tournament's (tournament.FromKept reads a tournament as kept).
//
// WakeAt is kept by the store from the record: a tournament in sign-up is
// due at its start time; a running one at once while its current round
// has tables without a game, or once its games are all over, else at the
// round's deadline; paused and ended ones never. A game that ends or is
// created for a table updates it in its Commit, so that a round's end is
// never missed, and ClaimDueTournaments hands each due tournament to one
// process at a time, as ClaimDueGames does games.

// MaxEntrants is the most entrants a tournament takes: the field package
// tournament pairs a Swiss round of well within its time (its exhaustive
// search is bounded for fields of up to 256). A setup may take fewer
// (TournamentSetup.MaxEntrants).
const MaxEntrants = 256

// CreateTournament stores a new tournament in sign-up with its entrants,
// if any (the host, or computers, signed up at once), and sets t.ID,
// t.Version (1), t.Status, t.WakeAt (its start time), t.CreatedAt,
// t.UpdatedAt, t.Setup.MaxEntrants (MaxEntrants when 0) and the
// entrants' Order and JoinedAt. created, when set, is called inside the
// transaction with the tournament's ID and returns the effects that name
// it (the sign-up card, whose buttons carry the ID), written to the
// tournament's outbox with it; an error rolls the creation back.
func (db *DB) CreateTournament(ctx context.Context, t *malefiz.Tournament, created func(id int64) ([]Effect, error)) error {
	limit := cmp.Or(t.Setup.MaxEntrants, MaxEntrants)
	if err := checkNewTournament(t, limit); err != nil {
		return fmt.Errorf("store: create tournament: %w", err)
	}
	rules, err := json.Marshal(t.Setup.Rules)
	if err != nil {
		return fmt.Errorf("store: create tournament: %w", err)
	}
	now := db.now()
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: create tournament: %w", conflict(err))
	}
	defer tx.Rollback()

	var id int64
	s := t.Setup
	err = tx.QueryRowContext(ctx, `INSERT INTO tournaments (guild_id, channel_id, host_id, name, status,
			format, table_size, rounds, turn_timeout, start_at, rated, rules, computers, forfeit_limit,
			max_entrants, locale, message_id, version, wake_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
		RETURNING id`,
		t.GuildID, t.ChannelID, t.HostID, t.Name, string(malefiz.TournamentSignUp),
		s.Format, s.TableSize, s.Rounds, s.TurnTimeout.Milliseconds(), millis(s.StartAt), s.Rated, string(rules),
		s.Computers, s.ForfeitLimit, limit, t.Locale, t.MessageID, millis(s.StartAt),
		now.UnixMilli(), now.UnixMilli()).Scan(&id)
	if err != nil {
		return fmt.Errorf("store: create tournament: %w", conflict(err))
	}
	for i, e := range t.Entrants {
		if err := insertEntrant(ctx, tx, id, e, i+1, now); err != nil {
			return fmt.Errorf("store: create tournament: %w", conflict(err))
		}
	}
	if created != nil {
		effects, err := created(id)
		if err != nil {
			return fmt.Errorf("store: create tournament: %w", err)
		}
		if _, err := insertEffects(ctx, tx, stream{tournament: id}, now, effects, "", 0); err != nil {
			return fmt.Errorf("store: create tournament: %w", conflict(err))
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: create tournament: %w", conflict(err))
	}
	t.Setup.StartAt = fromMillis0(toMillis0(s.StartAt)) // as stored
	t.ID, t.Version, t.Status, t.WakeAt = id, 1, malefiz.TournamentSignUp, t.Setup.StartAt
	t.CreatedAt, t.UpdatedAt, t.FinishedAt = now, now, time.Time{}
	t.Setup.MaxEntrants = limit
	for i := range t.Entrants {
		t.Entrants[i].Order, t.Entrants[i].JoinedAt = i+1, now
	}
	return nil
}

// checkNewTournament says what makes t no tournament to create.
func checkNewTournament(t *malefiz.Tournament, limit int) error {
	s := t.Setup
	switch {
	case t.GuildID == "" || t.ChannelID == "":
		return errors.New("guild and channel IDs are required")
	case t.Name == "":
		return errors.New("a tournament needs a name")
	case t.Status != "" && t.Status != malefiz.TournamentSignUp:
		return fmt.Errorf("status %q, want %q", t.Status, malefiz.TournamentSignUp)
	case len(t.Rounds) > 0:
		return errors.New("a new tournament has no rounds")
	case s.Format != "swiss" && s.Format != "round-robin" && s.Format != "knockout":
		return fmt.Errorf("format %q, want swiss, round-robin or knockout", s.Format)
	case s.TableSize < 2 || s.TableSize > 4:
		return fmt.Errorf("table size %d, want 2 to 4", s.TableSize)
	case s.Rounds < 0 || s.TurnTimeout < 0 || s.ForfeitLimit < 0:
		return errors.New("negative rounds, turn timeout or forfeit limit")
	case limit < 2 || limit > MaxEntrants:
		return fmt.Errorf("at most %d entrants, want 2 to %d", limit, MaxEntrants)
	case len(t.Entrants) > limit:
		return fmt.Errorf("%d entrants for at most %d: %w", len(t.Entrants), limit, ErrFull)
	}
	seen := map[string]bool{}
	for _, e := range t.Entrants {
		if e.UserID == "" || seen[e.UserID] {
			return fmt.Errorf("entrant %q: empty or twice", e.UserID)
		}
		seen[e.UserID] = true
	}
	return nil
}

// insertEntrant adds e to tournament id, order in the sign-up.
func insertEntrant(ctx context.Context, tx wtx, id int64, e malefiz.TournamentEntrant, order int, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO tournament_entrants (tournament_id, user_id, name, computer,
			rating, joined, joined_at, withdrawn)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		id, e.UserID, e.Name, e.Computer, e.Rating, order, now.UnixMilli(), e.Withdrawn)
	if isUniqueViolation(err) {
		return fmt.Errorf("%s signed up already: %w", e.UserID, ErrConflict)
	}
	return err
}

// The statuses a write may find a tournament in.
var (
	signUp     = []malefiz.TournamentStatus{malefiz.TournamentSignUp}
	playing    = []malefiz.TournamentStatus{malefiz.TournamentRunning, malefiz.TournamentPaused}
	running    = []malefiz.TournamentStatus{malefiz.TournamentRunning}
	paused     = []malefiz.TournamentStatus{malefiz.TournamentPaused}
	openStatus = []malefiz.TournamentStatus{malefiz.TournamentSignUp, malefiz.TournamentRunning, malefiz.TournamentPaused}
)

// writeTournament is one write of the stored tournament t at t.Version,
// in one transaction: it bumps the version (ErrNotFound when there is no
// such tournament, ErrConflict when the version is stale or the
// tournament is in none of the statuses from), runs change, appends
// effects to the tournament's outbox, updates the wake and commits. Then
// it sets t.Version, t.UpdatedAt and t.WakeAt; the caller applies the
// rest of its change to t.
func (db *DB) writeTournament(ctx context.Context, t *malefiz.Tournament, what string, from []malefiz.TournamentStatus,
	effects []Effect, change func(tx wtx, now time.Time) error) error {
	now := db.now()
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, conflict(err))
	}
	defer tx.Rollback()

	// The update locks the row: writers of one tournament take turns,
	// and the second finds the version moved.
	var status malefiz.TournamentStatus
	err = tx.QueryRowContext(ctx, `UPDATE tournaments SET version = version + 1, updated_at = ?
		WHERE id = ? AND version = ? RETURNING status`, now.UnixMilli(), t.ID, t.Version).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: %s: %w", what, tournamentWhyNot(ctx, tx, t.ID, t.Version))
	} else if err != nil {
		return fmt.Errorf("store: %s: %w", what, conflict(err))
	}
	if !slices.Contains(from, status) {
		return fmt.Errorf("store: %s: the tournament is %s: %w", what, status, ErrConflict)
	}
	if err := change(tx, now); err != nil {
		return fmt.Errorf("store: %s: %w", what, conflict(err))
	}
	if _, err := insertEffects(ctx, tx, stream{tournament: t.ID}, now, effects, "", 0); err != nil {
		return fmt.Errorf("store: %s: %w", what, conflict(err))
	}
	wake, err := keepWake(ctx, tx, t.ID, now)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, conflict(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: %w", what, conflict(err))
	}
	t.Version++
	t.UpdatedAt, t.WakeAt = now, wake
	return nil
}

// tournamentWhyNot says why a write of tournament id at version found no
// row: no such tournament, or a stale version.
func tournamentWhyNot(ctx context.Context, tx wtx, id, version int64) error {
	var stored int64
	err := tx.QueryRowContext(ctx, `SELECT version FROM tournaments WHERE id = ?`, id).Scan(&stored)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	} else if err != nil {
		return err
	}
	return fmt.Errorf("version %d, stored %d: %w", version, stored, ErrConflict)
}

// JoinTournament signs e up for the tournament t, in sign-up, at
// t.Version, with effects (the sign-up card's edit), and appends e to
// t.Entrants with its Order and JoinedAt. A second join of the same user
// is ErrConflict; a join when the tournament has as many entrants as it
// takes (Setup.MaxEntrants) is ErrFull.
func (db *DB) JoinTournament(ctx context.Context, t *malefiz.Tournament, e malefiz.TournamentEntrant, effects ...Effect) error {
	what := fmt.Sprintf("join tournament %d", t.ID)
	if e.UserID == "" {
		return fmt.Errorf("store: %s: an entrant without a user ID", what)
	}
	var order int
	err := db.writeTournament(ctx, t, what, signUp, effects, func(tx wtx, now time.Time) error {
		var n, last, limit int
		if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(max(joined), 0),
				(SELECT max_entrants FROM tournaments WHERE id = ?1)
			FROM tournament_entrants WHERE tournament_id = ?1`, t.ID).Scan(&n, &last, &limit); err != nil {
			return err
		}
		if n >= limit {
			return fmt.Errorf("%d entrants of %d: %w", n, limit, ErrFull)
		}
		order = last + 1
		e.Withdrawn, e.Forfeits = false, 0
		return insertEntrant(ctx, tx, t.ID, e, order, now)
	})
	if err != nil {
		return err
	}
	e.Order, e.JoinedAt = order, t.UpdatedAt
	t.Entrants = append(t.Entrants, e)
	return nil
}

// LeaveTournament takes userID off the tournament t, in sign-up, at
// t.Version, with effects, and off t.Entrants: the entrant leaving, or
// the host removing them. ErrNotFound when they are no entrant.
func (db *DB) LeaveTournament(ctx context.Context, t *malefiz.Tournament, userID string, effects ...Effect) error {
	what := fmt.Sprintf("leave tournament %d", t.ID)
	err := db.writeTournament(ctx, t, what, signUp, effects, func(tx wtx, now time.Time) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?`, t.ID, userID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("%s is no entrant: %w", userID, ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return err
	}
	t.Entrants = slices.DeleteFunc(t.Entrants, func(e malefiz.TournamentEntrant) bool { return e.UserID == userID })
	return nil
}

// WithdrawEntrant withdraws userID from the tournament t, running or
// paused, at t.Version, with effects: their results stand, and the
// rounds opened after go without them. ErrNotFound when they are no
// entrant, ErrConflict when they are withdrawn already. (In the sign-up,
// an entrant leaves instead: LeaveTournament.)
func (db *DB) WithdrawEntrant(ctx context.Context, t *malefiz.Tournament, userID string, effects ...Effect) error {
	what := fmt.Sprintf("withdraw %s from tournament %d", userID, t.ID)
	err := db.writeTournament(ctx, t, what, playing, effects, func(tx wtx, now time.Time) error {
		var withdrawn bool
		err := tx.QueryRowContext(ctx, `SELECT withdrawn FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?`,
			t.ID, userID).Scan(&withdrawn)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%s is no entrant: %w", userID, ErrNotFound)
		} else if err != nil {
			return err
		}
		if withdrawn {
			return fmt.Errorf("%s withdrawn already: %w", userID, ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `UPDATE tournament_entrants SET withdrawn = ? WHERE tournament_id = ? AND user_id = ?`,
			true, t.ID, userID)
		return err
	})
	if err != nil {
		return err
	}
	for i := range t.Entrants {
		if t.Entrants[i].UserID == userID {
			t.Entrants[i].Withdrawn = true
		}
	}
	return nil
}

// StartTournament starts the tournament t, in sign-up, at t.Version, with
// effects: it is running, and its first round (first's tables and
// deadline) is recorded, opened now, its tables numbered 1, 2, …; each
// table's game is then created with Commit (Game.TournamentID), which
// links it. The round must seat entrants who are not withdrawn, each at
// one table, at most the setup's table size at a table. On success
// first, numbered, is appended to t.Rounds.
func (db *DB) StartTournament(ctx context.Context, t *malefiz.Tournament, first malefiz.TournamentRound, effects ...Effect) error {
	what := fmt.Sprintf("start tournament %d", t.ID)
	err := db.writeTournament(ctx, t, what, signUp, effects, func(tx wtx, now time.Time) error {
		if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = ? WHERE id = ?`,
			string(malefiz.TournamentRunning), t.ID); err != nil {
			return err
		}
		return insertRound(ctx, tx, t.ID, 1, &first, now)
	})
	if err != nil {
		return err
	}
	t.Status = malefiz.TournamentRunning
	t.Rounds = append(t.Rounds, first)
	return nil
}

// OpenRound records the next round of the tournament t, running, at
// t.Version, with effects: r's tables and deadline, opened now, numbered
// after the last round, which is finished now. The last round must be
// over: every table a bye or its game ended (ErrConflict while one is
// still being played or has no game yet). The round is checked as
// StartTournament's; on success r, numbered, is appended to t.Rounds and
// the last one's FinishedAt set.
func (db *DB) OpenRound(ctx context.Context, t *malefiz.Tournament, r malefiz.TournamentRound, effects ...Effect) error {
	what := fmt.Sprintf("open a round of tournament %d", t.ID)
	var last int
	err := db.writeTournament(ctx, t, what, running, effects, func(tx wtx, now time.Time) error {
		var err error
		if last, err = finishRound(ctx, tx, t.ID, now); err != nil {
			return err
		}
		return insertRound(ctx, tx, t.ID, last+1, &r, now)
	})
	if err != nil {
		return err
	}
	if last > 0 && last <= len(t.Rounds) {
		t.Rounds[last-1].FinishedAt = r.OpenedAt
	}
	t.Rounds = append(t.Rounds, r)
	return nil
}

// finishRound marks the last round of tournament id finished at now and
// returns its number (0 for none): ErrConflict when one of its tables is
// still to be played (no game yet, or its game open).
func finishRound(ctx context.Context, tx wtx, id int64, now time.Time) (int, error) {
	state, err := roundState(ctx, tx, id)
	if err != nil || state.round == 0 {
		return 0, err
	}
	if state.unopened > 0 || state.playing > 0 {
		return 0, fmt.Errorf("round %d has %d tables without a game and %d games being played: %w",
			state.round, state.unopened, state.playing, ErrConflict)
	}
	_, err = tx.ExecContext(ctx, `UPDATE tournament_rounds SET finished_at = ? WHERE tournament_id = ? AND round = ?`,
		now.UnixMilli(), id, state.round)
	return state.round, err
}

// insertRound records r as round number n of tournament id, opened now,
// and sets its Number, OpenedAt and its tables' Number. See
// StartTournament for what a round must be.
func insertRound(ctx context.Context, tx wtx, id int64, n int, r *malefiz.TournamentRound, now time.Time) error {
	if len(r.Tables) == 0 {
		return fmt.Errorf("round %d has no table", n)
	}
	var size int
	if err := tx.QueryRowContext(ctx, `SELECT table_size FROM tournaments WHERE id = ?`, id).Scan(&size); err != nil {
		return err
	}
	withdrawn := map[string]bool{}
	rows, err := tx.QueryContext(ctx, `SELECT user_id, withdrawn FROM tournament_entrants WHERE tournament_id = ?`, id)
	if err != nil {
		return err
	}
	for rows.Next() {
		var u string
		var w bool
		if err := rows.Scan(&u, &w); err != nil {
			rows.Close()
			return err
		}
		withdrawn[u] = w
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	seated := map[string]bool{}
	for i, table := range r.Tables {
		if len(table.Seats) == 0 || len(table.Seats) > size {
			return fmt.Errorf("round %d, table %d: %d seats, want 1 to %d", n, i+1, len(table.Seats), size)
		}
		for _, u := range table.Seats {
			w, ok := withdrawn[u]
			switch {
			case !ok:
				return fmt.Errorf("round %d, table %d: %q is no entrant", n, i+1, u)
			case w:
				return fmt.Errorf("round %d, table %d: %q is withdrawn", n, i+1, u)
			case seated[u]:
				return fmt.Errorf("round %d, table %d: %q seated twice", n, i+1, u)
			}
			seated[u] = true
		}
	}

	if _, err := tx.ExecContext(ctx, `INSERT INTO tournament_rounds (tournament_id, round, opened_at, deadline)
		VALUES (?, ?, ?, ?)`, id, n, now.UnixMilli(), millis(r.Deadline)); err != nil {
		return fmt.Errorf("round %d: %w", n, err)
	}
	for i, table := range r.Tables {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tournament_tables (tournament_id, round, tbl) VALUES (?, ?, ?)`,
			id, n, i+1); err != nil {
			return fmt.Errorf("round %d, table %d: %w", n, i+1, err)
		}
		for seat, u := range table.Seats {
			if _, err := tx.ExecContext(ctx, `INSERT INTO tournament_seats (tournament_id, round, tbl, seat, user_id)
				VALUES (?, ?, ?, ?, ?)`, id, n, i+1, seat, u); err != nil {
				return fmt.Errorf("round %d, table %d: %w", n, i+1, err)
			}
		}
	}
	r.Number, r.OpenedAt, r.FinishedAt = n, now, time.Time{}
	r.Deadline = fromMillis0(toMillis0(r.Deadline)) // as stored
	for i := range r.Tables {
		r.Tables[i].Number = i + 1
		r.Tables[i].GameID, r.Tables[i].GameStatus, r.Tables[i].Results = 0, "", nil
	}
	return nil
}

// PauseTournament pauses the running tournament t (pause) or resumes the
// paused one, at t.Version, with effects. A paused tournament opens no
// round; its games go on.
func (db *DB) PauseTournament(ctx context.Context, t *malefiz.Tournament, pause bool, effects ...Effect) error {
	what, from, to := fmt.Sprintf("pause tournament %d", t.ID), running, malefiz.TournamentPaused
	if !pause {
		what, from, to = fmt.Sprintf("resume tournament %d", t.ID), paused, malefiz.TournamentRunning
	}
	err := db.writeTournament(ctx, t, what, from, effects, func(tx wtx, now time.Time) error {
		_, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = ? WHERE id = ?`, string(to), t.ID)
		return err
	})
	if err != nil {
		return err
	}
	t.Status = to
	return nil
}

// FinishTournament ends the tournament t, running or paused, at
// t.Version, with effects (the winner's announcement): its last round,
// which must be over (see OpenRound), and the tournament are finished now.
func (db *DB) FinishTournament(ctx context.Context, t *malefiz.Tournament, effects ...Effect) error {
	what := fmt.Sprintf("finish tournament %d", t.ID)
	var last int
	err := db.writeTournament(ctx, t, what, playing, effects, func(tx wtx, now time.Time) error {
		var err error
		if last, err = finishRound(ctx, tx, t.ID, now); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE tournaments SET status = ?, finished_at = ? WHERE id = ?`,
			string(malefiz.TournamentFinished), now.UnixMilli(), t.ID)
		return err
	})
	if err != nil {
		return err
	}
	t.Status, t.FinishedAt = malefiz.TournamentFinished, t.UpdatedAt
	if last > 0 && last <= len(t.Rounds) {
		t.Rounds[last-1].FinishedAt = t.UpdatedAt
	}
	return nil
}

// CancelTournament ends the open tournament t without a result, at
// t.Version, with effects. Its games still open are the caller's to end.
func (db *DB) CancelTournament(ctx context.Context, t *malefiz.Tournament, effects ...Effect) error {
	what := fmt.Sprintf("cancel tournament %d", t.ID)
	err := db.writeTournament(ctx, t, what, openStatus, effects, func(tx wtx, now time.Time) error {
		_, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = ?, finished_at = ? WHERE id = ?`,
			string(malefiz.TournamentCancelled), now.UnixMilli(), t.ID)
		return err
	})
	if err != nil {
		return err
	}
	t.Status, t.FinishedAt = malefiz.TournamentCancelled, t.UpdatedAt
	return nil
}

// lockTournament locks tournament id's row until the transaction ends
// (PostgreSQL; SQLite's write transaction holds the whole database) and
// returns its status: the writes that a tournament's games make to it (a
// table's game, the wake when a game ends) take turns with each other and
// with the tournament's writes, so that each sees the others' effect on
// the round. It is taken before anything that refers to the tournament
// is written, so that two such writes cannot wait for each other.
func lockTournament(ctx context.Context, tx wtx, id int64) (malefiz.TournamentStatus, error) {
	var status malefiz.TournamentStatus
	err := tx.QueryRowContext(ctx, `SELECT status FROM tournaments WHERE id = ?`+tx.d.forUpdate, id).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("tournament %d: %w", id, ErrNotFound)
	}
	return status, err
}

// linkTable records game id, just inserted (g), as the game of its
// tournament's table (g.TournamentRound, g.TournamentTable), within the
// game's creation: the tournament must be running, the round its current
// one, the table no bye and without a game (ErrConflict otherwise), and
// g's seats the table's entrants in order (those a person holds checked
// by ID; more seats may follow, computers filling the table).
func linkTable(ctx context.Context, tx wtx, g *malefiz.Game, id int64, now time.Time) error {
	var status malefiz.TournamentStatus
	var current int
	if err := tx.QueryRowContext(ctx, `SELECT t.status, coalesce(max(r.round), 0) FROM tournaments AS t
			LEFT JOIN tournament_rounds AS r ON r.tournament_id = t.id
		WHERE t.id = ? GROUP BY t.status`, g.TournamentID).Scan(&status, &current); err != nil {
		return fmt.Errorf("tournament %d: %w", g.TournamentID, err)
	}
	where := fmt.Sprintf("tournament %d, round %d, table %d", g.TournamentID, g.TournamentRound, g.TournamentTable)
	switch {
	case status != malefiz.TournamentRunning:
		return fmt.Errorf("%s: the tournament is %s: %w", where, status, ErrConflict)
	case g.TournamentRound != current:
		return fmt.Errorf("%s: the current round is %d: %w", where, current, ErrConflict)
	}
	seats, err := queryStrings(ctx, tx.dtx, `SELECT user_id FROM tournament_seats
		WHERE tournament_id = ? AND round = ? AND tbl = ? ORDER BY seat`, g.TournamentID, g.TournamentRound, g.TournamentTable)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	switch {
	case len(seats) == 0:
		return fmt.Errorf("%s: %w", where, ErrNotFound)
	case len(seats) == 1:
		return fmt.Errorf("%s: a bye has no game: %w", where, ErrConflict)
	case len(g.Seats) < len(seats):
		return fmt.Errorf("%s: %d seats for %d entrants", where, len(g.Seats), len(seats))
	}
	for i, u := range seats {
		if s := g.Seats[i]; s.UserID != "" && s.UserID != u {
			return fmt.Errorf("%s: seat %d is %q's, not %q", where, i, u, s.UserID)
		}
	}
	res, err := tx.ExecContext(ctx, `UPDATE tournament_tables SET game_id = ?
		WHERE tournament_id = ? AND round = ? AND tbl = ? AND game_id IS NULL`,
		id, g.TournamentID, g.TournamentRound, g.TournamentTable)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	} else if n == 0 {
		return fmt.Errorf("%s: the table has its game: %w", where, ErrConflict)
	}
	_, err = keepWake(ctx, tx, g.TournamentID, now)
	return err
}

// tournamentGameChanged locks tournament id within the commit of one of
// its games, and updates its wake when the game ended.
func tournamentGameChanged(ctx context.Context, tx wtx, id int64, ended bool, now time.Time) error {
	if _, err := lockTournament(ctx, tx, id); err != nil || !ended {
		return err
	}
	_, err := keepWake(ctx, tx, id, now)
	return err
}

// round is where the current round of a tournament stands.
type round struct {
	round    int       // its number; 0 for no round yet
	deadline time.Time // zero for none
	unopened int       // tables that are no bye and have no game
	playing  int       // tables whose game is open
}

// roundState reads the current (last) round of tournament id.
func roundState(ctx context.Context, tx wtx, id int64) (round, error) {
	var r round
	var deadline sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT round, deadline FROM tournament_rounds
		WHERE tournament_id = ? ORDER BY round DESC LIMIT 1`, id).Scan(&r.round, &deadline)
	if errors.Is(err, sql.ErrNoRows) {
		return round{}, nil
	} else if err != nil {
		return round{}, err
	}
	r.deadline = fromMillis(deadline)
	err = tx.QueryRowContext(ctx, `SELECT
			coalesce(sum(CASE WHEN tt.game_id IS NULL AND
				(SELECT count(*) FROM tournament_seats AS s
				WHERE s.tournament_id = tt.tournament_id AND s.round = tt.round AND s.tbl = tt.tbl) > 1
				THEN 1 ELSE 0 END), 0),
			coalesce(sum(CASE WHEN g.status IN ('lobby', 'running') THEN 1 ELSE 0 END), 0)
		FROM tournament_tables AS tt LEFT JOIN games AS g ON g.id = tt.game_id
		WHERE tt.tournament_id = ? AND tt.round = ?`, id, r.round).Scan(&r.unopened, &r.playing)
	return r, err
}

// keepWake sets tournament id's wake from its record (see the comment at
// the top of this file) and returns it.
func keepWake(ctx context.Context, tx wtx, id int64, now time.Time) (time.Time, error) {
	var status malefiz.TournamentStatus
	var start sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT status, start_at FROM tournaments WHERE id = ?`, id).Scan(&status, &start); err != nil {
		return time.Time{}, err
	}
	var wake time.Time
	switch status {
	case malefiz.TournamentSignUp:
		wake = fromMillis(start)
	case malefiz.TournamentRunning:
		r, err := roundState(ctx, tx, id)
		if err != nil {
			return time.Time{}, err
		}
		wake = now // tables to open, or the round is over
		if r.round > 0 && r.unopened == 0 && r.playing > 0 {
			wake = r.deadline
		}
	}
	_, err := tx.ExecContext(ctx, `UPDATE tournaments SET wake_at = ? WHERE id = ?`, millis(wake), id)
	return wake, err
}

// setTournamentMessageID records the ID of tournament id's card, which a
// delivery of its outbox posted.
func setTournamentMessageID(ctx context.Context, tx wtx, id int64, role malefiz.MessageRole, messageID string) error {
	if role != malefiz.RoleTournament {
		return fmt.Errorf("message role %q for a tournament", role)
	}
	res, err := tx.ExecContext(ctx, `UPDATE tournaments SET message_id = ? WHERE id = ?`, messageID, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrNotFound
	}
	return nil
}

// ClaimDueTournaments claims for owner, for lease, up to limit
// tournaments whose WakeAt is at or before now (the caller's clock) and
// that no other process holds (owner's own claims may be taken again at
// once), earliest first, and returns their IDs: the round opener's work.
// Like ClaimDueGames, the claim only keeps processes from working on one
// tournament at once; the writes' version checks still decide, and a
// claim lapses by itself when its holder dies.
func (db *DB) ClaimDueTournaments(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]int64, error) {
	if owner == "" {
		return nil, errors.New("store: claim due tournaments: empty owner")
	}
	ids, err := db.claimDue(ctx, `UPDATE tournaments SET claim_owner = ?1, claim_until = ?2
		WHERE id IN (
			SELECT id FROM tournaments
			WHERE wake_at IS NOT NULL AND wake_at <= ?3
				AND (claim_until IS NULL OR claim_until <= ?3 OR claim_owner = ?1)
			ORDER BY wake_at, id
			LIMIT ?4%s)
			AND wake_at IS NOT NULL AND wake_at <= ?3
			AND (claim_until IS NULL OR claim_until <= ?3 OR claim_owner = ?1)
		RETURNING id, wake_at`, []any{owner, now.Add(lease).UnixMilli(), now.UnixMilli(), limit})
	if err != nil {
		return nil, fmt.Errorf("store: claim due tournaments: %w", err)
	}
	return ids, nil
}

// NextTournamentWake returns the earliest WakeAt of all tournaments, and
// false when none is due ever: how long the round opener may sleep (a
// game of this process that ends its round wakes it sooner).
func (db *DB) NextTournamentWake(ctx context.Context) (time.Time, bool, error) {
	at, ok, err := db.nextWake(ctx, "tournaments")
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next tournament wake: %w", err)
	}
	return at, ok, nil
}

// Tournament returns tournament id whole, in one read: its entrants in
// sign-up order (each with their forfeits counted), its rounds in order
// with their tables, and each table's game status and, once finished, its
// results in seat order. ErrNotFound when there is no such tournament.
func (db *DB) Tournament(ctx context.Context, id int64) (*malefiz.Tournament, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: tournament %d: %w", id, err)
	}
	defer tx.Rollback()
	t, err := findTournament(ctx, tx, id)
	if err != nil {
		return nil, fmt.Errorf("store: tournament %d: %w", id, err)
	}
	return t, tx.Commit()
}

// OpenTournaments returns the open tournaments (sign-up, running, paused)
// of a channel, or of the whole guild when channelID is "", oldest first,
// without their entrants and rounds (Tournament reads one whole). One
// running tournament per channel is the service's rule, not the store's.
func (db *DB) OpenTournaments(ctx context.Context, guildID, channelID string) ([]*malefiz.Tournament, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: open tournaments of %s/%s: %w", guildID, channelID, err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments
		WHERE guild_id = ? AND status IN ('signup', 'running', 'paused') AND (channel_id = ? OR ? = '')
		ORDER BY id`, guildID, channelID, channelID)
	if err != nil {
		return nil, fmt.Errorf("store: open tournaments of %s/%s: %w", guildID, channelID, err)
	}
	defer rows.Close()
	var out []*malefiz.Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, fmt.Errorf("store: open tournaments of %s/%s: %w", guildID, channelID, err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: open tournaments of %s/%s: %w", guildID, channelID, err)
	}
	return out, tx.Commit()
}

const tournamentColumns = `id, guild_id, channel_id, host_id, name, status, format, table_size, rounds,
	turn_timeout, start_at, rated, rules, computers, forfeit_limit, max_entrants, locale, message_id,
	version, wake_at, created_at, updated_at, finished_at`

// scanTournament reads a row of tournamentColumns.
func scanTournament(row interface{ Scan(...any) error }) (*malefiz.Tournament, error) {
	var (
		t                         malefiz.Tournament
		status, rules             string
		timeout, created, updated int64
		start, wake, finished     sql.NullInt64
	)
	if err := row.Scan(&t.ID, &t.GuildID, &t.ChannelID, &t.HostID, &t.Name, &status, &t.Setup.Format,
		&t.Setup.TableSize, &t.Setup.Rounds, &timeout, &start, &t.Setup.Rated, &rules, &t.Setup.Computers,
		&t.Setup.ForfeitLimit, &t.Setup.MaxEntrants, &t.Locale, &t.MessageID, &t.Version, &wake,
		&created, &updated, &finished); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(rules), &t.Setup.Rules); err != nil {
		return nil, fmt.Errorf("tournament %d: rules: %w", t.ID, err)
	}
	t.Status = malefiz.TournamentStatus(status)
	t.Setup.TurnTimeout = time.Duration(timeout) * time.Millisecond
	t.Setup.StartAt, t.WakeAt, t.FinishedAt = fromMillis(start), fromMillis(wake), fromMillis(finished)
	t.CreatedAt, t.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	return &t, nil
}

// findTournament reads tournament id whole (see Tournament).
func findTournament(ctx context.Context, tx dtx, id int64) (*malefiz.Tournament, error) {
	t, err := scanTournament(tx.QueryRowContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	} else if err != nil {
		return nil, err
	}
	if t.Entrants, err = findEntrants(ctx, tx, id); err != nil {
		return nil, fmt.Errorf("entrants: %w", err)
	}
	if t.Rounds, err = findRounds(ctx, tx, id); err != nil {
		return nil, fmt.Errorf("rounds: %w", err)
	}
	// A forfeit is a finished game the entrant left; only people leave.
	index := map[string]int{}
	for i, e := range t.Entrants {
		index[e.UserID] = i
	}
	for _, r := range t.Rounds {
		for _, table := range r.Tables {
			for _, res := range table.Results {
				if i, ok := index[res.Player]; ok && res.Left && slices.Contains(table.Seats, res.Player) {
					t.Entrants[i].Forfeits++
				}
			}
		}
	}
	return t, nil
}

func findEntrants(ctx context.Context, tx dtx, id int64) ([]malefiz.TournamentEntrant, error) {
	rows, err := tx.QueryContext(ctx, `SELECT user_id, name, computer, rating, joined, joined_at, withdrawn
		FROM tournament_entrants WHERE tournament_id = ? ORDER BY joined`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []malefiz.TournamentEntrant
	for rows.Next() {
		var e malefiz.TournamentEntrant
		var joined int64
		if err := rows.Scan(&e.UserID, &e.Name, &e.Computer, &e.Rating, &e.Order, &joined, &e.Withdrawn); err != nil {
			return nil, err
		}
		e.JoinedAt = time.UnixMilli(joined).UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// findRounds reads the rounds of tournament id with their tables, seats,
// games' statuses and results.
func findRounds(ctx context.Context, tx dtx, id int64) ([]malefiz.TournamentRound, error) {
	var rounds []malefiz.TournamentRound
	rows, err := tx.QueryContext(ctx, `SELECT round, opened_at, deadline, finished_at
		FROM tournament_rounds WHERE tournament_id = ? ORDER BY round`, id)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var r malefiz.TournamentRound
		var opened int64
		var deadline, finished sql.NullInt64
		if err := rows.Scan(&r.Number, &opened, &deadline, &finished); err != nil {
			rows.Close()
			return nil, err
		}
		r.OpenedAt, r.Deadline, r.FinishedAt = time.UnixMilli(opened).UTC(), fromMillis(deadline), fromMillis(finished)
		rounds = append(rounds, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Rounds are numbered 1, 2, … (insertRound), tables likewise.
	table := func(round, tbl int) (*malefiz.TournamentTable, error) {
		if round < 1 || round > len(rounds) || tbl < 1 || tbl > len(rounds[round-1].Tables) {
			return nil, fmt.Errorf("round %d, table %d out of order", round, tbl)
		}
		return &rounds[round-1].Tables[tbl-1], nil
	}

	rows, err = tx.QueryContext(ctx, `SELECT tt.round, tt.tbl, coalesce(tt.game_id, 0), coalesce(g.status, ''), coalesce(g.thread_id, '')
		FROM tournament_tables AS tt LEFT JOIN games AS g ON g.id = tt.game_id
		WHERE tt.tournament_id = ? ORDER BY tt.round, tt.tbl`, id)
	if err != nil {
		return nil, err
	}
	games := map[int64]*malefiz.TournamentTable{}
	for rows.Next() {
		var t malefiz.TournamentTable
		var round int
		var status string
		if err := rows.Scan(&round, &t.Number, &t.GameID, &status, &t.ThreadID); err != nil {
			rows.Close()
			return nil, err
		}
		if round < 1 || round > len(rounds) || t.Number != len(rounds[round-1].Tables)+1 {
			rows.Close()
			return nil, fmt.Errorf("round %d, table %d out of order", round, t.Number)
		}
		t.GameStatus = malefiz.Status(status)
		rounds[round-1].Tables = append(rounds[round-1].Tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for r := range rounds {
		for i := range rounds[r].Tables {
			if t := &rounds[r].Tables[i]; t.GameID != 0 {
				games[t.GameID] = t
			}
		}
	}

	rows, err = tx.QueryContext(ctx, `SELECT round, tbl, user_id FROM tournament_seats
		WHERE tournament_id = ? ORDER BY round, tbl, seat`, id)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var round, tbl int
		var u string
		if err := rows.Scan(&round, &tbl, &u); err != nil {
			rows.Close()
			return nil, err
		}
		t, err := table(round, tbl)
		if err != nil {
			rows.Close()
			return nil, err
		}
		t.Seats = append(t.Seats, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}

	results, err := scanResults(tx.QueryContext(ctx, `SELECT `+resultColumns+`
		FROM tournament_tables AS tt JOIN results AS r ON r.game_id = tt.game_id
			LEFT JOIN seats AS s ON s.game_id = r.game_id AND s.color = r.color
		WHERE tt.tournament_id = ?
		ORDER BY r.game_id, s.seat IS NOT NULL, s.seat, r.color`, id))
	if err != nil {
		return nil, err
	}
	for gameID, res := range results {
		if t := games[gameID]; t != nil {
			t.Results = res
		}
	}
	return rounds, nil
}

// SetTournamentMessageID records the ID of a tournament's card without
// changing the tournament's version (a delivery of its outbox records it
// with EffectDone).
func (db *DB) SetTournamentMessageID(ctx context.Context, id int64, messageID string) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: message of tournament %d: %w", id, err)
	}
	defer tx.Rollback()
	if err := setTournamentMessageID(ctx, tx, id, malefiz.RoleTournament, messageID); err != nil {
		return fmt.Errorf("store: message of tournament %d: %w", id, err)
	}
	return tx.Commit()
}
