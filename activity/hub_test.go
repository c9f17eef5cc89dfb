package activity

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// woken reports whether ch holds a wake-up, and takes it.
func woken(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestHub proves the hub: a change wakes every watcher of its game and no
// other; changes a watcher has not read yet fold into one and never block
// the committer; Watchers counts the open watches of a game, and a
// watch's end forgets it, the game too once none is left.
func TestHub(t *testing.T) {
	h := NewHub()
	a, _, endA := h.watch(1)
	b, _, endB := h.watch(1)
	c, _, endC := h.watch(2)
	assert.Equal(t, 2, h.Watchers(1))
	assert.Equal(t, 1, h.Watchers(2))
	assert.Zero(t, h.Watchers(3))

	h.Changed(1)
	assert.True(t, woken(a), "a watcher of game 1")
	assert.True(t, woken(b), "the other watcher of game 1")
	assert.False(t, woken(c), "not a watcher of game 2")
	assert.False(t, woken(a), "one change, one wake-up")

	for range 3 { // unread: never blocks
		h.Changed(2)
	}
	assert.True(t, woken(c))
	assert.False(t, woken(c), "three unread changes read as one")

	h.Changed(3) // nobody watches: nothing happens
	endA()
	assert.Equal(t, 1, h.Watchers(1))
	h.Changed(1)
	assert.False(t, woken(a), "an ended watch is not woken")
	assert.True(t, woken(b))
	endB()
	endC()
	assert.Zero(t, h.Watchers(1))
	assert.Zero(t, h.Watchers(2))
	assert.Empty(t, h.watchers, "games nobody watches are forgotten")
}
