package main

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

func countEvents(t *testing.T, h *harness, gameID int64, kind string) int {
	t.Helper()
	events, err := h.main.db.Events(h.ctx(), gameID)
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
func reminders(h *harness) int {
	n := 0
	for _, m := range h.fake.ChannelMessages(h.fake.ChannelID) {
		if strings.HasPrefix(m.Text(), "⏰") {
			n++
		}
	}
	return n
}

func newTimedGame(t *testing.T, h *harness) int64 {
	t.Helper()
	resp := h.command(alice, "new", map[string]any{"seats": 2, "turn-timeout": "1h"})
	lobby := *resp.Message
	h.click(bob, lobby.ID, control(t, lobby, bot.ActJoin))
	id, _ := bot.ParseCustomID(control(t, lobby, bot.ActStart))
	h.click(alice, lobby.ID, control(t, lobby, bot.ActStart))
	h.waitTurn(id.Game)
	return id.Game
}

func TestReminderOnceThenTimeoutAcrossRestart(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h := newHarnessClock(t, clock)
	h.playInChannel()
	gameID := newTimedGame(t, h)
	sg, _ := h.game(gameID)
	if want := clock.Now().Add(time.Hour); !sg.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", sg.Deadline, want)
	}
	turn, _ := h.waitTurn(gameID)
	if !strings.Contains(turn.Text(), "<t:") {
		t.Errorf("the turn message does not show the deadline: %q", turn.Text())
	}

	clock.Advance(29 * time.Minute)
	h.tick()
	if reminders(h) != 0 {
		t.Fatal("reminder before half time")
	}
	clock.Advance(time.Minute)
	h.tick()
	if reminders(h) != 1 {
		t.Fatalf("%d reminders at half time, want 1", reminders(h))
	}
	last := h.lastMessage()
	if len(last.Pinged) != 1 || last.Pinged[0] != alice {
		t.Errorf("reminder pinged %v, want alice", last.Pinged)
	}

	h.stop()
	h.start()
	clock.Advance(10 * time.Minute)
	h.tick()
	if reminders(h) != 1 || countEvents(t, h, gameID, malefiz.EventRemind) != 1 {
		t.Fatalf("a second reminder after the restart")
	}
	clock.Advance(20 * time.Minute)
	h.tick()
	if countEvents(t, h, gameID, malefiz.EventTimeout) != 1 {
		t.Fatal("the deadline did not fire after the restart")
	}
	next, running := h.waitTurn(gameID)
	if !running || next.Pinged[0] != bob {
		t.Errorf("after the timeout: pinged %v", next.Pinged)
	}
	// The timed-out turn message became the turn's line: who ran out of
	// time and what the computer played; the reminder is gone.
	old, _ := h.fake.Message(turn.ID)
	if !strings.Contains(old.Text(), "ran out of time") || !strings.Contains(old.Text(), "→") || len(old.CustomIDs()) != 0 {
		t.Errorf("the timed-out turn message: %q %v", old.Text(), old.CustomIDs())
	}
	if reminders(h) != 0 {
		t.Errorf("the reminder was not removed once its turn was played")
	}
	_, g := h.game(gameID)
	if g.TurnNumber() != 2 {
		t.Errorf("turn %d after the timeout, want 2", g.TurnNumber())
	}
}

func TestThreeTimeoutsHandTheSeatToTheComputer(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h := newHarnessClock(t, clock, withoutMessageBuckets())
	h.playInChannel()
	gameID := newTimedGame(t, h)
	for i := 0; i < 3; i++ {
		// Alice times out; Bob plays his turn.
		clock.Advance(time.Hour)
		h.tick()
		sg, _ := h.game(gameID)
		if sg.Seats[0].Timeouts != i+1 {
			t.Fatalf("after %d timeouts alice's seat counts %d", i+1, sg.Seats[0].Timeouts)
		}
		if i < 2 {
			moves, player := rollFor(t, h, gameID, 1)
			if player != bob {
				t.Fatalf("expected bob to move, got %s", player)
			}
			h.click(bob, moves.ID, control(t, moves, bot.ActMove))
		}
	}
	sg, _ := h.game(gameID)
	if sg.Seats[0].Computer == "" || countEvents(t, h, gameID, malefiz.EventReplace) != 1 {
		t.Fatalf("alice was not replaced: %+v", sg.Seats[0])
	}
	// From now on alice's turns are played at once: bob is always to move.
	for i := 0; i < 3; i++ {
		moves, player := rollFor(t, h, gameID, 2)
		if player != bob {
			t.Fatalf("turn went to %s, want bob", player)
		}
		if ids := moves.CustomIDs(); len(ids) > 0 && strings.HasPrefix(ids[0], "mf/move/") {
			h.click(bob, moves.ID, ids[0])
		}
	}
	if sg, _ := h.game(gameID); sg.Seats[0].Timeouts != 3 || sg.Status != malefiz.StatusRunning {
		t.Errorf("seat %+v status %s", sg.Seats[0], sg.Status)
	}
}

