package games

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

func countEvents(t *testing.T, h *harness.Harness, gameID int64, kind string) int {
	t.Helper()
	events, err := h.Main.DB().Events(h.Ctx(), gameID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range events {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// reminders counts the reminder messages in the channel.
func reminders(h *harness.Harness) int {
	n := 0
	for _, m := range h.Fake.ChannelMessages(h.Fake.ChannelID) {
		if strings.HasPrefix(m.Text(), "⏰") {
			n++
		}
	}
	return n
}

func TestReminderOnceThenTimeoutAcrossRestart(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	clock := harness.ClockAt(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	h := harness.NewWithClock(t, clock)
	h.PlayInChannel()
	gameID := harness.NewTimedGame(t, h)
	sg, _ := h.Game(gameID)
	if want := clock.Now().Add(time.Hour); !sg.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", sg.Deadline, want)
	}
	turn, _ := h.WaitTurn(gameID)
	if !strings.Contains(turn.Text(), "<t:") {
		t.Errorf("the turn message does not show the deadline: %q", turn.Text())
	}

	clock.Advance(29 * time.Minute)
	h.Tick()
	if reminders(h) != 0 {
		t.Fatal("reminder before half time")
	}
	clock.Advance(time.Minute)
	h.Tick()
	if reminders(h) != 1 {
		t.Fatalf("%d reminders at half time, want 1", reminders(h))
	}
	last := h.LastMessage()
	if len(last.Pinged) != 1 || last.Pinged[0] != harness.Alice {
		t.Errorf("reminder pinged %v, want alice", last.Pinged)
	}

	h.Stop()
	h.Start()
	clock.Advance(10 * time.Minute)
	h.Tick()
	if reminders(h) != 1 || countEvents(t, h, gameID, malefiz.EventRemind) != 1 {
		t.Fatalf("a second reminder after the restart")
	}
	clock.Advance(20 * time.Minute)
	h.Tick()
	if countEvents(t, h, gameID, malefiz.EventTimeout) != 1 {
		t.Fatal("the deadline did not fire after the restart")
	}
	next, running := h.WaitTurn(gameID)
	if !running || next.Pinged[0] != harness.Bob {
		t.Errorf("after the timeout: pinged %v", next.Pinged)
	}
	// The timed-out turn message became the turn's line: who ran out of
	// time and what the computer played; the reminder is gone.
	old, _ := h.Fake.Message(turn.ID)
	if !strings.Contains(old.Text(), "ran out of time") || !strings.Contains(old.Text(), "→") || len(old.CustomIDs()) != 0 {
		t.Errorf("the timed-out turn message: %q %v", old.Text(), old.CustomIDs())
	}
	if reminders(h) != 0 {
		t.Errorf("the reminder was not removed once its turn was played")
	}
	_, g := h.Game(gameID)
	if g.TurnNumber() != 2 {
		t.Errorf("turn %d after the timeout, want 2", g.TurnNumber())
	}
}

func TestThreeTimeoutsHandTheSeatToTheComputer(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	clock := harness.ClockAt(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	h := harness.NewWithClock(t, clock, harness.WithoutMessageBuckets())
	h.PlayInChannel()
	gameID := harness.NewTimedGame(t, h)
	for i := 0; i < 3; i++ {
		// Alice times out; Bob plays his turn.
		clock.Advance(time.Hour)
		h.Tick()
		sg, _ := h.Game(gameID)
		if sg.Seats[0].Timeouts != i+1 {
			t.Fatalf("after %d timeouts alice's seat counts %d", i+1, sg.Seats[0].Timeouts)
		}
		if i < 2 {
			moves, player := rollFor(t, h, gameID, 1)
			if player != harness.Bob {
				t.Fatalf("expected bob to move, got %s", player)
			}
			h.Click(harness.Bob, moves.ID, harness.Control(t, moves, bot.ActMove))
		}
	}
	sg, _ := h.Game(gameID)
	if sg.Seats[0].Computer == "" || countEvents(t, h, gameID, malefiz.EventReplace) != 1 {
		t.Fatalf("alice was not replaced: %+v", sg.Seats[0])
	}
	// From now on alice's turns are played at once: bob is always to move.
	for i := 0; i < 3; i++ {
		moves, player := rollFor(t, h, gameID, 2)
		if player != harness.Bob {
			t.Fatalf("turn went to %s, want bob", player)
		}
		if ids := moves.CustomIDs(); len(ids) > 0 && strings.HasPrefix(ids[0], "mf/move/") {
			h.Click(harness.Bob, moves.ID, ids[0])
		}
	}
	if sg, _ := h.Game(gameID); sg.Seats[0].Timeouts != 3 || sg.Status != malefiz.StatusRunning {
		t.Errorf("seat %+v status %s", sg.Seats[0], sg.Status)
	}
}

func TestLobbyExpiresAfterADay(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	clock := harness.ClockAt(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	h := harness.NewWithClock(t, clock)
	h.PlayInChannel()
	resp := h.Command(harness.Alice, "new", nil)
	h.WaitLobbyID(resp.Message.ID)
	clock.Advance(23 * time.Hour)
	h.Tick()
	if _, err := h.Main.DB().OpenGame(h.Ctx(), h.Fake.GuildID, h.Fake.ChannelID); err != nil {
		t.Fatal("the lobby closed early")
	}
	clock.Advance(time.Hour)
	h.Tick()
	if _, err := h.Main.DB().OpenGame(h.Ctx(), h.Fake.GuildID, h.Fake.ChannelID); err == nil {
		t.Fatal("the lobby is still open after 24 hours")
	}
	// The card's edit goes out from the outbox's card queue.
	expired := func() bool {
		m, _ := h.Fake.Message(resp.Message.ID)
		return len(m.CustomIDs()) == 0 && strings.Contains(m.Text(), "24 hours")
	}
	if !assert.Eventually(t, expired, 10*time.Second, 10*time.Millisecond) {
		m, _ := h.Fake.Message(resp.Message.ID)
		t.Errorf("expired lobby message: %q %v", m.Text(), m.CustomIDs())
	}
	// The channel is free again.
	if resp := h.Command(harness.Alice, "new", nil); resp.Ephemeral() {
		t.Errorf("new after expiry refused: %q", resp.Message.Text())
	}
}

func TestClickAtTheDeadlineAppliesOnce(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	for i := 0; i < 4; i++ {
		clock := harness.ClockAt(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
		h := harness.NewWithClock(t, clock)
		h.PlayInChannel()
		gameID := harness.NewTimedGame(t, h)
		turn, _ := h.WaitTurn(gameID)
		clock.Advance(time.Hour)
		h.Die.Set(3, 3)
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); h.Tick() }()
		go func() {
			defer wg.Done()
			h.Fake.Click(h.Ctx(), harness.Invocation(harness.Alice, turn.ID, harness.Control(t, turn, bot.ActRoll)))
		}()
		wg.Wait()
		h.WaitTurn(gameID)
		if n := countEvents(t, h, gameID, malefiz.EventRoll); n != 1 {
			t.Errorf("run %d: %d rolls for one turn, want 1", i, n)
		}
		_, g := h.Game(gameID)
		if g.TurnNumber() != 2 {
			t.Errorf("run %d: turn %d, want 2 (the timeout finishes the turn)", i, g.TurnNumber())
		}
		h.Stop()
	}
}

// A 500 on the next turn's message: the outbox tries again by itself within
// seconds (no tick of the game's timers, no player action), and the turn has
// one message.
func TestLostTurnMessageIsPostedAgain(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	clock := harness.ClockAt(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	h := harness.NewWithClock(t, clock)
	h.PlayInChannel()
	gameID := harness.NewTimedGame(t, h)
	h.Fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.ServerError, 1)
	moves, player := rollFor(t, h, gameID, 1)
	clicked := time.Now()
	h.Click(player, moves.ID, harness.Control(t, moves, bot.ActMove))
	next, running := h.WaitTurn(gameID)
	require.True(t, running)
	require.Equal(t, []string{harness.Bob}, next.Pinged, "the turn message was not posted again for bob")
	assert.Less(t, time.Since(clicked), 5*time.Second, "the retry came too late")
	turns := 0
	for _, m := range h.Fake.ChannelMessages(h.Fake.ChannelID) {
		if strings.HasPrefix(harness.Title(m), "Turn 2 ") {
			turns++
		}
	}
	assert.Equal(t, 1, turns, "messages for turn 2")
}
