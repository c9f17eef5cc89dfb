package bot

import (
	"context"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox"
	"github.com/malefiz-discord/malefiz/game"
	"github.com/malefiz-discord/malefiz/store"
)

// The bot's use of the database, in the few methods each part needs;
// *store.DB implements them all (Store).

// Games is what the adapter reads of the games besides the game
// service's own store (game.Store): a user's games (/malefiz games).
type Games interface {
	UserGames(ctx context.Context, guildID, userID string) ([]*malefiz.Game, error)
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

// Store is every part of the database the bot uses: the game service's,
// and the adapter's own.
type Store interface {
	game.Store
	game.Tournaments
	Games
	Outbox
	Settings
	Stats
}

var _ Store = (*store.DB)(nil)
