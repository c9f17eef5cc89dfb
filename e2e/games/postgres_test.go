package games

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/e2e/harness"
)

// The real program plays a whole game through the fake Discord on a
// PostgreSQL database ([database] url), restarted halfway: the bot does not
// know which backend it talks to.
func TestWholeGameOnPostgres(t *testing.T) {
	t.Parallel() // a stand-in, a bot and a database of its own
	url := harness.NewPostgresDatabase(t)
	h := harness.New(t, harness.WithoutMessageBuckets())
	h.Stop()
	h.DBPath = url // what serve.Main opens: the url setting ends up here
	h.Start()
	require.Contains(t, h.Main.DB().String(), "postgres://")
	h.PlayInChannel()

	gameID, _ := harness.OpenTwoPlayerGame(t, h)
	for turn := 0; ; turn++ {
		require.Less(t, turn, 300, "no winner after 300 turns")
		if turn == 6 {
			h.Stop()
			h.Start()
		}
		if _, running := h.WaitTurn(gameID); !running {
			break
		}
		harness.PlayTurn(t, h, gameID, false)
	}
	sg, g := h.Game(gameID)
	assert.True(t, g.Over())
	assert.Equal(t, malefiz.StatusFinished, sg.Status)
	stats, err := h.Main.DB().PlayerStats(h.Ctx(), h.Fake.GuildID, harness.Alice)
	require.NoError(t, err)
	assert.Equal(t, 1, stats.Games)
	harness.CheckStatsCommands(t, h, gameID, g)
}
