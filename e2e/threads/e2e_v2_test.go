package threads

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	bottable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// The tests of issue 21: a turn that explains itself.

// TestCommandOptionsHaveTheirRange: the numeric options carry their
// min and max, so Discord (here the fake) refuses a value out of range
// and says the range, before the bot hears of it.
func TestCommandOptionsHaveTheirRange(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.NewThreads(t)
	for _, c := range []struct {
		sub  string
		opts map[string]any
		want string
	}{
		{"new", map[string]any{"seats": 7}, "seats: must be between 2 and 4"},
		{"new", map[string]any{"seats": 1}, "seats: must be between 2 and 4"},
		{"new", map[string]any{"bots": 4}, "bots: must be between 0 and 3"},
		{"leaderboard", map[string]any{"page": 0}, "page: must be between 1 and 1000"},
	} {
		_, err := h.Fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Alice, Name: "malefiz", Sub: c.sub, Options: c.opts})
		require.Error(t, err, "/malefiz %s %v", c.sub, c.opts)
		assert.Contains(t, err.Error(), c.want)
	}
	games, err := h.Main.DB().OpenGames(h.Ctx(), h.Fake.GuildID, h.Fake.ChannelID)
	require.NoError(t, err)
	assert.Empty(t, games, "no command reached the bot")
}

// turnPings plays turns of a two-player game of alice and bob, calling
// before ahead of each, and returns the notifying pings and the mentions
// per player of the game's turn messages (its thread's messages; the
// game does not end within turns).
func turnPings(t *testing.T, h *harness.Harness, turns int, before func()) (pings, mentions map[string]int) {
	t.Helper()
	gameID, _ := openGameBy(t, h, harness.Alice, harness.Bob, nil)
	for range turns {
		before()
		_, _, running := harness.PlayRolledTurn(t, h, gameID, false)
		require.True(t, running, "the game ended early")
	}
	h.WaitTurn(gameID)
	sg, _ := h.Game(gameID)
	tr := h.Fake.Traffic(sg.ThreadID)
	return tr.Pings, tr.Mentions
}

// TestQuietPingsForPlayersWhoAreThere: a turn message for a player who
// acted in the game in the last 10 minutes names them @silent; one for a
// player away pings; ping:always pings every turn.
func TestQuietPingsForPlayersWhoAreThere(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	const turns = 10
	t.Run("prompt", func(t *testing.T) {
		h := harness.NewWithClock(t, harness.ClockAt(time.Now()), harness.WithoutMessageBuckets())
		pings, mentions := turnPings(t, h, turns, func() {})
		for _, u := range []string{harness.Alice, harness.Bob} {
			assert.LessOrEqual(t, pings[u], 2, "turn messages that notified %s", u)
			assert.GreaterOrEqual(t, mentions[u], turns/2, "every turn message still names %s", u)
		}
		t.Logf("prompt game, %d turns: pings %v, mentions %v", turns, pings, mentions)
	})
	t.Run("asynchronous", func(t *testing.T) {
		clock := harness.ClockAt(time.Now())
		h := harness.NewWithClock(t, clock, harness.WithoutMessageBuckets())
		pings, mentions := turnPings(t, h, turns, func() { clock.Advance(11 * time.Minute) })
		// Alice's first turn came with her own Start click: she was there.
		assert.Equal(t, mentions[harness.Alice]-1, pings[harness.Alice], "every later turn message notified alice")
		assert.Equal(t, mentions[harness.Bob], pings[harness.Bob], "every turn message notified bob")
		t.Logf("asynchronous game, %d turns: pings %v, mentions %v", turns, pings, mentions)
	})
	t.Run("ping always", func(t *testing.T) {
		h := harness.NewWithClock(t, harness.ClockAt(time.Now()), harness.WithoutMessageBuckets())
		resp := h.Command(harness.Alice, "notify", map[string]any{"ping": "always"})
		assert.Contains(t, resp.Message.Text(), "Every turn pings you")
		pings, mentions := turnPings(t, h, turns, func() {})
		assert.Equal(t, mentions[harness.Alice], pings[harness.Alice], "alice asked for every ping")
		assert.LessOrEqual(t, pings[harness.Bob], 2, "bob did not")
		resp = h.Command(harness.Alice, "notify", nil)
		assert.Contains(t, resp.Message.Text(), "Every turn pings you", "the setting is kept")
	})
}

