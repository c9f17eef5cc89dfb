package activity

import (
	"context"
	"sync"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/store"
)

// Hub tells the open Activities of a game that it changed. Every commit
// goes through the store the bot was given (see Store), so a click in the
// thread, a timer and a play in the Activity all reach the pages.
type Hub struct {
	mu       sync.Mutex
	watchers map[int64]map[chan struct{}]struct{}
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{watchers: map[int64]map[chan struct{}]struct{}{}} }

// Changed wakes the watchers of game id. It never blocks: a watcher that
// has not yet read the last change reads this one with it.
func (h *Hub) Changed(id int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.watchers[id] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// watch returns a channel woken when game id changes, and its end.
func (h *Hub) watch(id int64) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	if h.watchers[id] == nil {
		h.watchers[id] = map[chan struct{}]struct{}{}
	}
	h.watchers[id][ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.watchers[id], ch)
		if len(h.watchers[id]) == 0 {
			delete(h.watchers, id)
		}
		h.mu.Unlock()
	}
}

// Watchers returns how many pages watch game id.
func (h *Hub) Watchers(id int64) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.watchers[id])
}

// Store returns s telling h of every game it commits. The bot is given
// this store: the Activity learns of a change where it is committed, by
// whatever path it came.
func (h *Hub) Store(s bot.Store) bot.Store { return watchedStore{Store: s, hub: h} }

// watchedStore is a bot.Store whose commits wake the hub.
type watchedStore struct {
	bot.Store
	hub *Hub
}

// Commit commits c and, once committed, wakes the watchers of its game.
func (s watchedStore) Commit(ctx context.Context, c *store.Commit) error {
	err := s.Store.Commit(ctx, c)
	if err == nil && c.Game != nil && c.Game.ID != 0 {
		s.hub.Changed(c.Game.ID)
	}
	return err
}
