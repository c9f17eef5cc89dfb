package engine

import (
	"fmt"
	"sort"
	"strings"
)

// Piece is what stands on a square: nothing, a barricade, or a pawn.
type Piece int8

// The pieces. A pawn's piece is PawnOf(color).
const (
	Empty Piece = iota
	Barricade
	pawnBase
)

// PawnOf returns the piece of a pawn of colour c.
func PawnOf(c Color) Piece { return pawnBase + Piece(c) }

// IsPawn reports whether the piece is a pawn.
func (p Piece) IsPawn() bool { return p >= pawnBase }

// Color returns the colour of a pawn, or NoColor for other pieces.
func (p Piece) Color() Color {
	if p < pawnBase {
		return NoColor
	}
	return Color(p - pawnBase)
}

// PawnsPerColor is how many pawns each colour has.
const PawnsPerColor = 5

// Position is the state of the board between moves: pieces on squares, pawns
// at home, colours in play and the colour to move. It is a small value type:
// copying it copies the whole position.
type Position struct {
	cells  [NumSquares]Piece
	bars   SquareSet // the squares of cells that hold a barricade
	pawns  SquareSet // the squares of cells that hold a pawn
	home   [NumColors]int8
	inPlay [NumColors]bool
	turn   Color
}

// StartPosition returns the standard four-player start.
func StartPosition() Position {
	p, err := NewPosition([]Color{Red, Green, Yellow, Blue}, Red)
	if err != nil {
		panic(err)
	}
	return p
}

// NewPosition returns the starting position for the given colours, with
// first to move: every pawn at home, the barricades on their start squares.
func NewPosition(players []Color, first Color) (Position, error) {
	var p Position
	p.turn = NoColor
	for _, c := range players {
		if !c.Valid() {
			return Position{}, fmt.Errorf("%w: colour %d", ErrInvalidPosition, c)
		}
		if p.inPlay[c] {
			return Position{}, fmt.Errorf("%w: %s is in play twice", ErrInvalidPosition, c)
		}
		p.inPlay[c] = true
		p.home[c] = PawnsPerColor
	}
	if len(players) == 0 {
		return Position{}, fmt.Errorf("%w: no colours in play", ErrInvalidPosition)
	}
	if !first.Valid() || !p.inPlay[first] {
		return Position{}, fmt.Errorf("%w: %s to move is not in play", ErrInvalidPosition, first)
	}
	p.turn = first
	for _, s := range barricadeStarts {
		p.cells[s] = Barricade
		p.bars.Add(s)
	}
	return p, nil
}

// Turn returns the colour to move.
func (p Position) Turn() Color { return p.turn }

// InPlay reports whether colour c takes part.
func (p Position) InPlay(c Color) bool { return c.Valid() && p.inPlay[c] }

// Players returns the colours in play in seat order.
func (p Position) Players() []Color {
	var out []Color
	for c := Red; c <= Blue; c++ {
		if p.inPlay[c] {
			out = append(out, c)
		}
	}
	return out
}

// At returns the piece on square s.
func (p Position) At(s Square) Piece { return p.cells[s] }

// Board returns the piece on every square, indexed by Square: At for the
// whole board in one call, for loops over every square (a call of At in
// such a loop copies the Position each time).
func (p Position) Board() [NumSquares]Piece { return p.cells }

// Home returns how many pawns of colour c wait in its house.
func (p Position) Home(c Color) int { return int(p.home[c]) }

// Pawns returns the squares of colour c's pawns on the board, in square order.
func (p Position) Pawns(c Color) []Square {
	var out []Square
	want := PawnOf(c)
	for s := Square(0); s < NumSquares; s++ {
		if p.cells[s] == want {
			out = append(out, s)
		}
	}
	return out
}

// PawnSet returns the squares that hold a pawn, of any colour.
func (p Position) PawnSet() SquareSet { return p.pawns }

// BarricadeSet returns the squares holding a barricade, as a set.
func (p Position) BarricadeSet() SquareSet { return p.bars }

