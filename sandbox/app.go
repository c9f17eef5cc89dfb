package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/malefiz-discord/malefiz/activity"
	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/serve"
	"github.com/malefiz-discord/malefiz/subcommand"
)

const (
	// DefaultUsers are the users the sandbox page can play as (-users).
	DefaultUsers = "Alice,Bob,Carol,Dave"
	// sandboxTickEvery is how often the sandbox runs the bot's due timers.
	sandboxTickEvery = time.Second
	// maxTickRounds bounds the timer rounds after one skip: each round
	// handles what the previous one made due (a timeout, then the next
	// computer turns).
	maxTickRounds = 20
)

// The sandbox's server and channels have fixed IDs, so that a database
// kept with -db still matches them on the next run.
var sandboxGuild = fakediscord.Guild{
	ID: "900000000000000001", Name: "Malefiz sandbox",
	Channels: []string{"900000000000000010", "900000000000000020"},
}

// Options configure a
type Options struct {
	DBPath string   // "" means a new file in a temporary directory
	Users  []string // the names of the users the page plays as
	// Locales are the users' Discord languages by name; "" names every
	// user without one of their own. Missing: en-US.
	Locales map[string]string
	// ServerLocale is the server's language; "" is en-US.
	ServerLocale string
	// Admin is the name of the user with Manage Server; "" is the last
	// user.
	Admin  string
	Logger *slog.Logger
	// Bot changes the bot's options after the sandbox set its clock
	// (tests: a fixed die).
	Bot func(*bot.Config)
	// Activity changes the Activity's options after the sandbox set
	// its own (tests: a looser limit of plays).
	Activity func(*activity.Config)
	// Limits are the Discord limits the fake enforces; nil is Discord's
	// (fakediscord.DefaultLimits).
	Limits *fakediscord.Limits
}

// App is a running sandbox: a fake Discord, the real bot connected
// to it as in production, and the web page that shows the fake.
type App struct {
	// Fake is the Discord stand-in the bot talks to.
	Fake *fakediscord.Fake
	// Main is the bot, connected to Fake.
	Main   *serve.Main
	clock  *Clock
	page   *Server
	tmpDir string

	tickMu sync.Mutex // one round of timers at a time
	stop   context.CancelFunc
	done   chan struct{}
}

// Start starts the fake Discord, the bot and the page.
func Start(ctx context.Context, opts Options) (_ *App, err error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	a := &App{clock: NewClock(time.Now)}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	dbPath := opts.DBPath
	if dbPath == "" {
		if a.tmpDir, err = os.MkdirTemp("", "malefiz-sandbox-"); err != nil {
			return nil, err
		}
		dbPath = filepath.Join(a.tmpDir, "malefiz.db")
	}
	users := Users(opts.Users...)
	guild := sandboxGuild
	guild.Locale = opts.ServerLocale
	// The sandbox's users are the members of its guild, whom the
	// Activity's sign-in asks the fake for as it asks Discord.
	for _, u := range users {
		guild.Members = append(guild.Members, fakediscord.Member{ID: u.ID, Name: strings.ToLower(u.Name)})
	}
	// Discord's limits on (DefaultLimits unless opts.Limits), on the
	// sandbox's clock: a skip ages the messages and the invalid requests
	// as waiting would.
	limits := fakediscord.DefaultLimits()
	if opts.Limits != nil {
		limits = *opts.Limits
	}
	a.Fake = fakediscord.Start(fakediscord.WithGuild(guild), fakediscord.WithClock(a.clock.Now),
		fakediscord.WithLimits(limits), fakediscord.WithLimitClock(a.clock.Now),
		fakediscord.WithApplicationFlags(fakediscord.ApplicationFlagEmbedded)) // Activities on

	cfg := serve.DefaultConfig()
	cfg.Discord.Token = a.Fake.Token()
	cfg.Discord.APIURL = a.Fake.URL()
	cfg.Discord.GuildIDs = []string{a.Fake.GuildID}
	cfg.Database.Path = dbPath
	cfg.Discord.ClientSecret = a.Fake.ClientSecret() // the Activity, under /.proxy/
	a.Main = &serve.Main{Config: cfg, Logger: opts.Logger, ManualTimers: true, Options: func(c *bot.Config) {
		c.Now = a.clock.Now
		if opts.Bot != nil {
			opts.Bot(c)
		}
	}, ActivityOptions: func(c *activity.Config) {
		c.Authorize = authorize(a.Fake, users)
		c.SandboxGuild, c.SandboxChannel = a.Fake.GuildID, a.Fake.ChannelID
		if opts.Activity != nil {
			opts.Activity(c)
		}
	}}
	if err := a.Main.Run(ctx); err != nil {
		a.Main = nil // Run closed what it opened
		return nil, err
	}
	admin := opts.Admin
	if admin == "" && len(users) > 0 {
		admin = users[len(users)-1].Name
	}
	for i := range users {
		users[i].Admin = strings.EqualFold(users[i].Name, admin)
		users[i].Locale = opts.Locales[""]
		if l, ok := opts.Locales[users[i].Name]; ok {
			users[i].Locale = l
		}
	}
	a.page, err = New(Config{
		Fake: a.Fake, Users: users, Clock: a.clock, Tick: a.tick, Logger: opts.Logger,
	})
	if err != nil {
		return nil, err
	}
	runCtx, stop := context.WithCancel(context.Background())
	a.stop, a.done = stop, make(chan struct{})
	go a.runTimers(runCtx)
	return a, nil
}

