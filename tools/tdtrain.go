package tools

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// tdtrainCommand learns master's evaluation by temporal-difference
// learning over self-play games (ai.TDTrainer), one game at a time, from a
// checkpoint when there is one, so that a long run can span sittings.
func tdtrainCommand(args []string, stdout, stderr io.Writer) int {
	flags := subcommand.FlagSet("tdtrain")
	games := flags.Int("games", 2000, "train until this many games have been learned from, all sittings together")
	seed := flags.Uint64("seed", 1, "seed of the self-play games (a checkpoint keeps its own)")
	alpha := flags.Float64("alpha", 0.5, "learning rate (a checkpoint keeps its own)")
	lambda := flags.Float64("lambda", 0.7, "TD(λ)'s λ (a checkpoint keeps its own)")
	playersFlag := flags.String("players", "2", "player counts of the games, in turn (a checkpoint keeps its own)")
	checkpoint := flags.String("checkpoint", "", "resume from this file when it exists, and save the training there every -every games and at the end (default: none; a run that stops loses its games)")
	every := flags.Int("every", 500, "how many games between checkpoints, snapshots and progress lines")
	snapshots := flags.String("snapshots", "", "directory where a copy of every checkpoint is kept as td-GAMES.json, to measure the learning curve (default: keep none)")
	measure := flags.Int("measure", 0, "at every checkpoint, play this many deals of dice for each player count of the learned evaluation against hard's (with -nn: the averaged network against its linear model), both without search, and print its share of the wins (default: none)")
	nn := flags.Bool("nn", false, "learn a neural-network evaluation (ai.NNModel: one hidden layer over the features, the player count and the board, added to the linear model of -from) instead of the linear one; -alpha then defaults to 0.05")
	from := flags.String("from", "", "with -nn: the linear model the network adds to, a file in the layout of engine/ai/td.json (default: the embedded one, master's)")
	decay := flags.Float64("decay", 5000, "with -nn: the games after which the learning rate has halved, α/(1+games/decay) (a checkpoint keeps its own)")
	average := flags.Int("average", 1000, "with -nn: how many games the weights that play are averaged over at most (a checkpoint keeps its own)")
	explore := flags.Float64("explore", 0.02, "with -nn: the chance of a random move in a training game (a checkpoint keeps its own)")
	scaleGames := flags.Int("scale-games", 30, "with -nn: how many games of the linear model give the features' mean and scale")
	out := flags.String("out", "", "write the learned evaluation here at the end (engine/ai/td.json to replace master's) (default: write nothing)")
	if err := flags.Parse(args); err != nil {
		return subcommand.Fail(stderr, "tdtrain: %v", err)
	}
	if flags.NArg() > 0 {
		return subcommand.Fail(stderr, "tdtrain: unexpected argument %q", flags.Arg(0))
	}
	if *games < 1 || *every < 1 {
		return subcommand.Fail(stderr, "tdtrain: -games and -every must be at least 1")
	}
	var players []int
	for _, f := range strings.Split(*playersFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2 || n > engine.NumColors {
			return subcommand.Fail(stderr, "tdtrain: -players: %q is not a player count from 2 to 4", f)
		}
		players = append(players, n)
	}
	if *nn {
		alphaSet := false
		flags.Visit(func(f *flag.Flag) { alphaSet = alphaSet || f.Name == "alpha" })
		if !alphaSet {
			*alpha = 0.05
		}
		lin := ai.LearnedTD()
		if *from != "" {
			data, err := os.ReadFile(*from)
			if err != nil {
				return subcommand.Fail(stderr, "tdtrain: %v", err)
			}
			if lin, _, err = ai.ParseTDModel(data); err != nil {
				return subcommand.Fail(stderr, "tdtrain: %s: %v", *from, err)
			}
		}
		var t *ai.NNTrainer
		data, err := readCheckpoint(*checkpoint)
		if err != nil {
			return subcommand.Fail(stderr, "tdtrain: %v", err)
		}
		if data != nil {
			if t, err = ai.ParseNNCheckpoint(data); err != nil {
				return subcommand.Fail(stderr, "tdtrain: %s: %v", *checkpoint, err)
			}
			fmt.Fprintf(stderr, "resuming %s after %d games (seed %d, alpha %g, decay %g, lambda %g, players %v)\n",
				*checkpoint, t.Info.Games, t.Info.Seed, t.Info.Alpha, t.Info.Decay, t.Info.Lambda, t.Info.Players)
		}
		if t == nil {
			t = ai.NewNNTrainer(lin, ai.NNTrainConfig{Seed: *seed, Alpha: *alpha, Decay: *decay, Lambda: *lambda,
				Average: *average, Explore: *explore, Players: players, ScaleGames: *scaleGames})
		}
		return runTraining(nnTrainee{t}, *games, *every, *checkpoint, *snapshots, "nn", *out, *measure, stdout, stderr)
	}
	t := ai.NewTDTrainer(*seed, *alpha, *lambda, players)
	data, err := readCheckpoint(*checkpoint)
	if err != nil {
		return subcommand.Fail(stderr, "tdtrain: %v", err)
	}
	if data != nil {
		if t, err = ai.ParseTDCheckpoint(data); err != nil {
			return subcommand.Fail(stderr, "tdtrain: %s: %v", *checkpoint, err)
		}
		fmt.Fprintf(stderr, "resuming %s after %d games (seed %d, alpha %g, lambda %g, players %v)\n",
			*checkpoint, t.Info.Games, t.Info.Seed, t.Info.Alpha, t.Info.Lambda, t.Info.Players)
	}
	return runTraining(tdTrainee{t}, *games, *every, *checkpoint, *snapshots, "td", *out, *measure, stdout, stderr)
}

