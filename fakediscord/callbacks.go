package fakediscord

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
)

// interactionCallback serves POST /interactions/{interaction}/{token}/callback.
func (f *Fake) interactionCallback(c *Call) (int, any) {
	var body struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if c.Decode(&body) != nil {
		return invalidForm("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType").reply()
	}
	data, e := fields(body.Data)
	if e != nil {
		return e.reply()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	it := f.interactions[c.Param("token")]
	if it == nil || it.id != c.Param("interaction") {
		return errUnknownInteraction().reply()
	}
	return f.answerLocked(it, c, body.Type, body.Data, data)
}

// answerLocked applies a callback of type typ with the given data to an
// interaction, as Discord does for the REST callback and for the HTTP
// answer of an interactions endpoint. f.mu must be held.
func (f *Fake) answerLocked(it *interaction, c *Call, typ discordgo.InteractionResponseType, raw json.RawMessage, data map[string]json.RawMessage) (int, any) {
	body := struct {
		Type discordgo.InteractionResponseType
		Data json.RawMessage
	}{typ, raw}
	switch {
	case it.answered:
		return (&apiError{status: http.StatusBadRequest, Code: codeAlreadyAcknowledged, Message: "Interaction has already been acknowledged."}).reply()
	case f.cfg.callbackDeadline > 0 && c.Time.Sub(it.dispatched) > f.cfg.callbackDeadline:
		return errUnknownInteraction().reply()
	}
	resp := &Response{
		InteractionID: it.id, Token: it.token, Type: body.Type,
		Data: body.Data, Files: c.Files, Latency: c.Time.Sub(it.dispatched),
	}
	isComponent := it.typ == discordgo.InteractionMessageComponent
	switch body.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		m := f.newInteractionMessage(it, c)
		if body.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			m.Flags |= discordgo.MessageFlagsLoading
			data = map[string]json.RawMessage{"flags": data["flags"]}
		}
		if e := f.fillLocked(m, data, c.Files); e != nil {
			return e.reply()
		}
		it.original = m.ID
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		if !isComponent {
			return invalidForm("INTERACTION_RESPONSE_TYPE_INVALID", "This response type is only valid for message components", "type").reply()
		}
		src := f.liveLocked(it.source)
		if src == nil {
			return errUnknownMessage().reply()
		}
		if body.Type == discordgo.InteractionResponseUpdateMessage {
			if e := f.editLocked(src, data, c.Files, c.Time); e != nil {
				return e.reply()
			}
		}
		it.original = src.ID
	case discordgo.InteractionResponseModal:
		var md Modal
		if json.Unmarshal(body.Data, &md) != nil {
			return invalidForm("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType", "data").reply()
		}
		if e := validateModal(&md); e != nil {
			return e.reply()
		}
		resp.Modal = &md
	case InteractionResponseLaunchActivity:
		if e := f.launchRefusal(it); e != nil {
			return e.reply()
		}
	default:
		return invalidForm("BASE_TYPE_CHOICES", "Value must be one of {4, 5, 6, 7, 9, 12}.", "type").reply()
	}
	it.answered = true
	if m := f.messages[it.original]; m != nil {
		snap := *m
		resp.Message = &snap
	}
	it.resp = resp
	return http.StatusNoContent, nil
}

// newInteractionMessage returns a new message answering it.
func (f *Fake) newInteractionMessage(it *interaction, c *Call) *Message {
	return &Message{
		ID: newID(), ChannelID: it.channel, GuildID: it.guild, Created: c.Time,
		InteractionID: it.id, UserID: it.user, typ: it.messageType, interactionType: it.typ,
	}
}

