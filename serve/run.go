package serve

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/malefiz-discord/malefiz/subcommand"
)

// runCommand is `malefiz run`: the bot, until SIGINT or SIGTERM.
func runCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("run")
	configPath := fs.String("config", "", "the TOML configuration file (default malefiz.toml if present)")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "run: %v", err)
	}
	if fs.NArg() > 0 {
		return subcommand.Fail(stderr, "run: unexpected argument %q", fs.Arg(0))
	}
	cfg, err := LoadConfig(*configPath, os.Getenv)
	if err != nil {
		return subcommand.Fail(stderr, "%s", subcommand.OneLine(err))
	}
	logger := cfg.Logger(os.Stderr)
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	m := &Main{Config: cfg, Logger: logger}
	if err := m.Run(ctx); err != nil {
		if errors.Is(err, context.Canceled) {
			return 0
		}
		logger.Error("could not start", "err", err)
		return 1
	}
	<-ctx.Done()
	logger.Info("shutting down")
	if err := m.Close(); err != nil {
		logger.Error("shutdown", "err", err)
		return 1
	}
	return 0
}

// RunCommand is `malefiz run`, the subcommand that runs the bot until
// SIGINT or SIGTERM.
var RunCommand = subcommand.Command{Summary: "run the Discord bot (the default)",
	Synopsis: "malefiz [run] [-config FILE]", Run: runCommand}
