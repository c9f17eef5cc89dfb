// Package activity is Malefiz as a Discord Activity: the page Discord opens
// inside the client, its board drawn live, and the few endpoints it talks
// to under Discord's proxy prefix /.proxy/. It decides nothing: a play
// goes to the game service (package game) as a command, the same
// table and commit as a click in the thread, answered at commit, and every commit of a game
// is pushed to the pages that show it (Hub).
//
// The way in is Discord's: the page calls ready(), authorize (scope
// identify only), sends the code here, where it is exchanged at Discord's
// token endpoint with the client secret and the user read from
// /users/@me with the token; the page gets the access token back for
// authenticate, and a session signed here that names the user. Nothing the
// page says about who it is counts.
package activity

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	textlang "golang.org/x/text/language"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/game"
	"github.com/malefiz-discord/malefiz/render"
)

// Prefix is where the Activity is served: Discord's proxy forwards the
// Activity's requests under it, and the page uses relative URLs only.
const Prefix = "/.proxy/"

//go:embed static
var staticFiles embed.FS

// Games is what the Activity asks of the game service; *game.Service is
// one. A play, a lobby's action and a new lobby are its commands, answered
// at commit: the thread's messages follow from the outbox.
type Games interface {
	Apply(ctx context.Context, cmd game.Command) (*game.Outcome, error)
	Open(ctx context.Context, n game.NewLobby) (*game.Outcome, error)
	Later(o *game.Outcome)
	Live(ctx context.Context, id int64, guild, userID, lang string) (table.Live, error)
	ChannelGames(ctx context.Context, guildID, channelID, userID string) ([]*malefiz.Game, error)
	// RememberLocale keeps the user's Discord locale, as the sign-in
	// gives it, for their direct messages.
	RememberLocale(ctx context.Context, userID, locale string) error
	// Viewed reads a game once for all the pages that show it (the
	// sockets' pushes); it refuses as Live does.
	Viewed(ctx context.Context, id int64, guild string) (*table.Table, error)
	// BoardReview is a finished game as the review on the board shows
	// it, in lang; a game of another guild, none and one not finished
	// are refused alike, as Live refuses.
	BoardReview(ctx context.Context, id int64, guild, lang string) (table.LiveReview, error)
	// ChannelReviews are the finished games of a channel (or of the
	// game whose thread it is), the last finished first.
	ChannelReviews(ctx context.Context, guildID, channelID string) ([]*malefiz.Game, error)
	// TournamentHere is the tournament of a channel (or of the table
	// whose thread it is), read for userID in lang; nil for none.
	TournamentHere(ctx context.Context, guild, channel, userID, lang string) (*game.TournamentBoard, error)
	// TournamentBoard is tournament id read for userID in lang; one of
	// another guild and none are refused alike.
	TournamentBoard(ctx context.Context, id int64, guild, userID, lang string) (*game.TournamentBoard, error)
}

// Channel returns the guild of channel id and whether it is a thread,
// asked of Discord with the bot's token (GET /channels/{channel},
// https://discord.com/developers/docs/resources/channel#get-channel):
// where the page says it was opened must be in the guild it says.
type Channel func(ctx context.Context, id string) (guild string, thread bool, err error)

// Member reports whether userID is a member of guildID, asked of Discord
// with the bot's own token (GET /guilds/{guild}/members/{user},
// https://discord.com/developers/docs/resources/guild#get-guild-member),
// so that the user grants the Activity no scope beyond identify.
type Member func(ctx context.Context, guildID, userID string) (bool, error)

var _ Games = (*game.Service)(nil)

