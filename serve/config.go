package serve

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/malefiz-discord/malefiz/activity"
	"github.com/malefiz-discord/malefiz/engine/ai"
	"github.com/malefiz-discord/malefiz/game"
	"github.com/malefiz-discord/malefiz/ratelimit"
)

// DefaultConfigFile is read when -config is not given and the file exists.
const DefaultConfigFile = "malefiz.toml"

// IsPostgres reports whether the database address is a PostgreSQL URL.
func IsPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// Config is the bot's configuration: config.example.toml documents it.
type Config struct {
	Discord  DiscordConfig  `toml:"discord"`
	Database DatabaseConfig `toml:"database"`
	Game     GameConfig     `toml:"game"`
	Log      LogConfig      `toml:"log"`
	HTTP     HTTPConfig     `toml:"http"`

	// env maps the settings the environment set ("[log] level") to the
	// variable and the value it gave, so that an error names what the
	// admin wrote.
	env map[string]envValue
}

// envValue is a setting's value as an environment variable gave it.
type envValue struct{ name, value string }

// setting names a setting in an error: the environment variable when it
// set the value, else the file's section and key.
func (c Config) setting(key string) string {
	if v, ok := c.env[key]; ok {
		return v.name
	}
	return key
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
	// ClientSecret is the application's OAuth2 client secret: with it the
	// HTTP listener serves the Activity under /.proxy/, whose sign-in
	// exchanges Discord's code with it, on the server only.
	ClientSecret string `toml:"client_secret"`
	// Shards is the gateway's shard count; 0 means the count Discord
	// recommends (GET /gateway/bot).
	Shards int `toml:"shards"`
	// ShardIDs are the shards this process runs; empty means all.
	ShardIDs []int `toml:"shard_ids"`
	// GlobalRate is the bot token's globally limited requests a second,
	// over every process (replicas on PostgreSQL share it); the limiter
	// lets a burst of 3 more through in a second.
	GlobalRate float64 `toml:"global_rate"`
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
	// TrustedProxies are the reverse proxies in front of the listener
	// (addresses or CIDRs): from them, and only from them, the
	// Activity's limits per client address read X-Forwarded-For.
	TrustedProxies []string `toml:"trusted_proxies"`
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

// newSQLiteFile returns the file of the SQLite database db when it does not
// exist yet (opening it will create it), else "".
func newSQLiteFile(db string) string {
	if IsPostgres(db) {
		return ""
	}
	path := strings.TrimPrefix(db, "sqlite:")
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		return ""
	}
	return path
}

// removeUnusedSQLite removes the SQLite file at path ("" does nothing)
// once closed, unless another process has it open: SQLite removes the
// -wal and -shm files when the last connection closes, so either one
// still there means it is in use.
func removeUnusedSQLite(path string) {
	if path == "" {
		return
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Lstat(path + suffix); err == nil {
			return
		}
	}
	_ = os.Remove(path)
}

// GameConfig is the [game] section: defaults for new games.
type GameConfig struct {
	Seats         int    `toml:"seats"`
	ComputerLevel string `toml:"computer_level"`
	SixAgain      bool   `toml:"six_again"`
	SafeRow2      bool   `toml:"safe_row_2"`
	// Coach: the people's moves are graded in the background, and the
	// coach's verdict follows each result (on unless turned off).
	Coach bool `toml:"coach"`
	// CoachBehind is how long a game may wait for the coach before its
	// waiting moves are skipped rather than graded (the verdict says how
	// many), so that a coach with more moves than it can grade stays that
	// close behind (10 minutes unless set; 0 is the same).
	CoachBehind time.Duration `toml:"coach_behind"`
	// LobbiesPerUser and LobbiesPerChannel bound the open lobbies
	// (games not started yet): hosted by one user in all of a server's
	// channels, and in one channel; 0 is no bound.
	LobbiesPerUser    int `toml:"lobbies_per_user"`
	LobbiesPerChannel int `toml:"lobbies_per_channel"`
}

