package bot

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// matchAt is a running two-player game at position, rolled to roll.
func matchAt(t *testing.T, position string, roll int) *match {
	t.Helper()
	p, err := engine.ParsePosition(position)
	if err != nil {
		t.Fatal(err)
	}
	g := engine.NewGameAt(p, engine.Rules{})
	if _, err := g.Roll(engine.DiceFunc(func() int { return roll })); err != nil {
		t.Fatal(err)
	}
	return &match{game: g, stored: &store.Game{ID: 7, Status: store.StatusRunning, Locale: "en",
		Seats: []store.Seat{{Color: "red", UserID: "1", Name: "Ann"}, {Color: "green", UserID: "2", Name: "Ben"}}}}
}

func controls(comps []discordgo.MessageComponent) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for _, c := range comps {
		if row, ok := c.(discordgo.ActionsRow); ok {
			out = append(out, row.Components...)
		}
	}
	return out
}

func TestManyMovesAskForThePawnFirst(t *testing.T) {
	// Four red pawns in the open middle of the board and one at home: a
	// roll of 5 gives 25 destinations.
	tb := matchAt(t, "players=rg turn=r r=e5,h5,i5,m7 g= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", 5)
	if n := len(choices(tb.game)); n <= maxMoveButtons {
		t.Fatalf("only %d choices; the test needs more than %d", n, maxMoveButtons)
	}
	b := New(Config{Renderer: render.New(0)})
	v := b.turnView(tb, viewOptions{})
	buttons := controls(v.components)
	if len(buttons) != 5 {
		t.Fatalf("%d pawn buttons, want 5 (four pawns on the board and the house)", len(buttons))
	}
	first := buttons[0].(discordgo.Button)
	id, err := ParseCustomID(first.CustomID)
	if err != nil || id.Action != ActPawn || id.Arg != "e5" {
		t.Fatalf("first pawn button %+v, %v", first, err)
	}
	v = b.turnView(tb, viewOptions{pawn: engine.SquareAt(4, 5), pawnChosen: true})
	buttons = controls(v.components)
	back := buttons[len(buttons)-1].(discordgo.Button)
	if id, _ := ParseCustomID(back.CustomID); id.Action != ActBack {
		t.Errorf("last button %q, want Back", back.Label)
	}
	for _, c := range buttons[:len(buttons)-1] {
		btn := c.(discordgo.Button)
		if !strings.Contains(btn.Label, "e5→") {
			t.Errorf("button %q is not a move of the pawn on e5", btn.Label)
		}
	}
	require.NotNil(t, v.board, "the view has no board")
	// The board letters only the destinations of the pawn's moves.
	var mine []engine.Move
	for _, c := range choices(tb.game) {
		if c.From == engine.SquareAt(4, 5) {
			mine = append(mine, c)
		}
	}
	assert.Equal(t, render.DestinationLabels(mine), v.board.Labels)
}

func TestMoveButtonsMatchBoardLetters(t *testing.T) {
	tb := matchAt(t, "start", 4)
	b := New(Config{Renderer: render.New(0)})
	v := b.turnView(tb, viewOptions{})
	var labels []string
	for _, c := range controls(v.components) {
		labels = append(labels, c.(discordgo.Button).Label)
	}
	if got := strings.Join(labels, " | "); got != "A · home→a2 | B · home→e2 | C · home→f1" {
		t.Errorf("buttons %q", got)
	}
	require.NotNil(t, v.board)
	assert.Equal(t, render.DestinationLabels(choices(tb.game)), v.board.Labels, "one lettering for buttons and board")
	if v.content != "<@1>" || len(v.pings) != 1 || v.pings[0] != "1" {
		t.Errorf("the view must ping the player to move only: %q %v", v.content, v.pings)
	}
}

func TestSuggestedPlacementsBlockTheLeader(t *testing.T) {
	p, _ := engine.ParsePosition("players=rg turn=r r=e2 g=i7 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13")
	legal := p.PlacementSquares(engine.SquareAt(4, 2), engine.SquareAt(4, 3), engine.Rules{})
	got := suggestPlacements(p, engine.Red, legal)
	if len(got) != maxSuggestions {
		t.Fatalf("%d suggestions, want %d", len(got), maxSuggestions)
	}
	if got[0].String() != "h7" && got[0].String() != "j7" && got[0].String() != "i8" {
		// green on i7 heads for the goal through h7/j7 (i8 does not exist)
		t.Errorf("first suggestion %s, want a square just ahead of green on i7", got[0])
	}
	seen := map[engine.Square]bool{}
	for _, s := range got {
		if seen[s] {
			t.Errorf("suggestion %s twice", s)
		}
		seen[s] = true
	}
}