// Config is what a Server needs. Games, Hub, Member, Channel, ClientID
// and ClientSecret are required.
type Config struct {
	Games        Games
	Hub          *Hub
	Member       Member  // whether the user is in the guild the page says it was opened in
	Channel      Channel // the guild of the channel the page says it was opened in
	ClientID     string  // the application's ID
	ClientSecret string  // OAuth2 client secret: the code exchange, and the sessions' key
	APIURL       string  // Discord's base URL; "" means https://discord.com
	HTTPClient   *http.Client
	Logger       *slog.Logger
	Now          func() time.Time
	// Authorize, when set, answers the page's authorize in place of the
	// Discord client (the sandbox's DiscordSDKMock): a code for the user
	// the page plays as. Production leaves it nil.
	Authorize func(ctx context.Context, userID string, scopes []string) (string, error)
	// SandboxGuild and SandboxChannel are where the sandbox's page says
	// it was opened when its address does not.
	SandboxGuild, SandboxChannel string
	// PlaysPerMinute bounds each user's plays and lobby actions; 0
	// means 120.
	PlaysPerMinute int
	// SignInsPerMinute bounds each user's sign-ins (each up to four
	// calls to Discord); 0 means 10. A client address may sign in
	// twenty times as often: inside Discord every request comes from
	// Discord's proxy.
	SignInsPerMinute int
	// ExchangesPerMinute bounds the code exchanges the sign-in asks of
	// Discord, over every user and address together: whoever floods the
	// sign-in cannot spend the application's standing with Discord. 0
	// means 1200 (100 at once: twice what one address may).
	ExchangesPerMinute int
	// TrustedProxies are the reverse proxies in front of the listener:
	// a request from one of them is counted against the client address
	// its X-Forwarded-For names (the rightmost one not itself trusted).
	// From any other address X-Forwarded-For is ignored.
	TrustedProxies []netip.Prefix
	// The live sockets' budget: per session and per user (past it the
	// oldest is closed), and in all (past it a new one is refused); 0
	// means DefaultSocketsPerSession, DefaultSocketsPerUser and
	// DefaultSockets.
	SocketsPerSession, SocketsPerUser, Sockets int
	// NewSocketsPerUser bounds the sockets one user may open a minute, a
	// third of it at once; past it a socket is refused (429,
	// Retry-After) before it is upgraded. The user is known by then: the
	// page offers its session in the upgrade request. No bound of the
	// sockets is per client address: inside Discord every user comes
	// from Discord's proxy, and would share it. 0 means
	// DefaultNewSocketsPerUser.
	NewSocketsPerUser int
	// UnauthenticatedLogs bounds the lines a minute logged of requests
	// without a valid session; 0 means 60.
	UnauthenticatedLogs int
}

// Server serves the Activity below Prefix.
type Server struct {
	cfg      Config
	mux      *http.ServeMux
	sessions sessions
	oauth    oauth
	log      *slog.Logger
	limits   limiter // plays and lobby actions, per user
	signIns  limiter // sign-ins, per user
	addrs    limiter // sign-ins, per client address
	exchange limiter // code exchanges with Discord, all together (key "")
	opens    limiter // sockets opened, per user
	upgrader websocket.Upgrader
	sockets  sockets
	pushes   pushes
	// unauthenticated logs the requests without a valid session, bounded
	unauthenticated quietLog
	// socketsRefused logs the sockets refused past a bound (429, 503),
	// bounded: a crowd reconnecting to a full server would flood it
	socketsRefused quietLog
}

