package serve

import (
	"bytes"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/activity"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/malefiz-discord/malefiz/subcommand"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigExampleDecodes(t *testing.T) {
	cfg, err := LoadConfig("../config.example.toml", env(map[string]string{"MALEFIZ_DISCORD_TOKEN": "t0ken"}))
	if err != nil {
		t.Fatalf("config.example.toml: %v", err)
	}
	if cfg.Discord.APIURL != "https://discord.com" || cfg.Database.Path != "malefiz.db" || cfg.Game.Seats != 4 || cfg.Discord.Token != "t0ken" {
		t.Errorf("example config: %+v", cfg)
	}
	assert.Equal(t, DefaultConfig().Game, cfg.Game, "the example says the defaults")
}

// TestConfigTrustedProxies proves [http] trusted_proxies: addresses and
// CIDRs from the file or the environment, and a clear error for anything
// else.
func TestConfigTrustedProxies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	require.NoError(t, os.WriteFile(path, []byte("[http]\ntrusted_proxies = [\"127.0.0.1\", \"10.0.0.0/8\", \"::1\"]\n"), 0o600))
	cfg, err := LoadConfig(path, env(map[string]string{"MALEFIZ_DISCORD_TOKEN": "t"}))
	require.NoError(t, err)
	proxies, err := activity.ParseProxies(cfg.HTTP.TrustedProxies)
	require.NoError(t, err)
	assert.Equal(t, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.0.0.0/8"),
		netip.MustParsePrefix("::1/128")}, proxies)

	cfg, err = LoadConfig(path, env(map[string]string{"MALEFIZ_DISCORD_TOKEN": "t", "MALEFIZ_HTTP_TRUSTED_PROXIES": "10.0.0.0/33"}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `MALEFIZ_HTTP_TRUSTED_PROXIES: trusted proxy "10.0.0.0/33": not an address or a CIDR`)
	assert.Equal(t, []string{"10.0.0.0/33"}, cfg.HTTP.TrustedProxies)
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

// TestConfigEnvironmentErrorsNameTheVariable checks that a bad value from
// the environment is reported under the variable's name, and the same
// value from the file under the file's section and key.
func TestConfigEnvironmentErrorsNameTheVariable(t *testing.T) {
	for name, tc := range map[string]struct {
		env, want, file, fileWant string
	}{
		"log level":    {env: "MALEFIZ_LOG_LEVEL=loud", want: `MALEFIZ_LOG_LEVEL "loud", want debug, info, warn or error`, file: "[log]\nlevel = \"loud\"", fileWant: `[log] level "loud"`},
		"log format":   {env: "MALEFIZ_LOG_FORMAT=xml", want: `MALEFIZ_LOG_FORMAT "xml", want text or json`, file: "[log]\nformat = \"xml\"", fileWant: `[log] format "xml"`},
		"api url":      {env: "MALEFIZ_DISCORD_API_URL=ftp://x", want: `MALEFIZ_DISCORD_API_URL "ftp://x" must be an http(s) URL`},
		"guild ids":    {env: "MALEFIZ_GUILD_IDS=abc", want: `MALEFIZ_GUILD_IDS: "abc" is not a server ID`},
		"interactions": {env: "MALEFIZ_DISCORD_INTERACTIONS=webhook", want: `MALEFIZ_DISCORD_INTERACTIONS "webhook", want gateway or http`},
		"shards":       {env: "MALEFIZ_DISCORD_SHARDS=many", want: `MALEFIZ_DISCORD_SHARDS "many", want 0`, file: "[discord]\nshards = -2", fileWant: "[discord] shards = -2"},
		"global rate":  {env: "MALEFIZ_DISCORD_GLOBAL_RATE=fast", want: `MALEFIZ_DISCORD_GLOBAL_RATE "fast", want 1 to 47`, file: "[discord]\nglobal_rate = 60.0", fileWant: "[discord] global_rate = 60, want 1 to 47"},
		"listen":       {env: "MALEFIZ_HTTP_LISTEN=8080", want: `MALEFIZ_HTTP_LISTEN "8080", want host:port`},
		"lobbies":      {env: "MALEFIZ_GAME_LOBBIES_PER_USER=some", want: `MALEFIZ_GAME_LOBBIES_PER_USER "some", want 0 (no bound) or more`, file: "[game]\nlobbies_per_channel = -1", fileWant: "[game] lobbies_per_channel = -1, want 0"},
		"database url": {env: "MALEFIZ_DATABASE_URL=mysql://db/x", want: `MALEFIZ_DATABASE_URL: scheme "mysql"`, file: "[database]\nurl = \"mysql://db/x\"", fileWant: `[database] url: scheme "mysql"`},
	} {
		t.Run(name, func(t *testing.T) {
			k, v, _ := strings.Cut(tc.env, "=")
			_, err := LoadConfig("", env(map[string]string{"MALEFIZ_DISCORD_TOKEN": "x", k: v}))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			section, _, _ := strings.Cut(strings.TrimPrefix(tc.want, k), " ")
			assert.NotContains(t, err.Error(), "["+section, "the file's name is not used for the variable")
			if tc.file == "" {
				return
			}
			path := filepath.Join(t.TempDir(), "c.toml")
			require.NoError(t, os.WriteFile(path, []byte(tc.file+"\n"), 0o600))
			_, err = LoadConfig(path, env(map[string]string{"MALEFIZ_DISCORD_TOKEN": "x"}))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.fileWant)
			assert.NotContains(t, err.Error(), k)
		})
	}

	t.Chdir(t.TempDir())
	t.Setenv("MALEFIZ_DISCORD_TOKEN", "x")
	t.Setenv("MALEFIZ_LOG_LEVEL", "loud")
	code, out, errOut := runCLI("run")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Equal(t, "malefiz: MALEFIZ_LOG_LEVEL \"loud\", want debug, info, warn or error\n", errOut)
}

