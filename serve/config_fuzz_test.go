package serve

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzConfig reads any file as the config: an error or a config, never a
// panic; a config read without error validates without one.
func FuzzConfig(f *testing.F) {
	example, err := os.ReadFile("../config.example.toml")
	require.NoError(f, err)
	f.Add(example)
	f.Add([]byte("[http]\ntrusted_proxies = [\"10.0.0.0/8\"]\n[game]\nlobbies_per_user = 1\n"))
	f.Add([]byte("[discord]\nshards = -1\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, file []byte) {
		path := filepath.Join(dir, "c.toml")
		require.NoError(t, os.WriteFile(path, file, 0o600))
		cfg, err := LoadToolConfig(path, func(string) string { return "" })
		if err == nil {
			require.NoError(t, cfg.validate(false), "read once, valid again")
		}
	})
}
