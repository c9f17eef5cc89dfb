package table

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
)

func TestLiveAndPlay(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6, 6))
	roll := CustomID{Action: ActRoll, Game: 7, Turn: tb.State.TurnNumber()}

	l := tb.Live("1", "en")
	assert.True(t, l.YourTurn)
	assert.Equal(t, "roll", l.Phase)
	assert.Equal(t, "red", l.ToMove)
	assert.False(t, tb.Live("2", "en").YourTurn, "Ben waits")
	assert.Len(t, l.Seats, 2)
	assert.True(t, l.Seats[0].You)

	require.NoError(t, tb.Play(ann, roll))
	assert.Nil(t, tb.Reply, "the Activity gets the pushed state, not a reply")
	require.NotEmpty(t, tb.Effects())
	last := tb.Effects()[len(tb.Effects())-1]
	assert.Equal(t, Edit, last.Kind)
	assert.Equal(t, malefiz.RoleTurn, last.Target, "the thread's turn card shows the roll")

	l = tb.Live("1", "en")
	assert.Equal(t, "move", l.Phase)
	assert.Equal(t, 6, l.Roll)
	require.NotEmpty(t, l.Moves)
	assert.Equal(t, "home", l.Moves[0].From)
	assert.Empty(t, tb.Live("2", "en").Moves, "only the mover sees moves")

	tests := []struct {
		name string
		a    Actor
		id   CustomID
		want locales.Key
	}{
		{"a pawn pick is the page's", ann, CustomID{Action: ActPawn, Game: 7, Turn: l.Turn, Arg: "home"}, locales.ErrUnknownButton},
		{"back while moving", ann, CustomID{Action: ActBack, Game: 7, Turn: l.Turn}, locales.ErrUnknownButton},
		{"a lobby action", ann, CustomID{Action: ActJoin, Game: 7}, locales.ErrUnknownButton},
		{"old turn", ann, CustomID{Action: ActMove, Game: 7, Turn: l.Turn - 1, Arg: l.Moves[0].From + "-" + l.Moves[0].To}, locales.ErrOldButton},
		{"not the mover", ben, CustomID{Action: ActMove, Game: 7, Turn: l.Turn, Arg: l.Moves[0].From + "-" + l.Moves[0].To}, locales.ErrNotYourTurn},
		{"roll again", ann, roll, locales.ErrAlreadyDone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, refusal(tb.Play(tt.a, tt.id)))
		})
	}

	mv := l.Moves[0]
	require.NoError(t, tb.Play(ann, CustomID{Action: ActMove, Game: 7, Turn: l.Turn, Arg: mv.From + "-" + mv.To}))
	assert.NotEqual(t, l.Turn, tb.State.TurnNumber(), "the turn ended")
	assert.Equal(t, "green", tb.Live("2", "en").ToMove)
}

func TestCardOffersTheBoard(t *testing.T) {
	tests := []struct {
		name     string
		activity bool
		status   malefiz.Status
		want     bool
	}{
		{"running with the Activity", true, malefiz.StatusRunning, true},
		{"running without", false, malefiz.StatusRunning, false},
		{"cancelled", true, malefiz.StatusCancelled, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := running(t, "start", RollButton, dice(6))
			tb.Activity, tb.Game.Status = tt.activity, tt.status
			var ids []string
			for _, r := range tb.CardMessage().Rows {
				for _, b := range r.Buttons {
					ids = append(ids, b.CustomID)
				}
			}
			if tt.want {
				assert.Equal(t, []string{"mf/board/7/0"}, ids)
			} else {
				assert.Empty(t, ids)
			}
		})
	}
}

// TestPlayBeforeTheTurnCardIsRecorded: a play on the Activity's board
// that comes while the turn card is still being posted (its ID not
// recorded yet) collapses it all the same: the edit names the turn
// message by its role, read by the outbox after that post.
func TestPlayBeforeTheTurnCardIsRecorded(t *testing.T) {
	for _, tc := range []struct {
		name, turnID string
	}{
		{"recorded", "m-turn"},
		{"still being posted", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := running(t, "start", RollButton, dice(6, 6))
			tb.Game.TurnMessageID = tc.turnID
			require.NoError(t, tb.Play(ann, CustomID{Action: ActRoll, Game: 7, Turn: tb.State.TurnNumber()}))
			l := tb.Live("1", "en")
			require.NotEmpty(t, l.Moves)
			mv := l.Moves[0]
			rolled := len(tb.Effects())
			require.NoError(t, tb.Play(ann, CustomID{Action: ActMove, Game: 7, Turn: l.Turn, Arg: mv.From + "-" + mv.To}))
			require.Greater(t, len(tb.Effects()), rolled)
			var collapse *Effect
			for i, e := range tb.Effects()[rolled:] {
				if e.Kind == Edit && e.Target == malefiz.RoleTurn {
					collapse = &tb.Effects()[rolled+i]
				}
				if e.Kind == Post && e.Record == malefiz.RoleTurn {
					require.NotNil(t, collapse, "the old card collapses before the next is posted")
					break
				}
			}
			require.NotNil(t, collapse)
		})
	}
}

