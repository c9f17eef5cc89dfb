package tools

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// trainCommand trains the win-chance estimator on mixed self-play games
// and measures it on other games.
func trainCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("train")
	games := fs.Int("games", 600, "number of training games")
	seed := fs.Uint64("seed", 1, "seed of the training games")
	out := fs.String("out", "", "write the model here (engine/ai/model.json to retrain the embedded one) (default: write nothing)")
	calGames := fs.Int("calibrate", 2000, "number of calibration games (0: none)")
	calSeed := fs.Uint64("calibrate-seed", 2, "seed of the calibration games")
	rollouts := fs.Int("rollouts", 0, "also measure the Monte Carlo estimator with this many rollouts per estimate")
	rolloutEvery := fs.Int("rollout-every", 100, "measure the Monte Carlo estimator on every n-th position only")
	cache := fs.String("cache", "", "directory where played games are kept, so that a rerun does not play them again (default: keep nothing)")
	levelsFlag := fs.String("levels", "greedy,easy,normal,hard", "the levels the self-play games seat at random")
	calLevelsFlag := fs.String("calibrate-levels", "greedy,easy,normal", "the levels of the calibration games (hard plays slowly: 2,000 games with it take hours)")
	resamples := fs.Int("resamples", 1000, "bootstrap resamples of whole games for the intervals of the calibration tables")
	unusual := fs.Int("unusual", 6000, "games played out from unusual positions made of the training games (lone runners, pawns at home, walls, races: ai.UnusualGame), added to the training (0: none)")
	chancesOnly := fs.Bool("chances-only", false, "refit the win-chance estimator only, keeping the play model (expert's evaluation) built in")
	embedded := fs.Bool("embedded", false, "also measure the model built into this binary (ai.WinChances), to compare a retrained one with it")
	quiet := fs.Bool("q", false, "no progress line on stderr (it is drawn only on a terminal anyway)")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "train: %v", err)
	}
	if fs.NArg() > 0 {
		return subcommand.Fail(stderr, "train: unexpected argument %q", fs.Arg(0))
	}
	if *games < 1 || *calGames < 0 || *unusual < 0 {
		return subcommand.Fail(stderr, "train: -games must be at least 1, -calibrate and -unusual at least 0")
	}
	pool, err := parseLevels(*levelsFlag)
	if err != nil {
		return subcommand.Fail(stderr, "train: -levels: %v", err)
	}
	calPool, err := parseLevels(*calLevelsFlag)
	if err != nil {
		return subcommand.Fail(stderr, "train: -calibrate-levels: %v", err)
	}
	var progressOut io.Writer
	if !*quiet && isTerminal(stderr) {
		progressOut = stderr
	}
	train, err := mixedGames(*seed, *games, pool, *cache, progressOut)
	if err != nil {
		return subcommand.Fail(stderr, "train: %v", err)
	}
	extra, err := unusualGames(train, *seed, *unusual, progressOut)
	if err != nil {
		return subcommand.Fail(stderr, "train: %v", err)
	}
	models, info := ai.FitWith(train, extra)
	info.Seed, info.Games, info.Unusual = *seed, len(train), len(extra)
	for _, l := range pool {
		info.Levels = append(info.Levels, string(l))
	}
	if *chancesOnly {
		// The play model is expert's evaluation: keep it, and its record.
		built, builtInfo := ai.EmbeddedModels()
		models.Play, info.PlayLogLoss = built.Play, 0
		info.Play = builtInfo.Play
		if info.Play == nil {
			play := builtInfo
			play.LogLoss, play.PlayLogLoss = builtInfo.PlayLogLoss, 0
			info.Play = &play
		}
	}
	data, err := ai.MarshalModel(models, info)
	if err != nil {
		return subcommand.Fail(stderr, "train: %v", err)
	}
	if *chancesOnly {
		fmt.Fprintf(stdout, "trained on %d games (seed %d) and %d unusual ones, %d positions: log loss %.4f (the play model kept as built in)\n", info.Games, info.Seed, info.Unusual, info.Positions, info.LogLoss)
	} else {
		fmt.Fprintf(stdout, "trained on %d games (seed %d) and %d unusual ones, %d positions: log loss %.4f (play model %.4f)\n", info.Games, info.Seed, info.Unusual, info.Positions, info.LogLoss, info.PlayLogLoss)
	}
	if *out != "" {
		if err := os.WriteFile(*out, data, 0o644); err != nil {
			return subcommand.Fail(stderr, "train: %v", err)
		}
		fmt.Fprintf(stdout, "model written to %s\n", *out)
	}
	if *calGames == 0 {
		return 0
	}
	cal, err := mixedGames(*calSeed, *calGames, calPool, *cache, progressOut)
	if err != nil {
		return subcommand.Fail(stderr, "train: %v", err)
	}
	estimators := []struct {
		name  string
		est   ai.Estimator
		every int
	}{
		{"learned", models.Chances.Chances, 1},
		{"play model", models.Play.Chances, 1},
		{"heuristic", ai.HeuristicChances, 1},
	}
	if *embedded {
		estimators = append(estimators, struct {
			name  string
			est   ai.Estimator
			every int
		}{"embedded model (the model.json built in)", ai.WinChances, 1})
	}
	if *rollouts > 0 {
		estimators = append(estimators, struct {
			name  string
			est   ai.Estimator
			every int
		}{fmt.Sprintf("rollouts(%d)", *rollouts), ai.RolloutEstimator{Rollouts: *rollouts, Seed: *calSeed}.Chances, *rolloutEvery},
			struct {
				name  string
				est   ai.Estimator
				every int
			}{"learned, on the same positions as the rollouts", models.Chances.Chances, *rolloutEvery})
	}
	for _, e := range estimators {
		c := ai.Calibrate(cal, e.est, e.every)
		fmt.Fprintf(stdout, "\n%s on %d calibration games (seed %d), %d positions, %d estimates:\n", e.name, c.Games, *calSeed, c.Positions, c.Estimates)
		fmt.Fprintf(stdout, "Brier %.4f (1/n for everyone: %.4f), log loss %.4f, largest decile gap %.1f points\n",
			c.Brier, c.BrierUniform, c.LogLoss, 100*c.MaxGap(1))
		if e.every != 1 {
			continue
		}
		for n := 2; n <= 4; n++ {
			games := ai.GamesOf(cal, n)
			if len(games) == 0 {
				continue
			}
			c := ai.CalibrateGames(games, e.est, 1, *resamples, *calSeed)
			fmt.Fprintf(stdout, "\n%d players: %d games, %d positions, Brier %.4f (1/n: %.4f), largest decile gap %.1f points\n",
				n, c.Games, c.Positions, c.Brier, c.BrierUniform, 100*c.MaxGap(1))
			writeCalibrationTable(stdout, &c)
			writeByRules(stdout, games, e.est)
		}
	}
	return 0
}

