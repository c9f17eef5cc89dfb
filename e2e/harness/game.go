package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/gif"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The users of the tests' games.
const (
	Alice = "100000000000000001"
	Bob   = "100000000000000002"
	Carol = "100000000000000003"
)

// OpenTwoPlayerGame runs /malefiz new, Bob joins and Alice starts; it
// returns the game's ID and the first turn message.
func OpenTwoPlayerGame(t *testing.T, h *Harness) (int64, fakediscord.Message) {
	t.Helper()
	resp := h.Command(Alice, "new", map[string]any{"seats": 2})
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Ephemeral() {
		t.Fatalf("new: response type %d ephemeral=%v", resp.Type, resp.Ephemeral())
	}
	lobby := *resp.Message
	join := Control(t, lobby, bot.ActJoin)
	id, err := bot.ParseCustomID(join)
	if err != nil {
		t.Fatal(err)
	}
	resp = h.Click(Bob, lobby.ID, join)
	if resp.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(resp.Message.Text(), Bob) {
		t.Fatalf("join: type %d, lobby %q", resp.Type, resp.Message.Text())
	}
	// Only the host starts.
	if resp := h.Click(Bob, lobby.ID, Control(t, *resp.Message, bot.ActStart)); !resp.Ephemeral() || !strings.Contains(resp.Message.Text(), "Only the host") {
		t.Fatalf("Bob started: %+v", resp.Message)
	}
	h.Click(Alice, lobby.ID, Control(t, lobby, bot.ActStart))
	turn, _ := h.WaitTurn(id.Game)
	if !HasControl(turn, bot.ActRoll) || !HasBoard(turn) {
		t.Fatalf("first turn message: controls %v, board %v", turn.CustomIDs(), HasBoard(turn))
	}
	if len(turn.Pinged) != 1 || turn.Pinged[0] != Alice {
		t.Fatalf("first turn pings %v, want Alice only", turn.Pinged)
	}
	return id.Game, turn
}

// PlayTurn plays the turn of whoever is to move with the best roll for a
// racer, through the buttons; it reports whether a capture and a barricade
// placement happened.
func PlayTurn(t *testing.T, h *Harness, gameID int64, wantCapture bool) (captured, placed bool) {
	t.Helper()
	turnMsg, running := h.WaitTurn(gameID)
	if !running {
		return false, false
	}
	_, g := h.Game(gameID)
	if !HasBoard(turnMsg) {
		t.Fatalf("turn %d message has no board", g.TurnNumber())
	}
	player := turnMsg.Pinged[0]
	roll, m := BestRoll(g.Position(), g.Rules(), wantCapture)
	if roll == 0 {
		roll = 6 // nothing is legal: any roll passes
	}
	h.Die.Set(roll)
	resp := h.Click(player, turnMsg.ID, Control(t, turnMsg, bot.ActRoll))
	if resp.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("roll answered type %d", resp.Type)
	}
	if !HasControl(*resp.Message, bot.ActMove) {
		if !strings.Contains(resp.Message.Text(), "no legal move") {
			t.Fatalf("no move buttons and no pass: %q %v", resp.Message.Text(), resp.Message.CustomIDs())
		}
		return false, false
	}
	if !HasBoard(*resp.Message) {
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
	resp = h.Click(player, turnMsg.ID, moveID)
	if piece == engine.Barricade {
		// Choose the row, then a square, with the select menus.
		rows := Control(t, *resp.Message, bot.ActPlaceRow)
		menu, _ := resp.Message.Component(rows)
		lowest := menu.Options[len(menu.Options)-1].Value
		resp = h.Click(player, turnMsg.ID, rows, lowest)
		var squareMenu fakediscord.Component
		for _, c := range resp.Message.Controls() {
			if strings.HasPrefix(c.CustomID, "mf/place/") && c.Type == discordgo.SelectMenuComponent {
				squareMenu = c
			}
		}
		if len(squareMenu.Options) == 0 {
			t.Fatalf("no square menu after choosing a row: %v", resp.Message.CustomIDs())
		}
		resp = h.Click(player, turnMsg.ID, squareMenu.CustomID, squareMenu.Options[len(squareMenu.Options)-1].Value)
		placed = true
	}
	if resp.Type != discordgo.InteractionResponseUpdateMessage || len(resp.Message.CustomIDs()) != 0 {
		t.Fatalf("after the move the old message should be a summary: %q %v", resp.Message.Text(), resp.Message.CustomIDs())
	}
	return piece.IsPawn(), placed
}

