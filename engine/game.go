package engine

import (
	"cmp"
	"fmt"
	"slices"
)

// CompareMoves orders moves as their notation sorts, without building strings:
// '-' and '/' sort before every letter and digit, so comparing FROM, then TO,
// then PLACE by name gives the order of the whole text.
func CompareMoves(a, b Move) int { return cmp.Compare(moveKey(a), moveKey(b)) }

// moveKey is m's place in the notation's order as a number: FROM's, TO's
// and PLACE's ranks among the names, a byte each, PLACE's 0 when it has
// none (the shorter text, "c1-e3" before "c1-e3/a1").
func moveKey(m Move) uint32 {
	place := uint32(0)
	if m.Place != NoSquare {
		place = uint32(rankOf(m.Place)) + 1
	}
	return uint32(rankOf(m.From))<<16 | uint32(rankOf(m.To))<<8 | place
}

// rankOf is s's place among the names, a square off the board named
// "home" as String names it.
func rankOf(s Square) uint8 {
	if s < 0 || s >= NumSquares {
		return homeRank
	}
	return nameRank[s]
}

// sortMoves sorts moves by CompareMoves. A roll's moves, every placement
// of a captured barricade expanded, run to hundreds and are sorted at every
// roll a game plays or replays: a few are sorted by insertion, more by
// their keys' three bytes (moveKey), one counting pass each.
func sortMoves(moves []Move) {
	if len(moves) <= 24 {
		for i := 1; i < len(moves); i++ {
			m, k := moves[i], moveKey(moves[i])
			j := i
			for ; j > 0 && moveKey(moves[j-1]) > k; j-- {
				moves[j] = moves[j-1]
			}
			moves[j] = m
		}
		return
	}
	n := len(moves)
	var keyBuf [2 * 256]uint32 // on the stack for up to 256 moves
	var moveBuf [256]Move
	keys, tmp := keyBuf[:], moveBuf[:]
	if n > len(moveBuf) {
		keys, tmp = make([]uint32, 2*n), make([]Move, n)
	}
	src, dst := moves, tmp[:n]
	srcKeys, dstKeys := keys[:n], keys[n:2*n]
	for i, m := range moves {
		srcKeys[i] = moveKey(m)
	}
	for shift := 0; shift < 24; shift += 8 {
		var start [257]int // start[d+1] counts digit d, then start[d] is where d's run begins
		for _, k := range srcKeys {
			start[(k>>shift)&0xff+1]++
		}
		for d := 1; d < len(start); d++ {
			start[d] += start[d-1]
		}
		for i, k := range srcKeys {
			d := (k >> shift) & 0xff
			dst[start[d]], dstKeys[start[d]] = src[i], k
			start[d]++
		}
		src, dst = dst, src
		srcKeys, dstKeys = dstKeys, srcKeys
	}
	copy(moves, src)
}

// Phase is what a game waits for next.
type Phase int8

// The phases of a turn, and the end.
const (
	// PhaseRoll: the player to move must roll.
	PhaseRoll Phase = iota
	// PhaseMove: the player has rolled and must choose one of the legal moves.
	PhaseMove
	// PhasePlace: the chosen move captured a barricade, which must be placed.
	PhasePlace
	// PhaseOver: the game has a winner.
	PhaseOver
)

var phaseNames = [...]string{"roll", "move", "place", "over"}

// String returns the phase's name: roll, move, place or over.
func (p Phase) String() string {
	if p < 0 || int(p) >= len(phaseNames) {
		return "unknown"
	}
	return phaseNames[p]
}

// RecordKind tells what a history record holds.
type RecordKind int8

// The kinds of history records.
const (
	// RecordRoll: the player to move rolled Roll.
	RecordRoll RecordKind = iota
	// RecordPass: the roll allowed no move and the turn passed.
	RecordPass
	// RecordMove: the player played Move (with its placement), capturing
	// Captured's pawn when that is not NoColor.
	RecordMove
	// RecordRemove: Color left the game (rule 10).
	RecordRemove
)

// Record is one entry of a game's history.
type Record struct {
	Kind     RecordKind
	Color    Color
	Turn     int   // the turn number the record belongs to
	Roll     int   // RecordRoll, RecordPass and RecordMove: the die
	Move     Move  // RecordMove
	Captured Color // RecordMove: the colour of a captured pawn, or NoColor
	Path     []Square
}

