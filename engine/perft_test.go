package engine

import "testing"

func TestPerftStart(t *testing.T) {
	want := []uint64{1, 176, 24848, 3307224}
	for depth, w := range want {
		if testing.Short() && depth > 2 {
			break
		}
		if got := Perft(StartPosition(), depth); got != w {
			t.Errorf("perft(start, %d) = %d, want %d", depth, got, w)
		}
	}
}

func TestPerftOverPosition(t *testing.T) {
	p, err := ParsePosition("players=ry turn=y r=i14 y= x=a3")
	if err != nil {
		t.Fatal(err)
	}
	for depth, want := range []uint64{1, 0, 0} {
		if got := Perft(p, depth); got != want {
			t.Errorf("perft(over, %d) = %d, want %d", depth, got, want)
		}
	}
}

func BenchmarkPerft3Start(b *testing.B) {
	p := StartPosition()
	for b.Loop() {
		Perft(p, 3)
	}
}
