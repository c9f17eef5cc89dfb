package threads

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
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// openGameBy opens a two-seat game by host (with extra options), seats
// guest and starts it; it returns the game's ID and its lobby message.
func openGameBy(t *testing.T, h *harness.Harness, host, guest string, opts map[string]any) (int64, fakediscord.Message) {
	t.Helper()
	o := map[string]any{"seats": 2}
	for k, v := range opts {
		o[k] = v
	}
	resp := h.Command(host, "new", o)
	require.False(t, resp.Ephemeral(), "new: %q", resp.Message.Text())
	lobby := *resp.Message
	id, err := bot.ParseCustomID(harness.Control(t, lobby, bot.ActJoin))
	require.NoError(t, err)
	h.Click(guest, lobby.ID, harness.Control(t, lobby, bot.ActJoin))
	h.Click(host, lobby.ID, harness.Control(t, lobby, bot.ActStart))
	return id.Game, lobby
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
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.NewThreads(t, harness.WithoutMessageBuckets())
	gameID, lobby := openGameBy(t, h, harness.Alice, harness.Bob, nil)
	h.WaitTurn(gameID)
	sg, _ := h.Game(gameID)
	require.Equal(t, lobby.ID, sg.ThreadID, "the thread is started from the lobby message")
	th := h.Thread(sg.ThreadID)
	assert.Equal(t, h.Fake.ChannelID, th.ParentID)
	assert.Equal(t, fmt.Sprintf("Malefiz #%d · ", gameID), th.Name[:len(fmt.Sprintf("Malefiz #%d · ", gameID))])
	assert.ElementsMatch(t, []string{h.Fake.AppID, harness.Alice, harness.Bob}, h.Fake.ThreadMembers(sg.ThreadID))
	var card fakediscord.Message
	require.Eventually(t, func() bool {
		card, _ = h.Fake.Message(lobby.ID)
		return strings.Contains(card.Text(), "<t:")
	}, 5*time.Second, 5*time.Millisecond, "the card shows the deadline")
	assert.Contains(t, card.Text(), "Turn 1")
	assert.Contains(t, card.Text(), "40 to go")
	assert.Contains(t, card.Text(), "<#"+sg.ThreadID+">")
	assert.Empty(t, card.CustomIDs(), "the card has no lobby buttons")

	f := figures{}
	for {
		clicks, placements, running := harness.PlayRolledTurn(t, h, gameID, f.placements == 0)
		if !running {
			break
		}
		f.clicks += clicks
		f.placements += placements
		require.Less(t, f.clicks, 400, "no winner after 400 clicks")
	}
	sg, g := h.Game(gameID)
	require.Equal(t, malefiz.StatusFinished, sg.Status)
	f.turns = g.TurnNumber()
	f.channel, f.thread = h.Fake.Traffic(h.Fake.ChannelID), h.Fake.Traffic(sg.ThreadID)

	// Every turn left its line in the thread, in order.
	var history strings.Builder
	for _, m := range h.Fake.ChannelMessages(sg.ThreadID) {
		history.WriteString(m.Text() + "\n")
	}
	at := 0
	for turn := 1; turn <= g.TurnNumber(); turn++ {
		i := strings.Index(history.String()[at:], fmt.Sprintf("**Turn %d** ·", turn))
		require.GreaterOrEqual(t, i, 0, "turn %d left no line in the thread, after %q", turn, history.String()[:at])
		at += i
	}
	assert.Eventually(t, func() bool {
		card, _ := h.Fake.Message(lobby.ID)
		return strings.HasPrefix(harness.Title(card), "🏆")
	}, 5*time.Second, 5*time.Millisecond, "the card shows the result")
	assert.False(t, h.Thread(sg.ThreadID).Archived, "the thread is left to Discord's auto-archive after the result")
	last, _ := h.Fake.LastMessage(sg.ThreadID)
	assert.True(t, harness.HasBoard(last) && strings.HasPrefix(harness.Title(last), "🏆"), "the result is the thread's last message")

	// The goals of issue 14.
	assert.LessOrEqual(t, f.channel.Messages, 3, "messages in the channel")
	assert.Empty(t, f.channel.Pings, "the channel pings nobody")
	for _, u := range []string{harness.Alice, harness.Bob} {
		// Issue 21: a prompt player's turns are @silent but the first;
		// the result pings everyone.
		assert.LessOrEqual(t, f.thread.Pings[u], 3, "notifying pings of %s: at most 2 turn messages and the result", u)
	}
	assert.LessOrEqual(t, f.thread.Messages-f.thread.Deleted, f.turns+2, "at most a message per turn, with the opener and the result")
	assert.LessOrEqual(t, f.perTurn(f.clicks-f.placements), 1.2, "clicks per turn, barricade placements aside")
	// The result uploads its board, and the chances chart when the game
	// had turning points (a long game has: this one's 168 turns did, an
	// earlier seed's 88 did not).
	assert.LessOrEqual(t, last.Uploads, 2, "the result: its board and its chart")
	assert.LessOrEqual(t, f.thread.Uploads, f.turns+f.placements+last.Uploads, "one board per turn, a placement's preview, the result's board and chart")
	t.Logf("threads on, roll auto: %v", f)

	// The same kind of game the older way, for the figures before.
	old := harness.New(t, harness.WithoutMessageBuckets())
	oldID, _ := harness.OpenTwoPlayerGame(t, old)
	old.Die.Set() // the test scripts no roll: the same fair die as above
	of := figures{}
	for {
		clicks, placements, running := harness.PlayRolledTurn(t, old, oldID, false)
		if !running {
			break
		}
		of.clicks += clicks
		of.placements += placements
		require.Less(t, of.clicks, 1000, "no winner after 1000 clicks")
	}
	_, og := old.Game(oldID)
	of.turns = og.TurnNumber()
	of.channel = old.Fake.Traffic(old.Fake.ChannelID)
	t.Logf("threads off, roll button: %v", of)
}

