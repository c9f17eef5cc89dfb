package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/ratelimit"
)

const testPublicKey = "f1b4a7b3e5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2"

func TestConfigScaleSettingsFromFileAndEnvironment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	require.NoError(t, os.WriteFile(path, []byte("[discord]\ntoken = \"x\"\nshards = 4\nshard_ids = [0, 1]\n[http]\nlisten = \"127.0.0.1:8080\"\n"), 0o600))
	cfg, err := LoadConfig(path, env(nil))
	require.NoError(t, err)
	assert.Equal(t, InteractionsGateway, cfg.Discord.Interactions)
	assert.Equal(t, 4, cfg.Discord.Shards)
	assert.Equal(t, []int{0, 1}, cfg.Discord.ShardIDs)
	assert.Equal(t, "127.0.0.1:8080", cfg.HTTP.Listen)
	assert.Equal(t, float64(ratelimit.DefaultRate), cfg.Discord.GlobalRate)

	cfg, err = LoadConfig(path, env(map[string]string{"MALEFIZ_DISCORD_SHARDS": "6", "MALEFIZ_DISCORD_SHARD_IDS": "4,5",
		"MALEFIZ_HTTP_LISTEN": "0.0.0.0:9090", "MALEFIZ_DISCORD_GLOBAL_RATE": "22.5"}))
	require.NoError(t, err)
	assert.Equal(t, 22.5, cfg.Discord.GlobalRate)
	assert.Equal(t, 6, cfg.Discord.Shards)
	assert.Equal(t, []int{4, 5}, cfg.Discord.ShardIDs)
	assert.Equal(t, "0.0.0.0:9090", cfg.HTTP.Listen)

	cfg, err = LoadConfig("", env(map[string]string{"MALEFIZ_DISCORD_TOKEN": "x", "MALEFIZ_DISCORD_INTERACTIONS": "http",
		"MALEFIZ_DISCORD_PUBLIC_KEY": testPublicKey, "MALEFIZ_HTTP_LISTEN": ":8080"}))
	require.NoError(t, err)
	assert.Equal(t, InteractionsHTTP, cfg.Discord.Interactions)
	key, err := cfg.publicKey()
	require.NoError(t, err)
	assert.Len(t, key, 32)
}

func TestConfigScaleErrorsSayWhatToSet(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"unknown mode", map[string]string{"MALEFIZ_DISCORD_INTERACTIONS": "webhook"}, "want gateway or http"},
		{"http without key", map[string]string{"MALEFIZ_DISCORD_INTERACTIONS": "http", "MALEFIZ_HTTP_LISTEN": ":8080"}, "MALEFIZ_DISCORD_PUBLIC_KEY"},
		{"http with a short key", map[string]string{"MALEFIZ_DISCORD_INTERACTIONS": "http", "MALEFIZ_HTTP_LISTEN": ":8080", "MALEFIZ_DISCORD_PUBLIC_KEY": "abcd"}, "64 hex digits"},
		{"http without listener", map[string]string{"MALEFIZ_DISCORD_INTERACTIONS": "http", "MALEFIZ_DISCORD_PUBLIC_KEY": testPublicKey}, "MALEFIZ_HTTP_LISTEN"},
		{"http with shards", map[string]string{"MALEFIZ_DISCORD_INTERACTIONS": "http", "MALEFIZ_DISCORD_PUBLIC_KEY": testPublicKey, "MALEFIZ_HTTP_LISTEN": ":8080", "MALEFIZ_DISCORD_SHARDS": "2"}, "no gateway connection"},
		{"negative shards", map[string]string{"MALEFIZ_DISCORD_SHARDS": "-1"}, "want 0"},
		{"shard out of range", map[string]string{"MALEFIZ_DISCORD_SHARDS": "2", "MALEFIZ_DISCORD_SHARD_IDS": "2"}, "not a shard of 2"},
		{"shard twice", map[string]string{"MALEFIZ_DISCORD_SHARDS": "2", "MALEFIZ_DISCORD_SHARD_IDS": "1,1"}, "listed twice"},
		{"shard ids without count", map[string]string{"MALEFIZ_DISCORD_SHARD_IDS": "0"}, "needs shards"},
		{"bad listen", map[string]string{"MALEFIZ_HTTP_LISTEN": "8080"}, "want host:port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.env["MALEFIZ_DISCORD_TOKEN"] = "x"
			_, err := LoadConfig("", env(tc.env))
			require.Error(t, err)
			assert.True(t, strings.Contains(err.Error(), tc.want), "%v; want %q", err, tc.want)
		})
	}
}
