package render

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

// TestBadgesCoverOnlyTheirTarget plays random four-player games and letters
// every roll's destinations as the turn message does: no letter covers
// another letter, nor a pawn other than the one on its own square.
func TestBadgesCoverOnlyTheirTarget(t *testing.T) {
	for _, tc := range []struct {
		name  string
		width int
		seed  uint64
	}{
		{"default width", DefaultWidth, 1},
		{"640 pixels", 640, 2},
		{"400 pixels", 400, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := layerFor(tc.width)
			rng := rand.New(rand.NewPCG(tc.seed, 9))
			scenes, badges, far := 0, 0, 0
			for game := 0; game < 6; game++ {
				g, err := engine.NewGame([]engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}, engine.Red, engine.Rules{})
				require.NoError(t, err)
				for turn := 0; turn < 400 && !g.Over(); turn++ {
					if _, err := g.Roll(engine.DiceFunc(func() int { return rng.IntN(6) + 1 })); err != nil {
						t.Fatal(err)
					}
					moves := g.LegalMoves()
					if len(moves) == 0 {
						continue
					}
					s := NewScene(g.Position())
					s.Labels = DestinationLabels(moves)
					bs := l.badgesOf(&s)
					placed := l.placeBadges(bs)
					require.Len(t, placed, len(bs))
					scenes++
					for i, p := range placed {
						badges++
						if x, y := l.g.at(bs[i].target); bs[i].target != engine.NoSquare && math.Hypot(p.x-x, p.y-y) > 1.1*l.g.u {
							far++
						}
						for _, q := range placed[:i] {
							assert.False(t, p.rect.Overlaps(q.rect), "%s: badge of %s covers another letter", g.Position(), bs[i].target)
						}
						for _, a := range bs[i].avoid {
							assert.False(t, p.rect.Overlaps(a), "%s: badge of %s covers another pawn", g.Position(), bs[i].target)
						}
					}
					require.NoError(t, g.Move(moves[rng.IntN(len(moves))]))
				}
			}
			t.Logf("%d scenes, %d letters, %d of them more than a square's width from their square", scenes, badges, far)
		})
	}
}
