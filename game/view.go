package game

import (
	"context"
	"errors"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/store"
)

// Live returns game id as userID sees it on the board, in lang; a game of
// another guild than guild is not found.
func (s *Service) Live(ctx context.Context, id int64, guild, userID, lang string) (table.Live, error) {
	t, err := s.Viewed(ctx, id, guild)
	if err != nil {
		return table.Live{}, err
	}
	return t.Live(userID, lang), nil
}

// Viewed returns game id, read by a person of guild, as a table to draw
// the Live of each of its viewers from (Table.Live, Table.Viewer): one
// read for every page that shows it. It refuses as Live does.
func (s *Service) Viewed(ctx context.Context, id int64, guild string) (*table.Table, error) {
	t, _, err := s.load(ctx, id, "")
	if err != nil {
		return nil, personal(err, id, guild)
	}
	if err := inGuild(t, guild); err != nil {
		return nil, err
	}
	return t, nil
}

// ChannelGames returns the open games (lobbies and running games) of a
// channel, or of the game whose thread it is, those where userID holds a
// seat first: the games the board opened there offers.
func (s *Service) ChannelGames(ctx context.Context, guildID, channelID, userID string) ([]*malefiz.Game, error) {
	games, err := s.db.OpenGames(ctx, guildID, channelID)
	if err != nil {
		return nil, err
	}
	for _, sg := range games {
		if sg.ThreadID == channelID {
			return []*malefiz.Game{sg}, nil
		}
	}
	mine, others := []*malefiz.Game{}, []*malefiz.Game{}
	for _, sg := range games {
		if Seated(userID)(sg) {
			mine = append(mine, sg)
		} else {
			others = append(others, sg)
		}
	}
	return append(mine, others...), nil
}

// Seated accepts the games userID sits in.
func Seated(userID string) func(*malefiz.Game) bool {
	return func(sg *malefiz.Game) bool {
		for _, s := range sg.Seats {
			if s.UserID == userID && !s.Left {
				return true
			}
		}
		return false
	}
}

// Refusal returns what a user reads in lang for err, an error of a
// command; refused reports that err is a refusal the user caused (nothing
// changed) rather than a failure to log.
func Refusal(err error, lang string) (text string, refused bool) {
	var ue *table.Refusal
	switch {
	case errors.As(err, &ue):
		return locales.Tr(lang, ue.Key, ue.Args...), true
	case errors.Is(err, store.ErrConflict):
		return locales.Tr(lang, locales.ErrTooLate), true
	case errors.Is(err, engine.ErrGameOver):
		return locales.Tr(lang, locales.ErrGameOver), true
	}
	return locales.Tr(lang, locales.ErrNothingChanged), false
}

// CommandGame is the game a command in channel of guild is about: the game
// of the thread it is run in, else the channel's one open game, else, of
// several, the newest that want accepts.
func (s *Service) CommandGame(ctx context.Context, guild, channel string, want func(*malefiz.Game) bool) (*malefiz.Game, error) {
	games, err := s.db.OpenGames(ctx, guild, channel)
	if err != nil {
		return nil, err
	}
	for _, sg := range games {
		if sg.ThreadID == channel {
			return sg, nil
		}
	}
	switch {
	case len(games) == 0:
		return nil, table.Refuse(locales.ErrNoGameHere)
	case len(games) == 1:
		return games[0], nil
	}
	for _, sg := range games {
		if want(sg) {
			return sg, nil
		}
	}
	return nil, table.Refuse(locales.ErrWhichGame)
}