// fillLocked applies a create payload to a new interaction message,
// checks it and stores it. The ephemeral flag is honoured here. f.mu must
// be held.
func (f *Fake) fillLocked(m *Message, data map[string]json.RawMessage, files []File) *apiError {
	if e := applyPayload(m, data, files); e != nil {
		return e
	}
	var fl discordgo.MessageFlags
	if raw, ok := data["flags"]; ok && !isNull(raw) {
		_ = json.Unmarshal(raw, &fl)
	}
	if fl&discordgo.MessageFlagsEphemeral != 0 {
		m.Flags |= discordgo.MessageFlagsEphemeral
		m.Ephemeral = true
	}
	if e := validateMessage(m); e != nil {
		return e
	}
	if m.Flags&discordgo.MessageFlagsLoading == 0 {
		m.Pinged = pinged(mentionText(m), m.AllowedMentions)
		f.mentionJoinLocked(m)
	}
	f.storeLocked(m)
	return nil
}

// webhookLocked returns the interaction a webhook route addresses. f.mu
// must be held.
func (f *Fake) webhookLocked(c *Call) (*interaction, *apiError) {
	it := f.interactions[c.Param("token")]
	if c.Param("app") != f.AppID || it == nil || !it.answered {
		return nil, errUnknownWebhook()
	}
	if f.tokenExpiredLocked(it) {
		return nil, errInvalidWebhookToken()
	}
	return it, nil
}

// webhookTargetLocked returns the message a webhook message route
// addresses: @original or a message of the same interaction. f.mu must
// be held.
func (f *Fake) webhookTargetLocked(c *Call) (*Message, *apiError) {
	it, e := f.webhookLocked(c)
	if e != nil {
		return nil, e
	}
	id := c.Param("message")
	if id == "@original" {
		if time.Now().Before(it.readyAt) {
			// Not made yet: Discord answers as for an unknown token
			// (issue 23; WithResponseDelay).
			return nil, errUnknownWebhook()
		}
		id = it.original
	}
	m := f.liveLocked(id)
	if m == nil || (id != it.original && m.InteractionID != it.id) {
		return nil, errUnknownMessage()
	}
	return m, nil
}

// followup serves POST /webhooks/{app}/{token}: a follow-up message.
func (f *Fake) followup(c *Call) (int, any) {
	data, e := fields(c.Body)
	if e != nil {
		return e.reply()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	it, e := f.webhookLocked(c)
	if e != nil {
		return e.reply()
	}
	m := f.newInteractionMessage(it, c)
	m.typ = discordgo.MessageTypeDefault
	if e := f.fillLocked(m, data, c.Files); e != nil {
		return e.reply()
	}
	if c.Query.Get("wait") != "true" {
		return http.StatusNoContent, nil
	}
	return http.StatusOK, f.wireMessage(m)
}

// webhookMessage serves GET /webhooks/{app}/{token}/messages/{message}.
func (f *Fake) webhookMessage(c *Call) (int, any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, e := f.webhookTargetLocked(c)
	if e != nil {
		return e.reply()
	}
	return http.StatusOK, f.wireMessage(m)
}

// webhookMessageEdit serves PATCH /webhooks/{app}/{token}/messages/{message}.
func (f *Fake) webhookMessageEdit(c *Call) (int, any) {
	data, e := fields(c.Body)
	if e != nil {
		return e.reply()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	m, e := f.webhookTargetLocked(c)
	if e != nil {
		return e.reply()
	}
	if f.archivedLocked(m.ChannelID) {
		return errThreadArchived().reply()
	}
	if e := f.editLocked(m, data, c.Files, c.Time); e != nil {
		return e.reply()
	}
	return http.StatusOK, f.wireMessage(m)
}

// webhookMessageDelete serves DELETE /webhooks/{app}/{token}/messages/{message}.
func (f *Fake) webhookMessageDelete(c *Call) (int, any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, e := f.webhookTargetLocked(c)
	if e != nil {
		return e.reply()
	}
	if f.archivedLocked(m.ChannelID) {
		return errThreadArchived().reply()
	}
	m.Deleted = true
	return http.StatusNoContent, nil
}
