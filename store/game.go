package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/malefiz-discord/malefiz"
)

// CreateGame stores a new game, in its lobby or running, with its seats and
// first events, and sets g.ID, g.Version (1), g.LastSeq, g.CreatedAt and
// g.UpdatedAt. It fails with ErrChannelBusy when the channel already has an
// open game. A tournament's game (g.TournamentID set) becomes its table's
// game in the same transaction: ErrConflict when the tournament is not
// running, the round is not its current one, or the table is a bye or has
// its game already; ErrNotFound when there is no such tournament or table.
func (db *DB) CreateGame(ctx context.Context, g *malefiz.Game, events ...malefiz.Event) error {
	return db.Commit(ctx, &Commit{Game: g, Events: events})
}

// UpdateGame writes g (everything but its guild, channel and message IDs)
// and its seats, and appends events to the game's log, in one transaction,
// if the stored game is still at g.Version; then it bumps g.Version and sets
// g.LastSeq and g.UpdatedAt. When another write came first it returns
// ErrConflict and changes nothing, g included. ErrNotFound when there is no
// such game.
//
// Setting Status to cancelled ends an open game without a result, sets
// FinishedAt and clears WakeAt. A game is finished with FinishGame, not here;
// an ended game stays ended, though it can still be written.
func (db *DB) UpdateGame(ctx context.Context, g *malefiz.Game, events ...malefiz.Event) error {
	return db.Commit(ctx, &Commit{Game: g, Events: events})
}

