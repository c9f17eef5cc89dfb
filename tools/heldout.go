package tools

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sync"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// heldoutCommand generates the held-out positions of the win-chance
// estimator (ai.HeldOutPositions and the named ones), plays each out to
// find its truth, and writes the set; -check compares the truth's policy
// with a level's own play on a sample.
func heldoutCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("heldout")
	seed := fs.Uint64("seed", 42, "seed of the positions and of the rollouts' dice (the estimator trains on seed 1 and is calibrated on 2 and 7)")
	n := fs.Int("n", 300, "number of generated positions, besides the named ones")
	rollouts := fs.Int("rollouts", 700, "rollouts per position")
	policyFlag := fs.String("policy", string(ai.ReplyPolicy), "who plays the rollouts: reply (hard's evaluation, one turn), fast, or a level")
	out := fs.String("o", "", "write the set here (engine/ai/testdata/heldout.json is the committed one) (default: write nothing)")
	check := fs.String("check", "", "also play a sample out with this level's players, to compare the truth's policy (and the fast policy) with it (default: no check)")
	checkPositions := fs.Int("check-positions", 12, "how many positions the check plays, spread over the set")
	checkRollouts := fs.Int("check-rollouts", 40, "rollouts per position of the check")
	from := fs.String("from", "", "read this set (engine/ai/testdata/heldout.json) instead of generating one, and print how near the card and the coach's search come to its truth (default: generate)")
	quiet := fs.Bool("q", false, "no progress line on stderr (it is drawn only on a terminal anyway)")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "heldout: %v", err)
	}
	if *from != "" {
		data, err := os.ReadFile(*from)
		if err != nil {
			return subcommand.Fail(stderr, "heldout: %v", err)
		}
		set, err := ai.ParseHeldOutSet(data)
		if err != nil {
			return subcommand.Fail(stderr, "heldout: %s: %v", *from, err)
		}
		writeHeldOutSummary(stdout, &set, true)
		return 0
	}
	if fs.NArg() > 0 {
		return subcommand.Fail(stderr, "heldout: unexpected argument %q", fs.Arg(0))
	}
	if *n < 0 || *rollouts < 1 || *checkPositions < 1 || *checkRollouts < 1 {
		return subcommand.Fail(stderr, "heldout: -n must be at least 0, -rollouts, -check-positions and -check-rollouts at least 1")
	}
	policy, err := ai.ParseRolloutPolicy(*policyFlag)
	if err != nil {
		return subcommand.Fail(stderr, "heldout: -policy: %v", err)
	}
	var checkPolicy ai.RolloutPolicy
	if *check != "" {
		l, err := ai.ParseLevel(*check)
		if err != nil {
			return subcommand.Fail(stderr, "heldout: -check: %v", err)
		}
		checkPolicy = ai.RolloutPolicy(l)
	}
	var progressOut io.Writer
	if !*quiet && isTerminal(stderr) {
		progressOut = stderr
	}
	generated, err := ai.HeldOutPositions(*seed, *n)
	if err != nil {
		return subcommand.Fail(stderr, "heldout: %v", err)
	}
	cases := append(ai.NamedHeldOutPositions(), generated...)
	truth := estimateAll(cases, ai.RolloutEstimator{Rollouts: *rollouts, Seed: *seed, Policy: policy}, progressOut, "positions")
	set := ai.HeldOutSet{
		Comment: fmt.Sprintf("held-out positions of the win-chance estimator, each with the share of %d rollouts that each colour won, played by the %s policy; regenerate with: go run ./cmd/malefiz heldout -seed %d -n %d -rollouts %d -policy %s -o engine/ai/testdata/heldout.json",
			*rollouts, policy, *seed, *n, *rollouts, policy),
		Seed: *seed, Policy: policy, Rollouts: *rollouts,
	}
	for i, c := range cases {
		set.Cases = append(set.Cases, ai.HeldOutTruth{Name: c.Name, Kind: c.Kind, Position: c.Position, Rules: c.Rules,
			Truth: ai.ByLetter(c.Position, truth[i])})
	}
	writeHeldOutSummary(stdout, &set, false)
	if *out != "" {
		data, err := json.MarshalIndent(set, "", " ")
		if err != nil {
			return subcommand.Fail(stderr, "heldout: %v", err)
		}
		if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
			return subcommand.Fail(stderr, "heldout: %v", err)
		}
		fmt.Fprintf(stdout, "written to %s\n", *out)
	}
	if checkPolicy == "" {
		return 0
	}
	// The sample: positions spread evenly over the set, the named ones
	// first.
	k := min(*checkPositions, len(cases))
	var sample []int
	for j := range k {
		sample = append(sample, j*len(cases)/k)
	}
	picked := make([]ai.HeldOutCase, len(sample))
	for j, i := range sample {
		picked[j] = cases[i]
	}
	level := estimateAll(picked, ai.RolloutEstimator{Rollouts: *checkRollouts, Seed: *seed, Policy: checkPolicy}, progressOut, "checked positions")
	fast := estimateAll(picked, ai.RolloutEstimator{Rollouts: *rollouts, Seed: *seed, Policy: ai.FastPolicy}, nil, "")
	fmt.Fprintf(stdout, "\ncheck: %d positions, %d rollouts each of %s against %s (%d rollouts) and fast (%d rollouts), in points:\n",
		k, *checkRollouts, checkPolicy, policy, *rollouts, *rollouts)
	var (
		seats                      int
		policyAbs, fastAbs, noise  float64
		policyNear, fastNear       float64
		policyZSquare, fastZSquare float64
	)
	m := float64(*checkRollouts)
	for j, i := range sample {
		c := &cases[i]
		fmt.Fprintf(stdout, "  %-11s %s\n", c.Kind, c.Position)
		for _, col := range c.Position.Players() {
			t, l, f := truth[i][col], level[j][col], fast[j][col]
			fmt.Fprintf(stdout, "    %-6s %s %5.1f · %s %5.1f · fast %5.1f\n", col, checkPolicy, 100*l, policy, 100*t, 100*f)
			seats++
			policyAbs += math.Abs(t - l)
			fastAbs += math.Abs(f - l)
			// The check's own rollouts leave a binomial error around its
			// share (Laplace's estimate, so that a share of 0 or 1 still
			// has one): a normal whose mean absolute value is √(2/π) of
			// its standard deviation.
			p := (l*m + 1) / (m + 2)
			sd := math.Sqrt(p * (1 - p) / m)
			noise += sd * math.Sqrt(2/math.Pi)
			policyZSquare += (t - l) * (t - l) / (sd * sd)
			fastZSquare += (f - l) * (f - l) / (sd * sd)
			if math.Abs(t-l) <= ai.HeldOutTolerance {
				policyNear++
			}
			if math.Abs(f-l) <= ai.HeldOutTolerance {
				fastNear++
			}
		}
	}
	s := float64(seats)
	fmt.Fprintf(stdout, "%s: mean |%s − %s| %.1f points, %.0f %% of the seats within %.0f, mean squared z %.2f; fast: %.1f points, %.0f %% within %.0f, mean squared z %.2f; the check's own noise alone gives a mean of %.1f points and a mean squared z of 1\n",
		policy, policy, checkPolicy, 100*policyAbs/s, 100*policyNear/s, 100*ai.HeldOutTolerance, policyZSquare/s,
		100*fastAbs/s, 100*fastNear/s, 100*ai.HeldOutTolerance, fastZSquare/s, 100*noise/s)
	return 0
}