// TestThreeGamesAtOnceInOneChannel runs three games in one channel, each
// in its thread; commands find the caller's game, in the channel and in
// a thread.
func TestThreeGamesAtOnceInOneChannel(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	const dave, erin, frank = "100000000000000004", "100000000000000005", "100000000000000006"
	h := harness.NewThreads(t, harness.WithoutMessageBuckets()) // three cards edited in one channel's bucket
	pairs := [][2]string{{harness.Alice, harness.Bob}, {harness.Carol, dave}, {erin, frank}}
	var ids []int64
	for _, p := range pairs {
		id, _ := openGameBy(t, h, p[0], p[1], nil)
		ids = append(ids, id)
	}
	threads := map[string]bool{}
	for i, id := range ids {
		h.WaitTurn(id)
		sg, _ := h.Game(id)
		require.NotEmpty(t, sg.ThreadID, "game %d has no thread", id)
		threads[sg.ThreadID] = true
		assert.ElementsMatch(t, []string{h.Fake.AppID, pairs[i][0], pairs[i][1]}, h.Fake.ThreadMembers(sg.ThreadID))
	}
	require.Len(t, threads, 3, "one thread per game")
	// One turn in each, in turn.
	for _, id := range ids {
		_, _, running := harness.PlayRolledTurn(t, h, id, false)
		require.True(t, running)
	}
	for _, id := range ids {
		_, g := h.Game(id)
		assert.Greater(t, g.TurnNumber(), 1, "game %d went on", id)
	}
	// /malefiz board in the channel finds the caller's game; in a thread,
	// the thread's game.
	board := h.Command(harness.Carol, "board", nil)
	require.True(t, board.Ephemeral())
	assert.Contains(t, board.Message.Text(), fmt.Sprintf("#%d", ids[1]))
	sg, _ := h.Game(ids[2])
	resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Alice, Channel: sg.ThreadID, Name: "malefiz", Sub: "board"})
	require.NoError(t, err)
	assert.Contains(t, resp.Message.Text(), fmt.Sprintf("#%d", ids[2]))
	// A game's turn message clicked from another game's thread, or from
	// the channel, is refused; so is its lobby card from a thread.
	firstTurn, _ := h.WaitTurn(ids[0]) // its next turn delivered, not the last one's summary
	first, firstGame := h.Game(ids[0])
	move := harness.Control(t, firstTurn, bot.ActMove)
	mover := firstTurn.Pinged[0]
	for _, channel := range []string{sg.ThreadID, h.Fake.ChannelID} {
		resp, err := h.Fake.Forge(h.Ctx(), fakediscord.ForgedClick{Guild: h.Fake.GuildID, Channel: channel, User: mover,
			MessageID: first.TurnMessageID, CustomID: move})
		require.NoError(t, err)
		assert.True(t, resp.Ephemeral(), "a turn message clicked from %s", channel)
		assert.Contains(t, resp.Message.Text(), "does not belong")
	}
	resp, err = h.Fake.Forge(h.Ctx(), fakediscord.ForgedClick{Guild: h.Fake.GuildID, Channel: first.ThreadID, User: harness.Alice,
		MessageID: first.LobbyMessageID, CustomID: fmt.Sprintf("mf/cancel/%d/0", ids[0])})
	require.NoError(t, err)
	assert.Contains(t, resp.Message.Text(), "does not belong")
	_, still := h.Game(ids[0])
	assert.Equal(t, firstGame.TurnNumber(), still.TurnNumber(), "forged clicks changed nothing")
	assert.LessOrEqual(t, len(h.Fake.ChannelMessages(h.Fake.ChannelID)), 3, "the channel holds the three cards")
}

