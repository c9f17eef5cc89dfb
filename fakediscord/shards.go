package fakediscord

import (
	"fmt"
	"strconv"
	"sync/atomic"
	"time"
)

// WithShards makes the bot a sharded one: GET /gateway/bot answers shards
// and session_start_limit.max_concurrency, each IDENTIFY must carry the
// shard pair [id, shards] (a wrong count or an ID out of range is closed
// with 4010 "Invalid shard", and so is a shard already connected once
// its old connection had a second to close), READY
// and GUILD_CREATE on a shard's connection carry the guilds (guild_id >>
// 22) % shards routes to it, and the interactions and events of a guild
// are dispatched on its shard's connection. The default is one shard and
// max_concurrency 1. Identify times are in Identifies; the fake does not
// refuse identifies that come too fast, CheckIdentifyRate checks their
// spacing.
func WithShards(shards, maxConcurrency int) Option {
	return func(c *config) {
		c.shards = max(1, shards)
		c.maxConcurrency = max(1, maxConcurrency)
	}
}

// WithGuildsPerShard sets how many guilds one shard may handle (Discord's
// limit is 2,500): an IDENTIFY whose shard would handle more is closed
// with 4011 "Sharding required". Zero, the default, means no limit.
func WithGuildsPerShard(n int) Option {
	return func(c *config) { c.guildsPerShard = n }
}

// ShardOf returns the shard that handles a guild when the bot runs
// shards shards: (guild_id >> 22) % shards, as Discord routes guilds. An
// empty or malformed ID (a DM) is shard 0.
func ShardOf(guildID string, shards int) int {
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil || shards <= 1 {
		return 0
	}
	return int((id >> 22) % uint64(shards))
}

// shardIDs makes the low bits of GuildIDOnShard's IDs unique.
var shardIDs atomic.Uint64

// GuildIDOnShard returns a new snowflake for a guild that shard handles
// when the bot runs shards shards, to configure with WithGuild.
func GuildIDOnShard(shard, shards int) string {
	if shards < 1 || shard < 0 || shard >= shards {
		panic("fakediscord: GuildIDOnShard: shard " + strconv.Itoa(shard) + " of " + strconv.Itoa(shards))
	}
	ms := uint64(time.Now().UnixMilli() - discordEpoch)
	ms = ms - ms%uint64(shards) + uint64(shard)
	low := 1<<21 | shardIDs.Add(1)&(1<<21-1)
	return strconv.FormatUint(ms<<22|low, 10)
}

// identifyWindow is Discord's identify rate window: max_concurrency
// identifies per 5 seconds, one per rate-limit key.
const identifyWindow = 5 * time.Second

// CheckIdentifyRate checks the IDENTIFYs received so far against
// Discord's rule for the configured max_concurrency: the identifies of
// shards with the same rate-limit key (shard_id % max_concurrency) are at
// least 5 seconds apart. Refused identifies count too, as on Discord.
func (f *Fake) CheckIdentifyRate() error {
	ids := f.Identifies()
	last := map[int]time.Time{}
	for i, id := range ids {
		shard := 0
		if id.Shard != nil {
			shard = id.Shard[0]
		}
		key := shard % f.cfg.maxConcurrency
		if prev, ok := last[key]; ok && id.Time.Sub(prev) < identifyWindow {
			return fmt.Errorf("fakediscord: identify %d (shard %d) came %v after the previous one with rate-limit key %d; max_concurrency %d allows one per %v",
				i+1, shard, id.Time.Sub(prev).Round(time.Millisecond), key, f.cfg.maxConcurrency, identifyWindow)
		}
		last[key] = id.Time
	}
	return nil
}
