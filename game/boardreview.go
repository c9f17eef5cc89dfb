package game

import (
	"context"
	"errors"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// BoardReview is finished game id as the Activity's review shows it, in
// lang, to a person of guild: every roll with the board before it, the
// move played, the coach's grade and better move as far as the coach has
// graded, and the chances over the game (table.Table.BoardReview). It
// reads the stored game, its events and its stored grades, and changes
// nothing. A game of another guild, one that never was and one not
// finished are refused alike ("There is no game #N on this server"), as
// every game the Activity may not show.
func (s *Service) BoardReview(ctx context.Context, id int64, guild, lang string) (table.LiveReview, error) {
	sg, err := s.db.Game(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return table.LiveReview{}, notHere(id, "no such game")
	case err != nil:
		return table.LiveReview{}, err
	case sg.GuildID != guild:
		return table.LiveReview{}, notHere(id, "of another guild")
	case sg.Status != malefiz.StatusFinished:
		return table.LiveReview{}, notHere(id, "not finished: "+string(sg.Status))
	}
	events, err := s.db.Events(ctx, id)
	if err != nil {
		return table.LiveReview{}, err
	}
	g, err := table.Replay(sg, events)
	if err != nil {
		return table.LiveReview{}, err
	}
	if g == nil {
		return table.LiveReview{}, notHere(id, "never started")
	}
	stored, final, err := s.db.Grades(ctx, id)
	if err != nil {
		return table.LiveReview{}, err
	}
	grades, err := EngineGrades(stored)
	if err != nil {
		return table.LiveReview{}, err
	}
	t := &table.Table{Game: sg, State: g}
	return t.BoardReview(lang, g, grades, final), nil
}

// reviewsListed is how many finished games of a channel the board lists
// as reviews.
const reviewsListed = 10

// ChannelReviews returns the finished games of a channel, or the game
// whose thread it is, the last finished first: the reviews the board
// opened there offers.
func (s *Service) ChannelReviews(ctx context.Context, guildID, channelID string) ([]*malefiz.Game, error) {
	return s.db.FinishedGames(ctx, guildID, channelID, reviewsListed)
}
