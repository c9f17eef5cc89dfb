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

	// Set by FinishGame.
	FinishedAt   time.Time
	RatingBefore float64
	RatingAfter  float64
}
