// Command malefiz runs the Malefiz Discord bot and offers tools around its
// rules engine: legal moves, perft, board pictures, self-play and backups.
//
// Usage:
//
//	malefiz [run] [-config FILE]        run the bot (the default)
//	malefiz sandbox [-listen ADDR]      the bot against a fake Discord, in the browser
//	malefiz moves -roll N POSITION      print the legal moves, one per line
//	malefiz perft -depth N [-divide] POSITION
//	malefiz render [-roll N] [-six-again] [-safe-row-2] [-size PX] -o FILE POSITION
//	malefiz selfplay -players LEVEL,LEVEL[,…] [-games N] [-seed S] [-duplicate] [-json] [-q]
//	malefiz train [-games N] [-seed S] [-out FILE] [-calibrate N]
//	malefiz tdtrain [-games N] [-seed S] [-checkpoint FILE] [-out FILE]
//	malefiz backup -o FILE [-db PATH|URL]
//	malefiz migrate-to [-db PATH] URL
//	malefiz replay [-o FILE] [-width PX] [-db PATH] GAME
//	malefiz analyse [-o FILE] [-db PATH] GAME
//	malefiz healthcheck [-ready] [-addr HOST:PORT]
//
// malefiz -h, malefiz help and malefiz COMMAND -h print the usage, every
// flag with its default. A bad position or flag prints a one-line error on
// stderr and exits with status 2.
package main

import (
	"fmt"
	"io"
	"os"
)

// command is one subcommand: it parses its own arguments and returns the exit status.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands by name.
var commands = map[string]command{
	"run":         {"run the Discord bot (the default)", runCommand},
	"sandbox":     {"try the bot in the browser: a local fake Discord server, no token needed", sandboxCommand},
	"moves":       {"print the legal moves of a position for a roll", movesCommand},
	"perft":       {"count move sequences from a position (docs/rules.md's perft)", perftCommand},
	"render":      {"write a PNG of a position", renderCommand},
	"selfplay":    {"play computer players against each other and report win rates", selfplayCommand},
	"train":       {"train the win-chance estimator on self-play games and measure it", trainCommand},
	"tdtrain":     {"learn master's evaluation by temporal-difference learning over self-play games", tdtrainCommand},
	"backup":      {"copy the live database safely into a SQLite file", backupCommand},
	"migrate-to":  {"copy a SQLite database into an empty PostgreSQL database, and check", migrateToCommand},
	"replay":      {"write an animated GIF of a stored game", replayCommand},
	"analyse":     {"print a stored game's turning points; -o writes the chart of the chances", analyseCommand},
	"healthcheck": {"ask the running bot's /healthz (or /readyz with -ready)", healthcheckCommand},
}

// commandOrder is the order in which usage lists the commands.
var commandOrder = []string{"run", "sandbox", "moves", "perft", "render", "selfplay", "train", "tdtrain", "backup", "migrate-to", "replay", "analyse", "healthcheck"}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && isHelpFlag(args[0]) {
		usage(stdout)
		return 0
	}
	name := "run"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" {
		if len(args) == 0 {
			usage(stdout)
			return 0
		}
		name, args = args[0], []string{"-h"}
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "malefiz: unknown command %q (try 'malefiz help')\n", name)
		return 2
	}
	return runSubcommand(name, cmd, args, stdout, stderr)
}

// isHelpFlag reports whether arg asks for help.
func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "--h"
}

// fail prints a one-line error and returns the usage status 2.
func fail(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "malefiz: "+format+"\n", args...)
	return 2
}
