package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/activity"
	"github.com/malefiz-discord/malefiz/bot"
	gametable "github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/metrics"
	"github.com/malefiz-discord/malefiz/ratelimit"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// shutdownGrace bounds how long Close waits for the HTTP requests in flight.
const shutdownGrace = 10 * time.Second

// Main is the running bot: configuration in, a Discord session (or one per
// gateway shard), a database, the HTTP listener and the game logic wired
// together. Tests start it in-process.
type Main struct {
	Config Config
	Logger *slog.Logger
	// Bot options that tests set: a fixed die, a fixed draw, a clock.
	Options func(*bot.Config)
	// ManualTimers leaves the timers to the caller's Bot().Tick and the
	// tournaments' round opener to Bot().Games().TickTournaments (tests
	// with a fake clock); normally a scheduler and the opener run them.
	ManualTimers bool
	// ActivityOptions change the Activity's options (the sandbox: its
	// stand-in for the client's authorize).
	ActivityOptions func(*activity.Config)
	// OwnBudget paces the global limit with a bucket of this process's
	// own even on PostgreSQL, as one process on SQLite does: what
	// replicas without the shared budget would send (a test shows the
	// global 429s that the shared budget spares them).
	OwnBudget bool

	db       *store.DB
	rest     *discordgo.Session   // REST only: the bot's calls
	limiter  *ratelimit.Transport // under rest: Discord's limits
	shards   *shardSet            // gateway mode
	bot      *bot.Bot
	metrics  *metrics.Metrics
	listener net.Listener
	server   *http.Server
	served   chan struct{}
	hub      *activity.Hub    // the Activity's pushes; nil when it is off
	activity *activity.Server // the Activity; nil when it is off
	draining chan struct{}    // closed when Close begins: /readyz answers 503
	// committed: the game service committed a change (see Run).
	committed atomic.Bool
	stop      context.CancelFunc
	done      chan struct{}
}

// Run opens the database, connects to Discord (the gateway shards, or the
// interactions endpoint in http mode) and starts answering. It returns once
// every shard of this process is connected, or the endpoint listens and
// the commands are registered; the bot keeps running until Close.
//
// A start that fails leaves no new database behind: a SQLite file that Run
// created is removed again (a bad token, no network), unless the bot
// committed a change in it before the start failed or was stopped (a
// player's lobby, answered by a shard already connected while another
// still connects): what a player saw answered stays.
func (m *Main) Run(ctx context.Context) error {
	fresh := newSQLiteFile(m.Config.Database.Path)
	if err := m.run(ctx); err != nil {
		m.Close()
		if !m.committed.Load() {
			removeUnusedSQLite(fresh)
		}
		return err
	}
	return nil
}

