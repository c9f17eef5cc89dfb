package table

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkCardWithChances is the scoreboard card of a running game, with
// the chances hidden and shown: what showing them adds to each turn.
func BenchmarkCardWithChances(b *testing.B) {
	tb := running(b, "players=rg turn=r r=e2,c5,k9 g=i7,m5 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", RollButton, dice(6))
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			tb.Settings.Chances = on
			for b.Loop() {
				tb.CardMessage()
			}
		})
	}
}

// BenchmarkPlacementView is the turn message that asks where a captured
// barricade goes, its suggestions judged by ai.SuggestPlacements: each
// render the first of its position (the table keeps the squares for the
// next view of the same position).
func BenchmarkPlacementView(b *testing.B) {
	tb := running(b, "players=rg turn=r r=e2 g=i7 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", RollButton, dice(1))
	turn := tb.State.TurnNumber()
	require.NoError(b, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	require.NoError(b, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "e2-e3"}))
	for b.Loop() {
		tb.advised = nil
		tb.TurnView(TurnOptions{})
	}
}

// BenchmarkConclude is the commit's extra work when a game ends: the
// replay of its whole log, the results, and the chances along the game
// for the turning points and the chart.
func BenchmarkConclude(b *testing.B) {
	tb, log := playedOut(b)
	result := tb.effects
	b.Logf("%d turns", tb.State.TurnNumber())
	for b.Loop() {
		tb.effects = append([]Effect(nil), result...)
		for i := range tb.effects {
			if tb.effects[i].Message != nil {
				m := *tb.effects[i].Message
				m.Embeds = append([]Embed(nil), m.Embeds...)
				tb.effects[i].Message = &m
			}
		}
		if _, err := tb.Conclude(log); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplayAlt is the alt text of /malefiz replay's animation for a
// four-player game of many turns and captures: what it adds to the answer,
// beside drawing the GIF (render's BenchmarkReplayGIF200).
func BenchmarkReplayAlt(b *testing.B) {
	names := []string{"Ann", "Ben", "Cleo", "Dan"}
	tb, log := playedOutBy(b, fourComputers(func(i int) string { return names[i] }), []int{3, 5, 1, 6, 2, 4, 4, 2, 5, 3, 6, 1, 2})
	g, err := Replay(tb.Game, log)
	require.NoError(b, err)
	b.Logf("%d turns, %d records", g.TurnNumber(), len(g.History()))
	for b.Loop() {
		ReplayAlt("en", tb.Game, g)
	}
}
