package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
)

// The real program plays a whole game through the fake Discord on a
// PostgreSQL database ([database] url), restarted halfway: the bot does not
// know which backend it talks to.
func TestWholeGameOnPostgres(t *testing.T) {
	url := newPostgresDatabase(t)
	h := newHarness(t, withoutMessageBuckets())
	h.stop()
	h.dbPath = url // what serve.go opens: the url setting ends up here
	h.start()
	require.Contains(t, h.main.db.String(), "postgres://")
	h.playInChannel()

	gameID, _ := openTwoPlayerGame(t, h)
	for turn := 0; ; turn++ {
		require.Less(t, turn, 300, "no winner after 300 turns")
		if turn == 6 {
			h.stop()
			h.start()
		}
		if _, running := h.waitTurn(gameID); !running {
			break
		}
		playTurn(t, h, gameID, false)
	}
	sg, g := h.game(gameID)
	assert.True(t, g.Over())
	assert.Equal(t, malefiz.StatusFinished, sg.Status)
	stats, err := h.main.db.PlayerStats(h.ctx(), h.fake.GuildID, alice)
	require.NoError(t, err)
	assert.Equal(t, 1, stats.Games)
	checkStatsCommands(t, h, gameID, g)
}
