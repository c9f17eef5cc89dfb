package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/malefiz-discord/malefiz/engine/ai"
)

// defaultConfigFile is read when -config is not given and the file exists.
const defaultConfigFile = "malefiz.toml"

// Config is the bot's configuration: config.example.toml documents it.
type Config struct {
	Discord  DiscordConfig  `toml:"discord"`
	Database DatabaseConfig `toml:"database"`
	Game     GameConfig     `toml:"game"`
	Log      LogConfig      `toml:"log"`
	HTTP     HTTPConfig     `toml:"http"`
}

// DiscordConfig is the [discord] section.
type DiscordConfig struct {
	Token    string   `toml:"token"`
	GuildIDs []string `toml:"guild_ids"`
	APIURL   string   `toml:"api_url"`
	// Interactions is how interactions arrive: "gateway" (a websocket per
	// shard) or "http" (Discord POSTs them to [http] listen's
	// /interactions; no gateway connection at all).
	Interactions string `toml:"interactions"`
	// PublicKey is the application's public key (hex), which verifies
	// the interactions delivered over HTTP.
	PublicKey string `toml:"public_key"`
	// Shards is the gateway's shard count; 0 means the count Discord
	// recommends (GET /gateway/bot).
	Shards int `toml:"shards"`
	// ShardIDs are the shards this process runs; empty means all.
	ShardIDs []int `toml:"shard_ids"`
}

// The ways interactions arrive ([discord] interactions).
const (
	InteractionsGateway = "gateway"
	InteractionsHTTP    = "http"
)

// HTTPConfig is the [http] section: the listener of the interactions
// endpoint (in http mode), the health checks and the metrics.
type HTTPConfig struct {
	// Listen is the address to listen on, such as 127.0.0.1:8080; empty
	// means no listener (allowed in gateway mode only).
	Listen string `toml:"listen"`
}

// DatabaseConfig is the [database] section.
type DatabaseConfig struct {
	// Path is the SQLite file. After loading it is what the program
	// opens: URL when that is set.
	Path string `toml:"path"`
	// URL names the database as store.Open takes it: postgres://… or
	// postgresql://… for PostgreSQL, sqlite:PATH or a plain path for
	// SQLite. It wins over Path.
	URL string `toml:"url"`
}

// GameConfig is the [game] section: defaults for new games.
type GameConfig struct {
	Seats         int    `toml:"seats"`
	ComputerLevel string `toml:"computer_level"`
	SixAgain      bool   `toml:"six_again"`
	SafeRow2      bool   `toml:"safe_row_2"`
}

// LogConfig is the [log] section.
type LogConfig struct {
	Level  string `toml:"level"`
	Format string `toml:"format"`
}

// DefaultConfig returns the configuration used where the file says nothing.
func DefaultConfig() Config {
	return Config{
		Discord:  DiscordConfig{APIURL: "https://discord.com", Interactions: InteractionsGateway},
		Database: DatabaseConfig{Path: "malefiz.db"},
		Game:     GameConfig{Seats: 4, ComputerLevel: "normal"},
		Log:      LogConfig{Level: "info", Format: "text"},
	}
}