// createGame inserts g with its seats and events and returns its ID.
func createGame(ctx context.Context, tx wtx, g *malefiz.Game, now time.Time, events []malefiz.Event) (int64, error) {
	if g.GuildID == "" || g.ChannelID == "" {
		return 0, errors.New("guild and channel IDs are required")
	}
	if !g.Status.Open() {
		return 0, fmt.Errorf("status %q, want lobby or running", g.Status)
	}
	opts, err := json.Marshal(g.Options)
	if err != nil {
		return 0, err
	}
	if g.TournamentID != 0 {
		// Locked first: see lockTournament.
		if _, err := lockTournament(ctx, tx, g.TournamentID); err != nil { // tournament.go
			return 0, err
		}
	}
	if !g.Threaded {
		var open int64
		err = tx.QueryRowContext(ctx, `SELECT id FROM games
			WHERE guild_id = ? AND channel_id = ? AND status IN ('lobby', 'running') AND NOT threaded`,
			g.GuildID, g.ChannelID).Scan(&open)
		if err == nil {
			return 0, fmt.Errorf("game %d: %w", open, ErrChannelBusy)
		} else if !errors.Is(err, sql.ErrNoRows) {
			return 0, err
		}
	}

	var id int64
	var tournament any
	if g.TournamentID != 0 {
		tournament = g.TournamentID
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO games (guild_id, channel_id, host_id, status, options,
			state, version, last_seq, lobby_message_id, turn_message_id, locale, deadline, remind_at,
			reminder_sent, wake_at, created_at, updated_at, threaded,
			tournament_id, tournament_round, tournament_table)
		VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING id`,
		g.GuildID, g.ChannelID, g.HostID, string(g.Status), string(opts),
		g.State, len(events), g.LobbyMessageID, g.TurnMessageID, g.Locale,
		millis(g.Deadline), millis(g.RemindAt), g.ReminderSent, millis(g.WakeAt),
		now.UnixMilli(), now.UnixMilli(), g.Threaded,
		tournament, g.TournamentRound, g.TournamentTable,
	).Scan(&id)
	if isUniqueViolation(err) {
		return 0, ErrChannelBusy
	} else if err != nil {
		return 0, err
	}
	if g.TournamentID != 0 {
		if err := linkTable(ctx, tx, g, id, now); err != nil { // tournament.go
			return 0, err
		}
	}
	if err := insertSeats(ctx, tx, id, g.Seats); err != nil {
		return 0, err
	}
	if err := insertEvents(ctx, tx, id, 1, now, events); err != nil {
		return 0, err
	}
	return id, nil
}

// updated is what a successful write changes in the caller's Game, applied
// only once the transaction committed.
type updated struct {
	status     malefiz.Status
	version    int64
	lastSeq    int64
	tournament int64 // the game's tournament, as stored; 0 for none
	updatedAt  time.Time
	finishedAt time.Time
	wakeAt     time.Time
}

func (u updated) apply(g *malefiz.Game) {
	g.Status, g.Version, g.LastSeq = u.status, u.version, u.lastSeq
	g.UpdatedAt, g.FinishedAt, g.WakeAt = u.updatedAt, u.finishedAt, u.wakeAt
}

// updateGame writes g if the stored game is at g.Version and appends events.
// With finish, it writes g as finished, and the stored game must be open.
// Else the stored game must have g's status already, or be open while g is
// open or cancelled: an ended game does not come back, and only FinishGame
// finishes one.
func updateGame(ctx context.Context, tx wtx, g *malefiz.Game, finish bool, now time.Time, events []malefiz.Event) (updated, error) {
	status := g.Status
	if finish {
		status = malefiz.StatusFinished
	}
	switch status {
	case malefiz.StatusLobby, malefiz.StatusRunning, malefiz.StatusFinished, malefiz.StatusCancelled:
	default:
		return updated{}, fmt.Errorf("invalid status %q", status)
	}
	opts, err := json.Marshal(g.Options)
	if err != nil {
		return updated{}, err
	}
	u := updated{status: status, updatedAt: now, finishedAt: g.FinishedAt, wakeAt: g.WakeAt}
	if !status.Open() {
		u.wakeAt = time.Time{}
		if u.finishedAt.IsZero() {
			u.finishedAt = now
		}
	}

	err = tx.stmt(ctx, tx.st.updateGame).QueryRowContext(ctx,
		string(status), g.HostID, string(opts), g.State,
		g.Locale, millis(g.Deadline), millis(g.RemindAt),
		g.ReminderSent, millis(u.wakeAt), now.UnixMilli(), millis(u.finishedAt),
		len(events), g.ID, g.Version, finish,
	).Scan(&u.version, &u.lastSeq, &u.tournament)
	if errors.Is(err, sql.ErrNoRows) {
		return updated{}, whyNot(ctx, tx.dtx, g.ID, g.Version, status)
	} else if isUniqueViolation(err) {
		return updated{}, ErrChannelBusy // reopened in a channel that has another game
	} else if err != nil {
		return updated{}, err
	}
	if err := writeSeats(ctx, tx, g.ID, g.Seats); err != nil {
		return updated{}, err
	}
	if err := insertEvents(ctx, tx, g.ID, u.lastSeq-int64(len(events))+1, now, events); err != nil {
		return updated{}, err
	}
	return u, nil
}

// whyNot says why an update of game id at version to status found no row:
// no such game, a stale version, or a change of status not allowed.
func whyNot(ctx context.Context, tx dtx, id, version int64, status malefiz.Status) error {
	var stored int64
	var was malefiz.Status
	err := tx.QueryRowContext(ctx, `SELECT version, status FROM games WHERE id = ?`, id).Scan(&stored, &was)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	} else if err != nil {
		return err
	}
	if stored != version {
		return fmt.Errorf("version %d, stored %d: %w", version, stored, ErrConflict)
	}
	if status == malefiz.StatusFinished && was.Open() {
		return errors.New("a game is finished with FinishGame")
	}
	return fmt.Errorf("a %s game cannot become %s", was, status)
}

// writeSeats makes the stored seats of a game equal seats. Most moves change
// no seat; then it writes nothing.
func writeSeats(ctx context.Context, tx wtx, gameID int64, seats []malefiz.Seat) error {
	stored, err := scanSeats(tx.stmt(ctx, tx.st.gameSeats).QueryContext(ctx, gameID))
	if err != nil {
		return fmt.Errorf("seats: %w", err)
	}
	if slices.Equal(stored, seats) {
		return nil
	}
	if _, err := tx.stmt(ctx, tx.st.deleteSeats).ExecContext(ctx, gameID); err != nil {
		return fmt.Errorf("seats: %w", err)
	}
	return insertSeats(ctx, tx, gameID, seats)
}

// insertSeats writes the seats of a game that has none stored.
func insertSeats(ctx context.Context, tx wtx, gameID int64, seats []malefiz.Seat) error {
	insert := tx.stmt(ctx, tx.st.insertSeat)
	for i, s := range seats {
		if _, err := insert.ExecContext(ctx, gameID, i, s.Color, s.UserID, s.Name, s.Computer, s.Timeouts, s.Left, toMillis0(s.Acted)); err != nil {
			return fmt.Errorf("seat %d (%s): %w", i, s.Color, err)
		}
	}
	return nil
}

// insertEvents appends events numbered from seq on.
func insertEvents(ctx context.Context, tx wtx, gameID, seq int64, now time.Time, events []malefiz.Event) error {
	insert := tx.stmt(ctx, tx.st.insertEvent)
	for i, e := range events {
		if e.Kind == "" {
			return fmt.Errorf("event %d: empty kind", i)
		}
		at := e.At
		if at.IsZero() {
			at = now
		}
		if _, err := insert.ExecContext(ctx, gameID, seq+int64(i), at.UnixMilli(), e.Kind, e.UserID, e.Color, e.Data); err != nil {
			return fmt.Errorf("event %d (%s): %w", i, e.Kind, err)
		}
	}
	return nil
}

// Game returns the game with the given ID, or ErrNotFound.
func (db *DB) Game(ctx context.Context, id int64) (*malefiz.Game, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: game %d: %w", id, err)
	}
	defer tx.Rollback()

	g, err := findGame(ctx, tx, `WHERE id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("store: game %d: %w", id, err)
	}
	return g, tx.Commit()
}

