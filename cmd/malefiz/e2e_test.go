package main

import (
	"bytes"
	"fmt"
	"image/gif"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

const (
	alice = "100000000000000001"
	bob   = "100000000000000002"
	carol = "100000000000000003"
)

// openTwoPlayerGame runs /malefiz new, bob joins and alice starts; it
// returns the game's ID and the first turn message.
func openTwoPlayerGame(t *testing.T, h *harness) (int64, fakediscord.Message) {
	t.Helper()
	resp := h.command(alice, "new", map[string]any{"seats": 2})
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Ephemeral() {
		t.Fatalf("new: response type %d ephemeral=%v", resp.Type, resp.Ephemeral())
	}
	lobby := *resp.Message
	join := control(t, lobby, bot.ActJoin)
	id, err := bot.ParseCustomID(join)
	if err != nil {
		t.Fatal(err)
	}
	resp = h.click(bob, lobby.ID, join)
	if resp.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(resp.Message.Text(), bob) {
		t.Fatalf("join: type %d, lobby %q", resp.Type, resp.Message.Text())
	}
	// Only the host starts.
	if resp := h.click(bob, lobby.ID, control(t, *resp.Message, bot.ActStart)); !resp.Ephemeral() || !strings.Contains(resp.Message.Text(), "Only the host") {
		t.Fatalf("bob started: %+v", resp.Message)
	}
	h.click(alice, lobby.ID, control(t, lobby, bot.ActStart))
	turn, _ := h.waitTurn(id.Game)
	if !hasControl(turn, bot.ActRoll) || !hasBoard(turn) {
		t.Fatalf("first turn message: controls %v, board %v", turn.CustomIDs(), hasBoard(turn))
	}
	if len(turn.Pinged) != 1 || turn.Pinged[0] != alice {
		t.Fatalf("first turn pings %v, want alice only", turn.Pinged)
	}
	return id.Game, turn
}

// playTurn plays the turn of whoever is to move with the best roll for a
// racer, through the buttons; it reports whether a capture and a barricade
// placement happened.
func playTurn(t *testing.T, h *harness, gameID int64, wantCapture bool) (captured, placed bool) {
	t.Helper()
	turnMsg, running := h.waitTurn(gameID)
	if !running {
		return false, false
	}
	_, g := h.game(gameID)
	if !hasBoard(turnMsg) {
		t.Fatalf("turn %d message has no board", g.TurnNumber())
	}
	player := turnMsg.Pinged[0]
	roll, m := bestRoll(g.Position(), g.Rules(), wantCapture)
	if roll == 0 {
		roll = 6 // nothing is legal: any roll passes
	}
	h.die.set(roll)
	resp := h.click(player, turnMsg.ID, control(t, turnMsg, bot.ActRoll))
	if resp.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("roll answered type %d", resp.Type)
	}
	if !hasControl(*resp.Message, bot.ActMove) {
		if !strings.Contains(resp.Message.Text(), "no legal move") {
			t.Fatalf("no move buttons and no pass: %q %v", resp.Message.Text(), resp.Message.CustomIDs())
		}
		return false, false
	}
	if !hasBoard(*resp.Message) {
		t.Fatal("the move view has no board")
	}
	target := engine.Move{From: m.From, To: m.To, Place: engine.NoSquare}.String()
	var moveID string
	for _, id := range resp.Message.CustomIDs() {
		if strings.HasSuffix(id, "/"+target) && strings.HasPrefix(id, "mf/move/") {
			moveID = id
		}
	}
	if moveID == "" {
		t.Fatalf("no button for %s among %v", target, resp.Message.CustomIDs())
	}
	piece := g.Position().At(m.To)
	resp = h.click(player, turnMsg.ID, moveID)
	if piece == engine.Barricade {
		// Choose the row, then a square, with the select menus.
		rows := control(t, *resp.Message, bot.ActPlaceRow)
		menu, _ := resp.Message.Component(rows)
		lowest := menu.Options[len(menu.Options)-1].Value
		resp = h.click(player, turnMsg.ID, rows, lowest)
		var squareMenu fakediscord.Component
		for _, c := range resp.Message.Controls() {
			if strings.HasPrefix(c.CustomID, "mf/place/") && c.Type == discordgo.SelectMenuComponent {
				squareMenu = c
			}
		}
		if len(squareMenu.Options) == 0 {
			t.Fatalf("no square menu after choosing a row: %v", resp.Message.CustomIDs())
		}
		resp = h.click(player, turnMsg.ID, squareMenu.CustomID, squareMenu.Options[len(squareMenu.Options)-1].Value)
		placed = true
	}
	if resp.Type != discordgo.InteractionResponseUpdateMessage || len(resp.Message.CustomIDs()) != 0 {
		t.Fatalf("after the move the old message should be a summary: %q %v", resp.Message.Text(), resp.Message.CustomIDs())
	}
	return piece.IsPawn(), placed
}

