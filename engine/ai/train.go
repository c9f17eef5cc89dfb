package ai

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/malefiz-discord/malefiz/engine"
)

// GameRecord is one finished self-play game: the position before every
// turn's roll and the winner. The estimator is trained and calibrated on
// such games.
type GameRecord struct {
	// Rules are the game's house rules.
	Rules engine.Rules
	// Levels are the players' levels, by seat (Red first).
	Levels []Level
	// Positions are the positions before each roll, the first one the start.
	Positions []engine.Position
	// Winner is the colour that reached the goal.
	Winner engine.Color
}

// MixedLevels are the levels that PlayMixedGame seats at random: every
// level but expert, which plays by the estimator being measured (and is
// the slowest).
func MixedLevels() []Level { return []Level{Greedy, Easy, Normal, Hard} }

// maxRecordTurns ends a self-play game that has found no winner; games end
// long before.
const maxRecordTurns = 5000

// errNoWinner is returned for a self-play game that ran out of turns.
var errNoWinner = errors.New("no winner")

// PlayMixedGame plays game i of the mixed self-play series of seed: 2, 3
// and 4 players in turn (i mod 3), the four combinations of the house
// rules in turn (i/3 mod 4), each seat a level of pool (MixedLevels, or
// fewer to play faster) drawn at random. Dice, levels and players all come
// from seed and i, so a game replays exactly.
func PlayMixedGame(seed uint64, i int, pool []Level) (GameRecord, error) {
	rng := rand.New(rand.NewPCG(splitmix(seed, uint64(i)), 0x747261696e)) // "train"
	n := 2 + i%3
	k := (i / 3) % 4
	rules := engine.Rules{SixAgain: k&1 != 0, SafeRow2: k&2 != 0}
	levels := make([]Level, n)
	for j := range levels {
		levels[j] = pool[rng.IntN(len(pool))]
	}
	return PlayRecord(levels, rules, rng.Uint64())
}

// PlayRecord plays one game between levels (seats in order: two players
// sit on Red and Blue, three on Red, Green and Yellow) under rules, with
// dice and players from seed, and records it.
func PlayRecord(levels []Level, rules engine.Rules, seed uint64) (GameRecord, error) {
	colors := []engine.Color{engine.Red, engine.Blue}
	if len(levels) > 2 {
		colors = []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}[:len(levels)]
	}
	rec := GameRecord{Rules: rules, Levels: levels}
	g, err := engine.NewGame(colors, colors[0], rules)
	if err != nil {
		return rec, err
	}
	dice := rand.New(rand.NewPCG(seed, 0x64696365)) // "dice"
	roll := engine.DiceFunc(func() int { return dice.IntN(maxRoll) + 1 })
	seatOf := func(c engine.Color) int {
		for j, x := range colors {
			if x == c {
				return j
			}
		}
		return -1
	}
	for !g.Over() {
		if g.TurnNumber() > maxRecordTurns {
			return rec, fmt.Errorf("game of %v, seed %d: %w after %d turns", levels, seed, errNoWinner, maxRecordTurns)
		}
		rec.Positions = append(rec.Positions, g.Position())
		r, err := g.Roll(roll)
		if err != nil {
			return rec, err
		}
		moves := g.LegalMoves()
		if len(moves) == 0 {
			continue
		}
		p, err := New(levels[seatOf(g.Turn())], splitmix(seed, uint64(g.TurnNumber())))
		if err != nil {
			return rec, err
		}
		if err := g.Move(p.Choose(g.Position(), r, g.Rules(), moves)); err != nil {
			return rec, err
		}
	}
	rec.Winner = g.Winner()
	return rec, nil
}

