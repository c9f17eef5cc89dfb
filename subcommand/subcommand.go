// Package subcommand is how the malefiz command's subcommands read their
// flags and report: a flag set whose -h prints the subcommand's usage with
// every flag and its default, a one-line error with exit status 2 for a bad
// flag or argument, and Run, which runs a subcommand and answers its help.
package subcommand

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Command is one subcommand: it parses its own arguments and returns the
// exit status.
type Command struct {
	// Summary says in a line what the command does ("write a PNG of a
	// position"), lower case, no full stop.
	Summary string
	// Synopsis is the usage line, flags in brackets when optional; ""
	// is "malefiz NAME [flags]".
	Synopsis string
	// Run runs the command with its arguments.
	Run func(args []string, stdout, stderr io.Writer) int
}

// helpRequest is raised, as a panic, by the Usage of a flag set from
// FlagSet when the arguments ask for help (-h, -help): Run recovers it and
// prints that flag set's usage, with every flag the command defined, on
// stdout. A parse error does not raise it: the command reports the error
// itself, in one line.
type helpRequest struct{ fs *flag.FlagSet }

// FlagSet returns a flag set whose errors the caller reports and whose -h
// prints the command's usage (see Run).
func FlagSet(name string) *flag.FlagSet {
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

// Run runs a subcommand; a help request prints its usage on stdout and
// returns 0.
func Run(name string, cmd Command, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			h, ok := r.(helpRequest)
			if !ok {
				panic(r)
			}
			printUsage(stdout, name, cmd, h.fs)
			code = 0
		}
	}()
	return cmd.Run(args, stdout, stderr)
}

// printUsage prints a subcommand's synopsis, what it does and each flag
// with its default.
func printUsage(w io.Writer, name string, cmd Command, fs *flag.FlagSet) {
	synopsis := cmd.Synopsis
	if synopsis == "" {
		synopsis = "malefiz " + name + " [flags]"
	}
	fmt.Fprintf(w, "usage: %s\n\n%s.\n", synopsis, Capitalize(cmd.Summary))
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
		if !strings.Contains(help, "(default") && !strings.HasSuffix(help, Required) {
			help += " (default " + defaultText(f) + ")"
		}
		fmt.Fprintf(w, "%s\n      %s\n", head, help)
	})
}

// Required ends the usage text of a flag the command cannot do without:
// the usage shows no default for it.
const Required = "(required)"

// defaultText shows a flag's default, "none" when empty.
func defaultText(f *flag.Flag) string {
	if f.DefValue == "" {
		return "none"
	}
	return f.DefValue
}

// Capitalize returns s with its first letter upper case.
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Fail prints a one-line error on stderr and returns the usage status 2.
func Fail(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "malefiz: "+format+"\n", args...)
	return 2
}

// OneLine returns an error's text on one line: the lines of a multi-error
// joined by "; ".
func OneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}
