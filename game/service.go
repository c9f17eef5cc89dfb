// Package game is the game service: the one application layer of Malefiz,
// behind every front-end. It takes every action a person or a timer can
// take as a typed command (who acts, in which guild, on which game, what
// they ask: see Command and the Action types), and runs it on one path:
// take the game's lock, load the game with what its decisions need in one
// read, let the game's table decide (package bot/table: no I/O), commit the
// new state, its events and the effects it produced in one transaction,
// and return the Outcome: the game as decided, the answer for whoever
// acted, and the committed effects to deliver (package bot/outbox).
//
// The service knows no front-end. The Discord adapter (package bot) turns
// interactions into commands and outcomes into Discord's answers; the
// Activity (package activity) turns HTTP requests and sockets into the
// same commands and pushes what changed. What both show of a game and of
// a new lobby (the options, the seats' names, the advice) comes from here
// and from the table, once.
package game

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/store"
)

// Store is what the service reads and writes: a game with what its
// decisions need, a channel's open games, the log of a finished game, the
// commit of a change, a server's settings and the games' timers.
// *store.DB implements it.
type Store interface {
	LoadGame(ctx context.Context, id int64, users ...string) (*store.Loaded, error)
	Game(ctx context.Context, id int64) (*malefiz.Game, error)
	OpenGames(ctx context.Context, guildID, channelID string) ([]*malefiz.Game, error)
	// FinishedGames returns up to limit finished games of a channel (or
	// of the game whose thread it is), the last finished first.
	FinishedGames(ctx context.Context, guildID, channelID string, limit int) ([]*malefiz.Game, error)
	// HostedLobbies counts the lobbies a user hosts in all of a
	// server's channels.
	HostedLobbies(ctx context.Context, guildID, hostID string) (int, error)
	Events(ctx context.Context, gameID int64) ([]malefiz.Event, error)
	Commit(ctx context.Context, c *store.Commit) error
	GuildSettings(ctx context.Context, guildID string) (malefiz.GuildSettings, error)
	// The timers: the due games claimed for a while, the next timer.
	ClaimDueGames(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]int64, error)
	NextWake(ctx context.Context) (time.Time, bool, error)
	// The coach's grades (see RunCoach).
	Coaching
	// The users' languages (see RememberLocale).
	Locales
}

// Layout makes the front-end's message bodies of the table's effects, at
// commit, so that delivery only sends what it is given: package bot's is
// Discord's Components V2.
type Layout interface {
	// Effect is e, an effect of a change to game sg, as the outbox keeps
	// it; via is the interaction the change answers, if any.
	Effect(via *Via, sg *malefiz.Game, e table.Effect) queue.Effect
	// WithRatings completes the bodies of the result posts efs[i], i in
	// posts, with the rating changes of rated, in lang: the store rates a
	// game inside the commit that finishes it.
	WithRatings(lang string, rated []malefiz.Result, efs []queue.Effect, posts []int) error
}

// Via is the Discord interaction a command answers, as plain data: the
// next turn card may go as its follow-up, and an answer may be adopted as
// one of the game's messages.
type Via struct {
	App, Token string // the application and the interaction's token
	ID         string // the interaction's ID (a snowflake: when it was made)
	Channel    string // where it was made
	Click      bool   // a button or a select menu
}

// Defaults are the settings of a new game when its command does not say.
type Defaults struct {
	Seats    int    // seats offered in a lobby, 2 to 4
	Level    string // level of computer players added to a lobby
	SixAgain bool   // house rule six-again
	SafeRow2 bool   // house rule safe-row-2
	// Lobbies bounds the open lobbies, per host in all of a server's
	// channels and per channel (see table.LobbyCaps); 0 means DefaultLobbiesPerUser and
	// DefaultLobbiesPerChannel, less than 0 no bound.
	Lobbies table.LobbyCaps
}

// The bounds on a channel's open lobbies where Defaults.Lobbies says
// nothing.
const (
	DefaultLobbiesPerUser    = 3
	DefaultLobbiesPerChannel = 10
)

