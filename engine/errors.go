package engine

import "errors"

// Sentinel errors. Functions wrap them with context; compare with errors.Is.
var (
	// ErrInvalidSquare: a square name that is not on the board.
	ErrInvalidSquare = errors.New("invalid square")
	// ErrInvalidPosition: position notation that breaks docs/rules.md.
	ErrInvalidPosition = errors.New("invalid position")
	// ErrInvalidMove: move notation that cannot be read.
	ErrInvalidMove = errors.New("invalid move notation")
	// ErrIllegalMove: a move the rules do not allow now.
	ErrIllegalMove = errors.New("illegal move")
	// ErrNotYourTurn: a colour acted out of turn.
	ErrNotYourTurn = errors.New("not your turn")
	// ErrWrongPhase: an action that does not fit the game's phase (a move before the roll).
	ErrWrongPhase = errors.New("wrong phase")
	// ErrGameOver: an action on a finished game.
	ErrGameOver = errors.New("game over")
	// ErrInvalidRoll: a die value outside 1 to 6.
	ErrInvalidRoll = errors.New("invalid roll")
	// ErrInvalidGame: a game that cannot be created or decoded.
	ErrInvalidGame = errors.New("invalid game")
)
