package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigExampleDecodes(t *testing.T) {
	cfg, err := LoadConfig("../../config.example.toml", env(map[string]string{"MALEFIZ_DISCORD_TOKEN": "t0ken"}))
	if err != nil {
		t.Fatalf("config.example.toml: %v", err)
	}
	if cfg.Discord.APIURL != "https://discord.com" || cfg.Database.Path != "malefiz.db" || cfg.Game.Seats != 4 || cfg.Discord.Token != "t0ken" {
		t.Errorf("example config: %+v", cfg)
	}
}

func TestConfigEnvironmentOverrides(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	os.WriteFile(path, []byte("[discord]\ntoken = \"file\"\nguild_ids = [\"1\"]\n[database]\npath = \"file.db\"\n"), 0o600)
	cfg, err := LoadConfig(path, env(map[string]string{
		"MALEFIZ_DISCORD_TOKEN": "env", "MALEFIZ_DATABASE_PATH": "env.db", "MALEFIZ_DISCORD_API_URL": "http://127.0.0.1:9",
		"MALEFIZ_GUILD_IDS": "2,3", "MALEFIZ_LOG_FORMAT": "json",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Discord.Token != "env" || cfg.Database.Path != "env.db" || cfg.Discord.APIURL != "http://127.0.0.1:9" ||
		strings.Join(cfg.Discord.GuildIDs, ",") != "2,3" || cfg.Log.Format != "json" {
		t.Errorf("overrides not applied: %+v", cfg)
	}
	cfg, _ = LoadConfig(path, env(map[string]string{"DISCORD_TOKEN": "plain"}))
	if cfg.Discord.Token != "file" {
		t.Errorf("DISCORD_TOKEN must not override the file's token, got %q", cfg.Discord.Token)
	}
}

func TestConfigErrorsSayWhatToSet(t *testing.T) {
	dir := t.TempDir()
	tests := map[string]struct{ file, want string }{
		"no token":        {"", "MALEFIZ_DISCORD_TOKEN"},
		"bad api url":     {"[discord]\ntoken=\"s3cr3t\"\napi_url=\"ftp://x\"\n", "api_url"},
		"bad seats":       {"[discord]\ntoken=\"s3cr3t\"\n[game]\nseats=7\n", "seats"},
		"bad level":       {"[discord]\ntoken=\"s3cr3t\"\n[game]\ncomputer_level=\"godlike\"\n", "computer_level"},
		"bad log level":   {"[discord]\ntoken=\"s3cr3t\"\n[log]\nlevel=\"loud\"\n", "[log] level"},
		"unknown setting": {"[discord]\ntoken=\"s3cr3t\"\ntokn=\"y\"\n", "unknown setting"},
		"bad guild":       {"[discord]\ntoken=\"s3cr3t\"\nguild_ids=[\"abc\"]\n", "guild_ids"},
		"not toml":        {"[discord\n", "config"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".toml")
			os.WriteFile(path, []byte(tt.file), 0o600)
			_, err := LoadConfig(path, env(nil))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want one mentioning %q", err, tt.want)
			}
			code, out, errOut := runCLI("run", "-config", path)
			if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || strings.Contains(errOut, "s3cr3t") {
				t.Errorf("malefiz run: exit %d, stderr %q; want exit 2 and one line", code, errOut)
			}
		})
	}
}

func TestConfigDatabaseURL(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct {
		file, env, want, err string
	}{
		"path only":       {file: "path = \"a.db\"", want: "a.db"},
		"url wins":        {file: "path = \"a.db\"\nurl = \"postgres://u:pw@db:5432/malefiz\"", want: "postgres://u:pw@db:5432/malefiz"},
		"postgresql":      {file: "url = \"postgresql://db/malefiz?sslmode=disable\"", want: "postgresql://db/malefiz?sslmode=disable"},
		"sqlite url":      {file: "url = \"sqlite:/var/lib/malefiz.db\"", want: "sqlite:/var/lib/malefiz.db"},
		"env url":         {file: "path = \"a.db\"", env: "postgres://env/x", want: "postgres://env/x"},
		"unknown scheme":  {file: "url = \"mysql://db/x\"", err: "scheme \"mysql\""},
		"no host":         {file: "url = \"postgres://\"", err: "no host"},
		"sqlite no file":  {file: "url = \"sqlite:\"", err: "names no file"},
		"password hidden": {file: "url = \"mysql://u:s3cr3t@db/x\"", err: "scheme"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".toml")
			require.NoError(t, os.WriteFile(path, []byte("[discord]\ntoken = \"t\"\n[database]\n"+tc.file+"\n"), 0o600))
			cfg, err := LoadConfig(path, env(map[string]string{"MALEFIZ_DATABASE_URL": tc.env}))
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				assert.NotContains(t, err.Error(), "s3cr3t")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, cfg.Database.Path, "what the program opens")
		})
	}
}
