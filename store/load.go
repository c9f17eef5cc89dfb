package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/malefiz-discord/malefiz"
)

// Loaded is what an action on a game starts from.
type Loaded struct {
	Game  *malefiz.Game
	Guild malefiz.GuildSettings
	// Users are the settings of the game's seated people and of the
	// users asked for; a user who set none has them off.
	Users map[string]malefiz.UserSettings
}

// LoadGame reads, in one read transaction, game id with its seats, its
// guild's settings and the settings of its seated people and of users
// (the one who acts, say). ErrNotFound when there is no such game.
func (db *DB) LoadGame(ctx context.Context, id int64, users ...string) (*Loaded, error) {
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: load game %d: %w", id, err)
	}
	defer tx.Rollback()
	var g *malefiz.Game
	l := &Loaded{Users: map[string]malefiz.UserSettings{}}
	if db.rst != nil {
		g, err = db.loadGame(ctx, tx, id)
		if err == nil {
			l.Guild, err = scanGuildSettings(tx.StmtContext(ctx, db.rst.guild).QueryRowContext(ctx, g.GuildID))
		}
	} else { // a database opened for a copy
		g, err = findGame(ctx, tx, `WHERE id = ?`, id)
		if err == nil {
			l.Guild, err = guildSettings(ctx, tx, g.GuildID)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("store: load game %d: %w", id, err)
	}
	l.Game = g
	var ids []any
	add := func(u string) {
		if _, ok := l.Users[u]; u != "" && !ok {
			l.Users[u] = malefiz.UserSettings{}
			ids = append(ids, u)
		}
	}
	for _, s := range g.Seats {
		add(s.UserID)
	}
	for _, u := range users {
		add(u)
	}
	if len(ids) > 0 {
		var rows *sql.Rows
		if db.rst != nil && len(ids) <= loadUsers {
			for len(ids) < loadUsers {
				ids = append(ids, "")
			}
			rows, err = tx.StmtContext(ctx, db.rst.users).QueryContext(ctx, ids...)
		} else {
			rows, err = tx.QueryContext(ctx, usersSettingsQuery(len(ids)), ids...)
		}
		if err != nil {
			return nil, fmt.Errorf("store: load game %d: %w", id, err)
		}
		defer rows.Close()
		for rows.Next() {
			var u string
			var s malefiz.UserSettings
			if err := rows.Scan(&u, &s.DM, &s.DMRefused, &s.PingAlways, &s.Locale); err != nil {
				return nil, fmt.Errorf("store: load game %d: %w", id, err)
			}
			l.Users[u] = s
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("store: load game %d: %w", id, err)
		}
	}
	return l, tx.Commit()
}

// usersSettingsQuery reads the settings of n users, given as parameters.
func usersSettingsQuery(n int) string {
	return `SELECT user_id, dm, dm_refused, ping_always, locale FROM user_settings
		WHERE user_id IN (?` + strings.Repeat(", ?", n-1) + `)`
}

// loadGame reads game id with its seats by the prepared statements.
func (db *DB) loadGame(ctx context.Context, tx dtx, id int64) (*malefiz.Game, error) {
	rows, err := tx.StmtContext(ctx, db.rst.game).QueryContext(ctx, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, ErrNotFound
	}
	g, err := scanGame(rows)
	if err != nil {
		return nil, err
	}
	rows.Close()
	g.Seats, err = scanSeats(tx.StmtContext(ctx, db.rst.seats).QueryContext(ctx, id))
	return g, err
}
