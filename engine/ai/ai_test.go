package ai

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
)

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in      string
		want    Level
		wantErr bool
	}{
		{"easy", Easy, false},
		{"normal", Normal, false},
		{"hard", Hard, false},
		{"greedy", Greedy, false},
		{"Hard", "", true},
		{"", "", true},
		{"expert", Expert, false},
		{"master", Master, false},
		{"grandmaster", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseLevel(tt.in)
			if tt.wantErr {
				require.ErrorIs(t, err, ErrUnknownLevel)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestLevels(t *testing.T) {
	require.Equal(t, []Level{Easy, Normal, Hard, Expert, Master}, Levels())
	for _, l := range append(Levels(), Greedy) {
		_, err := New(l, 1)
		assert.NoError(t, err, "New(%q)", l)
	}
	_, err := New("grandmaster", 1)
	assert.ErrorIs(t, err, ErrUnknownLevel)
}

func TestEveryLevelPlaysLegalGames(t *testing.T) {
	tests := []struct {
		name   string
		levels []Level
		rules  engine.Rules
	}{
		{"easy-greedy", []Level{Easy, Greedy}, engine.Rules{}},
		{"normal-easy-greedy", []Level{Normal, Easy, Greedy}, engine.Rules{}},
		{"four house rules", []Level{Normal, Easy, Greedy, Greedy}, engine.Rules{SixAgain: true, SafeRow2: true}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			winner, _ := playGame(t, tt.levels, tt.rules, uint64(i)+1)
			require.GreaterOrEqual(t, winner, 0, "the game ended without a winner")
		})
	}
}

func TestDecisionsReplay(t *testing.T) {
	levels := []Level{Normal, Greedy, Easy}
	_, first := playGame(t, levels, engine.Rules{}, 7)
	_, again := playGame(t, levels, engine.Rules{}, 7)
	require.Equal(t, first, again, "the same seeds played two different games")
}

func TestValueTable(t *testing.T) {
	e := newEvaluator(defaultParams)
	pos := mustPosition(t, "players=ry turn=r r= y= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11")
	tab := e.table(pos.BarricadeSet())
	sq := func(name string) engine.Square {
		s, err := engine.ParseSquare(name)
		require.NoError(t, err)
		return s
	}
	// Next to the goal every pawn needs one exact roll: six turns.
	for _, name := range []string{"i13", "h13", "f13", "d13"} {
		assert.InDelta(t, 6, tab.sq[sq(name)], 0.01, "value of %s", name)
	}
	assert.Zero(t, tab.sq[engine.Goal], "value of the goal")
	// Farther is slower, and a barricade in the way costs time.
	assert.Less(t, tab.sq[sq("a13")], tab.sq[sq("a11")], "a13 against a11")
	assert.Less(t, tab.sq[sq("i11")], tab.sq[sq("i5")], "i11 against i5 behind barricades")
	assert.Greater(t, tab.home[engine.Red], tab.sq[sq("c1")], "the house against c1")
}

func TestSearchersChooseLegalMovesAndReplay(t *testing.T) {
	decisions := samplePositions(t, []Level{Greedy, Greedy}, engine.Rules{}, 1, 9)
	decisions = append(decisions, samplePositions(t, []Level{Greedy, Greedy, Greedy, Greedy}, engine.Rules{SixAgain: true, SafeRow2: true}, 2, 15)...)
	require.GreaterOrEqual(t, len(decisions), 10, "sampled positions")
	for _, level := range []Level{Hard, Expert} {
		for i, d := range decisions {
			a, _ := New(level, uint64(i))
			b, _ := New(level, uint64(i))
			got := a.Choose(d.pos, d.roll, d.rules, d.moves)
			require.Contains(t, d.moves, got, "%s roll %d: %s chose an illegal move", d.pos, d.roll, level)
			require.Equal(t, got, b.Choose(d.pos, d.roll, d.rules, d.moves), "%s roll %d: the same seed chose again", d.pos, d.roll)
		}
	}
}

func TestForcedMoves(t *testing.T) {
	pos := engine.StartPosition()
	moves := pos.Moves(6, engine.Rules{})
	require.Len(t, moves, 1, "start roll 6")
	for _, l := range append(Levels(), Greedy) {
		p, _ := New(l, 1)
		assert.Equal(t, moves[0], p.Choose(pos, 6, engine.Rules{}, moves), "%s with the only move", l)
		assert.Equal(t, NoMove, p.Choose(pos, 6, engine.Rules{}, nil), "%s with no moves", l)
	}
}

func TestSensibleMoves(t *testing.T) {
	const bars = "a3,e3,i3,m3,q3,g7,k7,i9"
	tests := []struct {
		name     string
		position string
		roll     int
		levels   []Level
		want     func(engine.Move) bool
		wantText string
	}{
		{
			name:     "takes the win",
			position: "players=rb turn=r r=h13,c5 b=j13 x=" + bars + ",i10,i11",
			roll:     2,
			levels:   []Level{Easy, Normal, Hard, Expert, Greedy},
			want:     func(m engine.Move) bool { return m.To == engine.Goal },
			wantText: "a move to the goal",
		},
		{
			name:     "captures the leader",
			position: "players=rb turn=r r=d13,c5 b=g13,e1 x=" + bars + ",i10,i11",
			roll:     3,
			levels:   []Level{Normal, Hard, Expert, Greedy},
			want:     func(m engine.Move) bool { return m.To.String() == "g13" },
			wantText: "d13-g13",
		},
		{
			name:     "blocks the leader at the goal",
			position: "players=rb turn=r r=i10 b=h13 x=" + bars + ",i11",
			roll:     1,
			levels:   []Level{Normal, Hard, Expert},
			want:     func(m engine.Move) bool { return m.To.String() == "i11" && m.Place.String() == "i13" },
			wantText: "i10-i11/i13",
		},
	}
	for _, tt := range tests {
		pos := mustPosition(t, tt.position)
		moves := pos.Moves(tt.roll, engine.Rules{})
		for _, l := range tt.levels {
			t.Run(tt.name+"/"+string(l), func(t *testing.T) {
				p, _ := New(l, 1)
				got := p.Choose(pos, tt.roll, engine.Rules{}, moves)
				assert.True(t, tt.want(got), "%s roll %d: chose %s, want %s", tt.position, tt.roll, got, tt.wantText)
			})
		}
	}
}
