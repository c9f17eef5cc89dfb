package game

import (
	"context"
	"errors"
	"sync"

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
	stored, final, err := s.db.Grades(ctx, id)
	if err != nil {
		return table.LiveReview{}, err
	}
	key := reviewKey{id: id, lang: lang}
	if rv, ok := s.reviews.get(key); ok && final {
		return rv, nil
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
	grades, err := EngineGrades(stored)
	if err != nil {
		return table.LiveReview{}, err
	}
	t := &table.Table{Game: sg, State: g}
	rv := t.BoardReview(lang, g, grades, final)
	if final {
		s.reviews.put(key, rv)
	}
	return rv, nil
}

// reviewsKept is how many reviews the service keeps made.
const reviewsKept = 64

// reviewKey names a review as made for one language.
type reviewKey struct {
	id   int64
	lang string
}

// reviews keeps the reviews of finished games graded whole, by game and
// language, as made (a whole game's chances and reasons: 0.1 s of a
// core): nothing in them changes any more, and each player of a game
// opens it. Past reviewsKept one made earlier goes. The reviews are
// shared: no caller changes one.
type reviews struct {
	mu   sync.Mutex
	made map[reviewKey]table.LiveReview
}

func (r *reviews) get(k reviewKey) (table.LiveReview, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rv, ok := r.made[k]
	return rv, ok
}

func (r *reviews) put(k reviewKey, rv table.LiveReview) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.made == nil {
		r.made = map[reviewKey]table.LiveReview{}
	}
	for old := range r.made {
		if len(r.made) < reviewsKept {
			break
		}
		delete(r.made, old)
	}
	r.made[k] = rv
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
