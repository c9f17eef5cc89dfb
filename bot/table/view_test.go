package table

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render"
)

// tableAt is a running two-player game at position, rolled to roll.
func tableAt(t *testing.T, position string, roll int) *Table {
	t.Helper()
	p, err := engine.ParsePosition(position)
	if err != nil {
		t.Fatal(err)
	}
	g := engine.NewGameAt(p, engine.Rules{})
	if _, err := g.Roll(engine.DiceFunc(func() int { return roll })); err != nil {
		t.Fatal(err)
	}
	return &Table{State: g, Game: &malefiz.Game{ID: 7, Status: malefiz.StatusRunning, Locale: "en",
		Seats: []malefiz.Seat{{Color: "red", UserID: "1", Name: "Ann"}, {Color: "green", UserID: "2", Name: "Ben"}}}}
}

func controls(rows []Row) []Button {
	var out []Button
	for _, r := range rows {
		out = append(out, r.Buttons...)
	}
	return out
}

func TestManyMovesAskForThePawnFirst(t *testing.T) {
	// Four red pawns in the open middle of the board and one at home: a
	// roll of 5 gives 25 destinations.
	tb := tableAt(t, "players=rg turn=r r=e5,h5,i5,m7 g= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", 5)
	if n := len(choices(tb.State)); n <= maxMoveButtons {
		t.Fatalf("only %d choices; the test needs more than %d", n, maxMoveButtons)
	}
	v := tb.TurnView(TurnOptions{})
	buttons := controls(v.Rows)
	if len(buttons) != 5 {
		t.Fatalf("%d pawn buttons, want 5 (four pawns on the board and the house)", len(buttons))
	}
	first := buttons[0]
	id, err := ParseCustomID(first.CustomID)
	if err != nil || id.Action != ActPawn || id.Arg != "e5" {
		t.Fatalf("first pawn button %+v, %v", first, err)
	}
	v = tb.TurnView(TurnOptions{Pawn: engine.SquareAt(4, 5), PawnChosen: true})
	buttons = controls(v.Rows)
	back := buttons[len(buttons)-1]
	if id, _ := ParseCustomID(back.CustomID); id.Action != ActBack {
		t.Errorf("last button %q, want Back", back.Label)
	}
	for _, c := range buttons[:len(buttons)-1] {
		btn := c
		if !strings.Contains(btn.Label, "e5→") {
			t.Errorf("button %q is not a move of the pawn on e5", btn.Label)
		}
	}
	require.NotNil(t, v.Board, "the view has no board")
	// The board letters only the destinations of the pawn's moves.
	var mine []engine.Move
	for _, c := range choices(tb.State) {
		if c.From == engine.SquareAt(4, 5) {
			mine = append(mine, c)
		}
	}
	assert.Equal(t, render.DestinationLabels(mine), v.Board.Labels)
}

func TestMoveButtonsMatchBoardLetters(t *testing.T) {
	tb := tableAt(t, "start", 4)
	v := tb.TurnView(TurnOptions{})
	var labels []string
	for _, c := range controls(v.Rows) {
		labels = append(labels, c.Label)
	}
	if got := strings.Join(labels, " | "); got != "A · home→a2 | B · home→e2 | C · home→f1" {
		t.Errorf("buttons %q", got)
	}
	require.NotNil(t, v.Board)
	assert.Equal(t, render.DestinationLabels(choices(tb.State)), v.Board.Labels, "one lettering for buttons and board")
	if v.Content != "<@1>" || len(v.Pings) != 1 || v.Pings[0] != "1" {
		t.Errorf("the view must ping the player to move only: %q %v", v.Content, v.Pings)
	}
}

func TestSuggestedPlacementsBlockTheLeader(t *testing.T) {
	tb := running(t, "players=rg turn=r r=e2 g=i7 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", RollButton, dice(1))
	turn := tb.State.TurnNumber()
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "e2-e3"}))
	got := tb.suggestions("en")
	// Of the squares, j9, k8 and k9 slow green down alike and most
	// squares not at all: each reason is suggested once.
	require.Len(t, got, 2)
	seen := map[engine.Square]bool{}
	for _, s := range got {
		assert.False(t, seen[s.Square], "suggestion %s twice", s.Square)
		seen[s.Square] = true
	}
	// Green on i7 is the one to stop: the best square blocks it, and says
	// by how much.
	assert.Equal(t, tr("en", locales.PlaceSlows, "🟢 Ben", locales.Tenths(0.4)), got[0].Reason)
	assert.Equal(t, tr("en", locales.PlaceAside), got[1].Reason)
	// The buttons are the suggestions, best first, each with its reason.
	buttons := tb.Reply.Message.Rows[0].Buttons
	require.Len(t, buttons, len(got))
	assert.Equal(t, "1 · "+got[0].Square.String()+" · "+got[0].Reason, buttons[0].Label)
	for _, b := range buttons {
		assert.LessOrEqual(t, len([]rune(b.Label)), maxLabel)
	}
}
