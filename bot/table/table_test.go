package table

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
)

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// dice rolls rolls in turn, then the last one again and again.
func dice(rolls ...int) engine.Dice {
	i := 0
	return engine.DiceFunc(func() int {
		n := rolls[min(i, len(rolls)-1)]
		i++
		return n
	})
}

var (
	ann   = Actor{UserID: "1", Name: "Ann", Lang: "en", Click: true, MessageID: "m-turn"}
	ben   = Actor{UserID: "2", Name: "Ben", Lang: "en", Click: true, MessageID: "m-turn"}
	cleo  = Actor{UserID: "3", Name: "Cleo", Lang: "en", Click: true, MessageID: "m-turn"}
	admin = Actor{UserID: "9", Name: "Mod", Lang: "en", Manager: true}
)

// command is a as the author of a slash command.
func command(a Actor) Actor { a.Click, a.MessageID = false, ""; return a }

// settings are a server's defaults in these tests.
var settings = malefiz.GuildSettings{TurnTimeout: time.Hour, Reminders: true, Threads: true, Roll: RollButton}

// lobby is a game of 4 seats in its lobby, hosted by Ann, with seats for
// the given users.
func lobby(seated ...Actor) *Table {
	g := &malefiz.Game{ID: 7, GuildID: "g", ChannelID: "c", HostID: "1", Status: malefiz.StatusLobby, Locale: "en",
		Options: malefiz.Options{Seats: 4, Roll: RollButton}, LobbyMessageID: "m-lobby", WakeAt: now.Add(LobbyLifetime)}
	t := &Table{Game: g, Settings: settings, Now: now, Dice: dice(6), DMs: map[string]bool{"1": true, "2": true}}
	for _, a := range seated {
		g.Seats = append(g.Seats, malefiz.Seat{UserID: a.UserID, Name: a.Name})
	}
	t.recolor()
	return t
}

// running is Ann (red) against Ben (green), started, with the game at
// position and the roll mode roll.
func running(tb testing.TB, position string, roll string, d engine.Dice) *Table {
	tb.Helper()
	t := lobby(ann, ben)
	t.Dice = d
	t.Game.Options.Roll = roll
	t.Game.Status = malefiz.StatusRunning
	t.Game.TurnMessageID = "m-turn"
	if position == "start" {
		g, err := engine.NewGame([]engine.Color{engine.Red, engine.Green}, engine.Red, engine.Rules{})
		require.NoError(tb, err)
		t.State = g
	} else {
		p, err := engine.ParsePosition(position)
		require.NoError(tb, err)
		t.State = engine.NewGameAt(p, engine.Rules{})
	}
	t.beginTurn()
	t.Dirty, t.Wake, t.Events = false, false, nil
	return t
}

// refusal is the key of err's refusal, "" for none.
func refusal(err error) locales.Key {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Key
	}
	return ""
}

// kinds lists the kinds of t's effects and their targets.
func kinds(t *Table) []string {
	var out []string
	for _, e := range t.Effects() {
		s := string(e.Kind)
		if e.Target != "" {
			s += ":" + string(e.Target)
		}
		if e.Record != "" {
			s += ">" + string(e.Record)
		}
		out = append(out, s)
	}
	return out
}

func eventKinds(t *Table) []string {
	var out []string
	for _, e := range t.Events {
		out = append(out, e.Kind)
	}
	return out
}