// TestTurnCardOffersTheBoard: the turn card has Play on the board while
// the bot serves its Activity, whoever is to move, apart from the moves:
// beside Back and Hint when they have a row of their own, else in the
// last row alone. The private copies (/malefiz board) do not.
func TestTurnCardOffersTheBoard(t *testing.T) {
	board := "mf/board/7/0"
	tests := []struct {
		name     string
		activity bool
		view     func(t *testing.T, tb *Table) Message
		want     []string // the custom IDs of the last row; nil: no board
	}{
		{"the Activity off", false, func(t *testing.T, tb *Table) Message {
			return tb.TurnView(TurnOptions{})
		}, nil},
		{"the roll", true, func(t *testing.T, tb *Table) Message {
			return tb.TurnView(TurnOptions{})
		}, []string{board}},
		{"the moves", true, func(t *testing.T, tb *Table) Message {
			_, err := tb.State.Roll(dice(4))
			require.NoError(t, err)
			return tb.TurnView(TurnOptions{})
		}, []string{board}},
		{"the moves and Hint: Hint beside the moves", true, func(t *testing.T, tb *Table) Message {
			tb.Settings.Hints = true
			_, err := tb.State.Roll(dice(4))
			require.NoError(t, err)
			return tb.TurnView(TurnOptions{})
		}, []string{board}},
		{"a pawn's moves and Back", true, func(t *testing.T, tb *Table) Message {
			_, err := tb.State.Roll(dice(4))
			require.NoError(t, err)
			return tb.TurnView(TurnOptions{Pawn: engine.NoSquare, PawnChosen: true})
		}, []string{"mf/back/7/1", board}},
		{"a pawn's moves, Back and Hint", true, func(t *testing.T, tb *Table) Message {
			tb.Settings.Hints = true
			_, err := tb.State.Roll(dice(4))
			require.NoError(t, err)
			return tb.TurnView(TurnOptions{Pawn: engine.NoSquare, PawnChosen: true})
		}, []string{"mf/back/7/1", "mf/hint/7/1", board}},
		{"a computer to move", true, func(t *testing.T, tb *Table) Message {
			tb.Game.Seats[0].Computer = "easy"
			return tb.TurnView(TurnOptions{})
		}, []string{board}},
		{"the private copy", true, func(t *testing.T, tb *Table) Message {
			_, err := tb.State.Roll(dice(4))
			require.NoError(t, err)
			return tb.TurnView(TurnOptions{Private: true, Viewer: ann.UserID})
		}, nil},
		{"a watcher's private look", true, func(t *testing.T, tb *Table) Message {
			return tb.TurnView(TurnOptions{Private: true, Viewer: cleo.UserID})
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := running(t, "start", RollButton, dice(4))
			tb.Activity = tt.activity
			msg := tt.view(t, tb)
			var all []string
			for _, b := range controls(msg.Rows) {
				all = append(all, b.CustomID)
			}
			assert.LessOrEqual(t, len(msg.Rows), maxRows)
			if tt.want == nil {
				assert.NotContains(t, all, board)
				return
			}
			require.NotEmpty(t, msg.Rows)
			var last []string
			for _, b := range msg.Rows[len(msg.Rows)-1].Buttons {
				last = append(last, b.CustomID)
			}
			assert.Equal(t, tt.want, last)
			assert.Equal(t, 1, countOf(all, board), "once: %v", all)
			assert.Equal(t, "Play on the board", controls(msg.Rows)[len(all)-1].Label)
		})
	}
}

// countOf is how many times s is in list.
func countOf(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// TestLobbyOffersTheBoard: while the bot serves its Activity the lobby
// has Play on the board beside Join, Leave, Start and Cancel, since the
// Activity joins and starts a lobby too; a closed lobby does not.
func TestLobbyOffersTheBoard(t *testing.T) {
	tests := []struct {
		name     string
		activity bool
		status   malefiz.Status
		want     []string
	}{
		{"with the Activity", true, malefiz.StatusLobby, []string{"mf/join/7/0", "mf/leave/7/0", "mf/start/7/0", "mf/cancel/7/0", "mf/board/7/0"}},
		{"without", false, malefiz.StatusLobby, []string{"mf/join/7/0", "mf/leave/7/0", "mf/start/7/0", "mf/cancel/7/0"}},
		{"closed", true, malefiz.StatusCancelled, []string{"mf/join/7/0", "mf/leave/7/0", "mf/start/7/0", "mf/cancel/7/0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := lobby(ann)
			tb.Activity, tb.Game.Status = tt.activity, tt.status
			rows := tb.LobbyMessage().Rows
			require.NotEmpty(t, rows)
			var ids []string
			for _, b := range rows[0].Buttons {
				ids = append(ids, b.CustomID)
			}
			assert.Equal(t, tt.want, ids)
			assert.LessOrEqual(t, len(ids), maxRowButtons)
		})
	}
}
