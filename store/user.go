package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/malefiz-discord/malefiz"
)

// UserSettings returns a user's settings; a user who set none has them off.
func (db *DB) UserSettings(ctx context.Context, userID string) (malefiz.UserSettings, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return malefiz.UserSettings{}, fmt.Errorf("store: settings of user %s: %w", userID, err)
	}
	defer tx.Rollback()
	var s malefiz.UserSettings
	err = tx.QueryRowContext(ctx, `SELECT dm, dm_refused, ping_always, locale FROM user_settings WHERE user_id = ?`, userID).Scan(&s.DM, &s.DMRefused, &s.PingAlways, &s.Locale)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return malefiz.UserSettings{}, fmt.Errorf("store: settings of user %s: %w", userID, err)
	}
	return s, tx.Commit()
}

// SetUserSettings stores a user's settings, all but their locale (which
// SetUserLocale keeps).
func (db *DB) SetUserSettings(ctx context.Context, userID string, s malefiz.UserSettings) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: settings of user %s: %w", userID, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO user_settings (user_id, dm, dm_refused, ping_always) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm, dm_refused = excluded.dm_refused, ping_always = excluded.ping_always`,
		userID, s.DM, s.DMRefused, s.PingAlways); err != nil {
		return fmt.Errorf("store: settings of user %s: %w", userID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: settings of user %s: %w", userID, err)
	}
	return nil
}

// SetUserLocale records userID's Discord locale ("de", "pt-BR"), as an
// interaction or the Activity's sign-in gave it; their other settings stay
// as they are.
func (db *DB) SetUserLocale(ctx context.Context, userID, locale string) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: locale of user %s: %w", userID, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO user_settings (user_id, locale) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale`, userID, locale); err != nil {
		return fmt.Errorf("store: locale of user %s: %w", userID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: locale of user %s: %w", userID, err)
	}
	return nil
}

// UserGames returns the open games of a guild in which userID holds a seat
// (and has not left), newest first.
func (db *DB) UserGames(ctx context.Context, guildID, userID string) ([]*malefiz.Game, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: games of user %s: %w", userID, err)
	}
	defer tx.Rollback()
	games, err := findGames(ctx, tx, `WHERE guild_id = ? AND status IN ('lobby', 'running')
		AND id IN (SELECT game_id FROM seats WHERE user_id = ? AND NOT has_left) ORDER BY id DESC`, guildID, userID)
	if err != nil {
		return nil, fmt.Errorf("store: games of user %s: %w", userID, err)
	}
	return games, tx.Commit()
}