// Clock returns the sandbox's clock, which the page's skip moves ahead.
func (a *App) Clock() *Clock { return a.clock }

// TempDir returns the temporary directory of the database that Close
// removes, "" when Options.DBPath named the database.
func (a *App) TempDir() string { return a.tmpDir }

// Handler returns the web page and its API.
func (a *App) Handler() http.Handler { return withActivity(a.page, a.Main.Activity()) }

// runTimers runs the bot's due timers every second until ctx ends: real
// time passes in the sandbox too.
func (a *App) runTimers(ctx context.Context) {
	defer close(a.done)
	t := time.NewTicker(sandboxTickEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := a.tick(ctx); err != nil && ctx.Err() == nil {
				a.Main.Logger.Error("sandbox timers", "err", err)
			}
		}
	}
}

// tick runs the bot's due timers until none is left (or maxTickRounds),
// and the tournaments' round opener: a skip reaches a tournament's start
// time and a round's deadline as it reaches a turn's.
func (a *App) tick(ctx context.Context) error {
	a.tickMu.Lock()
	defer a.tickMu.Unlock()
	games := a.Main.Bot().Games()
	for range maxTickRounds {
		n, err := games.Tick(ctx)
		if err != nil {
			return err
		}
		m, err := games.TickTournaments(ctx)
		if err != nil || n+m == 0 {
			return err
		}
	}
	return nil
}

// Close stops the timers, the bot and the fake, and removes the temporary
// database.
func (a *App) Close() error {
	var errs []error
	if a.stop != nil {
		a.stop()
		<-a.done
	}
	if a.Main != nil {
		errs = append(errs, a.Main.Close())
	}
	if a.Fake != nil {
		a.Fake.Close()
	}
	if a.tmpDir != "" {
		errs = append(errs, os.RemoveAll(a.tmpDir))
	}
	return errors.Join(errs...)
}

// ParseUsers reads the -users flag: 1 to 25 distinct names.
func ParseUsers(s string) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if seen[strings.ToLower(n)] {
			return nil, fmt.Errorf("-users names %q twice", n)
		}
		seen[strings.ToLower(n)] = true
		names = append(names, n)
	}
	if len(names) == 0 || len(names) > 25 {
		return nil, fmt.Errorf("-users gives %d names, want 1 to 25", len(names))
	}
	return names, nil
}

// ParseLocales reads the -locale flag: one Discord locale for every user
// ("de"), or NAME=LOCALE pairs ("Alice=de,Bob=es-ES"), or both ("fr,Bob=pl":
// Bob Polish, the others French). The names must be among users.
func ParseLocales(s string, users []string) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, value, named := strings.Cut(part, "=")
		if !named {
			name, value = "", part
		}
		name = strings.TrimSpace(name)
		if named {
			found := ""
			for _, u := range users {
				if strings.EqualFold(u, name) {
					found = u
				}
			}
			if found == "" {
				return nil, fmt.Errorf("-locale names %q, who is not among -users %s", name, strings.Join(users, ","))
			}
			name = found
		}
		if _, twice := out[name]; twice {
			return nil, fmt.Errorf("-locale gives %q twice", part)
		}
		l, err := ParseLocale(value)
		if err != nil {
			return nil, fmt.Errorf("-locale: %v", err)
		}
		out[name] = l
	}
	return out, nil
}