func TestLobbyChanges(t *testing.T) {
	for _, c := range []struct {
		name    string
		table   func() *Table
		by      Actor
		change  func(a Actor) LobbyChange
		refused locales.Key
		seats   int
		host    string
		status  malefiz.Status
	}{
		{"join", func() *Table { return lobby(ann) }, ben, Join, "", 2, "1", malefiz.StatusLobby},
		{"join twice", func() *Table { return lobby(ann, ben) }, ben, Join, locales.ErrAlreadySeated, 2, "1", malefiz.StatusLobby},
		{"join a full lobby", func() *Table { t := lobby(ann, ben); t.Game.Options.Seats = 2; return t }, cleo, Join, locales.ErrLobbyFull, 2, "1", malefiz.StatusLobby},
		{"leave", func() *Table { return lobby(ann, ben) }, ben, Leave, "", 1, "1", malefiz.StatusLobby},
		{"the host leaves", func() *Table { return lobby(ann, ben) }, ann, Leave, "", 1, "2", malefiz.StatusLobby},
		{"leave unseated", func() *Table { return lobby(ann) }, ben, Leave, locales.ErrNotInGame, 1, "1", malefiz.StatusLobby},
		{"the last person leaves", func() *Table { return lobby(ann) }, ann, Leave, "", 0, "1", malefiz.StatusCancelled},
		{"add a computer", func() *Table { return lobby(ann) }, ann, func(a Actor) LobbyChange { return AddComputer(a, "easy") }, "", 2, "1", malefiz.StatusLobby},
		{"add an unknown computer", func() *Table { return lobby(ann) }, ann, func(a Actor) LobbyChange { return AddComputer(a, "godlike") }, locales.ErrBadLevel, 1, "1", malefiz.StatusLobby},
		{"add a computer unseated", func() *Table { return lobby(ann) }, ben, func(a Actor) LobbyChange { return AddComputer(a, "easy") }, locales.ErrNotInGame, 1, "1", malefiz.StatusLobby},
		{"add a computer to a full lobby", func() *Table { t := lobby(ann, ben); t.Game.Options.Seats = 2; return t }, ann, func(a Actor) LobbyChange { return AddComputer(a, "easy") }, locales.ErrLobbyFull, 2, "1", malefiz.StatusLobby},
		{"join a running game", func() *Table { return running(t, "start", RollButton, dice(6)) }, cleo, Join, locales.ErrNotALobby, 2, "1", malefiz.StatusRunning},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := c.table()
			err := tb.ChangeLobby(c.by, c.change(c.by))
			assert.Equal(t, c.refused, refusal(err))
			assert.Len(t, tb.Game.Seats, c.seats)
			assert.Equal(t, c.host, tb.Game.HostID)
			assert.Equal(t, c.status, tb.Game.Status)
			if c.refused != "" {
				assert.Empty(t, tb.Effects())
				return
			}
			require.NotNil(t, tb.Reply)
			assert.Equal(t, Update, tb.Reply.Kind, "a click updates the lobby in place")
			for i, s := range tb.Game.Seats {
				assert.Equal(t, Colors[i].String(), s.Color, "seats keep the joining order's colours")
			}
		})
	}
}

func TestLobbyCommandAnswersPrivatelyAndEditsTheLobby(t *testing.T) {
	tb := lobby(ann)
	require.NoError(t, tb.ChangeLobby(command(ben), Join(command(ben))))
	assert.Equal(t, Private, tb.Reply.Kind)
	assert.Equal(t, tr("en", locales.LobbyJoined), tb.Reply.Message.Content)
	require.Equal(t, []string{"edit:lobby"}, kinds(tb))
	assert.True(t, tb.Effects()[0].RepostIfGone, "a lobby message that is gone is posted again")
	assert.Equal(t, []string{malefiz.EventJoin}, eventKinds(tb))
}

func TestLobbyView(t *testing.T) {
	tb := lobby(ann)
	tb.Game.Options.SixAgain, tb.Game.Options.SafeRow2 = true, true
	tb.Game.Options.TurnTimeout = 90 * time.Minute
	msg := tb.LobbyMessage()
	require.Len(t, msg.Embeds, 1)
	desc := msg.Embeds[0].Description
	assert.Contains(t, desc, "<@1>")
	assert.Contains(t, desc, tr("en", locales.LobbyRuleSixAgain))
	assert.Contains(t, desc, FormatDuration("en", 90*time.Minute))
	require.Len(t, msg.Rows, 2, "buttons, and the menu of computers while a seat is free")
	assert.True(t, msg.Rows[0].Buttons[2].Disabled, "Start waits for a second player")
	require.NotNil(t, msg.Rows[1].Menu)
	id, err := ParseCustomID(msg.Rows[1].Menu.CustomID)
	require.NoError(t, err)
	assert.Equal(t, ActAddBot, id.Action)

	tb.Game.Status = malefiz.StatusCancelled
	assert.Equal(t, tr("en", locales.LobbyClosed), tb.LobbyMessage().Embeds[0].Title)
}

func TestFormatDuration(t *testing.T) {
	assert.Equal(t, "2 days", FormatDuration("en", 48*time.Hour))
	assert.Equal(t, "6 hours", FormatDuration("en", 6*time.Hour))
	assert.Equal(t, "90 minutes", FormatDuration("en", 90*time.Minute))
}

