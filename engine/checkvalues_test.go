package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// movesText returns the legal moves as sorted notation, as `malefiz moves` prints them.
func movesText(t *testing.T, position string, roll int, r Rules) []string {
	t.Helper()
	p, err := ParsePosition(position)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", position, err)
	}
	var out []string
	for _, m := range p.Moves(roll, r) {
		out = append(out, m.String())
	}
	slices.Sort(out)
	if n := len(slices.Compact(slices.Clone(out))); n != len(out) {
		t.Errorf("moves of %q roll %d hold duplicates: %v", position, roll, out)
	}
	return out
}

// TestCheckValues checks every move list published in docs/rules.md.
func TestCheckValues(t *testing.T) {
	const (
		fourPlayers = "players=rgyb turn=g r=c1 g=f1,g1 y=h1 b= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13"
		nearGoal    = "players=ry turn=r r=h13 y=j13 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,d5"
	)
	tests := []struct {
		name     string
		position string
		roll     int
		want     string
	}{
		{"start roll 4", "start", 4, "home-a2 home-e2 home-f1"},
		{"start roll 6", "start", 6, "home-h1"},
		{"green jumps and enters", fourPlayers, 2, "f1-d1 f1-e2 f1-h1 g1-e1 g1-i1 home-h1"},
		{"goal reachable exactly", nearGoal, 2, "h13-f13 h13-i14 h13-j13 home-b1 home-d1"},
		{"goal never overshot", nearGoal, 3, "h13-e13 h13-k13 home-a1 home-e1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(movesText(t, tt.position, tt.roll, Rules{}), " ")
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCheckValueBarricadePlacements(t *testing.T) {
	got := movesText(t, "players=ry turn=y r=h13 y=j13 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", 1, Rules{})
	if len(got) != 84 {
		t.Fatalf("got %d moves, want 84", len(got))
	}
	places := 0
	for _, m := range got {
		switch {
		case m == "home-k1", m == "j13-k13":
		case strings.HasPrefix(m, "j13-i13/"):
			places++
			switch place := strings.TrimPrefix(m, "j13-i13/"); place {
			case "a1", "h13", "i14", "i13":
				t.Errorf("illegal placement %s", m)
			}
		default:
			t.Errorf("unexpected move %s", m)
		}
	}
	if places != 82 {
		t.Errorf("got %d placements, want 82", places)
	}
	if !slices.Contains(got, "j13-i13/j13") {
		t.Errorf("the square just left (j13) must be a legal placement")
	}
}

func TestCompareMovesMatchesNotationOrder(t *testing.T) {
	p, _ := ParsePosition("players=ry turn=y r=h13 y=j13,c13,c1 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13")
	for roll := 1; roll <= 6; roll++ {
		moves := p.Moves(roll, Rules{})
		byText := slices.Clone(moves)
		slices.SortFunc(byText, func(a, b Move) int { return strings.Compare(a.String(), b.String()) })
		slices.SortFunc(moves, CompareMoves)
		if !slices.Equal(moves, byText) {
			t.Errorf("roll %d: CompareMoves order differs from the notation's", roll)
		}
	}
}

// TestSortMovesMatchesNotationOrder: the legal moves a game offers (sorted
// by sortMoves, short lists by insertion and long ones by their keys) are
// in the order of their text, at every roll of random four-player games,
// whatever order they came in.
func TestSortMovesMatchesNotationOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	dice := DiceFunc(func() int { return rng.IntN(6) + 1 })
	short, long := 0, 0
	for range 20 {
		g, err := NewGame([]Color{Red, Green, Yellow, Blue}, Red, Rules{})
		require.NoError(t, err)
		for !g.Over() {
			if g.Phase() == PhaseRoll {
				_, err := g.Roll(dice)
				require.NoError(t, err)
				continue
			}
			moves := g.LegalMoves()
			byText := slices.Clone(moves)
			slices.SortFunc(byText, func(a, b Move) int { return strings.Compare(a.String(), b.String()) })
			require.Equal(t, byText, moves, "the moves of %s", g.Position())
			shuffled := slices.Clone(moves)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			sortMoves(shuffled)
			require.Equal(t, byText, shuffled, "the moves of %s, shuffled", g.Position())
			if len(moves) <= 24 {
				short++
			} else {
				long++
			}
			require.NoError(t, g.Move(moves[rng.IntN(len(moves))]))
		}
	}
	assert.Positive(t, short, "lists sorted by insertion")
	assert.Positive(t, long, "lists sorted by their keys")
	t.Logf("%d short lists, %d long", short, long)
}
