package fakediscord

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// ErrClosed is returned by the waiting methods of a Fake that was closed.
var ErrClosed = errors.New("fakediscord: fake closed")

// DefaultAppPermissions are the bot's permissions in a channel unless
// SetPermissions says otherwise: what the bot's invite asks for plus what
// @everyone usually has.
const DefaultAppPermissions int64 = discordgo.PermissionViewChannel |
	discordgo.PermissionSendMessages |
	discordgo.PermissionEmbedLinks |
	discordgo.PermissionAttachFiles |
	discordgo.PermissionReadMessageHistory |
	discordgo.PermissionAddReactions |
	discordgo.PermissionUseExternalEmojis |
	discordgo.PermissionCreatePublicThreads |
	discordgo.PermissionSendMessagesInThreads

// DefaultMemberPermissions are the permissions of an invoking member unless
// the Invocation says otherwise: a plain member, no moderation rights.
const DefaultMemberPermissions int64 = DefaultAppPermissions |
	discordgo.PermissionCreateInstantInvite |
	discordgo.PermissionChangeNickname |
	discordgo.PermissionUseApplicationCommands

// Guild configures a guild the bot is in. The fake announces it in READY
// and with a GUILD_CREATE dispatch.
type Guild struct {
	ID       string   // snowflake; generated when empty
	Name     string   // "Fake Guild" when empty
	Locale   string   // preferred_locale, "en-US" when empty
	Channels []string // text channel IDs; one is generated when empty
	Members  []Member // its members besides the bot (see AddMember)
}

// Option configures a Fake.
type Option func(*config)

type config struct {
	guilds           []Guild
	heartbeat        time.Duration
	callbackDeadline time.Duration
	privileged       discordgo.Intent
	appFlags         int
	nonceWindow      time.Duration
	shards           int
	maxConcurrency   int
	guildsPerShard   int
	key              ed25519.PrivateKey
	endpoints        []string
	clock            func() time.Time
	responseDelay    *time.Duration
	limits           Limits
	limitClock       func() time.Time
}

// WithGuild adds a guild the bot is in. The first guild becomes the
// default of an Invocation (Fake.GuildID) and its first channel the
// default channel (Fake.ChannelID). Without WithGuild the fake makes up one
// guild with one channel.
func WithGuild(g Guild) Option {
	return func(c *config) { c.guilds = append(c.guilds, g) }
}

// WithHeartbeat sets the heartbeat interval sent in HELLO (default
// 41.25 s, Discord's usual value).
func WithHeartbeat(d time.Duration) Option {
	return func(c *config) { c.heartbeat = d }
}

// WithCallbackDeadline sets how long after its dispatch an interaction can
// be answered (default 3 s, as on Discord); a later callback gets 404
// "Unknown interaction". Zero means no deadline.
func WithCallbackDeadline(d time.Duration) Option {
	return func(c *config) { c.callbackDeadline = d }
}

// WithPrivilegedIntents allows the given privileged intents (guild
// members, presences, message content), as if enabled in the developer
// portal. Without it an IDENTIFY asking for one is closed with 4014
// "Disallowed intent(s)".
func WithPrivilegedIntents(i discordgo.Intent) Option {
	return func(c *config) { c.privileged |= i }
}

// WithApplicationFlags sets the application flags sent in READY.
func WithApplicationFlags(flags int) Option {
	return func(c *config) { c.appFlags = flags }
}

// WithNonceWindow sets how long a message nonce sent with
// "enforce_nonce": true keeps a second create with the same nonce in the
// same channel from making a new message (default 2 minutes; Discord
// documents "a few minutes").
func WithNonceWindow(d time.Duration) Option {
	return func(c *config) { c.nonceWindow = d }
}

// WithClock sets the clock the fake measures a thread's inactivity by
// (default time.Now): a thread archives itself once its
// auto_archive_duration has passed on this clock since its last message,
// as on Discord ("the thread will stop showing in the channel list after
// auto_archive_duration minutes of inactivity",
// developers/resources/channel.mdx, thread metadata). A sandbox whose
// clock can skip ahead passes its clock's Now.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.clock = now }
}

