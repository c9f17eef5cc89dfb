package table

import "math"

// RatingK bounds how far one game moves a rating (see Elo).
const RatingK = 32.0

// Elo is the rating rule of finished games (store.Rating): the winner has
// played one Elo match against each other seat, which lost it. With n seats
// each match moves RatingK/(n-1) points at most, so a game moves the winner
// by at most RatingK and each loser by at most RatingK/(n-1). The winner of
// a match rated R against one rated S expects 1/(1+10^((S-R)/400)) and
// gains RatingK/(n-1) times one minus that; the loser loses as much. before
// are the seats' ratings before the game; it returns each seat's change.
func Elo(before []float64, winner int) []float64 {
	delta := make([]float64, len(before))
	if len(before) < 2 || winner < 0 || winner >= len(before) {
		return delta
	}
	k := RatingK / float64(len(before)-1)
	for i := range before {
		if i == winner {
			continue
		}
		expected := 1 / (1 + math.Pow(10, (before[i]-before[winner])/400))
		d := k * (1 - expected)
		delta[winner] += d
		delta[i] -= d
	}
	return delta
}
