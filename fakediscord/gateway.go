package fakediscord

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Gateway close codes the fake uses.
const (
	closeGoingAway       = websocket.CloseGoingAway
	closeUnknownOpcode   = 4001
	closeDecodeError     = 4002
	closeAuthFailed      = 4004
	closeAlreadyAuthed   = 4005
	closeInvalidShard    = 4010
	closeShardingReqd    = 4011
	closeDisallowedIntnt = 4014
)

// privilegedIntents need to be enabled in the developer portal.
const privilegedIntents = discordgo.IntentGuildMembers | discordgo.IntentGuildPresences | discordgo.IntentMessageContent

// errNotConnected is returned when no bot session is on the gateway.
var errNotConnected = errors.New("fakediscord: no gateway session connected")

// gateway is the fake's gateway state, guarded by Fake.mu.
type gateway struct {
	conns      map[*gwConn]bool
	sessions   map[string]*gwSession
	live       map[int]*gwSession // by shard ID: the session dispatches go to
	identifies []Identify
	resumes    int
}

// Identify is an IDENTIFY payload the fake received. (discordgo's own
// Identify type cannot decode what discordgo sends: its presence carries
// an activity whose created_at is a time string.)
type Identify struct {
	Token          string           `json:"token"`
	Compress       bool             `json:"compress"`
	LargeThreshold int              `json:"large_threshold"`
	Shard          *[2]int          `json:"shard"`
	Intents        discordgo.Intent `json:"intents"`
	Raw            json.RawMessage  `json:"-"` // the whole payload
	// Time is when the fake received the IDENTIFY.
	Time time.Time `json:"-"`
	// CloseCode is the close code the fake refused the IDENTIFY with
	// (4004, 4010, 4011, 4014, …), 0 when it answered READY.
	CloseCode int `json:"-"`
}

func newGateway() gateway {
	return gateway{conns: map[*gwConn]bool{}, sessions: map[string]*gwSession{}, live: map[int]*gwSession{}}
}

// connList returns the open connections.
func (g *gateway) connList() []*gwConn {
	out := make([]*gwConn, 0, len(g.conns))
	for c := range g.conns {
		out = append(out, c)
	}
	return out
}

// gwSession is a gateway session: what READY started and RESUME
// continues. Its fields are guarded by Fake.mu.
type gwSession struct {
	id       string
	seq      int64
	log      []gwFrame // every dispatch, replayed on resume
	conn     *gwConn   // current connection, nil while disconnected
	compress bool
	shard    int // the shard ID it identified with
}

// gwFrame is a dispatched event as sent.
type gwFrame struct {
	seq  int64
	data []byte
}

// gwConn is one websocket connection. A writer goroutine sends the queued
// frames in order so that no network write happens under Fake.mu.
type gwConn struct {
	ws      *websocket.Conn
	out     chan gwOut
	done    chan struct{} // closed by end
	written chan struct{} // closed when writeLoop returns
	endOnce sync.Once

	session    *gwSession // guarded by Fake.mu
	heartbeats int        // guarded by Fake.mu
}

// gwOut is a frame to write, or a close frame when code is not zero.
type gwOut struct {
	data     []byte
	compress bool
	code     int
	text     string
}

// send queues a frame. A connection too slow to keep up is dropped.
func (c *gwConn) send(data []byte, compress bool) {
	select {
	case c.out <- gwOut{data: data, compress: compress}:
	case <-c.done:
	default:
		c.end()
	}
}

// closeWith sends a close frame with code and text, then closes.
func (c *gwConn) closeWith(code int, text string) {
	select {
	case c.out <- gwOut{code: code, text: text}:
	default:
		c.end()
	}
}

// end closes the connection at once.
func (c *gwConn) end() {
	c.endOnce.Do(func() {
		close(c.done)
		_ = c.ws.Close()
	})
}

// writeLoop writes queued frames until the connection ends.
func (c *gwConn) writeLoop() {
	defer close(c.written)
	defer c.end()
	var z deflater
	for {
		select {
		case <-c.done:
			return
		case o := <-c.out:
			_ = c.ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
			if o.code != 0 {
				_ = c.ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(o.code, o.text))
				return
			}
			kind, data := websocket.TextMessage, o.data
			if o.compress {
				kind, data = websocket.BinaryMessage, z.deflate(data)
			}
			if c.ws.WriteMessage(kind, data) != nil {
				return
			}
		}
	}
}

// deflater compresses a connection's payloads the way Discord's
// per-payload compression does: one complete zlib stream per message. It
// keeps one compressor, reset for each message (a new one allocates about
// a megabyte, a fifth of what a game's end-to-end test allocated).
type deflater struct {
	buf bytes.Buffer
	z   *zlib.Writer
}