func TestOpenAndRematch(t *testing.T) {
	tb := &Table{Game: &malefiz.Game{ID: 8, Status: malefiz.StatusLobby, Locale: "en", Options: malefiz.Options{Seats: 3}}, Now: now}
	tb.Open(command(ann), 2, "hard")
	tb.AdoptLobby()
	assert.Len(t, tb.Game.Seats, 3)
	assert.Equal(t, "hard", tb.Game.Seats[2].Computer)
	assert.Equal(t, []string{"adopt>lobby"}, kinds(tb))
	assert.True(t, tb.Wake)

	re := &Table{Game: &malefiz.Game{ID: 9, Status: malefiz.StatusLobby, Locale: "en", Options: malefiz.Options{Seats: 4}}, Now: now}
	re.OpenRematch(ben, tb.Game)
	assert.Len(t, re.Game.Seats, 3, "the clicker and the old game's computers")
	assert.Equal(t, "2", re.Game.Seats[0].UserID)
	re.PostLobby()
	assert.Equal(t, []string{"post>lobby"}, kinds(re))

	require.NoError(t, re.JoinRematch(cleo))
	assert.Equal(t, Private, re.Reply.Kind)
	assert.Equal(t, []string{"post>lobby", "edit:lobby"}, kinds(re))
	assert.Equal(t, locales.ErrAlreadySeated, refusal(re.JoinRematch(cleo)))
}

func TestStartRefusals(t *testing.T) {
	for _, c := range []struct {
		name  string
		table func() *Table
		by    Actor
		want  locales.Key
	}{
		{"running", func() *Table { return running(t, "start", RollButton, dice(6)) }, ann, locales.ErrAlreadyStarted},
		{"cancelled", func() *Table { t := lobby(ann, ben); t.Game.Status = malefiz.StatusCancelled; return t }, ann, locales.ErrGameEnded},
		{"not the host", func() *Table { return lobby(ann, ben) }, ben, locales.ErrOnlyHostStarts},
		{"alone", func() *Table { return lobby(ann) }, ann, locales.ErrNeedTwo},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, refusal(c.table().Start(c.by, 0)))
		})
	}
}

func TestStartInAThread(t *testing.T) {
	tb := lobby(ann, ben)
	tb.Game.Threaded = true
	tb.Game.LobbyMessageID = ""
	onLobby := ann
	onLobby.MessageID = "m-lobby"
	require.NoError(t, tb.Start(onLobby, 1))
	assert.Equal(t, malefiz.StatusRunning, tb.Game.Status)
	assert.Equal(t, engine.Green, tb.State.Turn(), "the drawn seat begins")
	assert.Equal(t, "m-lobby", tb.Game.LobbyMessageID, "the click names the lobby not recorded yet")
	assert.Equal(t, Update, tb.Reply.Kind, "the lobby becomes the card")
	assert.Equal(t, []string{"thread>thread", "member", "member", "post", "post>turn", "dm:turn", "edit:lobby"}, kinds(tb))
	opener := tb.Effects()[3].Message.Content
	assert.Contains(t, opener, "🔴 <@1>")
	assert.Contains(t, opener, tr("en", locales.TurnFirst, "🟢 Ben"))
	turn := tb.Effects()[4].Message
	assert.Equal(t, []string{"2"}, turn.Pings, "the turn message pings the player to move")
	assert.Equal(t, now.Add(time.Hour), tb.Game.Deadline)
	assert.Equal(t, now.Add(30*time.Minute), tb.Game.WakeAt, "the reminder comes first")
	assert.Contains(t, tb.threadName(), "Ann, Ben")
}

func TestStartByCommandWithComputersFirst(t *testing.T) {
	tb := lobby(ann)
	tb.Game.Seats = append(tb.Game.Seats, malefiz.Seat{Computer: "easy", Name: "easy"})
	tb.recolor()
	require.NoError(t, tb.Start(command(ann), 1))
	assert.Equal(t, Private, tb.Reply.Kind)
	assert.Equal(t, []string{"edit:lobby", "post", "post>turn", "dm:turn", "edit:lobby"}, kinds(tb))
	opener := tb.Effects()[1].Message.Content
	assert.Contains(t, opener, tr("en", locales.TurnPrefix, 1), "the computer's first turn is a line of the opener")
	assert.Equal(t, engine.Red, tb.State.Turn())
}

func TestStartWithComputersOnly(t *testing.T) {
	tb := lobby(ann)
	tb.Game.Seats = []malefiz.Seat{{UserID: "1", Name: "Ann", Computer: "easy"}, {Computer: "easy", Name: "easy"}}
	tb.recolor()
	require.NoError(t, tb.Start(ann, 0))
	if tb.State.Over() {
		assert.Contains(t, kinds(tb), "post")
		return
	}
	assert.Equal(t, now, tb.Game.WakeAt, "more turns than one change plays: the scheduler goes on at once")
	assert.NotContains(t, kinds(tb), "post>turn")
}

