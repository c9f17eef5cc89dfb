package fakediscord_test

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

func TestGuildIDOnShard(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for shards := 1; shards <= 5; shards++ {
		for shard := range shards {
			for range 3 {
				id := fakediscord.GuildIDOnShard(shard, shards)
				assert.Equal(t, shard, fakediscord.ShardOf(id, shards), "guild %s", id)
				assert.False(t, seen[id], "guild %s made twice", id)
				seen[id] = true
			}
		}
	}
	assert.Equal(t, 0, fakediscord.ShardOf("", 3), "DMs are on shard 0")
	// (guild_id >> 22) % shards, with Discord's example guild.
	assert.Equal(t, (uint64(41771983423143937)>>22)%16, uint64(fakediscord.ShardOf("41771983423143937", 16)))
}

// shardBot is one discordgo session of a sharded bot.
type shardBot struct {
	s      *discordgo.Session
	mu     sync.Mutex
	guilds []string // GUILD_CREATE received
}

// openShard opens shard id of count; it answers every slash command with
// "pong <shard>".
func openShard(t *testing.T, fake *fakediscord.Fake, id, count int) (*shardBot, error) {
	b := &shardBot{s: newSession(t, fake)}
	b.s.ShardID, b.s.ShardCount = id, count
	b.s.ShouldReconnectOnError = false
	b.s.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.guilds = append(b.guilds, g.ID)
	})
	b.s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "pong " + strconv.Itoa(id)},
		})
	})
	if err := b.s.Open(); err != nil {
		return nil, err
	}
	b.s.ShouldReconnectOnError = true
	t.Cleanup(func() { _ = b.s.Close() })
	return b, nil
}

// received returns the guilds of the GUILD_CREATEs received.
func (b *shardBot) received() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.guilds...)
}

func TestShards(t *testing.T) {
	t.Parallel()
	const shards = 3
	var guilds []string
	opts := []fakediscord.Option{fakediscord.WithShards(shards, 2)}
	for shard := range shards {
		id := fakediscord.GuildIDOnShard(shard, shards)
		guilds = append(guilds, id)
		opts = append(opts, fakediscord.WithGuild(fakediscord.Guild{ID: id}))
	}
	fake := fakediscord.New(t, opts...)
	rest := newSession(t, fake)
	gb, err := rest.GatewayBot()
	require.NoError(t, err)
	assert.Equal(t, shards, gb.Shards)
	assert.Equal(t, 2, gb.SessionStartLimit.MaxConcurrency)
	_, err = rest.ApplicationCommandBulkOverwrite(fake.AppID, "", []*discordgo.ApplicationCommand{malefizCommand()})
	require.NoError(t, err)

	var bots []*shardBot
	for shard := range shards {
		b, err := openShard(t, fake, shard, shards)
		require.NoError(t, err, "shard %d", shard)
		bots = append(bots, b)
	}
	ctx := timeout(t, 20*time.Second)
	require.NoError(t, fake.WaitReady(ctx))
	for shard, b := range bots {
		require.Eventually(t, func() bool { return len(b.received()) > 0 }, 5*time.Second, 10*time.Millisecond)
		assert.Equal(t, []string{guilds[shard]}, b.received(), "GUILD_CREATE on shard %d", shard)
		require.Len(t, b.s.State.Guilds, 1, "READY on shard %d", shard)
		assert.Equal(t, guilds[shard], b.s.State.Guilds[0].ID)
	}
	for shard, g := range guilds {
		resp, err := fake.SlashCommand(ctx, fakediscord.Invocation{Guild: g, Name: "malefiz", Sub: "join"})
		require.NoError(t, err)
		assert.Equal(t, "pong "+strconv.Itoa(shard), resp.Message.Content, "guild %s answered by its shard", g)
	}
	ids := fake.Identifies()
	require.Len(t, ids, shards)
	for shard, id := range ids {
		require.NotNil(t, id.Shard)
		assert.Equal(t, [2]int{shard, shards}, *id.Shard)
		assert.Zero(t, id.CloseCode)
		assert.False(t, id.Time.IsZero())
	}

	// A shard already connected, a wrong count.
	for _, bad := range [][2]int{{1, shards}, {0, 2}} {
		_, err := openShard(t, fake, bad[0], bad[1])
		require.Error(t, err, "shard %v", bad)
		assert.Contains(t, err.Error(), "4010", "shard %v", bad)
		ids := fake.Identifies()
		assert.Equal(t, 4010, ids[len(ids)-1].CloseCode)
	}

	// A dropped shard resumes and gets its guild's interactions again.
	require.True(t, fake.DropShard(1))
	resp, err := fake.SlashCommand(ctx, fakediscord.Invocation{Guild: guilds[1], Name: "malefiz", Sub: "join"})
	require.NoError(t, err)
	assert.Equal(t, "pong 1", resp.Message.Content)
	assert.Equal(t, 1, fake.Resumes())

	// Events about a guild go to its shard: a thread in guild 2.
	lobby, err := rest.ChannelMessageSend(fake.Guilds()[2].Channels[0], "lobby")
	require.NoError(t, err)
	created := make(chan string, 3)
	for shard, b := range bots {
		b.s.AddHandler(func(_ *discordgo.Session, tc *discordgo.ThreadCreate) {
			created <- strconv.Itoa(shard) + ":" + tc.GuildID
		})
	}
	_, err = rest.MessageThreadStart(lobby.ChannelID, lobby.ID, "game", 60)
	require.NoError(t, err)
	select {
	case got := <-created:
		assert.Equal(t, "2:"+guilds[2], got)
	case <-time.After(5 * time.Second):
		t.Fatal("no THREAD_CREATE")
	}
}

