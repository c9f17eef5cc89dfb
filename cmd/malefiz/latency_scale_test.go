package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/store"
)

// BenchmarkInteractionLatencyHTTP is BenchmarkInteractionLatency with the
// interactions delivered to the interactions endpoint and answered in the
// HTTP response: 50 games, 20 clicks per second. Run it with
// -benchtime=400x or more.
func BenchmarkInteractionLatencyHTTP(b *testing.B) {
	benchmarkClicks(b, newHTTPHarness, 50, 20)
}

// BenchmarkClickRate sends clicks over HTTP at rising rates to one process
// with 100 games, on SQLite (and on PostgreSQL when MALEFIZ_TEST_POSTGRES_URL
// is set); the knee is the highest rate whose p99 stays
// within 100 ms while answered/s keeps up with the rate. Run it with
// -benchtime=10s or a count of clicks such as 1000x.
func BenchmarkClickRate(b *testing.B) {
	for _, d := range databases(b) {
		for _, rate := range []int{25, 50, 100, 200, 250, 300, 400, 600} {
			b.Run(fmt.Sprintf("db=%s/rate=%d", d.Name, rate), func(b *testing.B) {
				benchmarkClicks(b, func(t testing.TB, opts ...fakediscord.Option) *harness {
					return newHTTPHarnessOn(t, d.NewURL(t), opts...)
				}, 100, rate)
			})
		}
	}
}

// BenchmarkStartWith10000Games measures the time from the start of the
// program (database open, Discord connected, commands registered) to the
// first answered click, with 10,000 running games in the database. Each op
// is one restart and one Roll.
func BenchmarkStartWith10000Games(b *testing.B) {
	for _, d := range databases(b) {
		b.Run("db="+d.Name, func(b *testing.B) {
			dbURL := d.NewURL(b)
			benchmarkStart(b, newHarnessConfigured(b, func(cfg *Config) { cfg.Database.Path = dbURL }))
		})
	}
}

// benchmarkStart fills h's database with 10,000 running games, then times
// restarts of the program up to the first answered click.
func benchmarkStart(b *testing.B, h *harness) {
	const games = 10000
	gameID, turn := openTwoPlayerGameB(b, h)
	sg, err := h.main.db.Game(h.ctx(), gameID)
	require.NoError(b, err)
	for i := 1; i < games; i++ {
		g := *sg
		g.ID, g.Version, g.LastSeq = 0, 0, 0
		g.ChannelID = fmt.Sprintf("2200000000000%05d", i)
		g.LobbyMessageID, g.TurnMessageID = "", ""
		g.Seats = append([]store.Seat(nil), sg.Seats...)
		require.NoError(b, h.main.db.CreateGame(h.ctx(), &g))
	}
	n, err := h.main.db.RunningGames(h.ctx())
	require.NoError(b, err)
	require.Equal(b, games, n)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		h.stop()
		b.StartTimer()
		h.start()
		h.die.set(6)
		resp := h.click(turn.Pinged[0], turn.ID, control(b, turn, bot.ActRoll))
		b.StopTimer()
		if id := racingMoveButton(*resp.Message); id != "" {
			h.click(turn.Pinged[0], turn.ID, id)
		}
		turn, _ = h.waitTurn(gameID)
		b.StartTimer()
	}
}

// openTwoPlayerGameB opens a game of alice and bob and returns its first
// turn message.
func openTwoPlayerGameB(b *testing.B, h *harness) (int64, fakediscord.Message) {
	resp := h.command(alice, "new", map[string]any{"seats": 2})
	lobby := *resp.Message
	h.click(bob, lobby.ID, control(b, lobby, bot.ActJoin))
	id, err := bot.ParseCustomID(control(b, lobby, bot.ActStart))
	require.NoError(b, err)
	h.click(alice, lobby.ID, control(b, lobby, bot.ActStart))
	turn, running := h.waitTurn(id.Game)
	require.True(b, running)
	return id.Game, turn
}
