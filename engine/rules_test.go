package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

const stdX = "x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13"

// boxedIn has all five red pawns on corridor squares between two barricades:
// any roll above 1 leaves red without a legal move.
const boxedIn = "players=rg turn=r r=i10,a12,q12,g8,k8 g= x=i9,i11,a11,a13,q11,q13,g7,g9,k7,k9"

// fixed returns dice that roll the given values in turn.
func fixed(rolls ...int) Dice {
	i := 0
	return DiceFunc(func() int {
		r := rolls[i%len(rolls)]
		i++
		return r
	})
}

func mustGameAt(t *testing.T, position string, r Rules) *Game {
	t.Helper()
	p, err := ParsePosition(position)
	if err != nil {
		t.Fatal(err)
	}
	return NewGameAt(p, r)
}

func mustMove(t *testing.T, s string) Move {
	t.Helper()
	m, err := ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRuleMoves holds one or more cases per numbered rule of docs/rules.md that
// concern which moves are legal.
func TestRuleMoves(t *testing.T) {
	tests := []struct {
		name     string
		position string
		roll     int
		rules    Rules
		want     string // every legal move, sorted, or "" for a pass
		has      []string
		hasNot   []string
	}{
		{name: "rule 2: no particular number leaves the house", position: "start", roll: 1, want: "home-c1"},
		{name: "rule 3: entry square is step 1", position: "start", roll: 2, want: "home-b1 home-d1"},
		{name: "rule 3: house spaces never count", position: "players=rg turn=r r=c1 g= " + stdX, roll: 1, want: "c1-b1 c1-d1"},
		{name: "rule 4: any direction, no doubling back", position: "players=rg turn=r r=g5 g= " + stdX, roll: 2,
			want: "g5-e5 g5-g3 g5-i5 home-b1 home-d1"},
		{name: "rule 4: every step must be used", position: "players=rg turn=r r=h13 g= " + stdX, roll: 4,
			hasNot: []string{"h13-i14"}},
		{name: "rule 5: pawns of any colour are jumped", position: "players=rg turn=r r=c1 g=d1,e1 " + stdX, roll: 3,
			has: []string{"c1-f1", "c1-e2"}},
		{name: "rule 5: a barricade is never jumped", position: "players=rg turn=r r=e2 g= " + stdX, roll: 2,
			hasNot: []string{"e2-e4", "e2-d3", "e2-f3"}},
		{name: "rule 6: never on its own colour", position: "players=rg turn=r r=c1,e1 g= " + stdX, roll: 2,
			hasNot: []string{"c1-e1"}, has: []string{"c1-a1"}},
		{name: "rule 6: own pawn on the entry blocks a roll of 1", position: "players=rg turn=r r=c1 g= " + stdX, roll: 1,
			hasNot: []string{"home-c1"}},
		{name: "rule 6: an opponent may be captured", position: "players=rg turn=r r=c1 g=e1 " + stdX, roll: 2,
			has: []string{"c1-e1"}},
		{name: "rule 7: ending on a barricade captures it", position: "players=rg turn=r r=e2 g=i2 " + stdX, roll: 1,
			has: []string{"e2-e3/a2", "e2-e3/e2", "e2-e3/q2", "e2-e3/h13"}, hasNot: []string{"e2-e3/a1", "e2-e3/i14", "e2-e3/e3", "e2-e3/a3", "e2-e3/i2", "e2-e3"}},
		{name: "rule 7 safe-row-2: row 2 is off limits", position: "players=rg turn=r r=e2 g= " + stdX, roll: 1, rules: Rules{SafeRow2: true},
			has: []string{"e2-e3/d3"}, hasNot: []string{"e2-e3/a2", "e2-e3/e2", "e2-e3/q2"}},
		{name: "rule 8: no legal move passes", position: boxedIn, roll: 3},
		{name: "rule 9: the goal is reached exactly", position: "players=rg turn=r r=i13 g= x=a3", roll: 1,
			has: []string{"i13-i14"}},
		{name: "rule 9: the goal is a dead end", position: "players=rg turn=r r=i13 g= x=a3", roll: 3,
			hasNot: []string{"i13-i14"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := movesText(t, tt.position, tt.roll, tt.rules)
			if tt.want != "" && strings.Join(got, " ") != tt.want {
				t.Errorf("got %q, want %q", strings.Join(got, " "), tt.want)
			}
			if tt.name == "rule 8: no legal move passes" && len(got) != 0 {
				t.Errorf("got %v, want no legal move", got)
			}
			for _, m := range tt.has {
				if !slices.Contains(got, m) {
					t.Errorf("%s missing from %v", m, got)
				}
			}
			for _, m := range tt.hasNot {
				if slices.Contains(got, m) {
					t.Errorf("%s must not be legal", m)
				}
			}
		})
	}
}

func TestRule1TurnOrderSkipsColoursNotInPlay(t *testing.T) {
	g, err := NewGame([]Color{Blue, Red, Yellow}, Yellow, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	var order []Color
	for range 4 {
		order = append(order, g.Turn())
		if _, err := g.Roll(fixed(1)); err != nil {
			t.Fatal(err)
		}
		if g.Phase() == PhaseMove {
			if err := g.Move(g.LegalMoves()[0]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if want := []Color{Yellow, Blue, Red, Yellow}; !slices.Equal(order, want) {
		t.Errorf("turn order %v, want %v", order, want)
	}
	for _, players := range [][]Color{{Red}, {Red, Red}, {Red, Green, Yellow, Blue, Red}} {
		if _, err := NewGame(players, Red, Rules{}); !errors.Is(err, ErrInvalidGame) {
			t.Errorf("NewGame(%v) err = %v, want ErrInvalidGame", players, err)
		}
	}
}

func TestRule2SixGivesNoSecondRoll(t *testing.T) {
	for _, tt := range []struct {
		rules Rules
		want  Color
	}{{Rules{}, Green}, {Rules{SixAgain: true}, Red}} {
		g, _ := NewGame([]Color{Red, Green}, Red, tt.rules)
		if _, err := g.Roll(fixed(6)); err != nil {
			t.Fatal(err)
		}
		if err := g.Move(mustMove(t, "home-h1")); err != nil {
			t.Fatal(err)
		}
		if g.Turn() != tt.want {
			t.Errorf("six-again=%v: %s to move after a 6, want %s", tt.rules.SixAgain, g.Turn(), tt.want)
		}
	}
}

func TestRule6CaptureSendsPawnHome(t *testing.T) {
	g := mustGameAt(t, "players=rg turn=r r=c1 g=e1 "+stdX, Rules{})
	g.Roll(fixed(2))
	if err := g.Move(mustMove(t, "c1-e1")); err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	if p.Home(Green) != 5 || p.At(mustSquare("e1")) != PawnOf(Red) {
		t.Errorf("after capture: %s", p)
	}
	h := g.History()
	if last := h[len(h)-1]; last.Captured != Green {
		t.Errorf("history says captured %s, want green", last.Captured)
	}
}

func TestRule7BarricadeIsPlacedInTwoSteps(t *testing.T) {
	g := mustGameAt(t, "players=rg turn=r r=e2 g=a2 "+stdX, Rules{})
	g.Roll(fixed(1))
	if err := g.Move(mustMove(t, "e2-e3")); err != nil {
		t.Fatal(err)
	}
	if g.Phase() != PhasePlace {
		t.Fatalf("phase %s, want place", g.Phase())
	}
	sq := g.PlacementSquares()
	if slices.Contains(sq, mustSquare("a2")) || !slices.Contains(sq, mustSquare("e2")) {
		t.Errorf("placements %v: a2 holds a pawn, e2 was just left", sq)
	}
	if err := g.Place(mustSquare("a1")); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("placing on row 1: err %v, want ErrIllegalMove", err)
	}
	if err := g.Place(mustSquare("e2")); err != nil {
		t.Fatal(err)
	}
	want := "players=rg turn=g r=e3 g=a2 x=e2,a3,i3,m3,q3,g7,k7,i9,i10,i11,i13"
	if got := g.Position().String(); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestRule8PassAndForcedMove(t *testing.T) {
	g := mustGameAt(t, boxedIn, Rules{})
	if _, err := g.Roll(fixed(3)); err != nil {
		t.Fatal(err)
	}
	if g.Turn() != Green || g.Phase() != PhaseRoll {
		t.Errorf("after a roll with no move: %s to %s, want green to roll", g.Turn(), g.Phase())
	}
	if h := g.History(); h[len(h)-1].Kind != RecordPass {
		t.Errorf("last record %v, want a pass", h[len(h)-1])
	}
	// A player with a legal move cannot pass: the only way on is a move.
	g.Roll(fixed(1))
	if g.Phase() != PhaseMove {
		t.Errorf("phase %s, want move", g.Phase())
	}
	if _, err := g.Roll(fixed(1)); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("rolling again: %v, want ErrWrongPhase", err)
	}
}

func TestRule9FirstOnTheGoalWins(t *testing.T) {
	g := mustGameAt(t, "players=rg turn=r r=i13 g=h13 x=a3", Rules{})
	g.Roll(fixed(1))
	if err := g.Move(mustMove(t, "i13-i14")); err != nil {
		t.Fatal(err)
	}
	if !g.Over() || g.Winner() != Red || g.Forfeit() {
		t.Errorf("over=%v winner=%s forfeit=%v", g.Over(), g.Winner(), g.Forfeit())
	}
	if _, err := g.Roll(fixed(1)); !errors.Is(err, ErrGameOver) {
		t.Errorf("roll after the end: %v, want ErrGameOver", err)
	}
}

func TestRule10Leaving(t *testing.T) {
	g := mustGameAt(t, "players=rgy turn=g r=c1 g=g1,h1 y=k1 "+stdX, Rules{})
	if err := g.Remove(Green); err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	if p.InPlay(Green) || len(p.Pawns(Green)) != 0 || g.Turn() != Yellow {
		t.Errorf("after green left: %s", p)
	}
	if err := g.Remove(Yellow); err != nil {
		t.Fatal(err)
	}
	if !g.Over() || g.Winner() != Red || !g.Forfeit() {
		t.Errorf("last player left: over=%v winner=%s forfeit=%v", g.Over(), g.Winner(), g.Forfeit())
	}
}

func TestWrongTurnAndIllegalMove(t *testing.T) {
	g, _ := NewGame([]Color{Red, Green}, Red, Rules{})
	if err := g.Check(Green, PhaseRoll); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("green rolling for red: %v", err)
	}
	if err := g.Move(mustMove(t, "home-c1")); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("move before roll: %v", err)
	}
	g.Roll(fixed(4))
	if err := g.Move(mustMove(t, "home-c1")); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("wrong distance: %v", err)
	}
}
