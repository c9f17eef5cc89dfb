package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// identifyWindow is Discord's identify rate window: max_concurrency
// identifies per 5 seconds, one per rate-limit key (shard_id %
// max_concurrency).
const identifyWindow = 5 * time.Second

// shardSet is the gateway connections of this process: one discordgo
// session per shard in [discord] shard_ids (all shards when empty).
type shardSet struct {
	main   *Main
	client *http.Client

	mu       sync.Mutex
	count    int // shards of the bot, over every process
	sessions []*shard
	once     sync.Once // the commands and the invite, at the first READY
	closed   bool
}

// shard is one gateway connection.
type shard struct {
	id        int
	session   *discordgo.Session
	mu        sync.Mutex
	connected bool
	ready     chan struct{} // closed at the first READY
}

// open reads the shard count and identify concurrency from GET
// /gateway/bot, then connects this process's shards in order, each
// identify at least identifyWindow after the previous one with the same
// rate-limit key; it returns when every one of them has had its READY.
func (ss *shardSet) open(ctx context.Context) error {
	cfg := ss.main.Config.Discord
	gb, err := ss.main.rest.GatewayBot(discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("connect to Discord: GET /gateway/bot: %w", err)
	}
	count := cfg.Shards
	if count == 0 {
		count = max(1, gb.Shards)
	}
	concurrency := max(1, gb.SessionStartLimit.MaxConcurrency)
	ids := cfg.ShardIDs
	if len(ids) == 0 {
		for id := range count {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		if id >= count {
			return fmt.Errorf("[discord] shard_ids: %d is not a shard of %d", id, count)
		}
	}
	ss.mu.Lock()
	ss.count = count
	for _, id := range ids {
		s, err := ss.main.session(ss.client)
		if err != nil {
			ss.mu.Unlock()
			return err
		}
		s.ShardID, s.ShardCount = id, count
		sh := &shard{id: id, session: s, ready: make(chan struct{})}
		s.AddHandler(ss.main.bot.HandleInteraction)
		s.AddHandler(func(s *discordgo.Session, r *discordgo.Ready) { ss.onReady(sh, r) })
		s.AddHandler(func(*discordgo.Session, *discordgo.Resumed) { sh.set(true) })
		s.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) { sh.set(false) })
		ss.sessions = append(ss.sessions, sh)
	}
	sessions := slices.Clone(ss.sessions)
	ss.mu.Unlock()

	last := map[int]time.Time{}
	for _, sh := range sessions {
		key := sh.id % concurrency
		if t, ok := last[key]; ok {
			select {
			case <-time.After(time.Until(t.Add(identifyWindow))):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err := sh.session.Open(); err != nil {
			return fmt.Errorf("connect to Discord: shard %d of %d: %w", sh.id, count, err)
		}
		// Open has sent the identify: the window counts from there, not
		// from the dial before it (the fake saw 4.997 s between two).
		last[key] = time.Now()
	}
	for _, sh := range sessions {
		select {
		case <-sh.ready:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	ss.main.Logger.Info("gateway shards connected", "shards", ids, "of", count, "max_concurrency", concurrency)
	return nil
}

// onReady marks a shard connected; the first READY of shard 0 registers
// the commands and logs the invite, so that with several processes only
// the one running shard 0 does.
func (ss *shardSet) onReady(sh *shard, r *discordgo.Ready) {
	sh.set(true)
	ss.main.limiter.SetApplicationID(readyAppID(r))
	if sh.id == 0 {
		ss.once.Do(func() {
			ss.main.registerCommands(readyAppID(r), r.User.Username)
		})
	}
	select {
	case <-sh.ready:
	default:
		close(sh.ready)
	}
}

// readyAppID is the application's ID a READY names (its bot user's ID,
// which Discord makes the same, when it names none).
func readyAppID(r *discordgo.Ready) string {
	if r.Application != nil && r.Application.ID != "" {
		return r.Application.ID
	}
	return r.User.ID
}

// set records whether the shard's connection is up.
func (sh *shard) set(up bool) {
	sh.mu.Lock()
	sh.connected = up
	sh.mu.Unlock()
}

// down lists the shards of this process that are not connected; before
// open knows them, ok is false.
func (ss *shardSet) down() (ids []int, ok bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if len(ss.sessions) == 0 {
		return nil, false
	}
	for _, sh := range ss.sessions {
		sh.mu.Lock()
		if !sh.connected {
			ids = append(ids, sh.id)
		}
		sh.mu.Unlock()
	}
	return ids, true
}

// close disconnects every shard.
func (ss *shardSet) close() error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return nil
	}
	ss.closed = true
	var errs []error
	for _, sh := range ss.sessions {
		errs = append(errs, sh.session.Close())
	}
	return errors.Join(errs...)
}
