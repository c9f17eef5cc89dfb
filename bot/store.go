package bot

import (
	"context"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox"
	"github.com/malefiz-discord/malefiz/store"
)

// The bot's use of the database, in the few methods each part needs;
// *store.DB implements them all (Store).

// Games is what the change path reads and writes: a game with what its
// decisions need, and the commit of a change.
type Games interface {
	LoadGame(ctx context.Context, id int64, users ...string) (*store.Loaded, error)
	Game(ctx context.Context, id int64) (*malefiz.Game, error)
	OpenGames(ctx context.Context, guildID, channelID string) ([]*malefiz.Game, error)
	UserGames(ctx context.Context, guildID, userID string) ([]*malefiz.Game, error)
	Events(ctx context.Context, gameID int64) ([]malefiz.Event, error)
	Commit(ctx context.Context, c *store.Commit) error
	SetMessageID(ctx context.Context, gameID int64, role malefiz.MessageRole, messageID string) error
}

// Outbox is what delivery needs (package outbox), and what the upgrade of
// effects committed by an older version reads and writes (see
// upgradeRatings).
type Outbox interface {
	outbox.Store
	GameResults(ctx context.Context, gameID int64) ([]malefiz.Result, error)
	UndeliveredEffects(ctx context.Context, kind string) ([]store.Effect, error)
	RewriteEffect(ctx context.Context, id int64, payload []byte) (bool, error)
}

// Timers is what the scheduler needs.
type Timers interface {
	ClaimDueGames(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]int64, error)
	NextWake(ctx context.Context) (time.Time, bool, error)
}

// Settings are the servers' and the users' settings.
type Settings interface {
	GuildSettings(ctx context.Context, guildID string) (malefiz.GuildSettings, error)
	SetGuildSettings(ctx context.Context, guildID string, s malefiz.GuildSettings) error
	UserSettings(ctx context.Context, userID string) (malefiz.UserSettings, error)
	SetUserSettings(ctx context.Context, userID string, s malefiz.UserSettings) error
}

// Stats are the finished games' figures the statistics commands read.
type Stats interface {
	Leaderboard(ctx context.Context, guild string, since time.Time, minGames, offset, limit int) ([]store.LeaderboardEntry, int, error)
	LeaderboardRank(ctx context.Context, guild string, since time.Time, minGames int, player string) (store.LeaderboardEntry, error)
	PlayerStats(ctx context.Context, guild, player string) (*store.PlayerStats, error)
	RecentGames(ctx context.Context, guild string, limit int) ([]store.FinishedGame, error)
}

// Store is every part of the database the bot uses.
type Store interface {
	Games
	Outbox
	Timers
	Settings
	Stats
	Coaching
}

var _ Store = (*store.DB)(nil)
