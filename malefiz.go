// Package malefiz holds the domain types of the Malefiz bot, the words the
// game table (bot/table), the Discord adapter (bot) and the store share: a
// game as it is kept, its seats, events and statuses, the roles of its
// messages, and the settings of servers and users. It has no behaviour
// beyond small predicates, and imports nothing of the project.
package malefiz

import "time"

// Status is where a game is in its life.
type Status string

// The statuses of a game. Lobby and running games are open: a channel has at
// most one open game.
const (
	StatusLobby     Status = "lobby"
	StatusRunning   Status = "running"
	StatusFinished  Status = "finished"
	StatusCancelled Status = "cancelled"
)

// Open reports whether the game is in its lobby or running.
func (s Status) Open() bool { return s == StatusLobby || s == StatusRunning }

// Event kinds the bot records. The store accepts any non-empty kind.
const (
	EventJoin    = "join"    // a player or computer took a seat
	EventLeave   = "leave"   // a player left the lobby
	EventStart   = "start"   // the game started; Data says who begins
	EventRoll    = "roll"    // Data: the number rolled, e.g. "4"
	EventMove    = "move"    // Data: the move in notation, e.g. "c1-e3/h11"
	EventPlace   = "place"   // a captured barricade placed; Data: the square
	EventPass    = "pass"    // no legal move
	EventTimeout = "timeout" // the turn timed out and was played for the player
	EventRemind  = "remind"  // the reminder was sent
	EventReplace = "replace" // a player was replaced by a computer
	EventResign  = "resign"  // a player left the running game
	EventWin     = "win"     // the game was won
	EventCancel  = "cancel"  // the game was cancelled
)

// Options are the rules and settings chosen when the game was created. They
// are stored as JSON, so fields can be added without a migration.
type Options struct {
	// Seats is the number of seats offered in the lobby (2 to 4).
	Seats int `json:"seats,omitempty"`
	// TurnTimeout is how long a player has for a turn; 0 means the guild's
	// default.
	TurnTimeout time.Duration `json:"turn_timeout,omitempty"`
	// SixAgain: a six gives another roll.
	SixAgain bool `json:"six_again,omitempty"`
	// SafeRow2: no barricade may be placed on row 2.
	SafeRow2 bool `json:"safe_row_2,omitempty"`
	// Roll is how the die is rolled for a person: "auto" (the turn
	// arrives rolled) or "button" ("" for games made before the option).
	Roll string `json:"roll,omitempty"`
	// RematchOf is the game this one is a rematch of (0 for none).
	RematchOf int64 `json:"rematch_of,omitempty"`
	// CancelVote, while open, is the host's request to cancel the running
	// game, which the other players answer.
	CancelVote *CancelVote `json:"cancel_vote,omitempty"`
}

// CancelVote is a host's request to cancel a running game without a
// result: it needs every other human player's agreement before Until.
type CancelVote struct {
	By     string    `json:"by"`               // the host who asked
	Until  time.Time `json:"until"`            // when the vote closes
	Agreed []string  `json:"agreed,omitempty"` // who agreed so far
}

