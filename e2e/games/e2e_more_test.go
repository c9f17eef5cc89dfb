package games

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/store"
)

func TestServerSettings(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	clock := harness.ClockAt(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	h := harness.NewWithClock(t, clock)
	h.PlayInChannel()
	if resp := h.Command(harness.Alice, "settings", map[string]any{"turn-timeout": "1h"}); !resp.Ephemeral() || !strings.Contains(resp.Message.Text(), "Manage Server") {
		t.Fatalf("settings without Manage Server: %q", resp.Message.Text())
	}
	resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Alice, Name: "malefiz", Sub: "settings",
		Permissions: discordgo.PermissionManageGuild, Options: map[string]any{"turn-timeout": "6h", "reminders": false}})
	if err != nil || !resp.Ephemeral() || !strings.Contains(resp.Message.Text(), "6 hours") {
		t.Fatalf("settings by a manager: %v %+v", err, resp.Message)
	}
	// A game without its own timeout takes the server's: 6 hours, no reminder.
	lobby := *h.Command(harness.Alice, "new", map[string]any{"seats": 2}).Message
	h.Click(harness.Bob, lobby.ID, harness.Control(t, lobby, bot.ActJoin))
	id, _ := bot.ParseCustomID(harness.Control(t, lobby, bot.ActStart))
	h.Click(harness.Alice, lobby.ID, harness.Control(t, lobby, bot.ActStart))
	h.WaitTurn(id.Game)
	sg, _ := h.Game(id.Game)
	if !sg.Deadline.Equal(clock.Now().Add(6*time.Hour)) || !sg.RemindAt.IsZero() {
		t.Errorf("deadline %v remind %v, want 6 h and no reminder", sg.Deadline, sg.RemindAt)
	}
}

func TestMissingPermissionsAreExplained(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t)
	lobby := *h.Command(harness.Alice, "new", map[string]any{"seats": 2}).Message
	h.Click(harness.Bob, lobby.ID, harness.Control(t, lobby, bot.ActJoin))
	// The bot loses Send Messages before the game starts.
	h.Fake.SetPermissions(h.Fake.ChannelID, discordgo.PermissionViewChannel)
	h.Click(harness.Alice, lobby.ID, harness.Control(t, lobby, bot.ActStart))
	// The first turn's card goes as a follow-up of Start (which needs no
	// channel permission): the note is the private one.
	call, err := h.Fake.WaitFor(h.Ctx(), func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteFollowup && strings.Contains(string(c.Body), "Send Messages")
	})
	if err != nil {
		t.Fatalf("no follow-up explaining the missing permissions: %v", err)
	}
	var body struct {
		Content string `json:"content"`
		Flags   int    `json:"flags"`
	}
	call.Decode(&body)
	if !strings.Contains(body.Content, "Send Messages") || body.Flags&int(discordgo.MessageFlagsEphemeral) == 0 {
		t.Errorf("follow-up %+v, want a private note naming the permissions", body)
	}
	// The game started all the same; once the permission is back,
	// /malefiz board brings the turn on screen.
	h.Fake.SetPermissions(h.Fake.ChannelID, fakediscord.DefaultAppPermissions)
	board := h.Command(harness.Alice, "board", nil)
	if !board.Ephemeral() || !harness.HasControl(*board.Message, bot.ActRoll) {
		t.Errorf("board after the permission came back: %v", board.Message.CustomIDs())
	}
}

// seedFinished stores a finished two-player game between a and b that w wins.
func seedFinished(t *testing.T, db *store.DB, guild, channel, a, b, w string) {
	t.Helper()
	g := &malefiz.Game{GuildID: guild, ChannelID: channel, HostID: a, Status: malefiz.StatusRunning, Options: malefiz.Options{Seats: 2},
		Seats: []malefiz.Seat{{Color: "red", UserID: a, Name: "P" + a[len(a)-2:]}, {Color: "green", UserID: b, Name: "P" + b[len(b)-2:]}}}
	if err := db.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	results := []malefiz.Result{
		{Player: a, Name: g.Seats[0].Name, Color: "red", Won: w == a, Turns: 20, GameTurns: 40},
		{Player: b, Name: g.Seats[1].Name, Color: "green", Won: w == b, Turns: 20, GameTurns: 40},
	}
	if err := db.FinishGame(t.Context(), g, results); err != nil {
		t.Fatal(err)
	}
}