// Fake is a fake Discord: REST API and gateway on 127.0.0.1. All methods
// are safe for concurrent use. The exported fields are set by New and must
// not be changed.
type Fake struct {
	AppID     string // the application's ID, also the bot user's ID
	GuildID   string // default guild of an Invocation
	ChannelID string // default channel of an Invocation
	UserID    string // default invoking user of an Invocation

	cfg    config
	token  string
	srv    *http.Server
	ln     net.Listener
	url    string // http://127.0.0.1:port
	connMu sync.Mutex
	conns  map[net.Conn]http.ConnState // the server's connections, not hijacked ones
	mux    *http.ServeMux
	guilds []Guild
	wg     sync.WaitGroup // gateway connections

	mu           sync.Mutex
	changed      chan struct{} // closed and replaced on every change
	closed       bool
	calls        []Call
	messages     map[string]*Message
	order        []string                // message IDs in creation order
	nonces       map[nonceKey][]*Message // channel messages by nonce, in creation order
	byChannel    map[string][]*Message   // messages of each channel in creation order
	interactions map[string]*interaction // by token
	commands     map[string][]command    // by guild ID, "" for global
	faults       []*fault
	hooks        []*hook
	perms        map[string]int64             // bot permissions by channel
	channelGuild map[string]string            // guild of each known channel
	chans        map[string]*channel          // threads and DM channels by ID
	chanOrder    []string                     // their IDs in creation order
	dmByUser     map[string]string            // DM channel by recipient
	dmClosed     map[string]bool              // users whose DMs are closed
	guildLocales map[string]string            // preferred_locale changed by SetGuildLocale
	members      map[string]map[string]member // guild members by guild and user (members.go)
	gw           gateway
	web          webhookDelivery
	oauth        oauth2  // an Activity's codes and tokens (oauth2.go)
	lim          limiter // Discord's limits (limits.go)
}

// TB is what New needs of a test: *testing.T, *testing.B and testing.TB
// have it. The fake declares it so that a program serving the fake (the
// sandbox) does not link the testing package.
type TB interface {
	Helper()
	Cleanup(func())
	Logf(format string, args ...any)
}

// New starts a fake Discord and closes it when the test ends. At the end
// it logs the calls it did not know (see Unexpected).
func New(tb TB, opts ...Option) *Fake {
	tb.Helper()
	f := Start(opts...)
	tb.Cleanup(func() {
		f.Close()
		for _, c := range f.Unexpected() {
			tb.Logf("fakediscord: unexpected call %s %s answered 404", c.Method, c.Path)
		}
	})
	return f
}

// Start starts a fake Discord. The caller must Close it.
func Start(opts ...Option) *Fake {
	cfg := config{
		heartbeat: 41250 * time.Millisecond, callbackDeadline: 3 * time.Second, nonceWindow: 2 * time.Minute,
		shards: 1, maxConcurrency: 1, limits: DefaultLimits(),
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.clock == nil {
		cfg.clock = time.Now
	}
	if cfg.limitClock == nil {
		cfg.limitClock = time.Now
	}
	if cfg.key == nil {
		_, cfg.key, _ = ed25519.GenerateKey(nil)
	}
	f := &Fake{
		AppID:        newID(),
		UserID:       newID(),
		cfg:          cfg,
		token:        newToken("fake."),
		changed:      make(chan struct{}),
		messages:     make(map[string]*Message),
		nonces:       make(map[nonceKey][]*Message),
		byChannel:    make(map[string][]*Message),
		interactions: make(map[string]*interaction),
		commands:     make(map[string][]command),
		perms:        make(map[string]int64),
		channelGuild: make(map[string]string),
		chans:        make(map[string]*channel),
		dmByUser:     make(map[string]string),
		dmClosed:     make(map[string]bool),
		guildLocales: make(map[string]string),
		members:      make(map[string]map[string]member),
		gw:           newGateway(),
		web:          webhookDelivery{endpoints: cfg.endpoints},
	}
	guilds := cfg.guilds
	if len(guilds) == 0 {
		guilds = []Guild{{}}
	}
	for _, g := range guilds {
		if g.ID == "" {
			g.ID = newID()
		}
		if g.Name == "" {
			g.Name = "Fake Guild"
		}
		if g.Locale == "" {
			g.Locale = string(discordgo.EnglishUS)
		}
		if len(g.Channels) == 0 {
			g.Channels = []string{newID()}
		}
		g.Channels = append([]string(nil), g.Channels...)
		for _, c := range g.Channels {
			f.channelGuild[c] = g.ID
		}
		f.members[g.ID] = map[string]member{}
		for _, m := range g.Members {
			f.members[g.ID][m.ID] = member{Member: m, joined: cfg.clock()}
		}
		g.Members = nil // kept in f.members, which AddMember changes
		f.guilds = append(f.guilds, g)
	}
	if cfg.appFlags&ApplicationFlagEmbedded != 0 {
		f.seedEntryPointLocked() // Discord's "Launch" (entrypoint.go)
	}
	f.GuildID = f.guilds[0].ID
	f.ChannelID = f.guilds[0].Channels[0]
	f.mux = f.routes()
	// A listener of our own, not net/http/httptest's server: the sandbox
	// serves the fake from the production binary.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic("fakediscord: listen on 127.0.0.1: " + err.Error())
	}
	f.ln, f.url, f.conns = ln, "http://"+ln.Addr().String(), map[net.Conn]http.ConnState{}
	f.srv = &http.Server{Handler: http.HandlerFunc(f.serve), ReadHeaderTimeout: time.Minute, ConnState: f.trackConn}
	go func() { _ = f.srv.Serve(ln) }()
	return f
}