// CheckStatsCommands asks for the statistics of the game just played
// through the fake Discord.
func CheckStatsCommands(t *testing.T, h *Harness, gameID int64, g *engine.Game) {
	t.Helper()
	winner := Alice
	if g.Winner() != engine.Red {
		winner = Bob
	}
	resp := h.Command(Alice, "stats", map[string]any{"user": winner})
	if resp.Ephemeral() || !resp.Message.ComponentsV2() {
		t.Fatalf("stats: %+v", resp.Message)
	}
	text := resp.Message.Text()
	for _, want := range []string{"**Games:** 1", "**Wins:** 1 (", "**Current streak:** 1 won"} {
		if !strings.Contains(text, want) {
			t.Errorf("winner's stats without %q: %s", want, text)
		}
	}
	if shown := resp.Message.ShownAttachments(); len(shown) != 1 || shown[0].Filename != "rating.png" {
		t.Errorf("stats without the rating chart: %+v", resp.Message.Attachments)
	}
	// The chart says in words what it draws: the rating the card shows.
	rating := regexp.MustCompile(`\*\*Rating \(rank\):\*\* (\d+)`).FindStringSubmatch(text)
	alt := GalleryAlts(*resp.Message)["attachment://rating.png"]
	if len(rating) < 2 || !strings.HasPrefix(alt, "Line chart of the rating of ") || !strings.Contains(alt, " Rating now: "+rating[1]+".") {
		t.Errorf("the rating chart's alt text %q does not say the rating of %q", alt, text)
	}
	if resp := h.Command(Carol, "stats", nil); !resp.Ephemeral() {
		t.Errorf("stats of a player without games should be a private refusal")
	}
	hist := h.Command(Bob, "history", nil)
	if len(hist.Message.Embeds) == 0 || !strings.Contains(hist.Message.Embeds[0].Description, fmt.Sprintf("#%d", gameID)) {
		t.Errorf("history: %+v", hist.Message.Embeds)
	}
	lb := h.Command(Bob, "leaderboard", nil)
	if len(lb.Message.Embeds) == 0 || !strings.Contains(lb.Message.Embeds[0].Description, "3 games") {
		t.Errorf("leaderboard with one game should say nobody is ranked yet: %+v", lb.Message.Embeds)
	}
	replay := h.Command(Bob, "replay", map[string]any{"game": gameID})
	if replay.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("replay should defer, got type %d", replay.Type)
	}
	call, err := h.Fake.WaitFor(h.Ctx(), func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteWebhookMessageEdit && c.InteractionID == replay.InteractionID
	})
	if err != nil || len(call.Files) != 1 {
		t.Fatalf("replay edit: %v, files %d", err, len(call.Files))
	}
	// The animation in words, for a screen reader: the game, its length,
	// who won.
	shown, _ := h.Fake.Message(replay.Message.ID)
	alt = GalleryAlts(shown)[fmt.Sprintf("attachment://malefiz-%d.gif", gameID)]
	if want := fmt.Sprintf("Animated replay of Malefiz game #%d, %d turns, one picture per move. Players: ", gameID, g.TurnNumber()); !strings.HasPrefix(alt, want) {
		t.Errorf("the replay's alt text %q, want it to start %q", alt, want)
	}
	if !strings.Contains(alt, fmt.Sprintf("reached the goal on turn %d.", g.TurnNumber())) {
		t.Errorf("the replay's alt text %q does not say when the game was won", alt)
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
	none := h.Command(Bob, "replay", map[string]any{"game": 999})
	said, err := h.Fake.WaitFor(h.Ctx(), func(c fakediscord.Call) bool {
		return (c.Route == fakediscord.RouteFollowup || c.Route == fakediscord.RouteWebhookMessageEdit) && c.InteractionID == none.InteractionID
	})
	require.NoError(t, err)
	assert.Contains(t, string(said.Body), "There is no game #999 on this server.")
	assert.True(t, said.Route == fakediscord.RouteFollowup, "said privately, not in the public \"thinking…\"")
	thinking, _ := h.Fake.Message(none.Message.ID)
	assert.True(t, thinking.Deleted, "the public \"thinking…\" goes")
}

