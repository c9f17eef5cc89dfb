package limits

import (
	"fmt"
	"net/http"
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
	"github.com/malefiz-discord/malefiz/serve"
)

// Three shards over two processes on one database, max_concurrency 2:
// shards 0 and 2 (one rate-limit key, so identified 5 s apart) in one, 1
// in the other; a game in a guild of each shard is answered by the process
// that runs its shard, and only the process with shard 0 registers the
// commands.
func TestThreeShardsOverTwoProcesses(t *testing.T) {
	t.Parallel() // waits on leases, restarts or pacing more than it computes
	const shards = 3
	var guilds []string
	opts := []fakediscord.Option{fakediscord.WithShards(shards, 2)}
	for shard := range shards {
		id := fakediscord.GuildIDOnShard(shard, shards)
		guilds = append(guilds, id)
		opts = append(opts, fakediscord.WithGuild(fakediscord.Guild{ID: id}))
	}
	fake := fakediscord.New(t, opts...)
	dbPath := t.TempDir() + "/malefiz.db"
	process := func(ids ...int) *harness.Harness {
		h := &harness.Harness{T: t, Fake: fake, DBPath: dbPath, Die: harness.NewDie(), Configure: func(cfg *serve.Config) {
			cfg.Discord.Shards, cfg.Discord.ShardIDs = shards, ids
			cfg.Discord.GuildIDs = guilds
			cfg.HTTP.Listen = "127.0.0.1:0"
		}}
		h.Start()
		t.Cleanup(h.Stop)
		return h
	}
	a := process(0, 2)
	b := process(1)
	for _, guild := range guilds {
		gs := malefiz.DefaultGuildSettings()
		gs.Threads, gs.Roll = false, "button" // the game in the channel, a Roll button
		require.NoError(t, a.Main.DB().SetGuildSettings(a.Ctx(), guild, gs))
	}

	ids := fake.Identifies()
	require.Len(t, ids, shards)
	for i, id := range ids {
		require.NotNil(t, id.Shard)
		assert.Equal(t, [2]int{[]int{0, 2, 1}[i], shards}, *id.Shard)
		assert.Zero(t, id.CloseCode)
	}
	require.NoError(t, fake.CheckIdentifyRate())
	registrations := 0
	for _, c := range fake.Calls() {
		if c.Route == fakediscord.RouteGuildCommands {
			registrations++
		}
	}
	assert.Equal(t, shards, registrations, "the commands are registered once in each guild")

	for shard, guild := range guilds {
		h := a
		if shard == 1 {
			h = b
		}
		channel := fake.Guilds()[shard].Channels[0]
		resp, err := fake.SlashCommand(h.Ctx(), fakediscord.Invocation{User: harness.Alice, Guild: guild, Channel: channel,
			Name: "malefiz", Sub: "new", Options: map[string]any{"seats": 2}})
		require.NoError(t, err, "guild on shard %d", shard)
		lobby := *resp.Message
		h.Click(harness.Bob, lobby.ID, harness.Control(t, lobby, bot.ActJoin))
		id, err := bot.ParseCustomID(harness.Control(t, lobby, bot.ActStart))
		require.NoError(t, err)
		h.Click(harness.Alice, lobby.ID, harness.Control(t, lobby, bot.ActStart))
		turn, running := h.WaitTurn(id.Game)
		require.True(t, running)
		roll := h.Click(turn.Pinged[0], turn.ID, harness.Control(t, turn, bot.ActRoll))
		assert.Equal(t, discordgo.InteractionResponseUpdateMessage, roll.Type, "roll on shard %d", shard)
	}
	// Each process answered its own shards' guilds: 4 interactions a game.
	for _, p := range []struct {
		h     *harness.Harness
		games int
	}{{a, 2}, {b, 1}} {
		// An interaction is counted once its effects are delivered, a little
		// after its answer.
		var got float64
		assert.Eventually(t, func() bool {
			status, body := get(t, "http://"+p.h.Main.HTTPAddr()+"/metrics")
			require.Equal(t, http.StatusOK, status)
			got = counter(t, body, `malefiz_interactions_total{kind="component",outcome="ok"}`)
			return got == float64(3*p.games)
		}, 5*time.Second, 20*time.Millisecond, "clicks answered by the process: %v, want %d", got, 3*p.games)
		status, body := get(t, "http://"+p.h.Main.HTTPAddr()+"/readyz")
		assert.Equal(t, http.StatusOK, status, body)
	}
}

// counter returns the value of the metric line that starts with name.
func counter(t *testing.T, metrics, name string) float64 {
	t.Helper()
	for _, line := range strings.Split(metrics, "\n") {
		if rest, ok := strings.CutPrefix(line, name+" "); ok {
			var v float64
			_, err := fmt.Sscan(rest, &v)
			require.NoError(t, err, line)
			return v
		}
	}
	return 0
}
