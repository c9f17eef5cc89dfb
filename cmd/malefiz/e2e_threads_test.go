package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// openGameBy opens a two-seat game by host (with extra options), seats
// guest and starts it; it returns the game's ID and its lobby message.
func openGameBy(t *testing.T, h *harness, host, guest string, opts map[string]any) (int64, fakediscord.Message) {
	t.Helper()
	o := map[string]any{"seats": 2}
	for k, v := range opts {
		o[k] = v
	}
	resp := h.command(host, "new", o)
	require.False(t, resp.Ephemeral(), "new: %q", resp.Message.Text())
	lobby := *resp.Message
	id, err := bot.ParseCustomID(control(t, lobby, bot.ActJoin))
	require.NoError(t, err)
	h.click(guest, lobby.ID, control(t, lobby, bot.ActJoin))
	h.click(host, lobby.ID, control(t, lobby, bot.ActStart))
	return id.Game, lobby
}

// thread returns the fake's channel id, which must be a thread.
func (h *harness) thread(id string) fakediscord.Channel {
	h.t.Helper()
	for _, c := range h.fake.Channels() {
		if c.ID == id {
			require.True(h.t, c.Thread, "channel %s is not a thread", id)
			return c
		}
	}
	h.t.Fatalf("no thread %s", id)
	return fakediscord.Channel{}
}

