package engine

// Dice rolls one die. Games take a Dice so that tests can fix the rolls and
// the caller chooses the random source.
type Dice interface {
	// Roll returns a value from 1 to 6.
	Roll() int
}

// DiceFunc adapts a function to the Dice interface, like http.HandlerFunc.
type DiceFunc func() int

// Roll calls f.
func (f DiceFunc) Roll() int { return f() }