// lobbyCap is the game service's bound of a config's n: 0, no bound, is
// the service's -1.
func lobbyCap(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// LogConfig is the [log] section.
type LogConfig struct {
	Level  string `toml:"level"`
	Format string `toml:"format"`
}

// DefaultConfig returns the configuration used where the file says nothing.
func DefaultConfig() Config {
	return Config{
		Discord:  DiscordConfig{APIURL: "https://discord.com", Interactions: InteractionsGateway, GlobalRate: ratelimit.DefaultRate},
		Database: DatabaseConfig{Path: "malefiz.db"},
		Game: GameConfig{Seats: 4, ComputerLevel: "normal", Coach: true,
			LobbiesPerUser: game.DefaultLobbiesPerUser, LobbiesPerChannel: game.DefaultLobbiesPerChannel,
			CoachBehind: game.DefaultCoachBehind},
		Log: LogConfig{Level: "info", Format: "text"},
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
		if _, err := os.Stat(DefaultConfigFile); err == nil {
			path = DefaultConfigFile
		}
	}
	if path != "" {
		md, err := toml.DecodeFile(path, &cfg)
		if err != nil {
			if terr := typeError(path); terr != nil {
				if line := tomlLine.FindStringSubmatch(err.Error()); line != nil {
					return cfg, fmt.Errorf("config %s: line %s: %w", path, line[1], terr)
				}
				return cfg, fmt.Errorf("config %s: %w", path, terr)
			}
			return cfg, fmt.Errorf("config %s: %s", path, strings.TrimPrefix(err.Error(), "toml: "))
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
	if c.env == nil {
		c.env = map[string]envValue{}
	}
	// str reads the variable name of the setting key: when it is set, it
	// records where key's value came from and stores it in *dst (unless
	// dst is nil: the caller parses it).
	str := func(name, key string, dst *string) (string, bool) {
		v := getenv(name)
		if v == "" {
			return "", false
		}
		c.env[key] = envValue{name, v}
		if dst != nil {
			*dst = v
		}
		return v, true
	}
	if v := getenv("MALEFIZ_DISCORD_TOKEN"); v != "" {
		c.Discord.Token = v
	} else if v := getenv("DISCORD_TOKEN"); v != "" && c.Discord.Token == "" {
		c.Discord.Token = v
	}
	str("MALEFIZ_DISCORD_API_URL", "[discord] api_url", &c.Discord.APIURL)
	if v, ok := str("MALEFIZ_GUILD_IDS", "[discord] guild_ids", nil); ok {
		c.Discord.GuildIDs = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
	}
	str("MALEFIZ_DATABASE_PATH", "[database] path", &c.Database.Path)
	str("MALEFIZ_DISCORD_INTERACTIONS", "[discord] interactions", &c.Discord.Interactions)
	str("MALEFIZ_DISCORD_PUBLIC_KEY", "[discord] public_key", &c.Discord.PublicKey)
	str("MALEFIZ_DISCORD_CLIENT_SECRET", "[discord] client_secret", &c.Discord.ClientSecret)
	if v, ok := str("MALEFIZ_DISCORD_SHARDS", "[discord] shards", nil); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			n = -1 // Validate says what is wrong
		}
		c.Discord.Shards = n
	}
	if v, ok := str("MALEFIZ_DISCORD_SHARD_IDS", "[discord] shard_ids", nil); ok {
		c.Discord.ShardIDs = nil
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
			n, err := strconv.Atoi(f)
			if err != nil {
				n = -1
			}
			c.Discord.ShardIDs = append(c.Discord.ShardIDs, n)
		}
	}
	if v, ok := str("MALEFIZ_DISCORD_GLOBAL_RATE", "[discord] global_rate", nil); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			f = -1 // Validate says what is wrong
		}
		c.Discord.GlobalRate = f
	}
	str("MALEFIZ_HTTP_LISTEN", "[http] listen", &c.HTTP.Listen)
	if v, ok := str("MALEFIZ_HTTP_TRUSTED_PROXIES", "[http] trusted_proxies", nil); ok {
		c.HTTP.TrustedProxies = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
	}
	str("MALEFIZ_DATABASE_URL", "[database] url", &c.Database.URL)
	for _, n := range []struct {
		name, key string
		dst       *int
	}{
		{"MALEFIZ_GAME_LOBBIES_PER_USER", "[game] lobbies_per_user", &c.Game.LobbiesPerUser},
		{"MALEFIZ_GAME_LOBBIES_PER_CHANNEL", "[game] lobbies_per_channel", &c.Game.LobbiesPerChannel},
	} {
		if v, ok := str(n.name, n.key, nil); ok {
			i, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				i = -1 // Validate says what is wrong
			}
			*n.dst = i
		}
	}
	str("MALEFIZ_LOG_LEVEL", "[log] level", &c.Log.Level)
	str("MALEFIZ_LOG_FORMAT", "[log] format", &c.Log.Format)
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
		errs = append(errs, fmt.Errorf("%s %q must be an http(s) URL such as https://discord.com", c.setting("[discord] api_url"), c.Discord.APIURL))
	}
	for _, id := range c.Discord.GuildIDs {
		if id == "" || strings.Trim(id, "0123456789") != "" {
			errs = append(errs, fmt.Errorf("%s: %q is not a server ID (digits only)", c.setting("[discord] guild_ids"), id))
		}
	}
	errs = append(errs, c.validateScale()...)
	if c.Game.CoachBehind < 0 {
		errs = append(errs, fmt.Errorf("[game] coach_behind %s must not be negative (\"10m\"; 0 is the default, 10 minutes)", c.Game.CoachBehind))
	}
	if c.Database.Path == "" && c.Database.URL == "" {
		errs = append(errs, errors.New("[database] path is empty: set it or MALEFIZ_DATABASE_PATH (or url, MALEFIZ_DATABASE_URL)"))
	}
	if err := checkDatabaseURL(c.setting("[database] url"), c.Database.URL); err != nil {
		errs = append(errs, err)
	}
	if _, err := activity.ParseProxies(c.HTTP.TrustedProxies); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", c.setting("[http] trusted_proxies"), err))
	}
	for _, b := range []struct {
		key string
		n   int
	}{{"[game] lobbies_per_user", c.Game.LobbiesPerUser}, {"[game] lobbies_per_channel", c.Game.LobbiesPerChannel}} {
		if key, n := b.key, b.n; n < 0 {
			if v, ok := c.env[key]; ok {
				errs = append(errs, fmt.Errorf("%s %q, want 0 (no bound) or more", v.name, v.value))
			} else {
				errs = append(errs, fmt.Errorf("%s = %d, want 0 (no bound) or more", key, n))
			}
		}
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
		errs = append(errs, fmt.Errorf("%s %q, want text or json", c.setting("[log] format"), c.Log.Format))
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
		errs = append(errs, fmt.Errorf("%s %q, want gateway or http", c.setting("[discord] interactions"), c.Discord.Interactions))
	}
	if v, ok := c.env["[discord] shards"]; ok && c.Discord.Shards < 0 {
		errs = append(errs, fmt.Errorf("%s %q, want 0 (Discord's recommendation) or more", v.name, v.value))
	} else if c.Discord.Shards < 0 {
		errs = append(errs, fmt.Errorf("[discord] shards = %d, want 0 (Discord's recommendation) or more", c.Discord.Shards))
	}
	if r := c.Discord.GlobalRate; !(r >= 1 && r+ratelimit.DefaultBurst <= ratelimit.GlobalLimit) {
		value := fmt.Sprintf("%s = %v", c.setting("[discord] global_rate"), r)
		if v, ok := c.env["[discord] global_rate"]; ok {
			value = fmt.Sprintf("%s %q", v.name, v.value)
		}
		errs = append(errs, fmt.Errorf("%s, want 1 to %d (Discord allows %d requests a second; a burst of %d comes on top)",
			value, ratelimit.GlobalLimit-ratelimit.DefaultBurst, ratelimit.GlobalLimit, ratelimit.DefaultBurst))
	}
	seen := map[int]bool{}
	for _, id := range c.Discord.ShardIDs {
		switch {
		case id < 0 || (c.Discord.Shards > 0 && id >= c.Discord.Shards):
			errs = append(errs, fmt.Errorf("%s: %d is not a shard of %d (0 to shards-1)", c.setting("[discord] shard_ids"), id, c.Discord.Shards))
		case seen[id]:
			errs = append(errs, fmt.Errorf("%s: %d is listed twice", c.setting("[discord] shard_ids"), id))
		}
		seen[id] = true
	}
	if len(c.Discord.ShardIDs) > 0 && c.Discord.Shards == 0 {
		errs = append(errs, errors.New("[discord] shard_ids needs shards: every process must agree on the count"))
	}
	if c.HTTP.Listen != "" {
		if _, _, err := net.SplitHostPort(c.HTTP.Listen); err != nil {
			errs = append(errs, fmt.Errorf("%s %q, want host:port such as 127.0.0.1:8080", c.setting("[http] listen"), c.HTTP.Listen))
		}
	}
	return errs
}

