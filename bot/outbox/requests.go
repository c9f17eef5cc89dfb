package outbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/outbox/queue"
	"github.com/malefiz-discord/malefiz/ratelimit"
	"github.com/malefiz-discord/malefiz/store"
)

// The Discord request of each kind of effect.

// attempt makes the request of effect ef of game g, and returns what
// Discord answered and where a new message's ID goes.
func (s *Sender) attempt(ctx context.Context, e store.Effect, ef queue.Effect, g *malefiz.Game) (string, *malefiz.MessageRecord, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if ef.InPlay && g.ThreadID != "" {
		ef.Channel = g.ThreadID
	}
	switch ef.Op {
	case queue.DM:
		return s.sendDM(ctx, e, ef, g)
	case queue.Thread, queue.Member, queue.Archive, queue.Settle:
		return s.threadOp(ctx, ef, g)
	case queue.Delete:
		return s.deleteMessage(ctx, ef, g)
	case queue.Post:
		id, err := s.postMessage(ctx, e, ef)
		if err != nil {
			return "", nil, err
		}
		return id, record(ef.Record, id), nil
	case queue.Edit:
		return s.editMessage(ctx, e, ef, g)
	case queue.Adopt:
		return s.adopt(ctx, ef)
	}
	return "", nil, fmt.Errorf("unknown effect %q", ef.Op)
}

func record(role malefiz.MessageRole, id string) *malefiz.MessageRecord {
	if role == "" {
		return nil
	}
	return &malefiz.MessageRecord{Role: role, MessageID: id}
}

// nonce is the nonce of effect e's message: a repeated create within
// Discord's window returns the message the first one made.
func nonce(e store.Effect) string { return "mf" + strconv.FormatInt(e.ID, 10) }

// postMessage creates the effect's message: as a follow-up of the
// interaction that made the change where it may (see followup), else with
// the bot's token and Discord's nonce, so that sending it again creates
// nothing new.
func (s *Sender) postMessage(ctx context.Context, e store.Effect, ef queue.Effect) (string, error) {
	ef.Body, _ = s.withChances(ef.Body, ef) // a follow-up too; a new message is not edited again
	var body map[string]json.RawMessage
	if err := json.Unmarshal(ef.Body, &body); err != nil {
		return "", err
	}
	// Discord's edit body names attachments to keep; a new message has none.
	delete(body, "attachments")
	if ids := followable(ef, body); len(ids) > 0 {
		if !ef.FirstTry {
			// An earlier try may have made it as a follow-up, which
			// has no nonce: look for it before posting again.
			if id, err := s.findPosted(ctx, ef.Channel, ids); err != nil || id != "" {
				return id, err
			}
		}
		if s.live(ef.Via) {
			id, err := s.followup(ctx, ef, body)
			if err == nil || retryable(err) {
				return id, err // a retry looks for it first
			}
			// Refused for good (a token Discord no longer knows, say):
			// nothing was made with it, and the bot's token may post it.
			s.log.Warn("outbox: a follow-up refused, posting by the bot's token", "channel", ef.Channel, "err", err)
		}
	}
	body["nonce"] = mustJSON(nonce(e))
	body["enforce_nonce"] = mustJSON(true)
	endpoint := discordgo.EndpointChannelMessages(ef.Channel)
	data, err := s.request(ctx, http.MethodPost, endpoint, endpoint, mustJSON(body), ef)
	if err != nil {
		return "", err
	}
	// Only the new message's ID is read: decoding the whole message built
	// every layout component of the card Discord sends back.
	var m struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return "", err
	}
	return m.ID, nil
}

// editMessage edits the game's message that the effect targets; when it is
// gone and the effect says so, the message is posted again.
func (s *Sender) editMessage(ctx context.Context, e store.Effect, ef queue.Effect, g *malefiz.Game) (string, *malefiz.MessageRecord, error) {
	raw := ef.Body
	var later <-chan map[string]string
	ef.Body, later = s.withChances(ef.Body, ef)
	ef.Chances = nil // read: a repost below does not read them again
	id := messageID(g, ef.Target)
	if id != "" {
		endpoint := discordgo.EndpointChannelMessage(ef.Channel, id)
		_, err := s.request(ctx, http.MethodPatch, endpoint, discordgo.EndpointChannelMessages(ef.Channel), ef.Body, ef)
		if err == nil {
			if later != nil {
				go s.refresh(e, ef, raw, later)
			}
			return id, nil, nil
		}
		if isCode(err, discordgo.ErrCodePerformedOperationOnArchivedThread) {
			// Archived by a moderator or by Discord: its messages stay
			// as they are (the card in the channel tells the game).
			return "thread archived", nil, nil
		}
		if !isCode(err, discordgo.ErrCodeUnknownMessage) {
			return "", nil, err
		}
	}
	if !ef.Repost {
		return "gone", nil, nil // nothing worth posting again
	}
	newID, err := s.postMessage(ctx, e, ef)
	if err != nil {
		return "", nil, err
	}
	return newID, record(ef.Target, newID), nil
}