func (m *Main) run(ctx context.Context) error {
	if m.Logger == nil {
		m.Logger = slog.Default()
	}
	m.draining = make(chan struct{})
	db, err := store.Open(ctx, m.Config.Database.Path)
	if err != nil {
		return err
	}
	db.Rate = gametable.Elo // the game table's rating rule, for every finished game
	m.db = db
	m.metrics = metrics.New(metrics.Gauges{GamesRunning: db.RunningGames, OutboxPending: db.PendingEffects,
		DiscordInvalid: func(context.Context) (int, error) { return m.limiter.Invalid(), nil }})

	budget, err := m.sharedBudget(ctx)
	if err != nil {
		return err
	}
	client, plain, err := m.clients(budget)
	if err != nil {
		return err
	}
	if m.rest, err = m.session(client); err != nil {
		return err
	}
	cfg := bot.Config{Store: db, Discord: ratelimit.Session{Session: m.rest}, Renderer: render.New(bot.BoardWidth), Logger: m.Logger,
		Defaults: bot.GameDefaults{Seats: m.Config.Game.Seats, Level: m.Config.Game.ComputerLevel,
			SixAgain: m.Config.Game.SixAgain, SafeRow2: m.Config.Game.SafeRow2,
			Lobbies: gametable.LobbyCaps{PerUser: lobbyCap(m.Config.Game.LobbiesPerUser), PerChannel: lobbyCap(m.Config.Game.LobbiesPerChannel)}},
		CoachOff: !m.Config.Game.Coach, CoachBehind: m.Config.Game.CoachBehind,
		Hooks: bot.Hooks{
			Interaction: func(k bot.InteractionKind, o bot.Outcome, d time.Duration) {
				m.metrics.Interaction(string(k), string(o), d)
			},
			Commit: m.metrics.Commit,
			Render: m.metrics.Render,
		}}
	if m.Options != nil {
		m.Options(&cfg)
	}
	observe := cfg.Hooks.Commit
	cfg.Hooks.Commit = func(d time.Duration, err error) {
		if err == nil {
			m.committed.Store(true)
		}
		if observe != nil {
			observe(d, err)
		}
	}
	m.activityConfig(&cfg)
	m.bot = bot.New(cfg)
	if err := m.startActivity(plain); err != nil {
		return err
	}

	if m.Config.Discord.Interactions == InteractionsGateway {
		m.shards = &shardSet{main: m, client: client}
	}
	if err := m.listen(); err != nil {
		return err
	}
	runCtx, stop := context.WithCancel(context.Background())
	m.stop, m.done = stop, make(chan struct{})
	go func() {
		defer close(m.done)
		var wg sync.WaitGroup
		wg.Go(func() { m.bot.RunSender(runCtx) })
		wg.Go(func() { m.bot.Games().RunCoach(runCtx) })
		wg.Go(func() { m.listenGames(runCtx) }) // activity.go
		if !m.ManualTimers {
			wg.Go(func() { m.bot.Games().RunScheduler(runCtx) })
			wg.Go(func() { m.bot.Games().RunTournaments(runCtx) })
		}
		wg.Wait()
	}()

	if m.Config.Discord.Interactions == InteractionsHTTP {
		app, err := m.rest.Application("@me")
		if err != nil {
			return fmt.Errorf("read the application from Discord: %w", err)
		}
		m.limiter.SetApplicationID(app.ID)
		m.registerCommands(app.ID, app.Name)
		return nil
	}
	return m.shards.open(ctx)
}

// clients returns the HTTP clients of the bot's REST calls: client goes
// through the rate limiter, plain does not (the Activity's OAuth2 calls,
// made with the users' tokens, which count against no limit of the bot's).
//
// The limiter sits above the api_url rewrite, so that it reads Discord's
// paths as discordgo wrote them (a proxy's path prefix is no route of
// Discord's) and a REST proxy in api_url, which keeps limits of its own,
// still gets this process's requests paced; the metrics sit below it and
// count every request sent, each retry included, and each 429 answered.
func (m *Main) clients(budget ratelimit.Budget) (client, plain *http.Client, err error) {
	transport, err := bot.NewAPITransport(m.Config.Discord.APIURL, http.DefaultTransport)
	if err != nil {
		return nil, nil, err
	}
	counted := m.metrics.Transport(transport)
	m.limiter = ratelimit.New(ratelimit.Options{Base: counted, Budget: budget, Rate: m.Config.Discord.GlobalRate,
		Hooks: ratelimit.Hooks{
			Request: m.metrics.LimiterRequest,
			Invalid: func(int) { m.metrics.InvalidRequest() },
			Braked:  m.metrics.Braked,
		}})
	return &http.Client{Transport: m.limiter, Timeout: 20 * time.Second},
		&http.Client{Transport: counted, Timeout: 20 * time.Second}, nil
}

// The shared budget's largest batch and its lease: a round trip per 4
// requests at most, each batch usable for a quarter of a second.
const (
	// BudgetBatch is the most requests one round trip to the database
	// takes from the shared budget.
	BudgetBatch = 4
	// BudgetLease is how long a batch taken from the budget may be used.
	BudgetLease = 250 * time.Millisecond
)