// writeCalibrationTable writes c's bins as a Markdown table, with each
// gap's 95 % interval where c has them.
func writeCalibrationTable(w io.Writer, c *ai.Calibration) {
	fmt.Fprintf(w, "| predicted | estimates | mean predicted | observed | gap (95 %% interval, by game) |\n|---|---:|---:|---:|---:|\n")
	for _, b := range c.Bins {
		if b.N == 0 {
			fmt.Fprintf(w, "| %2.0f–%3.0f %% | 0 | | | |\n", 100*b.Lo, 100*b.Hi)
			continue
		}
		fmt.Fprintf(w, "| %2.0f–%3.0f %% | %d | %.1f %% | %.1f %% | %+.1f (%+.1f to %+.1f) |\n", 100*b.Lo, 100*b.Hi, b.N,
			100*b.Predicted, 100*b.Observed, 100*b.Gap(), 100*b.GapLow, 100*b.GapHigh)
	}
}

// writeByRules writes, for each combination of the house rules among
// games, the calibration's largest decile gap over the bins of at least
// 1,000 estimates, to show where a rule matters.
func writeByRules(w io.Writer, games []ai.GameRecord, est ai.Estimator) {
	var parts []string
	for k := range 4 {
		rules := engine.Rules{SixAgain: k&1 != 0, SafeRow2: k&2 != 0}
		var sub []ai.GameRecord
		for _, g := range games {
			if g.Rules == rules {
				sub = append(sub, g)
			}
		}
		if len(sub) == 0 {
			continue
		}
		c := ai.Calibrate(sub, est, 1)
		name := "standard"
		switch {
		case rules.SixAgain && rules.SafeRow2:
			name = "six-again and safe row 2"
		case rules.SixAgain:
			name = "six-again"
		case rules.SafeRow2:
			name = "safe row 2"
		}
		parts = append(parts, fmt.Sprintf("%s %.1f (%d games)", name, 100*c.MaxGap(1000), len(sub)))
	}
	fmt.Fprintf(w, "largest decile gap by house rules, in points: %s\n", strings.Join(parts, ", "))
}

