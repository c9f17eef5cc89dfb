package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/malefiz-discord/malefiz"
)

// GuildSettings returns a guild's settings, or DefaultGuildSettings when it
// has set none.
func (db *DB) GuildSettings(ctx context.Context, guildID string) (malefiz.GuildSettings, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return malefiz.GuildSettings{}, fmt.Errorf("store: settings of guild %s: %w", guildID, err)
	}
	defer tx.Rollback()

	s, err := guildSettings(ctx, tx, guildID)
	if err != nil {
		return malefiz.GuildSettings{}, fmt.Errorf("store: settings of guild %s: %w", guildID, err)
	}
	return s, tx.Commit()
}

// guildSettingsQuery reads a guild's settings.
const guildSettingsQuery = `SELECT turn_timeout, reminders, threads, roll, chances, hints FROM guild_settings WHERE guild_id = ?`

// guildSettings reads a guild's settings within tx.
func guildSettings(ctx context.Context, tx dtx, guildID string) (malefiz.GuildSettings, error) {
	return scanGuildSettings(tx.QueryRowContext(ctx, guildSettingsQuery, guildID))
}

// scanGuildSettings reads the row of guildSettingsQuery: the defaults when
// there is none.
func scanGuildSettings(row *sql.Row) (malefiz.GuildSettings, error) {
	s := malefiz.DefaultGuildSettings()
	var timeout int64
	err := row.Scan(&timeout, &s.Reminders, &s.Threads, &s.Roll, &s.Chances, &s.Hints)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return s, nil
	case err != nil:
		return malefiz.GuildSettings{}, err
	}
	s.TurnTimeout = time.Duration(timeout) * time.Millisecond
	return s, nil
}

// SetGuildSettings stores a guild's settings. The turn timeout must be at
// least a second (it is stored to the millisecond).
func (db *DB) SetGuildSettings(ctx context.Context, guildID string, s malefiz.GuildSettings) error {
	if s.TurnTimeout < time.Second {
		return fmt.Errorf("store: settings of guild %s: turn timeout %v, want at least 1s", guildID, s.TurnTimeout)
	}
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store: settings of guild %s: %w", guildID, err)
	}
	defer tx.Rollback()

	if _, err := tx.ExecContext(ctx, `INSERT INTO guild_settings (guild_id, turn_timeout, reminders, threads, roll, chances, hints)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded.turn_timeout, reminders = excluded.reminders,
			threads = excluded.threads, roll = excluded.roll, chances = excluded.chances,
			hints = excluded.hints`,
		guildID, s.TurnTimeout.Milliseconds(), s.Reminders, s.Threads, s.Roll, s.Chances, s.Hints); err != nil {
		return fmt.Errorf("store: settings of guild %s: %w", guildID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: settings of guild %s: %w", guildID, err)
	}
	return nil
}
