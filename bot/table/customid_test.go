package table

import (
	"errors"
	"testing"
)

func TestCustomIDRoundTrip(t *testing.T) {
	for _, c := range []CustomID{
		{Action: ActJoin, Game: 1},
		{Action: ActRoll, Game: 42, Turn: 17},
		{Action: ActMove, Game: 42, Turn: 17, Arg: "home-c1"},
		{Action: ActPlace, Game: MaxGameID, Turn: maxTurnNumber, Arg: "h11"},
	} {
		got, err := ParseCustomID(c.String())
		if err != nil || got != c {
			t.Errorf("ParseCustomID(%q) = %+v, %v; want %+v", c.String(), got, err, c)
		}
		if len(c.String()) > maxCustomID {
			t.Errorf("%q is longer than %d", c.String(), maxCustomID)
		}
	}
}

func TestParseCustomIDRejects(t *testing.T) {
	for _, s := range []string{"", "mf", "mf/roll/1", "xx/roll/1/2", "mf/nuke/1/2", "mf/roll/0/2", "mf/roll/-1/2",
		"mf/roll/01/2", "mf/roll/1/-2", "mf/roll/1/2/", "mf/roll/1/x", "mf/roll/99999999999999999999/1"} {
		if _, err := ParseCustomID(s); !errors.Is(err, ErrBadCustomID) {
			t.Errorf("ParseCustomID(%q) err = %v, want ErrBadCustomID", s, err)
		}
	}
}

func FuzzCustomID(f *testing.F) {
	f.Add("mf/move/42/17/c1-e3")
	f.Add("mf/roll/1/0")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCustomID(s)
		if err != nil {
			return
		}
		if again, err := ParseCustomID(c.String()); err != nil || again != c || c.String() != s {
			t.Fatalf("%q -> %+v -> %q", s, c, c.String())
		}
	})
}