// Game is one game of a channel, from its lobby to its end.
type Game struct {
	ID        int64  // set by CreateGame
	GuildID   string // Discord guild (server) ID; fixed at creation
	ChannelID string // Discord channel or thread ID; fixed at creation
	HostID    string // Discord user ID of the host
	Status    Status
	Options   Options
	// State is the engine's serialization of the game; opaque to the store.
	State []byte
	// Version counts the writes to the game: 1 after CreateGame, bumped by
	// every successful UpdateGame or FinishGame.
	Version int64
	// LastSeq is the sequence number of the game's newest event (0 for
	// none); maintained by the store.
	LastSeq int64
	// The game's Discord messages. CreateGame stores them; after that they
	// are recorded with SetMessageID (by the delivery that created the
	// message) and UpdateGame leaves them as they are, so that a write
	// computed before a delivery cannot undo it.
	LobbyMessageID string // Discord message of the lobby
	TurnMessageID  string // Discord message of the current turn
	// ThreadID is the thread the game plays in, once made (Discord gives a
	// thread started from a message the message's ID); "" plays in the
	// channel. ReminderMessageID is the current turn's reminder.
	ThreadID          string
	ReminderMessageID string
	Locale            string // language of messages the whole channel sees
	// Threaded is fixed at creation: the game plays in a thread of its own,
	// so the channel may hold other open games; a channel has at most one
	// open game that is not threaded.
	Threaded bool

	// Timers; the zero time means none.
	Deadline     time.Time // the current turn's deadline
	RemindAt     time.Time // when the player to move gets the reminder
	ReminderSent bool      // the reminder of the current turn went out
	// WakeAt is the earliest pending timer of the game (turn deadline,
	// reminder, lobby expiry), set by the caller: DueGames returns the game
	// once it has passed. Cleared by the store when the game ends.
	WakeAt time.Time

	Seats []Seat // in joining order

	// A tournament's game: the tournament, the round (1, 2, …) and the
	// table of the round (1, 2, …) it plays; fixed at creation, 0 for a
	// game outside a tournament. Creating it records it as the table's
	// game (see TournamentTable.GameID), and its seats are the table's in
	// the table's order.
	TournamentID    int64
	TournamentRound int
	TournamentTable int

	CreatedAt  time.Time // set by CreateGame
	UpdatedAt  time.Time // set by every write
	FinishedAt time.Time // set when the game finishes or is cancelled
}

// Seat is one place at a game's table.
type Seat struct {
	Color    string // "red", "green", "yellow" or "blue"
	UserID   string // Discord user ID; "" for a seat a computer took from the start
	Name     string // display name when the player joined
	Computer string // "" for a human, else the computer's level, e.g. "easy"; a human replaced by the computer keeps UserID
	Timeouts int    // consecutive turns that timed out
	Left     bool   // resigned or left
	// Acted is when the seat's player last acted in the game (a click or
	// a command); zero for never. A turn message for a player who acted
	// a few minutes ago is sent @silent.
	Acted time.Time
}

// TournamentStatus is where a tournament is in its life.
type TournamentStatus string

// The statuses of a tournament. Sign-up, running and paused tournaments
// are open.
const (
	TournamentSignUp    TournamentStatus = "signup"  // taking entrants; no round yet
	TournamentRunning   TournamentStatus = "running" // its rounds open by themselves
	TournamentPaused    TournamentStatus = "paused"  // the host stopped its rounds for now
	TournamentFinished  TournamentStatus = "finished"
	TournamentCancelled TournamentStatus = "cancelled"
)

// Open reports whether the tournament is in sign-up, running or paused.
func (s TournamentStatus) Open() bool {
	return s == TournamentSignUp || s == TournamentRunning || s == TournamentPaused
}

// TournamentSetup is what the host chose when opening a tournament: what
// package tournament's Setup needs (Format, TableSize, Rounds) and how its
// games are played.
type TournamentSetup struct {
	// Format is "swiss", "round-robin" or "knockout" (package
	// tournament's Format).
	Format string
	// TableSize is the seats at a table: 2, 3 or 4.
	TableSize int
	// Rounds is how many rounds are played; 0 plays as many as the
	// format needs.
	Rounds int
	// TurnTimeout is how long a player has for a turn in the
	// tournament's games; 0 means the guild's default.
	TurnTimeout time.Duration
	// StartAt is when the tournament starts by itself; the zero time
	// waits for the host's Start.
	StartAt time.Time
	// Rated: its games count in the guild's ratings.
	Rated bool
	// Rules are the house rules of its games.
	Rules HouseRules
	// Computers: computers may play (sign up, or fill a table).
	Computers bool
	// ForfeitLimit is the forfeits after which an entrant is withdrawn;
	// 0 never withdraws anyone.
	ForfeitLimit int
	// MaxEntrants is the most entrants the sign-up takes; 0 takes as
	// many as the store allows.
	MaxEntrants int
}