// racingMove is the move a racer picks among the legal ones: a capture
// when wantCapture, else the one that ends closest to the goal.
func racingMove(g *engine.Game, wantCapture bool) engine.Move {
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

// playRolledTurn plays the turn message of whoever is to move with a
// racer's move: it presses Roll first when the message has the button
// (roll button), else the turn arrived rolled; a captured barricade goes to
// the first suggested square. It returns the clicks it took and how many of
// them placed a barricade, or false when the game is over.
//
// With viaMenu the barricade goes through the menus instead: a row, then
// a square, checking that the board and the menu letter the row alike.
func playRolledTurn(t *testing.T, h *harness, gameID int64, viaMenu bool) (clicks, placements int, running bool) {
	t.Helper()
	turnMsg, running := h.waitTurn(gameID)
	if !running {
		return 0, 0, false
	}
	require.True(t, hasBoard(turnMsg), "the turn message has no board")
	player := turnMsg.Pinged[0]
	msg := turnMsg
	if hasControl(turnMsg, bot.ActRoll) {
		msg = *h.click(player, turnMsg.ID, control(t, turnMsg, bot.ActRoll)).Message
		clicks++
		if len(msg.CustomIDs()) == 0 {
			return clicks, 0, true // no legal move: the turn passed
		}
	}
	_, g := h.game(gameID)
	require.Equal(t, engine.PhaseMove, g.Phase(), "the turn message is rolled")
	m := racingMove(g, true)
	if !hasControl(msg, bot.ActMove) {
		arg := "home"
		if m.From != engine.NoSquare {
			arg = m.From.String()
		}
		msg = *h.click(player, turnMsg.ID, fmt.Sprintf("mf/pawn/%d/%d/%s", gameID, g.TurnNumber(), arg)).Message
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
	resp := h.click(player, turnMsg.ID, moveID)
	clicks++
	if g.Position().At(m.To) == engine.Barricade {
		require.Contains(t, resp.Message.Text(), " took the barricade on "+m.To.String()+" and is choosing where it goes", "in the third person for everyone")
		suggested, err := bot.ParseCustomID(control(t, *resp.Message, bot.ActPlace))
		require.NoError(t, err)
		if viaMenu {
			// The first suggestion, found through the menus.
			sq, err := engine.ParseSquare(suggested.Arg)
			require.NoError(t, err)
			rows := control(t, *resp.Message, bot.ActPlaceRow)
			resp = h.click(player, turnMsg.ID, rows, fmt.Sprint(sq.Row()))
			clicks++
			placements++
			require.True(t, hasBoard(*resp.Message), "the row's board")
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
			resp = h.click(player, turnMsg.ID, squares.CustomID, suggested.Arg)
		} else {
			resp = h.click(player, turnMsg.ID, suggested.String())
		}
		clicks++
		placements++
	}
	require.Empty(t, resp.Message.CustomIDs(), "after the move the turn message is its line: %q", resp.Message.Text())
	return clicks, placements, true
}

// figures are what one game cost in Discord traffic.
type figures struct {
	channel, thread           fakediscord.Traffic
	turns, clicks, placements int
}

func (f figures) String() string {
	return fmt.Sprintf("turns %d · channel: %d messages, %d edits, pings %v, %d PNGs %.2f MB · "+
		"thread: %d messages (%d deleted), %d edits, pings %v (named %v), %d PNGs %d bytes · "+
		"clicks per turn %.2f (%.2f without the %d barricade placements)",
		f.turns, f.channel.Messages, f.channel.Edits, f.channel.Pings, f.channel.Uploads, float64(f.channel.UploadedBytes)/1e6,
		f.thread.Messages, f.thread.Deleted, f.thread.Edits, f.thread.Pings, f.thread.Mentions, f.thread.Uploads, f.thread.UploadedBytes,
		f.perTurn(f.clicks), f.perTurn(f.clicks-f.placements), f.placements)
}

func (f figures) perTurn(n int) float64 { return float64(n) / float64(f.turns) }

// TestGameInAThreadWithTheCardInTheChannel plays a whole two-player game
// with the defaults (threads on, roll auto): the turns in the game's
// thread, the card in the channel edited as the game goes, every turn a
// line of the thread, the thread left to auto-archive at the end. It prints the
// traffic figures next to those of the same game played the older way
// (threads off, Roll button).
func TestGameInAThreadWithTheCardInTheChannel(t *testing.T) {
	h := newThreadHarness(t, withoutMessageBuckets())
	gameID, lobby := openGameBy(t, h, alice, bob, nil)
	h.waitTurn(gameID)
	sg, _ := h.game(gameID)
	require.Equal(t, lobby.ID, sg.ThreadID, "the thread is started from the lobby message")
	th := h.thread(sg.ThreadID)
	assert.Equal(t, h.fake.ChannelID, th.ParentID)
	assert.Equal(t, fmt.Sprintf("Malefiz #%d · ", gameID), th.Name[:len(fmt.Sprintf("Malefiz #%d · ", gameID))])
	assert.ElementsMatch(t, []string{h.fake.AppID, alice, bob}, h.fake.ThreadMembers(sg.ThreadID))
	var card fakediscord.Message
	require.Eventually(t, func() bool {
		card, _ = h.fake.Message(lobby.ID)
		return strings.Contains(card.Text(), "<t:")
	}, 5*time.Second, 5*time.Millisecond, "the card shows the deadline")
	assert.Contains(t, card.Text(), "Turn 1")
	assert.Contains(t, card.Text(), "40 to go")
	assert.Contains(t, card.Text(), "<#"+sg.ThreadID+">")
	assert.Empty(t, card.CustomIDs(), "the card has no lobby buttons")

	f := figures{}
	for {
		clicks, placements, running := playRolledTurn(t, h, gameID, f.placements == 0)
		if !running {
			break
		}
		f.clicks += clicks
		f.placements += placements
		require.Less(t, f.clicks, 400, "no winner after 400 clicks")
	}
	sg, g := h.game(gameID)
	require.Equal(t, malefiz.StatusFinished, sg.Status)
	f.turns = g.TurnNumber()
	f.channel, f.thread = h.fake.Traffic(h.fake.ChannelID), h.fake.Traffic(sg.ThreadID)

	// Every turn left its line in the thread, in order.
	var history strings.Builder
	for _, m := range h.fake.ChannelMessages(sg.ThreadID) {
		history.WriteString(m.Text() + "\n")
	}
	at := 0
	for turn := 1; turn <= g.TurnNumber(); turn++ {
		i := strings.Index(history.String()[at:], fmt.Sprintf("**Turn %d** ·", turn))
		require.GreaterOrEqual(t, i, 0, "turn %d left no line in the thread, after %q", turn, history.String()[:at])
		at += i
	}
	assert.Eventually(t, func() bool {
		card, _ := h.fake.Message(lobby.ID)
		return strings.HasPrefix(title(card), "🏆")
	}, 5*time.Second, 5*time.Millisecond, "the card shows the result")
	assert.False(t, h.thread(sg.ThreadID).Archived, "the thread is left to Discord's auto-archive after the result")
	last, _ := h.fake.LastMessage(sg.ThreadID)
	assert.True(t, hasBoard(last) && strings.HasPrefix(title(last), "🏆"), "the result is the thread's last message")

	// The goals of issue 14.
	assert.LessOrEqual(t, f.channel.Messages, 3, "messages in the channel")
	assert.Empty(t, f.channel.Pings, "the channel pings nobody")
	for _, u := range []string{alice, bob} {
		// Issue 21: a prompt player's turns are @silent but the first;
		// the result pings everyone.
		assert.LessOrEqual(t, f.thread.Pings[u], 3, "notifying pings of %s: at most 2 turn messages and the result", u)
	}
	assert.LessOrEqual(t, f.thread.Messages-f.thread.Deleted, f.turns+2, "at most a message per turn, with the opener and the result")
	assert.LessOrEqual(t, f.perTurn(f.clicks-f.placements), 1.2, "clicks per turn, barricade placements aside")
	assert.LessOrEqual(t, f.thread.Uploads, f.turns+f.placements+1, "one board per turn, a placement's preview, the result")
	t.Logf("threads on, roll auto: %v", f)

	// The same kind of game the older way, for the figures before.
	old := newHarness(t, withoutMessageBuckets())
	oldID, _ := openTwoPlayerGame(t, old)
	old.die.set() // the test scripts no roll: the same fair die as above
	of := figures{}
	for {
		clicks, placements, running := playRolledTurn(t, old, oldID, false)
		if !running {
			break
		}
		of.clicks += clicks
		of.placements += placements
		require.Less(t, of.clicks, 1000, "no winner after 1000 clicks")
	}
	_, og := old.game(oldID)
	of.turns = og.TurnNumber()
	of.channel = old.fake.Traffic(old.fake.ChannelID)
	t.Logf("threads off, roll button: %v", of)
}

// TestThreeGamesAtOnceInOneChannel runs three games in one channel, each
// in its thread; commands find the caller's game, in the channel and in
// a thread.
func TestThreeGamesAtOnceInOneChannel(t *testing.T) {
	const dave, erin, frank = "100000000000000004", "100000000000000005", "100000000000000006"
	h := newThreadHarness(t, withoutMessageBuckets()) // three cards edited in one channel's bucket
	pairs := [][2]string{{alice, bob}, {carol, dave}, {erin, frank}}
	var ids []int64
	for _, p := range pairs {
		id, _ := openGameBy(t, h, p[0], p[1], nil)
		ids = append(ids, id)
	}
	threads := map[string]bool{}
	for i, id := range ids {
		h.waitTurn(id)
		sg, _ := h.game(id)
		require.NotEmpty(t, sg.ThreadID, "game %d has no thread", id)
		threads[sg.ThreadID] = true
		assert.ElementsMatch(t, []string{h.fake.AppID, pairs[i][0], pairs[i][1]}, h.fake.ThreadMembers(sg.ThreadID))
	}
	require.Len(t, threads, 3, "one thread per game")
	// One turn in each, in turn.
	for _, id := range ids {
		_, _, running := playRolledTurn(t, h, id, false)
		require.True(t, running)
	}
	for _, id := range ids {
		_, g := h.game(id)
		assert.Greater(t, g.TurnNumber(), 1, "game %d went on", id)
	}
	// /malefiz board in the channel finds the caller's game; in a thread,
	// the thread's game.
	board := h.command(carol, "board", nil)
	require.True(t, board.Ephemeral())
	assert.Contains(t, board.Message.Text(), fmt.Sprintf("#%d", ids[1]))
	sg, _ := h.game(ids[2])
	resp, err := h.fake.SlashCommand(h.ctx(), fakediscord.Invocation{User: alice, Channel: sg.ThreadID, Name: "malefiz", Sub: "board"})
	require.NoError(t, err)
	assert.Contains(t, resp.Message.Text(), fmt.Sprintf("#%d", ids[2]))
	// A game's turn message clicked from another game's thread, or from
	// the channel, is refused; so is its lobby card from a thread.
	first, firstGame := h.game(ids[0])
	firstTurn, _ := h.fake.Message(first.TurnMessageID)
	move := control(t, firstTurn, bot.ActMove)
	mover := firstTurn.Pinged[0]
	for _, channel := range []string{sg.ThreadID, h.fake.ChannelID} {
		resp, err := h.fake.Forge(h.ctx(), fakediscord.ForgedClick{Guild: h.fake.GuildID, Channel: channel, User: mover,
			MessageID: first.TurnMessageID, CustomID: move})
		require.NoError(t, err)
		assert.True(t, resp.Ephemeral(), "a turn message clicked from %s", channel)
		assert.Contains(t, resp.Message.Text(), "does not belong")
	}
	resp, err = h.fake.Forge(h.ctx(), fakediscord.ForgedClick{Guild: h.fake.GuildID, Channel: first.ThreadID, User: alice,
		MessageID: first.LobbyMessageID, CustomID: fmt.Sprintf("mf/cancel/%d/0", ids[0])})
	require.NoError(t, err)
	assert.Contains(t, resp.Message.Text(), "does not belong")
	_, still := h.game(ids[0])
	assert.Equal(t, firstGame.TurnNumber(), still.TurnNumber(), "forged clicks changed nothing")
	assert.LessOrEqual(t, len(h.fake.ChannelMessages(h.fake.ChannelID)), 3, "the channel holds the three cards")
}

// TestThreadsOffPlaysInTheChannel: with threads off the game plays in the
// channel, one at a time, and the roll mode still applies.
func TestThreadsOffPlaysInTheChannel(t *testing.T) {
	h := newThreadHarness(t)
	resp, err := h.fake.SlashCommand(h.ctx(), fakediscord.Invocation{User: alice, Name: "malefiz", Sub: "settings",
		Permissions: discordgo.PermissionManageGuild, Options: map[string]any{"threads": false}})
	require.NoError(t, err)
	assert.Contains(t, resp.Message.Text(), "threads: off")
	gameID, lobby := openGameBy(t, h, alice, bob, nil)
	turn, running := h.waitTurn(gameID)
	require.True(t, running)
	sg, _ := h.game(gameID)
	assert.Empty(t, sg.ThreadID)
	assert.Equal(t, h.fake.ChannelID, turn.ChannelID)
	assert.True(t, hasControl(turn, bot.ActMove), "roll auto: the turn arrives rolled")
	for _, c := range h.fake.Channels() {
		assert.False(t, c.Thread, "no thread is made")
	}
	card, _ := h.fake.Message(lobby.ID)
	assert.NotContains(t, card.Text(), "<#")
	refused := h.command(carol, "new", nil)
	assert.True(t, refused.Ephemeral())
	assert.Contains(t, refused.Message.Text(), "already running here")
}

// TestWithoutThreadPermissionsTheGamePlaysInTheChannel: the lobby says so
// once, and the game plays in the channel.
func TestWithoutThreadPermissionsTheGamePlaysInTheChannel(t *testing.T) {
	h := newThreadHarness(t)
	h.fake.SetPermissions(h.fake.ChannelID, fakediscord.DefaultAppPermissions&^discordgo.PermissionCreatePublicThreads)
	resp := h.command(alice, "new", map[string]any{"seats": 2})
	assert.Contains(t, resp.Message.Text(), "can't make threads here")
	gameID, _ := bot.ParseCustomID(control(t, *resp.Message, bot.ActJoin))
	h.click(bob, resp.Message.ID, control(t, *resp.Message, bot.ActJoin))
	h.click(alice, resp.Message.ID, control(t, *resp.Message, bot.ActStart))
	turn, running := h.waitTurn(gameID.Game)
	require.True(t, running)
	assert.Equal(t, h.fake.ChannelID, turn.ChannelID)
	assert.Empty(t, h.fake.Unexpected(), "the bot tried nothing Discord would refuse")
}

// TestRollButtonAndForcedMoves: roll button keeps the Roll button; with
// roll auto a turn with one legal move plays itself and leaves its line.
func TestRollButtonAndForcedMoves(t *testing.T) {
	h := newThreadHarness(t)
	gameID, _ := openGameBy(t, h, alice, bob, map[string]any{"roll": "button"})
	turn, _ := h.waitTurn(gameID)
	assert.True(t, hasControl(turn, bot.ActRoll), "roll button: %v", turn.CustomIDs())

	// A 1 from home has one move (onto the entry square): Alice's and
	// Bob's first turns play themselves; Alice's second turn is hers.
	h.die.set(1, 1, 4)
	autoID, _ := openGameBy(t, h, carol, alice, nil)
	turn, running := h.waitTurn(autoID)
	require.True(t, running)
	_, g := h.game(autoID)
	assert.Equal(t, 3, g.TurnNumber())
	assert.Equal(t, []string{carol}, turn.Pinged)
	sg, _ := h.game(autoID)
	var lines strings.Builder
	for _, m := range h.fake.ChannelMessages(sg.ThreadID) {
		lines.WriteString(m.Text() + "\n")
	}
	assert.Contains(t, lines.String(), "**Turn 1** ·")
	assert.Contains(t, lines.String(), "**Turn 2** ·")
	assert.Equal(t, 2, strings.Count(lines.String(), "(played by itself)"), "%s", lines.String())
}

// TestBoardByTheMoverAndBySpectators: /malefiz board is always private;
// the mover gets the buttons, others read whose turn it is; both get a
// jump link to the turn message.
func TestBoardByTheMoverAndBySpectators(t *testing.T) {
	h := newThreadHarness(t)
	gameID, _ := openGameBy(t, h, alice, bob, nil)
	turn, _ := h.waitTurn(gameID)
	sg, _ := h.game(gameID)
	link := "https://discord.com/channels/" + h.fake.GuildID + "/" + sg.ThreadID + "/" + turn.ID
	mover := h.command(alice, "board", nil)
	require.True(t, mover.Ephemeral())
	assert.True(t, hasControl(*mover.Message, bot.ActMove), "the mover's copy has the buttons")
	assert.Contains(t, mover.Message.Text(), link)
	spectator := h.command(carol, "board", nil)
	require.True(t, spectator.Ephemeral())
	assert.Empty(t, spectator.Message.CustomIDs())
	assert.Contains(t, spectator.Message.Text(), "is choosing a move")
	assert.NotContains(t, spectator.Message.Text(), "You rolled")
	assert.Contains(t, spectator.Message.Text(), link)
	assert.Len(t, h.fake.ChannelMessages(sg.ThreadID), 2, "the board posts nothing: the opener and the turn")
}

// TestWinnerMessageAndRematch: the result pings every human player, shows
// each rating change; Rematch is on the card in the channel, clickable
// after the thread archived itself (Discord's auto-archive, an hour after
// the result), and opens a new lobby in the channel with the same options,
// seating whoever clicks it. No edit goes into the archived thread.
func TestWinnerMessageAndRematch(t *testing.T) {
	clock := &fakeClock{t: time.Now()}
	h := newThreadHarness(t, fakediscord.WithClock(clock.Now))
	gameID, card := openGameBy(t, h, alice, bob, map[string]any{"turn-timeout": "6h", "six-again": true})
	h.waitTurn(gameID)
	sg, _ := h.game(gameID)
	resign(t, h, bob, sg.ThreadID)
	result, running := h.waitTurn(gameID)
	require.False(t, running)
	assert.ElementsMatch(t, []string{alice}, result.Pinged, "bob left the game: only alice is told")
	desc := result.Text()
	assert.Contains(t, desc, "<@"+alice+"> 1500 → 1516 (+16)")
	assert.Contains(t, desc, "<@"+bob+"> 1500 → 1484 (-16)")
	assert.False(t, hasControl(result, bot.ActRematch), "Rematch is on the card, not in the thread")

	// The thread stays open an hour after the result, then archives
	// itself; the card's Rematch still works.
	var rematch string
	require.Eventually(t, func() bool {
		m, _ := h.fake.Message(card.ID)
		if !hasControl(m, bot.ActRematch) {
			return false
		}
		rematch = control(t, m, bot.ActRematch)
		return true
	}, 5*time.Second, 5*time.Millisecond, "the card has Rematch")
	require.Eventually(t, func() bool {
		for _, c := range h.fake.Calls() {
			if c.Route == fakediscord.RouteChannelEdit && c.Params["channel"] == sg.ThreadID {
				return true
			}
		}
		return false
	}, 5*time.Second, 5*time.Millisecond, "the thread is left to auto-archive")
	assert.False(t, h.thread(sg.ThreadID).Archived, "the players can still talk in the thread")
	clock.Advance(61 * time.Minute)
	require.True(t, h.thread(sg.ThreadID).Archived, "Discord archived the thread an hour after the result")
	archivedAt := len(h.fake.Calls())

	resp := h.click(bob, card.ID, rematch)
	require.True(t, resp.Ephemeral(), "%q", resp.Message.Text())
	assert.Contains(t, resp.Message.Text(), "you are its host")
	games, err := h.main.db.OpenGames(h.ctx(), h.fake.GuildID, h.fake.ChannelID)
	require.NoError(t, err)
	require.Len(t, games, 1)
	next := games[0]
	assert.Equal(t, gameID, next.Options.RematchOf)
	assert.Equal(t, bob, next.HostID)
	assert.True(t, next.Options.SixAgain)
	assert.Equal(t, 6*time.Hour, next.Options.TurnTimeout)
	require.Eventually(t, func() bool {
		sg, _ := h.game(next.ID)
		return sg.LobbyMessageID != ""
	}, 5*time.Second, 5*time.Millisecond, "the new lobby was posted")
	next, _ = h.game(next.ID)
	lobbyInOneCommit(t, h.main.db, next.ID)
	lobby, _ := h.fake.Message(next.LobbyMessageID)
	assert.Equal(t, h.fake.ChannelID, lobby.ChannelID, "the new lobby is in the channel")

	resp = h.click(alice, card.ID, rematch)
	require.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Message.Text(), "You have a seat")
	again := h.click(alice, card.ID, rematch)
	assert.Contains(t, again.Message.Text(), "already have a seat")
	require.Eventually(t, func() bool {
		m, _ := h.fake.Message(next.LobbyMessageID)
		return strings.Contains(m.Text(), alice)
	}, 5*time.Second, 5*time.Millisecond, "the lobby shows alice")
	// The host starts it; it plays in a new thread.
	h.click(bob, next.LobbyMessageID, control(t, lobby, bot.ActStart))
	h.waitTurn(next.ID)
	started, _ := h.game(next.ID)
	assert.Equal(t, next.LobbyMessageID, started.ThreadID)
	// Nothing was sent into the archived thread, and no request of the
	// game was refused as being in an archived thread.
	for _, c := range h.fake.Calls() {
		assert.NotContains(t, string(c.Response), `"code":50083`, "%s %s refused: the thread is archived", c.Method, c.Path)
		if c.Seq > archivedAt && c.Params["channel"] == sg.ThreadID {
			assert.Fail(t, "a request into the archived thread", "%s %s", c.Method, c.Path)
		}
	}
}

// resign runs /malefiz resign as user in channel and confirms it.
func resign(t *testing.T, h *harness, user, channel string) {
	t.Helper()
	resp, err := h.fake.SlashCommand(h.ctx(), fakediscord.Invocation{User: user, Channel: channel, Name: "malefiz", Sub: "resign"})
	require.NoError(t, err)
	if hasControl(*resp.Message, bot.ActResign) {
		resp = h.click(user, resp.Message.ID, control(t, *resp.Message, bot.ActResign))
	}
	require.Contains(t, resp.Message.Text(), "left the game")
}

// TestResignAsksFirst: resign in a running game asks privately; Keep
// playing changes nothing, Resign leaves.
func TestResignAsksFirst(t *testing.T) {
	h := newThreadHarness(t)
	gameID, _ := openGameBy(t, h, alice, bob, nil)
	h.waitTurn(gameID)
	sg, _ := h.game(gameID)
	for _, sub := range []string{"resign", "leave"} {
		ask, err := h.fake.SlashCommand(h.ctx(), fakediscord.Invocation{User: bob, Channel: sg.ThreadID, Name: "malefiz", Sub: sub})
		require.NoError(t, err)
		require.True(t, ask.Ephemeral())
		assert.Contains(t, ask.Message.Text(), "resignation")
		keep := h.click(bob, ask.Message.ID, control(t, *ask.Message, bot.ActKeep))
		assert.Contains(t, keep.Message.Text(), "nothing changed")
		assert.Empty(t, keep.Message.CustomIDs())
	}
	after, _ := h.game(gameID)
	require.Equal(t, sg.LastSeq, after.LastSeq, "asking changed the game")
	require.Equal(t, malefiz.StatusRunning, after.Status)
	resign(t, h, bob, sg.ThreadID)
	_, running := h.waitTurn(gameID)
	assert.False(t, running, "alice won when bob left")
}

// TestHostCancelNeedsTheOthers: once a turn has been played, the host's
// cancel opens a vote in the thread; a refusal keeps the game going, and
// everyone's agreement cancels it; a moderator cancels at once.
func TestHostCancelNeedsTheOthers(t *testing.T) {
	h := newThreadHarness(t, withoutMessageBuckets()) // more than 5 messages in 5 s: not what it tests
	gameID, lobby := openGameBy(t, h, alice, bob, nil)
	_, _, running := playRolledTurn(t, h, gameID, false)
	require.True(t, running)
	sg, _ := h.game(gameID)
	cancelIn := func(user string, perms int64) *fakediscord.Response {
		resp, err := h.fake.SlashCommand(h.ctx(), fakediscord.Invocation{User: user, Channel: sg.ThreadID, Name: "malefiz",
			Sub: "cancel", Permissions: perms})
		require.NoError(t, err)
		return resp
	}
	voteMessage := func() fakediscord.Message {
		t.Helper()
		for range 1000 {
			for _, m := range h.fake.ChannelMessages(sg.ThreadID) {
				if hasControl(m, bot.ActVoteYes) {
					return m
				}
			}
			sleepShort()
		}
		t.Fatal("no vote message in the thread")
		return fakediscord.Message{}
	}
	asked := cancelIn(alice, 0)
	require.True(t, asked.Ephemeral())
	assert.Contains(t, asked.Message.Text(), "must agree")
	vote := voteMessage()
	assert.Equal(t, []string{bob}, vote.Pinged, "the vote asks bob")
	refusedSelf := h.click(alice, vote.ID, control(t, vote, bot.ActVoteYes))
	assert.True(t, refusedSelf.Ephemeral(), "the host does not vote")
	no := h.click(bob, vote.ID, control(t, vote, bot.ActVoteNo))
	assert.Contains(t, no.Message.Text(), "goes on")
	now, _ := h.game(gameID)
	require.Equal(t, malefiz.StatusRunning, now.Status)

	cancelIn(alice, 0)
	vote = voteMessage()
	yes := h.click(bob, vote.ID, control(t, vote, bot.ActVoteYes))
	assert.Contains(t, yes.Message.Text(), "cancelled without a result")
	now, _ = h.game(gameID)
	require.Equal(t, malefiz.StatusCancelled, now.Status)
	assert.Eventually(t, func() bool { return h.thread(sg.ThreadID).Archived }, 5*time.Second, 5*time.Millisecond)
	// The card's edits go out from the outbox's card queue, a few
	// seconds apart.
	assert.Eventually(t, func() bool {
		card, _ := h.fake.Message(lobby.ID)
		return strings.Contains(title(card), "closed")
	}, 10*time.Second, 10*time.Millisecond, "the card says the game is closed")

	// A moderator needs nobody's agreement.
	modID, _ := openGameBy(t, h, carol, bob, nil)
	_, _, running = playRolledTurn(t, h, modID, false)
	require.True(t, running)
	resp, err := h.fake.SlashCommand(h.ctx(), fakediscord.Invocation{User: alice, Name: "malefiz", Sub: "cancel",
		Permissions: discordgo.PermissionManageChannels})
	require.NoError(t, err)
	assert.Contains(t, resp.Message.Text(), "cancelled")
	mod, _ := h.game(modID)
	assert.Equal(t, malefiz.StatusCancelled, mod.Status)
}

// TestDirectMessagesOnYourTurn: with notify dm:on a player gets a direct
// message with the roll and a jump link on their turn (unless they are
// there, as with the ping) and at the end; a refused DM (closed DMs) falls
// back to the ping and is told once, privately.
func TestDirectMessagesOnYourTurn(t *testing.T) {
	h := newThreadHarness(t)
	on := h.command(bob, "notify", map[string]any{"dm": true})
	require.True(t, on.Ephemeral())
	assert.Contains(t, on.Message.Text(), "direct message")
	h.fake.SetDMsClosed(alice, true)
	// Alice starts the game, so her first turn finds her there: only
	// ping:always has a direct message tried for it, as for the ping.
	require.True(t, h.command(alice, "notify", map[string]any{"dm": true, "ping": "always"}).Ephemeral())

	gameID, _ := openGameBy(t, h, alice, bob, nil)
	_, _, running := playRolledTurn(t, h, gameID, false) // alice's turn, then bob's
	require.True(t, running)
	turn, _ := h.waitTurn(gameID)
	require.Equal(t, []string{bob}, turn.Pinged)
	sg, _ := h.game(gameID)
	var dms []fakediscord.Message
	require.Eventually(t, func() bool { dms = h.fake.DMMessages(bob); return len(dms) > 0 }, 5*time.Second, 5*time.Millisecond)
	assert.Contains(t, dms[len(dms)-1].Content, fmt.Sprintf("game #%d", gameID))
	assert.Contains(t, dms[len(dms)-1].Content, "you rolled")
	assert.Contains(t, dms[len(dms)-1].Content, "https://discord.com/channels/"+h.fake.GuildID+"/"+sg.ThreadID+"/"+turn.ID)
	assert.Empty(t, h.fake.DMMessages(alice), "alice's DMs are closed")

	// Alice learned of it, once, privately, the next time she acted (her
	// move): another command tells her nothing more.
	notes := func() int {
		n := 0
		for _, c := range h.fake.Calls() {
			if c.Route == fakediscord.RouteFollowup && strings.Contains(string(c.Body), "could not send you a direct message") {
				n++
			}
		}
		return n
	}
	require.Equal(t, 1, notes(), "alice is told once")
	require.True(t, h.command(alice, "games", nil).Ephemeral())
	assert.Equal(t, 1, notes(), "alice is told once")
	us, err := h.main.db.UserSettings(h.ctx(), alice)
	require.NoError(t, err)
	assert.False(t, us.DMRefused)

	// The end: bob hears of it by DM too.
	resign(t, h, alice, sg.ThreadID)
	require.Eventually(t, func() bool {
		dms = h.fake.DMMessages(bob)
		return strings.Contains(dms[len(dms)-1].Content, "is over")
	}, 5*time.Second, 5*time.Millisecond)
}

// TestMyGamesListsTheCallersGames: /malefiz games lists, privately, the
// caller's lobbies and running games, those where it is their turn first.
func TestMyGamesListsTheCallersGames(t *testing.T) {
	h := newThreadHarness(t)
	first, _ := openGameBy(t, h, alice, bob, nil) // alice to move
	h.waitTurn(first)
	second, _ := openGameBy(t, h, bob, alice, nil) // bob to move
	h.waitTurn(second)
	lobby := h.command(alice, "new", nil)
	lobbyID, _ := bot.ParseCustomID(control(t, *lobby.Message, bot.ActJoin))
	h.command(carol, "new", nil) // not alice's

	resp := h.command(alice, "games", nil)
	require.True(t, resp.Ephemeral())
	lines := strings.Split(resp.Message.Embeds[0].Description, "\n")
	require.Len(t, lines, 3, "%v", lines)
	assert.Contains(t, lines[0], fmt.Sprintf("#%d", first))
	assert.Contains(t, lines[0], "your turn")
	assert.Contains(t, lines[1]+lines[2], fmt.Sprintf("#%d", second))
	assert.Contains(t, lines[1]+lines[2], fmt.Sprintf("#%d", lobbyID.Game))
	assert.Contains(t, lines[1]+lines[2], "waiting to start")
}

// TestTimersInAThread: the reminder goes to the game's thread (and by DM
// with notify on) and is removed once its turn is played; a timed-out turn
// becomes a line naming the player and the move, and the card moves on.
func TestTimersInAThread(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h := newHarnessClock(t, clock)
	require.True(t, h.command(alice, "notify", map[string]any{"dm": true}).Ephemeral())
	gameID := newTimedGame(t, h)
	turn, _ := h.waitTurn(gameID)
	sg, _ := h.game(gameID)
	require.Equal(t, sg.ThreadID, turn.ChannelID)

	clock.Advance(30 * time.Minute)
	h.tick()
	reminder, ok := h.fake.LastMessage(sg.ThreadID)
	require.True(t, ok)
	require.True(t, strings.HasPrefix(reminder.Text(), "⏰"), "%q", reminder.Text())
	assert.Equal(t, []string{alice}, reminder.Pinged)
	require.Eventually(t, func() bool {
		dms := h.fake.DMMessages(alice)
		return len(dms) > 0 && strings.Contains(dms[len(dms)-1].Content, "time runs out")
	}, 5*time.Second, 5*time.Millisecond, "the reminder by DM")

	clock.Advance(30 * time.Minute)
	h.tick()
	next, running := h.waitTurn(gameID)
	require.True(t, running)
	assert.Equal(t, []string{bob}, next.Pinged)
	assert.Equal(t, sg.ThreadID, next.ChannelID)
	old, _ := h.fake.Message(turn.ID)
	assert.Contains(t, old.Text(), "**Turn 1** · ⏰")
	assert.Contains(t, old.Text(), "ran out of time; the computer rolled")
	assert.Empty(t, old.CustomIDs())
	gone, _ := h.fake.Message(reminder.ID)
	assert.True(t, gone.Deleted, "the reminder is removed once its turn is played")
	require.Eventually(t, func() bool {
		card, _ := h.fake.Message(sg.LobbyMessageID)
		return strings.Contains(card.Text(), "Turn 2")
	}, 5*time.Second, 5*time.Millisecond, "the card moved on")
}
