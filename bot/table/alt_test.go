package table

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render/vision"
)

// TestBoardAltSaysTheMoves reads a turn's board in words: whose turn, the
// roll, each lettered move with what it captures, the leader's distance.
func TestBoardAltSaysTheMoves(t *testing.T) {
	tb := tableAt(t, "players=rg turn=r r=e2,a2 g=e1 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", 1)
	v := tb.TurnView(TurnOptions{})
	t.Log(v.BoardAlt)
	assert.True(t, strings.HasPrefix(v.BoardAlt, "Malefiz board, turn "), v.BoardAlt)
	assert.Contains(t, v.BoardAlt, "Ann (Red) rolled 1.")
	assert.Contains(t, v.BoardAlt, "takes the barricade")
	assert.Contains(t, v.BoardAlt, "captures the pawn of Ben (Green)")
	assert.Contains(t, v.BoardAlt, "A: pawn ")
	assert.Contains(t, v.BoardAlt, "Leader: ")
	for _, b := range controls(v.Rows) {
		letter, _, _ := strings.Cut(b.Label, " · ")
		assert.Contains(t, v.BoardAlt, letter+": pawn ", "every lettered button is in the words")
	}

	// The same board in German.
	tb = tableAt(t, "players=rg turn=r r=e2,a2 g=e1 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", 1)
	de := *tb.Game
	de.Locale = "de"
	tb.Game = &de
	v = tb.TurnView(TurnOptions{})
	assert.Contains(t, v.BoardAlt, "Ann (Rot) würfelt eine 1.")
	assert.Contains(t, v.BoardAlt, "schlägt die Figur von Ben (Grün)")
}

// TestBoardAltFitsDiscordsLimit cuts a list too long for MaxAlt with "and
// N more", in every language, keeping the head and the tail.
func TestBoardAltFitsDiscordsLimit(t *testing.T) {
	for _, lang := range locales.Default.Languages() {
		t.Run(lang, func(t *testing.T) {
			a := alt{lang: lang, head: []string{tr(lang, locales.AltBoard, 12)}, tail: []string{tr(lang, locales.AltLeader, 3, "Ann (Red)")}}
			for range 40 {
				a.items = append(a.items, tr(lang, locales.AltMove, "A", "c1", "e3")+", "+
					tr(lang, locales.AltCapturesPawn, strings.Repeat("B", 32)+" (Green)"))
			}
			s := a.String()
			assert.LessOrEqual(t, utf8.RuneCountInString(s), MaxAlt)
			require.True(t, strings.HasPrefix(s, a.head[0]), s)
			assert.True(t, strings.HasSuffix(s, a.tail[0]), s)
			assert.Contains(t, s, tr(lang, locales.AltMore, 40-strings.Count(s, "c1")))
		})
	}
}

// TestPrivateBoardInWords answers /malefiz board text:true with the board's
// words in the text and no picture, the mover's buttons kept.
func TestPrivateBoardInWords(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	require.NoError(t, tb.PrivateBoard(command(ann)))
	pictured := tb.Reply.Message
	require.NotNil(t, pictured.Board)
	require.NotEmpty(t, pictured.BoardAlt)

	require.NoError(t, tb.PrivateBoardInWords(command(ann)))
	got := tb.Reply.Message
	assert.Equal(t, Private, tb.Reply.Kind)
	assert.Nil(t, got.Board, "no picture")
	require.Len(t, got.Embeds, 1)
	assert.False(t, got.Embeds[0].Board)
	assert.Contains(t, got.Embeds[0].Description, pictured.BoardAlt)
	assert.Equal(t, pictured.Rows, got.Rows, "the mover still plays from it")
	assert.True(t, pictured.Embeds[0].Board, "the view it came from is unchanged")

	lobbyView := lobby(ann)
	require.NoError(t, lobbyView.PrivateBoardInWords(command(ann)))
	assert.Nil(t, lobbyView.Reply.Message.Board)
}

// TestCardAccentsStayApartForColourBlindEyes: the card's accent colours,
// one per player, stay at least 20 apart (CIEDE2000) under simulated
// protanopia, deuteranopia and tritanopia.
func TestCardAccentsStayApartForColourBlindEyes(t *testing.T) {
	rgb := func(v int) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255} }
	for _, d := range append([]vision.Deficiency{vision.Normal}, vision.Deficiencies...) {
		least := math.Inf(1)
		for i := range ColorRGB {
			for j := i + 1; j < len(ColorRGB); j++ {
				least = min(least, d.Difference(rgb(ColorRGB[i]), rgb(ColorRGB[j])))
			}
		}
		assert.GreaterOrEqual(t, least, 20.0, d.Name)
	}
}

// playedOutBy is a game of the given seats, computers all, played to its
// end as the scheduler plays it, with every event in log; rolls is the die.
func playedOutBy(t testing.TB, seats []malefiz.Seat, rolls []int) (tb *Table, log []malefiz.Event) {
	t.Helper()
	tb = lobby()
	tb.Game.Seats = seats
	tb.Game.Options.Roll = RollAuto
	tb.recolor()
	seq := 0
	tb.Dice = engine.DiceFunc(func() int { seq++; return rolls[seq%len(rolls)] })
	require.NoError(t, tb.Start(ann, 0))
	for range 5000 {
		log = append(log, tb.Events...)
		tb.Events, tb.effects = nil, nil
		if tb.State.Over() {
			for i := range log {
				log[i].Seq = int64(i + 1)
			}
			return tb, log
		}
		tb.Now = tb.Game.WakeAt
		require.NoError(t, tb.Due())
	}
	t.Fatal("the game did not end")
	return nil, nil
}