// request sends body (JSON) to endpoint, with the effect's board and chance
// chart attached when it has them. A picture that cannot be drawn fails the
// same way every time: the message goes without it (Config.WithoutPicture:
// what shows it dropped, which Discord would refuse without the file)
// rather than not at all.
func (s *Sender) request(ctx context.Context, method, endpoint, bucket string, body json.RawMessage, ef queue.Effect) ([]byte, error) {
	var files []*discordgo.File
	for _, p := range []struct {
		want bool
		name string
		draw func() (*discordgo.File, error)
	}{
		{ef.Board != nil, BoardFile, func() (*discordgo.File, error) {
			if s.cfg.Board == nil {
				return nil, fmt.Errorf("no board drawer")
			}
			return s.cfg.Board(*ef.Board)
		}},
		{ef.Chart != nil, ChartFile, func() (*discordgo.File, error) {
			if s.cfg.Chart == nil {
				return nil, fmt.Errorf("no chart drawer")
			}
			return s.cfg.Chart(ef.Chart)
		}},
	} {
		if !p.want {
			continue
		}
		f, err := p.draw()
		if err != nil {
			s.log.Error("outbox: could not draw a picture", "picture", p.name, "channel", ef.Channel, "err", err)
			if s.cfg.WithoutPicture != nil {
				body = s.cfg.WithoutPicture(body, p.name)
			}
			continue
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return s.dc.RequestWithBucketID(method, endpoint, body, bucket, discordgo.WithContext(ctx))
	}
	contentType, data, err := discordgo.MultipartBodyWithJSON(body, files)
	if err != nil {
		return nil, err
	}
	return s.dc.RequestRaw(method, endpoint, contentType, data, bucket, 0, discordgo.WithContext(ctx))
}

// withChances is body with the chances it shows (the effect's Chances,
// read now) in place of their tokens, and where better ones will come,
// if they will. The scoreboard card's chances are read at delivery, not
// at commit: reading them well plays the position out, which a click
// must not wait for, and neither must a delivery: the card goes with the
// chances known at once, and is edited again (refresh) when the better
// ones come.
func (s *Sender) withChances(body json.RawMessage, ef queue.Effect) (json.RawMessage, <-chan map[string]string) {
	if len(ef.Chances) == 0 || s.cfg.Chances == nil {
		return body, nil
	}
	words, later, err := s.cfg.Chances(ef.Chances)
	if err != nil {
		s.log.Error("outbox: could not read the chances", "channel", ef.Channel, "err", err)
		return body, nil
	}
	return withWords(body, words), later
}

// withWords is body with each token of words replaced by its words,
// escaped for JSON.
func withWords(body json.RawMessage, words map[string]string) json.RawMessage {
	out := string(body)
	for token, w := range words {
		quoted, err := json.Marshal(w)
		if err != nil {
			continue
		}
		out = strings.ReplaceAll(out, token, string(quoted[1:len(quoted)-1]))
	}
	return json.RawMessage(out)
}

// refresh edits the message of effect e, delivered with the chances known
// then, again with the better ones when they come (raw is its body with
// the tokens), unless a newer effect of its queue has come meanwhile: the
// message shows, or will show, a later state. A refresh that fails is
// let go: the next edit of the message brings its chances.
func (s *Sender) refresh(e store.Effect, ef queue.Effect, raw json.RawMessage, later <-chan map[string]string) {
	words, ok := <-later
	if !ok {
		return
	}
	defer s.lockStream(e)()
	ctx, cancel := context.WithTimeout(ratelimit.Deferrable(context.Background()), 2*callTimeout)
	defer cancel()
	if newer, err := s.db.Superseded(ctx, e); err != nil || newer {
		return
	}
	g, err := s.streamGame(ctx, e)
	if err != nil {
		return
	}
	id := messageID(g, ef.Target)
	if id == "" {
		return
	}
	endpoint := discordgo.EndpointChannelMessage(ef.Channel, id)
	if _, err := s.request(ctx, http.MethodPatch, endpoint, discordgo.EndpointChannelMessages(ef.Channel), withWords(raw, words), ef); err != nil {
		s.log.Warn("outbox: could not edit the chances in", "game", e.GameID, "effect", e.ID, "err", err)
	}
}

// messageID is the recorded ID of the game's message of role.
func messageID(g *malefiz.Game, role malefiz.MessageRole) string {
	switch role {
	case malefiz.RoleTurn:
		return g.TurnMessageID
	case malefiz.RoleReminder:
		return g.ReminderMessageID
	case malefiz.RoleThread:
		return g.ThreadID
	}
	return g.LobbyMessageID
}

// threadOp makes the request of a thread effect. A thread that was never
// made (no permission, no lobby message) leaves the game in its channel:
// the ops on it are done with nothing to do.
func (s *Sender) threadOp(ctx context.Context, ef queue.Effect, g *malefiz.Game) (string, *malefiz.MessageRecord, error) {
	if ef.Op == queue.Thread {
		if g.LobbyMessageID == "" {
			// The lobby's ID was never recorded: the game plays in its
			// channel.
			return "no lobby message", nil, nil
		}
		endpoint := discordgo.EndpointChannelMessageThread(ef.Channel, g.LobbyMessageID)
		body := map[string]any{"name": ef.Name, "auto_archive_duration": threadArchiveMinutes}
		data, err := s.dc.RequestWithBucketID(http.MethodPost, endpoint, body, endpoint, discordgo.WithContext(ctx))
		if isCode(err, discordgo.ErrCodeThreadAlreadyCreatedForThisMessage) {
			// Made by an earlier try: a thread has its message's ID.
			return g.LobbyMessageID, record(ef.Record, g.LobbyMessageID), nil
		} else if err != nil {
			return "", nil, err
		}
		var ch discordgo.Channel
		if err := json.Unmarshal(data, &ch); err != nil {
			return "", nil, err
		}
		return ch.ID, record(ef.Record, ch.ID), nil
	}
	if g.ThreadID == "" {
		return "no thread", nil, nil
	}
	endpoint := discordgo.EndpointChannel(g.ThreadID)
	switch ef.Op {
	case queue.Settle:
		// Discord archives it an hour after its last message; the bot
		// edits nothing there any more.
		_, err := s.dc.RequestWithBucketID(http.MethodPatch, endpoint, map[string]any{"auto_archive_duration": settledArchiveMinutes}, endpoint, discordgo.WithContext(ctx))
		if isCode(err, discordgo.ErrCodePerformedOperationOnArchivedThread) {
			return "archived already", nil, nil
		}
		return "settled", nil, err
	case queue.Member:
		member := discordgo.EndpointThreadMember(g.ThreadID, ef.User)
		_, err := s.dc.RequestWithBucketID(http.MethodPut, member, nil, discordgo.EndpointThreadMembers(g.ThreadID), discordgo.WithContext(ctx))
		return ef.User, nil, err
	}
	_, err := s.dc.RequestWithBucketID(http.MethodPatch, endpoint, map[string]any{"archived": true}, endpoint, discordgo.WithContext(ctx))
	return "archived", nil, err
}

// deleteMessage deletes the game's message the effect targets, if it has
// one and it is still there.
func (s *Sender) deleteMessage(ctx context.Context, ef queue.Effect, g *malefiz.Game) (string, *malefiz.MessageRecord, error) {
	id := messageID(g, ef.Target)
	if id == "" {
		return "none", nil, nil
	}
	endpoint := discordgo.EndpointChannelMessage(ef.Channel, id)
	_, err := s.dc.RequestWithBucketID(http.MethodDelete, endpoint, nil, discordgo.EndpointChannelMessages(ef.Channel), discordgo.WithContext(ctx))
	if isCode(err, discordgo.ErrCodeUnknownMessage) {
		return "gone", nil, nil
	}
	if isCode(err, discordgo.ErrCodePerformedOperationOnArchivedThread) {
		return "thread archived", nil, nil
	}
	return id, nil, err
}

// threadArchiveMinutes is how long a game's thread stays open without
// messages while the game runs (Discord's longest, a week).
const threadArchiveMinutes = 10080

// settledArchiveMinutes is how long a finished game's thread stays open
// after its last message: Discord archives it then, and the players can
// still talk there until.
const settledArchiveMinutes = 60

// adopt reads the message Discord made of an interaction's answer, for
// the effect that records it.
func (s *Sender) adopt(ctx context.Context, ef queue.Effect) (string, *malefiz.MessageRecord, error) {
	m, err := s.original(ctx, &discordgo.Interaction{AppID: ef.App, Token: ef.Token})
	if err != nil {
		return "", nil, err
	}
	return m.ID, record(ef.Record, m.ID), nil
}

// originalTries and originalWait bound how long original waits for the
// message of an answer: Discord makes the message of an HTTP answer a
// little after the response, and @original is Unknown Webhook until then.
const (
	originalTries = 6
	originalWait  = 50 * time.Millisecond
)

// original reads the message of interaction i's answer (@original). An
// answer Discord has not made a message of yet (Unknown Webhook) is asked
// for again, waiting 50 ms, 100 ms, 200 ms, … in between; if it is still
// not there, the error says to try later (see retryable).
func (s *Sender) original(ctx context.Context, i *discordgo.Interaction) (*discordgo.Message, error) {
	wait := originalWait
	for try := 1; ; try++ {
		m, err := s.dc.InteractionResponse(i, discordgo.WithContext(ctx))
		if !isCode(err, discordgo.ErrCodeUnknownWebhook) {
			return m, err
		}
		if try == originalTries {
			return nil, &notYet{err}
		}
		select {
		case <-ctx.Done():
			return nil, &notYet{err}
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// notYet is a refusal that may pass: the outbox tries again later.
type notYet struct{ err error }

func (e *notYet) Error() string { return "not there yet: " + e.err.Error() }
func (e *notYet) Unwrap() error { return e.err }

// jumpLink links to message id where game g plays.
func jumpLink(g *malefiz.Game, id string) string {
	place := g.ChannelID
	if g.ThreadID != "" {
		place = g.ThreadID
	}
	return "https://discord.com/channels/" + g.GuildID + "/" + place + "/" + id
}

// sendDM delivers a direct message (decided at commit, for a user who
// wants them), through the user's DM channel, opened once and kept. Its
// link is in its text already, or is the message of the post it follows
// (linked); a delivery that does not know it (the loop) links to the
// game's message of the target's role. When Discord refuses it (the
// user's DMs are closed), the refusal is recorded for the user to hear of
// the next time they act on a game, and the ping stays their notice.
func (s *Sender) sendDM(ctx context.Context, e store.Effect, ef queue.Effect, g *malefiz.Game) (string, *malefiz.MessageRecord, error) {
	link := ""
	if ef.Linked != "" {
		link = jumpLink(g, ef.Linked) // the post this DM follows
	} else if id := messageID(g, ef.Target); id != "" {
		link = jumpLink(g, id)
		if ef.Target == malefiz.RoleLobby {
			link = "https://discord.com/channels/" + g.GuildID + "/" + g.ChannelID + "/" + id
		}
	}
	refused := func() (string, *malefiz.MessageRecord, error) {
		if err := s.db.MarkDMRefused(ctx, ef.User); err != nil {
			return "", nil, err
		}
		return "refused", nil, nil
	}
	channel, ok := s.dms.get(ef.User)
	if !ok {
		// One open at a time per user: the DMs of one user's games that
		// go at once (their starts) open the channel once, not once each
		// (Discord answers opens too fast with 40003).
		if id, err := strconv.ParseInt(ef.User, 10, 64); err == nil {
			unlock := s.dmOpens.Lock(id)
			defer unlock()
			channel, ok = s.dms.get(ef.User)
		}
	}
	if !ok {
		if s.dms.paused(s.cfg.Now()) {
			// Discord refused an open as too fast a moment ago: this
			// open would meet the same refusal, a globally limited
			// request for nothing. The DM goes as that one went.
			return dmOpensPausedResult, nil, nil
		}
		data, err := s.dc.RequestWithBucketID(http.MethodPost, discordgo.EndpointUserChannels("@me"),
			map[string]string{"recipient_id": ef.User}, discordgo.EndpointUserChannels("@me"), discordgo.WithContext(ctx))
		switch {
		case isCode(err, discordgo.ErrCodeCannotSendMessagesToThisUser):
			return refused()
		case isCode(err, discordgo.ErrCodeOpeningDirectMessagesTooFast):
			// A limit without a bucket: 400 "You are opening direct
			// messages too fast" (opcodes-and-status-codes, JSON error
			// codes). The DM is given up, not the user's DMs (they are not
			// closed): the ping in the game's channel stays the notice, and
			// the game's later effects, its next turn card among them, do
			// not wait behind a DM that Discord may refuse for a while. No
			// other channel is opened meanwhile.
			s.dms.pause(s.cfg.Now().Add(dmOpenPause))
			return "", nil, err
		case err != nil:
			return "", nil, err
		}
		var ch discordgo.Channel
		if err := json.Unmarshal(data, &ch); err != nil {
			return "", nil, err
		}
		channel = ch.ID
		s.dms.put(ef.User, channel)
	}
	body := map[string]any{"content": strings.ReplaceAll(ef.Text, queue.LinkPlaceholder, link),
		"allowed_mentions": map[string]any{"parse": []string{}},
		"nonce":            nonce(e), "enforce_nonce": true}
	endpoint := discordgo.EndpointChannelMessages(channel)
	_, err := s.dc.RequestWithBucketID(http.MethodPost, endpoint, body, endpoint, discordgo.WithContext(ctx))
	switch {
	case isCode(err, discordgo.ErrCodeCannotSendMessagesToThisUser):
		return refused()
	case isCode(err, discordgo.ErrCodeUnknownChannel):
		s.dms.forget(ef.User) // opened again on the retry
		return "", nil, &notYet{err}
	}
	return channel, nil, err
}

// mustJSON marshals a value that always marshals.
func mustJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("outbox: %v", err))
	}
	return data
}
