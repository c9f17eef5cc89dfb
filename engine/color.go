package engine

import "fmt"

// Color is a player's colour. The four colours in seat order are Red, Green,
// Yellow and Blue; NoColor means none.
type Color int8

// The colours, in seat order.
const (
	Red Color = iota
	Green
	Yellow
	Blue
)

// NoColor means no colour (no winner yet, an empty square).
const NoColor Color = -1

// NumColors is the number of colours.
const NumColors = 4

var colorNames = [NumColors]string{"red", "green", "yellow", "blue"}

// String returns the colour's name in lower case, such as "red".
func (c Color) String() string {
	if c < 0 || c >= NumColors {
		return "none"
	}
	return colorNames[c]
}

// Letter returns the colour's letter in the position notation: r, g, y or b.
func (c Color) Letter() byte {
	if c < 0 || c >= NumColors {
		return '-'
	}
	return "rgyb"[c]
}

// Valid reports whether c is one of the four colours.
func (c Color) Valid() bool { return c >= 0 && c < NumColors }

// ParseColor reads a colour from its letter (r, g, y, b) or its name.
func ParseColor(s string) (Color, error) {
	switch s {
	case "r", "red":
		return Red, nil
	case "g", "green":
		return Green, nil
	case "y", "yellow":
		return Yellow, nil
	case "b", "blue":
		return Blue, nil
	}
	return NoColor, fmt.Errorf("%w: %q is not a colour (r, g, y, b)", ErrInvalidPosition, s)
}