// New returns the Activity's server.
func New(cfg Config) *Server {
	if cfg.APIURL == "" {
		cfg.APIURL = "https://discord.com"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.PlaysPerMinute <= 0 {
		cfg.PlaysPerMinute = 120
	}
	if cfg.SignInsPerMinute <= 0 {
		cfg.SignInsPerMinute = 10
	}
	orDefault := func(n *int, d int) {
		if *n <= 0 {
			*n = d
		}
	}
	orDefault(&cfg.ExchangesPerMinute, 1200)
	orDefault(&cfg.SocketsPerSession, DefaultSocketsPerSession)
	orDefault(&cfg.SocketsPerUser, DefaultSocketsPerUser)
	orDefault(&cfg.Sockets, DefaultSockets)
	orDefault(&cfg.NewSocketsPerUser, DefaultNewSocketsPerUser)
	orDefault(&cfg.UnauthenticatedLogs, 60)
	s := &Server{
		sockets:         sockets{perSession: cfg.SocketsPerSession, perUser: cfg.SocketsPerUser, max: cfg.Sockets},
		pushes:          pushes{games: cfg.Games},
		unauthenticated: quietLog{now: cfg.Now, burst: cfg.UnauthenticatedLogs},
		socketsRefused:  quietLog{now: cfg.Now, burst: 60},
		cfg:             cfg, log: cfg.Logger, sessions: newSessions(cfg.ClientSecret, cfg.Now),
		oauth:   oauth{api: strings.TrimRight(cfg.APIURL, "/"), clientID: cfg.ClientID, secret: cfg.ClientSecret, client: cfg.HTTPClient},
		limits:  limiter{per: time.Minute / time.Duration(cfg.PlaysPerMinute), burst: 20, now: cfg.Now},
		signIns: limiter{per: time.Minute / time.Duration(cfg.SignInsPerMinute), burst: 5, now: cfg.Now},
		addrs:   limiter{per: time.Minute / time.Duration(20*cfg.SignInsPerMinute), burst: 50, now: cfg.Now},
		exchange: limiter{per: time.Minute / time.Duration(cfg.ExchangesPerMinute),
			burst: max(1, cfg.ExchangesPerMinute/12), now: cfg.Now},
		opens: limiter{per: time.Minute / time.Duration(cfg.NewSocketsPerUser),
			burst: max(1, cfg.NewSocketsPerUser/3), now: cfg.Now},
		// The session is offered in the upgrade request, not a cookie:
		// another origin gains nothing from opening a socket. Discord's
		// proxy sends its own origin (discordsays.com). The answer names
		// LiveProtocol only, never the session.
		// The page says one thing (its renewed session): a small read
		// buffer; the write buffers are pooled between pushes.
		upgrader: websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true },
			Subprotocols:   []string{LiveProtocol},
			ReadBufferSize: 512, WriteBufferSize: 4096, WriteBufferPool: new(sync.Pool)},
	}
	static, _ := fs.Sub(staticFiles, "static")
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.servePage)
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	m.HandleFunc("GET /api/config", s.serveConfig)
	m.HandleFunc("GET /api/layout", s.serveLayout)
	m.HandleFunc("POST /api/token", s.serveToken)
	m.HandleFunc("POST /api/session", s.serveSession)
	m.HandleFunc("GET /api/games", s.serveGames)
	m.HandleFunc("GET /api/new", s.serveNewForm)
	m.HandleFunc("POST /api/games", s.serveNewLobby)
	m.HandleFunc("GET /api/games/{id}", s.serveGame)
	m.HandleFunc("POST /api/games/{id}/play", s.servePlay)
	m.HandleFunc("POST /api/games/{id}/lobby", s.serveLobby)
	m.HandleFunc("POST /api/games/{id}/hint", s.serveHint)
	m.HandleFunc("GET /api/games/{id}/live", s.serveLive)
	m.HandleFunc("GET /api/games/{id}/review", s.serveReview)
	m.HandleFunc("GET /api/tournament", s.serveTournamentHere)
	m.HandleFunc("GET /api/tournaments/{id}", s.serveTournament)
	if cfg.Authorize != nil {
		m.HandleFunc("POST /sandbox/authorize", s.serveSandboxAuthorize)
	}
	s.mux = m
	return s
}

// contentSecurity is the page's policy: its own scripts and styles, and
// connections to its own origin (Discord's proxy), sockets included:
// CSP Level 3 lets 'self' match ws: and wss: of the page's own host, and
// the page opens its socket there only.
const contentSecurity = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com"

// ServeHTTP serves the Activity; requests outside Prefix are not found.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, strings.TrimSuffix(Prefix, "/"))
	if !ok || !strings.HasPrefix(rest, "/") { // "/.proxyx" is not below Prefix
		if ok && rest == "" {
			http.Redirect(w, r, Prefix, http.StatusMovedPermanently)
			return
		}
		http.NotFound(w, r)
		return
	}
	if rest == "/static" { // the mux's redirect would drop the prefix
		target := Prefix + "static/"
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusMovedPermanently)
		return
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path, r2.URL.RawPath = rest, ""
	w.Header().Set("Content-Security-Policy", contentSecurity)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r2)
}

func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeFileFS(w, r, staticFiles, "static/index.html")
}

// serveConfig answers what the page needs before it signs in: the
// application's ID (public) and whether the sandbox stands in for the
// client.
func (s *Server) serveConfig(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"clientId": s.cfg.ClientID, "sandbox": s.cfg.Authorize != nil,
		"guild": s.cfg.SandboxGuild, "channel": s.cfg.SandboxChannel,
		"texts": pageTexts(locales.Language(r.URL.Query().Get("locale")))})
}

var layoutJSON = sync.OnceValue(func() []byte {
	b, _ := json.Marshal(render.BoardLayout())
	return b
})

func (s *Server) serveLayout(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "max-age=3600")
	_, _ = w.Write(layoutJSON())
}

// A session lives sessionTTL; the page renews it while it is open (POST
// api/session every sessionRenew, and says the new one on its socket),
// up to sessionMax after the sign-in (a game evening) and never past the
// access token's expiry; then the page signs in again.
const (
	sessionTTL   = 2 * time.Hour
	sessionRenew = 30 * time.Minute
	sessionMax   = 12 * time.Hour
)

