package bot

import (
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/store"
)

// Replay rebuilds the whole game from a stored game and its event log (see
// table.Replay).
func Replay(sg *store.Game, events []store.Event) (*engine.Game, error) {
	return table.Replay(sg, events)
}
