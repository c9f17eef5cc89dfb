package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runSelfplay(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = selfplayCommand(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestSelfplayJSON(t *testing.T) {
	args := []string{"-games", "6", "-players", "greedy,easy,greedy", "-seed", "3", "-json"}
	code, out, errOut := runSelfplay(args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var got struct {
		Games int `json:"games"`
		Seats []struct {
			Player string `json:"player"`
			Wins   int    `json:"wins"`
		} `json:"seats"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if got.Games != 6 || len(got.Seats) != 3 {
		t.Fatalf("games %d, %d seats; want 6 games, 3 seats (output %q)", got.Games, len(got.Seats), out)
	}
	total := 0
	for i, want := range []string{"greedy", "easy", "greedy"} {
		if got.Seats[i].Player != want {
			t.Errorf("seat %d player %q, want %q", i, got.Seats[i].Player, want)
		}
		total += got.Seats[i].Wins
	}
	if total != 6 {
		t.Errorf("wins add up to %d, want 6", total)
	}
	if _, again, _ := runSelfplay(args...); again != out {
		t.Errorf("same seed, different results: %q then %q", out, again)
	}
}

func TestSelfplayText(t *testing.T) {
	code, out, errOut := runSelfplay("-games", "2", "-players", "normal,easy")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"2 games", "normal", "easy", "95% interval", "average game length"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSelfplayErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"no players", []string{"-games", "2"}},
		{"one player", []string{"-players", "hard"}},
		{"five players", []string{"-players", "easy,easy,easy,easy,easy"}},
		{"unknown level", []string{"-players", "hard,master"}},
		{"no games", []string{"-games", "0", "-players", "hard,greedy"}},
		{"negative first", []string{"-first", "-1", "-players", "hard,greedy"}},
		{"bad flag", []string{"-gmaes", "3", "-players", "hard,greedy"}},
		{"extra argument", []string{"-players", "hard,greedy", "start"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runSelfplay(tt.args...)
			if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "malefiz: selfplay: ") {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and a one-line error", code, out, errOut)
			}
		})
	}
}

func TestWilson(t *testing.T) {
	lo, hi := wilson(50, 100)
	if lo < 0.40 || lo > 0.41 || hi < 0.59 || hi > 0.60 {
		t.Errorf("wilson(50, 100) = %.4f, %.4f; want about 0.4038, 0.5962", lo, hi)
	}
	if lo, hi := wilson(0, 10); lo != 0 || hi < 0.27 || hi > 0.28 {
		t.Errorf("wilson(0, 10) = %.4f, %.4f; want 0, about 0.2775", lo, hi)
	}
}

func TestSelfplayFirstSplitsARun(t *testing.T) {
	wins := func(args ...string) []int {
		t.Helper()
		code, out, errOut := runSelfplay(append([]string{"-players", "greedy,easy", "-seed", "5", "-json"}, args...)...)
		require.Equal(t, 0, code, "stderr %q", errOut)
		var got struct {
			Seats []struct {
				Wins int `json:"wins"`
			} `json:"seats"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &got))
		return []int{got.Seats[0].Wins, got.Seats[1].Wins}
	}
	all := wins("-games", "8")
	a, b := wins("-games", "5"), wins("-games", "3", "-first", "5")
	assert.Equal(t, all, []int{a[0] + b[0], a[1] + b[1]}, "games 0-7 against 0-4 plus 5-7")
}