// TestThreadsOffPlaysInTheChannel: with threads off the game plays in the
// channel, one at a time, and the roll mode still applies.
func TestThreadsOffPlaysInTheChannel(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.NewThreads(t)
	resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Alice, Name: "malefiz", Sub: "settings",
		Permissions: discordgo.PermissionManageGuild, Options: map[string]any{"threads": false}})
	require.NoError(t, err)
	assert.Contains(t, resp.Message.Text(), "threads: off")
	gameID, lobby := openGameBy(t, h, harness.Alice, harness.Bob, nil)
	turn, running := h.WaitTurn(gameID)
	require.True(t, running)
	sg, _ := h.Game(gameID)
	assert.Empty(t, sg.ThreadID)
	assert.Equal(t, h.Fake.ChannelID, turn.ChannelID)
	assert.True(t, harness.HasControl(turn, bot.ActMove), "roll auto: the turn arrives rolled")
	for _, c := range h.Fake.Channels() {
		assert.False(t, c.Thread, "no thread is made")
	}
	card, _ := h.Fake.Message(lobby.ID)
	assert.NotContains(t, card.Text(), "<#")
	refused := h.Command(harness.Carol, "new", nil)
	assert.True(t, refused.Ephemeral())
	assert.Contains(t, refused.Message.Text(), "already running here")
}

// TestWithoutThreadPermissionsTheGamePlaysInTheChannel: the lobby says so
// once, and the game plays in the channel.
func TestWithoutThreadPermissionsTheGamePlaysInTheChannel(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.NewThreads(t)
	h.Fake.SetPermissions(h.Fake.ChannelID, fakediscord.DefaultAppPermissions&^discordgo.PermissionCreatePublicThreads)
	resp := h.Command(harness.Alice, "new", map[string]any{"seats": 2})
	assert.Contains(t, resp.Message.Text(), "can't make threads here")
	gameID, _ := bot.ParseCustomID(harness.Control(t, *resp.Message, bot.ActJoin))
	h.Click(harness.Bob, resp.Message.ID, harness.Control(t, *resp.Message, bot.ActJoin))
	h.Click(harness.Alice, resp.Message.ID, harness.Control(t, *resp.Message, bot.ActStart))
	turn, running := h.WaitTurn(gameID.Game)
	require.True(t, running)
	assert.Equal(t, h.Fake.ChannelID, turn.ChannelID)
	assert.Empty(t, h.Fake.Unexpected(), "the bot tried nothing Discord would refuse")
}

