// Package engine implements the rules of Malefiz (Barricade, Ravensburger 1960)
// exactly as docs/rules.md states them: the board graph, positions and
// their notation, legal moves for a roll, perft, and a game state machine with a
// replayable history.
//
// The package is pure: it performs no I/O and reads no clock or random source.
// Dice are passed in through the Dice interface.
package engine