// Barricades returns the squares holding a barricade, in square order.
func (p Position) Barricades() []Square {
	var out []Square
	for s := Square(0); s < NumSquares; s++ {
		if p.cells[s] == Barricade {
			out = append(out, s)
		}
	}
	return out
}

// Winner returns the colour of the pawn on the goal, or NoColor.
func (p Position) Winner() Color { return p.cells[Goal].Color() }

// Over reports whether a pawn stands on the goal.
func (p Position) Over() bool { return p.cells[Goal].IsPawn() }

// next returns the colour in play after c in seat order.
func (p *Position) next(c Color) Color {
	for i := 1; i <= NumColors; i++ {
		n := Color((int(c) + i) % NumColors)
		if p.inPlay[n] {
			return n
		}
	}
	return c
}

// Pass hands the turn to the next colour in play without a move.
func (p *Position) Pass() { p.turn = p.next(p.turn) }

// Apply plays m for the colour to move and hands the turn on. It trusts m to
// be legal (one of Moves' results); Game checks moves before applying them.
// It returns the colour of a captured pawn, or NoColor.
func (p *Position) Apply(m Move) Color {
	captured := p.movePieces(m)
	p.turn = p.next(p.turn)
	return captured
}

// Play plays m for the colour to move, who rolled roll, and hands the turn
// on as a game does: not after a 6 under the six-again rule, and not when m
// reaches the goal (the winner stays the colour to move). Like Apply it
// trusts m to be legal, and it returns the colour of a captured pawn, or
// NoColor.
func (p *Position) Play(m Move, roll int, r Rules) Color {
	mover := p.turn
	captured := p.movePieces(m)
	if m.To != Goal && !(r.SixAgain && roll == 6) {
		p.turn = p.next(mover)
	}
	return captured
}

// movePieces moves the pieces of m without handing the turn on and returns
// the colour of a captured pawn, or NoColor.
func (p *Position) movePieces(m Move) Color {
	c := p.turn
	if m.From == NoSquare {
		p.home[c]--
	} else {
		p.cells[m.From] = Empty
		p.pawns.Remove(m.From)
	}
	captured := NoColor
	switch t := p.cells[m.To]; {
	case t.IsPawn():
		captured = t.Color()
		p.home[captured]++
	case t == Barricade:
		p.bars.Remove(m.To)
		if m.Place != NoSquare {
			p.cells[m.Place] = Barricade
			p.bars.Add(m.Place)
		}
	}
	p.cells[m.To] = PawnOf(c)
	p.pawns.Add(m.To)
	return captured
}

// remove takes colour c out of play: its pawns leave the board.
func (p *Position) remove(c Color) {
	for s := range p.cells {
		if p.cells[s] == PawnOf(c) {
			p.cells[s] = Empty
			p.pawns.Remove(Square(s))
		}
	}
	p.home[c] = 0
	if p.turn == c {
		p.turn = p.next(c)
	}
	p.inPlay[c] = false
}

