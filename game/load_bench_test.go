package game

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/store"
)

// longGame plays a random two-player game of at least moves moves and
// returns it still running.
func longGame(tb testing.TB, moves int) *engine.Game {
	rng := rand.New(rand.NewPCG(1, 2))
	for {
		g, err := engine.NewGame([]engine.Color{engine.Red, engine.Blue}, engine.Red, engine.Rules{})
		require.NoError(tb, err)
		dice := engine.DiceFunc(func() int { return rng.IntN(6) + 1 })
		played := 0
		for !g.Over() && played < moves {
			if _, err := g.Roll(dice); err != nil {
				tb.Fatal(err)
			}
			if legal := g.LegalMoves(); len(legal) > 0 {
				// The move that goes least far keeps the game long.
				best := legal[0]
				for _, m := range legal {
					if engine.DistanceToGoal(m.To) > engine.DistanceToGoal(best.To) {
						best = m
					}
				}
				require.NoError(tb, g.Move(best))
				played++
			}
		}
		if !g.Over() {
			return g
		}
	}
}

// BenchmarkLoadGame measures what every command starts with: reading a
// game of 200 moves from the database and decoding its state (the
// snapshot, not a replay of the history), with the server's settings.
func BenchmarkLoadGame(b *testing.B) {
	db, err := store.Open(b.Context(), filepath.Join(b.TempDir(), "malefiz.db"))
	require.NoError(b, err)
	b.Cleanup(func() { _ = db.Close() })
	s := New(Config{Store: db, Layout: textLayout{}})
	g := longGame(b, 200)
	state, err := g.MarshalSnapshot()
	require.NoError(b, err)
	sg := &malefiz.Game{GuildID: "1", ChannelID: "c", HostID: "1", Status: malefiz.StatusRunning, State: state,
		Seats: []malefiz.Seat{{Color: "red", UserID: "1", Name: "Ann"}, {Color: "blue", UserID: "2", Name: "Ben"}}}
	require.NoError(b, db.CreateGame(b.Context(), sg, malefiz.Event{Kind: malefiz.EventStart, Color: "red"}))
	b.Run("store+decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := s.load(b.Context(), sg.ID, "1"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var back engine.Game
			if err := back.UnmarshalSnapshot(state); err != nil {
				b.Fatal(err)
			}
		}
	})
}
