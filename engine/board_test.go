package engine

import "testing"

func TestBoardShape(t *testing.T) {
	edges := 0
	for s := Square(0); s < NumSquares; s++ {
		for _, n := range Neighbors(s) {
			if n > s {
				edges++
			}
			found := false
			for _, back := range Neighbors(n) {
				found = found || back == s
			}
			if !found {
				t.Errorf("%s-%s is not symmetric", s, n)
			}
		}
	}
	if edges != 121 {
		t.Errorf("got %d connections, want 121", edges)
	}
	rows := map[int]string{1: "abcdefghijklmnopq", 2: "aeimq", 4: "cgko", 6: "em", 8: "gk", 10: "i", 12: "aq", 14: "i"}
	for row, cols := range rows {
		n := 0
		for col := range 17 {
			if SquareAt(col, row) != NoSquare {
				n++
			}
		}
		if n != len(cols) {
			t.Errorf("row %d has %d squares, want %d", row, n, len(cols))
		}
	}
	if Goal.String() != "i14" || len(Neighbors(Goal)) != 1 {
		t.Errorf("goal %s with %d neighbours, want i14 with 1", Goal, len(Neighbors(Goal)))
	}
}

func TestEntriesAre39StepsFromGoal(t *testing.T) {
	for c, want := range map[Color]string{Red: "c1", Green: "g1", Yellow: "k1", Blue: "o1"} {
		if got := Entry(c).String(); got != want {
			t.Errorf("entry of %s = %s, want %s", c, got, want)
		}
		if d := DistanceToGoal(Entry(c)); d != 39 {
			t.Errorf("entry of %s is %d steps from the goal, want 39", c, d)
		}
	}
}

func TestSquareNames(t *testing.T) {
	for s := Square(0); s < NumSquares; s++ {
		got, err := ParseSquare(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSquare(%q) = %v, %v", s, got, err)
		}
	}
	for _, bad := range []string{"", "a", "b2", "r1", "a0", "a15", "i01", "A1", "a1x", "i-1"} {
		if _, err := ParseSquare(bad); err == nil {
			t.Errorf("ParseSquare(%q) accepted", bad)
		}
	}
}