// TestRollButtonAndForcedMoves: roll button keeps the Roll button; with
// roll auto a turn with one legal move plays itself and leaves its line.
func TestRollButtonAndForcedMoves(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.NewThreads(t)
	gameID, _ := openGameBy(t, h, harness.Alice, harness.Bob, map[string]any{"roll": "button"})
	turn, _ := h.WaitTurn(gameID)
	assert.True(t, harness.HasControl(turn, bot.ActRoll), "roll button: %v", turn.CustomIDs())

	// A 1 from home has one move (onto the entry square): Alice's and
	// Bob's first turns play themselves; Alice's second turn is hers.
	h.Die.Set(1, 1, 4)
	autoID, _ := openGameBy(t, h, harness.Carol, harness.Alice, nil)
	turn, running := h.WaitTurn(autoID)
	require.True(t, running)
	_, g := h.Game(autoID)
	assert.Equal(t, 3, g.TurnNumber())
	assert.Equal(t, []string{harness.Carol}, turn.Pinged)
	sg, _ := h.Game(autoID)
	var lines strings.Builder
	for _, m := range h.Fake.ChannelMessages(sg.ThreadID) {
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
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.NewThreads(t)
	gameID, _ := openGameBy(t, h, harness.Alice, harness.Bob, nil)
	turn, _ := h.WaitTurn(gameID)
	sg, _ := h.Game(gameID)
	link := "https://discord.com/channels/" + h.Fake.GuildID + "/" + sg.ThreadID + "/" + turn.ID
	mover := h.Command(harness.Alice, "board", nil)
	require.True(t, mover.Ephemeral())
	assert.True(t, harness.HasControl(*mover.Message, bot.ActMove), "the mover's copy has the buttons")
	assert.Contains(t, mover.Message.Text(), link)
	spectator := h.Command(harness.Carol, "board", nil)
	require.True(t, spectator.Ephemeral())
	assert.Empty(t, spectator.Message.CustomIDs())
	assert.Contains(t, spectator.Message.Text(), "is choosing a move")
	assert.NotContains(t, spectator.Message.Text(), "You rolled")
	assert.Contains(t, spectator.Message.Text(), link)
	assert.Len(t, h.Fake.ChannelMessages(sg.ThreadID), 2, "the board posts nothing: the opener and the turn")
}

// TestWinnerMessageAndRematch: the result pings every human player, shows
// each rating change; Rematch is on the card in the channel, clickable
// after the thread archived itself (Discord's auto-archive, an hour after
// the result), and opens a new lobby in the channel with the same options,
// seating whoever clicks it. No edit goes into the archived thread.
func TestWinnerMessageAndRematch(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	clock := harness.ClockAt(time.Now())
	h := harness.NewThreads(t, fakediscord.WithClock(clock.Now))
	gameID, card := openGameBy(t, h, harness.Alice, harness.Bob, map[string]any{"turn-timeout": "6h", "six-again": true})
	h.WaitTurn(gameID)
	sg, _ := h.Game(gameID)
	resign(t, h, harness.Bob, sg.ThreadID)
	result, running := h.WaitTurn(gameID)
	require.False(t, running)
	assert.ElementsMatch(t, []string{harness.Alice}, result.Pinged, "bob left the game: only alice is told")
	desc := result.Text()
	assert.Contains(t, desc, "<@"+harness.Alice+"> 1500 → 1516 (+16)")
	assert.Contains(t, desc, "<@"+harness.Bob+"> 1500 → 1484 (-16)")
	assert.False(t, harness.HasControl(result, bot.ActRematch), "Rematch is on the card, not in the thread")

	// The thread stays open an hour after the result, then archives
	// itself; the card's Rematch still works.
	var rematch string
	require.Eventually(t, func() bool {
		m, _ := h.Fake.Message(card.ID)
		if !harness.HasControl(m, bot.ActRematch) {
			return false
		}
		rematch = harness.Control(t, m, bot.ActRematch)
		return true
	}, 5*time.Second, 5*time.Millisecond, "the card has Rematch")
	require.Eventually(t, func() bool {
		for _, c := range h.Fake.Calls() {
			if c.Route == fakediscord.RouteChannelEdit && c.Params["channel"] == sg.ThreadID {
				return true
			}
		}
		return false
	}, 5*time.Second, 5*time.Millisecond, "the thread is left to auto-archive")
	assert.False(t, h.Thread(sg.ThreadID).Archived, "the players can still talk in the thread")
	clock.Advance(61 * time.Minute)
	require.True(t, h.Thread(sg.ThreadID).Archived, "Discord archived the thread an hour after the result")
	archivedAt := len(h.Fake.Calls())

	resp := h.Click(harness.Bob, card.ID, rematch)
	require.True(t, resp.Ephemeral(), "%q", resp.Message.Text())
	assert.Contains(t, resp.Message.Text(), "you are its host")
	games, err := h.Main.DB().OpenGames(h.Ctx(), h.Fake.GuildID, h.Fake.ChannelID)
	require.NoError(t, err)
	require.Len(t, games, 1)
	next := games[0]
	assert.Equal(t, gameID, next.Options.RematchOf)
	assert.Equal(t, harness.Bob, next.HostID)
	assert.True(t, next.Options.SixAgain)
	assert.Equal(t, 6*time.Hour, next.Options.TurnTimeout)
	require.Eventually(t, func() bool {
		sg, _ := h.Game(next.ID)
		return sg.LobbyMessageID != ""
	}, 5*time.Second, 5*time.Millisecond, "the new lobby was posted")
	next, _ = h.Game(next.ID)
	harness.LobbyInOneCommit(t, h.Main.DB(), next.ID)
	lobby, _ := h.Fake.Message(next.LobbyMessageID)
	assert.Equal(t, h.Fake.ChannelID, lobby.ChannelID, "the new lobby is in the channel")

	resp = h.Click(harness.Alice, card.ID, rematch)
	require.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Message.Text(), "You have a seat")
	again := h.Click(harness.Alice, card.ID, rematch)
	assert.Contains(t, again.Message.Text(), "already have a seat")
	require.Eventually(t, func() bool {
		m, _ := h.Fake.Message(next.LobbyMessageID)
		return strings.Contains(m.Text(), harness.Alice)
	}, 5*time.Second, 5*time.Millisecond, "the lobby shows alice")
	// The host starts it; it plays in a new thread.
	h.Click(harness.Bob, next.LobbyMessageID, harness.Control(t, lobby, bot.ActStart))
	h.WaitTurn(next.ID)
	started, _ := h.Game(next.ID)
	assert.Equal(t, next.LobbyMessageID, started.ThreadID)
	// Nothing was sent into the archived thread, and no request of the
	// game was refused as being in an archived thread.
	for _, c := range h.Fake.Calls() {
		assert.NotContains(t, string(c.Response), `"code":50083`, "%s %s refused: the thread is archived", c.Method, c.Path)
		if c.Seq > archivedAt && c.Params["channel"] == sg.ThreadID {
			assert.Fail(t, "a request into the archived thread", "%s %s", c.Method, c.Path)
		}
	}
}

