package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// snapshotVersion is the version of the snapshot format; version 1 is the
// full history that MarshalBinary writes.
const snapshotVersion = 2

// snapshot is the stored form of a game's current state: its size does not
// grow with the game. It keeps the position, the phase, the roll and the
// pending move, plus the records of the current turn and the last move (what
// a turn's summary and the board's trail need); the whole history lives in
// the caller's event log (see Replay).
type snapshot struct {
	V       int          `json:"v"`
	Rules   Rules        `json:"rules"`
	Start   string       `json:"start"`
	Pos     string       `json:"pos"`
	Phase   string       `json:"phase"`
	Turn    int          `json:"turn"`
	Roll    int          `json:"roll,omitempty"`
	Pending string       `json:"pending,omitempty"`
	Winner  string       `json:"winner,omitempty"`
	Forfeit bool         `json:"forfeit,omitempty"`
	Recent  []snapRecord `json:"recent,omitempty"`
}

// snapRecord is a Record in the snapshot.
type snapRecord struct {
	Kind     RecordKind `json:"k"`
	Color    string     `json:"c"`
	Turn     int        `json:"t"`
	Roll     int        `json:"r,omitempty"`
	Move     string     `json:"m,omitempty"`
	Captured string     `json:"x,omitempty"`
	Path     string     `json:"p,omitempty"` // squares joined by spaces
}

// MarshalSnapshot encodes the game's current state in constant size: the
// position, phase, roll, pending move and the records of the current turn
// and of the last move, not the whole history. A game decoded from it with
// UnmarshalSnapshot plays on exactly as this one, but its History holds only
// those records and what happens after.
func (g *Game) MarshalSnapshot() ([]byte, error) {
	s := snapshot{V: snapshotVersion, Rules: g.rules, Start: g.start.String(), Pos: g.pos.String(),
		Phase: g.phase.String(), Turn: g.turn, Roll: g.roll, Forfeit: g.forfeit}
	if g.phase == PhasePlace {
		s.Pending = g.pending.String()
	}
	if g.winner != NoColor {
		s.Winner = g.winner.String()
	}
	for _, r := range g.recent() {
		sr := snapRecord{Kind: r.Kind, Color: r.Color.String(), Turn: r.Turn, Roll: r.Roll}
		if r.Kind == RecordMove {
			sr.Move = r.Move.String()
			if r.Captured != NoColor {
				sr.Captured = r.Captured.String()
			}
			names := make([]string, len(r.Path))
			for i, sq := range r.Path {
				names[i] = sq.String()
			}
			sr.Path = strings.Join(names, " ")
		}
		s.Recent = append(s.Recent, sr)
	}
	return json.Marshal(s)
}

// recent returns the records a snapshot keeps: the last move, and every
// record of the current turn.
func (g *Game) recent() []Record {
	last := -1
	for i := len(g.history) - 1; i >= 0; i-- {
		if g.history[i].Kind == RecordMove {
			last = i
			break
		}
	}
	var out []Record
	for i, r := range g.history {
		if i == last || r.Turn == g.turn {
			out = append(out, r)
		}
	}
	return out
}