// Game is a game in progress: the position plus whose turn it is within the
// turn's phases, the roll, the winner and a history that replays exactly.
// A Game is not safe for concurrent use.
type Game struct {
	rules   Rules
	start   Position
	pos     Position
	phase   Phase
	roll    int
	moves   []Move
	pending Move
	winner  Color
	forfeit bool
	turn    int
	history []Record
}

// NewGame starts a game for the colours in play, first to move, under rules.
func NewGame(players []Color, first Color, rules Rules) (*Game, error) {
	if len(players) < 2 || len(players) > NumColors {
		return nil, fmt.Errorf("%w: %d players, want 2 to 4", ErrInvalidGame, len(players))
	}
	pos, err := NewPosition(players, first)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidGame, err)
	}
	return newGameAt(pos, rules), nil
}

// NewGameAt starts a game from any position (for analysis and tests).
func NewGameAt(pos Position, rules Rules) *Game { return newGameAt(pos, rules) }

func newGameAt(pos Position, rules Rules) *Game {
	g := &Game{rules: rules, start: pos, pos: pos, winner: NoColor, turn: 1,
		pending: Move{From: NoSquare, To: NoSquare, Place: NoSquare}}
	if pos.Over() {
		g.phase, g.winner = PhaseOver, pos.Winner()
	}
	return g
}

// Rules returns the game's house rules.
func (g *Game) Rules() Rules { return g.rules }

// Position returns a copy of the current position.
func (g *Game) Position() Position { return g.pos }

// StartPosition returns a copy of the position the game started from.
func (g *Game) StartPosition() Position { return g.start }

// Phase returns what the game waits for.
func (g *Game) Phase() Phase { return g.phase }

// Turn returns the colour to move (or the winner, once the game is over).
func (g *Game) Turn() Color { return g.pos.turn }

// TurnNumber counts the turns from 1; it grows each time a player is to roll.
func (g *Game) TurnNumber() int { return g.turn }

// Rolled returns the current roll in PhaseMove and PhasePlace, else 0.
func (g *Game) Rolled() int { return g.roll }

// Winner returns the winning colour, or NoColor while the game runs.
func (g *Game) Winner() Color { return g.winner }

// Forfeit reports whether the winner won because every other player left.
func (g *Game) Forfeit() bool { return g.forfeit }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.phase == PhaseOver }

// LegalMoves returns the legal moves for the current roll, sorted by their
// notation, in PhaseMove; nil otherwise.
func (g *Game) LegalMoves() []Move {
	if g.phase != PhaseMove {
		return nil
	}
	return slices.Clone(g.moves)
}

// Pending returns the move waiting for its barricade placement in PhasePlace.
func (g *Game) Pending() (Move, bool) { return g.pending, g.phase == PhasePlace }

// PlacementSquares returns the legal squares for the captured barricade in PhasePlace.
func (g *Game) PlacementSquares() []Square {
	if g.phase != PhasePlace {
		return nil
	}
	return g.pos.PlacementSquares(g.pending.From, g.pending.To, g.rules)
}

// History returns a copy of the game's records, oldest first.
func (g *Game) History() []Record { return slices.Clone(g.history) }

// Check returns nil when colour c may take an action of phase p now, and
// otherwise ErrGameOver, ErrNotYourTurn or ErrWrongPhase.
func (g *Game) Check(c Color, p Phase) error {
	switch {
	case g.phase == PhaseOver:
		return ErrGameOver
	case c != g.pos.turn:
		return fmt.Errorf("%s to move, not %s: %w", g.pos.turn, c, ErrNotYourTurn)
	case p != g.phase:
		return fmt.Errorf("waiting for %s, not %s: %w", g.phase, p, ErrWrongPhase)
	}
	return nil
}

