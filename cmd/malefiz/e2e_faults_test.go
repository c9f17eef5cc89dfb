package main

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// rollFor clicks Roll on the turn message for the player to move with the
// given die and returns the updated message.
func rollFor(t *testing.T, h *harness, gameID int64, roll int) (fakediscord.Message, string) {
	t.Helper()
	turn, running := h.waitTurn(gameID)
	if !running {
		t.Fatal("the game is over")
	}
	h.die.set(roll)
	player := turn.Pinged[0]
	resp := h.click(player, turn.ID, control(t, turn, bot.ActRoll))
	return *resp.Message, player
}

func TestRestartKeepsButtonsWorking(t *testing.T) {
	h := newHarness(t)
	gameID, _ := openTwoPlayerGame(t, h)
	moves, player := rollFor(t, h, gameID, 4) // alice: home-a2 home-e2 home-f1
	move := control(t, moves, bot.ActMove)

	h.stop()
	h.start()

	resp := h.click(player, moves.ID, move)
	if resp.Type != discordgo.InteractionResponseUpdateMessage || resp.Ephemeral() || len(resp.Message.CustomIDs()) != 0 {
		t.Fatalf("click after restart: type %d %q %v", resp.Type, resp.Message.Text(), resp.Message.CustomIDs())
	}
	next, running := h.waitTurn(gameID)
	if !running || next.Pinged[0] != bob {
		t.Fatalf("after restart the next turn should be bob's, pinged %v", next.Pinged)
	}
	_, g := h.game(gameID)
	if g.TurnNumber() != 2 || len(g.Position().Pawns(engine.Red)) != 1 {
		t.Errorf("turn %d, red pawns %v", g.TurnNumber(), g.Position().Pawns(engine.Red))
	}
}

func TestRefusals(t *testing.T) {
	h := newHarness(t)
	gameID, turn := openTwoPlayerGame(t, h)
	roll := control(t, turn, bot.ActRoll)
	refused := func(name string, resp *fakediscord.Response, want string) {
		t.Helper()
		if !resp.Ephemeral() || !strings.Contains(resp.Message.Text(), want) {
			t.Errorf("%s: ephemeral=%v %q, want a private %q", name, resp.Ephemeral(), resp.Message.Text(), want)
		}
	}
	refused("stranger's click", h.click(carol, turn.ID, roll), "not in this game")
	refused("wrong player's click", h.click(bob, turn.ID, roll), "not your turn")
	refused("new where a game runs", h.command(carol, "new", nil), "already running here")
	refused("start by a non-host", h.command(bob, "start", nil), "already started")

	// Alice brings the board back with /malefiz board, privately with the
	// turn's buttons, and plays there; the turn message collapses all the
	// same, and a second private copy's Roll button is now an old one.
	board := h.command(alice, "board", nil)
	if !board.Ephemeral() || !hasControl(*board.Message, bot.ActRoll) {
		t.Fatalf("board for the player to move: ephemeral=%v controls %v", board.Ephemeral(), board.Message.CustomIDs())
	}
	spare := h.command(alice, "board", nil)
	h.die.set(1)
	moves := h.click(alice, board.Message.ID, control(t, *board.Message, bot.ActRoll))
	h.click(alice, board.Message.ID, control(t, *moves.Message, bot.ActMove))
	h.waitTurn(gameID)
	if old, _ := h.fake.Message(turn.ID); len(old.CustomIDs()) != 0 || !strings.Contains(old.Text(), "Turn 1") {
		t.Errorf("the turn message played on a private copy: %q %v, want its line", old.Text(), old.CustomIDs())
	}
	refused("old message's button", h.click(alice, spare.Message.ID, control(t, *spare.Message, bot.ActRoll)), "earlier turn")
	other := h.command(carol, "board", nil)
	if !other.Ephemeral() || len(other.Message.CustomIDs()) != 0 || !strings.Contains(other.Message.Text(), "is to move") {
		t.Errorf("board for someone else: ephemeral=%v controls %v %q", other.Ephemeral(), other.Message.CustomIDs(), other.Message.Text())
	}
	sg, g := h.game(gameID)
	if g.TurnNumber() != 2 || sg.Status != malefiz.StatusRunning {
		t.Errorf("refusals changed the game: turn %d status %s", g.TurnNumber(), sg.Status)
	}
}

