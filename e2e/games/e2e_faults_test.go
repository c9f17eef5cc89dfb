package games

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// rollFor clicks Roll on the turn message for the player to move with the
// given die and returns the updated message.
func rollFor(t *testing.T, h *harness.Harness, gameID int64, roll int) (fakediscord.Message, string) {
	t.Helper()
	turn, running := h.WaitTurn(gameID)
	if !running {
		t.Fatal("the game is over")
	}
	h.Die.Set(roll)
	player := turn.Pinged[0]
	resp := h.Click(player, turn.ID, harness.Control(t, turn, bot.ActRoll))
	return *resp.Message, player
}

func TestRestartKeepsButtonsWorking(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t)
	gameID, _ := harness.OpenTwoPlayerGame(t, h)
	moves, player := rollFor(t, h, gameID, 4) // alice: home-a2 home-e2 home-f1
	move := harness.Control(t, moves, bot.ActMove)

	h.Stop()
	h.Start()

	resp := h.Click(player, moves.ID, move)
	if resp.Type != discordgo.InteractionResponseUpdateMessage || resp.Ephemeral() || len(resp.Message.CustomIDs()) != 0 {
		t.Fatalf("click after restart: type %d %q %v", resp.Type, resp.Message.Text(), resp.Message.CustomIDs())
	}
	next, running := h.WaitTurn(gameID)
	if !running || next.Pinged[0] != harness.Bob {
		t.Fatalf("after restart the next turn should be bob's, pinged %v", next.Pinged)
	}
	_, g := h.Game(gameID)
	if g.TurnNumber() != 2 || len(g.Position().Pawns(engine.Red)) != 1 {
		t.Errorf("turn %d, red pawns %v", g.TurnNumber(), g.Position().Pawns(engine.Red))
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t)
	gameID, turn := harness.OpenTwoPlayerGame(t, h)
	roll := harness.Control(t, turn, bot.ActRoll)
	refused := func(name string, resp *fakediscord.Response, want string) {
		t.Helper()
		if !resp.Ephemeral() || !strings.Contains(resp.Message.Text(), want) {
			t.Errorf("%s: ephemeral=%v %q, want a private %q", name, resp.Ephemeral(), resp.Message.Text(), want)
		}
	}
	refused("stranger's click", h.Click(harness.Carol, turn.ID, roll), "not in this game")
	refused("wrong player's click", h.Click(harness.Bob, turn.ID, roll), "not your turn")
	refused("new where a game runs", h.Command(harness.Carol, "new", nil), "already running here")
	refused("start by a non-host", h.Command(harness.Bob, "start", nil), "already started")

	// Alice brings the board back with /malefiz board, privately with the
	// turn's buttons, and plays there; the turn message collapses all the
	// same, and a second private copy's Roll button is now an old one.
	board := h.Command(harness.Alice, "board", nil)
	if !board.Ephemeral() || !harness.HasControl(*board.Message, bot.ActRoll) {
		t.Fatalf("board for the player to move: ephemeral=%v controls %v", board.Ephemeral(), board.Message.CustomIDs())
	}
	spare := h.Command(harness.Alice, "board", nil)
	h.Die.Set(1)
	moves := h.Click(harness.Alice, board.Message.ID, harness.Control(t, *board.Message, bot.ActRoll))
	h.Click(harness.Alice, board.Message.ID, harness.Control(t, *moves.Message, bot.ActMove))
	h.WaitTurn(gameID)
	if old, _ := h.Fake.Message(turn.ID); len(old.CustomIDs()) != 0 || !strings.Contains(old.Text(), "Turn 1") {
		t.Errorf("the turn message played on a private copy: %q %v, want its line", old.Text(), old.CustomIDs())
	}
	refused("old message's button", h.Click(harness.Alice, spare.Message.ID, harness.Control(t, *spare.Message, bot.ActRoll)), "earlier turn")
	other := h.Command(harness.Carol, "board", nil)
	if !other.Ephemeral() || len(other.Message.CustomIDs()) != 0 || !strings.Contains(other.Message.Text(), "is to move") {
		t.Errorf("board for someone else: ephemeral=%v controls %v %q", other.Ephemeral(), other.Message.CustomIDs(), other.Message.Text())
	}
	sg, g := h.Game(gameID)
	if g.TurnNumber() != 2 || sg.Status != malefiz.StatusRunning {
		t.Errorf("refusals changed the game: turn %d status %s", g.TurnNumber(), sg.Status)
	}
}

