package engine

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// sameState checks that got plays on exactly as want: position, phase,
// turn, roll, legal moves, pending move, winner. It compares with == first
// and asks require only for the message of a difference: FuzzSnapshot
// checks every step of its games, and require's reflection and call
// stacks were most of its time.
func sameState(t *testing.T, got, want *Game) {
	t.Helper()
	wp, wok := want.Pending()
	gp, gok := got.Pending()
	if want.Position() == got.Position() && want.Phase() == got.Phase() && want.TurnNumber() == got.TurnNumber() &&
		want.Rolled() == got.Rolled() && sameSlice(want.LegalMoves(), got.LegalMoves()) && wok == gok &&
		(!wok || wp == gp && sameSlice(want.PlacementSquares(), got.PlacementSquares())) &&
		want.Winner() == got.Winner() && want.Forfeit() == got.Forfeit() &&
		want.StartPosition() == got.StartPosition() && want.Rules() == got.Rules() {
		return
	}
	require.Equal(t, want.Position(), got.Position())
	require.Equal(t, want.Phase(), got.Phase())
	require.Equal(t, want.TurnNumber(), got.TurnNumber())
	require.Equal(t, want.Rolled(), got.Rolled())
	require.Equal(t, want.LegalMoves(), got.LegalMoves())
	require.Equal(t, wok, gok)
	if wok {
		require.Equal(t, wp, gp)
		require.Equal(t, want.PlacementSquares(), got.PlacementSquares())
	}
	require.Equal(t, want.Winner(), got.Winner())
	require.Equal(t, want.Forfeit(), got.Forfeit())
	require.Equal(t, want.StartPosition(), got.StartPosition())
	require.Equal(t, want.Rules(), got.Rules())
}

// FuzzSnapshot plays random games and, after every step, decodes the
// snapshot and checks that the decoded game is the same state, writes the
// same snapshot, keeps the current turn's records and the last move, and
// that a game resumed from the snapshot and the original play on alike.
func FuzzSnapshot(f *testing.F) {
	for seed := range uint64(6) {
		f.Add(seed, uint8(seed%3+2), seed%2 == 0, seed%3 == 0)
	}
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, sixAgain, safeRow2 bool) {
		n := int(players%3) + 2
		playRandom(t, seed, n, Rules{SixAgain: sixAgain, SafeRow2: safeRow2}, 3000, func(g *Game) {
			// Every step: the checks that pass are plain comparisons (see
			// sameState).
			data, err := g.MarshalSnapshot()
			if err != nil {
				t.Fatal(err)
			}
			var back Game
			if err := back.UnmarshalSnapshot(data); err != nil {
				t.Fatalf("%v: %s", err, data)
			}
			sameState(t, &back, g)
			again, err := back.MarshalSnapshot()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, again) {
				t.Fatalf("snapshot not canonical:\n%s\n%s", data, again)
			}
			if recent, history := g.recent(), back.History(); !slices.EqualFunc(recent, history, sameRecord) {
				require.Equal(t, recent, history)
			}
			// One more step on both, with the same die.
			if g.Phase() == PhaseRoll && !g.Over() {
				a, b := *g, back
				a.history = slices.Clone(a.history)
				_, errA := a.Roll(DiceFunc(func() int { return 3 }))
				_, errB := b.Roll(DiceFunc(func() int { return 3 }))
				if errA != errB {
					require.Equal(t, errA, errB)
				}
				sameState(t, &b, &a)
			}
		})
	})
}

// sameRecord reports whether a and b are the same record, as require.Equal
// sees it.
func sameRecord(a, b Record) bool {
	return a.Kind == b.Kind && a.Color == b.Color && a.Turn == b.Turn && a.Roll == b.Roll &&
		a.Move == b.Move && a.Captured == b.Captured && sameSlice(a.Path, b.Path)
}

// sameSlice reports whether a and b hold the same elements and are both
// nil or both not, as require.Equal (reflect.DeepEqual) sees slices.
func sameSlice[T comparable](a, b []T) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

func TestSnapshotIsSmallAndReadsTheOldFormat(t *testing.T) {
	g := playRandom(t, 42, 4, Rules{}, 600, func(*Game) {})
	full, err := g.MarshalBinary()
	require.NoError(t, err)
	snap, err := g.MarshalSnapshot()
	require.NoError(t, err)
	require.Less(t, len(snap), 1500, "a snapshot does not grow with the game")
	require.Greater(t, len(full), 3*len(snap))

	var old Game
	require.NoError(t, old.UnmarshalSnapshot(full), "the full format still loads")
	sameState(t, &old, g)
}

func TestUnmarshalSnapshotRefusesWhatTheRulesDoNotAllow(t *testing.T) {
	g, err := NewGame([]Color{Red, Yellow}, Red, Rules{})
	require.NoError(t, err)
	_, err = g.Roll(DiceFunc(func() int { return 4 }))
	require.NoError(t, err)
	good, err := g.MarshalSnapshot()
	require.NoError(t, err)
	for name, bad := range map[string]string{
		"not json":      `{`,
		"version":       `{"v":9}`,
		"phase":         string(bytes.Replace(good, []byte(`"phase":"move"`), []byte(`"phase":"jump"`), 1)),
		"roll":          string(bytes.Replace(good, []byte(`"roll":4`), []byte(`"roll":7`), 1)),
		"position":      string(bytes.Replace(good, []byte(`"pos":"players=ry`), []byte(`"pos":"players=rr`), 1)),
		"winner early":  string(bytes.Replace(good, []byte(`"phase":"move"`), []byte(`"phase":"move","winner":"red"`), 1)),
		"over no pawn":  string(bytes.Replace(good, []byte(`"phase":"move"`), []byte(`"phase":"over","winner":"red"`), 1)),
		"pending wrong": string(bytes.Replace(good, []byte(`"phase":"move"`), []byte(`"phase":"place","pending":"home-a2"`), 1)),
	} {
		var back Game
		require.ErrorIs(t, back.UnmarshalSnapshot([]byte(bad)), ErrInvalidGame, name)
	}
}

// BenchmarkUnmarshalSnapshot measures loading a game of 200 moves from its
// snapshot, against replaying its whole history (the full format).
func BenchmarkUnmarshalSnapshot(b *testing.B) {
	var g *Game
	for seed := uint64(1); ; seed++ {
		g = playRandom(&testing.T{}, seed, 4, Rules{}, 2000, func(*Game) {})
		moves := 0
		for _, r := range g.History() {
			if r.Kind == RecordMove {
				moves++
			}
		}
		if moves >= 200 {
			break
		}
	}
	snap, _ := g.MarshalSnapshot()
	full, _ := g.MarshalBinary()
	b.Run("snapshot", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var back Game
			if err := back.UnmarshalSnapshot(snap); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("replay", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var back Game
			if err := back.UnmarshalBinary(full); err != nil {
				b.Fatal(err)
			}
		}
	})
}