// publicKey decodes [discord] public_key.
func (c Config) publicKey() (ed25519.PublicKey, error) {
	key, err := hex.DecodeString(strings.TrimSpace(c.Discord.PublicKey))
	if err != nil || len(key) != ed25519.PublicKeySize {
		if v, ok := c.env["[discord] public_key"]; ok {
			return nil, fmt.Errorf("%s must be the application's public key, 64 hex digits (developer portal → General Information)", v.name)
		}
		return nil, errors.New("[discord] public_key must be the application's public key, 64 hex digits (developer portal → General Information), or set MALEFIZ_DISCORD_PUBLIC_KEY")
	}
	return ed25519.PublicKey(key), nil
}

// checkDatabaseURL accepts "", a PostgreSQL URL with a host, sqlite:PATH or
// a plain path; anything else with a scheme is refused (without echoing a
// password it may hold). name is the setting, as errors call it.
func checkDatabaseURL(name, s string) error {
	scheme, rest, ok := strings.Cut(s, "://")
	switch {
	case s == "" || strings.HasPrefix(s, "sqlite:") && s != "sqlite:":
		return nil
	case s == "sqlite:":
		return fmt.Errorf("%s sqlite: names no file: sqlite:PATH", name)
	case !ok || strings.ContainsAny(scheme, "/\\."):
		return nil // a path
	case scheme != "postgres" && scheme != "postgresql":
		return fmt.Errorf("%s: scheme %q, want postgres://, postgresql://, sqlite:PATH or a path", name, scheme)
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%s is not a valid %s URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE)", name, scheme)
	}
	if u.Host == "" && u.Query().Get("host") == "" || rest == "" {
		return fmt.Errorf("%s names no host: postgres://USER:PASSWORD@HOST:PORT/DATABASE", name)
	}
	return nil
}