// TestTurnMessageIsOneCardWithItsLegend plays a whole game and looks at
// every turn message: one V2 Container with the mover's colour as accent,
// the turn in the third person, the board in a Media Gallery, the move
// buttons, and a legend naming exactly the marks its buttons use.
func TestTurnMessageIsOneCardWithItsLegend(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.NewThreads(t, harness.WithoutMessageBuckets())
	gameID, _ := openGameBy(t, h, harness.Alice, harness.Bob, nil)
	marks := map[string]int{}
	for turns := 0; ; turns++ {
		require.Less(t, turns, 400, "no winner after 400 turns")
		msg, running := h.WaitTurn(gameID)
		if !running {
			break
		}
		_, g := h.Game(gameID)
		require.NotZero(t, msg.Flags&discordgo.MessageFlagsIsComponentsV2, "the turn message is V2")
		assert.Empty(t, msg.Content)
		assert.Empty(t, msg.Embeds)
		containers := msg.ComponentsOfType(discordgo.ContainerComponent)
		require.Len(t, containers, 1, "one card")
		require.NotNil(t, containers[0].AccentColor)
		assert.Equal(t, bottable.ColorRGB[g.Turn()], *containers[0].AccentColor, "the mover's colour")
		require.Len(t, msg.ComponentsOfType(discordgo.MediaGalleryComponent), 1, "the board")
		require.True(t, harness.HasBoard(msg) && msg.Attachments[0].Referenced, "the board is attached and shown")
		text := msg.Text()
		assert.Contains(t, text, fmt.Sprintf(" rolled a **%d** and is choosing a ", g.Rolled()), "in the third person")
		assert.NotContains(t, text, "You rolled")
		assert.Contains(t, text, "<@"+msg.Pinged[0]+">", "it names the mover")

		var captures, barricade, goal bool
		for _, c := range msg.Controls() {
			captures = captures || (strings.HasPrefix(c.CustomID, "mf/move/") && c.Style == int(discordgo.DangerButton))
			barricade = barricade || strings.Contains(c.Label, "🚧")
			goal = goal || strings.Contains(c.Label, "★")
		}
		for _, m := range []struct {
			used bool
			text string
		}{{captures, "red: captures a pawn"}, {barricade, "🚧 takes a barricade"}, {goal, "★ reaches the goal"}} {
			if m.used {
				marks[m.text]++
				assert.Contains(t, text, m.text, "the legend explains a mark its buttons use")
			} else {
				assert.NotContains(t, text, m.text, "the legend explains only the marks its buttons use")
			}
		}
		_, _, running = harness.PlayRolledTurn(t, h, gameID, false)
		if !running {
			break
		}
	}
	t.Logf("legends seen: %v", marks)
	assert.NotZero(t, marks["🚧 takes a barricade"], "a whole game offers a barricade")

	// /malefiz help explains every mark.
	help := h.Command(harness.Alice, "help", nil).Message.Text()
	for _, want := range []string{"red move button captures", "🚧", "★", "red rings"} {
		assert.Contains(t, help, want)
	}
}

// TestStatsAndLeaderboardAgree: below the leaderboard's minimum of games
// the stats give no rank but how many games are missing, as the
// leaderboard ranks nobody yet; the rating chart comes with them.
func TestStatsAndLeaderboardAgree(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	h := harness.NewThreads(t)
	gameID, _ := openGameBy(t, h, harness.Alice, harness.Bob, nil)
	h.WaitTurn(gameID)
	sg, _ := h.Game(gameID)
	resign(t, h, harness.Bob, sg.ThreadID)
	_, running := h.WaitTurn(gameID)
	require.False(t, running)

	lb := h.Command(harness.Alice, "leaderboard", nil)
	assert.Contains(t, lb.Message.Text(), "3 games", "the leaderboard ranks nobody yet")
	stats := h.Command(harness.Alice, "stats", nil)
	assert.Contains(t, stats.Message.Text(), "\n**Rating (rank):** 1516 (unranked: 2 more games)\n")
	assert.NotContains(t, stats.Message.Text(), "(#", "no rank the leaderboard does not show")
	shown := stats.Message.ShownAttachments()
	require.Len(t, shown, 1, "the rating chart")
	assert.Equal(t, "rating.png", shown[0].Filename)
}
