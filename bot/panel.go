package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// panel answers the subcommands that change no game: the statistics, the
// history and replays of finished games, /malefiz games, and the users'
// and servers' settings.
type panel struct {
	db  panelStore
	log *slog.Logger
	now func() time.Time
}

// panelStore is what the panel reads and writes.
type panelStore interface {
	Stats
	Settings
	Game(ctx context.Context, id int64) (*store.Game, error)
	Events(ctx context.Context, gameID int64) ([]store.Event, error)
	UserGames(ctx context.Context, guildID, userID string) ([]*store.Game, error)
}

// table makes the table of a stored game to show it, with its server's
// settings.
func (p *panel) table(ctx context.Context, sg *store.Game) (*table.Table, error) {
	gs, err := p.db.GuildSettings(ctx, sg.GuildID)
	if err != nil {
		return nil, err
	}
	return table.New(sg, gs, p.now(), nil)
}