// ParsePosition reads the position notation of docs/rules.md, or the word "start".
func ParsePosition(text string) (Position, error) {
	text = strings.TrimSpace(text)
	if text == "start" {
		return StartPosition(), nil
	}
	fields := map[string]string{}
	for _, f := range strings.Fields(text) {
		key, value, ok := strings.Cut(f, "=")
		if !ok {
			return Position{}, fmt.Errorf("%w: field %q has no '='", ErrInvalidPosition, f)
		}
		switch key {
		case "players", "turn", "r", "g", "y", "b", "x":
		default:
			return Position{}, fmt.Errorf("%w: unknown field %q", ErrInvalidPosition, key)
		}
		if _, dup := fields[key]; dup {
			return Position{}, fmt.Errorf("%w: field %q is repeated", ErrInvalidPosition, key)
		}
		fields[key] = value
	}
	var p Position
	players, ok := fields["players"]
	if !ok {
		return Position{}, fmt.Errorf("%w: field \"players\" is missing", ErrInvalidPosition)
	}
	if players == "" {
		return Position{}, fmt.Errorf("%w: no colours in play", ErrInvalidPosition)
	}
	for _, ch := range players {
		c, err := ParseColor(string(ch))
		if err != nil {
			return Position{}, fmt.Errorf("%w: players=%s: %q is not a colour", ErrInvalidPosition, players, ch)
		}
		if p.inPlay[c] {
			return Position{}, fmt.Errorf("%w: players=%s names %s twice", ErrInvalidPosition, players, c)
		}
		p.inPlay[c] = true
	}
	turn, ok := fields["turn"]
	if !ok {
		return Position{}, fmt.Errorf("%w: field \"turn\" is missing", ErrInvalidPosition)
	}
	c, err := ParseColor(turn)
	if err != nil || len(turn) != 1 {
		return Position{}, fmt.Errorf("%w: turn=%s is not a colour letter", ErrInvalidPosition, turn)
	}
	if !p.inPlay[c] {
		return Position{}, fmt.Errorf("%w: turn=%s is not in play", ErrInvalidPosition, turn)
	}
	p.turn = c
	for c := Red; c <= Blue; c++ {
		key := string(c.Letter())
		value, ok := fields[key]
		if !p.inPlay[c] {
			if ok {
				return Position{}, fmt.Errorf("%w: field %q given but %s is not in play", ErrInvalidPosition, key, c)
			}
			continue
		}
		if !ok {
			return Position{}, fmt.Errorf("%w: field %q is missing", ErrInvalidPosition, key)
		}
		squares, err := parseSquareList(key, value)
		if err != nil {
			return Position{}, err
		}
		if len(squares) > PawnsPerColor {
			return Position{}, fmt.Errorf("%w: %s has %d pawns, at most %d", ErrInvalidPosition, c, len(squares), PawnsPerColor)
		}
		for _, s := range squares {
			if p.cells[s] != Empty {
				return Position{}, fmt.Errorf("%w: two pieces on %s", ErrInvalidPosition, s)
			}
			p.cells[s] = PawnOf(c)
			p.pawns.Add(s)
		}
		p.home[c] = int8(PawnsPerColor - len(squares))
	}
	value, ok := fields["x"]
	if !ok {
		return Position{}, fmt.Errorf("%w: field \"x\" is missing", ErrInvalidPosition)
	}
	squares, err := parseSquareList("x", value)
	if err != nil {
		return Position{}, err
	}
	for _, s := range squares {
		if s.Row() == 1 {
			return Position{}, fmt.Errorf("%w: barricade on row 1 (%s)", ErrInvalidPosition, s)
		}
		if s == Goal {
			return Position{}, fmt.Errorf("%w: barricade on the goal", ErrInvalidPosition)
		}
		if p.cells[s] != Empty {
			return Position{}, fmt.Errorf("%w: two pieces on %s", ErrInvalidPosition, s)
		}
		p.cells[s] = Barricade
		p.bars.Add(s)
	}
	return p, nil
}

func parseSquareList(key, value string) ([]Square, error) {
	if value == "" {
		return nil, nil
	}
	var out []Square
	for _, name := range strings.Split(value, ",") {
		s, err := ParseSquare(name)
		if err != nil {
			return nil, fmt.Errorf("%w: %s=%s: %w", ErrInvalidPosition, key, value, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// String formats the position in canonical notation: fields in the order
// players turn r g y b x, squares sorted by row then column.
func (p Position) String() string {
	var b strings.Builder
	b.WriteString("players=")
	for _, c := range p.Players() {
		b.WriteByte(c.Letter())
	}
	b.WriteString(" turn=")
	b.WriteByte(p.turn.Letter())
	for _, c := range p.Players() {
		b.WriteByte(' ')
		b.WriteByte(c.Letter())
		b.WriteByte('=')
		writeSquares(&b, p.Pawns(c))
	}
	b.WriteString(" x=")
	writeSquares(&b, p.Barricades())
	return b.String()
}

func writeSquares(b *strings.Builder, squares []Square) {
	sort.Slice(squares, func(i, j int) bool { return squares[i] < squares[j] })
	for i, s := range squares {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s.String())
	}
}
