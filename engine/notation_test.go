package engine

import (
	"errors"
	"testing"
)

func TestParsePositionErrors(t *testing.T) {
	tests := map[string]string{
		"unknown field":        "players=rg turn=r r= g= x= z=1",
		"missing field":        "players=rg turn=r r= x=",
		"missing players":      "turn=r r= x=",
		"repeated field":       "players=rg turn=r r= g= g= x=",
		"no such square":       "players=rg turn=r r=b2 g= x=",
		"bad square text":      "players=rg turn=r r=zz g= x=",
		"six pawns":            "players=rg turn=r r=a1,b1,c1,d1,e1,f1 g= x=",
		"two pawns one square": "players=rg turn=r r=a1 g=a1 x=",
		"pawn on barricade":    "players=rg turn=r r=a3 g= x=a3",
		"barricade on row 1":   "players=rg turn=r r= g= x=a1",
		"barricade on goal":    "players=rg turn=r r= g= x=i14",
		"turn not in play":     "players=rg turn=b r= g= x=",
		"turn not a colour":    "players=rg turn=x r= g= x=",
		"field without =":      "players=rg turn=r r g= x=",
		"colour twice":         "players=rr turn=r r= x=",
		"unknown colour":       "players=rx turn=r r= x=",
		"no players":           "players= turn=r x=",
		"colour not in play":   "players=rg turn=r r= g= b= x=",
		"empty":                "",
		"barricade twice":      "players=rg turn=r r= g= x=a3,a3",
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := ParsePosition(text); !errors.Is(err, ErrInvalidPosition) {
				t.Errorf("ParsePosition(%q) err = %v, want ErrInvalidPosition", text, err)
			}
		})
	}
}

func TestPositionCanonical(t *testing.T) {
	in := "x=i13,a3 b=o1 turn=y y=i14 r=c1,a2 players=rby"
	want := "players=ryb turn=y r=c1,a2 y=i14 b=o1 x=a3,i13"
	p, err := ParsePosition(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !p.Over() || p.Winner() != Yellow {
		t.Errorf("a pawn on the goal: over=%v winner=%s", p.Over(), p.Winner())
	}
	start := "players=rgyb turn=r r= g= y= b= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13"
	if got := StartPosition().String(); got != start {
		t.Errorf("start = %q, want %q", got, start)
	}
}

func TestMoveNotation(t *testing.T) {
	for _, s := range []string{"home-c1", "c1-e3/h11", "h13-i14"} {
		m, err := ParseMove(s)
		if err != nil || m.String() != s {
			t.Errorf("ParseMove(%q) = %v, %v", s, m, err)
		}
	}
	for _, s := range []string{"", "c1", "c1-", "home-home", "c1-e3/", "c1-z9", "x-c1", "c1-e3/a"} {
		if _, err := ParseMove(s); !errors.Is(err, ErrInvalidMove) {
			t.Errorf("ParseMove(%q) err = %v, want ErrInvalidMove", s, err)
		}
	}
}

// FuzzPositionNotation checks that parsing never panics and that every
// accepted position prints in canonical form and reads back to itself.
func FuzzPositionNotation(f *testing.F) {
	for _, s := range []string{"start", "players=ry turn=r r=h13 y=j13 x=a3,d5", "players=rgyb turn=g r=c1 g=f1,g1 y=h1 b= x=a3", "players=r turn=r r=i14 x="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePosition(text)
		if err != nil {
			return
		}
		canon := p.String()
		q, err := ParsePosition(canon)
		if err != nil {
			t.Fatalf("canonical %q does not parse: %v", canon, err)
		}
		if q != p || q.String() != canon {
			t.Fatalf("%q -> %q -> %q", text, canon, q.String())
		}
	})
}

// FuzzMoveNotation checks that move notation round-trips.
func FuzzMoveNotation(f *testing.F) {
	for _, s := range []string{"home-c1", "c1-e3/h11", "h13-i14"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			return
		}
		again, err := ParseMove(m.String())
		if err != nil || again != m {
			t.Fatalf("%q -> %q -> %v, %v", text, m, again, err)
		}
	})
}