// OpenGame returns the open (lobby or running) game of a channel, or
// ErrNotFound.
func (db *DB) OpenGame(ctx context.Context, guildID, channelID string) (*malefiz.Game, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: open game of channel %s: %w", channelID, err)
	}
	defer tx.Rollback()

	g, err := findGame(ctx, tx, `WHERE guild_id = ? AND channel_id = ? AND status IN ('lobby', 'running')`,
		guildID, channelID)
	if err != nil {
		return nil, fmt.Errorf("store: open game of channel %s: %w", channelID, err)
	}
	return g, tx.Commit()
}

// OpenGames returns the open games of a channel, or of a thread a game
// plays in, newest first.
func (db *DB) OpenGames(ctx context.Context, guildID, channelID string) ([]*malefiz.Game, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: open games of channel %s: %w", channelID, err)
	}
	defer tx.Rollback()

	games, err := findGames(ctx, tx, `WHERE guild_id = ? AND status IN ('lobby', 'running')
		AND (channel_id = ? OR id IN (SELECT id FROM games WHERE thread_id = ?)) ORDER BY id DESC`,
		guildID, channelID, channelID)
	if err != nil {
		return nil, fmt.Errorf("store: open games of channel %s: %w", channelID, err)
	}
	return games, tx.Commit()
}

// FinishedGames returns up to limit finished games of a channel, or the
// game whose thread it is, the last finished first: the reviews the board
// opened there offers.
func (db *DB) FinishedGames(ctx context.Context, guildID, channelID string, limit int) ([]*malefiz.Game, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: finished games of channel %s: %w", channelID, err)
	}
	defer tx.Rollback()

	// The first conditions are games_guild_finished's, so that the
	// partial index serves the guild's finished games, newest first.
	games, err := findGames(ctx, tx, `WHERE guild_id = ? AND status = 'finished'
		AND (channel_id = ? OR id IN (SELECT id FROM games WHERE thread_id = ?)) ORDER BY finished_at DESC, id DESC LIMIT ?`,
		guildID, channelID, channelID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: finished games of channel %s: %w", channelID, err)
	}
	return games, tx.Commit()
}