// serveToken exchanges the page's authorization code for an access token,
// learns the user from it, and answers the token (for authenticate) with
// a session naming that user, the guild and channel the Activity was
// opened in, and the page's texts in their language. The page says where
// it was opened (the SDK's guildId and channelId); the server believes the
// guild only once Discord says the user is a member there, and every game
// the session reads or plays must be of that guild. A request that cannot
// be a sign-in (too big, not the shape, no code that could be one) is
// refused before anything shared is charged; then sign-ins are limited
// per user (before Discord is asked when the page says who it is with a
// session still valid, else once Discord has named the user), per client
// address (see clientAddr) and, over everyone, the code exchanges: each
// sign-in costs up to four calls to Discord.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	// The cheap checks first: junk is refused before any bucket that
	// others share is charged. Locale is the client's language as the
	// page knows it (the SDK's or the browser's): what a refusal before
	// Discord names the user is in.
	var body struct{ Code, Guild, Channel, Locale string }
	if err := readJSON(w, r, &body); err != nil || !authCode(body.Code) ||
		!snowflake(body.Guild) || !snowflake(body.Channel) {
		s.refuse(w, r, http.StatusBadRequest, requestLang(r, body.Locale), locales.ActivitySignInFailed, "bad token request")
		return
	}
	pre := requestLang(r, body.Locale)
	// A page renewing its sign-in says who it is (its session, still
	// valid): its user's bucket is charged before Discord is asked.
	known := ""
	if prev, err := s.sessions.read(bearer(r)); err == nil {
		known = prev.UserID
		if !s.signInAllowed(w, r, &s.signIns, known, prev.Lang, "sign-ins of "+known) {
			return
		}
	}
	addr := s.clientAddr(r)
	if !s.signInAllowed(w, r, &s.addrs, addr, pre, "sign-ins from "+addr) ||
		!s.signInAllowed(w, r, &s.exchange, "", pre, "code exchanges, over every user") {
		return
	}
	t, err := s.oauth.exchange(r.Context(), body.Code)
	if err != nil {
		s.log.Info("activity sign-in refused", "err", err)
		s.refuse(w, r, http.StatusUnauthorized, pre, locales.ActivitySignInFailed, "")
		return
	}
	u, err := s.oauth.me(r.Context(), t.AccessToken)
	if err != nil {
		s.log.Warn("activity user unknown", "err", err)
		s.refuse(w, r, http.StatusUnauthorized, pre, locales.ActivitySignInFailed, "")
		return
	}
	locale := u.Locale
	if locale == "" {
		locale = body.Locale
	}
	lang := locales.Language(locale)
	if known != u.ID && !s.signInAllowed(w, r, &s.signIns, u.ID, lang, "sign-ins of "+u.ID) {
		return
	}
	thread := false
	if body.Guild != "" {
		member, err := s.cfg.Member(r.Context(), body.Guild, u.ID)
		if err != nil || !member {
			s.log.Info("activity sign-in refused: not a member of the guild the page names",
				"user", u.ID, "guild", body.Guild, "err", err)
			s.refuse(w, r, http.StatusForbidden, lang, locales.ActivitySignInFailed, "")
			return
		}
		var guild string
		if body.Channel != "" {
			guild, thread, err = s.cfg.Channel(r.Context(), body.Channel)
		}
		if body.Channel == "" || err != nil || guild != body.Guild {
			s.log.Info("activity sign-in refused: the channel the page names is not of its guild",
				"user", u.ID, "guild", body.Guild, "channel", body.Channel, "err", err)
			s.refuse(w, r, http.StatusForbidden, lang, locales.ActivitySignInFailed, "")
			return
		}
	}
	if err := s.cfg.Games.RememberLocale(r.Context(), u.ID, u.Locale); err != nil {
		s.log.Warn("could not keep the user's locale", "user", u.ID, "err", err)
	}
	name := u.GlobalName
	if name == "" {
		name = u.Username
	}
	now := s.cfg.Now()
	until := now.Add(min(time.Duration(t.ExpiresIn)*time.Second, sessionMax))
	sess := Session{UserID: u.ID, Name: name, Lang: lang, Guild: body.Guild, Channel: body.Channel, Thread: thread,
		Expires: minTime(now.Add(sessionTTL), until), Until: until}
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": t.AccessToken, "session": s.sessions.sign(sess),
		"user": map[string]string{"id": u.ID, "name": name}, "texts": pageTexts(sess.Lang),
	})
}

