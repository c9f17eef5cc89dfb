package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/bwmarrin/discordgo"
	"github.com/malefiz-discord/malefiz/store"
)

// The Discord request of each kind of effect.

// attempt makes the request of effect ef of game g, and returns what
// Discord answered and where a new message's ID goes.
func (s *sender) attempt(ctx context.Context, e store.Effect, ef effect, g *store.Game, results []store.Result) (string, *store.MessageRecord, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if ef.InPlay && g.ThreadID != "" {
		ef.Channel = g.ThreadID
	}
	switch ef.Op {
	case opDM:
		return s.sendDM(ctx, e, ef, g)
	case opThread, opMember, opArchive, opSettle, opDelete:
		return s.sendThreadOp(ctx, ef, g)
	case opPost:
		id, err := s.postMessage(ctx, e, ef, results, g.Locale)
		if err != nil {
			return "", nil, err
		}
		return id, record(ef.Record, id), nil
	case opEdit:
		return s.editMessage(ctx, e, ef, g)
	case opAdopt:
		return s.adopt(ctx, ef)
	}
	return "", nil, fmt.Errorf("unknown effect %q", ef.Op)
}

func record(role store.MessageRole, id string) *store.MessageRecord {
	if role == "" {
		return nil
	}
	return &store.MessageRecord{Role: role, MessageID: id}
}