func TestTurnRefusals(t *testing.T) {
	for _, c := range []struct {
		name  string
		table func() *Table
		by    Actor
		id    CustomID
		want  locales.Key
	}{
		{"in the lobby", func() *Table { return lobby(ann, ben) }, ann, CustomID{Action: ActRoll, Game: 7, Turn: 1}, locales.ErrNotStarted},
		{"ended", func() *Table {
			t := running(t, "start", RollButton, dice(6))
			t.Game.Status = malefiz.StatusCancelled
			return t
		}, ann, CustomID{Action: ActRoll, Game: 7, Turn: 1}, locales.ErrGameEnded},
		{"an old turn", func() *Table { return running(t, "start", RollButton, dice(6)) }, ann, CustomID{Action: ActRoll, Game: 7, Turn: 9}, locales.ErrOldButton},
		{"not in the game", func() *Table { return running(t, "start", RollButton, dice(6)) }, cleo, CustomID{Action: ActRoll, Game: 7, Turn: 1}, locales.ErrNotInGame},
		{"not their turn", func() *Table { return running(t, "start", RollButton, dice(6)) }, ben, CustomID{Action: ActRoll, Game: 7, Turn: 1}, locales.ErrNotYourTurn},
		{"a move before the roll", func() *Table { return running(t, "start", RollButton, dice(6)) }, ann, CustomID{Action: ActMove, Game: 7, Turn: 1, Arg: "home-a2"}, locales.ErrAlreadyDone},
		{"a bad move", func() *Table { t := running(t, "start", RollButton, dice(4)); t.State.Roll(t.Dice); return t }, ann, CustomID{Action: ActMove, Game: 7, Turn: 1, Arg: "nonsense"}, locales.ErrUnknownButton},
		{"an illegal move", func() *Table { t := running(t, "start", RollButton, dice(4)); t.State.Roll(t.Dice); return t }, ann, CustomID{Action: ActMove, Game: 7, Turn: 1, Arg: "home-i13"}, locales.ErrUnknownButton},
		{"a bad pawn", func() *Table { t := running(t, "start", RollButton, dice(4)); t.State.Roll(t.Dice); return t }, ann, CustomID{Action: ActPawn, Game: 7, Turn: 1, Arg: "zz"}, locales.ErrUnknownButton},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := c.table()
			assert.Equal(t, c.want, refusal(tb.Turn(c.by, c.id)))
		})
	}
}

func TestRollShowsTheMoves(t *testing.T) {
	tb := running(t, "start", RollButton, dice(4))
	tb.Game.TurnMessageID = "m-turn"
	a := ann
	a.MessageID = "m-turn"
	require.NoError(t, tb.Turn(a, CustomID{Action: ActRoll, Game: 7, Turn: 1}))
	assert.Equal(t, []string{malefiz.EventRoll}, eventKinds(tb))
	assert.Equal(t, Update, tb.Reply.Kind)
	assert.Len(t, controls(tb.Reply.Message.Rows), 3)
	assert.Empty(t, tb.Effects(), "the turn message changes in place")

	// Pick the pawn at home, go back, then move: the turn ends.
	require.NoError(t, tb.Turn(a, CustomID{Action: ActPawn, Game: 7, Turn: 1, Arg: "home"}))
	require.NoError(t, tb.Turn(a, CustomID{Action: ActBack, Game: 7, Turn: 1}))
	require.NoError(t, tb.Turn(a, CustomID{Action: ActMove, Game: 7, Turn: 1, Arg: "home-a2"}))
	assert.Equal(t, []string{malefiz.EventRoll, malefiz.EventMove}, eventKinds(tb))
	assert.Equal(t, Update, tb.Reply.Kind)
	assert.True(t, strings.HasPrefix(tb.Reply.Message.Content, tr("en", locales.TurnPrefix, 1)), "the turn collapses to its line")
	assert.Empty(t, tb.Reply.Message.Rows)
	assert.Equal(t, []string{"post>turn", "dm:turn", "edit:lobby"}, kinds(tb))
	assert.Equal(t, engine.Green, tb.State.Turn())
}

func TestMoveOnAPrivateCopyCollapsesTheTurnMessage(t *testing.T) {
	tb := running(t, "start", RollButton, dice(4))
	_, err := tb.State.Roll(tb.Dice)
	require.NoError(t, err)
	a := ann
	a.MessageID = "m-copy"
	require.NoError(t, tb.Turn(a, CustomID{Action: ActMove, Game: 7, Turn: 1, Arg: "home-a2"}))
	assert.Equal(t, []string{"edit:turn", "post>turn", "dm:turn", "edit:lobby"}, kinds(tb), "the old turn message collapses before the next is posted")
}

