//go:build race

package chances

// raceDetector: built with the race detector, under which the bot reads
// no card's rollouts (see bot.CardChanceShare).
const raceDetector = true
