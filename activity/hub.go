package activity

import (
	"sync"
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
