package render

import (
	"slices"
	"strings"

	"github.com/malefiz-discord/malefiz/engine"
)

// Letter returns the button letter of the i-th choice: A to Z, then AA, AB, ….
func Letter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return Letter(i/26-1) + Letter(i%26)
}

// Choices returns the distinct (From, To) pairs of moves in their order: the
// moves a player chooses between, since a move that captures a barricade
// stands for one move per placement, chosen afterwards.
func Choices(moves []engine.Move) []engine.Move {
	var out []engine.Move
	for _, m := range moves {
		m.Place = engine.NoSquare
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// DestinationLabels labels the destination of each choice (see Choices) with
// its letter, Letter(i) for the i-th, joining the letters of choices that
// share a destination ("A B"). The bot's buttons use the same order.
func DestinationLabels(moves []engine.Move) []Label {
	var out []Label
	for i, m := range Choices(moves) {
		j := slices.IndexFunc(out, func(l Label) bool { return l.Square == m.To })
		if j < 0 {
			out = append(out, Label{Square: m.To, Text: Letter(i)})
			continue
		}
		out[j].Text = strings.Join([]string{out[j].Text, Letter(i)}, " ")
	}
	return out
}
