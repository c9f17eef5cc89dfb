// Package queue is the outbox as the side that commits sees it: the
// effects that wait in it for Discord, the lease a committing process holds
// on them, and what it asks of delivery (Outbox), which bot/outbox's
// Sender does. It knows no Discord client, so that the game service
// commits effects without one.
package queue

import (
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	"github.com/malefiz-discord/malefiz/store"
)

// Lease is how long the process that commits effects keeps them to
// deliver itself (store.Commit.Lease); after that the sender of any
// process takes them (after a crash, the restarted process). A
// delivery that outlasts it may be sent a second time by another
// process, which Discord's nonce makes harmless.
const Lease = 5 * time.Second

// DefaultOwner names this process in the outbox's claims when nothing
// else does: its host, process ID and a random number, so that a restarted
// process is another owner.
func DefaultOwner() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d/%d", host, os.Getpid(), rand.Uint32())
}

// Reservation is what a commit leaves to deliver once the interaction is
// answered (see Outbox.Reserve).
type Reservation interface {
	// Release lets other deliveries of the game go without this one's (an
	// answer that panicked); it may be called more than once, and after
	// Deliver.
	Release()
	// Deliver delivers the reserved effects of the game's main queue, in
	// order, after the answer and outside the game's lock (the game's
	// message IDs read again when a delivery of this process recorded one
	// since loaded, or when reread). It returns Discord's refusal for a
	// missing permission, if one came, for the user to hear of.
	Deliver(loaded time.Time, reread bool) (refused error)
}

// Outbox is what the committing side asks of delivery (bot/outbox's
// Sender).
type Outbox interface {
	// Reserve returns the delivery of commit c, whose effects efs are
	// c.Effects decoded, index for index. Call it right after the commit,
	// under the game's lock. Deliver or Release the result.
	Reserve(c *store.Commit, efs []Effect) Reservation
	// Nudge wakes delivery to look at the outbox again.
	Nudge()
}

// KeyedLocks hands out one mutex per key (a game's ID), so that one piece
// of work at a time runs on a game in this process: the sender's
// deliveries, and the bot's changes with a KeyedLocks of their own. Other
// processes are kept apart by the store (its claims and version check).
// The zero value is ready to use.
type KeyedLocks struct {
	mu sync.Mutex
	m  map[int64]*keyedLock
}

type keyedLock struct {
	sync.Mutex
	users int
}

// Lock locks key id and returns its unlock function.
func (l *KeyedLocks) Lock(id int64) func() {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[int64]*keyedLock{}
	}
	kl := l.m[id]
	if kl == nil {
		kl = &keyedLock{}
		l.m[id] = kl
	}
	kl.users++
	l.mu.Unlock()
	kl.Lock()
	return func() {
		kl.Unlock()
		l.mu.Lock()
		kl.users--
		if kl.users == 0 {
			delete(l.m, id)
		}
		l.mu.Unlock()
	}
}