// cacheChunk is how many games one cache file holds.
const cacheChunk = 100

// mixedGames returns games 0 to n-1 of the mixed self-play series of seed
// (ai.PlayMixedGame), played on every CPU, or read from cache where a
// previous run kept them: a file per hundred games, so that an interrupted
// run loses little.
func mixedGames(seed uint64, n int, pool []ai.Level, cache string, progressOut io.Writer) ([]ai.GameRecord, error) {
	games := make([]ai.GameRecord, 0, n)
	bar := startProgress(progressOut, "games", n)
	defer bar.Stop()
	for lo := 0; lo < n; lo += cacheChunk {
		hi := min(lo+cacheChunk, n)
		chunk, err := mixedChunk(seed, lo, hi, pool, cache, bar)
		if err != nil {
			return nil, err
		}
		games = append(games, chunk...)
	}
	return games, nil
}

// mixedChunk returns games lo to hi-1 of the series of seed.
func mixedChunk(seed uint64, lo, hi int, pool []ai.Level, cache string, bar *progress) ([]ai.GameRecord, error) {
	var file string
	if cache != "" {
		var names []string
		for _, l := range pool {
			names = append(names, string(l))
		}
		file = filepath.Join(cache, fmt.Sprintf("mixed-%s-%d-%d-%d.json", strings.Join(names, "+"), seed, lo, hi))
		if data, err := os.ReadFile(file); err == nil {
			var games []ai.GameRecord
			if err := json.Unmarshal(data, &games); err == nil {
				bar.Add(hi - lo)
				return games, nil
			}
		}
	}
	games := make([]ai.GameRecord, hi-lo)
	errs := make([]error, hi-lo)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				games[i-lo], errs[i-lo] = ai.PlayMixedGame(seed, i, pool)
				bar.Add(1)
			}
		}()
	}
	for i := lo; i < hi; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if file != "" {
		data, err := json.Marshal(games)
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return nil, err
		}
	}
	return games, nil
}

// unusualGames returns the games played out from unusual positions made
// of train, the series of seed (ai.UnusualGame 0 to n-1), on every CPU,
// in order; the games that could not be made unusual are left out.
func unusualGames(train []ai.GameRecord, seed uint64, n int, progressOut io.Writer) ([]ai.GameRecord, error) {
	games := make([]ai.GameRecord, n)
	oks := make([]bool, n)
	errs := make([]error, n)
	bar := startProgress(progressOut, "unusual games", n)
	defer bar.Stop()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				games[j], oks[j], errs[j] = ai.UnusualGame(train, seed, j)
				bar.Add(1)
			}
		}()
	}
	for j := range n {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	var out []ai.GameRecord
	for j := range n {
		if errs[j] != nil {
			return nil, errs[j]
		}
		if oks[j] {
			out = append(out, games[j])
		}
	}
	return out, nil
}

// parseLevels reads a comma-separated list of levels.
func parseLevels(s string) ([]ai.Level, error) {
	var out []ai.Level
	for _, name := range strings.Split(s, ",") {
		l, err := ai.ParseLevel(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}