// postMessage creates the effect's message with Discord's nonce, so that
// sending it again creates nothing new.
func (s *sender) postMessage(ctx context.Context, e store.Effect, ef effect, results []store.Result, lang string) (string, error) {
	var body map[string]json.RawMessage
	if err := json.Unmarshal(ef.Body, &body); err != nil {
		return "", err
	}
	// Discord's edit body names attachments to keep; a new message has none.
	delete(body, "attachments")
	if ef.Ratings {
		if err := withRatings(lang, results, body); err != nil {
			return "", err
		}
	}
	body["nonce"] = mustJSON("mf" + strconv.FormatInt(e.ID, 10))
	body["enforce_nonce"] = mustJSON(true)
	endpoint := discordgo.EndpointChannelMessages(ef.Channel)
	data, err := s.request(ctx, http.MethodPost, endpoint, endpoint, body, ef)
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
func (s *sender) editMessage(ctx context.Context, e store.Effect, ef effect, sg *store.Game) (string, *store.MessageRecord, error) {
	id := messageID(sg, ef.Target)
	if id != "" {
		endpoint := discordgo.EndpointChannelMessage(ef.Channel, id)
		_, err := s.request(ctx, http.MethodPatch, endpoint, discordgo.EndpointChannelMessages(ef.Channel), ef.Body, ef)
		if err == nil {
			return id, nil, nil
		}
		if isDiscordCode(err, discordgo.ErrCodePerformedOperationOnArchivedThread) {
			// Archived by a moderator or by Discord: its messages stay
			// as they are (the card in the channel tells the game).
			return "thread archived", nil, nil
		}
		if !isDiscordCode(err, discordgo.ErrCodeUnknownMessage) {
			return "", nil, err
		}
	}
	if !ef.Repost {
		return "gone", nil, nil // nothing worth posting again
	}
	newID, err := s.postMessage(ctx, e, ef, nil, sg.Locale)
	if err != nil {
		return "", nil, err
	}
	return newID, record(ef.Target, newID), nil
}

// request sends body (JSON) to endpoint, with the effect's board and chance
// chart attached when it has them. A picture that cannot be drawn fails the
// same way every time: the message goes without it (its media gallery
// dropped, which Discord would refuse without the file) rather than not at
// all.
func (s *sender) request(ctx context.Context, method, endpoint, bucket string, body any, ef effect) ([]byte, error) {
	var files []*discordgo.File
	if ef.Board != nil {
		if f, err := s.board(*ef.Board); err != nil {
			s.log.Error("could not draw the board", "channel", ef.Channel, "err", err)
			body = withoutPicture(body, boardURL)
		} else {
			files = append(files, f)
		}
	}
	if ef.Chart != nil {
		if f, err := chartFile(ef.Chart); err != nil {
			s.log.Error("could not draw the chance chart", "channel", ef.Channel, "err", err)
			body = withoutPicture(body, chartURL)
		} else {
			files = append(files, f)
		}
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

// withoutPicture is a request body (JSON, or a decoded post) without the
// media gallery that shows the attachment url.
func withoutPicture(body any, url string) any {
	data, err := json.Marshal(body)
	if err != nil {
		return body
	}
	return withoutGallery(data, url)
}

// messageID is the recorded ID of the game's message of role.
func messageID(sg *store.Game, role store.MessageRole) string {
	switch role {
	case store.RoleTurn:
		return sg.TurnMessageID
	case store.RoleReminder:
		return sg.ReminderMessageID
	case store.RoleThread:
		return sg.ThreadID
	}
	return sg.LobbyMessageID
}

// sendThreadOp makes the request of a thread or delete effect. A thread
// that was never made (no permission, no lobby message) leaves the game in
// its channel: the ops on it are done with nothing to do.
func (s *sender) sendThreadOp(ctx context.Context, ef effect, sg *store.Game) (string, *store.MessageRecord, error) {
	switch ef.Op {
	case opThread:
		if sg.LobbyMessageID == "" {
			// The lobby's ID was never recorded: the game plays in
			// its channel.
			return "no lobby message", nil, nil
		}
		endpoint := discordgo.EndpointChannelMessageThread(ef.Channel, sg.LobbyMessageID)
		body := map[string]any{"name": ef.Name, "auto_archive_duration": threadArchiveMinutes}
		data, err := s.dc.RequestWithBucketID(http.MethodPost, endpoint, body, endpoint, discordgo.WithContext(ctx))
		if isDiscordCode(err, discordgo.ErrCodeThreadAlreadyCreatedForThisMessage) {
			// Made by an earlier try: a thread has its message's ID.
			return sg.LobbyMessageID, record(ef.Record, sg.LobbyMessageID), nil
		} else if err != nil {
			return "", nil, err
		}
		var ch discordgo.Channel
		if err := json.Unmarshal(data, &ch); err != nil {
			return "", nil, err
		}
		return ch.ID, record(ef.Record, ch.ID), nil
	case opMember, opArchive, opSettle:
		if sg.ThreadID == "" {
			return "no thread", nil, nil
		}
		if ef.Op == opSettle {
			// Discord archives it an hour after its last message; the
			// bot edits nothing there any more.
			endpoint := discordgo.EndpointChannel(sg.ThreadID)
			_, err := s.dc.RequestWithBucketID(http.MethodPatch, endpoint, map[string]any{"auto_archive_duration": settledArchiveMinutes}, endpoint, discordgo.WithContext(ctx))
			if isDiscordCode(err, discordgo.ErrCodePerformedOperationOnArchivedThread) {
				return "archived already", nil, nil
			}
			return "settled", nil, err
		}
		if ef.Op == opMember {
			endpoint := discordgo.EndpointThreadMember(sg.ThreadID, ef.User)
			_, err := s.dc.RequestWithBucketID(http.MethodPut, endpoint, nil, discordgo.EndpointThreadMembers(sg.ThreadID), discordgo.WithContext(ctx))
			return ef.User, nil, err
		}
		endpoint := discordgo.EndpointChannel(sg.ThreadID)
		_, err := s.dc.RequestWithBucketID(http.MethodPatch, endpoint, map[string]any{"archived": true}, endpoint, discordgo.WithContext(ctx))
		return "archived", nil, err
	}
	id := messageID(sg, ef.Target)
	if id == "" {
		return "none", nil, nil
	}
	endpoint := discordgo.EndpointChannelMessage(ef.Channel, id)
	_, err := s.dc.RequestWithBucketID(http.MethodDelete, endpoint, nil, discordgo.EndpointChannelMessages(ef.Channel), discordgo.WithContext(ctx))
	if isDiscordCode(err, discordgo.ErrCodeUnknownMessage) {
		return "gone", nil, nil
	}
	if isDiscordCode(err, discordgo.ErrCodePerformedOperationOnArchivedThread) {
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
