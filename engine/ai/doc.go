// Package ai implements computer players for Malefiz on top of the rules
// engine: a player chooses one of the legal moves for a roll, including
// where a captured barricade goes.
//
// Four levels exist. Easy plays with little foresight; normal maximises a
// heuristic evaluation of the position; hard searches the next player's
// roll and reply with that evaluation (expectimax); greedy is the baseline
// that other Malefiz programs ship, kept for comparison.
//
// The package is pure: it reads no clock and no global random source. A
// player's randomness comes from the seed it is created with, and hard's
// effort is a fixed amount of work, so every decision replays exactly.
package ai