// readCheckpoint reads the checkpoint a run resumes from: nil when path
// is "" or names no file yet (the run starts afresh and saves there).
func readCheckpoint(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// trainee is a trainer that runTraining drives: TDTrainer or NNTrainer.
type trainee interface {
	Step() (ai.TDGameStats, error)
	Marshal() ([]byte, error)
	// final returns the model to write with -out.
	final() ([]byte, error)
	info() *ai.TDTrainInfo
	// describe returns what to print of the model for n players.
	describe(n int) string
	// measure plays deals of the model against hard's evaluation, both
	// without search, for n players and returns its share of the wins.
	measure(deals, n int) float64
	// rival names what measure plays against.
	rival() string
}

type tdTrainee struct{ t *ai.TDTrainer }

func (t tdTrainee) Step() (ai.TDGameStats, error) { return t.t.Step() }
func (t tdTrainee) Marshal() ([]byte, error)      { return t.t.Marshal() }
func (t tdTrainee) final() ([]byte, error)        { return t.t.Marshal() }
func (t tdTrainee) info() *ai.TDTrainInfo         { return &t.t.Info }
func (t tdTrainee) describe(n int) string {
	return fmt.Sprintf("; weights %.3f", t.t.Model.Weights[n-2])
}
func (t tdTrainee) rival() string { return "hard's evaluation" }
func (t tdTrainee) measure(deals, n int) float64 {
	return ai.TDDuel(t.t.Model, ai.HardTDModel(), 1000+t.t.Info.Seed, deals, n)
}

type nnTrainee struct{ t *ai.NNTrainer }

func (t nnTrainee) Step() (ai.TDGameStats, error) { return t.t.Step() }
func (t nnTrainee) Marshal() ([]byte, error)      { return t.t.Marshal() }
func (t nnTrainee) final() ([]byte, error) {
	return ai.MarshalNNModel(t.t.Average, t.t.Info)
}
func (t nnTrainee) info() *ai.TDTrainInfo    { return &t.t.Info }
func (t nnTrainee) describe(int) string      { return "" }
func (t nnTrainee) rival() string            { return "its linear model" }
func (t nnTrainee) measure(int, int) float64 { return math.NaN() }

// runTraining trains t until it has learned from games games, saving the
// checkpoint and a snapshot (prefix-GAMES.json) and printing its progress
// every every games, and writes the model to out at the end.
func runTraining(t trainee, games, every int, checkpoint, snapshots, prefix, out string, measure int, stdout, stderr io.Writer) int {
	info := t.info()
	save := func() error {
		data, err := t.Marshal()
		if err != nil {
			return err
		}
		if checkpoint != "" {
			if err := writeFileAtomic(checkpoint, data); err != nil {
				return err
			}
		}
		if snapshots != "" {
			if err := os.MkdirAll(snapshots, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(snapshots, fmt.Sprintf("%s-%d.json", prefix, info.Games)), data, 0o644)
		}
		return nil
	}
	startGames := info.Games
	var trained time.Duration // this sitting's training, measurements left out
	sitting := time.Now()
	// The last games' statistics, by player count.
	type acc struct {
		games, turns     int
		logLoss, tdError float64
	}
	sums := map[int]*acc{}
	for info.Games < games {
		st, err := t.Step()
		if err != nil {
			return subcommand.Fail(stderr, "tdtrain: game %d: %v", info.Games, err)
		}
		a := sums[st.Players]
		if a == nil {
			a = new(acc)
			sums[st.Players] = a
		}
		a.games++
		a.turns += st.Turns
		a.logLoss += st.LogLoss
		a.tdError += st.TDError
		if info.Games%every == 0 || info.Games == games {
			now := time.Now()
			info.Seconds += now.Sub(sitting).Seconds()
			trained += now.Sub(sitting)
			sitting = now
			if err := save(); err != nil {
				return subcommand.Fail(stderr, "tdtrain: %v", err)
			}
			rate := float64(info.Games-startGames) / trained.Seconds()
			left := time.Duration(float64(games-info.Games) / rate * float64(time.Second)).Round(time.Second)
			fmt.Fprintf(stderr, "%d/%d games · %.2f games/s · %v left\n", info.Games, games, rate, left)
			counts := slices.Compact(slices.Sorted(slices.Values(info.Players)))
			for _, n := range counts {
				a := sums[n]
				if a == nil || a.games == 0 {
					continue
				}
				fmt.Fprintf(stderr, "  %d players, last %d games: log loss %.4f, TD error %.4f, %.0f turns%s\n",
					n, a.games, a.logLoss/float64(a.games), a.tdError/float64(a.games), float64(a.turns)/float64(a.games), t.describe(n))
				*a = acc{}
			}
			if measure > 0 {
				for _, n := range counts {
					r := t.measure(measure, n)
					fmt.Fprintf(stderr, "  without search against %s, %d players, %d deals: %.1f %%\n", t.rival(), n, measure, 100*r)
				}
				sitting = time.Now() // the measurement is not training
			}
		}
	}
	if out != "" {
		data, err := t.final()
		if err != nil {
			return subcommand.Fail(stderr, "tdtrain: %v", err)
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			return subcommand.Fail(stderr, "tdtrain: %v", err)
		}
	}
	fmt.Fprintf(stdout, "learned from %d games (seed %d) in %.0f s of training\n", info.Games, info.Seed, info.Seconds)
	return 0
}

// writeFileAtomic writes data to a temporary file beside name and renames
// it over name, so that a run stopped while saving keeps the last
// checkpoint whole.
func writeFileAtomic(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}