// deflate returns data compressed, valid until the next call.
func (d *deflater) deflate(data []byte) []byte {
	d.buf.Reset()
	if d.z == nil {
		d.z = zlib.NewWriter(&d.buf)
	} else {
		d.z.Reset(&d.buf)
	}
	_, _ = d.z.Write(data)
	_ = d.z.Close()
	return d.buf.Bytes()
}

// gwPayload is a gateway frame.
type gwPayload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

// frame encodes a gateway frame.
func frame(op int, d any, seq int64, t string) []byte {
	p := map[string]any{"op": op, "d": d, "s": nil, "t": nil}
	if t != "" {
		p["s"], p["t"] = seq, t
	}
	data, _ := json.Marshal(p)
	return data
}

// getGateway serves GET /gateway.
func (f *Fake) getGateway(*Call) (int, any) {
	return http.StatusOK, map[string]any{"url": f.GatewayURL()}
}

// getGatewayBot serves GET /gateway/bot: the configured shard count and
// identify concurrency (WithShards).
func (f *Fake) getGatewayBot(*Call) (int, any) {
	f.mu.Lock()
	remaining := max(0, 1000-len(f.gw.identifies))
	f.mu.Unlock()
	return http.StatusOK, map[string]any{
		"url": f.GatewayURL(), "shards": f.cfg.shards,
		"session_start_limit": map[string]int{
			"total": 1000, "remaining": remaining, "reset_after": 86400000, "max_concurrency": f.cfg.maxConcurrency,
		},
	}
}

// serveGateway runs one websocket connection: HELLO, then IDENTIFY or
// RESUME, heartbeats, and the dispatches the fake sends.
func (f *Fake) serveGateway(w http.ResponseWriter, r *http.Request) {
	if enc := r.URL.Query().Get("encoding"); enc != "" && enc != "json" {
		http.Error(w, "the fake speaks only encoding=json", http.StatusBadRequest)
		return
	}
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	conn := &gwConn{ws: ws, out: make(chan gwOut, 4096), done: make(chan struct{}), written: make(chan struct{})}
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		_ = ws.Close()
		return
	}
	f.gw.conns[conn] = true
	f.wg.Add(2)
	f.mu.Unlock()
	go func() {
		defer f.wg.Done()
		conn.writeLoop()
	}()
	defer f.wg.Done()
	defer f.dropConn(conn)
	conn.send(frame(10, map[string]any{"heartbeat_interval": f.cfg.heartbeat.Milliseconds()}, 0, ""), false)
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		if !f.handleFrame(conn, data) {
			// Let the writer send the close frame before the
			// connection is dropped.
			select {
			case <-conn.written:
			case <-time.After(2 * time.Second):
			}
			return
		}
	}
}

// handleFrame handles one frame from the client and reports whether the
// connection stays open.
func (f *Fake) handleFrame(conn *gwConn, data []byte) bool {
	var p gwPayload
	if json.Unmarshal(data, &p) != nil {
		conn.closeWith(closeDecodeError, "Error while decoding payload.")
		return false
	}
	switch p.Op {
	case 1: // heartbeat
		f.mu.Lock()
		conn.heartbeats++
		f.notifyLocked()
		f.mu.Unlock()
		conn.send(frame(11, nil, 0, ""), false)
	case 2:
		return f.identify(conn, p.D)
	case 6:
		return f.resume(conn, p.D)
	case 3, 4, 8: // presence, voice state, request guild members: ignored
	default:
		conn.closeWith(closeUnknownOpcode, "Unknown opcode.")
		return false
	}
	return true
}

// dropConn forgets a connection whose reader ended.
func (f *Fake) dropConn(conn *gwConn) {
	conn.end()
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.gw.conns, conn)
	if s := conn.session; s != nil && s.conn == conn {
		s.conn = nil
		if f.gw.live[s.shard] == s {
			delete(f.gw.live, s.shard)
		}
	}
	f.notifyLocked()
}

// shardTakeover is how long an IDENTIFY for a shard whose connection is
// still open waits for that connection to go (a restarted bot whose old
// socket the fake has not seen close yet) before it is refused.
const shardTakeover = time.Second

