package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/engine/ai"
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
		{"unknown level", []string{"-players", "hard,grandmaster"}},
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

func TestSelfplayMasterFiles(t *testing.T) {
	// -master FILE,FILE gives each master of -players its own model:
	// linear or a network, an empty name the embedded one.
	dir := t.TempDir()
	lin, err := ai.MarshalTDModel(ai.HardTDModel(), ai.TDTrainInfo{Players: []int{2}})
	require.NoError(t, err)
	linFile := filepath.Join(dir, "hard.json")
	require.NoError(t, os.WriteFile(linFile, lin, 0o644))
	nnFile := "../engine/ai/nn.json"
	masters, err := readMasters([]string{linFile, "", nnFile})
	require.NoError(t, err)
	require.Len(t, masters, 3)
	assert.NotNil(t, masters[0])
	assert.Nil(t, masters[1], "the embedded model")
	assert.NotNil(t, masters[2])
	_, err = readMasters([]string{filepath.Join(dir, "none.json")})
	assert.Error(t, err)
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"features": []}`), 0o644))
	_, err = readMasters([]string{bad})
	assert.ErrorContains(t, err, "neither a linear model nor a network")

	code, out, errOut := runSelfplay("-games", "2", "-players", "master,master", "-master", nnFile+",", "-duplicate", "-json")
	require.Equal(t, 0, code, "stderr %q", errOut)
	assert.Contains(t, out, `"deals":1`)
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

func TestSelfplayDuplicate(t *testing.T) {
	type seat struct {
		Player   string    `json:"player"`
		Wins     int       `json:"wins"`
		WinRate  float64   `json:"win_rate"`
		Interval []float64 `json:"interval"`
		DealWins []int     `json:"deal_wins"`
	}
	decode := func(t *testing.T, out string) (games, deals int, seats []seat) {
		t.Helper()
		var got struct {
			Games     int    `json:"games"`
			Duplicate bool   `json:"duplicate"`
			Deals     int    `json:"deals"`
			Seats     []seat `json:"seats"`
		}
		dec := json.NewDecoder(strings.NewReader(out))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&got), "output %q", out)
		require.True(t, got.Duplicate)
		return got.Games, got.Deals, got.Seats
	}
	tests := []struct {
		name    string
		players string
		games   int
		// even: the players are alike, so every deal's games are the same
		// game with the seats swapped and every player wins its share.
		even bool
	}{
		{"two alike players split every deal", "normal,normal", 12, true},
		{"three alike players split every deal", "normal,normal,normal", 9, true},
		{"a stronger player", "normal,easy", 10, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runSelfplay("-players", tt.players, "-games", fmt.Sprint(tt.games), "-seed", "4", "-duplicate", "-json")
			require.Equal(t, 0, code, "stderr %q", errOut)
			games, deals, seats := decode(t, out)
			n := len(seats)
			assert.Equal(t, tt.games, games)
			assert.Equal(t, tt.games/n, deals)
			total := 0
			for _, s := range seats {
				total += s.Wins
				assert.InDelta(t, float64(s.Wins)/float64(games), s.WinRate, 1e-9, "%s", s.Player)
				require.Len(t, s.Interval, 2)
				assert.LessOrEqual(t, s.Interval[0], s.WinRate)
				assert.GreaterOrEqual(t, s.Interval[1], s.WinRate)
				require.Len(t, s.DealWins, n+1)
				won, counted := 0, 0
				for k, c := range s.DealWins {
					won += k * c
					counted += c
				}
				assert.Equal(t, s.Wins, won, "deal_wins adds up to the wins")
				assert.Equal(t, deals, counted, "deal_wins counts every deal")
				if tt.even {
					assert.Equal(t, deals, s.Wins, "%s wins one game of each deal", s.Player)
					assert.Equal(t, deals, s.DealWins[1])
					assert.InDelta(t, 0, s.Interval[1]-s.Interval[0], 1e-9, "no spread between deals")
				}
			}
			assert.Equal(t, tt.games, total)
			if !tt.even {
				assert.Greater(t, seats[0].Wins, seats[1].Wins, "normal beats easy")
			}
		})
	}
}

func TestSelfplayDuplicateDealsDiffer(t *testing.T) {
	// Without duplicate dice, two alike players do not split every pair of
	// games: the check above is not true of any dice.
	code, out, errOut := runSelfplay("-players", "normal,normal", "-games", "12", "-seed", "4", "-duplicate")
	require.Equal(t, 0, code, "stderr %q", errOut)
	assert.Contains(t, out, "split: 6")
	var results []gameResult
	for i := range 12 {
		results = append(results, playGame([]ai.Level{ai.Normal, ai.Normal}, func(_ int, l ai.Level, seed uint64) (ai.Player, error) { return ai.New(l, seed) }, engine.Rules{}, 4, i, false))
	}
	splits := 0
	for _, d := range pairedScores(results, 2) {
		if d[0] == 0.5 {
			splits++
		}
	}
	assert.Less(t, splits, 6, "independent dice split every pair")
}

func TestSelfplayDuplicateNeedsWholeDeals(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"odd games", []string{"-players", "easy,greedy", "-games", "3"}},
		{"first inside a deal", []string{"-players", "easy,greedy", "-games", "4", "-first", "1"}},
		{"four players, six games", []string{"-players", "easy,greedy,easy,greedy", "-games", "6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runSelfplay(append(tt.args, "-duplicate")...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, "multiples")
		})
	}
}

func TestPairedInterval(t *testing.T) {
	tests := []struct {
		name         string
		deals        []dealScore
		mean, lo, hi float64
	}{
		{"every deal split", []dealScore{{0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}}, 0.5, 0.5, 0.5},
		{"won, lost or split", []dealScore{{1, 0}, {0, 1}, {1, 0}, {0, 1}, {0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}}, 0.5, 0.5 - 1.959963984540054*math.Sqrt(1.0/7/8), 0.5 + 1.959963984540054*math.Sqrt(1.0/7/8)},
		{"clamped at 1", []dealScore{{1, 0}, {1, 0}, {0.5, 0.5}}, 2.5 / 3, 2.5/3 - 1.959963984540054*math.Sqrt(1.0/12/3), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mean, lo, hi := pairedInterval(tt.deals, 0)
			assert.InDelta(t, tt.mean, mean, 1e-9)
			assert.InDelta(t, tt.lo, lo, 1e-9)
			assert.InDelta(t, tt.hi, hi, 1e-9)
		})
	}
}
