package tools

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// positionArg reads the position from the remaining arguments: either one
// argument, or the notation's fields as separate arguments.
func positionArg(fs *flag.FlagSet) (engine.Position, error) {
	if fs.NArg() == 0 {
		return engine.Position{}, fmt.Errorf("a POSITION is required (for example: start)")
	}
	return engine.ParsePosition(strings.Join(fs.Args(), " "))
}

func movesCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("moves")
	roll := fs.Int("roll", 0, "the die, 1 to 6 "+subcommand.Required)
	sixAgain := fs.Bool("six-again", false, "house rule six-again")
	safeRow2 := fs.Bool("safe-row-2", false, "house rule safe-row-2")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "moves: %v", err)
	}
	if *roll < 1 || *roll > 6 {
		return subcommand.Fail(stderr, "moves: -roll must be 1 to 6, got %d", *roll)
	}
	pos, err := positionArg(fs)
	if err != nil {
		return subcommand.Fail(stderr, "moves: %v", err)
	}
	var lines []string
	for _, m := range pos.Moves(*roll, engine.Rules{SixAgain: *sixAgain, SafeRow2: *safeRow2}) {
		lines = append(lines, m.String())
	}
	slices.Sort(lines)
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	return 0
}

func perftCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("perft")
	depth := fs.Int("depth", 1, "plies to count")
	divide := fs.Bool("divide", false, "print the count under each first roll and move")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "perft: %v", err)
	}
	if *depth < 0 || *depth > 8 {
		return subcommand.Fail(stderr, "perft: -depth must be 0 to 8, got %d", *depth)
	}
	pos, err := positionArg(fs)
	if err != nil {
		return subcommand.Fail(stderr, "perft: %v", err)
	}
	if *divide {
		counts := engine.PerftDivide(pos, *depth)
		keys := make([]string, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(stdout, "%s %d\n", k, counts[k])
		}
	}
	fmt.Fprintln(stdout, engine.Perft(pos, *depth))
	return 0
}