// identify answers IDENTIFY with READY and a GUILD_CREATE per guild of
// the shard, or closes the connection as Discord would. It reports
// whether the connection stays open.
func (f *Fake) identify(conn *gwConn, d json.RawMessage) bool {
	id := Identify{Raw: d, Time: time.Now()}
	if json.Unmarshal(d, &id) != nil {
		conn.closeWith(closeDecodeError, "Error while decoding payload.")
		return false
	}
	shard := [2]int{0, 1}
	if id.Shard != nil {
		shard = *id.Shard
	}
	ctx, cancel := context.WithTimeout(context.Background(), shardTakeover)
	_ = f.waitUntil(ctx, func() bool {
		s := f.gw.live[shard[0]]
		return s == nil || s.conn == nil || s.conn == conn
	})
	cancel()
	f.mu.Lock()
	defer f.mu.Unlock()
	code, text := f.refuseIdentifyLocked(conn, id, shard)
	id.CloseCode = code
	f.gw.identifies = append(f.gw.identifies, id)
	if code != 0 {
		conn.closeWith(code, text)
		f.notifyLocked()
		return false
	}
	s := &gwSession{id: newToken(""), conn: conn, compress: id.Compress, shard: shard[0]}
	conn.session = s
	f.gw.sessions[s.id] = s
	guilds := f.shardGuilds(shard[0], shard[1])
	unavailable := []map[string]any{}
	for _, g := range guilds {
		unavailable = append(unavailable, map[string]any{"id": g.ID, "unavailable": true})
	}
	ready := map[string]any{
		"v":                  9,
		"user":               f.botUser(),
		"guilds":             unavailable,
		"session_id":         s.id,
		"session_type":       "normal",
		"resume_gateway_url": f.GatewayURL(),
		"application":        map[string]any{"id": f.AppID, "flags": f.cfg.appFlags},
		"private_channels":   []any{},
	}
	if id.Shard != nil {
		ready["shard"] = id.Shard
	}
	f.sendEventLocked(s, "READY", ready)
	for _, g := range guilds {
		f.sendEventLocked(s, "GUILD_CREATE", f.wireGuildLocked(g))
	}
	f.gw.live[s.shard] = s
	f.notifyLocked()
	return true
}

// refuseIdentifyLocked returns the close code and reason an IDENTIFY is
// refused with, or 0. f.mu must be held.
func (f *Fake) refuseIdentifyLocked(conn *gwConn, id Identify, shard [2]int) (int, string) {
	switch {
	case conn.session != nil:
		return closeAlreadyAuthed, "Already authenticated."
	case strings.TrimPrefix(id.Token, "Bot ") != f.token:
		return closeAuthFailed, "Authentication failed."
	case id.Intents&privilegedIntents&^f.cfg.privileged != 0:
		return closeDisallowedIntnt, "Disallowed intent(s)."
	case shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1]:
		return closeInvalidShard, "Invalid shard."
	case f.cfg.guildsPerShard > 0 && len(f.shardGuilds(shard[0], shard[1])) > f.cfg.guildsPerShard:
		return closeShardingReqd, "Sharding required."
	case shard[1] != f.cfg.shards:
		return closeInvalidShard, "Invalid shard: the bot runs " + strconv.Itoa(f.cfg.shards) + " shards."
	}
	if s := f.gw.live[shard[0]]; s != nil && s.conn != nil {
		return closeInvalidShard, "Invalid shard: shard " + strconv.Itoa(shard[0]) + " is already connected."
	}
	return 0, ""
}

// shardGuilds returns the guilds that shard id of n handles.
func (f *Fake) shardGuilds(id, n int) []Guild {
	var out []Guild
	for _, g := range f.guilds {
		if ShardOf(g.ID, n) == id {
			out = append(out, g)
		}
	}
	return out
}