func TestRollWithoutMovePasses(t *testing.T) {
	// Red's pawns are boxed in by barricades: a 3 passes.
	tb := running(t, "players=rg turn=r r=i10,a12,q12,g8,k8 g= x=i9,i11,a11,a13,q11,q13,g7,g9,k7,k9", RollButton, dice(3))
	err := tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: tb.State.TurnNumber()})
	require.NoError(t, err)
	assert.Equal(t, engine.Green, tb.State.Turn())
	assert.Contains(t, eventKinds(tb), malefiz.EventPass)
	assert.Contains(t, tb.Reply.Message.Content, tr("en", locales.TurnNoMove))
}

func TestBarricadeCaptureAsksWhereItGoes(t *testing.T) {
	tb := running(t, "players=rg turn=r r=e2 g=i7 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,i13", RollButton, dice(1))
	turn := tb.State.TurnNumber()
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "e2-e3"}))
	require.Equal(t, engine.PhasePlace, tb.State.Phase())
	msg := tb.Reply.Message
	assert.Len(t, msg.Rows[0].Buttons, len(tb.suggestions("en")))
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActPlaceRow, Game: 7, Turn: turn, Arg: "7"}))
	rows := tb.Reply.Message.Rows
	assert.NotNil(t, rows[len(rows)-2].Menu, "the row's squares as a menu")
	assert.Equal(t, locales.ErrUnknownButton, refusal(tb.Turn(ann, CustomID{Action: ActPlaceRow, Game: 7, Turn: turn, Arg: "99"})))
	assert.Equal(t, locales.ErrUnknownButton, refusal(tb.Turn(ann, CustomID{Action: ActPlace, Game: 7, Turn: turn, Arg: "??"})))
	assert.Equal(t, locales.ErrBadPlace, refusal(tb.Turn(ann, CustomID{Action: ActPlace, Game: 7, Turn: turn, Arg: "i14"})))
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActBack, Game: 7, Turn: turn}))
	assert.Equal(t, engine.PhaseMove, tb.State.Phase(), "back takes the capture back")
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "e2-e3"}))
	sq := tb.State.PlacementSquares()[0]
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActPlace, Game: 7, Turn: turn, Arg: sq.String()}))
	assert.Equal(t, []string{malefiz.EventRoll, malefiz.EventMove, EventBack, malefiz.EventMove, malefiz.EventPlace}, eventKinds(tb))
	assert.Contains(t, tb.Reply.Message.Content, tr("en", locales.TurnBarricadeTo, sq.String()))
}

func TestWinningMoveFinishes(t *testing.T) {
	tb := running(t, "players=rg turn=r r=h13 g= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11", RollButton, dice(2))
	tb.Game.Threaded = true
	tb.Game.ReminderSent = true
	turn := tb.State.TurnNumber()
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "h13-i14"}))
	assert.True(t, tb.Finished())
	assert.Equal(t, []string{"delete:reminder", "post", "edit:lobby", "dm:lobby", "dm:lobby", "settle"}, kinds(tb))
	result := tb.Effects()[1]
	assert.True(t, result.Result, "the result gets the rating changes")
	assert.Contains(t, result.Message.Embeds[0].Title, "🏆")
	assert.Equal(t, []string{"1", "2"}, result.Message.Pings)
	assert.Contains(t, eventKinds(tb), malefiz.EventWin)
}

func TestAutoRollPlaysForcedTurns(t *testing.T) {
	// Green's only move is forced: with roll auto it plays itself.
	tb := running(t, "start", RollAuto, dice(4))
	_, err := tb.State.Roll(tb.Dice)
	require.NoError(t, err)
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: 1, Arg: "home-a2"}))
	// The next turn was rolled for green (auto); it waits for green's move
	// unless it had at most one.
	for _, e := range tb.Events {
		if e.Kind == malefiz.EventRoll && e.Color == "green" {
			return
		}
	}
	t.Fatalf("events %v: no roll for green", eventKinds(tb))
}

