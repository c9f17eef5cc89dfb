package tools

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// maxGameTurns ends a self-play game without a winner; real games end long
// before (a game lasts about a hundred turns).
const maxGameTurns = 20000

// seatColors are the colours used for 2, 3 and 4 players: two players sit
// on mirror-image houses.
var seatColors = map[int][]engine.Color{
	2: {engine.Red, engine.Blue},
	3: {engine.Red, engine.Green, engine.Yellow},
	4: {engine.Red, engine.Green, engine.Yellow, engine.Blue},
}

// gameResult is the outcome of one self-play game.
type gameResult struct {
	winner int // index into the players list, -1 without a winner
	turns  int
	err    error
}

func selfplayCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("selfplay")
	games := fs.Int("games", 100, "number of games; the seats rotate from game to game (player j sits in seat j+game mod n), so the first player's advantage cancels out over every n games")
	playersFlag := fs.String("players", "", "comma-separated levels, 2 to 4 (easy, normal, hard, expert, master, greedy) "+subcommand.Required)
	seed := fs.Uint64("seed", 1, "seed of the dice and the players")
	first := fs.Int("first", 0, "index of the first game: -first 400 -games 400 plays games 400 to 799 of the series, so a long run can be split and summed")
	asJSON := fs.Bool("json", false, "print one JSON object")
	sixAgain := fs.Bool("six-again", false, "house rule six-again")
	safeRow2 := fs.Bool("safe-row-2", false, "house rule safe-row-2")
	quiet := fs.Bool("q", false, "no progress line on stderr (it is drawn only on a terminal anyway)")
	masterFile := fs.String("master", "", "play master by the learned evaluation in this file (a checkpoint or model of malefiz tdtrain, linear or -nn) instead of the embedded one; FILE,FILE,… gives the first, second, … master of -players its own file, an empty name the embedded one (-players master,master -master new.json, pits new.json against master) (default: the embedded one)")
	duplicate := fs.Bool("duplicate", false, "duplicate dice: each deal of dice is played once per seating (n games for n players, every player in every seat), each seat throwing its own series of the deal, so that luck cancels out; -games and -first must be multiples of the number of players, and the interval is computed over deals (with -json, each player's deal_wins: how many deals it won 0, 1, … n games of, which runs split with -first add up)")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "selfplay: %v", err)
	}
	if fs.NArg() > 0 {
		return subcommand.Fail(stderr, "selfplay: unexpected argument %q", fs.Arg(0))
	}
	if *games < 1 {
		return subcommand.Fail(stderr, "selfplay: -games must be at least 1, got %d", *games)
	}
	if *first < 0 {
		return subcommand.Fail(stderr, "selfplay: -first must be at least 0, got %d", *first)
	}
	if *playersFlag == "" {
		return subcommand.Fail(stderr, "selfplay: -players is required (for example: hard,greedy)")
	}
	var levels []ai.Level
	for _, name := range strings.Split(*playersFlag, ",") {
		l, err := ai.ParseLevel(strings.TrimSpace(name))
		if err != nil {
			return subcommand.Fail(stderr, "selfplay: %v", err)
		}
		levels = append(levels, l)
	}
	if len(levels) < 2 || len(levels) > engine.NumColors {
		return subcommand.Fail(stderr, "selfplay: -players gives %d levels, want 2 to 4", len(levels))
	}
	if *duplicate && (*games%len(levels) != 0 || *first%len(levels) != 0) {
		return subcommand.Fail(stderr, "selfplay: -duplicate plays every deal %d times: -games %d and -first %d must be multiples of %d", len(levels), *games, *first, len(levels))
	}
	rules := engine.Rules{SixAgain: *sixAgain, SafeRow2: *safeRow2}
	newPlayer := func(_ int, l ai.Level, seed uint64) (ai.Player, error) { return ai.New(l, seed) }
	if *masterFile != "" {
		masters, err := readMasters(strings.Split(*masterFile, ","))
		if err != nil {
			return subcommand.Fail(stderr, "selfplay: %v", err)
		}
		// The k-th master of -players plays by the k-th file.
		nth := make([]int, len(levels))
		k := 0
		for j, l := range levels {
			if l == ai.Master {
				nth[j] = k
				k++
			}
		}
		newPlayer = func(j int, l ai.Level, seed uint64) (ai.Player, error) {
			if l == ai.Master && nth[j] < len(masters) && masters[nth[j]] != nil {
				return masters[nth[j]](seed), nil
			}
			return ai.New(l, seed)
		}
	}

	var progressOut io.Writer
	if !*quiet && isTerminal(stderr) {
		progressOut = stderr
	}
	bar := startProgress(progressOut, "games", *games)
	results := make([]gameResult, *games)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = playGame(levels, newPlayer, rules, *seed, *first+i, *duplicate)
				bar.Add(1)
			}
		}()
	}
	for i := range *games {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	bar.Stop()

	wins := make([]int, len(levels))
	unfinished, turns := 0, 0
	for _, r := range results {
		if r.err != nil {
			return subcommand.Fail(stderr, "selfplay: %v", r.err)
		}
		turns += r.turns
		if r.winner < 0 {
			unfinished++
			continue
		}
		wins[r.winner]++
	}

	var deals []dealScore
	if *duplicate {
		deals = pairedScores(results, len(levels))
	}
	if *asJSON {
		type seat struct {
			Player string `json:"player"`
			Wins   int    `json:"wins"`
			// WinRate and Interval (95 %, over deals) come with -duplicate.
			WinRate  *float64  `json:"win_rate,omitempty"`
			Interval []float64 `json:"interval,omitempty"`
			// DealWins[k] is how many deals the player won k games of,
			// so that runs split with -first add up to the interval of
			// the whole.
			DealWins []int `json:"deal_wins,omitempty"`
		}
		out := struct {
			Games     int    `json:"games"`
			Duplicate bool   `json:"duplicate,omitempty"`
			Deals     int    `json:"deals,omitempty"`
			Seats     []seat `json:"seats"`
		}{Games: *games, Duplicate: *duplicate, Deals: len(deals)}
		for i, l := range levels {
			st := seat{Player: string(l), Wins: wins[i]}
			if *duplicate {
				mean, lo, hi := pairedInterval(deals, i)
				st.WinRate, st.Interval = &mean, []float64{lo, hi}
				st.DealWins = make([]int, len(levels)+1)
				for _, d := range deals {
					st.DealWins[int(math.Round(d[i]*float64(len(levels))))]++
				}
			}
			out.Seats = append(out.Seats, st)
		}
		data, err := json.Marshal(out)
		if err != nil {
			return subcommand.Fail(stderr, "selfplay: %v", err)
		}
		fmt.Fprintf(stdout, "%s\n", data)
		return 0
	}
	if *duplicate {
		fmt.Fprintf(stdout, "%d games, players %s, seed %d, %d deals of dice each played in every seating (duplicate)\n", *games, *playersFlag, *seed, len(deals))
	} else {
		fmt.Fprintf(stdout, "%d games, players %s, seed %d, seats rotated\n", *games, *playersFlag, *seed)
	}
	fmt.Fprintf(stdout, "%-2s %-7s %6s %8s  %s\n", "#", "player", "wins", "win rate", "95% interval")
	for i, l := range levels {
		lo, hi := wilson(wins[i], *games)
		if *duplicate {
			_, lo, hi = pairedInterval(deals, i)
		}
		fmt.Fprintf(stdout, "%-2d %-7s %6d %7.1f%%  %.1f%% – %.1f%%\n", i+1, l, wins[i],
			100*float64(wins[i])/float64(*games), 100*lo, 100*hi)
	}
	if *duplicate && len(levels) == 2 {
		var both, split int
		for _, d := range deals {
			switch d[0] {
			case 1:
				both++
			case 0.5:
				split++
			}
		}
		fmt.Fprintf(stdout, "deals won in both seatings by #1 %s: %d, by #2 %s: %d, split: %d\n",
			levels[0], both, levels[1], len(deals)-both-split, split)
	}
	if unfinished > 0 {
		fmt.Fprintf(stdout, "unfinished after %d turns: %d\n", maxGameTurns, unfinished)
	}
	fmt.Fprintf(stdout, "average game length: %.1f turns (%.1f rounds)\n",
		float64(turns)/float64(*games), float64(turns)/float64(*games)/float64(len(levels)))
	return 0
}