// fourComputers are four seats the computer plays, each named by name
// (the players it replaced).
func fourComputers(name func(i int) string) []malefiz.Seat {
	var seats []malefiz.Seat
	for i, level := range []string{"easy", "normal", "easy", "hard"} {
		seats = append(seats, malefiz.Seat{UserID: strconv.Itoa(i + 1), Name: name(i), Computer: level})
	}
	return seats
}

// TestReplayAlt reads a replayed four-player game's alt text against the
// game itself, one game of many turns and captures played by computers:
// finished, running (the first half of its log), ended without a result,
// and with the longest names in every language.
func TestReplayAlt(t *testing.T) {
	names := []string{"Ann", "Ben", "Cleo", "Dan"}
	tb, log := playedOutBy(t, fourComputers(func(i int) string { return names[i] }), []int{3, 5, 1, 6, 2, 4, 4, 2, 5, 3, 6, 1, 2})
	g, err := Replay(tb.Game, log)
	require.NoError(t, err)
	require.True(t, g.Over())
	seat := func(lang string, c engine.Color) string {
		return tb.SeatByColor(c).Name + " (" + tr(lang, colorName[c]) + ")"
	}
	var captures, lastTurn int
	for _, r := range g.History() {
		if r.Kind == engine.RecordMove {
			lastTurn = r.Turn
			if r.Captured.Valid() {
				captures++
			}
		}
	}
	require.Positive(t, captures, "a game with captures to tell")

	t.Run("finished", func(t *testing.T) {
		s := ReplayAlt("en", tb.Game, g)
		t.Log(s)
		assert.LessOrEqual(t, utf8.RuneCountInString(s), MaxAlt)
		assert.True(t, strings.HasPrefix(s, fmt.Sprintf("Animated replay of Malefiz game #%d, %d turns, one picture per move. Players: ", tb.Game.ID, g.TurnNumber())), s)
		for _, c := range g.StartPosition().Players() {
			assert.Contains(t, s, seat("en", c), "every player and colour")
		}
		assert.Contains(t, s, "; "+seat("en", g.StartPosition().Turn())+" began.")
		assert.Contains(t, s, seat("en", g.Winner())+" led for good from turn ")
		assert.Contains(t, s, fmt.Sprintf(" and reached the goal on turn %d.", lastTurn))
		assert.Contains(t, s, fmt.Sprintf(" %d captures, by player: ", captures))
		listed := 0
		for _, r := range g.History() {
			if r.Kind == engine.RecordMove && r.Captured.Valid() &&
				strings.Contains(s, fmt.Sprintf("turn %d, %s captured the pawn of %s on %s", r.Turn, seat("en", r.Color), seat("en", r.Captured), r.Move.To)) {
				listed++
			}
		}
		assert.Positive(t, listed, "captures told turn by turn")
		if listed < captures {
			assert.Contains(t, s, "The captures nearest the goal: ")
			assert.Contains(t, s, fmt.Sprintf("and %d more.", captures-listed))
		} else {
			assert.Contains(t, s, "The captures: ")
		}
		assert.NotContains(t, s, "/malefiz board", "a finished game has no board to read")

		de := ReplayAlt("de", tb.Game, g)
		t.Log(de)
		assert.Contains(t, de, seat("de", g.Winner()))
		assert.NotEqual(t, s, de)
	})

	t.Run("running", func(t *testing.T) {
		sg := *tb.Game
		sg.Status = malefiz.StatusRunning
		half, err := Replay(&sg, log[:len(log)/2])
		require.NoError(t, err)
		require.False(t, half.Over())
		s := ReplayAlt("en", &sg, half)
		t.Log(s)
		assert.True(t, strings.HasSuffix(s, "The game is still running: /malefiz board with the option text, in its channel, gives the board as it stands in words."), s)
		assert.Contains(t, s, " Leader: ")
		assert.NotContains(t, s, " won")
		assert.NotContains(t, s, "reached the goal")

		sg.Status = malefiz.StatusCancelled
		assert.Contains(t, ReplayAlt("en", &sg, half), "The game was ended without a result.")
	})

	// The longest: four 32-character names, a game of many turns, the
	// highest game number, in every language.
	t.Run("longest", func(t *testing.T) {
		sg := *tb.Game
		sg.ID = MaxGameID
		sg.Seats = fourComputers(func(i int) string { return strings.Repeat(string(rune('W'+i)), 32) })
		for i := range sg.Seats {
			sg.Seats[i].Color = tb.Game.Seats[i].Color
		}
		for _, lang := range locales.Default.Languages() {
			s := ReplayAlt(lang, &sg, g)
			assert.LessOrEqual(t, utf8.RuneCountInString(s), MaxAlt, lang)
			assert.True(t, strings.HasPrefix(s, tr(lang, locales.AltReplay, MaxGameID, g.TurnNumber())), "%s: %s", lang, s)
			assert.Contains(t, s, strings.Repeat("W", 32), lang)
			assert.Contains(t, s, tr(lang, locales.AltReplayCaptures, captures, "")[:8], "%s: how many captures: %s", lang, s)
		}
	})
}