// Config is what a Service needs. Store, Outbox and Layout are required.
type Config struct {
	Store  Store
	Outbox queue.Outbox
	Layout Layout
	// Dice rolls for the players; nil means a fair random die.
	Dice engine.Dice
	// Draw returns a number in [0, n): who begins, and computer seeds;
	// nil means math/rand/v2.
	Draw func(n int) int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Defaults for new games.
	Defaults Defaults
	// Owner names this process in the store's claims and commits; ""
	// means the host name and process ID.
	Owner string
	// Activity: the Activity is served; the cards offer Play on the board.
	Activity bool
	// CoachOff turns the coach off: no move is graded (RunCoach returns
	// at once).
	CoachOff bool
	// CoachBehind is how long a game may wait for the coach before its
	// waiting rolls are skipped, not graded (see RunCoach); 0 means
	// DefaultCoachBehind.
	CoachBehind time.Duration
	// Logger logs what fails in the background (the timers, the
	// coach); nil means slog.Default().
	Logger *slog.Logger
	// Observe, when set, is told how long each commit took and how it
	// ended (metrics).
	Observe func(start time.Time, err error)
	// Tournaments keeps the servers' tournaments; nil means Store, when
	// it keeps them too (*store.DB does).
	Tournaments Tournaments
}

// Service runs the commands of every front-end. Create it with New.
type Service struct {
	db       Store
	out      queue.Outbox
	layout   Layout
	dice     engine.Dice
	draw     func(n int) int
	now      func() time.Time
	defaults Defaults
	owner    string
	activity bool
	observe  func(start time.Time, err error)

	log   *slog.Logger
	coach *coach // grades the people's moves in the background

	locks    queue.KeyedLocks // one command at a time per game
	inflight sync.WaitGroup   // deliveries left running after an answer

	wakeScheduler chan struct{} // the scheduler looks at the deadlines again
	// schedulerNext is when the scheduler looks next (Unix ms; 0: soon, or
	// not known): a timer after it needs no wake-up.
	schedulerNext atomic.Int64
	skip          skipList     // games whose timer panicked, skipped for a while
	locales       knownLocales // the users' locales stored lately
	reviews       reviews      // the reviews on the board made of games graded whole

	tdb             Tournaments   // the tournaments; nil: none kept
	wakeTournaments chan struct{} // the round opener looks at the tournaments again
}

// New returns the Service of cfg.
func New(cfg Config) *Service {
	s := &Service{db: cfg.Store, out: cfg.Outbox, layout: cfg.Layout, dice: cfg.Dice, draw: cfg.Draw, now: cfg.Now,
		defaults: cfg.Defaults, owner: cfg.Owner, activity: cfg.Activity, observe: cfg.Observe,
		log: cfg.Logger, wakeScheduler: make(chan struct{}, 1), tdb: cfg.Tournaments, wakeTournaments: make(chan struct{}, 1)}
	if s.tdb == nil {
		s.tdb, _ = cfg.Store.(Tournaments)
	}
	if s.defaults.Lobbies.PerUser == 0 {
		s.defaults.Lobbies.PerUser = DefaultLobbiesPerUser
	}
	if s.defaults.Lobbies.PerChannel == 0 {
		s.defaults.Lobbies.PerChannel = DefaultLobbiesPerChannel
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.dice == nil {
		s.dice = engine.DiceFunc(func() int { return rand.IntN(6) + 1 })
	}
	if s.draw == nil {
		s.draw = rand.IntN
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.owner == "" {
		s.owner = queue.DefaultOwner()
	}
	s.coach = newCoach(cfg.Store, s.log, cfg.Outbox, cfg.Layout, cfg.CoachOff, s.owner)
	if cfg.CoachBehind > 0 {
		s.coach.stale = cfg.CoachBehind
	}
	if s.defaults.Seats < 2 || s.defaults.Seats > 4 {
		s.defaults.Seats = 4
	}
	if s.defaults.Level == "" {
		s.defaults.Level = "normal"
	}
	if s.observe == nil {
		s.observe = func(time.Time, error) {}
	}
	return s
}

// Owner names this process in the store's claims and in the changes it
// commits (store.Commit.Owner): a replica listening for changes skips its
// own.
func (s *Service) Owner() string { return s.owner }

// Defaults are the settings of a new game when its command does not say.
func (s *Service) Defaults() Defaults { return s.defaults }

// Wait blocks until the deliveries left running by Apply are done.
func (s *Service) Wait() { s.inflight.Wait() }