func TestWholeGameThroughButtons(t *testing.T) {
	h := newHarness(t, withoutMessageBuckets())
	gameID, _ := openTwoPlayerGame(t, h)
	captures, placements := 0, 0
	for turn := 0; ; turn++ {
		if turn > 300 {
			t.Fatal("no winner after 300 turns")
		}
		if _, running := h.waitTurn(gameID); !running {
			break
		}
		c, p := playTurn(t, h, gameID, captures == 0)
		if c {
			captures++
		}
		if p {
			placements++
		}
	}
	if captures == 0 || placements == 0 {
		t.Errorf("captures %d, barricade placements %d; want at least one of each", captures, placements)
	}
	final := h.lastMessage()
	if !hasBoard(final) || !strings.Contains(title(final), "wins") {
		t.Errorf("final message: %+v", final.Embeds)
	}
	sg, g := h.game(gameID)
	if !g.Over() || sg.Status != malefiz.StatusFinished {
		t.Errorf("game over=%v status=%s", g.Over(), sg.Status)
	}
	events, err := h.main.db.Events(h.ctx(), gameID)
	if err != nil || len(events) < 10 {
		t.Fatalf("events: %d, %v", len(events), err)
	}
	if last := events[len(events)-1]; last.Kind != malefiz.EventWin {
		t.Errorf("last event %s, want win", last.Kind)
	}
	stats, err := h.main.db.PlayerStats(h.ctx(), h.fake.GuildID, alice)
	if err != nil || stats.Games != 1 {
		t.Errorf("alice's stats: %+v, %v", stats, err)
	}
	checkStatsCommands(t, h, gameID, g)
}

// checkStatsCommands asks for the statistics of the game just played
// through the fake Discord.
func checkStatsCommands(t *testing.T, h *harness, gameID int64, g *engine.Game) {
	t.Helper()
	winner := alice
	if g.Winner() != engine.Red {
		winner = bob
	}
	resp := h.command(alice, "stats", map[string]any{"user": winner})
	if resp.Ephemeral() || len(resp.Message.Embeds) == 0 {
		t.Fatalf("stats: %+v", resp.Message)
	}
	fields := map[string]string{}
	for _, f := range resp.Message.Embeds[0].Fields {
		fields[f.Name] = f.Value
	}
	if fields["Games"] != "1" || !strings.HasPrefix(fields["Wins"], "1 ") || !strings.HasPrefix(fields["Current streak"], "1 won") {
		t.Errorf("winner's stats fields: %v", fields)
	}
	if len(resp.Message.Attachments) != 1 || resp.Message.Attachments[0].Filename != "rating.png" {
		t.Errorf("stats without the rating chart: %+v", resp.Message.Attachments)
	}
	if resp := h.command(carol, "stats", nil); !resp.Ephemeral() {
		t.Errorf("stats of a player without games should be a private refusal")
	}
	hist := h.command(bob, "history", nil)
	if len(hist.Message.Embeds) == 0 || !strings.Contains(hist.Message.Embeds[0].Description, fmt.Sprintf("#%d", gameID)) {
		t.Errorf("history: %+v", hist.Message.Embeds)
	}
	lb := h.command(bob, "leaderboard", nil)
	if len(lb.Message.Embeds) == 0 || !strings.Contains(lb.Message.Embeds[0].Description, "3 games") {
		t.Errorf("leaderboard with one game should say nobody is ranked yet: %+v", lb.Message.Embeds)
	}
	replay := h.command(bob, "replay", map[string]any{"game": gameID})
	if replay.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("replay should defer, got type %d", replay.Type)
	}
	call, err := h.fake.WaitFor(h.ctx(), func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteWebhookMessageEdit && c.InteractionID == replay.InteractionID
	})
	if err != nil || len(call.Files) != 1 {
		t.Fatalf("replay edit: %v, files %d", err, len(call.Files))
	}
	anim, err := gif.DecodeAll(bytes.NewReader(call.Files[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	moves := 0
	for _, rec := range g.History() {
		if rec.Kind == engine.RecordMove {
			moves++
		}
	}
	if len(anim.Image) != moves+1 {
		t.Errorf("replay has %d frames, want %d moves + the start", len(anim.Image), moves)
	}
	// A number that was never a game: it does not exist, rather than "no
	// longer exists".
	none := h.command(bob, "replay", map[string]any{"game": 999})
	said, err := h.fake.WaitFor(h.ctx(), func(c fakediscord.Call) bool {
		return (c.Route == fakediscord.RouteFollowup || c.Route == fakediscord.RouteWebhookMessageEdit) && c.InteractionID == none.InteractionID
	})
	require.NoError(t, err)
	assert.Contains(t, string(said.Body), "There is no game #999 on this server.")
	assert.True(t, said.Route == fakediscord.RouteFollowup, "said privately, not in the public \"thinking…\"")
	thinking, _ := h.fake.Message(none.Message.ID)
	assert.True(t, thinking.Deleted, "the public \"thinking…\" goes")
}
