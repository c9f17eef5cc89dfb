package outbox

import (
	"sync"
	"time"
)

// recordings keeps, per game, when a delivery of this process last
// recorded message IDs of it (after they were written): a change loads the
// game while an earlier change's effects may still be delivered, so the
// IDs it loaded may be older than its delivery needs (see
// Delivery.Deliver). It keeps at most recordingsKept games; what it
// forgets makes an older load read again (horizon), never trust stale IDs.
type recordings struct {
	mu      sync.Mutex
	last    map[int64]time.Time
	horizon time.Time // loads at or before it read again
}

// recordingsKept bounds the games recordings keeps; forgetAfter is how old
// an entry is forgotten first (a change loads and delivers well within).
const (
	recordingsKept = 4096
	forgetAfter    = time.Minute
)

// recorded notes that a delivery recorded message IDs of game id at now.
func (r *recordings) recorded(id int64, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		r.last = map[int64]time.Time{}
	}
	r.last[id] = now
	if len(r.last) <= recordingsKept {
		return
	}
	for g, at := range r.last {
		if now.Sub(at) > forgetAfter {
			delete(r.last, g)
			r.horizon = later(r.horizon, at)
		}
	}
	for g, at := range r.last { // still full: forget any
		if len(r.last) <= recordingsKept/2 {
			break
		}
		delete(r.last, g)
		r.horizon = later(r.horizon, at)
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// since reports whether a delivery may have recorded IDs of game id at or
// after loaded (the time the game was read).
func (r *recordings) since(id int64, loaded time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !loaded.After(r.horizon) {
		return true
	}
	at, ok := r.last[id]
	return ok && !at.Before(loaded)
}

// dmChannels keeps the DM channel opened for each user, so that a DM is
// one request, not two (Discord's DM channel of a user and the bot never
// changes). It is per process and bounded: past dmChannelsKept users it
// forgets one, whose next DM opens its channel again. After Discord
// refused an open as too fast (40003), no channel is opened until
// pausedUntil.
type dmChannels struct {
	mu          sync.Mutex
	m           map[string]string
	pausedUntil time.Time
}

// dmChannelsKept bounds the DM channels kept (a few MB at most).
const dmChannelsKept = 50000

// dmOpenPause is how long no DM channel is opened after Discord answered
// 40003 "You are opening direct messages too fast"
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json;
// Discord names no wait and no rate). The DMs that needed an open then are
// given up without a request, as they would have been after one: at most
// one refused open a second instead of one per DM (a benchmark of fifty
// games with a DM every turn made 1,490 refused opens in 49 s, 30 a second
// of the bot's 45), and the opens resume as soon as Discord may take
// them again.
const dmOpenPause = time.Second

// dmOpensPausedResult is the recorded outcome of a DM not sent because the
// opens were paused.
const dmOpensPausedResult = "not sent: DM channels opened too fast"

// pause stops the opens until until.
func (c *dmChannels) pause(until time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pausedUntil = later(c.pausedUntil, until)
}

// paused reports whether the opens are paused at now.
func (c *dmChannels) paused(now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return now.Before(c.pausedUntil)
}

func (c *dmChannels) get(user string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.m[user]
	return id, ok
}

func (c *dmChannels) put(user, channel string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]string{}
	}
	if len(c.m) >= dmChannelsKept {
		for u := range c.m {
			delete(c.m, u)
			break
		}
	}
	c.m[user] = channel
}

func (c *dmChannels) forget(user string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, user)
}