// TestConfigWrongTypeSaysWhichKeyAndType checks that a value of the wrong
// TOML type is explained by key and expected type, with its line, instead
// of the toml package's own words.
func TestConfigWrongTypeSaysWhichKeyAndType(t *testing.T) {
	for name, tc := range map[string]struct{ file, want string }{
		"string for a number":  {"[game]\nseats = \"four\"", `line 2: [game] seats must be a whole number such as 4, not a string ("four")`},
		"decimal for a number": {"[discord]\nshards = 2.5", "[discord] shards must be a whole number such as 4, not a decimal number (2.5)"},
		"string for a bool":    {"[game]\nsix_again = \"yes\"", `[game] six_again must be true or false, not a string ("yes")`},
		"number for a string":  {"[log]\nlevel = 3", `[log] level must be a string in quotes, such as "text", not a number (3)`},
		"numbers for strings":  {"[discord]\nguild_ids = [123]", `[discord] guild_ids must be a list of strings in quotes, such as ["123456789012345678"], not a list holding a number (123)`},
		"string for a list":    {"[discord]\nguild_ids = \"123\"", `[discord] guild_ids must be a list of strings in quotes`},
		"strings for numbers":  {"[discord]\nshard_ids = [\"0\"]", "[discord] shard_ids must be a list of whole numbers such as [0, 1], not a list holding a string"},
		"value for a section":  {"game = 3", "game must be a section ([game] on a line of its own, its settings below), not a number (3)"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.toml")
			require.NoError(t, os.WriteFile(path, []byte(tc.file+"\n"), 0o600))
			_, err := LoadConfig(path, env(map[string]string{"MALEFIZ_DISCORD_TOKEN": "x"}))
			require.Error(t, err)
			msg, ok := strings.CutPrefix(err.Error(), "config "+path+": ")
			require.True(t, ok, err.Error())
			assert.Contains(t, msg, tc.want)
			for _, raw := range []string{"toml:", "incompatible types", "destination has type", "int64", "last key"} {
				assert.NotContains(t, msg, raw)
			}
		})
	}
}

// TestFailedRunLeavesNoDatabase checks that `malefiz run` that cannot
// start (Discord refuses the token, or cannot be reached) does not leave a
// new malefiz.db behind, and keeps a database that was there before.
func TestFailedRunLeavesNoDatabase(t *testing.T) {
	fake := fakediscord.New(t)
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	noNetwork := "http://" + closed.Addr().String()
	require.NoError(t, closed.Close())
	for name, apiURL := range map[string]string{"bad token": fake.URL(), "no network": noNetwork} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			t.Setenv("MALEFIZ_DISCORD_TOKEN", "not-the-token")
			t.Setenv("MALEFIZ_DISCORD_API_URL", apiURL)
			t.Setenv("MALEFIZ_LOG_LEVEL", "error")
			code, _, _ := runCLI("run")
			assert.Equal(t, 1, code)
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Empty(t, entries, "no database file is left behind")

			// A database that was there stays, with what it held.
			db, err := store.Open(t.Context(), "malefiz.db")
			require.NoError(t, err)
			require.NoError(t, db.SetGuildSettings(t.Context(), fake.GuildID, malefiz.DefaultGuildSettings()))
			require.NoError(t, db.Close())
			code, _, _ = runCLI("run")
			assert.Equal(t, 1, code)
			db, err = store.Open(t.Context(), "malefiz.db")
			require.NoError(t, err)
			defer db.Close()
			_, err = db.GuildSettings(t.Context(), fake.GuildID)
			assert.NoError(t, err)
		})
	}
}

// runCLI runs a subcommand of serve's as the malefiz command does ("run"
// or "healthcheck", then its flags).
func runCLI(args ...string) (code int, stdout, stderr string) {
	cmd := map[string]subcommand.Command{"run": RunCommand, "healthcheck": Healthcheck}[args[0]]
	var out, errb bytes.Buffer
	code = subcommand.Run(args[0], cmd, args[1:], &out, &errb)
	return code, out.String(), errb.String()
}

// TestConfigLobbyBoundsFromTheEnvironment: the bounds on open lobbies come
// from the file, then the environment; 0 is no bound for the service.
func TestConfigLobbyBoundsFromTheEnvironment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	require.NoError(t, os.WriteFile(path, []byte("[game]\nlobbies_per_user = 5\nlobbies_per_channel = 7\n"), 0o600))
	cfg, err := LoadConfig(path, env(map[string]string{"MALEFIZ_DISCORD_TOKEN": "t"}))
	require.NoError(t, err)
	assert.Equal(t, 5, cfg.Game.LobbiesPerUser)
	assert.Equal(t, 7, cfg.Game.LobbiesPerChannel)
	cfg, err = LoadConfig(path, env(map[string]string{"MALEFIZ_DISCORD_TOKEN": "t",
		"MALEFIZ_GAME_LOBBIES_PER_USER": "8", "MALEFIZ_GAME_LOBBIES_PER_CHANNEL": " 0 "}))
	require.NoError(t, err)
	assert.Equal(t, 8, cfg.Game.LobbiesPerUser)
	assert.Equal(t, 0, cfg.Game.LobbiesPerChannel)
	assert.Equal(t, -1, lobbyCap(cfg.Game.LobbiesPerChannel), "no bound")
}
