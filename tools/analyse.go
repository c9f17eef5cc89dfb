package tools

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	gametable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/game"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// analyseCommand prints how the chances went in a stored game: its turning
// points, the three moves that changed their mover's chance most, as the
// result message lists them, and the coach's whole grading of its players'
// moves; -o writes the chart of each player's chance.
func analyseCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("analyse")
	out := fs.String("o", "", "write the chart of each player's chance over the game to this PNG file (default: no chart)")
	dbFlag := fs.String("db", "", "the database of the game (default the configured [database] path, malefiz.db)")
	configPath := fs.String("config", "", "the TOML configuration file that names the database (default malefiz.toml if present)")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "analyse: %v", err)
	}
	sg, g, err := storedGame(fs, *dbFlag, *configPath, "malefiz analyse [-o FILE] [-db PATH] GAME")
	if err != nil {
		return subcommand.Fail(stderr, "analyse: %v", err)
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
	if err := printGrading(stdout, t, g, *dbFlag, *configPath); err != nil {
		return subcommand.Fail(stderr, "analyse: %v", err)
	}
	if *out != "" {
		png, err := chart.PNG()
		if err != nil {
			return subcommand.Fail(stderr, "analyse: %v", err)
		}
		if err := os.WriteFile(*out, png, 0o644); err != nil {
			return subcommand.Fail(stderr, "analyse: %v", err)
		}
	}
	return 0
}

// printGrading prints the coach's grading of game g as stored: each
// graded player's summary, then every graded roll.
func printGrading(w io.Writer, t *gametable.Table, g *engine.Game, dbFlag, configPath string) error {
	dbPath, err := toolDatabase(dbFlag, configPath)
	if err != nil {
		return err
	}
	ctx := context.Background()
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	stored, final, err := db.Grades(ctx, t.Game.ID)
	if err != nil {
		return err
	}
	if len(stored) == 0 {
		fmt.Fprintln(w, "Coach: no move graded.")
		return nil
	}
	grades, err := game.EngineGrades(stored)
	if err != nil {
		return err
	}
	state := "final"
	if !final {
		state = "in progress"
	}
	fmt.Fprintf(w, "Coach (%s): losses and luck in points of win chance\n", state)
	label := func(c engine.Color) string { return t.SeatLabel(t.SeatByColor(c)) }
	for _, c := range g.StartPosition().Players() {
		s := ai.Summarise(grades, c)
		if s.Decisions == 0 && s.Luck == 0 {
			continue
		}
		fmt.Fprintf(w, "  %s: accuracy %.1f%% over %d decisions, mean loss %.2f, %d inaccuracies, %d mistakes, %d blunders, luck %+.1f\n",
			label(c), s.Accuracy, s.Decisions, s.Loss, s.Inaccuracies, s.Mistakes, s.Blunders, s.Luck)
	}
	for _, gr := range grades {
		move, best := "pass", ""
		if gr.Move != ai.NoMove {
			move = gr.Move.String()
		}
		switch {
		case !gr.Graded():
			best = "no choice"
		case gr.Loss == 0:
			best = "best"
		default:
			best = fmt.Sprintf("lost %.2f, best %s", gr.Loss, gr.Best)
			if c := gr.Class(); c != ai.ClassNone {
				best += ", " + c.String()
			}
		}
		fmt.Fprintf(w, "  Turn %d · %s rolled %d: %s (%s), luck %+.1f\n", gr.Turn, label(gr.Color), gr.Roll, move, best, tenths(gr.Luck))
	}
	return nil
}

// tenths rounds x to tenths, without a negative zero.
func tenths(x float64) float64 {
	if r := math.Round(x*10) / 10; r != 0 {
		return r
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