// estimateAll returns est's chances of every case, worked out on every
// CPU, drawing progress on progressOut (nil: none) in unit.
func estimateAll(cases []ai.HeldOutCase, est ai.RolloutEstimator, progressOut io.Writer, unit string) [][engine.NumColors]float64 {
	out := make([][engine.NumColors]float64, len(cases))
	bar := startProgress(progressOut, unit, len(cases))
	defer bar.Stop()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] = est.Chances(cases[i].Position, cases[i].Rules)
				bar.Add(1)
			}
		}()
	}
	for i := range cases {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}

// writeHeldOutSummary writes what the set holds: its positions by kind and
// number of players, the truth's own 95 % error, and how near the card's
// chances (ai.CardChances) and the learned model alone (ai.SteadyChances,
// what the card shows when its rollouts are over budget) come to the
// truth; with search, the coach's
// search's too (ai.SearchChances, some milliseconds a position).
func writeHeldOutSummary(w io.Writer, set *ai.HeldOutSet, search bool) {
	counts := map[string]int{}
	seats, near, modelNear, searchNear := 0, 0, 0, 0
	worst := 0.0
	for _, c := range set.Cases {
		n := len(c.Position.Players())
		key := fmt.Sprintf("%s, %d players", c.Kind, n)
		if c.Rules.SixAgain {
			key += ", six-again"
		}
		counts[key]++
		card, model := ai.CardChances(c.Position, c.Rules), ai.SteadyChances(c.Position, c.Rules)
		var found [engine.NumColors]float64
		if search {
			found = ai.SearchChances(c.Position, c.Rules)
		}
		truth := c.Chances()
		for _, col := range c.Position.Players() {
			seats++
			if math.Abs(card[col]-truth[col]) <= ai.HeldOutTolerance {
				near++
			}
			if math.Abs(model[col]-truth[col]) <= ai.HeldOutTolerance {
				modelNear++
			}
			if math.Abs(found[col]-truth[col]) <= ai.HeldOutTolerance {
				searchNear++
			}
			p := truth[col]
			worst = max(worst, 1.96*math.Sqrt(p*(1-p)/float64(set.Rollouts)))
		}
	}
	fmt.Fprintf(w, "%d positions, %d seats; %d rollouts each by the %s policy: the truth's 95 %% error at most ±%.1f points\n",
		len(set.Cases), seats, set.Rollouts, set.Policy, 100*worst)
	for _, kind := range ai.HeldOutKinds() {
		for n := 2; n <= engine.NumColors; n++ {
			plain := counts[fmt.Sprintf("%s, %d players", kind, n)]
			six := counts[fmt.Sprintf("%s, %d players, six-again", kind, n)]
			fmt.Fprintf(w, "  %-11s %d players: %3d (%d with six-again)\n", kind, n, plain+six, six)
		}
	}
	share := func(k int) float64 { return 100 * float64(k) / float64(max(seats, 1)) }
	fmt.Fprintf(w, "the card's chances within %.0f points of the truth: %d of %d seats (%.1f %%)\n",
		100*ai.HeldOutTolerance, near, seats, share(near))
	fmt.Fprintf(w, "the learned model alone within %.0f points of the truth: %d of %d seats (%.1f %%)\n",
		100*ai.HeldOutTolerance, modelNear, seats, share(modelNear))
	if search {
		fmt.Fprintf(w, "the coach's search within %.0f points of the truth: %d of %d seats (%.1f %%)\n",
			100*ai.HeldOutTolerance, searchNear, seats, share(searchNear))
	}
}
