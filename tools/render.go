package tools

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// renderCommand writes the PNG of a position:
//
//	malefiz render [-roll N] [-size PX] -o FILE POSITION
//
// With -roll the legal destinations of that roll are labelled A, B, C, … and
// the moves behind the letters are printed on stdout, one per line
// ("A home-c1"). FILE "-" writes the PNG to stdout instead.
func renderCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("render")
	roll := fs.Int("roll", 0, "label the legal destinations of this roll, 1 to 6 (default no labels)")
	size := fs.Int("size", 0, fmt.Sprintf("image width in pixels, %d to %d (default %d)", render.MinWidth, render.MaxWidth, render.DefaultWidth))
	out := fs.String("o", "", "the PNG file to write, - for stdout "+subcommand.Required)
	sixAgain := fs.Bool("six-again", false, "house rule six-again")
	safeRow2 := fs.Bool("safe-row-2", false, "house rule safe-row-2")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "render: %v", err)
	}
	if *roll < 0 || *roll > 6 {
		return subcommand.Fail(stderr, "render: -roll must be 1 to 6, got %d", *roll)
	}
	if *size != 0 && (*size < render.MinWidth || *size > render.MaxWidth) {
		return subcommand.Fail(stderr, "render: -size must be %d to %d, got %d", render.MinWidth, render.MaxWidth, *size)
	}
	if *out == "" {
		return subcommand.Fail(stderr, "render: -o FILE is required")
	}
	pos, err := positionArg(fs)
	if err != nil {
		return subcommand.Fail(stderr, "render: %v", err)
	}
	scene := render.NewScene(pos)
	var choices []engine.Move
	if *roll > 0 && !pos.Over() {
		moves := pos.Moves(*roll, engine.Rules{SixAgain: *sixAgain, SafeRow2: *safeRow2})
		// In notation order, as the game lists them for the bot's buttons.
		slices.SortFunc(moves, func(a, b engine.Move) int { return strings.Compare(a.String(), b.String()) })
		scene.Roll = *roll
		scene.Labels = render.DestinationLabels(moves)
		choices = render.Choices(moves)
	}
	data, err := render.New(*size).PNG(scene)
	if err != nil {
		return subcommand.Fail(stderr, "render: %v", err)
	}
	if *out == "-" {
		if _, err := stdout.Write(data); err != nil {
			return subcommand.Fail(stderr, "render: %v", err)
		}
		return 0
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return subcommand.Fail(stderr, "render: %v", err)
	}
	for i, m := range choices {
		fmt.Fprintf(stdout, "%s %s\n", render.Letter(i), m)
	}
	return 0
}
