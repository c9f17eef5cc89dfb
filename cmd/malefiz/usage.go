package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
)

// synopses are the usage lines of the subcommands, flags in brackets
// when optional.
var synopses = map[string]string{
	"run":         "malefiz [run] [-config FILE]",
	"sandbox":     "malefiz sandbox [-listen ADDR] [-db FILE] [-users NAMES] [-locale LOCALES] [-server-locale LOCALE] [-admin NAME]",
	"moves":       "malefiz moves -roll N [-six-again] [-safe-row-2] POSITION",
	"perft":       "malefiz perft [-depth N] [-divide] POSITION",
	"render":      "malefiz render [-roll N] [-six-again] [-safe-row-2] [-size PX] -o FILE POSITION",
	"selfplay":    "malefiz selfplay -players LEVEL,LEVEL[,...] [-games N] [-first I] [-seed S] [-duplicate] [-master FILE] [-six-again] [-safe-row-2] [-json] [-q]",
	"tdtrain":     "malefiz tdtrain [-games N] [-seed S] [-alpha A] [-lambda L] [-players N,N,...] [-checkpoint FILE] [-every N] [-snapshots DIR] [-measure N] [-out FILE]",
	"train":       "malefiz train [-games N] [-seed S] [-levels L,L,...] [-out FILE] [-calibrate N] [-calibrate-seed S] [-calibrate-levels L,L,...] [-rollouts N] [-rollout-every N] [-cache DIR] [-resamples N] [-chances-only] [-embedded] [-q]",
	"backup":      "malefiz backup -o FILE [-db FILE|URL] [-config FILE]",
	"migrate-to":  "malefiz migrate-to [-db FILE] URL",
	"replay":      "malefiz replay [-o FILE] [-width PX] [-db FILE] [-config FILE] GAME\n       malefiz replay [-o FILE] [-width PX] DATABASE GAME",
	"analyse":     "malefiz analyse [-o FILE] [-db FILE] [-config FILE] GAME\n       malefiz analyse [-o FILE] DATABASE GAME",
	"healthcheck": "malefiz healthcheck [-ready] [-addr HOST:PORT]",
}

// helpRequest is raised, as a panic, by the Usage of a flag set from
// newFlagSet when the arguments ask for help (-h, -help): runSubcommand
// recovers it and prints that flag set's usage, with every flag the
// command defined, on stdout. A parse error does not raise it: the
// command reports the error itself, in one line.
type helpRequest struct{ fs *flag.FlagSet }

// newFlagSet returns a flag set whose errors the caller reports and whose
// -h prints the command's usage (see helpRequest).
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	var errs bytes.Buffer // the flag package writes a parse error here before calling Usage
	fs.SetOutput(&errs)
	fs.Usage = func() {
		if errs.Len() == 0 {
			panic(helpRequest{fs})
		}
	}
	return fs
}

// runSubcommand runs a subcommand; a help request prints its usage and
// exits 0.
func runSubcommand(name string, cmd command, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			h, ok := r.(helpRequest)
			if !ok {
				panic(r)
			}
			printUsage(stdout, name, h.fs)
			code = 0
		}
	}()
	return cmd.run(args, stdout, stderr)
}

// printUsage prints a subcommand's synopsis, what it does and each flag
// with its default.
func printUsage(w io.Writer, name string, fs *flag.FlagSet) {
	synopsis := synopses[name]
	if synopsis == "" {
		synopsis = "malefiz " + name + " [flags]"
	}
	fmt.Fprintf(w, "usage: %s\n\n%s.\n", synopsis, capitalize(commands[name].summary))
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintf(w, "\nflags:\n")
			first = false
		}
		kind, help := flag.UnquoteUsage(f)
		head := "  -" + f.Name
		if kind != "" {
			head += " " + kind
		}
		if !strings.Contains(help, "(default") && !strings.HasSuffix(help, requiredFlag) {
			help += " (default " + defaultText(f) + ")"
		}
		fmt.Fprintf(w, "%s\n      %s\n", head, help)
	})
}

// requiredFlag ends the usage text of a flag the command cannot do
// without: printUsage shows no default for it.
const requiredFlag = "(required)"

// defaultText shows a flag's default, "none" when empty.
func defaultText(f *flag.Flag) string {
	if f.DefValue == "" {
		return "none"
	}
	return f.DefValue
}

// usage prints the commands, for malefiz -h and malefiz help.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: malefiz [command] [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Malefiz for Discord: the bot, a local sandbox to try it, and tools around its rules.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, name := range commandOrder {
		fmt.Fprintf(w, "  %-11s %s\n", name, commands[name].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'malefiz COMMAND -h' for a command's flags. Try it without Discord:")
	fmt.Fprintln(w, "  malefiz sandbox     then open http://127.0.0.1:8080")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
