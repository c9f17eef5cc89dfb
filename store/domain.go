package store

import "github.com/malefiz-discord/malefiz"

// The domain types live in package malefiz; the store keeps their old names
// as aliases, so that its callers read the same.
type (
	Status        = malefiz.Status
	Options       = malefiz.Options
	CancelVote    = malefiz.CancelVote
	Game          = malefiz.Game
	Seat          = malefiz.Seat
	Event         = malefiz.Event
	MessageRole   = malefiz.MessageRole
	MessageRecord = malefiz.MessageRecord
	GuildSettings = malefiz.GuildSettings
	UserSettings  = malefiz.UserSettings
	Result        = malefiz.Result
)

// The statuses, event kinds and message roles of package malefiz.
const (
	StatusLobby     = malefiz.StatusLobby
	StatusRunning   = malefiz.StatusRunning
	StatusFinished  = malefiz.StatusFinished
	StatusCancelled = malefiz.StatusCancelled

	EventJoin    = malefiz.EventJoin
	EventLeave   = malefiz.EventLeave
	EventStart   = malefiz.EventStart
	EventRoll    = malefiz.EventRoll
	EventMove    = malefiz.EventMove
	EventPlace   = malefiz.EventPlace
	EventPass    = malefiz.EventPass
	EventTimeout = malefiz.EventTimeout
	EventRemind  = malefiz.EventRemind
	EventReplace = malefiz.EventReplace
	EventResign  = malefiz.EventResign
	EventWin     = malefiz.EventWin
	EventCancel  = malefiz.EventCancel

	RoleLobby    = malefiz.RoleLobby
	RoleTurn     = malefiz.RoleTurn
	RoleThread   = malefiz.RoleThread
	RoleReminder = malefiz.RoleReminder

	DefaultTurnTimeout = malefiz.DefaultTurnTimeout
)

// DefaultGuildSettings is malefiz.DefaultGuildSettings.
func DefaultGuildSettings() GuildSettings { return malefiz.DefaultGuildSettings() }