// UnmarshalSnapshot decodes a game written by MarshalSnapshot, in time that
// does not depend on the game's length. It also reads the full format of
// MarshalBinary (by replaying it), so that games stored before snapshots
// existed load too.
func (g *Game) UnmarshalSnapshot(data []byte) error {
	var head struct {
		V int `json:"v"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidGame, err)
	}
	if head.V == serialVersion {
		return g.UnmarshalBinary(data)
	}
	if head.V != snapshotVersion {
		return fmt.Errorf("%w: snapshot version %d, this build reads %d", ErrInvalidGame, head.V, snapshotVersion)
	}
	var s snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidGame, err)
	}
	ng, err := s.game()
	if err != nil {
		return fmt.Errorf("%w: snapshot: %w", ErrInvalidGame, err)
	}
	*g = *ng
	return nil
}

// game rebuilds the Game a snapshot describes and checks that it is one the
// rules allow.
func (s *snapshot) game() (*Game, error) {
	start, err := ParsePosition(s.Start)
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	pos, err := ParsePosition(s.Pos)
	if err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	phase := Phase(slices.Index(phaseNames[:], s.Phase))
	if phase < 0 {
		return nil, fmt.Errorf("unknown phase %q", s.Phase)
	}
	if s.Turn < 1 {
		return nil, fmt.Errorf("turn %d", s.Turn)
	}
	g := &Game{rules: s.Rules, start: start, pos: pos, phase: phase, turn: s.Turn, winner: NoColor,
		forfeit: s.Forfeit, pending: Move{From: NoSquare, To: NoSquare, Place: NoSquare}}
	switch phase {
	case PhaseRoll:
		if pos.Over() || s.Roll != 0 {
			return nil, fmt.Errorf("roll phase with a roll of %d or a pawn on the goal", s.Roll)
		}
	case PhaseMove, PhasePlace:
		if s.Roll < 1 || s.Roll > 6 || pos.Over() {
			return nil, fmt.Errorf("%s phase with a roll of %d", phase, s.Roll)
		}
		g.roll = s.Roll
		g.moves = pos.Moves(s.Roll, s.Rules)
		if len(g.moves) == 0 {
			return nil, fmt.Errorf("a roll of %d with no legal move", s.Roll)
		}
		sortMoves(g.moves)
		if phase == PhasePlace {
			m, err := ParseMove(s.Pending)
			if err != nil {
				return nil, fmt.Errorf("pending: %w", err)
			}
			if pos.At(m.To) != Barricade || m.Place != NoSquare || !g.legalTarget(m) {
				return nil, fmt.Errorf("pending move %s does not fit", m)
			}
			g.pending = m
		}
	case PhaseOver:
		if s.Roll < 0 || s.Roll > 6 {
			return nil, fmt.Errorf("a roll of %d", s.Roll)
		}
		g.roll = s.Roll // the winning roll; 0 after a forfeit
		winner, err := ParseColor(s.Winner)
		if err != nil {
			return nil, fmt.Errorf("winner: %w", err)
		}
		won := pos.Over() && pos.Winner() == winner && !s.Forfeit
		forfeit := s.Forfeit && len(pos.Players()) == 1 && pos.Players()[0] == winner
		if !won && !forfeit {
			return nil, fmt.Errorf("winner %s does not fit the position", winner)
		}
		g.winner = winner
	}
	if phase != PhaseOver && (s.Winner != "" || s.Forfeit) {
		return nil, fmt.Errorf("a winner in the %s phase", phase)
	}
	for _, sr := range s.Recent {
		r, err := sr.record()
		if err != nil {
			return nil, err
		}
		g.history = append(g.history, r)
	}
	return g, nil
}

func (sr snapRecord) record() (Record, error) {
	r := Record{Kind: sr.Kind, Turn: sr.Turn, Roll: sr.Roll, Captured: NoColor}
	var err error
	if r.Color, err = ParseColor(sr.Color); err != nil {
		return Record{}, fmt.Errorf("record: %w", err)
	}
	switch sr.Kind {
	case RecordRoll, RecordPass, RecordRemove:
	case RecordMove:
		if r.Move, err = ParseMove(sr.Move); err != nil {
			return Record{}, fmt.Errorf("record: %w", err)
		}
		if sr.Captured != "" {
			if r.Captured, err = ParseColor(sr.Captured); err != nil {
				return Record{}, fmt.Errorf("record: %w", err)
			}
		}
		for _, name := range strings.Fields(sr.Path) {
			sq, err := ParseSquare(name)
			if err != nil {
				return Record{}, fmt.Errorf("record: path: %w", err)
			}
			r.Path = append(r.Path, sq)
		}
	default:
		return Record{}, fmt.Errorf("record: unknown kind %d", sr.Kind)
	}
	return r, nil
}
