package activity

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/malefiz-discord/malefiz/bot/table"
)

// The bounds of the live sockets where the Config says nothing.
const (
	DefaultSocketsPerSession = 2
	DefaultSocketsPerUser    = 4
	DefaultSockets           = 5000
	// DefaultNewSocketsPerUser is a minute's new sockets of one user, a
	// third of it at once: a page opens one when it shows a game and
	// again after a drop, waiting longer each time.
	DefaultNewSocketsPerUser = 30
)

// The subprotocols of the live socket (Sec-WebSocket-Protocol): the page
// offers LiveProtocol and its session as sessionProtocol then the token
// (base64url and '.', characters a protocol's name may have), so that the
// server knows the user before it upgrades; the server answers
// LiveProtocol, never the session.
const (
	LiveProtocol    = "malefiz.v1"
	sessionProtocol = "malefiz.session."
)

// LiveProtocols are the subprotocols a page offers to open its live
// socket with session.
func LiveProtocols(session string) []string {
	return []string{LiveProtocol, sessionProtocol + session}
}

// offeredSession is the session token an upgrade request offers among its
// subprotocols (the values of its Sec-WebSocket-Protocol headers, each a
// list), "" when it offers none or more than one.
func offeredSession(values []string) string {
	token, found := "", false
	for _, v := range values {
		for p := range strings.SplitSeq(v, ",") {
			t, ok := strings.CutPrefix(strings.TrimSpace(p), sessionProtocol)
			if !ok {
				continue
			}
			if found {
				return ""
			}
			token, found = t, true
		}
	}
	return token
}

// The close codes of a live socket the server ends (4000 to 4999 are the
// application's); the page says the words of each.
const (
	closeSession  = 4001 // its session expired: sign in again
	closeRefused  = 4004 // the game may not be read from here: said in words
	closeReplaced = 4008 // a newer board of the same session or user took its place
)

// sockets keeps the budget of the live sockets: how many are live in
// all, and per session and per user, the newest kept and the oldest told
// to go.
type sockets struct {
	perSession, perUser, max int

	live atomic.Int64 // admitted, upgraded or about to be

	mu     sync.Mutex
	byUser map[string][]*liveSocket // oldest first
}

// liveSocket is one page's socket as the budget knows it.
type liveSocket struct {
	user, session string
	kick          chan struct{} // closed when a newer one takes its place
	kicked        bool
}

// admit reports whether one more socket may be live, and counts it;
// done must be called once it is gone (or was never upgraded).
func (ss *sockets) admit() (ok bool, done func()) {
	if ss.live.Add(1) > int64(ss.max) {
		ss.live.Add(-1)
		return false, nil
	}
	return true, func() { ss.live.Add(-1) }
}

// join keeps a live socket of user's session, admitted; the oldest of
// the session past perSession, and of the user past perUser, are kicked.
// leave forgets it.
func (ss *sockets) join(user, session string) (s *liveSocket, leave func()) {
	s = &liveSocket{user: user, session: session, kick: make(chan struct{})}
	ss.mu.Lock()
	if ss.byUser == nil {
		ss.byUser = map[string][]*liveSocket{}
	}
	list := append(ss.byUser[user], s)
	sameSession := 0
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].session == session && !list[i].kicked {
			sameSession++
			if sameSession > ss.perSession {
				list[i].kicked = true
				close(list[i].kick)
			}
		}
	}
	kept := 0
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].kicked {
			continue
		}
		kept++
		if kept > ss.perUser {
			list[i].kicked = true
			close(list[i].kick)
		}
	}
	ss.byUser[user] = list
	ss.mu.Unlock()
	return s, func() {
		ss.mu.Lock()
		defer ss.mu.Unlock()
		list := ss.byUser[user]
		for i, o := range list {
			if o == s {
				list = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(ss.byUser, user)
		} else {
			ss.byUser[user] = list
		}
	}
}

// viewedGames reads a game once for all its viewers (see Games.Viewed).
type viewedGames interface {
	Viewed(ctx context.Context, id int64, guild string) (*table.Table, error)
}

// pushes serialises each change of a game once per (guild asked, language,
// viewer): the game is read once per change (per hub generation) for every
// socket that shows it, and its Live written once for every watcher of a
// language, once for each of its players.
type pushes struct {
	games viewedGames
	mu    sync.Mutex
	m     map[pushKey]*pushed
	// serialised counts the Lives made (tests).
	serialised atomic.Int64
}

type pushKey struct {
	game  int64
	guild string
}

// pushed is a game as read at one generation of the hub, and its Lives.
type pushed struct {
	gen   uint64
	ready chan struct{} // closed once read
	t     *table.Table
	err   error

	mu    sync.Mutex
	views map[[2]string][]byte // (language, viewer) → the Live's JSON
}

// live returns game id as userID reads it in lang, from guild, at hub
// generation gen or later, as JSON.
func (p *pushes) live(ctx context.Context, id int64, guild, userID, lang string, gen uint64) ([]byte, error) {
	key := pushKey{id, guild}
	p.mu.Lock()
	if p.m == nil {
		p.m = map[pushKey]*pushed{}
	}
	e := p.m[key]
	if e == nil || e.gen < gen {
		e = &pushed{gen: gen, ready: make(chan struct{}), views: map[[2]string][]byte{}}
		p.m[key] = e
		go func() { // read once for every socket; not bound to the first one's life
			e.t, e.err = p.games.Viewed(context.WithoutCancel(ctx), id, guild)
			close(e.ready)
		}()
	}
	p.mu.Unlock()
	select {
	case <-e.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if e.err != nil {
		return nil, e.err
	}
	viewer := e.t.Viewer(userID)
	e.mu.Lock()
	defer e.mu.Unlock()
	vk := [2]string{lang, viewer}
	if b, ok := e.views[vk]; ok {
		return b, nil
	}
	b, err := json.Marshal(e.t.Live(viewer, lang))
	if err != nil {
		return nil, err
	}
	p.serialised.Add(1)
	e.views[vk] = b
	return b, nil
}

// forget drops what is kept of game id once no page shows it.
func (p *pushes) forget(id int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k := range p.m {
		if k.game == id {
			delete(p.m, k)
		}
	}
}