// resume answers RESUME: it replays the events the client missed and
// sends RESUMED, or sends INVALID SESSION for an unknown session.
func (f *Fake) resume(conn *gwConn, d json.RawMessage) bool {
	var rp struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if json.Unmarshal(d, &rp) != nil {
		conn.closeWith(closeDecodeError, "Error while decoding payload.")
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gw.resumes++
	if strings.TrimPrefix(rp.Token, "Bot ") != f.token {
		conn.closeWith(closeAuthFailed, "Authentication failed.")
		return false
	}
	s := f.gw.sessions[rp.SessionID]
	if s == nil || conn.session != nil {
		conn.send(frame(9, false, 0, ""), false)
		return true
	}
	if old := s.conn; old != nil && old != conn {
		old.closeWith(closeGoingAway, "Session resumed elsewhere.")
		old.session = nil
	}
	s.conn = conn
	conn.session = s
	for _, fr := range s.log {
		if fr.seq > rp.Seq {
			conn.send(fr.data, s.compress)
		}
	}
	f.sendEventLocked(s, "RESUMED", map[string]any{})
	f.gw.live[s.shard] = s
	f.notifyLocked()
	return true
}

// sendEventLocked dispatches an event on a session: it gets the next
// sequence number, is logged for resumes and is sent if the session is
// connected. f.mu must be held.
func (f *Fake) sendEventLocked(s *gwSession, t string, d any) {
	s.seq++
	data := frame(0, d, s.seq, t)
	s.log = append(s.log, gwFrame{seq: s.seq, data: data})
	if s.conn != nil {
		s.conn.send(data, s.compress)
	}
}

// guildEventLocked dispatches an event about a guild on the session of
// the guild's shard ("" for shard 0, where Discord sends DM events), if
// it is connected; the event is logged for a resume either way. f.mu must
// be held.
func (f *Fake) guildEventLocked(guild, t string, d any) {
	if s := f.gw.live[ShardOf(guild, f.cfg.shards)]; s != nil {
		f.sendEventLocked(s, t, d)
	}
}

// wireGuildLocked returns a guild as GUILD_CREATE sends it, with the
// threads the bot started in it. f.mu must be held.
func (f *Fake) wireGuildLocked(g Guild) map[string]any {
	channels := []any{}
	for i, c := range g.Channels {
		channels = append(channels, map[string]any{
			"id": c, "type": 0, "guild_id": g.ID, "name": f.channelNameLocked(c), "position": i,
			"permission_overwrites": []any{}, "nsfw": false, "parent_id": nil, "topic": nil, "rate_limit_per_user": 0,
		})
	}
	threads := []any{}
	for _, id := range f.chanOrder {
		if ch := f.chans[id]; ch.isThread() && ch.guild == g.ID && !ch.archived {
			threads = append(threads, f.wireChannelLocked(id))
		}
	}
	joined := time.Now().UTC().Format(time.RFC3339Nano)
	return map[string]any{
		"id": g.ID, "name": g.Name, "icon": nil, "owner_id": g.ID, "preferred_locale": f.guildLocaleLocked(g),
		"unavailable": false, "large": false, "member_count": 2, "joined_at": joined,
		"features": []string{}, "emojis": []any{}, "stickers": []any{}, "threads": threads,
		"voice_states": []any{}, "presences": []any{}, "stage_instances": []any{},
		"roles": []any{map[string]any{
			"id": g.ID, "name": "@everyone", "permissions": itoa64(DefaultMemberPermissions),
			"position": 0, "color": 0, "hoist": false, "managed": false, "mentionable": false,
		}},
		"members":  []any{map[string]any{"user": f.botUser(), "roles": []string{}, "joined_at": joined, "deaf": false, "mute": false}},
		"channels": channels,
	}
}

// WaitReady waits until a bot session is connected to the gateway
// (identified or resumed) on every shard (WithShards) and has sent its
// first heartbeat on the connection. discordgo sends that heartbeat as
// soon as Open returns; closing a session before it can make discordgo's
// heartbeat goroutine see a failed write and reconnect.
func (f *Fake) WaitReady(ctx context.Context) error {
	return f.waitUntil(ctx, func() bool {
		for shard := range f.cfg.shards {
			if !f.shardReadyLocked(shard) {
				return false
			}
		}
		return true
	})
}

// WaitShard waits until a bot session is connected on one shard and has
// sent its first heartbeat, as WaitReady does for all of them.
func (f *Fake) WaitShard(ctx context.Context, shard int) error {
	return f.waitUntil(ctx, func() bool { return f.shardReadyLocked(shard) })
}

// shardReadyLocked reports whether a shard's session is connected and has
// heartbeated. f.mu must be held.
func (f *Fake) shardReadyLocked(shard int) bool {
	s := f.gw.live[shard]
	return s != nil && s.conn != nil && s.conn.heartbeats > 0
}

// Identifies returns the IDENTIFY payloads received, in order.
func (f *Fake) Identifies() []Identify {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Identify(nil), f.gw.identifies...)
}

// Resumes returns how many RESUME payloads were received.
func (f *Fake) Resumes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gw.resumes
}

// DropConnections closes every gateway connection abruptly, as a network
// failure would; sessions stay resumable.
func (f *Fake) DropConnections() {
	f.mu.Lock()
	conns := f.gw.connList()
	f.mu.Unlock()
	for _, c := range conns {
		c.end()
	}
}

// DropShard closes the connection of one shard's session abruptly, as a
// network failure would; the session stays resumable. It reports whether
// the shard was connected.
func (f *Fake) DropShard(shard int) bool {
	f.mu.Lock()
	s := f.gw.live[shard]
	var conn *gwConn
	if s != nil {
		conn = s.conn
	}
	f.mu.Unlock()
	if conn == nil {
		return false
	}
	conn.end()
	return true
}