func TestDueTimers(t *testing.T) {
	t.Run("not due", func(t *testing.T) {
		tb := running(t, "start", RollButton, dice(6))
		tb.Now = now.Add(time.Minute)
		require.NoError(t, tb.Due())
		assert.False(t, tb.Dirty)
	})
	t.Run("a lobby expires", func(t *testing.T) {
		tb := lobby(ann)
		tb.Now = now.Add(LobbyLifetime)
		require.NoError(t, tb.Due())
		assert.Equal(t, malefiz.StatusCancelled, tb.Game.Status)
		assert.Equal(t, []string{"edit:lobby"}, kinds(tb))
	})
	t.Run("an ended game forgets its timer", func(t *testing.T) {
		tb := running(t, "start", RollButton, dice(6))
		tb.Game.Status = malefiz.StatusCancelled
		tb.Now = now.Add(time.Hour)
		require.NoError(t, tb.Due())
		assert.True(t, tb.Game.WakeAt.IsZero())
	})
	t.Run("the reminder", func(t *testing.T) {
		tb := running(t, "start", RollButton, dice(6))
		tb.Now = now.Add(30 * time.Minute)
		require.NoError(t, tb.Due())
		assert.True(t, tb.Game.ReminderSent)
		assert.Equal(t, now.Add(time.Hour), tb.Game.WakeAt, "then the deadline")
		assert.Equal(t, []string{"post>reminder", "dm:turn"}, kinds(tb))
		assert.Equal(t, "m-turn", tb.Effects()[0].Message.ReplyTo)
		// Before the deadline, nothing but the wake-up time.
		tb2 := running(t, "start", RollButton, dice(6))
		tb2.Game.ReminderSent = true
		tb2.Game.WakeAt = now
		tb2.Now = now.Add(40 * time.Minute)
		require.NoError(t, tb2.Due())
		assert.Equal(t, now.Add(time.Hour), tb2.Game.WakeAt)
	})
	t.Run("a timeout", func(t *testing.T) {
		tb := running(t, "start", RollButton, dice(6))
		tb.Game.ReminderSent = true
		tb.Now = now.Add(time.Hour)
		require.NoError(t, tb.Due())
		assert.Equal(t, []string{"edit:turn", "delete:reminder", "post>turn", "dm:turn", "edit:lobby"}, kinds(tb))
		assert.Contains(t, tb.Effects()[0].Message.Content, tr("en", locales.TimerTimedOutWho, "🔴 Ann"))
		assert.Equal(t, 1, tb.Game.Seats[0].Timeouts)
	})
	t.Run("a takeover after three", func(t *testing.T) {
		tb := running(t, "start", RollButton, dice(6))
		tb.Game.Seats[0].Timeouts = maxTimeouts - 1
		tb.Now = now.Add(time.Hour)
		require.NoError(t, tb.Due())
		assert.Equal(t, takeoverLevel, tb.Game.Seats[0].Computer)
		assert.Contains(t, eventKinds(tb), malefiz.EventReplace)
		assert.Contains(t, tb.Effects()[0].Message.Content, tr("en", locales.TimerTakenOver, "Ann", maxTimeouts))
	})
	t.Run("computer turns go on", func(t *testing.T) {
		tb := running(t, "start", RollButton, dice(6))
		tb.Game.Seats[0].Computer = "easy"
		tb.Game.Deadline, tb.Game.WakeAt = time.Time{}, now
		require.NoError(t, tb.Due())
		assert.Equal(t, []string{"post", "post>turn", "dm:turn", "edit:lobby"}, kinds(tb), "the computer's line, then the next turn")
	})
}

func TestResign(t *testing.T) {
	assert.Equal(t, locales.ErrGameEnded, refusal(lobby(ann, ben).Resign(ann)))
	assert.Equal(t, locales.ErrNotInGame, refusal(running(t, "start", RollButton, dice(6)).Resign(cleo)))

	tb := running(t, "start", RollButton, dice(6))
	require.NoError(t, tb.Resign(ann))
	assert.True(t, tb.Finished(), "the last one left wins")
	assert.Equal(t, Update, tb.Reply.Kind)
	assert.Equal(t, []string{"post", "edit:turn", "post", "edit:lobby", "dm:lobby"}, kinds(tb))

	three := lobby(ann, ben, cleo, Actor{UserID: "4", Name: "Dan"})
	three.Game.Status = malefiz.StatusRunning
	g, err := engine.NewGame([]engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}, engine.Red, engine.Rules{})
	require.NoError(t, err)
	three.State = g
	three.Game.TurnMessageID = "m-turn"
	require.NoError(t, three.Resign(command(cleo)))
	assert.Equal(t, Public, three.Reply.Kind)
	assert.Equal(t, []string{"edit:lobby"}, kinds(three), "not their turn: only the card changes")
	require.NoError(t, three.Resign(command(ann)))
	assert.Equal(t, []string{"edit:lobby", "edit:turn", "post>turn", "dm:turn", "edit:lobby"}, kinds(three))
	assert.Equal(t, engine.Green, three.State.Turn())
}

