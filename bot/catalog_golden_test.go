package bot

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite bot/testdata/*.golden")

// goldenCounts are the counts every counted text is shown with: none, one,
// two, Polish "many" and Polish "few" past twenty.
var goldenCounts = []int{0, 1, 2, 5, 22}

// mainTexts renders the texts players read most in lang, each counted one
// with every golden count, and the help: the commands and buttons they name
// as the language's players see them.
func mainTexts(lang string) string {
	var b strings.Builder
	line := func(label, text string) { fmt.Fprintf(&b, "%-14s %s\n", label, text) }
	line("turn title", tr(lang, msgTurnTitle, 7, "🔴 "+tr(lang, msgRed)))
	line("roll prompt", tr(lang, msgPromptRoll))
	line("move prompt", tr(lang, msgPromptMove, 4))
	line("pawn prompt", tr(lang, msgPromptPawn, 6))
	line("place prompt", tr(lang, msgPromptPlace, "e3"))
	line("deadline", tr(lang, msgDeadline, 1767225600))
	line("turn summary", tr(lang, msgTurnPrefix, 8)+" "+tr(lang, msgRolled, "Anna", 3))
	line("forfeit", tr(lang, msgWinnerForfeit, "Anna"))
	line("reminder", tr(lang, msgReminder, "@Anna", 42, 1767225600))
	line("chart date", chartDates(lang)(time.Date(2026, time.March, 14, 0, 0, 0, 0, time.UTC), false))
	line("decimal", formatDecimal(lang, 12.5))
	line("no game", tr(lang, msgNoGameHere))
	line("roll choice", tr(lang, msgRollButtonOpt))
	line("rematch", tr(lang, msgRematchOpened, 12, "#general"))
	for _, n := range goldenCounts {
		fmt.Fprintf(&b, "\ncount %d\n", n)
		line("minutes", tr(lang, msgMinutes, n))
		line("hours", tr(lang, msgHours, n))
		line("days", tr(lang, msgDays, n))
		line("row option", tr(lang, msgRowOption, 6, n))
		line("winner", tr(lang, msgWinner, "Anna", n))
		line("leaderboard", tr(lang, msgLeaderLine, "1.", "Anna", 1534, tr(lang, msgGamesCount, n), tr(lang, msgWinsCount, n), formatPercent(lang, 0.5)))
		line("leader footer", tr(lang, msgLeaderFooter, 1, 2, n))
		line("leader empty", tr(lang, msgLeaderEmpty, n))
		line("streak", tr(lang, msgStreakWins, n)+" / "+tr(lang, msgStreakLosses, n))
		line("history", tr(lang, msgHistoryLine, 12, "Anna", "Ben", n, 1767225600))
		line("replay", tr(lang, msgReplayDone, 12, n))
		line("taken over", tr(lang, msgTakenOver, "Anna", n))
		line("bad bots", tr(lang, msgBadBots, n))
	}
	fmt.Fprintf(&b, "\nhelp\n%s\n", strings.TrimSpace(tr(lang, msgHelpText)))
	return b.String()
}

// TestMainTextsGolden compares each language's main texts with
// testdata/catalog-LANG.golden; -update rewrites the files.
func TestMainTextsGolden(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			got := mainTexts(lang)
			assert.NotContains(t, got, "%!", "a format verb without its argument")
			path := filepath.Join("testdata", "catalog-"+lang+".golden")
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "no golden file: run go test ./bot -run TestMainTextsGolden -update")
			assert.Equal(t, string(want), got)
		})
	}
}
