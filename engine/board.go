package engine

import (
	"fmt"
	"slices"
)

// Square is a square of the board, numbered 0 to NumSquares-1 in row order
// (row 1 first, columns left to right within a row). NoSquare means none; as a
// move's From it means the pawn comes from its house.
type Square int8

// NoSquare is the zero-like "no square" value.
const NoSquare Square = -1

// NumSquares is the number of squares on the board.
const NumSquares = 112

const (
	numCols = 17
	numRows = 14
)

// rowColumns lists, for rows 1 to 14, which columns (as letters) hold a square.
var rowColumns = [numRows]string{
	"abcdefghijklmnopq", // 1
	"aeimq",             // 2
	"abcdefghijklmnopq", // 3
	"cgko",              // 4
	"cdefghijklmno",     // 5
	"em",                // 6
	"efghijklm",         // 7
	"gk",                // 8
	"ghijk",             // 9
	"i",                 // 10
	"abcdefghijklmnopq", // 11
	"aq",                // 12
	"abcdefghijklmnopq", // 13
	"i",                 // 14
}

var (
	squareCol  [NumSquares]int8
	squareRow  [NumSquares]int8
	squareName [NumSquares]string
	grid       [numRows + 1][numCols]Square // grid[row][col], NoSquare where none
	neighbors  [NumSquares][]Square
	goalDist   [NumSquares]int8
	// nameRank is each square's place among the squares' names in text
	// order ("a1" < "a3" < "a5" < … < "q3"), homeRank that of "home" (a
	// pawn's house, as a move's From) among them: moves compare by these
	// as their notation sorts (moveKey).
	nameRank [NumSquares]uint8
	homeRank uint8
)

// Goal is the goal square, i14.
var Goal Square

// entries holds the entry square of each colour.
var entries [NumColors]Square

// barricadeStarts lists the 11 barricades' starting squares.
var barricadeStarts []Square

func init() {
	for r := range grid {
		for c := range grid[r] {
			grid[r][c] = NoSquare
		}
	}
	n := 0
	for r, cols := range rowColumns {
		for _, ch := range cols {
			c := int(ch - 'a')
			squareCol[n] = int8(c)
			squareRow[n] = int8(r + 1)
			squareName[n] = fmt.Sprintf("%c%d", ch, r+1)
			grid[r+1][c] = Square(n)
			n++
		}
	}
	if n != NumSquares {
		panic("engine: board table holds the wrong number of squares")
	}
	for s := Square(0); s < NumSquares; s++ {
		r, c := int(squareRow[s]), int(squareCol[s])
		for _, d := range [4][2]int{{0, -1}, {0, 1}, {-1, 0}, {1, 0}} {
			nr, nc := r+d[0], c+d[1]
			if nr < 1 || nr > numRows || nc < 0 || nc >= numCols {
				continue
			}
			if t := grid[nr][nc]; t != NoSquare {
				neighbors[s] = append(neighbors[s], t)
			}
		}
	}
	names := append(slices.Clone(squareName[:]), "home")
	slices.Sort(names)
	for i, name := range names {
		if name == "home" {
			homeRank = uint8(i)
		} else {
			nameRank[mustSquare(name)] = uint8(i)
		}
	}
	buildPaths()
	Goal = mustSquare("i14")
	for c, name := range [NumColors]string{"c1", "g1", "k1", "o1"} {
		entries[c] = mustSquare(name)
	}
	for _, name := range []string{"a3", "e3", "i3", "m3", "q3", "g7", "k7", "i9", "i10", "i11", "i13"} {
		barricadeStarts = append(barricadeStarts, mustSquare(name))
	}
	// Breadth-first distances to the goal, barricades ignored.
	for i := range goalDist {
		goalDist[i] = -1
	}
	goalDist[Goal] = 0
	queue := []Square{Goal}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, t := range neighbors[s] {
			if goalDist[t] < 0 {
				goalDist[t] = goalDist[s] + 1
				queue = append(queue, t)
			}
		}
	}
}

func mustSquare(name string) Square {
	s, err := ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}

// ParseSquare reads a square name such as "c1" or "i14".
func ParseSquare(name string) (Square, error) {
	if len(name) < 2 || len(name) > 3 || name[0] < 'a' || name[0] > 'q' {
		return NoSquare, fmt.Errorf("%w: %q", ErrInvalidSquare, name)
	}
	row := 0
	for _, ch := range name[1:] {
		if ch < '0' || ch > '9' {
			return NoSquare, fmt.Errorf("%w: %q", ErrInvalidSquare, name)
		}
		row = row*10 + int(ch-'0')
	}
	if name[1] == '0' || row < 1 || row > numRows {
		return NoSquare, fmt.Errorf("%w: %q", ErrInvalidSquare, name)
	}
	s := grid[row][name[0]-'a']
	if s == NoSquare {
		return NoSquare, fmt.Errorf("%w: %q is not on the board", ErrInvalidSquare, name)
	}
	return s, nil
}

// SquareAt returns the square at column col (0 for a) and row (1 to 14), or
// NoSquare when the board has none there.
func SquareAt(col, row int) Square {
	if row < 1 || row > numRows || col < 0 || col >= numCols {
		return NoSquare
	}
	return grid[row][col]
}

// String returns the square's name, such as "c1"; NoSquare reads "home".
func (s Square) String() string {
	if s < 0 || s >= NumSquares {
		return "home"
	}
	return squareName[s]
}

// Col returns the square's column, 0 (a) to 16 (q).
func (s Square) Col() int { return int(squareCol[s]) }

// Row returns the square's row, 1 to 14.
func (s Square) Row() int { return int(squareRow[s]) }

// Valid reports whether s names a square of the board.
func (s Square) Valid() bool { return s >= 0 && s < NumSquares }

// Neighbors returns the squares joined to s by a line. The slice is shared:
// callers must not modify it.
func Neighbors(s Square) []Square { return neighbors[s] }

// DistanceToGoal returns the number of steps from s to the goal along the
// lines, ignoring pieces.
func DistanceToGoal(s Square) int { return int(goalDist[s]) }

// Entry returns the entry square of colour c: the first step out of its house.
func Entry(c Color) Square { return entries[c] }

// BarricadeStarts returns the 11 squares on which the barricades start.
func BarricadeStarts() []Square { return append([]Square(nil), barricadeStarts...) }

// IsBarricadeStart reports whether s is one of the barricades' starting squares
// (painted red on the real board).
func IsBarricadeStart(s Square) bool {
	for _, b := range barricadeStarts {
		if b == s {
			return true
		}
	}
	return false
}