// HostedLobbies counts the lobbies (games not started yet) that hostID
// hosts in a guild, in any of its channels.
func (db *DB) HostedLobbies(ctx context.Context, guildID, hostID string) (int, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: lobbies hosted by %s: %w", hostID, err)
	}
	defer tx.Rollback()

	// The first condition is games_open_place's own, so that the
	// partial index serves the guild's open games.
	var n int
	err = tx.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE guild_id = ? AND status IN ('lobby', 'running')
		AND status = 'lobby' AND host_id = ?`, guildID, hostID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: lobbies hosted by %s: %w", hostID, err)
	}
	return n, tx.Commit()
}

// DueGames returns up to limit games whose WakeAt is at or before now,
// earliest first. It is a range scan of an index, however many games are
// stored.
func (db *DB) DueGames(ctx context.Context, now time.Time, limit int) ([]*malefiz.Game, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: due games: %w", err)
	}
	defer tx.Rollback()

	games, err := findGames(ctx, tx, `WHERE wake_at IS NOT NULL AND wake_at <= ? ORDER BY wake_at, id LIMIT ?`,
		now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: due games: %w", err)
	}
	return games, tx.Commit()
}

// NextWake returns the earliest WakeAt of all games, and false when no game
// has a timer pending: how long the scheduler may sleep.
func (db *DB) NextWake(ctx context.Context) (time.Time, bool, error) {
	at, ok, err := db.nextWake(ctx, "games")
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next wake: %w", err)
	}
	return at, ok, nil
}

// Events returns the event log of a game in order, or ErrNotFound.
func (db *DB) Events(ctx context.Context, gameID int64) ([]malefiz.Event, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: events of game %d: %w", gameID, err)
	}
	defer tx.Rollback()

	events, err := findEvents(ctx, tx, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: events of game %d: %w", gameID, err)
	}
	return events, tx.Commit()
}

func findEvents(ctx context.Context, tx dtx, gameID int64) ([]malefiz.Event, error) {
	var exists bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM games WHERE id = ?)`, gameID).Scan(&exists); err != nil {
		return nil, err
	}
	if !exists {
		return nil, ErrNotFound
	}
	rows, err := tx.QueryContext(ctx, `SELECT seq, at, kind, user_id, color, data
		FROM events WHERE game_id = ? ORDER BY seq`, gameID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var events []malefiz.Event
	for rows.Next() {
		var e malefiz.Event
		var at int64
		if err := rows.Scan(&e.Seq, &at, &e.Kind, &e.UserID, &e.Color, &e.Data); err != nil {
			return nil, err
		}
		e.At = time.UnixMilli(at).UTC()
		events = append(events, e)
	}
	return events, rows.Err()
}

const gameColumns = `id, guild_id, channel_id, host_id, status, options, state, version, last_seq,
	lobby_message_id, turn_message_id, locale, deadline, remind_at, reminder_sent, wake_at,
	created_at, updated_at, finished_at, threaded, thread_id, reminder_message_id,
	coalesce(tournament_id, 0), tournament_round, tournament_table`

// findGame returns the one game matching where, with its seats.
func findGame(ctx context.Context, tx dtx, where string, args ...any) (*malefiz.Game, error) {
	games, err := findGames(ctx, tx, where, args...)
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, ErrNotFound
	}
	return games[0], nil
}