// resign runs /malefiz resign as user in channel and confirms it.
func resign(t *testing.T, h *harness.Harness, user, channel string) {
	t.Helper()
	resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: user, Channel: channel, Name: "malefiz", Sub: "resign"})
	require.NoError(t, err)
	if harness.HasControl(*resp.Message, bot.ActResign) {
		resp = h.Click(user, resp.Message.ID, harness.Control(t, *resp.Message, bot.ActResign))
	}
	require.Contains(t, resp.Message.Text(), "left the game")
}

// TestResignAsksFirst: resign in a running game asks privately; Keep
// playing changes nothing, Resign leaves.
func TestResignAsksFirst(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.NewThreads(t)
	gameID, _ := openGameBy(t, h, harness.Alice, harness.Bob, nil)
	h.WaitTurn(gameID)
	sg, _ := h.Game(gameID)
	for _, sub := range []string{"resign", "leave"} {
		ask, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Bob, Channel: sg.ThreadID, Name: "malefiz", Sub: sub})
		require.NoError(t, err)
		require.True(t, ask.Ephemeral())
		assert.Contains(t, ask.Message.Text(), "resignation")
		keep := h.Click(harness.Bob, ask.Message.ID, harness.Control(t, *ask.Message, bot.ActKeep))
		assert.Contains(t, keep.Message.Text(), "nothing changed")
		assert.Empty(t, keep.Message.CustomIDs())
	}
	after, _ := h.Game(gameID)
	require.Equal(t, sg.LastSeq, after.LastSeq, "asking changed the game")
	require.Equal(t, malefiz.StatusRunning, after.Status)
	resign(t, h, harness.Bob, sg.ThreadID)
	_, running := h.WaitTurn(gameID)
	assert.False(t, running, "alice won when bob left")
}