// splitmix derives a seed from two numbers (SplitMix64's finaliser).
func splitmix(a, b uint64) uint64 {
	z := a*0x9e3779b97f4a7c15 + b + 0x632be59bd9b4e019
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// sample is one position's features, for fitting: the rows of the colours
// in play and the row of the winner.
type sample struct {
	rows   [][numFeatures]float64
	winner int
}

// samples returns the features of every position of games, by number of
// players (index n-2): every feature when rich, else the base ones (the
// others 0).
func samples(games []GameRecord, rich bool) [3][]sample {
	var out [3][]sample
	e := newEvaluator(defaultParams)
	for _, g := range games {
		for pos := range g.Positions {
			b := &g.Positions[pos]
			if b.Over() {
				continue
			}
			if len(e.cache) > 4096 {
				e = newEvaluator(defaultParams)
			}
			rows, order, n := e.featureRows(b, g.Rules, rich)
			if n < 2 {
				continue
			}
			s := sample{rows: make([][numFeatures]float64, n), winner: -1}
			for i := 0; i < n; i++ {
				s.rows[i] = rows[i]
				if order[i] == g.Winner {
					s.winner = i
				}
			}
			if s.winner >= 0 {
				out[n-2] = append(out[n-2], s)
			}
		}
	}
	return out
}

// ridge is the L2 penalty of Fit per position, which keeps the weights of
// features that hardly vary finite.
const ridge = 1e-4

// Fit fits the models to games by maximum likelihood (Newton's method on
// the conditional logit, a small ridge penalty), separately for each
// number of players. It starts from the hand-made evaluation's weights,
// which it keeps for a number of players that games do not include.
func Fit(games []GameRecord) (Models, TrainInfo) { return FitWith(games, nil) }

// FitWith is Fit with the positions of extra games (UnusualGame's) added
// to those the estimator's weights are fitted to. Its calibration layer
// and the play model are fitted to games alone: the layer makes the
// chances as often right as they say in the games the players play, and
// the extra games, played by the reply policy from positions those games
// seldom reach, teach the weights what such positions are worth.
func FitWith(games, extra []GameRecord) (Models, TrainInfo) {
	all := append(append([]GameRecord(nil), games...), extra...)
	chances, info := fitMasked(all, allFeatures)
	info.Games = len(games)
	info.LogLoss = fitCalibration(chances, games)
	play, playInfo := fitMasked(games, playFeatures)
	info.PlayLogLoss = playInfo.LogLoss
	return Models{Chances: chances, Play: play}, info
}

// fitCalibration fits m's calibration layer for each number of players to
// games, by maximum likelihood like the weights, and returns the mean log
// loss per position afterwards. The layer starts as the identity.
func fitCalibration(m *Model, games []GameRecord) float64 {
	all := samples(games, m.rich())
	loss, positions := 0.0, 0
	for k, ss := range all {
		if len(ss) == 0 {
			continue
		}
		cs := make([]sample, len(ss))
		for i, s := range ss {
			p := softmaxOf(&m.Weights[k], s.rows)
			c := sample{rows: make([][numFeatures]float64, len(s.rows)), winner: s.winner}
			for j := range s.rows {
				c.rows[j] = calibrationBasis(p[j])
			}
			cs[i] = c
		}
		m.Calibration[k] = identityCalibration
		loss += fitLogit(&m.Calibration[k], cs, allFeatures) * float64(len(cs))
		positions += len(cs)
	}
	if positions == 0 {
		return 0
	}
	return loss / float64(positions)
}

// allFeatures marks every feature as fitted.
var allFeatures = [numFeatures]bool{true, true, true, true, true, true, true, true, true, true, true, true, true, true}

// fitMasked is Fit with only the features of active fitted; the others
// keep the hand-made evaluation's weights.
func fitMasked(games []GameRecord, active [numFeatures]bool) (*Model, TrainInfo) {
	m := new(Model)
	info := TrainInfo{Games: len(games)}
	rich := false
	for _, a := range active[baseFeatures:] {
		rich = rich || a
	}
	all := samples(games, rich)
	loss := 0.0
	for k, ss := range all {
		m.Weights[k][0] = -defaultParams.power
		if len(ss) == 0 {
			continue
		}
		l := fitLogit(&m.Weights[k], ss, active)
		loss += l * float64(len(ss))
		info.Positions += len(ss)
	}
	if info.Positions > 0 {
		info.LogLoss = loss / float64(info.Positions)
	}
	return m, info
}

// fitLogit fits w to ss in place and returns the mean log loss.
func fitLogit(w *[numFeatures]float64, ss []sample, active [numFeatures]bool) float64 {
	const d = numFeatures
	cur := logLoss(w, ss)
	for iter := 0; iter < 50; iter++ {
		var grad [d]float64
		var hess [d][d]float64
		for _, s := range ss {
			p, mean := probs(w, s.rows)
			for j := range d {
				grad[j] += s.rows[s.winner][j] - mean[j]
			}
			for i, row := range s.rows {
				for a := range d {
					da := row[a] - mean[a]
					for b := a; b < d; b++ {
						hess[a][b] += p[i] * da * (row[b] - mean[b])
					}
				}
			}
		}
		n := float64(len(ss))
		for a := range d {
			if !active[a] {
				// A fixed weight: no step, and no coupling to the others.
				grad[a] = 0
				for b := range d {
					hess[a][b], hess[b][a] = 0, 0
				}
				hess[a][a] = 1
				continue
			}
			grad[a] = grad[a]/n - ridge*w[a]
			for b := a; b < d; b++ {
				hess[a][b] /= n
				hess[b][a] = hess[a][b]
			}
			hess[a][a] += ridge
		}
		step := solveLinear(hess, grad)
		// Newton's step, halved until the loss improves.
		improved := false
		for t := 1.0; t > 1e-4; t /= 2 {
			var next [d]float64
			for j := range d {
				next[j] = w[j] + t*step[j]
			}
			if l := logLoss(&next, ss); l < cur {
				*w, cur, improved = next, l, true
				break
			}
		}
		if !improved {
			break
		}
		size := 0.0
		for _, v := range step {
			size = max(size, math.Abs(v))
		}
		if size < 1e-7 {
			break
		}
	}
	return cur
}

// probs returns the softmax of the rows' scores under w and the
// probability-weighted mean row.
func probs(w *[numFeatures]float64, rows [][numFeatures]float64) ([engine.NumColors]float64, [numFeatures]float64) {
	var p [engine.NumColors]float64
	top := math.Inf(-1)
	for i, row := range rows {
		s := 0.0
		for j := range row {
			s += w[j] * row[j]
		}
		p[i] = s
		top = max(top, s)
	}
	sum := 0.0
	for i := range rows {
		p[i] = math.Exp(p[i] - top)
		sum += p[i]
	}
	var mean [numFeatures]float64
	for i, row := range rows {
		p[i] /= sum
		for j := range row {
			mean[j] += p[i] * row[j]
		}
	}
	return p, mean
}

// logLoss returns the mean negative log-likelihood of ss under w plus the
// ridge penalty.
func logLoss(w *[numFeatures]float64, ss []sample) float64 {
	total := 0.0
	for _, s := range ss {
		p, _ := probs(w, s.rows)
		total -= math.Log(max(p[s.winner], 1e-300))
	}
	pen := 0.0
	for _, v := range w {
		pen += v * v
	}
	return total/float64(len(ss)) + ridge/2*pen
}

// solveLinear solves a·x = b by Gaussian elimination with partial pivoting.
func solveLinear(a [numFeatures][numFeatures]float64, b [numFeatures]float64) [numFeatures]float64 {
	const d = numFeatures
	for col := range d {
		piv := col
		for r := col + 1; r < d; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		a[col], a[piv] = a[piv], a[col]
		b[col], b[piv] = b[piv], b[col]
		if a[col][col] == 0 {
			continue
		}
		for r := col + 1; r < d; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c < d; c++ {
				a[r][c] -= f * a[col][c]
			}
			b[r] -= f * b[col]
		}
	}
	var x [d]float64
	for r := d - 1; r >= 0; r-- {
		s := b[r]
		for c := r + 1; c < d; c++ {
			s -= a[r][c] * x[c]
		}
		if a[r][r] != 0 {
			x[r] = s / a[r][r]
		}
	}
	return x
}