// PlayRolledTurn plays the turn message of whoever is to move with a
// racer's move: it presses Roll first when the message has the button
// (roll button), else the turn arrived rolled; a captured barricade goes to
// the first suggested square. It returns the clicks it took and how many of
// them placed a barricade, or false when the game is over.
//
// With viaMenu the barricade goes through the menus instead: a row, then
// a square, checking that the board and the menu letter the row alike.
func PlayRolledTurn(t *testing.T, h *Harness, gameID int64, viaMenu bool) (clicks, placements int, running bool) {
	t.Helper()
	turnMsg, running := h.WaitTurn(gameID)
	if !running {
		return 0, 0, false
	}
	require.True(t, HasBoard(turnMsg), "the turn message has no board")
	player := turnMsg.Pinged[0]
	msg := turnMsg
	if HasControl(turnMsg, bot.ActRoll) {
		msg = *h.Click(player, turnMsg.ID, Control(t, turnMsg, bot.ActRoll)).Message
		clicks++
		if len(msg.CustomIDs()) == 0 {
			return clicks, 0, true // no legal move: the turn passed
		}
	}
	_, g := h.Game(gameID)
	require.Equal(t, engine.PhaseMove, g.Phase(), "the turn message is rolled")
	m := RacingMove(g, true)
	if !HasControl(msg, bot.ActMove) {
		arg := "home"
		if m.From != engine.NoSquare {
			arg = m.From.String()
		}
		msg = *h.Click(player, turnMsg.ID, fmt.Sprintf("mf/pawn/%d/%d/%s", gameID, g.TurnNumber(), arg)).Message
		clicks++
	}
	target := "/" + engine.Move{From: m.From, To: m.To, Place: engine.NoSquare}.String()
	var moveID string
	for _, id := range msg.CustomIDs() {
		if strings.HasPrefix(id, "mf/move/") && strings.HasSuffix(id, target) {
			moveID = id
		}
	}
	require.NotEmpty(t, moveID, "no button for %s among %v", target, msg.CustomIDs())
	resp := h.Click(player, turnMsg.ID, moveID)
	clicks++
	if g.Position().At(m.To) == engine.Barricade {
		require.Contains(t, resp.Message.Text(), " took the barricade on "+m.To.String()+" and is choosing where it goes", "in the third person for everyone")
		suggested, err := bot.ParseCustomID(Control(t, *resp.Message, bot.ActPlace))
		require.NoError(t, err)
		if viaMenu {
			// The first suggestion, found through the menus.
			sq, err := engine.ParseSquare(suggested.Arg)
			require.NoError(t, err)
			rows := Control(t, *resp.Message, bot.ActPlaceRow)
			resp = h.Click(player, turnMsg.ID, rows, fmt.Sprint(sq.Row()))
			clicks++
			placements++
			require.True(t, HasBoard(*resp.Message), "the row's board")
			var squares fakediscord.Component
			for _, c := range resp.Message.Controls() {
				if strings.HasPrefix(c.CustomID, "mf/place/") && c.Type == discordgo.SelectMenuComponent {
					squares = c
				}
			}
			require.NotEmpty(t, squares.Options, "no square menu after choosing a row")
			for i, o := range squares.Options {
				assert.Equal(t, fmt.Sprintf("%c · %s", 'A'+i, o.Value), o.Label, "the menu letters the row's squares")
			}
			resp = h.Click(player, turnMsg.ID, squares.CustomID, suggested.Arg)
		} else {
			resp = h.Click(player, turnMsg.ID, suggested.String())
		}
		clicks++
		placements++
	}
	require.Empty(t, resp.Message.CustomIDs(), "after the move the turn message is its line: %q", resp.Message.Text())
	return clicks, placements, true
}

// LobbyInOneCommit checks that new game id and its lobby message were
// committed together, as /malefiz new commits them: the game was written
// once (version 1), and its first effect, committed with it, posts the
// lobby message whose buttons name the game. A crash after that commit
// sends the message late, never leaves a lobby without it.
func LobbyInOneCommit(t *testing.T, db *store.DB, id int64) {
	t.Helper()
	sg, err := db.Game(t.Context(), id)
	require.NoError(t, err)
	assert.Equal(t, int64(1), sg.Version, "one commit: the game with its lobby message")
	effects, err := db.Effects(t.Context(), id)
	require.NoError(t, err)
	require.NotEmpty(t, effects)
	var first struct{ Op, Record string }
	require.NoError(t, json.Unmarshal(effects[0].Payload, &first))
	assert.Equal(t, "post", first.Op)
	assert.Equal(t, string(malefiz.RoleLobby), first.Record)
	assert.Contains(t, string(effects[0].Payload), fmt.Sprintf("mf/join/%d/0", id), "the post names the game")
}

// RacingMove is the move a racer picks among the legal ones: a capture
// when wantCapture, else the one that ends closest to the goal.
func RacingMove(g *engine.Game, wantCapture bool) engine.Move {
	best, bestScore := engine.Move{}, 1<<30
	for _, m := range g.LegalMoves() {
		score := engine.DistanceToGoal(m.To) * 10
		if piece := g.Position().At(m.To); wantCapture && piece.IsPawn() && piece.Color() != g.Turn() {
			score = -1000
		}
		if score < bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// NewTimedGame opens a two-player game with a one-hour turn timeout,
// Bob joins and Alice starts it; it returns the game's ID.
func NewTimedGame(t *testing.T, h *Harness) int64 {
	t.Helper()
	resp := h.Command(Alice, "new", map[string]any{"seats": 2, "turn-timeout": "1h"})
	lobby := *resp.Message
	h.Click(Bob, lobby.ID, Control(t, lobby, bot.ActJoin))
	id, _ := bot.ParseCustomID(Control(t, lobby, bot.ActStart))
	h.Click(Alice, lobby.ID, Control(t, lobby, bot.ActStart))
	h.WaitTurn(id.Game)
	return id.Game
}

// GalleryAlts are the alt texts of m's media gallery items, by the
// attachment://name each shows ("" for an item without one).
func GalleryAlts(m fakediscord.Message) map[string]string {
	out := map[string]string{}
	for _, c := range m.ComponentsOfType(discordgo.MediaGalleryComponent) {
		for _, it := range c.Items {
			alt := ""
			if it.Description != nil {
				alt = *it.Description
			}
			out[it.Media.URL] = alt
		}
	}
	return out
}