// readMasters reads the files of -master: for each, a constructor of a
// master that plays by it, nil for an empty name (the embedded model).
func readMasters(names []string) ([]func(uint64) ai.Player, error) {
	out := make([]func(uint64) ai.Player, len(names))
	for i, name := range names {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if m, _, err := ai.ParseTDModel(data); err == nil {
			out[i] = func(seed uint64) ai.Player { return ai.NewTD(m, seed) }
			continue
		}
		m, _, err := ai.ParseNNModel(data)
		if err != nil {
			return nil, fmt.Errorf("%s: neither a linear model nor a network: %w", name, err)
		}
		out[i] = func(seed uint64) ai.Player { return ai.NewNN(m, seed) }
	}
	return out, nil
}

// dealScore is each player's share of the wins of one deal of dice.
type dealScore [engine.NumColors]float64

// pairedScores groups results, n games a deal (results[0] starts a deal),
// into each player's share of every deal's wins.
func pairedScores(results []gameResult, n int) []dealScore {
	deals := make([]dealScore, len(results)/n)
	for i, r := range results {
		if r.winner >= 0 {
			deals[i/n][r.winner] += 1 / float64(n)
		}
	}
	return deals
}

// pairedInterval returns player j's mean share of the deals' wins and its
// 95 % interval (normal approximation over deals, the unit that is drawn
// at random: the games of a deal share their dice and are not independent).
func pairedInterval(deals []dealScore, j int) (mean, lo, hi float64) {
	const z = 1.959963984540054
	n := float64(len(deals))
	for _, d := range deals {
		mean += d[j]
	}
	mean /= n
	if len(deals) < 2 {
		return mean, 0, 1
	}
	ss := 0.0
	for _, d := range deals {
		ss += (d[j] - mean) * (d[j] - mean)
	}
	half := z * math.Sqrt(ss/(n-1)/n)
	return mean, max(0, mean-half), min(1, mean+half)
}

