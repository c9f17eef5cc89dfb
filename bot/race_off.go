//go:build !race

package bot

// raceDetector: this binary is built with the race detector (a test).
const raceDetector = false
