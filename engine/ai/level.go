package ai

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/malefiz-discord/malefiz/engine"
)

// Level names a computer player's strength.
type Level string

// The levels. Easy, Normal, Hard, Expert and Master are offered to players; Greedy is the
// baseline used to measure them.
const (
	// Easy plays legal moves with little foresight.
	Easy Level = "easy"
	// Normal plays the move with the best heuristic evaluation.
	Normal Level = "normal"
	// Hard searches the rolls and replies of the next players (expectimax)
	// with normal's evaluation.
	Hard Level = "hard"
	// Expert searches like hard with a learned win-chance estimator as
	// its evaluation (see Models).
	Expert Level = "expert"
	// Master searches like hard with an evaluation learned by self-play
	// (temporal-difference learning): for two players a network (see
	// NNModel) over the linear TDModel, for three and four the linear
	// model.
	Master Level = "master"
	// Greedy captures a pawn when it can, otherwise brings a pawn closest
	// to the goal, and puts captured barricades on a random square.
	Greedy Level = "greedy"
)

// ErrUnknownLevel is returned for a level name that is not one of Levels or
// "greedy".
var ErrUnknownLevel = errors.New("unknown level")

// Levels returns the levels offered to players, weakest first: easy,
// normal, hard, expert, master.
func Levels() []Level { return []Level{Easy, Normal, Hard, Expert, Master} }

// ParseLevel reads a level name: easy, normal, hard, expert, master or
// greedy.
func ParseLevel(s string) (Level, error) {
	switch l := Level(s); l {
	case Easy, Normal, Hard, Expert, Master, Greedy:
		return l, nil
	}
	return "", fmt.Errorf("%w: %q (want easy, normal, hard, expert, master or greedy)", ErrUnknownLevel, s)
}

// String returns the level's name.
func (l Level) String() string { return string(l) }

// Player chooses moves for one colour.
type Player interface {
	// Choose returns one of moves, the legal moves of pos's colour to move
	// for roll under rules. A move that captures a barricade appears once
	// per legal placement, and the one returned carries its placement.
	// moves should not be empty; if it is, Choose returns NoMove.
	Choose(pos engine.Position, roll int, rules engine.Rules, moves []engine.Move) engine.Move
}

// NoMove is what Choose returns when it is given no moves: a move from
// nowhere to nowhere, which no game accepts.
var NoMove = engine.Move{From: engine.NoSquare, To: engine.NoSquare, Place: engine.NoSquare}

// forced returns the move to play without thinking when there is at most
// one.
func forced(moves []engine.Move) (engine.Move, bool) {
	switch len(moves) {
	case 0:
		return NoMove, true
	case 1:
		return moves[0], true
	}
	return NoMove, false
}

// New returns a player of the given level whose random choices all come
// from seed: the same seed, position and roll give the same move.
func New(level Level, seed uint64) (Player, error) {
	rng := rand.New(rand.NewPCG(seed, 0x6d616c6566697a)) // "malefiz"
	switch level {
	case Easy:
		return &easyPlayer{rng: rng}, nil
	case Normal:
		return &normalPlayer{rng: rng, p: defaultParams}, nil
	case Hard:
		return &hardPlayer{rng: rng, budget: defaultHardBudget, p: defaultParams}, nil
	case Expert:
		return &hardPlayer{rng: rng, budget: expertBudget, p: defaultParams, model: learnedPlay}, nil
	case Master:
		return &hardPlayer{rng: rng, budget: masterBudget, p: defaultParams, td: learnedTD, nn: learnedNN}, nil
	case Greedy:
		return &greedyPlayer{rng: rng}, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownLevel, string(level))
}