// serveSession renews the request's session: the same, expiring
// sessionTTL from now but never past its Until; counted against the
// user's sign-ins. The page calls it every sessionRenew while open.
func (s *Server) serveSession(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.session(w, r)
	if !ok {
		return
	}
	if !s.signInAllowed(w, r, &s.signIns, sess.UserID, sess.Lang, "renewals of "+sess.UserID) {
		return
	}
	if sess.Until.IsZero() {
		sess.Until = sess.Expires
	}
	sess.Expires = minTime(s.cfg.Now().Add(sessionTTL), sess.Until)
	writeJSON(w, http.StatusOK, map[string]any{"session": s.sessions.sign(sess), "expires": sess.Expires})
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// snowflake reports whether id is empty or a Discord ID (digits).
func snowflake(id string) bool {
	if len(id) > 20 {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// session returns the request's session (Authorization: Bearer), or
// answers 401.
func (s *Server) session(w http.ResponseWriter, r *http.Request) (Session, bool) {
	sess, err := s.sessions.read(bearer(r))
	if err != nil {
		s.unauthenticated.log(s.log, "activity request without a valid session", "path", r.URL.Path)
		lang := s.sessions.lang(bearer(r)) // an expired session still says whose language
		if lang == "" {
			lang = requestLang(r, r.URL.Query().Get("locale"))
		}
		s.refuse(w, r, http.StatusUnauthorized, lang, locales.ActivitySignInFailed, "")
		return Session{}, false
	}
	return sess, true
}

// actingSession returns the session of a request that changes a game, or
// answers 401 without one and 429 past the user's limit.
func (s *Server) actingSession(w http.ResponseWriter, r *http.Request) (Session, bool) {
	sess, ok := s.session(w, r)
	if !ok {
		return Session{}, false
	}
	if !s.limits.allow(sess.UserID) {
		s.refuse(w, r, http.StatusTooManyRequests, sess.Lang, locales.ActivityTooFast, "rate limited "+sess.UserID)
		return Session{}, false
	}
	return sess, true
}

// serveGames lists the open games of the Activity's channel, the user's
// first, then its finished games, the last finished first, which the
// page opens as their reviews; each with its players named as the board
// names them. Here marks the game whose thread the Activity was opened
// in.
func (s *Server) serveGames(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.session(w, r)
	if !ok {
		return
	}
	if sess.Guild == "" { // a DM: the games are a guild's
		writeJSON(w, http.StatusOK, []any{})
		return
	}
	games, err := s.cfg.Games.ChannelGames(r.Context(), sess.Guild, sess.Channel, sess.UserID)
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	reviews, err := s.cfg.Games.ChannelReviews(r.Context(), sess.Guild, sess.Channel)
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	type entry struct {
		ID     int64
		Status string
		Seats  []string
		Yours  bool
		Here   bool `json:",omitempty"`
	}
	out := []entry{}
	for _, g := range append(games, reviews...) {
		e := entry{ID: g.ID, Status: string(g.Status), Here: g.ThreadID != "" && g.ThreadID == sess.Channel}
		for _, st := range g.Seats {
			e.Seats = append(e.Seats, table.SeatName(sess.Lang, &st))
			e.Yours = e.Yours || (st.UserID == sess.UserID && !st.Left)
		}
		out = append(out, e)
	}
	writeJSON(w, http.StatusOK, out)
}

// serveNewForm answers the options of /malefiz new in the user's words,
// for the page's form of a new lobby.
func (s *Server) serveNewForm(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.session(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, game.LobbyForm(sess.Lang))
}

// serveNewLobby opens a lobby in the session's channel with the options
// of /malefiz new, checked as the command checks them: the bot commits
// the game, then posts its lobby message in the channel (Bot.NewLobby).
// It answers the game's ID.
func (s *Server) serveNewLobby(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.actingSession(w, r)
	if !ok {
		return
	}
	var values map[string]any
	if readJSON(w, r, &values) != nil || len(values) > 16 {
		s.refuse(w, r, http.StatusBadRequest, sess.Lang, locales.ErrUnknownCommand, "bad new lobby")
		return
	}
	actor := table.Actor{UserID: sess.UserID, Name: sess.Name, Lang: sess.Lang}
	// In a thread the game stays in it; elsewhere it gets a thread of
	// its own when the server plays in threads. No interaction says the
	// server's language: the lobby speaks its host's.
	out, err := s.cfg.Games.Open(r.Context(), game.NewLobby{Guild: sess.Guild, Channel: sess.Channel, User: actor, Lang: sess.Lang,
		Threads: !sess.Thread, Values: values})
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	s.cfg.Games.Later(out)
	writeJSON(w, http.StatusOK, map[string]int64{"ID": out.Table.Game.ID})
}

// gameID reads the {id} of the path.
func gameID(r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	return id, err == nil && id > 0 && id <= table.MaxGameID
}

func (s *Server) serveGame(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.session(w, r)
	if !ok {
		return
	}
	id, ok := gameID(r)
	if !ok {
		s.refuse(w, r, http.StatusNotFound, sess.Lang, locales.ErrNoSuchGame, "bad game id")
		return
	}
	live, err := s.cfg.Games.Live(r.Context(), id, sess.Guild, sess.UserID, sess.Lang)
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	writeJSON(w, http.StatusOK, live)
}

// serveReview answers a finished game's review on the board
// (game.Service.BoardReview), in the user's words: every roll with the
// board before it, the move played and the coach's better one, the
// grades, the chances over the game. A game the session may not read,
// and one not finished, are refused alike.
func (s *Server) serveReview(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.session(w, r)
	if !ok {
		return
	}
	id, ok := gameID(r)
	if !ok {
		s.refuse(w, r, http.StatusNotFound, sess.Lang, locales.ErrNoSuchGame, "bad game id")
		return
	}
	rv, err := s.cfg.Games.BoardReview(r.Context(), id, sess.Guild, sess.Lang)
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	writeJSON(w, http.StatusOK, rv)
}

// serveTournamentHere answers the tournament of the session's channel,
// or of the tournament table whose thread it is
// (game.Service.TournamentHere), in the user's words; null when there is
// none.
func (s *Server) serveTournamentHere(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.session(w, r)
	if !ok {
		return
	}
	b, err := s.cfg.Games.TournamentHere(r.Context(), sess.Guild, sess.Channel, sess.UserID, sess.Lang)
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// serveTournament answers tournament {id} as the page shows it, again
// after every game of it ends (the page asks anew when a poll or a push
// says so). A tournament of another guild than the session's and one that
// does not exist are refused alike.
func (s *Server) serveTournament(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.session(w, r)
	if !ok {
		return
	}
	id, ok := gameID(r)
	if !ok {
		s.refuse(w, r, http.StatusNotFound, sess.Lang, locales.ErrTourUnknown, "bad tournament id")
		return
	}
	b, err := s.cfg.Games.TournamentBoard(r.Context(), id, sess.Guild, sess.UserID, sess.Lang)
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// play is a play the page sends: the action of a turn-message button, the
// turn it is for and its argument (a move FROM-TO, a square).
type play struct {
	Turn   int
	Action string
	Arg    string
}

// servePlay applies a play through the bot's change path: only the mover,
// this turn; a play for an old turn or sent twice is refused, nothing
// changed.
func (s *Server) servePlay(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.actingSession(w, r)
	if !ok {
		return
	}
	id, ok := gameID(r)
	var p play
	if !ok || readJSON(w, r, &p) != nil || len(p.Arg) > table.MaxArgLen || p.Turn < 0 {
		s.refuse(w, r, http.StatusBadRequest, sess.Lang, locales.ErrUnknownButton, "bad play")
		return
	}
	actor := table.Actor{UserID: sess.UserID, Name: sess.Name, Lang: sess.Lang}
	play := game.Play{ID: table.CustomID{Action: table.Action(p.Action), Game: id, Turn: p.Turn, Arg: p.Arg}}
	if _, err := s.cfg.Games.Apply(r.Context(), game.Command{Game: id, Guild: sess.Guild, User: actor, Action: play}); err != nil {
		s.fail(w, r, sess, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// serveLobby applies a lobby action as a command of the game service: join,
// leave, start, or about a computer player (add one of the level Arg
// names; the host removes the one at colour Arg); the lobby decides who
// may.
func (s *Server) serveLobby(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.actingSession(w, r)
	if !ok {
		return
	}
	id, ok := gameID(r)
	var body struct{ Action, Arg string }
	if !ok || readJSON(w, r, &body) != nil || len(body.Arg) > table.MaxArgLen {
		s.refuse(w, r, http.StatusBadRequest, sess.Lang, locales.ErrUnknownButton, "bad lobby action")
		return
	}
	act, ok := lobbyAction(body.Action, body.Arg)
	if !ok {
		s.fail(w, r, sess, table.Refuse(locales.ErrUnknownButton))
		return
	}
	actor := table.Actor{UserID: sess.UserID, Name: sess.Name, Lang: sess.Lang}
	if _, err := s.cfg.Games.Apply(r.Context(), game.Command{Game: id, Guild: sess.Guild, User: actor, Action: act}); err != nil {
		s.fail(w, r, sess, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// The lobby's actions the page sends (serveLobby): its buttons and menu
// in the thread, and the host's removal of a computer.
const (
	LobbyJoin           = "join"
	LobbyLeave          = "leave"
	LobbyStart          = "start"
	LobbyAddComputer    = string(table.ActAddBot) // Arg: the level
	LobbyRemoveComputer = "removebot"             // Arg: the computer's colour
)

// lobbyAction is the command of the lobby action the page names.
func lobbyAction(name, arg string) (game.Action, bool) {
	switch name {
	case LobbyJoin:
		return game.Join{}, true
	case LobbyLeave:
		return game.Leave{}, true
	case LobbyStart:
		return game.Start{}, true
	case LobbyAddComputer:
		return game.AddComputer{Level: arg}, true
	case LobbyRemoveComputer:
		return game.RemoveComputer{Color: arg}, true
	}
	return nil, false
}

// serveHint answers the player to move, and only them, with the hint of
// the turn card's Hint button for the turn the page names: the move the
// computer would play and why (the table decides, and refuses where
// the server's hints are off or it is not their move to choose).
func (s *Server) serveHint(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.actingSession(w, r)
	if !ok {
		return
	}
	id, ok := gameID(r)
	var body struct{ Turn int }
	if !ok || readJSON(w, r, &body) != nil || body.Turn < 0 {
		s.refuse(w, r, http.StatusBadRequest, sess.Lang, locales.ErrUnknownButton, "bad hint")
		return
	}
	actor := table.Actor{UserID: sess.UserID, Name: sess.Name, Lang: sess.Lang}
	o, err := s.cfg.Games.Apply(r.Context(), game.Command{Game: id, Guild: sess.Guild, User: actor, Action: game.BoardHint{Turn: body.Turn}})
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	writeJSON(w, http.StatusOK, o.Table.Advice)
}

// liveWrite bounds a push; livePing keeps the socket open through proxies.
const (
	liveWrite = 5 * time.Second
	livePing  = 30 * time.Second
)

// serveLive pushes the game to the page on every commit, over a
// WebSocket (Discord's proxy passes them): the page offers its session
// in the upgrade request (see LiveProtocols), then reads a Live after each
// change. It may send its renewed session later, which keeps the socket
// open past the first one's expiry; when the session expires the socket
// is closed (4001). Before the upgrade, a socket without a valid session
// is refused (401), one past its user's new sockets a minute (429) or
// past all the live ones (503); past the bound per session or per user,
// the oldest is closed (4008). Each change is read once and serialised
// once per language and viewer for every socket that shows the game (see
// pushes).
func (s *Server) serveLive(w http.ResponseWriter, r *http.Request) {
	id, ok := gameID(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	// refuse answers before the upgrade, the connection closed.
	refuse := func(status int, text string) {
		w.Header().Set("Connection", "close")
		writeJSON(w, status, map[string]string{"error": text})
	}
	token := offeredSession(r.Header.Values("Sec-Websocket-Protocol"))
	sess, err := s.sessions.read(token)
	if err != nil {
		s.unauthenticated.log(s.log, "activity socket without a valid session", "game", id)
		lang := s.sessions.lang(token) // an expired session still says whose language
		if lang == "" {
			lang = requestLang(r, "")
		}
		refuse(http.StatusUnauthorized, locales.Tr(lang, locales.ActivitySignInFailed))
		return
	}
	if ok, wait := s.opens.take(sess.UserID); !ok {
		secs := max(1, int(math.Ceil(wait.Seconds())))
		s.socketsRefused.log(s.log, "activity socket refused: too many new of one user", "game", id, "user", sess.UserID, "retry_after_s", secs)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		refuse(http.StatusTooManyRequests, locales.Tr(sess.Lang, locales.ActivityTooManyBoards, secs))
		return
	}
	admitted, done := s.sockets.admit()
	if !admitted {
		s.socketsRefused.log(s.log, "activity socket refused: too many sockets", "game", id, "user", sess.UserID)
		w.Header().Set("Retry-After", "60")
		refuse(http.StatusServiceUnavailable, locales.Tr(sess.Lang, locales.ActivityBusy))
		return
	}
	defer done()
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered
	}
	defer conn.Close()
	conn.SetReadLimit(4096)
	me, leave := s.sockets.join(sess.UserID, token)
	defer leave()
	changed, gen, end := s.cfg.Hub.watch(id)
	defer func() {
		if end() {
			s.pushes.forget(id)
		}
	}()
	closed := make(chan struct{})
	renewed := make(chan time.Time, 1)
	go func() { // reads until the page goes: a renewed session, else nothing
		defer close(closed)
		for {
			var again renewal
			if err := conn.ReadJSON(&again); err != nil {
				if _, ok := err.(*json.SyntaxError); ok {
					continue
				}
				var ute *json.UnmarshalTypeError
				if errors.As(err, &ute) {
					continue
				}
				return
			}
			if next, err := s.sessions.read(again.Session); err == nil && next.UserID == sess.UserID {
				select {
				case <-renewed:
				default:
				}
				renewed <- next.Expires
			}
		}
	}()
	expiry := time.NewTimer(sess.Expires.Sub(s.cfg.Now()))
	defer expiry.Stop()
	ping := time.NewTicker(livePing)
	defer ping.Stop()
	push := func() bool {
		b, err := s.pushes.live(r.Context(), id, sess.Guild, sess.UserID, sess.Lang, gen)
		if err != nil {
			// A game the session may not read (another guild's, or
			// none) is refused once, in words, and the socket closed
			// (4004); the page does not reconnect.
			text, refused := game.Refusal(err, sess.Lang)
			if !refused {
				if r.Context().Err() == nil {
					s.log.Warn("activity push", "game", id, "err", err)
				}
				return false
			}
			s.log.Info("activity refused", "path", r.URL.Path, "user", sess.UserID, "err", err)
			_ = conn.SetWriteDeadline(time.Now().Add(liveWrite))
			_ = conn.WriteJSON(map[string]string{"error": text})
			closeWith(conn, closeRefused, "refused")
			return false
		}
		_ = conn.SetWriteDeadline(time.Now().Add(liveWrite))
		return conn.WriteMessage(websocket.TextMessage, b) == nil
	}
	if !push() {
		return
	}
	for {
		select {
		case <-closed:
			return
		case <-r.Context().Done():
			return
		case <-me.kick:
			closeWith(conn, closeReplaced, "a newer board took its place")
			return
		case exp := <-renewed:
			expiry.Reset(exp.Sub(s.cfg.Now()))
		case <-expiry.C:
			closeWith(conn, closeSession, "session expired")
			return
		case <-changed:
			gen = s.cfg.Hub.generation(id)
			if !push() {
				return
			}
		case <-ping.C:
			if conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(liveWrite)) != nil {
				return
			}
		}
	}
}

// renewal is what the page says on its socket: its session, renewed.
type renewal struct{ Session string }

// closeWith sends the close frame of code and reason.
func closeWith(conn *websocket.Conn, code int, reason string) {
	_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(liveWrite))
}

// serveSandboxAuthorize stands in for the Discord client's authorize
// prompt in the sandbox: a code for the user the page plays as.
func (s *Server) serveSandboxAuthorize(w http.ResponseWriter, r *http.Request) {
	var body struct {
		User  string
		Scope []string
	}
	if readJSON(w, r, &body) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	code, err := s.cfg.Authorize(r.Context(), body.User, body.Scope)
	if err != nil {
		writeJSON(w, http.StatusForbidden, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"code": code})
}

// fail answers the error of a play or a read: a refusal in the user's
// words (nothing changed, logged at info), or a failure (logged).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, sess Session, err error) {
	text, refused := game.Refusal(err, sess.Lang)
	if refused {
		s.log.Info("activity refused", "path", r.URL.Path, "user", sess.UserID, "err", err)
		writeJSON(w, http.StatusConflict, map[string]string{"error": text})
		return
	}
	if errors.Is(err, context.Canceled) {
		return
	}
	s.log.Error("activity failed", "path", r.URL.Path, "user", sess.UserID, "err", err)
	writeJSON(w, http.StatusInternalServerError, map[string]string{"error": text})
}

// requestLang is the catalog language of a request made before the server
// knows its user: the locale the page gives (the SDK's or the browser's),
// else the first language of the browser's Accept-Language that the bot
// speaks, else English.
func requestLang(r *http.Request, given string) string {
	if given != "" {
		return locales.Language(given)
	}
	tags, _, _ := textlang.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	for _, tag := range tags {
		if lang := locales.Language(tag.String()); lang != locales.Source {
			return lang
		}
		if base, _ := tag.Base(); base.String() == locales.Source {
			return locales.Source
		}
	}
	return locales.Source
}

// refuse answers status with the text of key, and logs why when given.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, lang string, key locales.Key, why string) {
	if why != "" {
		s.log.Info("activity refused", "path", r.URL.Path, "why", why)
	}
	writeJSON(w, status, map[string]string{"error": locales.Tr(lang, key)})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	return json.NewDecoder(r.Body).Decode(v)
}
