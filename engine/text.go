package engine

// Text forms, so that squares, colours, moves and positions read and write
// as their notation in JSON and other text encodings.

// MarshalText writes the square's name; NoSquare writes "home".
func (s Square) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a square's name, or "home" for NoSquare.
func (s *Square) UnmarshalText(text []byte) error {
	if string(text) == "home" {
		*s = NoSquare
		return nil
	}
	sq, err := ParseSquare(string(text))
	if err != nil {
		return err
	}
	*s = sq
	return nil
}

// MarshalText writes the colour's name; NoColor writes "".
func (c Color) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return []byte{}, nil
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a colour's name or letter; "" reads NoColor.
func (c *Color) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*c = NoColor
		return nil
	}
	col, err := ParseColor(string(text))
	if err != nil {
		return err
	}
	*c = col
	return nil
}

// MarshalText writes the move in notation.
func (m Move) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a move in notation.
func (m *Move) UnmarshalText(text []byte) error {
	mv, err := ParseMove(string(text))
	if err != nil {
		return err
	}
	*m = mv
	return nil
}

// MarshalText writes the position in its canonical notation.
func (p Position) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a position in notation.
func (p *Position) UnmarshalText(text []byte) error {
	pos, err := ParsePosition(string(text))
	if err != nil {
		return err
	}
	*p = pos
	return nil
}
