package bot

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render"
)

// Discord's limits on a Components V2 message: "Messages allow up to 40
// total components", nested ones included, and an action row holds "up to
// 5 contextually grouped buttons"
// (https://discord.com/developers/docs/components/reference).
const (
	maxV2Components = 40
	maxRowButtons   = 5
)

// v2Count counts the components of a V2 body (decoded JSON) as Discord
// does: every component, those inside containers, rows and sections too;
// the items of a media gallery are not components. rows are the sizes of
// its action rows.
func v2Count(comps []any) (n int, rows []int) {
	for _, c := range comps {
		cm, ok := c.(map[string]any)
		if !ok {
			continue
		}
		n++
		inner, _ := cm["components"].([]any)
		if typ, _ := cm["type"].(float64); int(typ) == 1 {
			rows = append(rows, len(inner))
		}
		k, r := v2Count(inner)
		n, rows = n+k, append(rows, r...)
		if acc, ok := cm["accessory"]; ok {
			k, _ := v2Count([]any{acc})
			n += k
		}
	}
	return n, rows
}

// turnTable is a running two-player game at position with Ann (red) to
// move, Hints and the Activity on, a deadline set: every extra a turn
// card can show.
func turnTable(t *testing.T, position string, computer bool) *table.Table {
	t.Helper()
	p, err := engine.ParsePosition(position)
	require.NoError(t, err)
	ann := malefiz.Seat{Color: "red", UserID: "1", Name: "Ann"}
	if computer {
		ann = malefiz.Seat{Color: "red", Computer: "hard"}
	}
	return &table.Table{
		State: engine.NewGameAt(p, engine.Rules{}),
		Game: &malefiz.Game{ID: 1 << 40, Status: malefiz.StatusRunning, Locale: "pt-BR", Threaded: true,
			Deadline: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC),
			Seats:    []malefiz.Seat{ann, {Color: "green", UserID: "2", Name: "Ben"}}},
		Settings: malefiz.GuildSettings{Hints: true},
		Activity: true,
	}
}

// rolled rolls n on tb's game.
func rolled(t *testing.T, tb *table.Table, n int) {
	t.Helper()
	_, err := tb.State.Roll(engine.DiceFunc(func() int { return n }))
	require.NoError(t, err)
}

// TestTurnCardWithinDiscordsLimits: the turn card with the most it can
// hold (every move button, Back, Hint, the barricade's suggestions and
// menus, Play on the board) stays within Discord's limits on a V2
// message, and offers Play on the board once.
func TestTurnCardWithinDiscordsLimits(t *testing.T) {
	// Four red pawns in the open middle: 20 choices on a 5, the most
	// that are buttons (more ask for the pawn first).
	const twenty = "players=rg turn=r r=e5,h5,m7,o5 g= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13"
	// 25 choices on a 5: the pawns first.
	const many = "players=rg turn=r r=e5,h5,i5,m7 g= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13"
	const barricade = "players=rg turn=r r=e2 g=i7 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13"
	tests := []struct {
		name     string
		position string
		computer bool
		prepare  func(t *testing.T, tb *table.Table) table.TurnOptions
	}{
		{"twenty moves, Hint", twenty, false, func(t *testing.T, tb *table.Table) table.TurnOptions {
			rolled(t, tb, 5)
			require.Len(t, render.Choices(tb.State.LegalMoves()), 20)
			return table.TurnOptions{}
		}},
		{"pawns first, Hint", many, false, func(t *testing.T, tb *table.Table) table.TurnOptions {
			rolled(t, tb, 5)
			require.Greater(t, len(render.Choices(tb.State.LegalMoves())), 20)
			return table.TurnOptions{}
		}},
		{"the pawn with most moves, Back, Hint", many, false, func(t *testing.T, tb *table.Table) table.TurnOptions {
			rolled(t, tb, 5)
			count := map[engine.Square]int{}
			best := engine.NoSquare
			for _, c := range render.Choices(tb.State.LegalMoves()) {
				count[c.From]++
				if count[c.From] > count[best] {
					best = c.From
				}
			}
			return table.TurnOptions{Pawn: best, PawnChosen: true}
		}},
		{"barricade: suggestions, both menus, Back", barricade, false, func(t *testing.T, tb *table.Table) table.TurnOptions {
			rolled(t, tb, 1)
			require.NoError(t, tb.State.Move(engine.Move{From: engine.SquareAt(4, 2), To: engine.SquareAt(4, 3), Place: engine.NoSquare}))
			require.Equal(t, engine.PhasePlace, tb.State.Phase())
			return table.TurnOptions{Row: 7}
		}},
		{"the roll", "start", false, func(*testing.T, *table.Table) table.TurnOptions { return table.TurnOptions{} }},
		{"a computer to move", twenty, true, func(t *testing.T, tb *table.Table) table.TurnOptions {
			rolled(t, tb, 5)
			return table.TurnOptions{}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := turnTable(t, tt.position, tt.computer)
			v := tb.TurnView(tt.prepare(t, tb))
			var body map[string]any
			require.NoError(t, json.Unmarshal(mustJSON(postBody(v)), &body))
			comps, _ := body["components"].([]any)
			n, rows := v2Count(comps)
			assert.LessOrEqual(t, n, maxV2Components, "components, nested ones included")
			for i, r := range rows {
				assert.LessOrEqual(t, r, maxRowButtons, "row %d", i)
				assert.Positive(t, r, "row %d", i)
			}
			var board []string
			for _, r := range v.Rows {
				for _, b := range r.Buttons {
					if id, err := table.ParseCustomID(b.CustomID); err == nil && id.Action == table.ActBoard {
						board = append(board, b.Label)
					}
				}
			}
			assert.Equal(t, []string{"Jogar no tabuleiro"}, board, "Play on the board, once")
			t.Logf("%d components in %d rows", n, len(rows))
		})
	}
}

