package engine

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// playRandom plays a random game from seed for at most maxSteps actions,
// calling check after every step.
func playRandom(t *testing.T, seed uint64, players int, rules Rules, maxSteps int, check func(g *Game)) *Game {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	colors := []Color{Red, Green, Yellow, Blue}[:players]
	g, err := NewGame(colors, colors[rng.IntN(players)], rules)
	if err != nil {
		t.Fatal(err)
	}
	dice := DiceFunc(func() int { return rng.IntN(6) + 1 })
	for step := 0; step < maxSteps && !g.Over(); step++ {
		switch g.Phase() {
		case PhaseRoll:
			if rng.IntN(400) == 0 && len(g.Position().Players()) > 1 {
				// Now and then a player leaves (rule 10).
				ps := g.Position().Players()
				if err := g.Remove(ps[rng.IntN(len(ps))]); err != nil {
					t.Fatal(err)
				}
				break
			}
			if _, err := g.Roll(dice); err != nil {
				t.Fatal(err)
			}
		case PhaseMove:
			moves := g.LegalMoves()
			m := moves[rng.IntN(len(moves))]
			if m.Place != NoSquare && rng.IntN(2) == 0 {
				// Choose the capture first, then the placement.
				m.Place = NoSquare
				if err := g.Move(m); err != nil {
					t.Fatal(err)
				}
				sq := g.PlacementSquares()
				if err := g.Place(sq[rng.IntN(len(sq))]); err != nil {
					t.Fatal(err)
				}
				break
			}
			if err := g.Move(m); err != nil {
				t.Fatal(err)
			}
		}
		check(g)
	}
	return g
}

// checkInvariants checks what must hold after every step of any game.
func checkInvariants(t *testing.T, g *Game) {
	t.Helper()
	p := g.Position()
	barricades := len(p.Barricades())
	if barricades != 11 {
		t.Fatalf("%d barricades, want 11: %s", barricades, p)
	}
	for _, b := range p.Barricades() {
		if b.Row() == 1 || b == Goal {
			t.Fatalf("barricade on %s: %s", b, p)
		}
	}
	for c := Red; c <= Blue; c++ {
		if !p.InPlay(c) {
			if len(p.Pawns(c)) != 0 || p.Home(c) != 0 {
				t.Fatalf("%s is out but has pieces: %s", c, p)
			}
			continue
		}
		if n := len(p.Pawns(c)) + p.Home(c); n != PawnsPerColor {
			t.Fatalf("%s has %d pawns: %s", c, n, p)
		}
	}
	// The pawn set is the cells that hold a pawn.
	for q := Square(0); q < NumSquares; q++ {
		if p.PawnSet().Has(q) != p.At(q).IsPawn() {
			t.Fatalf("pawn set has %s: %v, the cell holds %v: %s", q, p.PawnSet().Has(q), p.At(q), p)
		}
	}
	// The cell array holds one piece per square by construction; check that
	// the notation agrees (it rejects two pieces on one square).
	if _, err := ParsePosition(p.String()); err != nil {
		t.Fatalf("position does not re-parse: %v", err)
	}
	onGoal := p.At(Goal).IsPawn()
	if g.Over() != (onGoal || g.Forfeit()) {
		t.Fatalf("over=%v with a pawn on the goal=%v forfeit=%v", g.Over(), onGoal, g.Forfeit())
	}
	if onGoal && g.Winner() != p.At(Goal).Color() {
		t.Fatalf("winner %s but %s stands on the goal", g.Winner(), p.At(Goal).Color())
	}
}

// FuzzRandomGames plays random games and checks the invariants after every
// step, then that the history replays to the same state.
func FuzzRandomGames(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(seed, uint8(seed%3+2), seed%2 == 0, seed%3 == 0)
	}
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, sixAgain, safeRow2 bool) {
		n := int(players%3) + 2
		g := playRandom(t, seed, n, Rules{SixAgain: sixAgain, SafeRow2: safeRow2}, 5000, func(g *Game) { checkInvariants(t, g) })
		data, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back Game
		if err := back.UnmarshalBinary(data); err != nil {
			t.Fatalf("replay: %v", err)
		}
		again, _ := back.MarshalBinary()
		if !bytes.Equal(data, again) || back.Position() != g.Position() || back.Phase() != g.Phase() ||
			back.Winner() != g.Winner() || back.TurnNumber() != g.TurnNumber() || back.Forfeit() != g.Forfeit() {
			t.Fatalf("replayed game differs: %s vs %s", back.Position(), g.Position())
		}
	})
}

func TestRandomGamesReachAWinner(t *testing.T) {
	for seed := range uint64(20) {
		g := playRandom(t, seed, 2+int(seed%3), Rules{}, 200000, func(*Game) {})
		if !g.Over() {
			t.Errorf("seed %d: no winner after 200000 steps", seed)
		}
	}
}

func TestSerializePendingPlacement(t *testing.T) {
	g := mustGameAt(t, "players=rg turn=r r=e2 g=a2 "+stdX, Rules{SafeRow2: true})
	g.Roll(fixed(1))
	if err := g.Move(mustMove(t, "e2-e3")); err != nil {
		t.Fatal(err)
	}
	data, _ := g.MarshalBinary()
	var back Game
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if m, ok := back.Pending(); !ok || m.String() != "e2-e3" || !back.Rules().SafeRow2 {
		t.Errorf("pending %v %v rules %+v", m, ok, back.Rules())
	}
	for _, bad := range []string{"", "{}", `{"v":2}`, `{"v":1,"start":"start","history":["roll 9"]}`, `{"v":1,"start":"start","history":["move c1-d1"]}`} {
		if err := back.UnmarshalBinary([]byte(bad)); err == nil {
			t.Errorf("UnmarshalBinary(%s) accepted", bad)
		}
	}
}