func TestTwentyClicksApplyOneRoll(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t)
	gameID, turn := harness.OpenTwoPlayerGame(t, h)
	roll := harness.Control(t, turn, bot.ActRoll)
	h.Die.Set(4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4)
	var wg sync.WaitGroup
	var mu sync.Mutex
	updates, refusals := 0, 0
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := h.Fake.Click(h.Ctx(), fakediscord.Invocation{User: harness.Alice, MessageID: turn.ID, CustomID: roll})
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
	events, err := h.Main.DB().Events(h.Ctx(), gameID)
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
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t)
	gameID, _ := harness.OpenTwoPlayerGame(t, h)

	// 429 on the next turn message: discordgo waits and retries.
	h.Fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.RateLimited, 1)
	moves, player := rollFor(t, h, gameID, 1)
	h.Click(player, moves.ID, harness.Control(t, moves, bot.ActMove))
	if next, running := h.WaitTurn(gameID); !running || next.Pinged[0] != harness.Bob {
		t.Fatalf("after a 429 the turn message should still arrive for bob")
	}

	// 500 on the next turn message: the move stays made; /malefiz board
	// brings the turn back and the game goes on.
	h.Fake.FailNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.ServerError, 1)
	moves, player = rollFor(t, h, gameID, 1)
	h.Click(player, moves.ID, harness.Control(t, moves, bot.ActMove))
	_, g := h.Game(gameID)
	if g.TurnNumber() != 3 || g.Turn() != engine.Red {
		t.Fatalf("after a 500 the move must be kept: turn %d, %s to move", g.TurnNumber(), g.Turn())
	}
	board := h.Command(harness.Alice, "board", nil)
	if !board.Ephemeral() || !harness.HasControl(*board.Message, bot.ActRoll) {
		t.Fatalf("board after a lost turn message: %v", board.Message.CustomIDs())
	}
	h.Die.Set(2)
	moves2 := h.Click(harness.Alice, board.Message.ID, harness.Control(t, *board.Message, bot.ActRoll))
	if !harness.HasControl(*moves2.Message, bot.ActMove) {
		t.Fatalf("no moves after rolling on the board message")
	}

	// Unknown message: the lobby of a new game in another channel is
	// deleted; the next /malefiz join posts it again.
	h2 := harness.New(t)
	resp := h2.Command(harness.Alice, "new", map[string]any{"seats": 3})
	lobbyID := resp.Message.ID
	h2.WaitLobbyID(lobbyID)
	if !h2.Fake.DeleteMessage(h2.Fake.ChannelID, lobbyID) {
		t.Fatal("could not delete the lobby")
	}
	joined := h2.Command(harness.Bob, "join", nil)
	if !joined.Ephemeral() {
		t.Errorf("join by command should answer privately")
	}
	if _, err := h2.Fake.WaitFor(h2.Ctx(), func(c fakediscord.Call) bool { return c.Route == fakediscord.RouteMessageCreate }); err != nil {
		t.Fatalf("the lobby was not posted again: %v", err)
	}
	last := h2.LastMessage()
	if last.ID == lobbyID || !harness.HasControl(last, bot.ActJoin) || !strings.Contains(last.Text(), harness.Bob) {
		t.Errorf("the deleted lobby was not posted again with bob seated: %+v", last)
	}
}