func (c Config) logLevel() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.Log.Level)); err != nil {
		return l, fmt.Errorf("%s %q, want debug, info, warn or error", c.setting("[log] level"), c.Log.Level)
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

// tomlLine finds the line number in an error of the toml package.
var tomlLine = regexp.MustCompile(`\bline (\d+)\b`)

// typeError explains the first setting of the file at path whose value has
// the wrong type for its key ("[game] seats must be a whole number such as
// 4, not a string"), or returns nil when the file cannot be read as TOML or
// every value has its key's type.
func typeError(path string) error {
	var file map[string]any
	if _, err := toml.DecodeFile(path, &file); err != nil {
		return nil
	}
	return typeErrorIn(reflect.TypeFor[Config](), file)
}

// typeErrorIn checks the sections of file against the sections of t.
func typeErrorIn(t reflect.Type, file map[string]any) error {
	for i := range t.NumField() {
		section := t.Field(i)
		name := section.Tag.Get("toml")
		if name == "" {
			continue
		}
		v, ok := file[name]
		if !ok {
			continue
		}
		table, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s must be a section ([%s] on a line of its own, its settings below), not %s", name, name, tomlKind(v))
		}
		for j := range section.Type.NumField() {
			f := section.Type.Field(j)
			key := f.Tag.Get("toml")
			v, ok := table[key]
			if key == "" || !ok {
				continue
			}
			if want, got, ok := tomlTypeOK(f.Type, v); !ok {
				return fmt.Errorf("[%s] %s must be %s, not %s", name, key, want, got)
			}
		}
	}
	return nil
}

// tomlTypeOK reports whether a decoded TOML value fits a setting of type
// t; when not, what the setting wants and what the value is.
func tomlTypeOK(t reflect.Type, v any) (want, got string, ok bool) {
	switch t.Kind() {
	case reflect.String:
		_, ok = v.(string)
		want = `a string in quotes, such as "text"`
	case reflect.Int:
		_, ok = v.(int64)
		want = "a whole number such as 4"
	case reflect.Bool:
		_, ok = v.(bool)
		want = "true or false"
	case reflect.Slice:
		want = "a list of whole numbers such as [0, 1]"
		if t.Elem().Kind() == reflect.String {
			want = `a list of strings in quotes, such as ["123456789012345678"]`
		}
		list, isList := v.([]any)
		if !isList {
			return want, tomlKind(v), false
		}
		for _, e := range list {
			if _, _, ok := tomlTypeOK(t.Elem(), e); !ok {
				return want, "a list holding " + tomlKind(e), false
			}
		}
		return want, "", true
	default:
		return t.String(), "", true
	}
	return want, tomlKind(v), ok
}

// tomlKind says what a decoded TOML value is, as a person would.
func tomlKind(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("a string (%q)", v)
	case int64:
		return fmt.Sprintf("a number (%d)", v)
	case float64:
		return fmt.Sprintf("a decimal number (%v)", v)
	case bool:
		return fmt.Sprintf("%v", v)
	case []any:
		return "a list"
	case []map[string]any:
		return "a list of tables"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}