// Roll rolls for the player to move. When the roll allows no legal move
// the turn passes at once (rule 8) and the game waits for the next player's
// roll; otherwise it waits for a move.
func (g *Game) Roll(d Dice) (int, error) {
	if err := g.Check(g.pos.turn, PhaseRoll); err != nil {
		return 0, err
	}
	roll := d.Roll()
	if roll < 1 || roll > 6 {
		return 0, fmt.Errorf("roll %d: %w", roll, ErrInvalidRoll)
	}
	g.history = append(g.history, Record{Kind: RecordRoll, Color: g.pos.turn, Turn: g.turn, Roll: roll, Captured: NoColor})
	moves := g.pos.Moves(roll, g.rules)
	if len(moves) == 0 {
		g.history = append(g.history, Record{Kind: RecordPass, Color: g.pos.turn, Turn: g.turn, Roll: roll, Captured: NoColor})
		g.pos.Pass()
		g.turn++
		return roll, nil
	}
	sortMoves(moves)
	g.roll, g.moves, g.phase = roll, moves, PhaseMove
	return roll, nil
}

// Move plays m for the player to move. A move that captures a barricade may
// name its placement (FROM-TO/PLACE) or leave Place as NoSquare, in which
// case the game waits in PhasePlace for Place.
func (g *Game) Move(m Move) error {
	if err := g.Check(g.pos.turn, PhaseMove); err != nil {
		return fmt.Errorf("move %s: %w", m, err)
	}
	if m.Place == NoSquare && g.pos.cells[m.To] == Barricade && g.legalTarget(m) {
		g.pending, g.phase = m, PhasePlace
		return nil
	}
	if !slices.Contains(g.moves, m) {
		return fmt.Errorf("move %s with a roll of %d: %w", m, g.roll, ErrIllegalMove)
	}
	g.play(m)
	return nil
}

// legalTarget reports whether some legal move goes from m.From to m.To.
func (g *Game) legalTarget(m Move) bool {
	return slices.ContainsFunc(g.moves, func(l Move) bool { return l.From == m.From && l.To == m.To })
}

// Place puts the barricade captured by the pending move on sq and completes the move.
func (g *Game) Place(sq Square) error {
	if err := g.Check(g.pos.turn, PhasePlace); err != nil {
		return fmt.Errorf("place %s: %w", sq, err)
	}
	m := g.pending
	m.Place = sq
	if !slices.Contains(g.moves, m) {
		return fmt.Errorf("barricade on %s: %w", sq, ErrIllegalMove)
	}
	g.play(m)
	return nil
}

// CancelPlace takes back the choice of a barricade-capturing move before its
// placement, so that the player may choose another move.
func (g *Game) CancelPlace() error {
	if g.phase != PhasePlace {
		return fmt.Errorf("cancel placement: %w", ErrWrongPhase)
	}
	g.phase = PhaseMove
	g.pending = Move{From: NoSquare, To: NoSquare, Place: NoSquare}
	return nil
}

func (g *Game) play(m Move) {
	mover := g.pos.turn
	path := g.pos.Path(m, g.roll)
	captured := g.pos.movePieces(m)
	g.history = append(g.history, Record{Kind: RecordMove, Color: mover, Turn: g.turn, Roll: g.roll, Move: m, Captured: captured, Path: path})
	g.pending = Move{From: NoSquare, To: NoSquare, Place: NoSquare}
	g.moves = nil
	if m.To == Goal {
		g.phase, g.winner = PhaseOver, mover
		return
	}
	if !(g.rules.SixAgain && g.roll == 6) {
		g.pos.turn = g.pos.next(mover)
	}
	g.roll, g.phase = 0, PhaseRoll
	g.turn++
}

// Remove takes colour c out of the game (rule 10): its pawns leave the board.
// When one colour is left it wins by forfeit. When c was to move, the turn
// passes to the next colour.
func (g *Game) Remove(c Color) error {
	if g.phase == PhaseOver {
		return fmt.Errorf("remove %s: %w", c, ErrGameOver)
	}
	if !g.pos.InPlay(c) {
		return fmt.Errorf("remove %s: %w: not in play", c, ErrInvalidGame)
	}
	wasTurn := g.pos.turn == c
	g.pos.remove(c)
	g.history = append(g.history, Record{Kind: RecordRemove, Color: c, Turn: g.turn, Captured: NoColor})
	if players := g.pos.Players(); len(players) == 1 {
		g.phase, g.winner, g.forfeit = PhaseOver, players[0], true
		g.pos.turn = players[0]
		return nil
	}
	if wasTurn {
		g.roll, g.moves, g.phase = 0, nil, PhaseRoll
		g.pending = Move{From: NoSquare, To: NoSquare, Place: NoSquare}
		g.turn++
	}
	return nil
}