// findGames returns the games matching where (which may order and limit),
// with their seats.
func findGames(ctx context.Context, tx dtx, where string, args ...any) ([]*malefiz.Game, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+gameColumns+` FROM games `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var games []*malefiz.Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if len(games) == 1 {
		games[0].Seats, err = findSeats(ctx, tx, games[0].ID)
		return games, err
	}
	if err := findSeatsOf(ctx, tx, games); err != nil {
		return nil, err
	}
	return games, nil
}

// findSeatsOf reads the seats of several games in one query (one round trip
// to a database server, not one per game).
func findSeatsOf(ctx context.Context, tx dtx, games []*malefiz.Game) error {
	if len(games) == 0 {
		return nil
	}
	byID := make(map[int64]*malefiz.Game, len(games))
	args := make([]any, len(games))
	for i, g := range games {
		byID[g.ID], args[i] = g, g.ID
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(games)), ", ")
	rows, err := tx.QueryContext(ctx, `SELECT game_id, color, user_id, name, computer, timeouts, has_left, acted_at
		FROM seats WHERE game_id IN (`+marks+`) ORDER BY game_id, seat`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, acted int64
		var s malefiz.Seat
		if err := rows.Scan(&id, &s.Color, &s.UserID, &s.Name, &s.Computer, &s.Timeouts, &s.Left, &acted); err != nil {
			return err
		}
		s.Acted = fromMillis0(acted)
		byID[id].Seats = append(byID[id].Seats, s)
	}
	return rows.Err()
}

func scanGame(rows *sql.Rows) (*malefiz.Game, error) {
	var (
		g                                      malefiz.Game
		status, opts                           string
		deadline, remindAt, wakeAt, finishedAt sql.NullInt64
		createdAt, updatedAt                   int64
	)
	if err := rows.Scan(&g.ID, &g.GuildID, &g.ChannelID, &g.HostID, &status, &opts, &g.State,
		&g.Version, &g.LastSeq, &g.LobbyMessageID, &g.TurnMessageID, &g.Locale,
		&deadline, &remindAt, &g.ReminderSent, &wakeAt, &createdAt, &updatedAt, &finishedAt,
		&g.Threaded, &g.ThreadID, &g.ReminderMessageID,
		&g.TournamentID, &g.TournamentRound, &g.TournamentTable); err != nil {
		return nil, err
	}
	g.Status = malefiz.Status(status)
	if err := json.Unmarshal([]byte(opts), &g.Options); err != nil {
		return nil, fmt.Errorf("game %d: options: %w", g.ID, err)
	}
	g.Deadline, g.RemindAt, g.WakeAt = fromMillis(deadline), fromMillis(remindAt), fromMillis(wakeAt)
	g.FinishedAt = fromMillis(finishedAt)
	g.CreatedAt, g.UpdatedAt = time.UnixMilli(createdAt).UTC(), time.UnixMilli(updatedAt).UTC()
	return &g, nil
}

func findSeats(ctx context.Context, tx dtx, gameID int64) ([]malefiz.Seat, error) {
	return scanSeats(tx.QueryContext(ctx, seatsQuery, gameID))
}

const seatsQuery = `SELECT color, user_id, name, computer, timeouts, has_left, acted_at
	FROM seats WHERE game_id = ? ORDER BY seat`

// scanSeats reads the rows of seatsQuery.
func scanSeats(rows *sql.Rows, err error) ([]malefiz.Seat, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var seats []malefiz.Seat
	for rows.Next() {
		var s malefiz.Seat
		var acted int64
		if err := rows.Scan(&s.Color, &s.UserID, &s.Name, &s.Computer, &s.Timeouts, &s.Left, &acted); err != nil {
			return nil, err
		}
		s.Acted = fromMillis0(acted)
		seats = append(seats, s)
	}
	return seats, rows.Err()
}

// toMillis0 is t in Unix milliseconds, 0 for the zero time.
func toMillis0(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// fromMillis0 is the time of Unix milliseconds ms (UTC), the zero time for 0.
func fromMillis0(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