func TestCancel(t *testing.T) {
	t.Run("refusals", func(t *testing.T) {
		ended := lobby(ann)
		ended.Game.Status = malefiz.StatusFinished
		assert.Equal(t, locales.ErrGameEnded, refusal(ended.Cancel(ann)))
		assert.Equal(t, locales.ErrOnlyHostCancels, refusal(lobby(ann, ben).Cancel(ben)))
	})
	t.Run("a lobby", func(t *testing.T) {
		tb := lobby(ann)
		require.NoError(t, tb.Cancel(command(ann)))
		assert.Equal(t, malefiz.StatusCancelled, tb.Game.Status)
		assert.Equal(t, Public, tb.Reply.Kind)
		assert.Equal(t, []string{"edit:lobby"}, kinds(tb))
	})
	t.Run("a running game by a moderator", func(t *testing.T) {
		tb := running(t, "start", RollButton, dice(6))
		tb.Game.Threaded = true
		require.NoError(t, tb.Cancel(admin))
		assert.Equal(t, malefiz.StatusCancelled, tb.Game.Status)
		assert.Equal(t, []string{"edit:turn", "edit:lobby", "archive"}, kinds(tb))
	})
	t.Run("a vote after the first turn", func(t *testing.T) {
		tb := running(t, "start", RollButton, dice(6))
		for tb.State.TurnNumber() < 2 {
			_, err := tb.State.Roll(tb.Dice)
			require.NoError(t, err)
			if tb.State.Phase() == engine.PhaseMove {
				require.NoError(t, tb.State.Move(tb.State.LegalMoves()[0]))
			}
		}
		require.NoError(t, tb.Cancel(ann))
		assert.Equal(t, malefiz.StatusRunning, tb.Game.Status)
		require.NotNil(t, tb.Game.Options.CancelVote)
		assert.Equal(t, []string{"post"}, kinds(tb))
		assert.Equal(t, []string{"2"}, tb.Effects()[0].Message.Pings)
		assert.Equal(t, locales.ErrVoteOpen, refusal(tb.Cancel(ann)))

		assert.Equal(t, locales.ErrNotYourVote, refusal(tb.Vote(ann, true)))
		require.NoError(t, tb.Vote(ben, true))
		assert.Equal(t, malefiz.StatusCancelled, tb.Game.Status, "everyone agreed")
		assert.Equal(t, locales.ErrGameEnded, refusal(tb.Vote(ben, true)))
	})
	t.Run("a vote refused, and one too late", func(t *testing.T) {
		tb := running(t, "start", RollButton, dice(6))
		tb.Game.Options.CancelVote = &malefiz.CancelVote{By: "1", Until: now.Add(time.Hour)}
		require.NoError(t, tb.Vote(ben, false))
		assert.Nil(t, tb.Game.Options.CancelVote)
		tb.Game.Options.CancelVote = &malefiz.CancelVote{By: "1", Until: now}
		require.NoError(t, tb.Vote(ben, true))
		assert.Nil(t, tb.Game.Options.CancelVote)
		assert.Equal(t, tr("en", locales.VoteClosed), tb.Reply.Message.Content)
	})
	t.Run("a vote that waits for more", func(t *testing.T) {
		tb := lobby(ann, ben, cleo)
		tb.Game.Status = malefiz.StatusRunning
		g, err := engine.NewGame([]engine.Color{engine.Red, engine.Green, engine.Yellow}, engine.Red, engine.Rules{})
		require.NoError(t, err)
		tb.State = g
		tb.Game.Options.CancelVote = &malefiz.CancelVote{By: "1", Until: now.Add(time.Hour)}
		require.NoError(t, tb.Vote(ben, true))
		assert.Equal(t, malefiz.StatusRunning, tb.Game.Status)
		assert.Contains(t, tb.Reply.Message.Content, tr("en", locales.VoteAgreed, "<@2>"))
	})
}

