package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// Main is the running bot: configuration in, a Discord session, a database
// and the game logic wired together. Tests start it in-process.
type Main struct {
	Config Config
	Logger *slog.Logger
	// Bot options that tests set: a fixed die, a fixed draw, a clock.
	Options func(*bot.Config)
	// ManualTimers leaves the timers to the caller's Bot().Tick (tests with
	// a fake clock); normally a scheduler runs them.
	ManualTimers bool

	db      *store.DB
	session *discordgo.Session
	bot     *bot.Bot
	ready   chan struct{}
	once    sync.Once
	stop    context.CancelFunc
	done    chan struct{}
}

// Run opens the database, connects to Discord and starts answering. It
// returns once the gateway connection is up; the bot keeps running until Close.
func (m *Main) Run(ctx context.Context) error {
	if m.Logger == nil {
		m.Logger = slog.Default()
	}
	m.ready = make(chan struct{})
	db, err := store.Open(ctx, m.Config.Database.Path)
	if err != nil {
		return err
	}
	m.db = db

	transport, err := bot.NewAPITransport(m.Config.Discord.APIURL, http.DefaultTransport)
	if err != nil {
		db.Close()
		return err
	}
	s, err := discordgo.New("Bot " + m.Config.Discord.Token)
	if err != nil {
		db.Close()
		return err
	}
	s.Client = &http.Client{Transport: transport, Timeout: 20 * time.Second}
	s.Identify.Intents = discordgo.IntentsGuilds
	s.LogLevel = discordgo.LogError
	m.session = s

	cfg := bot.Config{Store: db, Discord: s, Renderer: render.New(bot.BoardWidth), Logger: m.Logger,
		Defaults: bot.GameDefaults{Seats: m.Config.Game.Seats, Level: m.Config.Game.ComputerLevel,
			SixAgain: m.Config.Game.SixAgain, SafeRow2: m.Config.Game.SafeRow2}}
	if m.Options != nil {
		m.Options(&cfg)
	}
	m.bot = bot.New(cfg)
	s.AddHandler(m.onReady)
	s.AddHandler(m.bot.HandleInteraction)
	if err := s.Open(); err != nil {
		db.Close()
		return fmt.Errorf("connect to Discord: %w", err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	m.stop, m.done = stop, make(chan struct{})
	go func() {
		defer close(m.done)
		var wg sync.WaitGroup
		wg.Go(func() { m.bot.RunSender(runCtx) })
		if !m.ManualTimers {
			wg.Go(func() { m.bot.RunScheduler(runCtx) })
		}
		wg.Wait()
	}()
	select {
	case <-m.ready:
		return nil
	case <-ctx.Done():
		m.Close()
		return ctx.Err()
	}
}

// Bot returns the running bot.
func (m *Main) Bot() *bot.Bot { return m.bot }

// onReady registers the commands and logs the invite URL once connected.
func (m *Main) onReady(s *discordgo.Session, r *discordgo.Ready) {
	appID := r.User.ID
	if r.Application != nil && r.Application.ID != "" {
		appID = r.Application.ID
	}
	if err := m.bot.RegisterCommands(appID, m.Config.Discord.GuildIDs); err != nil {
		m.Logger.Error("could not register the commands", "err", err)
	}
	m.Logger.Info("connected to Discord", "user", r.User.Username, "invite", bot.InviteURL(appID))
	m.once.Do(func() { close(m.ready) })
}

// Close disconnects, lets the interactions in flight finish, stops the
// scheduler and the outbox's sender, and closes the database. Effects not
// delivered yet stay in the outbox for the next start.
func (m *Main) Close() error {
	var errs []error
	if m.session != nil {
		errs = append(errs, m.session.Close())
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

// runCommand is `malefiz run`: the bot, until SIGINT or SIGTERM.
func runCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run")
	configPath := fs.String("config", "", "the TOML configuration file (default malefiz.toml if present)")
	if err := fs.Parse(args); err != nil {
		return fail(stderr, "run: %v", err)
	}
	if fs.NArg() > 0 {
		return fail(stderr, "run: unexpected argument %q", fs.Arg(0))
	}
	cfg, err := LoadConfig(*configPath, os.Getenv)
	if err != nil {
		return fail(stderr, "%s", oneLine(err))
	}
	logger := cfg.Logger(os.Stderr)
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	m := &Main{Config: cfg, Logger: logger}
	if err := m.Run(ctx); err != nil {
		if errors.Is(err, context.Canceled) {
			return 0
		}
		logger.Error("could not start", "err", err)
		return 1
	}
	<-ctx.Done()
	logger.Info("shutting down")
	if err := m.Close(); err != nil {
		logger.Error("shutdown", "err", err)
		return 1
	}
	return 0
}

// oneLine joins a multi-error into one line.
func oneLine(err error) string {
	s := err.Error()
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, ';', ' ')
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}