// PlayOut plays pos out to its end under rules with the reply policy
// (ReplyPolicy: every colour the move hard's evaluation likes best), the
// dice from seed, and records it as a game from pos: the position before
// every roll and the winner. Its Levels name the policy for each seat.
func PlayOut(pos engine.Position, rules engine.Rules, seed uint64) (GameRecord, error) {
	rec := GameRecord{Rules: rules}
	for range pos.Players() {
		rec.Levels = append(rec.Levels, Level(ReplyPolicy))
	}
	dice := rand.New(rand.NewPCG(seed, 0x64696365)) // "dice"
	s := searcher{e: newEvaluator(defaultParams), rules: rules}
	b := pos
	for t := 0; !b.Over(); t++ {
		if t > maxRecordTurns {
			return rec, fmt.Errorf("play-out of %s, seed %d: %w after %d turns", pos, seed, errNoWinner, maxRecordTurns)
		}
		rec.Positions = append(rec.Positions, b)
		if len(s.e.cache) > 4096 {
			s.e.cache = make(map[engine.SquareSet]*valueTable)
		}
		b, _ = s.reply(&b, dice.IntN(maxRoll)+1, replyPlacements)
	}
	rec.Winner = b.Winner()
	return rec, nil
}

// UnusualGame returns game j of the games played out (PlayOut) from
// unusual positions made of games, the mixed series of seed the estimator
// trains on: it starts from variant 1 + j / len(games) of game j mod
// len(games) (UnusualCase), so that the training sees where the held-out
// positions go, lone runners, many pawns at home, walls and races, played
// as the held-out truth plays them. ok is false when that game cannot be
// made unusual.
func UnusualGame(games []GameRecord, seed uint64, j int) (g GameRecord, ok bool, err error) {
	if len(games) == 0 {
		return g, false, nil
	}
	i := j % len(games)
	c, ok := UnusualCase(seed, i, 1+j/len(games), games[i])
	if !ok {
		return g, false, nil
	}
	g, err = PlayOut(c.Position, c.Rules, splitmix(seed, uint64(j)+0x756e75)) // "unu"
	return g, err == nil, err
}