func TestPrivateBoardAndGameLine(t *testing.T) {
	tb := lobby(ann)
	require.NoError(t, tb.PrivateBoard(command(ann)))
	assert.Equal(t, Private, tb.Reply.Kind)
	assert.Empty(t, tb.Reply.Message.Rows, "the lobby's buttons stay on the lobby message")
	assert.Contains(t, tb.GameLine("1", "en"), tr("en", locales.GamesLobby))

	run := running(t, "start", RollButton, dice(6))
	require.NoError(t, run.PrivateBoard(command(ben)))
	assert.Empty(t, run.Reply.Message.Rows, "an onlooker reads whose turn it is")
	assert.Contains(t, run.Reply.Message.Embeds[0].Description, "https://discord.com/channels/g/c/m-turn")
	require.NoError(t, run.PrivateBoard(command(ann)))
	assert.NotEmpty(t, run.Reply.Message.Rows, "the mover gets the buttons")
	assert.Empty(t, run.Reply.Message.Pings)
	assert.True(t, strings.HasPrefix(run.GameLine("1", "en"), "🎲"), "your turn first")
	assert.Contains(t, run.GameLine("2", "en"), "🔴 Ann")

	ended := running(t, "start", RollButton, dice(6))
	ended.Game.Status = malefiz.StatusCancelled
	assert.Equal(t, locales.ErrNoGameHere, refusal(ended.PrivateBoard(command(ann))))
}

func TestResultsReplayTheLog(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	start := []malefiz.Event{{Seq: 1, Kind: malefiz.EventStart, Color: "red"}}
	require.NoError(t, tb.Resign(ann))
	results, err := tb.Results(start)
	require.NoError(t, err)
	require.Len(t, results, 2)
	assert.True(t, results[1].Won)
	assert.True(t, results[1].Forfeit)
	assert.Equal(t, []int{2, 1}, []int{results[0].Place, results[1].Place}, "the winner first")

	_, err = tb.Results(nil)
	assert.Error(t, err, "a log that does not replay to the state")
}

// Without a winner yet, the places follow the distance to the goal.
func TestResultsPlaceByDistance(t *testing.T) {
	tb := running(t, "players=rg turn=r r=c1 g=i14 x=a3", RollButton, dice(6))
	results := tb.results(tb.State)
	require.Len(t, results, 2)
	assert.Equal(t, []int{2, 1}, []int{results[0].Place, results[1].Place}, "green is nearer")
}

func TestNewDecodesTheSnapshot(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	sg, err := tb.Snapshot()
	require.NoError(t, err)
	back, err := New(sg, settings, now, dice(6))
	require.NoError(t, err)
	assert.Equal(t, tb.State.Position(), back.State.Position())
	sg.State = []byte("garbage")
	_, err = New(sg, settings, now, dice(6))
	assert.Error(t, err)
}

func TestDirectMessageLinks(t *testing.T) {
	tb := running(t, "start", RollButton, dice(4))
	_, err := tb.State.Roll(tb.Dice)
	require.NoError(t, err)
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: 1, Arg: "home-a2"}))
	dm := tb.Effects()[1]
	require.Equal(t, DM, dm.Kind)
	assert.Equal(t, 1, dm.LinkTo, "the turn DM links to the turn message this change posts")
	assert.Contains(t, dm.Text, LinkPlaceholder)

	// The reminder links to the turn message the game has.
	tb = running(t, "start", RollButton, dice(6))
	tb.Now = now.Add(30 * time.Minute)
	require.NoError(t, tb.Due())
	dm = tb.Effects()[1]
	assert.Zero(t, dm.LinkTo)
	assert.Contains(t, dm.Text, "https://discord.com/channels/g/c/m-turn", "complete at commit")

	// The end links to the lobby, in the channel.
	tb = running(t, "start", RollButton, dice(6))
	tb.Game.ThreadID = "th"
	require.NoError(t, tb.Resign(ann))
	last := tb.Effects()[len(tb.Effects())-1]
	assert.Contains(t, last.Text, "https://discord.com/channels/g/c/m-lobby")
}

func TestNoDirectMessageForWhoDidNotAsk(t *testing.T) {
	tb := running(t, "start", RollButton, dice(4))
	tb.DMs = map[string]bool{"1": true}
	_, err := tb.State.Roll(tb.Dice)
	require.NoError(t, err)
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: 1, Arg: "home-a2"}))
	assert.Equal(t, []string{"post>turn", "edit:lobby"}, kinds(tb), "Ben's DMs are off: no effect for them")
}

func TestSeatLabels(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	assert.Equal(t, "🔴 Ann", tb.SeatLabel(&tb.Game.Seats[0]))
	tb.Game.Seats[0].Computer = "easy"
	assert.Equal(t, "🔴 "+tr("en", locales.ComputerReplacing, "Ann", tr("en", locales.Computer, tr("en", locales.Level("easy")))), tb.SeatLabel(&tb.Game.Seats[0]))
	assert.Equal(t, "?", tb.SeatLabel(nil))
	assert.Equal(t, `A\*b`, Quote("A*b"))
	assert.Equal(t, "", ColorLabel("en", engine.NoColor))
}