func TestLeaderboardShowsTheCallersOwnLine(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t)
	// Twelve players with three games each; the last, "11", loses all.
	player := func(i int) string { return fmt.Sprintf("4000000000000000%02d", i) }
	n := 0
	for round := 0; round < 3; round++ {
		for i := 0; i < 12; i += 2 {
			a, b := player(i), player(i+1)
			winner := a
			if i == 10 {
				winner = a // player 11 always loses
			}
			seedFinished(t, h.Main.DB(), h.Fake.GuildID, fmt.Sprintf("5000000000000%05d", n), a, b, winner)
			n++
		}
	}
	resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: player(11), Name: "malefiz", Sub: "leaderboard"})
	if err != nil {
		t.Fatal(err)
	}
	desc := resp.Message.Embeds[0].Description
	lines := strings.Split(desc, "\n")
	if len(lines) != 12 || lines[10] != "…" || !strings.Contains(lines[11], "P11") || !strings.HasPrefix(lines[11], "**") {
		t.Errorf("page 1 for a player off the page:\n%s", desc)
	}
	if !strings.Contains(resp.Message.Embeds[0].Footer.Text, "Page 1 of 2") {
		t.Errorf("footer %q", resp.Message.Embeds[0].Footer.Text)
	}
	page2 := h.Command(player(0), "leaderboard", map[string]any{"page": 2, "period": "30d"})
	if lines := strings.Split(page2.Message.Embeds[0].Description, "\n"); !strings.HasPrefix(lines[0], "11.") {
		t.Errorf("page 2 starts with %q, want rank 11", lines[0])
	}
}

func TestComputerSeatsPlayAtOnce(t *testing.T) {
	t.Parallel()
	h := harness.New(t, harness.WithoutMessageBuckets()) // more than 5 messages in 5 s: not what it tests
	lobby := *h.Command(harness.Alice, "new", map[string]any{"seats": 3, "bots": 1, "level": "easy"}).Message
	if !strings.Contains(lobby.Text(), "Computer (easy)") {
		t.Fatalf("lobby without the computer: %q", lobby.Text())
	}
	// Bob cannot add a computer (he has no seat); alice adds a hard one by the menu.
	addBot := harness.Control(t, lobby, bot.ActAddBot)
	if resp := h.Click(harness.Bob, lobby.ID, addBot, "hard"); !resp.Ephemeral() {
		t.Errorf("a stranger added a computer")
	}
	resp := h.Click(harness.Alice, lobby.ID, addBot, "hard")
	if !strings.Contains(resp.Message.Text(), "Computer (hard)") || harness.HasControl(*resp.Message, bot.ActAddBot) {
		t.Fatalf("after adding a hard computer: %q %v", resp.Message.Text(), resp.Message.CustomIDs())
	}
	id, _ := bot.ParseCustomID(harness.Control(t, lobby, bot.ActStart))
	h.Click(harness.Alice, lobby.ID, harness.Control(t, lobby, bot.ActStart))
	for turn := 0; turn < 3; turn++ {
		moves, player := rollFor(t, h, id.Game, 6)
		if player != harness.Alice {
			t.Fatalf("turn message for %s, want alice (the computers move at once)", player)
		}
		played := moves
		if ids := moves.CustomIDs(); len(ids) > 0 {
			played = *h.Click(harness.Alice, moves.ID, ids[0]).Message
		}
		if _, running := h.WaitTurn(id.Game); !running {
			return
		}
		// Alice's turn message became her turn's line, followed by a
		// line per computer turn played after it.
		if lines := played.Text(); strings.Count(lines, "Computer (") < 2 || strings.Count(lines, "**Turn") != 3 {
			t.Errorf("the turn's line is not followed by both computers' turns:\n%s", lines)
		}
	}
	sg, g := h.Game(id.Game)
	if g.TurnNumber() != 10 || sg.Status != malefiz.StatusRunning {
		t.Errorf("turn %d, want 10 after three rounds", g.TurnNumber())
	}
}

func TestGermanPlayersReadGerman(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.New(t, fakediscord.WithGuild(fakediscord.Guild{Locale: "de"}))
	rules, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Alice, Locale: "de", Name: "malefiz", Sub: "rules"})
	if err != nil || !rules.Ephemeral() || !strings.Contains(rules.Message.Text(), "Malefiz in Kürze") {
		t.Fatalf("rules in German: %v %q", err, rules.Message.Text())
	}
	// An English-speaking user on a German server: private replies in
	// English, the lobby everyone sees in German.
	lobby := h.Command(harness.Alice, "new", nil)
	if !strings.Contains(harness.Title(*lobby.Message), "neues Spiel") {
		t.Errorf("lobby title %q, want German", harness.Title(*lobby.Message))
	}
	if resp := h.Command(harness.Bob, "start", nil); !strings.Contains(resp.Message.Text(), "Only the host") {
		t.Errorf("private refusal for an English user: %q", resp.Message.Text())
	}
	cmds := h.Fake.Commands(h.Fake.GuildID)
	if len(cmds) != 1 || cmds[0].DescriptionLocalizations == nil || (*cmds[0].DescriptionLocalizations)["de"] == "" {
		t.Errorf("command without a German description")
	}
}