// playGame plays game index i. Player j sits in seat (j+i) mod n, so over n
// consecutive games every player has every seat (and every colour and
// place in the turn order) once. Dice and players are seeded from the seed
// and the game index only, so the result does not depend on scheduling.
// Like the bot, it creates a player per decision, seeded by the turn number.
//
// With duplicate, games i to i+n-1 (i a multiple of n) are one deal: the
// dice come from the seed and the deal, one series per seat, so that the
// player in a seat throws in its k-th turn what the other players threw
// in their k-th turn in that seat, whatever moves were made before.
func playGame(levels []ai.Level, newPlayer func(int, ai.Level, uint64) (ai.Player, error), rules engine.Rules, seed uint64, i int, duplicate bool) gameResult {
	n := len(levels)
	colors := seatColors[n]
	gameSeed := mix(seed, uint64(i))
	owner := make(map[engine.Color]int, n) // colour → index into levels
	for j := range levels {
		owner[colors[(j+i)%n]] = j
	}
	g, err := engine.NewGame(colors, colors[0], rules)
	if err != nil {
		return gameResult{err: err}
	}
	dice := rand.New(rand.NewPCG(gameSeed, 0))
	roll := engine.DiceFunc(func() int { return dice.IntN(6) + 1 })
	if duplicate {
		// The players too are seeded by the deal (and the turn), so that
		// two players of one level play a deal's games alike.
		gameSeed = mix(seed, uint64(i/n))
		var seatDice [engine.NumColors]*rand.Rand
		for k, c := range colors {
			seatDice[c] = rand.New(rand.NewPCG(gameSeed, uint64(k)))
		}
		roll = func() int { return seatDice[g.Turn()].IntN(6) + 1 }
	}
	for !g.Over() {
		if g.TurnNumber() > maxGameTurns {
			return gameResult{winner: -1, turns: g.TurnNumber()}
		}
		r, err := g.Roll(roll)
		if err != nil {
			return gameResult{err: err}
		}
		moves := g.LegalMoves()
		if len(moves) == 0 {
			continue // the roll passed the turn
		}
		player, err := newPlayer(owner[g.Turn()], levels[owner[g.Turn()]], mix(gameSeed, uint64(g.TurnNumber())))
		if err != nil {
			return gameResult{err: err}
		}
		m := player.Choose(g.Position(), r, g.Rules(), moves)
		if err := g.Move(m); err != nil {
			return gameResult{err: fmt.Errorf("game %d: %s played %s: %w", i, levels[owner[g.Turn()]], m, err)}
		}
	}
	return gameResult{winner: owner[g.Winner()], turns: g.TurnNumber()}
}

// mix derives a seed from two numbers (SplitMix64's finaliser on their
// combination), so neighbouring games get unrelated dice.
func mix(a, b uint64) uint64 {
	z := a*0x9e3779b97f4a7c15 + b + 0x632be59bd9b4e019
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// wilson returns the Wilson score interval at 95 % for k successes in n trials.
func wilson(k, n int) (lo, hi float64) {
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nn := float64(n)
	den := 1 + z*z/nn
	center := (p + z*z/(2*nn)) / den
	half := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / den
	return max(0, center-half), min(1, center+half)
}
