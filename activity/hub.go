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
	// seq counts the changes of watched games; gen is the seq of each
	// watched game's last change, so that what is read of a game after
	// its gen is at least as new as that change.
	seq uint64
	gen map[int64]uint64
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{watchers: map[int64]map[chan struct{}]struct{}{}, gen: map[int64]uint64{}}
}

// Changed wakes the watchers of game id. It never blocks: a watcher that
// has not yet read the last change reads this one with it.
func (h *Hub) Changed(id int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.watchers[id]) > 0 {
		h.seq++
		h.gen[id] = h.seq
	}
	for ch := range h.watchers[id] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// watch returns a channel woken when game id changes, the generation
// to read it at first (newer than any change before), and its end, which
// reports whether it was the game's last watcher.
func (h *Hub) watch(id int64) (<-chan struct{}, uint64, func() bool) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	if h.watchers[id] == nil {
		h.watchers[id] = map[chan struct{}]struct{}{}
	}
	h.watchers[id][ch] = struct{}{}
	h.seq++
	first := h.seq
	h.mu.Unlock()
	return ch, first, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.watchers[id], ch)
		if len(h.watchers[id]) == 0 {
			delete(h.watchers, id)
			delete(h.gen, id)
			return true
		}
		return false
	}
}

// generation is the generation of game id's last change.
func (h *Hub) generation(id int64) uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gen[id]
}

// Watchers returns how many pages watch game id.
func (h *Hub) Watchers(id int64) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.watchers[id])
}
