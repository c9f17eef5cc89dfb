package sandbox

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

//go:embed static
var static embed.FS

// interactionTimeout bounds how long a command or click waits for the
// bot's answer.
const interactionTimeout = 15 * time.Second

// User is a member of the sandbox's server that the page can play as.
type User struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Locale is the user's Discord language (a Discord locale: "de",
	// "es-ES", "pt-BR"), which their interactions carry; "" is en-US. The
	// page changes it.
	Locale string `json:"locale,omitempty"`
	// Admin: the user is the server's admin, with Manage Server in the
	// member permissions of their interactions (AdminPermissions).
	Admin bool `json:"admin,omitempty"`
}

// AdminPermissions are the member permissions of an admin user: a plain
// member's and Manage Server, as Discord sends them in member.permissions.
const AdminPermissions = fakediscord.DefaultMemberPermissions | discordgo.PermissionManageGuild

// Users returns sandbox users with the given names and fixed IDs (the
// same names get the same IDs on every run, so a kept database still
// knows them).
func Users(names ...string) []User {
	out := make([]User, 0, len(names))
	for i, n := range names {
		out = append(out, User{ID: strconv.FormatInt(100000000000000001+int64(i), 10), Name: n})
	}
	return out
}

// Config is what a Server needs.
type Config struct {
	// Fake is the Discord stand-in the bot is connected to.
	Fake *fakediscord.Fake
	// Users are the members the page can play as; at least one.
	Users []User
	// Clock is the bot's clock, which "skip ahead" moves.
	Clock *Clock
	// Tick runs the bot's timers that are due after a skip; nil when the
	// caller runs them otherwise.
	Tick func(ctx context.Context) error
	// Logger receives the errors of the page's requests; nil discards.
	Logger *slog.Logger
}

// Server is the sandbox page and its API. It is an http.Handler.
type Server struct {
	cfg Config
	mux *http.ServeMux

	mu       sync.Mutex
	lines    map[string]string // command line by interaction ID
	locales  map[string]string // each user's Discord locale by user ID
	changed  chan struct{}     // closed when lines, locales or the clock change
	skipping sync.Mutex        // one skip at a time
}

// New returns the sandbox server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Fake == nil {
		return nil, errors.New("sandbox: no fake Discord")
	}
	if len(cfg.Users) == 0 {
		return nil, errors.New("sandbox: no users")
	}
	seen := map[string]bool{}
	locales := map[string]string{}
	for _, u := range cfg.Users {
		if u.ID == "" || u.Name == "" || seen[u.ID] {
			return nil, fmt.Errorf("sandbox: user %+v needs a unique ID and a name", u)
		}
		seen[u.ID] = true
		l := string(discordgo.EnglishUS)
		if u.Locale != "" {
			var err error
			if l, err = ParseLocale(u.Locale); err != nil {
				return nil, fmt.Errorf("sandbox: user %s: %w", u.Name, err)
			}
		}
		locales[u.ID] = l
	}
	if cfg.Clock == nil {
		cfg.Clock = NewClock(nil)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, lines: map[string]string{}, locales: locales, changed: make(chan struct{})}
	files, _ := fs.Sub(static, "static")
	m := http.NewServeMux()
	m.Handle("GET /{$}", http.HandlerFunc(s.servePage))
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(files)))
	m.HandleFunc("GET /events", s.serveEvents)
	m.HandleFunc("GET /api/users", s.serveUsers)
	m.HandleFunc("GET /api/state", s.serveState)
	m.HandleFunc("POST /api/command", s.serveCommand)
	m.HandleFunc("POST /api/click", s.serveClick)
	m.HandleFunc("POST /api/skip", s.serveSkip)
	m.HandleFunc("POST /api/locale", s.serveLocale)
	m.HandleFunc("GET /attachments/{message}/{attachment}/{name}", s.serveAttachment)
	s.mux = m
	return s, nil
}

// ServeHTTP serves the page, its event stream and its API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	page, err := static.ReadFile("static/index.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(page)
}

// serveUsers answers with the users (and their locales), the default
// channel, the server's locale and the locales to choose from: what the
// page needs before it opens the event stream.
func (s *Server) serveUsers(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"users": s.users(), "channel": s.cfg.Fake.ChannelID,
		"guild": s.guildName(), "guild_locale": s.guildLocale(), "locales": Locales()})
}

// user returns the sandbox user with the given ID, with their locale now.
func (s *Server) user(id string) (User, bool) {
	for _, u := range s.cfg.Users {
		if u.ID == id {
			s.mu.Lock()
			u.Locale = s.locales[u.ID]
			s.mu.Unlock()
			return u, true
		}
	}
	return User{}, false
}

// users returns the sandbox users with their locales now.
func (s *Server) users() []User {
	out := make([]User, 0, len(s.cfg.Users))
	for _, u := range s.cfg.Users {
		u, _ = s.user(u.ID)
		out = append(out, u)
	}
	return out
}

// invocation is what the fake needs to know of who acts: the user, their
// locale and their permissions.
func (u User) invocation() fakediscord.Invocation {
	inv := fakediscord.Invocation{User: u.ID, UserName: u.Name, Locale: u.Locale}
	if u.Admin {
		inv.Permissions = AdminPermissions
	}
	return inv
}

// notify wakes the event streams: something the fake does not know
// changed (a command line was recorded, the clock moved).
func (s *Server) notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.changed)
	s.changed = make(chan struct{})
}

// localChange returns a channel closed at the next notify.
func (s *Server) localChange() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// recordLine remembers the command line an interaction ran.
func (s *Server) recordLine(interactionID, line string) {
	s.mu.Lock()
	s.lines[interactionID] = line
	s.mu.Unlock()
	s.notify()
}

// commandLines returns a copy of the recorded command lines.
func (s *Server) commandLines() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.lines))
	for k, v := range s.lines {
		out[k] = v
	}
	return out
}

// serveAttachment serves the bytes of a message's attachment.
func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	m, ok := s.cfg.Fake.Message(r.PathValue("message"))
	if !ok || m.Deleted {
		http.NotFound(w, r)
		return
	}
	for _, a := range m.Attachments {
		if a.ID == r.PathValue("attachment") && a.Filename == r.PathValue("name") {
			if a.ContentType != "" {
				w.Header().Set("Content-Type", a.ContentType)
			}
			w.Header().Set("Cache-Control", "private, max-age=86400, immutable")
			_, _ = w.Write(a.Data)
			return
		}
	}
	http.NotFound(w, r)
}