// sharedBudget returns the global limit's budget that the replicas on a
// PostgreSQL database share (sized by BudgetOptions), nil on SQLite or
// with OwnBudget (the limiter's own bucket).
func (m *Main) sharedBudget(ctx context.Context) (ratelimit.Budget, error) {
	if m.OwnBudget {
		return nil, nil
	}
	o := BudgetOptions(m.Config.Discord.GlobalRate)
	b, err := m.db.Budget(ctx, m.Config.Discord.Token, o)
	switch {
	case errors.Is(err, store.ErrNotShared):
		return nil, nil
	case err != nil:
		return nil, err
	}
	m.Logger.Info("the global rate limit is shared in the database", "rate", o.Rate, "batch", o.Batch, "lease", o.Lease)
	return b, nil
}

// BudgetOptions sizes the shared budget for global_rate. Its ceiling
// (store.BudgetOptions.Ceiling) is what one process's bucket allows in a
// second, global_rate plus the burst: 48 at the default 45, of which 35.2
// a second sustained. The batch is an eighth of the ceiling, 1 to
// BudgetBatch, so that a small global_rate is not eaten by the batch (at
// global_rate 7 a batch of 4 left the replicas together 4.8 requests a
// second where one process alone sends 7; a batch of 1 leaves 7.2), while
// the replicas at full use make at most about 12 statements a second.
func BudgetOptions(globalRate float64) store.BudgetOptions {
	ceiling := globalRate + ratelimit.DefaultBurst
	o := store.BudgetOptions{Batch: min(BudgetBatch, max(1, int(ceiling/8))), Lease: BudgetLease}
	o.Rate = (ceiling - float64(o.Batch)) / (1 + o.Lease.Seconds())
	return o
}

// session returns a discordgo session with the bot's token and client.
func (m *Main) session(client *http.Client) (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + m.Config.Discord.Token)
	if err != nil {
		return nil, err
	}
	s.Client = client
	s.Identify.Intents = discordgo.IntentsGuilds
	s.LogLevel = discordgo.LogError
	return s, nil
}

// registerCommands registers the commands and logs the invite URL: once per
// process, in gateway mode by the process that runs shard 0.
func (m *Main) registerCommands(appID, name string) {
	if err := m.bot.RegisterCommands(appID, m.Config.Discord.GuildIDs); err != nil {
		m.Logger.Error("could not register the commands", "err", err)
	}
	m.Logger.Info("connected to Discord", "user", name, "interactions", m.Config.Discord.Interactions,
		"invite", bot.InviteURL(appID))
}

// Bot returns the running bot.
func (m *Main) Bot() *bot.Bot { return m.bot }

// Session returns the discordgo session of the bot's REST calls.
func (m *Main) Session() *discordgo.Session { return m.rest }

// MetricsHandler serves the metrics (/metrics on the HTTP listener).
func (m *Main) MetricsHandler() http.Handler { return m.metrics.Handler() }

// DB returns the database the bot runs on (tests read the games from it).
func (m *Main) DB() *store.DB { return m.db }

// HTTPAddr returns the address the HTTP listener listens on ("" without
// one): the port is known here when [http] listen asked for port 0.
func (m *Main) HTTPAddr() string {
	if m.listener == nil {
		return ""
	}
	return m.listener.Addr().String()
}

// Close stops accepting (the listener closes, /readyz says 503), answers
// the interactions in flight, disconnects the shards, stops the scheduler
// and the outbox's sender, and closes the database. Effects not delivered
// yet stay in the outbox for the next start, or for another replica.
func (m *Main) Close() error {
	var errs []error
	if m.draining != nil {
		select {
		case <-m.draining:
			return nil // closed already
		default:
			close(m.draining)
		}
	}
	if m.server != nil {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		errs = append(errs, m.server.Shutdown(ctx))
		cancel()
		<-m.served
	}
	if m.shards != nil {
		errs = append(errs, m.shards.close())
	}
	if m.stop != nil {
		m.stop()
		<-m.done
	}
	if m.bot != nil {
		m.bot.Wait()
	}
	if m.db != nil {
		errs = append(errs, m.db.Close())
	}
	return errors.Join(errs...)
}
