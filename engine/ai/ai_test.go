package ai

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/malefiz-discord/malefiz/engine"
)

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in      string
		want    Level
		wantErr bool
	}{
		{"easy", Easy, false},
		{"normal", Normal, false},
		{"hard", Hard, false},
		{"greedy", Greedy, false},
		{"Hard", "", true},
		{"", "", true},
		{"expert", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseLevel(tt.in)
			if tt.wantErr {
				if !errors.Is(err, ErrUnknownLevel) {
					t.Fatalf("ParseLevel(%q) error = %v, want ErrUnknownLevel", tt.in, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseLevel(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestLevels(t *testing.T) {
	if got, want := Levels(), []Level{Easy, Normal, Hard}; !slices.Equal(got, want) {
		t.Fatalf("Levels() = %v, want %v", got, want)
	}
	for _, l := range append(Levels(), Greedy) {
		if _, err := New(l, 1); err != nil {
			t.Errorf("New(%q): %v", l, err)
		}
	}
	if _, err := New("expert", 1); !errors.Is(err, ErrUnknownLevel) {
		t.Errorf("New(expert) error = %v, want ErrUnknownLevel", err)
	}
}

// playGame plays one game between the levels (seats in order, Red first)
// with dice and players seeded from seed, creating a player per decision
// as the bot does. It returns the winner's index and the moves played.
func playGame(t testing.TB, levels []Level, rules engine.Rules, seed uint64) (int, []engine.Move) {
	t.Helper()
	colors := []engine.Color{engine.Red, engine.Blue}
	if len(levels) > 2 {
		colors = []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}[:len(levels)]
	}
	g, err := engine.NewGame(colors, engine.Red, rules)
	if err != nil {
		t.Fatal(err)
	}
	dice := rand.New(rand.NewPCG(seed, 99))
	var played []engine.Move
	for !g.Over() {
		if g.TurnNumber() > 5000 {
			t.Fatalf("seed %d: no winner after %d turns", seed, g.TurnNumber())
		}
		roll, err := g.Roll(engine.DiceFunc(func() int { return dice.IntN(6) + 1 }))
		if err != nil {
			t.Fatal(err)
		}
		moves := g.LegalMoves()
		if len(moves) == 0 {
			continue
		}
		seat := slices.Index(colors, g.Turn())
		p, err := New(levels[seat], seed*1000003+uint64(g.TurnNumber()))
		if err != nil {
			t.Fatal(err)
		}
		m := p.Choose(g.Position(), roll, g.Rules(), moves)
		if !slices.Contains(moves, m) {
			t.Fatalf("seed %d: %s chose %s, not among the legal moves of roll %d in %s", seed, levels[seat], m, roll, g.Position())
		}
		if err := g.Move(m); err != nil {
			t.Fatal(err)
		}
		played = append(played, m)
	}
	return slices.Index(colors, g.Winner()), played
}

func TestEveryLevelPlaysLegalGames(t *testing.T) {
	tests := []struct {
		name   string
		levels []Level
		rules  engine.Rules
	}{
		{"easy-greedy", []Level{Easy, Greedy}, engine.Rules{}},
		{"normal-easy-greedy", []Level{Normal, Easy, Greedy}, engine.Rules{}},
		{"four house rules", []Level{Normal, Easy, Greedy, Greedy}, engine.Rules{SixAgain: true, SafeRow2: true}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if winner, _ := playGame(t, tt.levels, tt.rules, uint64(i)+1); winner < 0 {
				t.Fatal("the game ended without a winner")
			}
		})
	}
}

func TestDecisionsReplay(t *testing.T) {
	levels := []Level{Normal, Greedy, Easy}
	_, first := playGame(t, levels, engine.Rules{}, 7)
	_, again := playGame(t, levels, engine.Rules{}, 7)
	if !slices.Equal(first, again) {
		t.Fatal("the same seeds played two different games")
	}
}

func TestValueTable(t *testing.T) {
	e := newEvaluator(defaultParams)
	pos := mustPosition(t, "players=ry turn=r r= y= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11")
	tab := e.table(pos.BarricadeSet())
	sq := func(name string) engine.Square {
		s, err := engine.ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// Next to the goal every pawn needs one exact roll: six turns.
	for _, name := range []string{"i13", "h13", "f13", "d13"} {
		if got := tab.sq[sq(name)]; got < 5.99 || got > 6.01 {
			t.Errorf("value of %s = %.2f, want 6", name, got)
		}
	}
	if got := tab.sq[engine.Goal]; got != 0 {
		t.Errorf("value of the goal = %v, want 0", got)
	}
	// Farther is slower, and a barricade in the way costs time.
	if a, b := tab.sq[sq("a13")], tab.sq[sq("a11")]; a >= b {
		t.Errorf("value of a13 %.2f not below a11 %.2f", a, b)
	}
	if a, b := tab.sq[sq("i11")], tab.sq[sq("i5")]; !(a < b) {
		t.Errorf("value of i11 %.2f not below i5 %.2f behind barricades", a, b)
	}
	if tab.home[engine.Red] <= tab.sq[sq("c1")] {
		t.Errorf("house %.2f not slower than c1 %.2f", tab.home[engine.Red], tab.sq[sq("c1")])
	}
}

// samplePositions plays a game between the levels and returns every
// every-th position with the roll that was made there and its legal moves.
func samplePositions(t testing.TB, levels []Level, rules engine.Rules, seed uint64, every int) []decision {
	t.Helper()
	colors := []engine.Color{engine.Red, engine.Blue}
	if len(levels) > 2 {
		colors = []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}[:len(levels)]
	}
	g, err := engine.NewGame(colors, engine.Red, rules)
	if err != nil {
		t.Fatal(err)
	}
	dice := rand.New(rand.NewPCG(seed, 5))
	var out []decision
	for !g.Over() {
		roll, err := g.Roll(engine.DiceFunc(func() int { return dice.IntN(6) + 1 }))
		if err != nil {
			t.Fatal(err)
		}
		moves := g.LegalMoves()
		if len(moves) == 0 {
			continue
		}
		if g.TurnNumber()%every == 0 {
			out = append(out, decision{g.Position(), roll, rules, moves})
		}
		p, _ := New(levels[slices.Index(colors, g.Turn())], seed+uint64(g.TurnNumber()))
		if err := g.Move(p.Choose(g.Position(), roll, rules, moves)); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// decision is a position and roll where a player must choose.
type decision struct {
	pos   engine.Position
	roll  int
	rules engine.Rules
	moves []engine.Move
}

func TestHardChoosesLegalMovesAndReplays(t *testing.T) {
	decisions := samplePositions(t, []Level{Greedy, Greedy}, engine.Rules{}, 1, 9)
	decisions = append(decisions, samplePositions(t, []Level{Greedy, Greedy, Greedy, Greedy}, engine.Rules{SixAgain: true, SafeRow2: true}, 2, 15)...)
	if len(decisions) < 10 {
		t.Fatalf("only %d sampled positions", len(decisions))
	}
	for i, d := range decisions {
		a, _ := New(Hard, uint64(i))
		b, _ := New(Hard, uint64(i))
		got := a.Choose(d.pos, d.roll, d.rules, d.moves)
		if !slices.Contains(d.moves, got) {
			t.Fatalf("%s roll %d: hard chose %s, not a legal move", d.pos, d.roll, got)
		}
		if again := b.Choose(d.pos, d.roll, d.rules, d.moves); again != got {
			t.Fatalf("%s roll %d: hard chose %s, then %s with the same seed", d.pos, d.roll, got, again)
		}
	}
}

func TestForcedMoves(t *testing.T) {
	pos := engine.StartPosition()
	moves := pos.Moves(6, engine.Rules{})
	if len(moves) != 1 {
		t.Fatalf("start roll 6: %d moves, want 1", len(moves))
	}
	for _, l := range append(Levels(), Greedy) {
		p, _ := New(l, 1)
		if got := p.Choose(pos, 6, engine.Rules{}, moves); got != moves[0] {
			t.Errorf("%s chose %s, want the only move %s", l, got, moves[0])
		}
		if got := p.Choose(pos, 6, engine.Rules{}, nil); got != NoMove {
			t.Errorf("%s chose %s from no moves, want NoMove", l, got)
		}
	}
}

func TestSensibleMoves(t *testing.T) {
	const bars = "a3,e3,i3,m3,q3,g7,k7,i9"
	tests := []struct {
		name     string
		position string
		roll     int
		levels   []Level
		want     func(engine.Move) bool
		wantText string
	}{
		{
			name:     "takes the win",
			position: "players=rb turn=r r=h13,c5 b=j13 x=" + bars + ",i10,i11",
			roll:     2,
			levels:   []Level{Easy, Normal, Hard, Greedy},
			want:     func(m engine.Move) bool { return m.To == engine.Goal },
			wantText: "a move to the goal",
		},
		{
			name:     "captures the leader",
			position: "players=rb turn=r r=d13,c5 b=g13,e1 x=" + bars + ",i10,i11",
			roll:     3,
			levels:   []Level{Normal, Hard, Greedy},
			want:     func(m engine.Move) bool { return m.To.String() == "g13" },
			wantText: "d13-g13",
		},
		{
			name:     "blocks the leader at the goal",
			position: "players=rb turn=r r=i10 b=h13 x=" + bars + ",i11",
			roll:     1,
			levels:   []Level{Normal, Hard},
			want:     func(m engine.Move) bool { return m.To.String() == "i11" && m.Place.String() == "i13" },
			wantText: "i10-i11/i13",
		},
	}
	for _, tt := range tests {
		pos := mustPosition(t, tt.position)
		moves := pos.Moves(tt.roll, engine.Rules{})
		for _, l := range tt.levels {
			t.Run(tt.name+"/"+string(l), func(t *testing.T) {
				p, _ := New(l, 1)
				if got := p.Choose(pos, tt.roll, engine.Rules{}, moves); !tt.want(got) {
					t.Errorf("%s roll %d: chose %s, want %s", tt.position, tt.roll, got, tt.wantText)
				}
			})
		}
	}
}
