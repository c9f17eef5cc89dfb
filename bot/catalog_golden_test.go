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

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/store"
)

var update = flag.Bool("update", false, "rewrite bot/testdata/*.golden")

// goldenCounts are the counts every counted text is shown with: none, one,
// two, Polish "many" and Polish "few" past twenty.
var goldenCounts = []int{0, 1, 2, 5, 22}

// mainTexts renders the texts players read most in lang, each counted one
// with every golden count, and the help and the marks: the commands,
// buttons and choices they name as the language's players see them, and
// the texts of the chances, the computer's reasons, the legend, the
// placement suggestions, the notifications, the settings and the coach's
// verdict, review, hint and accuracy filled in as the bot fills them.
func mainTexts(lang string) string {
	var b strings.Builder
	line := func(label, text string) { fmt.Fprintf(&b, "%-14s %s\n", label, text) }
	line("turn title", tr(lang, locales.TurnTitle, 7, "🔴 "+tr(lang, locales.ColorRed)))
	line("roll prompt", tr(lang, locales.TurnPromptRoll))
	line("move prompt", tr(lang, locales.TurnPromptMove, 4))
	line("pawn prompt", tr(lang, locales.TurnPromptPawn, 6))
	line("place prompt", tr(lang, locales.TurnPromptPlace, "e3"))
	line("deadline", tr(lang, locales.TurnDeadline, 1767225600))
	line("turn summary", tr(lang, locales.TurnPrefix, 8)+" "+tr(lang, locales.TurnRolled, "Anna", 3))
	line("forfeit", tr(lang, locales.GameWinnerForfeit, "Anna"))
	line("reminder", tr(lang, locales.TimerReminder, "@Anna", 42, 1767225600))
	line("chart date", chartDates(lang)(time.Date(2026, time.March, 14, 0, 0, 0, 0, time.UTC), false))
	line("decimal", formatDecimal(lang, 12.5))
	line("no game", tr(lang, locales.ErrNoGameHere))
	line("roll choice", tr(lang, locales.RollButton))
	line("rematch", tr(lang, locales.RematchOpened, 12, "#general"))
	line("legend", strings.Join([]string{tr(lang, locales.LegendCaptures), tr(lang, locales.LegendBarricade, "🚧"), tr(lang, locales.LegendGoal, "★")}, " · "))
	line("others move", tr(lang, locales.BoardOthersMove, "Anna", 5))
	line("others pawn", tr(lang, locales.TurnOthersPawn, "Anna", 6))
	line("others place", tr(lang, locales.TurnOthersPlace, "Anna", "e3"))
	line("placement", "1 · d9 · "+tr(lang, locales.PlaceSlows, "🔵 Ben", locales.Tenths(2.5)))
	line("placement", "2 · c5 · "+tr(lang, locales.PlaceOwnCost, locales.Tenths(1.5)))
	line("placement", "3 · g7 · "+tr(lang, locales.PlaceAside))
	computer := tr(lang, locales.Computer, tr(lang, levelName("expert")))
	for _, why := range []string{tr(lang, locales.ReasonCapturesLead, "🔵 Ben"), tr(lang, locales.ReasonClears),
		tr(lang, locales.ReasonEnters), tr(lang, locales.ReasonEscapes, "🔵 Ben"), tr(lang, locales.ReasonRuns),
		tr(lang, locales.ReasonCaptures, "🔵 Ben"), tr(lang, locales.ReasonForced), tr(lang, locales.ReasonWaits),
		tr(lang, locales.ReasonSlows, "🔵 Ben", locales.Tenths(1.5))} {
		line("reason", tr(lang, locales.TurnPrefix, 9)+" "+tr(lang, locales.TurnRolled, computer, 4)+" b4 → d6 · "+why)
	}
	line("chances", tr(lang, locales.ChancesTitle))
	line("turning point", tr(lang, locales.ChancesTurning, 1, 14, "🔴 Anna", 5, "b4 → d6, "+tr(lang, locales.TurnBarricadeTo, "d9"), formatPercent(lang, 0.31), formatPercent(lang, 0.58))+
		" · "+tr(lang, locales.ChancesSplitBest, "+9"))
	line("turning point", tr(lang, locales.ChancesSplitLost, "+4", "−12", "c5 → e7"))
	line("chances chart", tr(lang, locales.ChancesChart))
	line("level", tr(lang, levelName("expert"))+": "+tr(lang, levelHint("expert")))
	line("bad level", tr(lang, locales.ErrBadLevel))
	line("notify", tr(lang, locales.NotifyOn))
	line("notify", tr(lang, locales.NotifyOff))
	line("notify", tr(lang, locales.NotifyPingAlways))
	line("notify", tr(lang, locales.NotifyPingAway))
	line("notify", tr(lang, locales.NotifyRefused))
	line("ping option", tr(lang, locales.OptPing))
	line("roll option", tr(lang, locales.OptRoll))
	line("settings", settingsText(catalog, lang, false, malefiz.GuildSettings{TurnTimeout: 24 * time.Hour, Reminders: true, Roll: table.RollAuto, Chances: true}))
	line("settings", settingsText(catalog, lang, true, malefiz.GuildSettings{TurnTimeout: time.Hour, Threads: true, Roll: table.RollButton}))
	line("unknown game", tr(lang, locales.ErrUnknownGame, 12))
	line("board button", tr(lang, locales.ButtonBoard))
	line("coach", tr(lang, locales.CoachTitle))
	line("coach line", tr(lang, locales.CoachLine, "🔴 Anna", formatPercent(lang, 0.87), tr(lang, locales.CoachInaccuracies, 2),
		tr(lang, locales.CoachMistakes, 1), tr(lang, locales.CoachBlunders, 0), "+6"))
	line("coach hints", tr(lang, locales.CoachHints, "🔴 Anna, 🔵 Ben"))
	line("coach footer", tr(lang, locales.CoachExplain, formatPercent(lang, 1), formatPercent(lang, ai.MoveAccuracy(ai.MistakeLoss)/100)))
	line("review", tr(lang, locales.ReviewTitle, 12))
	mistake, blunder := tr(lang, locales.CoachClassMistake), tr(lang, locales.CoachClassBlunder)
	best := tr(lang, locales.ReviewBest, "c5 → e7", tr(lang, locales.ReasonCaptures, "🔵 Ben"))
	for _, fault := range []string{tr(lang, locales.FaultMissesGoal), tr(lang, locales.FaultMissesCapture, "🔵 Ben"),
		tr(lang, locales.FaultMissesCaptureLead, "🔵 Ben"), tr(lang, locales.FaultExposes, "🔵 Ben"),
		tr(lang, locales.FaultExposesLead, "🔵 Ben"), tr(lang, locales.FaultWalksBack),
		tr(lang, locales.FaultBlocksOwn, locales.Tenths(1.5)), tr(lang, locales.FaultLetsThrough, "🔵 Ben"),
		tr(lang, locales.FaultWastesBarricade), tr(lang, locales.FaultLeavesOpen, "🔵 Ben"),
		tr(lang, locales.FaultSlower, locales.Tenths(0.4))} {
		line("review", tr(lang, locales.ReviewLine, 14, "b4 → d6", 7, mistake, fault, best))
	}
	line("review", tr(lang, locales.ReviewLinePlain, 21, "a2 → b3", 12, blunder,
		tr(lang, locales.ReviewBestBare, "f8 → g9, "+tr(lang, locales.TurnBarricadeTo, "d9"))))
	line("review", tr(lang, locales.ReviewLuckiest, 14, 5, "+20", tr(lang, locales.ReviewDid, "c5 → e7", tr(lang, locales.ReasonCapturesLead, "🔵 Ben"))))
	line("review", tr(lang, locales.ReviewUnluckiest, 9, 1, "−12", tr(lang, locales.ReviewPassed)))
	line("review", tr(lang, locales.ReviewNone))
	line("review", tr(lang, locales.ReviewLuck, "−3"))
	line("review", tr(lang, locales.ReviewNotReady))
	line("hint button", tr(lang, locales.ButtonHint)+" · "+tr(lang, locales.ButtonReview))
	line("hint", tr(lang, locales.HintAnswer, "b4 → d6", tr(lang, locales.ReasonRuns)))
	line("hint", tr(lang, locales.HintAnswerBare, "b4 → d6, "+tr(lang, locales.TurnBarricadeTo, "d9")))
	line("hint", tr(lang, locales.HintOff))
	line("hints option", tr(lang, locales.NameHints)+" · "+tr(lang, locales.OptHints))
	// The stats' card and its rating chart in words, the replay's
	// animation in words (issue 39).
	line("stats line", tr(lang, locales.StatsLine, tr(lang, locales.StatsGames), "12"))
	for _, games := range []int{1, 12, 120} {
		line("rating alt", ratingAlt(lang, "Anna", goldenStats(games)))
	}
	anna, ben := "Anna ("+tr(lang, locales.ColorRed)+")", "Ben ("+tr(lang, locales.ColorBlue)+")"
	line("replay alt", tr(lang, locales.AltReplayPlayers, anna+", "+ben, ben))
	line("replay alt", tr(lang, locales.AltReplayWon, anna, 31, 57))
	line("replay alt", tr(lang, locales.AltReplayWonLate, anna, 57))
	line("replay alt", tr(lang, locales.AltReplayForfeit, anna))
	line("replay alt", tr(lang, locales.AltReplayCancelled))
	line("replay alt", tr(lang, locales.AltReplayLeft, ben, 20))
	line("replay alt", tr(lang, locales.AltReplayNearest)+" "+tr(lang, locales.AltReplayCapture, 44, anna, ben, "i9")+"; "+tr(lang, locales.AltMore, 3)+".")
	line("replay alt", tr(lang, locales.AltReplayEach)+" "+tr(lang, locales.AltReplayCapture, 12, ben, anna, "c4")+".")
	line("replay alt", tr(lang, locales.AltReplayNoCaptures))
	line("replay alt", tr(lang, locales.AltReplayRunning))
	for _, n := range goldenCounts {
		fmt.Fprintf(&b, "\ncount %d\n", n)
		line("minutes", tr(lang, locales.DurationMinutes, n))
		line("hours", tr(lang, locales.DurationHours, n))
		line("days", tr(lang, locales.DurationDays, n))
		line("row option", tr(lang, locales.TurnRowOption, 6, n))
		line("winner", tr(lang, locales.GameWinner, "Anna", n))
		line("leaderboard", tr(lang, locales.LeaderLine, "1.", "Anna", 1534, tr(lang, locales.LeaderGames, n), tr(lang, locales.LeaderWins, n), formatPercent(lang, 0.5)))
		line("leader footer", tr(lang, locales.LeaderFooter, 1, 2, n))
		line("leader empty", tr(lang, locales.LeaderEmpty, n))
		line("streak", tr(lang, locales.StatsStreakWins, n)+" / "+tr(lang, locales.StatsStreakLosses, n))
		line("history", tr(lang, locales.HistoryLine, 12, "Anna", "Ben", n, 1767225600))
		line("replay", tr(lang, locales.ReplayDone, 12, n))
		line("taken over", tr(lang, locales.TimerTakenOver, "Anna", n))
		line("bad bots", tr(lang, locales.ErrBadBots, n))
		line("unranked", tr(lang, locales.StatsRating)+": 1500 ("+tr(lang, locales.StatsUnranked, n)+")")
		line("reason", tr(lang, locales.ReasonAdvances, n))
		line("coach counts", strings.Join([]string{tr(lang, locales.CoachInaccuracies, n), tr(lang, locales.CoachMistakes, n), tr(lang, locales.CoachBlunders, n)}, " · "))
		line("review", tr(lang, locales.ReviewSummary, formatPercent(lang, 0.87), n))
		class := tr(lang, locales.CoachClassInaccuracy)
		switch ai.Classify(float64(n)) {
		case ai.ClassMistake:
			class = tr(lang, locales.CoachClassMistake)
		case ai.ClassBlunder:
			class = tr(lang, locales.CoachClassBlunder)
		}
		line("review", tr(lang, locales.ReviewLine, 14, "b4 → d6", n, class,
			tr(lang, locales.FaultWalksBack), tr(lang, locales.ReviewBest, "c5 → e7", tr(lang, locales.ReasonEnters))))
		line("review", tr(lang, locales.ReviewLinePlain, 14, "b4 → d6", n, class, tr(lang, locales.ReviewBestBare, "c5 → e7")))
		line("fault", tr(lang, locales.FaultBlocksOwn, locales.Tenths(float64(n)))+" · "+tr(lang, locales.FaultSlower, locales.Tenths(float64(n)/10)))
		line("accuracy", tr(lang, locales.StatsAccuracy)+" · "+tr(lang, locales.StatsAccuracyValue, formatPercent(lang, 0.87), n))
		line("replay alt", tr(lang, locales.AltReplay, 12, n)+" "+tr(lang, locales.AltReplayCaptures, n, "Anna ("+tr(lang, locales.ColorRed)+") "+fmt.Sprint(n)))
		line("rating alt", tr(lang, locales.AltRatingAll, n, "Anna", tr(lang, locales.AltRatingOn, longDate(lang, time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC))), 1500))
		line("rating alt", tr(lang, locales.AltRatingLast, n, "Anna", tr(lang, locales.AltRatingFromTo, "…", "…")))
		line("rating alt", tr(lang, locales.AltRatingTrend, n, tr(lang, locales.AltRatingUp, n)+" / "+tr(lang, locales.AltRatingDown, n), tr(lang, locales.AltRatingRecord, n, 1)))
	}
	fmt.Fprintf(&b, "\nhelp\n%s\n", strings.TrimSpace(tr(lang, locales.TextHelp)))
	fmt.Fprintf(&b, "\nmarks\n%s\n", strings.TrimSpace(tr(lang, locales.TextMarks)))
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

// goldenStats is a player's record of games games, one a day from the
// first of March 2026 and the last 100 of them drawn, their rating up and
// down by the game: what the rating chart's alt text says in the goldens.
func goldenStats(games int) *store.PlayerStats {
	s := &store.PlayerStats{Player: "1", Games: games, Rating: store.InitialRating}
	start := time.Date(2026, time.March, 1, 20, 0, 0, 0, time.UTC)
	for i := range games {
		won := i%3 != 1
		if won {
			s.Rating += 12
		} else {
			s.Rating -= 17
		}
		if games-i <= 100 {
			s.History = append(s.History, store.RatingPoint{At: start.AddDate(0, 0, i), Rating: s.Rating, Won: won})
		}
	}
	return s
}