// LoadConfig reads the configuration: defaults, then the TOML file (path, or
// malefiz.toml when path is "" and that file exists), then the environment.
func LoadConfig(path string, getenv func(string) string) (Config, error) {
	cfg, err := loadConfig(path, getenv)
	if err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

// LoadToolConfig reads the configuration like LoadConfig for the tools
// that do not connect to Discord (backup, replay): no token is needed.
func LoadToolConfig(path string, getenv func(string) string) (Config, error) {
	cfg, err := loadConfig(path, getenv)
	if err != nil {
		return cfg, err
	}
	return cfg, cfg.validate(false)
}

// loadConfig reads the configuration without validating it.
func loadConfig(path string, getenv func(string) string) (Config, error) {
	cfg := DefaultConfig()
	if path == "" {
		if _, err := os.Stat(defaultConfigFile); err == nil {
			path = defaultConfigFile
		}
	}
	if path != "" {
		md, err := toml.DecodeFile(path, &cfg)
		if err != nil {
			return cfg, fmt.Errorf("config %s: %w", path, err)
		}
		if undecoded := md.Undecoded(); len(undecoded) > 0 {
			return cfg, fmt.Errorf("config %s: unknown setting %q", path, undecoded[0].String())
		}
	}
	cfg.applyEnv(getenv)
	if cfg.Database.URL != "" {
		cfg.Database.Path = cfg.Database.URL
	}
	return cfg, nil
}

// applyEnv lets the environment override the file.
func (c *Config) applyEnv(getenv func(string) string) {
	if v := getenv("MALEFIZ_DISCORD_TOKEN"); v != "" {
		c.Discord.Token = v
	} else if v := getenv("DISCORD_TOKEN"); v != "" && c.Discord.Token == "" {
		c.Discord.Token = v
	}
	if v := getenv("MALEFIZ_DISCORD_API_URL"); v != "" {
		c.Discord.APIURL = v
	}
	if v := getenv("MALEFIZ_GUILD_IDS"); v != "" {
		c.Discord.GuildIDs = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
	}
	if v := getenv("MALEFIZ_DATABASE_PATH"); v != "" {
		c.Database.Path = v
	}
	if v := getenv("MALEFIZ_DISCORD_INTERACTIONS"); v != "" {
		c.Discord.Interactions = v
	}
	if v := getenv("MALEFIZ_DISCORD_PUBLIC_KEY"); v != "" {
		c.Discord.PublicKey = v
	}
	if v := getenv("MALEFIZ_DISCORD_SHARDS"); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			n = -1 // Validate says what is wrong
		}
		c.Discord.Shards = n
	}
	if v := getenv("MALEFIZ_DISCORD_SHARD_IDS"); v != "" {
		c.Discord.ShardIDs = nil
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
			n, err := strconv.Atoi(f)
			if err != nil {
				n = -1
			}
			c.Discord.ShardIDs = append(c.Discord.ShardIDs, n)
		}
	}
	if v := getenv("MALEFIZ_HTTP_LISTEN"); v != "" {
		c.HTTP.Listen = v
	}
	if v := getenv("MALEFIZ_DATABASE_URL"); v != "" {
		c.Database.URL = v
	}
	if v := getenv("MALEFIZ_LOG_LEVEL"); v != "" {
		c.Log.Level = v
	}
	if v := getenv("MALEFIZ_LOG_FORMAT"); v != "" {
		c.Log.Format = v
	}
}

// errNoToken says how to get a token, and how to try the bot without one.
var errNoToken = errors.New("no Discord bot token: set MALEFIZ_DISCORD_TOKEN (or token in [discord]); " +
	"get one at https://discord.com/developers/applications (New Application, Bot, Reset Token), " +
	"or try the bot without Discord: malefiz sandbox")

// Validate checks every setting and says what to set when one is wrong.
func (c Config) Validate() error { return c.validate(true) }

// validate checks the settings, the token only when needToken.
func (c Config) validate(needToken bool) error {
	var errs []error
	if needToken && strings.TrimSpace(c.Discord.Token) == "" {
		errs = append(errs, errNoToken)
	}
	if u, err := url.Parse(c.Discord.APIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("[discord] api_url %q must be an http(s) URL such as https://discord.com", c.Discord.APIURL))
	}
	for _, id := range c.Discord.GuildIDs {
		if id == "" || strings.Trim(id, "0123456789") != "" {
			errs = append(errs, fmt.Errorf("[discord] guild_ids: %q is not a server ID (digits only)", id))
		}
	}
	errs = append(errs, c.validateScale()...)
	if c.Database.Path == "" && c.Database.URL == "" {
		errs = append(errs, errors.New("[database] path is empty: set it or MALEFIZ_DATABASE_PATH (or url, MALEFIZ_DATABASE_URL)"))
	}
	if err := checkDatabaseURL(c.Database.URL); err != nil {
		errs = append(errs, err)
	}
	if c.Game.Seats < 2 || c.Game.Seats > 4 {
		errs = append(errs, fmt.Errorf("[game] seats = %d, want 2 to 4", c.Game.Seats))
	}
	if _, err := ai.ParseLevel(c.Game.ComputerLevel); err != nil || c.Game.ComputerLevel == string(ai.Greedy) {
		errs = append(errs, fmt.Errorf("[game] computer_level %q, want easy, normal or hard", c.Game.ComputerLevel))
	}
	if _, err := c.logLevel(); err != nil {
		errs = append(errs, err)
	}
	if c.Log.Format != "text" && c.Log.Format != "json" {
		errs = append(errs, fmt.Errorf("[log] format %q, want text or json", c.Log.Format))
	}
	return errors.Join(errs...)
}

