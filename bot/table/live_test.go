package table

import (
	"strings"
	"testing"
	"time"

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

// TestLiveDrawsThePendingMove: while the mover picks the square of a
// barricade they took, everyone sees the pawn on the barricade's square
// and the barricade lifted off it; watchers read that the mover is
// placing it, and only the mover gets the squares.
func TestLiveDrawsThePendingMove(t *testing.T) {
	tb := running(t, "players=rg turn=r r=e2 g=i7 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", RollButton, dice(1))
	turn := tb.State.TurnNumber()
	require.NoError(t, tb.Play(command(ann), CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	require.NoError(t, tb.Play(command(ann), CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "e2-e3"}))
	require.Equal(t, engine.PhasePlace, tb.State.Phase())

	for _, viewer := range []string{"1", "2", "3", ""} {
		l := tb.Live(viewer, "en")
		require.NotNil(t, l.Pending, "viewer %q", viewer)
		assert.Equal(t, LiveMove{From: "e2", To: "e3", Barricade: true}, *l.Pending)
		assert.Contains(t, l.Pawns, LivePiece{Color: "red", Square: "e3"}, "the pawn on the square it took")
		assert.NotContains(t, l.Pawns, LivePiece{Color: "red", Square: "e2"}, "and no longer where it was")
		assert.NotContains(t, l.Blocks, "e3", "the barricade lifted")
		assert.Len(t, l.Blocks, 10, "the others stay")
		if viewer == "1" {
			assert.NotEmpty(t, l.Places)
			continue
		}
		assert.Equal(t, "🔴 Ann took a barricade and is choosing its square.", l.Said)
		assert.Empty(t, l.Places, "only the mover places")
	}

	require.NoError(t, tb.Play(command(ann), CustomID{Action: ActPlace, Game: 7, Turn: turn, Arg: tb.State.PlacementSquares()[0].String()}))
	l := tb.Live("2", "en")
	assert.Nil(t, l.Pending)
	assert.Len(t, l.Blocks, 11, "placed")
}

// TestLivePendingFromTheHouse: a pawn that left its house for a
// barricade is drawn out of it.
func TestLivePendingFromTheHouse(t *testing.T) {
	tb := running(t, "players=rg turn=r r= g= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,a2", RollButton, dice(4))
	before := tb.Live("2", "en").Seats[0].Home
	turn := tb.State.TurnNumber()
	require.NoError(t, tb.Play(command(ann), CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	require.Contains(t, tb.Live("1", "en").Moves, LiveMove{From: "home", To: "a2", Barricade: true})
	require.NoError(t, tb.Play(command(ann), CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "home-a2"}))
	l := tb.Live("2", "en")
	assert.Equal(t, before-1, l.Seats[0].Home, "out of the house")
	assert.Equal(t, []LivePiece{{Color: "red", Square: "a2"}}, l.Pawns)
	assert.NotContains(t, l.Blocks, "a2")
	assert.Equal(t, &LiveMove{From: "home", To: "a2", Barricade: true}, l.Pending)
}

// TestLiveNamesSeatsAsTheThread: a computer is "Computer (normal)" as in
// the thread's lines, in the viewer's language; a person's name is kept
// as they wrote it (the page writes text).
func TestLiveNamesSeatsAsTheThread(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	tb.Game.Seats[1].Computer, tb.Game.Seats[1].UserID, tb.Game.Seats[1].Name = "normal", "", "normal"
	tb.Game.Seats[0].Name = "Ann_*"
	l := tb.Live("3", "en")
	assert.Equal(t, "Ann_*", l.Seats[0].Name)
	assert.Equal(t, "Computer (normal)", l.Seats[1].Name)
	assert.Equal(t, "Computer (normale)", tb.Live("3", "it").Seats[1].Name)
	tb.Game.Seats[0].Computer = "hard"
	assert.Equal(t, "Ann_*, played by Computer (hard)", tb.Live("3", "en").Seats[0].Name)
}

// TestLiveLobby: the lobby as its card says it (host, options, free
// seats), and who may add or remove computers.
func TestLiveLobby(t *testing.T) {
	tb := lobby(ann, ben)
	tb.Game.Options.SixAgain = true
	tb.Game.Options.TurnTimeout = 2 * time.Hour
	require.NoError(t, tb.ChangeLobby(command(ann), AddComputer(command(ann), "normal")))

	host := tb.Live("1", "en")
	require.NotNil(t, host.Lobby)
	assert.Equal(t, "Host: Ann", host.Lobby.Host)
	assert.Contains(t, host.Lobby.Options, "Rules: roll again on a 6")
	assert.Contains(t, host.Lobby.Options, "Time per turn: 2 hours")
	assert.Contains(t, host.Lobby.Options, "Die: "+tr("en", locales.RollButton))
	assert.Equal(t, []string{"blue"}, host.Lobby.Free)
	assert.Equal(t, "free seat", host.Lobby.FreeSeat)
	assert.NotEmpty(t, host.Lobby.Levels)
	assert.Equal(t, LiveChoice{Value: "easy", Label: "easy", Hint: tr("en", locales.LevelHint("easy"))}, host.Lobby.Levels[0])
	assert.True(t, host.Lobby.RemoveComputers)
	assert.Equal(t, "Computer (normal)", host.Seats[2].Name)

	seated := tb.Live("2", "en")
	assert.NotEmpty(t, seated.Lobby.Levels, "a seated player adds computers, as in the thread")
	assert.False(t, seated.Lobby.RemoveComputers)
	watcher := tb.Live("3", "en")
	assert.Empty(t, watcher.Lobby.Levels)
	assert.False(t, watcher.Lobby.RemoveComputers)

	require.NoError(t, tb.ChangeLobby(command(ben), AddComputer(command(ben), "easy")))
	assert.Empty(t, tb.Live("1", "en").Lobby.Levels, "no seat free")
	assert.Nil(t, running(t, "start", RollButton, dice(6)).Live("1", "en").Lobby, "a running game has no lobby")
}

// TestRemoveComputer: the host frees a computer's seat; anyone else, a
// person's seat or a free one is refused, nothing changed.
func TestRemoveComputer(t *testing.T) {
	tests := []struct {
		name  string
		by    Actor
		color string
		want  locales.Key
	}{
		{"the host", ann, "green", ""},
		{"a seated player", ben, "green", locales.ErrOnlyHostRemoves},
		{"a watcher", cleo, "green", locales.ErrOnlyHostRemoves},
		{"a person's seat", ann, "red", locales.ErrNoComputerThere},
		{"a free seat", ann, "blue", locales.ErrNoComputerThere},
		{"no colour", ann, "", locales.ErrNoComputerThere},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := lobby(ann)
			require.NoError(t, tb.ChangeLobby(command(ann), AddComputer(command(ann), "hard")))
			require.NoError(t, tb.ChangeLobby(command(ben), Join(command(ben))))
			tb.Events, tb.Reply = nil, nil
			err := tb.ChangeLobby(command(tt.by), RemoveComputer(command(tt.by), tt.color))
			assert.Equal(t, tt.want, refusal(err))
			if tt.want != "" {
				assert.Len(t, tb.Game.Seats, 3, "nothing changed")
				assert.Empty(t, tb.Events)
				return
			}
			require.NoError(t, err)
			require.Len(t, tb.Game.Seats, 2)
			assert.Equal(t, []string{"1", "2"}, []string{tb.Game.Seats[0].UserID, tb.Game.Seats[1].UserID})
			assert.Equal(t, "green", tb.Game.Seats[1].Color, "the seats close up")
			assert.Equal(t, []string{malefiz.EventLeave}, eventKinds(tb))
			assert.Equal(t, tr("en", locales.LobbyComputerRemoved), tb.Reply.Message.Content)
			assert.Contains(t, kinds(tb), "edit:lobby", "the card in the channel follows")
		})
	}
}

// TestBoardHint: the hint as the Activity shows it is Hint's decision,
// recorded the same; refused when hints are off or it is not the asker's
// move to choose.
func TestBoardHint(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	turn := tb.State.TurnNumber()
	assert.Equal(t, locales.HintOff, refusal(second(tb.BoardHint(ann, turn))))
	tb.Settings.Hints = true
	assert.Equal(t, locales.ErrNotYourTurn, refusal(second(tb.BoardHint(ann, turn))), "before the roll")
	require.NoError(t, tb.Play(command(ann), CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	assert.False(t, tb.Live("2", "en").Hints)
	assert.True(t, tb.Live("1", "en").Hints)
	assert.Equal(t, locales.ErrNotYourTurn, refusal(second(tb.BoardHint(ben, turn))))
	assert.Equal(t, locales.ErrNotInGame, refusal(second(tb.BoardHint(cleo, turn))))
	assert.Equal(t, locales.ErrNotYourTurn, refusal(second(tb.BoardHint(ann, turn-1))), "an old turn")
	tb.Events = nil

	h, err := tb.BoardHint(ann, turn)
	require.NoError(t, err)
	assert.Equal(t, "home", h.From)
	assert.Contains(t, tb.Live("1", "en").Moves, LiveMove{From: h.From, To: h.To}, "one of the moves offered")
	assert.True(t, strings.HasPrefix(h.Text, "💡 The computer would play"), h.Text)
	assert.Equal(t, []string{EventHint}, eventKinds(tb), "recorded: the verdict names who asked")
	assert.Nil(t, tb.Reply, "no reply: the page shows it")

	require.NoError(t, tb.Hint(ann, CustomID{Action: ActHint, Game: 7, Turn: turn}))
	assert.Equal(t, h.Text, tb.Reply.Message.Content, "the button's answer says the same")
}

// second is the error of a two-value call.
func second[T any](_ T, err error) error { return err }