// TestHostCancelNeedsTheOthers: once a turn has been played, the host's
// cancel opens a vote in the thread; a refusal keeps the game going, and
// everyone's agreement cancels it; a moderator cancels at once.
func TestHostCancelNeedsTheOthers(t *testing.T) {
	t.Parallel()
	h := harness.NewThreads(t, harness.WithoutMessageBuckets()) // more than 5 messages in 5 s: not what it tests
	gameID, lobby := openGameBy(t, h, harness.Alice, harness.Bob, nil)
	_, _, running := harness.PlayRolledTurn(t, h, gameID, false)
	require.True(t, running)
	sg, _ := h.Game(gameID)
	cancelIn := func(user string, perms int64) *fakediscord.Response {
		resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: user, Channel: sg.ThreadID, Name: "malefiz",
			Sub: "cancel", Permissions: perms})
		require.NoError(t, err)
		return resp
	}
	voteMessage := func() fakediscord.Message {
		t.Helper()
		for range 1000 {
			for _, m := range h.Fake.ChannelMessages(sg.ThreadID) {
				if harness.HasControl(m, bot.ActVoteYes) {
					return m
				}
			}
			harness.SleepShort()
		}
		t.Fatal("no vote message in the thread")
		return fakediscord.Message{}
	}
	asked := cancelIn(harness.Alice, 0)
	require.True(t, asked.Ephemeral())
	assert.Contains(t, asked.Message.Text(), "must agree")
	vote := voteMessage()
	assert.Equal(t, []string{harness.Bob}, vote.Pinged, "the vote asks bob")
	refusedSelf := h.Click(harness.Alice, vote.ID, harness.Control(t, vote, bot.ActVoteYes))
	assert.True(t, refusedSelf.Ephemeral(), "the host does not vote")
	no := h.Click(harness.Bob, vote.ID, harness.Control(t, vote, bot.ActVoteNo))
	assert.Contains(t, no.Message.Text(), "goes on")
	now, _ := h.Game(gameID)
	require.Equal(t, malefiz.StatusRunning, now.Status)

	cancelIn(harness.Alice, 0)
	vote = voteMessage()
	yes := h.Click(harness.Bob, vote.ID, harness.Control(t, vote, bot.ActVoteYes))
	assert.Contains(t, yes.Message.Text(), "cancelled without a result")
	now, _ = h.Game(gameID)
	require.Equal(t, malefiz.StatusCancelled, now.Status)
	assert.Eventually(t, func() bool { return h.Thread(sg.ThreadID).Archived }, 5*time.Second, 5*time.Millisecond)
	// The card's edits go out from the outbox's card queue, a few
	// seconds apart.
	assert.Eventually(t, func() bool {
		card, _ := h.Fake.Message(lobby.ID)
		return strings.Contains(harness.Title(card), "closed")
	}, 10*time.Second, 10*time.Millisecond, "the card says the game is closed")

	// A moderator needs nobody's agreement.
	modID, _ := openGameBy(t, h, harness.Carol, harness.Bob, nil)
	_, _, running = harness.PlayRolledTurn(t, h, modID, false)
	require.True(t, running)
	resp, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Alice, Name: "malefiz", Sub: "cancel",
		Permissions: discordgo.PermissionManageChannels})
	require.NoError(t, err)
	assert.Contains(t, resp.Message.Text(), "cancelled")
	mod, _ := h.Game(modID)
	assert.Equal(t, malefiz.StatusCancelled, mod.Status)
}