func TestTwentyClicksApplyOneRoll(t *testing.T) {
	h := newHarness(t)
	gameID, turn := openTwoPlayerGame(t, h)
	roll := control(t, turn, bot.ActRoll)
	h.die.set(4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4)
	var wg sync.WaitGroup
	var mu sync.Mutex
	updates, refusals := 0, 0
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := h.fake.Click(h.ctx(), fakediscord.Invocation{User: alice, MessageID: turn.ID, CustomID: roll})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.Is(err, fakediscord.ErrInvocation):
				// The button was gone before this click left: Discord would not send it.
			case err != nil:
				t.Errorf("click: %v", err)
			case resp.Ephemeral():
				refusals++
			default:
				updates++
			}
		}()
	}
	wg.Wait()
	if updates != 1 {
		t.Errorf("%d clicks updated the message (and %d were refused), want exactly 1", updates, refusals)
	}
	events, err := h.main.db.Events(h.ctx(), gameID)
	if err != nil {
		t.Fatal(err)
	}
	rolls := 0
	for _, e := range events {
		if e.Kind == malefiz.EventRoll {
			rolls++
		}
	}
	if rolls != 1 {
		t.Errorf("%d roll events, want 1", rolls)
	}
}

func TestDiscordFaultsLoseNothing(t *testing.T) {
	h := newHarness(t)
	gameID, _ := openTwoPlayerGame(t, h)

	// 429 on the next turn message: discordgo waits and retries.
	h.fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.RateLimited, 1)
	moves, player := rollFor(t, h, gameID, 1)
	h.click(player, moves.ID, control(t, moves, bot.ActMove))
	if next, running := h.waitTurn(gameID); !running || next.Pinged[0] != bob {
		t.Fatalf("after a 429 the turn message should still arrive for bob")
	}

	// 500 on the next turn message: the move stays made; /malefiz board
	// brings the turn back and the game goes on.
	h.fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.ServerError, 1)
	moves, player = rollFor(t, h, gameID, 1)
	h.click(player, moves.ID, control(t, moves, bot.ActMove))
	_, g := h.game(gameID)
	if g.TurnNumber() != 3 || g.Turn() != engine.Red {
		t.Fatalf("after a 500 the move must be kept: turn %d, %s to move", g.TurnNumber(), g.Turn())
	}
	board := h.command(alice, "board", nil)
	if !board.Ephemeral() || !hasControl(*board.Message, bot.ActRoll) {
		t.Fatalf("board after a lost turn message: %v", board.Message.CustomIDs())
	}
	h.die.set(2)
	moves2 := h.click(alice, board.Message.ID, control(t, *board.Message, bot.ActRoll))
	if !hasControl(*moves2.Message, bot.ActMove) {
		t.Fatalf("no moves after rolling on the board message")
	}

	// Unknown message: the lobby of a new game in another channel is
	// deleted; the next /malefiz join posts it again.
	h2 := newHarness(t)
	resp := h2.command(alice, "new", map[string]any{"seats": 3})
	lobbyID := resp.Message.ID
	h2.waitLobbyID(lobbyID)
	if !h2.fake.DeleteMessage(h2.fake.ChannelID, lobbyID) {
		t.Fatal("could not delete the lobby")
	}
	joined := h2.command(bob, "join", nil)
	if !joined.Ephemeral() {
		t.Errorf("join by command should answer privately")
	}
	if _, err := h2.fake.WaitFor(h2.ctx(), func(c fakediscord.Call) bool { return c.Route == fakediscord.RouteMessageCreate }); err != nil {
		t.Fatalf("the lobby was not posted again: %v", err)
	}
	last := h2.lastMessage()
	if last.ID == lobbyID || !hasControl(last, bot.ActJoin) || !strings.Contains(last.Text(), bob) {
		t.Errorf("the deleted lobby was not posted again with bob seated: %+v", last)
	}
}

// waitLobbyID waits until the store knows the lobby message's ID.
func (h *harness) waitLobbyID(id string) {
	h.t.Helper()
	for i := 0; i < 1000; i++ {
		sg, err := h.main.db.OpenGame(h.ctx(), h.fake.GuildID, h.fake.ChannelID)
		if err == nil && sg.LobbyMessageID == id {
			return
		}
		sleepShort()
	}
	h.t.Fatal("the lobby message ID was never stored")
}