// HouseRules are the rules of a game that a host may change, as Options
// has them. They are stored as JSON, so fields can be added without a
// migration.
type HouseRules struct {
	SixAgain bool   `json:"six_again,omitempty"`  // a six gives another roll
	SafeRow2 bool   `json:"safe_row_2,omitempty"` // no barricade may be placed on row 2
	Roll     string `json:"roll,omitempty"`       // "auto", "button", or "" for the guild's
}

// Tournament is one tournament of a channel, from its sign-up to its end,
// as the store keeps it: plain data; package tournament pairs and ranks
// it (tournament.FromKept).
type Tournament struct {
	ID        int64  // set by CreateTournament
	GuildID   string // Discord guild (server) ID; fixed at creation
	ChannelID string // the channel its cards are in; fixed at creation
	HostID    string // Discord user ID of the host
	Name      string
	Setup     TournamentSetup // fixed at creation
	Status    TournamentStatus
	Locale    string // language of the messages the whole channel sees
	// MessageID is the tournament's card in the channel: the sign-up,
	// then the standings. Recorded by the delivery that posted it.
	MessageID string
	// Version counts the writes to the tournament: 1 after
	// CreateTournament, bumped by every successful write of the
	// tournament (a join, a round, …); a write names the version it was
	// computed from and fails with a conflict when it is stale.
	Version int64
	// WakeAt is when the tournament next needs its round opener (the
	// start time, a round's tables to open, a round over or past its
	// deadline), the zero time for never; kept by the store.
	WakeAt time.Time

	Entrants []TournamentEntrant // in sign-up order
	Rounds   []TournamentRound   // in order; the last one is being played

	CreatedAt  time.Time // set by CreateTournament
	UpdatedAt  time.Time // set by every write of the tournament
	FinishedAt time.Time // set when it finishes or is cancelled
}

// Entrant returns the entrant with user ID id, and false when there is none.
func (t *Tournament) Entrant(id string) (TournamentEntrant, bool) {
	for _, e := range t.Entrants {
		if e.UserID == id {
			return e, true
		}
	}
	return TournamentEntrant{}, false
}

// TournamentEntrant is one player of a tournament.
type TournamentEntrant struct {
	UserID   string // Discord user ID, or a computer's ID; unique in the tournament
	Name     string // display name at sign-up
	Computer string // "" for a person, else the computer's level
	Rating   float64
	// Order is the sign-up order, 1 for the first; set by the store.
	Order    int
	JoinedAt time.Time // set by the store
	// Withdrawn: out of the tournament (by choice, by the host, or after
	// the forfeit limit); their results stand, later rounds go without
	// them.
	Withdrawn bool
	// Forfeits counts the tournament's finished games the entrant left
	// (resigned, or timed out until the computer took their seat);
	// counted by the store when it reads the tournament.
	Forfeits int
}

// TournamentRound is one round of a tournament: its tables, played at the
// same time.
type TournamentRound struct {
	Number     int       // 1, 2, …; set by the store
	OpenedAt   time.Time // set by the store
	Deadline   time.Time // when its games must be over; zero for none
	FinishedAt time.Time // set by the store when the next round opens or the tournament ends
	Tables     []TournamentTable
}

// TournamentTable is one table of a round: its entrants in seat order and
// the game they play, once opened.
type TournamentTable struct {
	Number int      // 1, 2, … in its round; set by the store
	Seats  []string // entrant user IDs in seat order
	// GameID is the table's game, set once when the game is created (see
	// Game.TournamentID); 0 until then, and for ever for a bye.
	GameID int64
	// GameStatus is the game's status, "" until it is opened; Results
	// are its results in seat order once it finished. Both are read with
	// the tournament.
	GameStatus Status
	Results    []Result
	// ThreadID is the game's thread once Discord made it, "" until then
	// (and for a game played in the channel); read with the tournament.
	ThreadID string
}

// Bye reports whether the table is a bye: one entrant, no game.
func (t TournamentTable) Bye() bool { return len(t.Seats) == 1 }

// Done reports whether the table needs nothing more: a bye, or its game
// is over (finished or cancelled).
func (t TournamentTable) Done() bool { return t.Bye() || (t.GameID != 0 && !t.GameStatus.Open()) }