func TestShardingRequired(t *testing.T) {
	t.Parallel()
	g0, g1 := fakediscord.GuildIDOnShard(0, 2), fakediscord.GuildIDOnShard(1, 2)
	opts := []fakediscord.Option{
		fakediscord.WithGuildsPerShard(1),
		fakediscord.WithGuild(fakediscord.Guild{ID: g0}), fakediscord.WithGuild(fakediscord.Guild{ID: g1}),
	}
	unsharded := fakediscord.New(t, opts...)
	_, err := openShard(t, unsharded, 0, 1)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "4011")
	assert.Equal(t, 4011, unsharded.Identifies()[0].CloseCode)

	sharded := fakediscord.New(t, append(opts, fakediscord.WithShards(2, 1))...)
	for shard := range 2 {
		_, err := openShard(t, sharded, shard, 2)
		require.NoError(t, err)
	}
	require.NoError(t, sharded.WaitReady(timeout(t, 10*time.Second)))
	ids := sharded.Identifies()
	require.Len(t, ids, 2)
	assert.False(t, ids[1].Time.Before(ids[0].Time))
	require.Error(t, sharded.CheckIdentifyRate(), "two shards at once with max_concurrency 1")
	assert.NoError(t, unsharded.CheckIdentifyRate(), "a single identify")
	assert.False(t, strings.Contains(string(ids[0].Raw), `"shard":null`))
}

func TestIdentifyShardOutOfRange(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, fakediscord.WithShards(2, 1))
	ws, _, err := websocket.DefaultDialer.Dial(fake.GatewayURL()+"?v=9&encoding=json", nil)
	require.NoError(t, err)
	defer func() { _ = ws.Close() }()
	_, hello, err := ws.ReadMessage()
	require.NoError(t, err)
	assert.Contains(t, string(hello), "heartbeat_interval")
	require.NoError(t, ws.WriteJSON(map[string]any{"op": 2, "d": map[string]any{"token": "Bot " + fake.Token(), "intents": 0, "shard": []int{2, 2}}}))
	_, _, err = ws.ReadMessage()
	var ce *websocket.CloseError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 4010, ce.Code)
	require.Len(t, fake.Identifies(), 1)
	assert.Equal(t, 4010, fake.Identifies()[0].CloseCode)
}

func TestIdentifyRate(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, fakediscord.WithShards(2, 2),
		fakediscord.WithGuild(fakediscord.Guild{ID: fakediscord.GuildIDOnShard(0, 2)}),
		fakediscord.WithGuild(fakediscord.Guild{ID: fakediscord.GuildIDOnShard(1, 2)}))
	for shard := range 2 {
		_, err := openShard(t, fake, shard, 2)
		require.NoError(t, err)
	}
	assert.NoError(t, fake.CheckIdentifyRate(), "max_concurrency 2 lets shards 0 and 1 identify together")
}
