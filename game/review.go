package game

import (
	"context"
	"errors"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
	"github.com/malefiz-discord/malefiz/store"
)

// Review is user's own review of game id, the coach's grades of their
// moves as far as they are graded, asked from guild (the verdict's Review
// button): the answer for them alone, with Review on the board where the
// bot serves its Activity. It reads the game and changes nothing.
func (s *Service) Review(ctx context.Context, id int64, guild string, user table.Actor) (*table.Reply, error) {
	sg, err := s.db.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, table.Refuse(locales.ErrNoSuchGame)
	} else if err != nil {
		return nil, err
	}
	if guild != sg.GuildID {
		return nil, table.Refuse(locales.ErrForeignButton)
	}
	stored, final, err := s.db.Grades(ctx, id)
	if err != nil {
		return nil, err
	}
	grades, err := EngineGrades(stored)
	if err != nil {
		return nil, err
	}
	t := &table.Table{Game: sg}
	if final {
		events, err := s.db.Events(ctx, id)
		if err != nil {
			return nil, err
		}
		if t.State, err = table.Replay(sg, events); err != nil {
			return nil, err
		}
	}
	if err := t.Review(user, grades, final); err != nil {
		return nil, err
	}
	t.Activity = s.activity
	t.OfferBoardReview(user.Lang) // the same review, turn by turn on the board
	return t.Reply, nil
}
