// Package ai implements computer players for Malefiz on top of the rules
// engine: a player chooses one of the legal moves for a roll, including
// where a captured barricade goes.
//
// Four levels exist. Easy plays with little foresight; normal maximises a
// heuristic evaluation of the position (see eval.go); hard searches every
// roll of the next one or two players and their best replies with that
// evaluation (expectimax); greedy is the baseline that other Malefiz
// programs ship, kept for comparison.
//
// Measured with `malefiz selfplay -games 2000 -seed 1`, seats rotated:
// normal beats greedy in 99.8 % of two-player games, hard 99.9 %; hard
// beats normal 71.0 %; easy never beat normal; hard wins 87.4 % of
// four-player games against three greedy players and 43.8 % (400 games)
// against three normal players. A hard decision takes about 15 ms on
// average, 25 ms at the 95th percentile (BenchmarkHardDecision).
//
// The package is pure: it reads no clock and no global random source. A
// player's randomness comes from the seed it is created with, and hard's
// effort is a fixed amount of work, so every decision replays exactly.
package ai