// sandboxCommand is `malefiz sandbox`: the bot against a fake Discord,
// shown on a web page, until SIGINT or SIGTERM.
func sandboxCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("sandbox")
	listen := fs.String("listen", "127.0.0.1:8080", "the address of the web page")
	dbPath := fs.String("db", "", "the SQLite file of the games (default a new file in a temporary directory, removed at exit)")
	usersFlag := fs.String("users", DefaultUsers, "comma-separated names of the users the page can play as")
	localeFlag := fs.String("locale", "en-US", "the users' Discord language: a Discord locale (de, es-ES, fr, it, nl, pl, pt-BR, …) for all, and NAME=LOCALE for one (\"de,Bob=es-ES\"); the page changes it")
	serverLocale := fs.String("server-locale", "en-US", "the server's language, a Discord locale: what the whole channel reads; the page changes it")
	adminFlag := fs.String("admin", "", "the user who is the server's admin, with Manage Server, to try /malefiz settings (default the last of -users)")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "sandbox: %v", err)
	}
	if fs.NArg() > 0 {
		return subcommand.Fail(stderr, "sandbox: unexpected argument %q", fs.Arg(0))
	}
	users, err := ParseUsers(*usersFlag)
	if err != nil {
		return subcommand.Fail(stderr, "sandbox: %v", err)
	}
	locales, err := ParseLocales(*localeFlag, users)
	if err != nil {
		return subcommand.Fail(stderr, "sandbox: %v", err)
	}
	guildLocale, err := ParseLocale(*serverLocale)
	if err != nil {
		return subcommand.Fail(stderr, "sandbox: -server-locale: %v", err)
	}
	if *adminFlag != "" && !slices.ContainsFunc(users, func(u string) bool { return strings.EqualFold(u, *adminFlag) }) {
		return subcommand.Fail(stderr, "sandbox: -admin %q is not among -users %s", *adminFlag, strings.Join(users, ","))
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(stderr, "malefiz: sandbox: %v (try another -listen address)\n", err)
		return 1
	}
	defer ln.Close()
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	app, err := Start(ctx, Options{DBPath: *dbPath, Users: users, Locales: locales,
		ServerLocale: guildLocale, Admin: *adminFlag, Logger: logger})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return 0
		}
		fmt.Fprintf(stderr, "malefiz: sandbox: %v\n", err)
		return 1
	}
	defer app.Close()
	// Event streams last as long as the page is open: cancelling their
	// base context ends them at shutdown.
	streams, endStreams := context.WithCancel(context.Background())
	srv := &http.Server{Handler: app.Handler(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return streams }}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "Malefiz sandbox: open http://%s (Ctrl+C stops it)\n", ln.Addr())
	select {
	case <-ctx.Done():
	case err := <-served:
		fmt.Fprintf(stderr, "malefiz: sandbox: %v\n", err)
		endStreams()
		return 1
	}
	endStreams()
	shutdown, done := context.WithTimeout(context.Background(), 5*time.Second)
	defer done()
	_ = srv.Shutdown(shutdown)
	return 0
}

// authorize stands in for the Discord client's authorize prompt in
// the sandbox: the fake Discord hands a code to the sandbox user the page
// plays as (named by ID or by name, ?user=Alice), which the Activity's server then exchanges as in production.
func authorize(fake *fakediscord.Fake, users []User) func(context.Context, string, []string) (string, error) {
	return func(_ context.Context, userID string, scopes []string) (string, error) {
		for _, u := range users {
			if u.ID == userID || strings.EqualFold(u.Name, userID) {
				return fake.Authorize(fake.AppID, fakediscord.OAuth2User{ID: u.ID, Name: u.Name}, scopes)
			}
		}
		return "", fmt.Errorf("no sandbox user %q", userID)
	}
}

// withActivity serves the Activity under /.proxy/ beside page.
func withActivity(page http.Handler, act http.Handler) http.Handler {
	if act == nil {
		return page
	}
	mux := http.NewServeMux()
	mux.Handle(activity.Prefix, act)
	mux.Handle("/", page)
	return mux
}

// Command is `malefiz sandbox`, the subcommand that serves the sandbox's
// page until SIGINT or SIGTERM.
var Command = subcommand.Command{Summary: "try the bot in the browser: a local fake Discord server, no token needed",
	Synopsis: "malefiz sandbox [-listen ADDR] [-db FILE] [-users NAMES] [-locale LOCALES] [-server-locale LOCALE] [-admin NAME]", Run: sandboxCommand}
