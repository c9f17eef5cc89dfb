package tools

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/serve"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// toolDatabase returns the database a tool opens: the -db flag, else the
// configured one (config file and environment, as for run: [database] url
// when set), and checks that a SQLite file exists. Its error names the file
// it looked for and where that name came from.
func toolDatabase(dbFlag, configPath string) (string, error) {
	path, source := dbFlag, "-db"
	if path == "" {
		cfg, err := serve.LoadToolConfig(configPath, os.Getenv)
		if err != nil {
			return "", errors.New(subcommand.OneLine(err))
		}
		path, source = cfg.Database.Path, "the default [database] path; set -db FILE, MALEFIZ_DATABASE_PATH or path in the config file"
		if os.Getenv("MALEFIZ_DATABASE_URL") != "" {
			source = "from MALEFIZ_DATABASE_URL"
		} else if os.Getenv("MALEFIZ_DATABASE_PATH") != "" {
			source = "from MALEFIZ_DATABASE_PATH"
		} else if configPath != "" {
			source = "the [database] path or url of " + configPath
		} else if _, err := os.Stat(serve.DefaultConfigFile); err == nil {
			source = "the [database] path or url of " + serve.DefaultConfigFile
		}
	}
	if serve.IsPostgres(path) {
		return path, nil // the server says whether it is there
	}
	if _, err := os.Stat(strings.TrimPrefix(path, "sqlite:")); err != nil {
		return "", fmt.Errorf("no database at %s (%s): %w", path, source, errors.Unwrap(err))
	}
	return path, nil
}

// backupCommand is `malefiz backup -o FILE [-db PATH|URL]`: a consistent
// copy of a live database, safe while the bot runs. A SQLite database
// copies itself (VACUUM INTO); a PostgreSQL database is copied, as of one
// moment, into a new SQLite file (store.DB.Backup says more; pg_dump is the
// tool for a dump of PostgreSQL itself).
func backupCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("backup")
	out := fs.String("o", "", "the backup file to write, a SQLite file "+subcommand.Required)
	dbFlag := fs.String("db", "", "the database to copy, a SQLite file or a postgres:// URL (default the configured [database] url or path, malefiz.db)")
	configPath := fs.String("config", "", "the TOML configuration file that names the database (default malefiz.toml if present)")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "backup: %v", err)
	}
	if *out == "" || fs.NArg() > 0 {
		return subcommand.Fail(stderr, "backup: usage: malefiz backup -o FILE [-db PATH|URL]")
	}
	dbPath, err := toolDatabase(*dbFlag, *configPath)
	if err != nil {
		return subcommand.Fail(stderr, "backup: %v", err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		return subcommand.Fail(stderr, "backup: %v", err)
	}
	defer db.Close()
	if err := db.Backup(ctx, *out); err != nil {
		return subcommand.Fail(stderr, "backup: %v", err)
	}
	return 0
}

// storedGame reads the game a tool names, with its whole history replayed
// from the event log: GAME as the one argument, from the database of -db
// (dbFlag) or of the configuration; or, as before, DATABASE GAME. usage is
// the command's usage line, for a wrong number of arguments.
func storedGame(fs *flag.FlagSet, dbFlag, configPath, usage string) (*malefiz.Game, *engine.Game, error) {
	gameArg := fs.Arg(0)
	switch {
	case fs.NArg() == 2 && dbFlag == "":
		dbFlag, gameArg = fs.Arg(0), fs.Arg(1)
	case fs.NArg() != 1:
		return nil, nil, fmt.Errorf("usage: %s", usage)
	}
	id, err := strconv.ParseInt(gameArg, 10, 64)
	if err != nil || id <= 0 {
		return nil, nil, fmt.Errorf("GAME must be a game number, got %q", gameArg)
	}
	dbPath, err := toolDatabase(dbFlag, configPath)
	if err != nil {
		return nil, nil, err
	}
	ctx := context.Background()
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	sg, err := db.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, fmt.Errorf("there is no game %d", id)
	} else if err != nil {
		return nil, nil, err
	}
	events, err := db.Events(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	g, err := bot.Replay(sg, events)
	if err != nil {
		return nil, nil, err
	}
	if g == nil {
		return nil, nil, fmt.Errorf("game %d never started", id)
	}
	return sg, g, nil
}

// replayCommand is `malefiz replay [-o FILE] [-db PATH] GAME` (or, as
// before, `malefiz replay [-o FILE] DATABASE GAME`): an animated GIF of a
// stored game.
func replayCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("replay")
	out := fs.String("o", "game.gif", "the GIF file to write")
	width := fs.Int("width", 0, "frame width in pixels (default 480)")
	dbFlag := fs.String("db", "", "the database of the game (default the configured [database] path, malefiz.db)")
	configPath := fs.String("config", "", "the TOML configuration file that names the database (default malefiz.toml if present)")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "replay: %v", err)
	}
	_, g, err := storedGame(fs, *dbFlag, *configPath, "malefiz replay [-o FILE] [-db PATH] GAME")
	if err != nil {
		return subcommand.Fail(stderr, "replay: %v", err)
	}
	var buf bytes.Buffer
	if err := render.ReplayGIF(&buf, render.ReplayScenes(g), &render.ReplayOptions{Width: *width}); err != nil {
		return subcommand.Fail(stderr, "replay: %v", err)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return subcommand.Fail(stderr, "replay: %v", err)
	}
	return 0
}
