package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// midGame is a position from the middle of a four-player game.
const midGame = "players=rgyb turn=g r=c1,e5,h11 g=g1,g4,k5,m7 y=k3,o5 b=q2,n11 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i13,c13"

// BenchmarkMovesMidGame measures legal move generation for one roll, each
// roll on its own (roll=0 cycles through all six).
func BenchmarkMovesMidGame(b *testing.B) {
	p, err := ParsePosition(midGame)
	if err != nil {
		b.Fatal(err)
	}
	for roll := 0; roll <= 6; roll++ {
		b.Run(fmt.Sprintf("roll=%d", roll), func(b *testing.B) {
			buf := make([]Move, 0, 256)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				r := roll
				if r == 0 {
					r = i%6 + 1
				}
				buf = p.AppendMoves(buf[:0], r, Rules{})
				i++
			}
		})
	}
}

// BenchmarkMovesMidGameAlloc is BenchmarkMovesMidGame through Moves, which
// allocates the result.
func BenchmarkMovesMidGameAlloc(b *testing.B) {
	p, _ := ParsePosition(midGame)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p.Moves(i%6+1, Rules{})
		i++
	}
}

// BenchmarkRandomGame plays whole random four-player games to a winner and
// reports games per second.
func BenchmarkRandomGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	dice := DiceFunc(func() int { return rng.IntN(6) + 1 })
	b.ReportAllocs()
	for b.Loop() {
		g, _ := NewGame([]Color{Red, Green, Yellow, Blue}, Red, Rules{})
		for !g.Over() {
			if g.Phase() == PhaseRoll {
				g.Roll(dice)
				continue
			}
			moves := g.LegalMoves()
			g.Move(moves[rng.IntN(len(moves))])
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkPawnMovesMidGame measures AppendPawnMoves, the generator a
// search uses (captures unplaced), cycling through the six rolls; compare
// BenchmarkMovesMidGame/roll=0, which expands every placement.
func BenchmarkPawnMovesMidGame(b *testing.B) {
	p, err := ParsePosition(midGame)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]Move, 0, 256)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		buf = p.AppendPawnMoves(buf[:0], i%6+1)
		i++
	}
}
