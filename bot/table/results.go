package table

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/engine"
)

// Replay rebuilds the whole game, history included, from a stored game's
// seats and options and its event log: the log is the source of replays and
// statistics, while the stored state is only a snapshot of the present. The
// events that are engine inputs (start, roll, move, place, back, resign) are
// applied in order; the others (join, timeout, remind, …) are skipped. It
// returns nil for a game that never started.
func Replay(sg *malefiz.Game, events []malefiz.Event) (*engine.Game, error) {
	var g *engine.Game
	for _, e := range events {
		if e.Kind == malefiz.EventStart {
			var players []engine.Color
			for i := range sg.Seats {
				players = append(players, SeatColor(&sg.Seats[i]))
			}
			first, err := engine.ParseColor(e.Color)
			if err != nil {
				return nil, fmt.Errorf("event %d: %w", e.Seq, err)
			}
			if g, err = engine.NewGame(players, first, engine.Rules{SixAgain: sg.Options.SixAgain, SafeRow2: sg.Options.SafeRow2}); err != nil {
				return nil, fmt.Errorf("event %d: %w", e.Seq, err)
			}
			continue
		}
		if g == nil {
			continue
		}
		if err := apply(g, e); err != nil {
			return nil, fmt.Errorf("game %d, event %d (%s %s): %w", sg.ID, e.Seq, e.Kind, e.Data, err)
		}
	}
	return g, nil
}

// apply plays one event's engine input.
func apply(g *engine.Game, e malefiz.Event) error {
	switch e.Kind {
	case malefiz.EventRoll:
		n, err := strconv.Atoi(e.Data)
		if err != nil {
			return err
		}
		_, err = g.Roll(engine.DiceFunc(func() int { return n }))
		return err
	case malefiz.EventMove:
		m, err := engine.ParseMove(e.Data)
		if err != nil {
			return err
		}
		return g.Move(m)
	case malefiz.EventPlace:
		sq, err := engine.ParseSquare(e.Data)
		if err != nil {
			return err
		}
		return g.Place(sq)
	case EventBack:
		return g.CancelPlace()
	case malefiz.EventResign:
		c, err := engine.ParseColor(e.Color)
		if err != nil {
			return err
		}
		return g.Remove(c)
	}
	return nil
}

// Results counts each seat's part of the game that just finished, from the
// replay of its whole log (events, the stored ones, then the change's own); the replay must end where the snapshot is.
func (t *Table) Results(events []malefiz.Event) ([]malefiz.Result, error) {
	g, err := t.replayed(events)
	if err != nil {
		return nil, err
	}
	return t.results(g), nil
}

// results counts each seat's part of the finished game g, replayed whole.
func (t *Table) results(g *engine.Game) []malefiz.Result {
	var out []malefiz.Result
	for _, s := range t.Game.Seats {
		c := SeatColor(&s)
		r := malefiz.Result{Player: s.UserID, Name: s.Name, Color: s.Color, GameTurns: g.TurnNumber(),
			Won: c == g.Winner()}
		if s.UserID == "" {
			r.Player, r.Computer = "ai:"+s.Computer, true
		}
		r.Forfeit = r.Won && g.Forfeit()
		for _, rec := range g.History() {
			switch {
			case rec.Kind == engine.RecordRoll && rec.Color == c:
				r.Turns++
			case rec.Kind == engine.RecordMove && rec.Color == c:
				if rec.Captured != engine.NoColor {
					r.Captures++
				}
				if rec.Move.Place != engine.NoSquare {
					r.Barricades++
				}
			case rec.Kind == engine.RecordMove && rec.Captured == c:
				r.Captured++
			}
		}
		out = append(out, r)
	}
	// Places: the winner, then the others by their distance to the goal,
	// the nearest first (a seat that left has no pawn on the board, and
	// is as far as can be), in seat order among equals.
	dist := make([]int, len(out))
	order := make([]int, len(out))
	for i := range t.Game.Seats {
		dist[i], order[i] = distance(g.Position(), SeatColor(&t.Game.Seats[i])), i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case out[a].Won && !out[b].Won:
			return -1
		case out[b].Won && !out[a].Won:
			return 1
		}
		return cmp.Compare(dist[a], dist[b])
	})
	for place, i := range order {
		out[i].Place = place + 1
	}
	return out
}