// Event is one entry of a game's append-only log.
type Event struct {
	Seq    int64     // 1, 2, 3, … per game; set by the store
	At     time.Time // when it happened; the store's clock when zero
	Kind   string    // one of the Event* constants
	UserID string    // who acted, if a person did
	Color  string    // the colour concerned, if any
	Data   string    // what: e.g. a roll "4" or a move "c1-e3/h11"
}

// MessageRole names a message of a game whose ID the store keeps.
type MessageRole string

// The messages of a game whose IDs are kept in Game.
const (
	RoleLobby MessageRole = "lobby" // Game.LobbyMessageID
	RoleTurn  MessageRole = "turn"  // Game.TurnMessageID
	// RoleThread is Game.ThreadID: the thread started from the lobby.
	RoleThread MessageRole = "thread"
	// RoleReminder is Game.ReminderMessageID.
	RoleReminder MessageRole = "reminder"
	// RoleTournament is Tournament.MessageID: the effect is a
	// tournament's, and its message is the tournament's card.
	RoleTournament MessageRole = "tournament"
)

// MessageRecord says where a delivery's new message ID goes.
type MessageRecord struct {
	Role      MessageRole
	MessageID string
}

// DefaultTurnTimeout is a guild's turn timeout until it sets one.
const DefaultTurnTimeout = 24 * time.Hour

// GuildSettings are a guild's defaults for its games.
type GuildSettings struct {
	// TurnTimeout is how long a player has for a turn unless the game says
	// otherwise.
	TurnTimeout time.Duration
	// Reminders: a player gets one reminder halfway through the turn.
	Reminders bool
	// Threads: each new game plays in a thread of its own.
	Threads bool
	// Roll is how new games roll the die: "auto" or "button".
	Roll string
	// Chances: the scoreboard card shows each seat's chance to win.
	Chances bool
	// Hints: the turn card has a Hint button that tells the player
	// privately what the computer would play (off unless turned on).
	Hints bool
}

// DefaultGuildSettings are the settings of a guild that has set none:
// DefaultTurnTimeout, reminders on, threads on, the die rolled for the player,
// the chances to win shown.
func DefaultGuildSettings() GuildSettings {
	return GuildSettings{TurnTimeout: DefaultTurnTimeout, Reminders: true, Threads: true, Roll: "auto", Chances: true}
}

// UserSettings are one Discord user's settings, the same in every guild.
type UserSettings struct {
	// DM: the bot also sends a direct message on the user's turn and when
	// their game ends.
	DM bool
	// DMRefused: Discord refused the last direct message (closed DMs);
	// the user has not been told yet.
	DMRefused bool
	// PingAlways: every turn message pings the user, even while they are
	// playing (otherwise one for a player who just acted is @silent).
	PingAlways bool
	// Locale is the user's Discord locale ("de", "pt-BR") as their last
	// interaction or sign-in gave it, "" when not known: their direct
	// messages are written in it. SetUserSettings leaves it as stored.
	Locale string
}

// Result is one seat's result of a finished game.
type Result struct {
	Player     string // Discord user ID, or for a computer seat "ai:LEVEL", e.g. "ai:normal"
	Name       string // display name
	Computer   bool   // a computer played the seat
	Color      string // "red", "green", "yellow" or "blue"
	Won        bool   // exactly one seat of a game wins
	Forfeit    bool   // won because everyone else left
	Captures   int    // pawns this seat captured
	Captured   int    // pawns of this seat captured
	Barricades int    // barricades this seat moved
	Turns      int    // turns this seat played
	GameTurns  int    // the length of the game in turns

	// Place is the seat's place when the game ended: 1 the winner, then
	// the others by their distance to the goal, the nearest first (a
	// tournament scores by it); 0 when not recorded (games finished
	// before places were kept).
	Place int
	// Left: the seat's player left the game before its end: resigned, or
	// timed out until the computer took the seat over. It is read from
	// the seat, not stored with the result, by the reads of results that
	// know the seats (a tournament's, a guild's recent games, a game's).
	Left bool

	// Set by FinishGame.
	FinishedAt   time.Time
	RatingBefore float64
	RatingAfter  float64
}
