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
//	malefiz chances [-json] [-six-again] [-safe-row-2] POSITION
//	malefiz train [-games N] [-seed S] [-out FILE] [-calibrate N]
//	malefiz heldout [-seed S] [-n N] [-rollouts N] [-o FILE] [-check LEVEL]
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

	"github.com/malefiz-discord/malefiz/sandbox"
	"github.com/malefiz-discord/malefiz/serve"
	"github.com/malefiz-discord/malefiz/subcommand"
	"github.com/malefiz-discord/malefiz/tools"
)

// commands lists the subcommands by name: the bot (serve), the sandbox,
// the health check (serve) and the offline tools (tools).
var commands = map[string]subcommand.Command{
	"run":         serve.RunCommand,
	"sandbox":     sandbox.Command,
	"moves":       tools.Moves,
	"perft":       tools.Perft,
	"render":      tools.Render,
	"selfplay":    tools.Selfplay,
	"train":       tools.Train,
	"heldout":     tools.Heldout,
	"chances":     tools.Chances,
	"tdtrain":     tools.TDTrain,
	"backup":      tools.Backup,
	"migrate-to":  tools.MigrateTo,
	"replay":      tools.Replay,
	"analyse":     tools.Analyse,
	"healthcheck": serve.Healthcheck,
}

// commandOrder is the order in which usage lists the commands.
var commandOrder = []string{"run", "sandbox", "moves", "perft", "render", "selfplay", "chances", "train", "heldout", "tdtrain", "backup", "migrate-to", "replay", "analyse", "healthcheck"}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the subcommand that args name ("run" when they name none) and
// returns the exit status.
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
	return subcommand.Run(name, cmd, args, stdout, stderr)
}

// isHelpFlag reports whether arg asks for help.
func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "--h"
}
