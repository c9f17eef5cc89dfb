package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// defaultDatabase is the database the tools open unless told otherwise:
// MALEFIZ_DATABASE_URL, else MALEFIZ_DATABASE_PATH, else the default file.
func defaultDatabase() string {
	if u := os.Getenv("MALEFIZ_DATABASE_URL"); u != "" {
		return u
	}
	if p := os.Getenv("MALEFIZ_DATABASE_PATH"); p != "" {
		return p
	}
	return DefaultConfig().Database.Path
}

// isPostgres reports whether the database address is a PostgreSQL URL.
func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// backupCommand is `malefiz backup -o FILE [-db PATH|URL]`: a consistent
// copy of a live database, safe while the bot runs. A SQLite database
// copies itself (VACUUM INTO); a PostgreSQL database is copied, as of one
// moment, into a new SQLite file (store.DB.Backup says more; pg_dump is the
// tool for a dump of PostgreSQL itself).
func backupCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("backup")
	out := fs.String("o", "", "the backup file to write, a SQLite file")
	dbPath := fs.String("db", defaultDatabase(), "the database to copy: a SQLite file or a postgres:// URL")
	if err := fs.Parse(args); err != nil {
		return fail(stderr, "backup: %v", err)
	}
	if *out == "" || fs.NArg() > 0 {
		return fail(stderr, "backup: usage: malefiz backup -o FILE [-db PATH|URL]")
	}
	if !isPostgres(*dbPath) {
		if _, err := os.Stat(strings.TrimPrefix(*dbPath, "sqlite:")); err != nil {
			return fail(stderr, "backup: %v", err)
		}
	}
	ctx := context.Background()
	db, err := store.Open(ctx, *dbPath)
	if err != nil {
		return fail(stderr, "backup: %v", err)
	}
	defer db.Close()
	if err := db.Backup(ctx, *out); err != nil {
		return fail(stderr, "backup: %v", err)
	}
	return 0
}

// replayCommand is `malefiz replay -o FILE DATABASE GAME`: an animated GIF
// of a stored game.
func replayCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("replay")
	out := fs.String("o", "game.gif", "the GIF file to write")
	width := fs.Int("width", 0, "frame width in pixels (default 480)")
	if err := fs.Parse(args); err != nil {
		return fail(stderr, "replay: %v", err)
	}
	if fs.NArg() != 2 {
		return fail(stderr, "replay: usage: malefiz replay [-o FILE] DATABASE GAME")
	}
	id, err := strconv.ParseInt(fs.Arg(1), 10, 64)
	if err != nil || id <= 0 {
		return fail(stderr, "replay: GAME must be a game number, got %q", fs.Arg(1))
	}
	if _, err := os.Stat(fs.Arg(0)); err != nil {
		return fail(stderr, "replay: %v", err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, fs.Arg(0))
	if err != nil {
		return fail(stderr, "replay: %v", err)
	}
	defer db.Close()
	sg, err := db.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return fail(stderr, "replay: there is no game %d", id)
	} else if err != nil {
		return fail(stderr, "replay: %v", err)
	}
	events, err := db.Events(ctx, id)
	if err != nil {
		return fail(stderr, "replay: %v", err)
	}
	g, err := bot.Replay(sg, events)
	if err != nil {
		return fail(stderr, "replay: %v", err)
	}
	if g == nil {
		return fail(stderr, "replay: game %d never started", id)
	}
	var buf bytes.Buffer
	if err := render.ReplayGIF(&buf, render.ReplayScenes(g), &render.ReplayOptions{Width: *width}); err != nil {
		return fail(stderr, "replay: %v", err)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fail(stderr, "replay: %v", err)
	}
	return 0
}