// Token returns the bot token the fake accepts, without the "Bot " prefix.
func (f *Fake) Token() string { return f.token }

// URL returns the base URL of the fake's REST API, to configure as the
// bot's api_url: requests go to URL()+"/api/v9/...".
func (f *Fake) URL() string { return f.url }

// GatewayURL returns the websocket URL that GET /gateway answers with.
func (f *Fake) GatewayURL() string {
	return "ws" + strings.TrimPrefix(f.url, "http") + "/ws"
}

// Guilds returns the guilds the bot is in, with their locales as
// SetGuildLocale left them.
func (f *Fake) Guilds() []Guild {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Guild, len(f.guilds))
	copy(out, f.guilds)
	for i := range out {
		if l := f.guildLocales[out[i].ID]; l != "" {
			out[i].Locale = l
		}
	}
	return out
}

// SetGuildLocale changes a guild's preferred locale, as its owner does in
// the server settings (Community → Overview → Server Primary Language):
// the interactions that follow carry it as guild_locale, and the bot gets
// a GUILD_UPDATE with the new preferred_locale. The locale must
// be one Discord offers (discordgo.Locales: "de", "es-ES", "pt-BR", …).
func (f *Fake) SetGuildLocale(guild, locale string) error {
	if _, ok := discordgo.Locales[discordgo.Locale(locale)]; !ok || locale == "" {
		return fmt.Errorf("%w: %q is not a Discord locale", ErrInvocation, locale)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.guild(guild); !ok {
		return fmt.Errorf("%w: the bot is not in guild %s", ErrInvocation, guild)
	}
	f.guildLocales[guild] = locale
	g, _ := f.guild(guild)
	f.guildEventLocked(guild, "GUILD_UPDATE", f.wireGuildLocked(g))
	f.notifyLocked()
	return nil
}

// Close closes the gateway connections and the server, and makes waiting
// methods return ErrClosed. Closing twice is harmless.
func (f *Fake) Close() {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	f.closed = true
	conns := f.gw.connList()
	f.notifyLocked()
	f.mu.Unlock()
	for _, c := range conns {
		c.closeWith(closeGoingAway, "fake closed")
	}
	// As httptest's Close did: no new connection, the ones without a
	// request closed at once (Shutdown would give them 5 s), the requests
	// in flight answered, then whatever is left closed.
	_ = f.ln.Close()
	f.srv.SetKeepAlivesEnabled(false)
	f.connMu.Lock()
	for c, s := range f.conns {
		if s == http.StateNew || s == http.StateIdle {
			_ = c.Close()
		}
	}
	f.connMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = f.srv.Shutdown(ctx)
	cancel()
	_ = f.srv.Close()
	f.wg.Wait()
}

// trackConn keeps the state of the server's connections for Close.
func (f *Fake) trackConn(c net.Conn, s http.ConnState) {
	f.connMu.Lock()
	defer f.connMu.Unlock()
	if s == http.StateHijacked || s == http.StateClosed {
		delete(f.conns, c)
		return
	}
	f.conns[c] = s
}

// now returns the time on the fake's clock (WithClock).
func (f *Fake) now() time.Time { return f.cfg.clock() }

// notifyLocked wakes everyone waiting for a change. f.mu must be held.
func (f *Fake) notifyLocked() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// guildOfLocked returns the guild of a channel, or "" when unknown. f.mu
// must be held.
func (f *Fake) guildOfLocked(channel string) string {
	return f.channelGuild[channel]
}

// guild returns the configured guild with the given ID.
func (f *Fake) guild(id string) (Guild, bool) {
	for _, g := range f.guilds {
		if g.ID == id {
			return g, true
		}
	}
	return Guild{}, false
}

// guildLocaleLocked returns a guild's preferred locale now. f.mu must be
// held.
func (f *Fake) guildLocaleLocked(g Guild) string {
	if l := f.guildLocales[g.ID]; l != "" {
		return l
	}
	return g.Locale
}
