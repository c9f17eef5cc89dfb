package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	gametable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
)

// analyseCommand prints how the chances went in a stored game: its turning
// points, the three moves that changed their mover's chance most, as the
// result message lists them; -o writes the chart of each player's chance.
func analyseCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("analyse")
	out := fs.String("o", "", "write the chart of each player's chance over the game to this PNG file (default: no chart)")
	dbFlag := fs.String("db", "", "the database of the game (default the configured [database] path, malefiz.db)")
	configPath := fs.String("config", "", "the TOML configuration file that names the database (default malefiz.toml if present)")
	if err := fs.Parse(args); err != nil {
		return fail(stderr, "analyse: %v", err)
	}
	sg, g, err := storedGame(fs, *dbFlag, *configPath, "malefiz analyse [-o FILE] [-db PATH] GAME")
	if err != nil {
		return fail(stderr, "analyse: %v", err)
	}
	en := *sg
	en.Locale = "en"
	t := &gametable.Table{Game: &en, State: g}
	chart, lines := t.ChartOf(g)
	fmt.Fprintf(stdout, "Malefiz #%d, %d turns: %s\n", sg.ID, g.TurnNumber(), outcome(t, g))
	if len(lines) == 0 {
		fmt.Fprintln(stdout, "No move was played.")
	} else {
		fmt.Fprintln(stdout, "Turning points:")
		for _, l := range lines {
			fmt.Fprintln(stdout, strings.ReplaceAll(l, "**", "")) // the Markdown's bold
		}
	}
	if *out != "" {
		png, err := chart.PNG()
		if err != nil {
			return fail(stderr, "analyse: %v", err)
		}
		if err := os.WriteFile(*out, png, 0o644); err != nil {
			return fail(stderr, "analyse: %v", err)
		}
	}
	return 0
}

// outcome says who won game g, or that it is still running.
func outcome(t *gametable.Table, g *engine.Game) string {
	if !g.Over() {
		return "still running"
	}
	return t.SeatLabel(t.SeatByColor(g.Winner())) + " won"
}
