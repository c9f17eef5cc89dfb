package tools

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// chancesCommand prints each seat's chance to win from a position as the
// card shows it (ai.CardChances: short rollouts valued by the learned
// model, a tenth of a second or so) and as the
// coach's search finds it (ai.SearchChances), so that anyone can check
// the card on a position.
func chancesCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("chances")
	asJSON := fs.Bool("json", false, `print one JSON object: {"card":{"r":0.36,…},"search":{…}}, fractions by colour letter in seat order`)
	sixAgain := fs.Bool("six-again", false, "house rule six-again")
	safeRow2 := fs.Bool("safe-row-2", false, "house rule safe-row-2")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "chances: %v", err)
	}
	pos, err := positionArg(fs)
	if err != nil {
		return subcommand.Fail(stderr, "chances: %v", err)
	}
	rules := engine.Rules{SixAgain: *sixAgain, SafeRow2: *safeRow2}
	card, search := ai.CardChances(pos, rules), ai.SearchChances(pos, rules)
	if *asJSON {
		fmt.Fprintf(stdout, `{"card":%s,"search":%s}`+"\n", chancesJSON(pos, card), chancesJSON(pos, search))
		return 0
	}
	fmt.Fprintf(stdout, "%-7s %7s %8s\n", "colour", "card", "search")
	for _, c := range pos.Players() {
		fmt.Fprintf(stdout, "%-7s %5.1f %% %6.1f %%\n", c, 100*card[c], 100*search[c])
	}
	if w := pos.Winner(); w != engine.NoColor {
		fmt.Fprintf(stdout, "%s has won\n", w)
	}
	return 0
}

// chancesJSON writes ch as a JSON object of the colours in play in pos,
// in seat order, each colour's letter to its chance, a fraction rounded to
// four decimals.
func chancesJSON(pos engine.Position, ch [engine.NumColors]float64) string {
	var parts []string
	for _, c := range pos.Players() {
		parts = append(parts, fmt.Sprintf("%q:%s", string(c.Letter()), strconv.FormatFloat(math.Round(ch[c]*1e4)/1e4, 'f', -1, 64)))
	}
	return "{" + strings.Join(parts, ",") + "}"
}
