package engine

import "iter"

// Positions yields each record of the game's history with the position just
// after it, replayed from the start position: a move's pieces moved and the
// turn handed on as the game did (not after a six under six-again, not at
// the goal), a pass's turn handed on, a removed colour's pawns gone. A roll
// leaves the position as it was. It is how replays and analyses walk a game
// without the rules that made it.
func (g *Game) Positions() iter.Seq2[Record, Position] {
	return func(yield func(Record, Position) bool) {
		pos := g.start
		for _, r := range g.history {
			switch r.Kind {
			case RecordPass:
				pos.turn = pos.next(r.Color)
			case RecordMove:
				pos.turn = r.Color
				pos.Play(r.Move, r.Roll, g.rules)
			case RecordRemove:
				pos.remove(r.Color)
			}
			if !yield(r, pos) {
				return
			}
		}
	}
}
