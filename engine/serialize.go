package engine

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// serialVersion is the version of the serialized game format.
const serialVersion = 1

// serialGame is the stored form of a game: where it started, the rules, and
// its inputs (rolls, moves, removals) in order. Decoding replays them, so a
// decoded game is always one the rules allow.
type serialGame struct {
	V       int      `json:"v"`
	Rules   Rules    `json:"rules"`
	Start   string   `json:"start"`
	Turn    int      `json:"turn,omitempty"`
	History []string `json:"history"`
	Pending string   `json:"pending,omitempty"`
}

// MarshalBinary encodes the whole game, versioned, for storage.
func (g *Game) MarshalBinary() ([]byte, error) {
	s := serialGame{V: serialVersion, Rules: g.rules, Start: g.start.String(), History: make([]string, 0, len(g.history))}
	if g.phase == PhasePlace {
		s.Pending = g.pending.String()
	}
	for _, r := range g.history {
		switch r.Kind {
		case RecordRoll:
			s.History = append(s.History, "roll "+strconv.Itoa(r.Roll))
		case RecordMove:
			s.History = append(s.History, "move "+r.Move.String())
		case RecordRemove:
			s.History = append(s.History, "remove "+r.Color.String())
		}
	}
	return json.Marshal(s)
}

// UnmarshalBinary decodes a game written by MarshalBinary by replaying its
// history from the start position.
func (g *Game) UnmarshalBinary(data []byte) error {
	var s serialGame
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidGame, err)
	}
	if s.V != serialVersion {
		return fmt.Errorf("%w: format version %d, this build reads %d", ErrInvalidGame, s.V, serialVersion)
	}
	start, err := ParsePosition(s.Start)
	if err != nil {
		return fmt.Errorf("%w: start: %w", ErrInvalidGame, err)
	}
	ng := newGameAt(start, s.Rules)
	for i, entry := range s.History {
		if err := ng.replay(entry); err != nil {
			return fmt.Errorf("%w: history entry %d %q: %w", ErrInvalidGame, i, entry, err)
		}
	}
	if s.Pending != "" {
		m, err := ParseMove(s.Pending)
		if err != nil {
			return fmt.Errorf("%w: pending: %w", ErrInvalidGame, err)
		}
		if err := ng.Move(m); err != nil || ng.phase != PhasePlace {
			return fmt.Errorf("%w: pending move %s does not fit", ErrInvalidGame, m)
		}
	}
	*g = *ng
	return nil
}

// replay applies one stored history entry.
func (g *Game) replay(entry string) error {
	kind, arg, _ := strings.Cut(entry, " ")
	switch kind {
	case "roll":
		n, err := strconv.Atoi(arg)
		if err != nil {
			return err
		}
		_, err = g.Roll(DiceFunc(func() int { return n }))
		return err
	case "move":
		m, err := ParseMove(arg)
		if err != nil {
			return err
		}
		return g.Move(m)
	case "remove":
		c, err := ParseColor(arg)
		if err != nil {
			return err
		}
		return g.Remove(c)
	}
	return fmt.Errorf("unknown entry kind %q", kind)
}

// Replay rebuilds a game from a start position, rules and a list of inputs in
// the stored history form ("roll 4", "move c1-e3/h11", "remove green").
func Replay(start Position, rules Rules, entries []string) (*Game, error) {
	g := newGameAt(start, rules)
	for i, e := range entries {
		if err := g.replay(e); err != nil {
			return nil, fmt.Errorf("%w: entry %d %q: %w", ErrInvalidGame, i, e, err)
		}
	}
	return g, nil
}