func TestLobbyExpiresAfterADay(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h := newHarnessClock(t, clock)
	h.playInChannel()
	resp := h.command(alice, "new", nil)
	h.waitLobbyID(resp.Message.ID)
	clock.Advance(23 * time.Hour)
	h.tick()
	if _, err := h.main.db.OpenGame(h.ctx(), h.fake.GuildID, h.fake.ChannelID); err != nil {
		t.Fatal("the lobby closed early")
	}
	clock.Advance(time.Hour)
	h.tick()
	if _, err := h.main.db.OpenGame(h.ctx(), h.fake.GuildID, h.fake.ChannelID); err == nil {
		t.Fatal("the lobby is still open after 24 hours")
	}
	// The card's edit goes out from the outbox's card queue.
	expired := func() bool {
		m, _ := h.fake.Message(resp.Message.ID)
		return len(m.CustomIDs()) == 0 && strings.Contains(m.Text(), "24 hours")
	}
	if !assert.Eventually(t, expired, 10*time.Second, 10*time.Millisecond) {
		m, _ := h.fake.Message(resp.Message.ID)
		t.Errorf("expired lobby message: %q %v", m.Text(), m.CustomIDs())
	}
	// The channel is free again.
	if resp := h.command(alice, "new", nil); resp.Ephemeral() {
		t.Errorf("new after expiry refused: %q", resp.Message.Text())
	}
}

func TestClickAtTheDeadlineAppliesOnce(t *testing.T) {
	for i := 0; i < 4; i++ {
		clock := &fakeClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
		h := newHarnessClock(t, clock)
		h.playInChannel()
		gameID := newTimedGame(t, h)
		turn, _ := h.waitTurn(gameID)
		clock.Advance(time.Hour)
		h.die.set(3, 3)
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); h.tick() }()
		go func() {
			defer wg.Done()
			h.fake.Click(h.ctx(), fakeInvocation(alice, turn.ID, control(t, turn, bot.ActRoll)))
		}()
		wg.Wait()
		h.waitTurn(gameID)
		if n := countEvents(t, h, gameID, malefiz.EventRoll); n != 1 {
			t.Errorf("run %d: %d rolls for one turn, want 1", i, n)
		}
		_, g := h.game(gameID)
		if g.TurnNumber() != 2 {
			t.Errorf("run %d: turn %d, want 2 (the timeout finishes the turn)", i, g.TurnNumber())
		}
		h.stop()
	}
}

// A 500 on the next turn's message: the outbox tries again by itself within
// seconds (no tick of the game's timers, no player action), and the turn has
// one message.
func TestLostTurnMessageIsPostedAgain(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h := newHarnessClock(t, clock)
	h.playInChannel()
	gameID := newTimedGame(t, h)
	h.fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.ServerError, 1)
	moves, player := rollFor(t, h, gameID, 1)
	clicked := time.Now()
	h.click(player, moves.ID, control(t, moves, bot.ActMove))
	next, running := h.waitTurn(gameID)
	require.True(t, running)
	require.Equal(t, []string{bob}, next.Pinged, "the turn message was not posted again for bob")
	assert.Less(t, time.Since(clicked), 5*time.Second, "the retry came too late")
	turns := 0
	for _, m := range h.fake.ChannelMessages(h.fake.ChannelID) {
		if strings.HasPrefix(title(m), "Turn 2 ") {
			turns++
		}
	}
	assert.Equal(t, 1, turns, "messages for turn 2")
}