// TestAPlayOnTheBoardEditsTheCardWithItsBoard: a barricade taken on the
// Activity's board leaves the turn going on (its square to place), and
// the turn card in the thread is edited to show it; the edit shows the
// board, so it must upload board.png with it, or Discord refuses the edit
// ("No attachment named board.png") and the thread keeps the old moves.
func TestAPlayOnTheBoardEditsTheCardWithItsBoard(t *testing.T) {
	const barricade = "players=rg turn=r r=e2 g=i7 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13"
	tb := turnTable(t, barricade, false)
	tb.Game.TurnMessageID = "42"
	rolled(t, tb, 1)
	turn := tb.State.TurnNumber()
	require.NoError(t, tb.Play(table.Actor{UserID: "1", Name: "Ann", Lang: "en"},
		table.CustomID{Action: table.ActMove, Game: tb.Game.ID, Turn: turn, Arg: "e2-e3"}))
	require.Equal(t, engine.PhasePlace, tb.State.Phase())

	var edits int
	for _, e := range tb.Effects() {
		if e.Kind != table.Edit || e.Target != malefiz.RoleTurn {
			continue
		}
		edits++
		ef := layout{}.Effect(nil, tb.Game, e)
		require.Contains(t, string(ef.Body), boardURL, "the card shows the board")
		require.NotNil(t, ef.Board, "the edit carries the board it shows")
	}
	assert.Equal(t, 1, edits, "the turn card edited once")
}

// TestEveryPictureShownIsUploaded: whatever a message shows as an
// attachment (the board, the chance chart) goes with it, for a post and
// for an edit alike.
func TestEveryPictureShownIsUploaded(t *testing.T) {
	sg := &malefiz.Game{ID: 7, ChannelID: "c"}
	scene := &render.Scene{}
	chart := &table.Chart{}
	for _, kind := range []table.Kind{table.Post, table.Edit} {
		for _, msg := range []table.Message{
			{Board: scene, Embeds: []table.Embed{{Board: true}}},
			{Chart: chart, Embeds: []table.Embed{{Chart: true}}},
			{Board: scene, Chart: chart, Embeds: []table.Embed{{Board: true}, {Chart: true}}},
		} {
			ef := layout{}.Effect(nil, sg, table.Effect{Kind: kind, Message: &msg, Target: malefiz.RoleTurn})
			body := string(ef.Body)
			assert.Equal(t, strings.Contains(body, boardURL), ef.Board != nil, "%s: board shown and uploaded", kind)
			assert.Equal(t, strings.Contains(body, chartURL), ef.Chart != nil, "%s: chart shown and uploaded", kind)
		}
	}
}

// TestPicturesCarryAltText: the media galleries of the board and the
// chart carry the message's words for them as their description, and a
// picture without words carries none.
func TestPicturesCarryAltText(t *testing.T) {
	sc := render.NewScene(engine.StartPosition())
	msg := table.Message{Embeds: []table.Embed{{Title: "Turn 1", Board: true}, {Title: "Chances", Chart: true}},
		Board: &sc, BoardAlt: "Malefiz board, turn 1.", ChartAlt: "Line chart."}
	var alts []string
	var walk func([]discordgo.MessageComponent)
	walk = func(comps []discordgo.MessageComponent) {
		for _, c := range comps {
			switch v := c.(type) {
			case discordgo.Container:
				walk(v.Components)
			case discordgo.MediaGallery:
				require.Len(t, v.Items, 1)
				require.NotNil(t, v.Items[0].Description, v.Items[0].Media.URL)
				alts = append(alts, v.Items[0].Media.URL+" "+*v.Items[0].Description)
			}
		}
	}
	walk(layoutOf(msg))
	assert.Equal(t, []string{boardURL + " Malefiz board, turn 1.", chartURL + " Line chart."}, alts)

	msg.BoardAlt = ""
	assert.Nil(t, gallery(boardURL, msg.BoardAlt).Items[0].Description)
}
