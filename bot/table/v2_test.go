package table

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot/locales"
)

// The table's side of issue 21: quiet pings, Rematch on the card, the
// legend of the turn's marks, the third person.

// nextTurnPost is the post of the turn message a change made.
func nextTurnPost(t *testing.T, tb *Table) Message {
	t.Helper()
	for _, e := range tb.Effects() {
		if e.Kind == Post && e.Record == "turn" {
			return *e.Message
		}
	}
	t.Fatalf("no turn message among %v", kinds(tb))
	return Message{}
}

func TestQuietPingForAPlayerWhoJustActed(t *testing.T) {
	for _, c := range []struct {
		name   string
		acted  time.Duration // how long ago Ben acted; 0: never
		always bool
		silent bool
	}{
		{"never acted", 0, false, false},
		{"acted 5 minutes ago", 5 * time.Minute, false, true},
		{"acted 11 minutes ago", 11 * time.Minute, false, false},
		{"acted 5 minutes ago, asked for every ping", 5 * time.Minute, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := running(t, "start", RollButton, dice(4))
			if c.acted > 0 {
				tb.Game.Seats[1].Acted = now.Add(-c.acted)
			}
			tb.PingAlways = map[string]bool{"2": c.always}
			tb.Touch(ann.UserID)
			require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: 1}))
			require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: 1, Arg: "home-a2"}))
			msg := nextTurnPost(t, tb)
			assert.Equal(t, []string{"2"}, msg.Pings, "the message names Ben")
			assert.Equal(t, c.silent, msg.Silent)
			assert.Equal(t, now, tb.Game.Seats[0].Acted, "Ann's act is recorded with the change")
		})
	}
}

func TestRematchIsOnTheCardAndTheThreadSettles(t *testing.T) {
	tb := running(t, "players=rg turn=r r=h13 g= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11", RollButton, dice(2))
	tb.Game.Threaded = true
	turn := tb.State.TurnNumber()
	require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: turn}))
	// The roll's view marks the winning move and says so in the legend,
	// in the mover's words on their click and in the third person on
	// the turn message.
	require.NotNil(t, tb.Reply)
	assert.Contains(t, strings.Join(labels(tb.Reply.Message.Rows), " "), MarkGoal)
	assert.Equal(t, "★ reaches the goal", tb.Reply.Message.Legend)
	assert.Contains(t, tb.Reply.Message.Embeds[0].Description, "Ann rolled a **2** and is choosing a move.")
	assert.NotContains(t, tb.Reply.Message.Embeds[0].Description, "You rolled")

	require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "h13-i14"}))
	var result, card *Message
	for _, e := range tb.Effects() {
		switch {
		case e.Kind == Post && e.Result:
			result = e.Message
		case e.Kind == Edit && e.Target == "lobby":
			card = e.Message
		}
	}
	require.NotNil(t, result)
	require.NotNil(t, card)
	assert.Empty(t, result.Rows, "no button in the thread, which archives itself")
	assert.Contains(t, strings.Join(labels(card.Rows), " "), "Rematch", "Rematch on the card in the channel")
	assert.Contains(t, kinds(tb), "settle")
	assert.NotContains(t, kinds(tb), "archive", "the bot leaves the thread to Discord's auto-archive")
}

// labels are the labels of the buttons of rows.
func labels(rows []Row) []string {
	var out []string
	for _, r := range rows {
		for _, b := range r.Buttons {
			out = append(out, b.Label)
		}
	}
	return out
}

// A direct message for a turn follows the ping's rule (issue 31): none
// while its player acted in the game within QuietFor, unless they asked for
// every ping.
func TestTurnDirectMessageIsQuietAsThePing(t *testing.T) {
	for _, c := range []struct {
		name   string
		acted  time.Duration // how long ago Ben acted; 0: never
		always bool
		dm     bool
	}{
		{"never acted", 0, false, true},
		{"acted 5 minutes ago", 5 * time.Minute, false, false},
		{"acted 9 minutes ago", 9 * time.Minute, false, false},
		{"acted 11 minutes ago", 11 * time.Minute, false, true},
		{"acted 5 minutes ago, asked for every ping", 5 * time.Minute, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := running(t, "start", RollButton, dice(4))
			if c.acted > 0 {
				tb.Game.Seats[1].Acted = now.Add(-c.acted)
			}
			tb.PingAlways = map[string]bool{"2": c.always}
			tb.DMs = map[string]bool{"2": true}
			tb.Touch(ann.UserID)
			require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: 1}))
			require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: 1, Arg: "home-a2"}))
			var dms []Effect
			for _, e := range tb.Effects() {
				if e.Kind == DM {
					dms = append(dms, e)
				}
			}
			msg := nextTurnPost(t, tb)
			assert.Equal(t, !c.dm, msg.Silent, "the ping and the direct message agree")
			if !c.dm {
				assert.Empty(t, dms, "no direct message while Ben is there")
				return
			}
			require.Len(t, dms, 1)
			assert.Equal(t, "2", dms[0].User)
		})
	}
}

// What a new player tripped on (issue 31): /malefiz games gives a person
// their colour as it gives a computer its own, and the finished card no
// longer sends anyone to play in the thread.
func TestGameLineGivesEveryoneTheirColour(t *testing.T) {
	tb := running(t, "start", RollButton, dice(6))
	line := tb.GameLine("2", "en")
	for _, s := range tb.Game.Seats {
		c := SeatColor(&s)
		require.True(t, c.Valid(), "seat %+v", s)
		assert.Contains(t, line, ColorEmoji[c]+" "+Mention(s.UserID))
	}
}

func TestCardLinksTheThreadOnlyWhileTheGameRuns(t *testing.T) {
	thread := tr("en", locales.CardThread, "<#m-lobby>")
	for _, c := range []struct {
		name   string
		end    func(t *testing.T, tb *Table)
		linked bool
	}{
		{"running", func(*testing.T, *Table) {}, true},
		{"won", func(t *testing.T, tb *Table) {
			turn := tb.State.TurnNumber()
			require.NoError(t, tb.Turn(ann, CustomID{Action: ActRoll, Game: 7, Turn: turn}))
			require.NoError(t, tb.Turn(ann, CustomID{Action: ActMove, Game: 7, Turn: turn, Arg: "h13-i14"}))
			require.True(t, tb.State.Over())
		}, false},
		{"resigned", func(t *testing.T, tb *Table) { require.NoError(t, tb.Resign(ann)) }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := running(t, "players=rg turn=r r=h13 g= x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11", RollButton, dice(2))
			tb.Game.Threaded = true
			c.end(t, tb)
			card := tb.CardMessage().Embeds[0].Description
			if c.linked {
				assert.Contains(t, card, thread)
			} else {
				assert.NotContains(t, card, thread)
			}
		})
	}
}