// validateScale checks the settings of the interactions endpoint, the
// shards and the listener.
func (c Config) validateScale() []error {
	var errs []error
	switch c.Discord.Interactions {
	case InteractionsGateway:
	case InteractionsHTTP:
		if _, err := c.publicKey(); err != nil {
			errs = append(errs, err)
		}
		if c.HTTP.Listen == "" {
			errs = append(errs, errors.New("[discord] interactions = \"http\" needs [http] listen (or MALEFIZ_HTTP_LISTEN), such as 0.0.0.0:8080"))
		}
		if c.Discord.Shards != 0 || len(c.Discord.ShardIDs) > 0 {
			errs = append(errs, errors.New("[discord] shards and shard_ids are for interactions = \"gateway\"; with \"http\" there is no gateway connection"))
		}
	default:
		errs = append(errs, fmt.Errorf("[discord] interactions %q, want gateway or http", c.Discord.Interactions))
	}
	if c.Discord.Shards < 0 {
		errs = append(errs, fmt.Errorf("[discord] shards = %d, want 0 (Discord's recommendation) or more", c.Discord.Shards))
	}
	seen := map[int]bool{}
	for _, id := range c.Discord.ShardIDs {
		switch {
		case id < 0 || (c.Discord.Shards > 0 && id >= c.Discord.Shards):
			errs = append(errs, fmt.Errorf("[discord] shard_ids: %d is not a shard of %d (0 to shards-1)", id, c.Discord.Shards))
		case seen[id]:
			errs = append(errs, fmt.Errorf("[discord] shard_ids: %d is listed twice", id))
		}
		seen[id] = true
	}
	if len(c.Discord.ShardIDs) > 0 && c.Discord.Shards == 0 {
		errs = append(errs, errors.New("[discord] shard_ids needs shards: every process must agree on the count"))
	}
	if c.HTTP.Listen != "" {
		if _, _, err := net.SplitHostPort(c.HTTP.Listen); err != nil {
			errs = append(errs, fmt.Errorf("[http] listen %q, want host:port such as 127.0.0.1:8080", c.HTTP.Listen))
		}
	}
	return errs
}

// publicKey decodes [discord] public_key.
func (c Config) publicKey() (ed25519.PublicKey, error) {
	key, err := hex.DecodeString(strings.TrimSpace(c.Discord.PublicKey))
	if err != nil || len(key) != ed25519.PublicKeySize {
		return nil, errors.New("[discord] public_key must be the application's public key, 64 hex digits (developer portal → General Information), or set MALEFIZ_DISCORD_PUBLIC_KEY")
	}
	return ed25519.PublicKey(key), nil
}

// checkDatabaseURL accepts "", a PostgreSQL URL with a host, sqlite:PATH or
// a plain path; anything else with a scheme is refused (without echoing a
// password it may hold).
func checkDatabaseURL(s string) error {
	scheme, rest, ok := strings.Cut(s, "://")
	switch {
	case s == "" || strings.HasPrefix(s, "sqlite:") && s != "sqlite:":
		return nil
	case s == "sqlite:":
		return errors.New("[database] url sqlite: names no file: sqlite:PATH")
	case !ok || strings.ContainsAny(scheme, "/\\."):
		return nil // a path
	case scheme != "postgres" && scheme != "postgresql":
		return fmt.Errorf("[database] url: scheme %q, want postgres://, postgresql://, sqlite:PATH or a path", scheme)
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("[database] url is not a valid %s URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE)", scheme)
	}
	if u.Host == "" && u.Query().Get("host") == "" || rest == "" {
		return errors.New("[database] url names no host: postgres://USER:PASSWORD@HOST:PORT/DATABASE")
	}
	return nil
}

func (c Config) logLevel() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.Log.Level)); err != nil {
		return l, fmt.Errorf("[log] level %q, want debug, info, warn or error", c.Log.Level)
	}
	return l, nil
}

// Logger builds the logger the configuration asks for.
func (c Config) Logger(w *os.File) *slog.Logger {
	level, _ := c.logLevel()
	opts := &slog.HandlerOptions{Level: level}
	if c.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