// TestDirectMessagesOnYourTurn: with notify dm:on a player gets a direct
// message with the roll and a jump link on their turn (unless they are
// there, as with the ping) and at the end; a refused DM (closed DMs) falls
// back to the ping and is told once, privately.
func TestDirectMessagesOnYourTurn(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.NewThreads(t)
	on := h.Command(harness.Bob, "notify", map[string]any{"dm": true})
	require.True(t, on.Ephemeral())
	assert.Contains(t, on.Message.Text(), "direct message")
	h.Fake.SetDMsClosed(harness.Alice, true)
	// Alice starts the game, so her first turn finds her there: only
	// ping:always has a direct message tried for it, as for the ping.
	require.True(t, h.Command(harness.Alice, "notify", map[string]any{"dm": true, "ping": "always"}).Ephemeral())

	gameID, _ := openGameBy(t, h, harness.Alice, harness.Bob, nil)
	_, _, running := harness.PlayRolledTurn(t, h, gameID, false) // alice's turn, then bob's
	require.True(t, running)
	turn, _ := h.WaitTurn(gameID)
	require.Equal(t, []string{harness.Bob}, turn.Pinged)
	sg, _ := h.Game(gameID)
	var dms []fakediscord.Message
	require.Eventually(t, func() bool { dms = h.Fake.DMMessages(harness.Bob); return len(dms) > 0 }, 5*time.Second, 5*time.Millisecond)
	assert.Contains(t, dms[len(dms)-1].Content, fmt.Sprintf("game #%d", gameID))
	assert.Contains(t, dms[len(dms)-1].Content, "you rolled")
	assert.Contains(t, dms[len(dms)-1].Content, "https://discord.com/channels/"+h.Fake.GuildID+"/"+sg.ThreadID+"/"+turn.ID)
	assert.Empty(t, h.Fake.DMMessages(harness.Alice), "alice's DMs are closed")

	// Alice learned of it, once, privately, the next time she acted (her
	// move): another command tells her nothing more.
	notes := func() int {
		n := 0
		for _, c := range h.Fake.Calls() {
			if c.Route == fakediscord.RouteFollowup && strings.Contains(string(c.Body), "could not send you a direct message") {
				n++
			}
		}
		return n
	}
	require.Equal(t, 1, notes(), "alice is told once")
	require.True(t, h.Command(harness.Alice, "games", nil).Ephemeral())
	assert.Equal(t, 1, notes(), "alice is told once")
	us, err := h.Main.DB().UserSettings(h.Ctx(), harness.Alice)
	require.NoError(t, err)
	assert.False(t, us.DMRefused)

	// The end: bob hears of it by DM too.
	resign(t, h, harness.Alice, sg.ThreadID)
	require.Eventually(t, func() bool {
		dms = h.Fake.DMMessages(harness.Bob)
		return strings.Contains(dms[len(dms)-1].Content, "is over")
	}, 5*time.Second, 5*time.Millisecond)
}

// TestMyGamesListsTheCallersGames: /malefiz games lists, privately, the
// caller's lobbies and running games, those where it is their turn first.
func TestMyGamesListsTheCallersGames(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.NewThreads(t)
	first, _ := openGameBy(t, h, harness.Alice, harness.Bob, nil) // alice to move
	h.WaitTurn(first)
	second, _ := openGameBy(t, h, harness.Bob, harness.Alice, nil) // bob to move
	h.WaitTurn(second)
	lobby := h.Command(harness.Alice, "new", nil)
	lobbyID, _ := bot.ParseCustomID(harness.Control(t, *lobby.Message, bot.ActJoin))
	h.Command(harness.Carol, "new", nil) // not alice's

	resp := h.Command(harness.Alice, "games", nil)
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
	t.Parallel() // a stand-in, a bot and a database of its own
	clock := harness.ClockAt(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	h := harness.NewWithClock(t, clock)
	require.True(t, h.Command(harness.Alice, "notify", map[string]any{"dm": true}).Ephemeral())
	gameID := harness.NewTimedGame(t, h)
	turn, _ := h.WaitTurn(gameID)
	sg, _ := h.Game(gameID)
	require.Equal(t, sg.ThreadID, turn.ChannelID)

	clock.Advance(30 * time.Minute)
	h.Tick()
	reminder, ok := h.Fake.LastMessage(sg.ThreadID)
	require.True(t, ok)
	require.True(t, strings.HasPrefix(reminder.Text(), "⏰"), "%q", reminder.Text())
	assert.Equal(t, []string{harness.Alice}, reminder.Pinged)
	require.Eventually(t, func() bool {
		dms := h.Fake.DMMessages(harness.Alice)
		return len(dms) > 0 && strings.Contains(dms[len(dms)-1].Content, "time runs out")
	}, 5*time.Second, 5*time.Millisecond, "the reminder by DM")

	clock.Advance(30 * time.Minute)
	h.Tick()
	next, running := h.WaitTurn(gameID)
	require.True(t, running)
	assert.Equal(t, []string{harness.Bob}, next.Pinged)
	assert.Equal(t, sg.ThreadID, next.ChannelID)
	old, _ := h.Fake.Message(turn.ID)
	assert.Contains(t, old.Text(), "**Turn 1** · ⏰")
	assert.Contains(t, old.Text(), "ran out of time; the computer rolled")
	assert.Empty(t, old.CustomIDs())
	gone, _ := h.Fake.Message(reminder.ID)
	assert.True(t, gone.Deleted, "the reminder is removed once its turn is played")
	require.Eventually(t, func() bool {
		card, _ := h.Fake.Message(sg.LobbyMessageID)
		return strings.Contains(card.Text(), "Turn 2")
	}, 5*time.Second, 5*time.Millisecond, "the card moved on")
}
