package fakediscord

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// settableFlags are the message flags a bot may set when creating or
// editing a message; the ephemeral flag is handled by the callers.
const settableFlags = discordgo.MessageFlagsSuppressEmbeds |
	discordgo.MessageFlagsSuppressNotifications |
	discordgo.MessageFlagsIsComponentsV2

// applyPayload applies the fields of a create or edit payload and the
// uploaded files to m, with Discord's edit rules: a missing field is kept,
// "content": null empties the content, "embeds": null removes the embeds,
// "components": null is ignored, existing attachments are kept unless
// "attachments" lists the ones to keep, and files are added.
func applyPayload(m *Message, fs map[string]json.RawMessage, files []File) *apiError {
	if raw, ok := fs["content"]; ok {
		var s *string
		if json.Unmarshal(raw, &s) != nil {
			return invalidForm("BASE_TYPE_STRING", "Must be a string.", "content")
		}
		m.Content = ""
		if s != nil {
			m.Content = *s
		}
	}
	if raw, ok := fs["embeds"]; ok {
		var e []*discordgo.MessageEmbed
		if json.Unmarshal(raw, &e) != nil {
			return invalidForm("BASE_TYPE_ARRAY", "Must be an array.", "embeds")
		}
		m.Embeds = e
	}
	if raw, ok := fs["components"]; ok && !isNull(raw) {
		var cs []Component
		if json.Unmarshal(raw, &cs) != nil {
			return invalidForm("BASE_TYPE_ARRAY", "Must be an array.", "components")
		}
		m.Components = cs
	}
	if raw, ok := fs["allowed_mentions"]; ok {
		var am *discordgo.MessageAllowedMentions
		if json.Unmarshal(raw, &am) != nil {
			return invalidForm("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType", "allowed_mentions")
		}
		m.AllowedMentions = am
	}
	if raw, ok := fs["flags"]; ok && !isNull(raw) {
		var fl discordgo.MessageFlags
		if json.Unmarshal(raw, &fl) != nil {
			return invalidForm("NUMBER_TYPE_COERCE", "Value is not int.", "flags")
		}
		m.Flags = m.Flags&^settableFlags | fl&settableFlags
	}
	keep := append([]Attachment(nil), m.Attachments...)
	described := map[string]string{} // alt text by attachment ID or upload index
	if raw, ok := fs["attachments"]; ok && !isNull(raw) {
		var list []struct {
			ID          json.RawMessage `json:"id"`
			Description *string         `json:"description"`
		}
		if json.Unmarshal(raw, &list) != nil {
			return invalidForm("BASE_TYPE_ARRAY", "Must be an array.", "attachments")
		}
		ids := map[string]bool{}
		fe := formErrors{}
		for i, a := range list {
			id := strings.Trim(string(a.ID), `" `)
			ids[id] = true
			// An entry names an attachment the message keeps, or a file
			// of this request by its index ("Attachment id, for new
			// attachments this must match the n in files[n]", the
			// attachment request structure,
			// https://discord.com/developers/docs/resources/message#attachment-object-attachment-request-structure).
			// One that names neither is refused as Discord refuses it:
			// 50035 with "attachments": {"1": {"_errors": [{"code":
			// "ATTACHMENT_NOT_FOUND", "message": "Attachment data not
			// found"}]}} (Discord's answer quoted in
			// https://github.com/Cogmasters/concord/issues/78).
			if !slices.ContainsFunc(m.Attachments, func(k Attachment) bool { return k.ID == id }) {
				if n, err := strconv.Atoi(id); err != nil || n < 0 || n >= len(files) {
					fe.add("ATTACHMENT_NOT_FOUND", "Attachment data not found", "attachments", strconv.Itoa(i))
				}
			}
			if a.Description != nil {
				maxLen(fe, *a.Description, maxAltText, "attachments", strconv.Itoa(i), "description")
				described[id] = *a.Description
			}
		}
		if err := fe.err(); err != nil {
			return err
		}
		keep = slices.DeleteFunc(keep, func(a Attachment) bool { return !ids[a.ID] })
		for i := range keep {
			if d, ok := described[keep[i].ID]; ok {
				keep[i].Description = d
			}
		}
	}
	for i, file := range files {
		// A new file is named in "attachments" by its index among the
		// uploads (files[i]).
		keep = append(keep, Attachment{ID: newID(), Filename: file.Name, ContentType: file.ContentType, Data: file.Data,
			Description: described[strconv.Itoa(i)]})
		m.Uploads++
		m.UploadedBytes += len(file.Data)
	}
	m.Attachments = keep
	return nil
}

// mention matches a user mention in message content.
var mention = regexp.MustCompile(`<@!?([0-9]+)>`)

// pinged returns the users a new message with this content notifies.
func pinged(content string, am *discordgo.MessageAllowedMentions) []string {
	var out []string
	for _, m := range mention.FindAllStringSubmatch(content, -1) {
		id := m[1]
		if slices.Contains(out, id) {
			continue
		}
		if am != nil && !slices.Contains(am.Parse, discordgo.AllowedMentionTypeUsers) && !slices.Contains(am.Users, id) {
			continue
		}
		out = append(out, id)
	}
	return out
}

// botUser is the bot's user object.
func (f *Fake) botUser() map[string]any {
	return map[string]any{
		"id": f.AppID, "username": "malefiz-fake", "discriminator": "0000",
		"global_name": nil, "avatar": nil, "bot": true, "public_flags": 0, "flags": 0,
	}
}

// wireMessage returns m as Discord's message object. f.mu must be held.
func (f *Fake) wireMessage(m *Message) map[string]any {
	mentions := []any{}
	for _, id := range m.Pinged {
		mentions = append(mentions, map[string]any{"id": id, "username": userName(id), "discriminator": "0", "global_name": userName(id), "avatar": nil})
	}
	attachments := []any{}
	for _, a := range m.Attachments {
		url := f.attachmentURL(m, a)
		attachments = append(attachments, map[string]any{
			"id": a.ID, "filename": a.Filename, "size": len(a.Data), "url": url, "proxy_url": url, "content_type": a.ContentType,
		})
		if a.Description != "" {
			attachments[len(attachments)-1].(map[string]any)["description"] = a.Description
		}
	}
	embeds := m.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	components := f.wireComponents(m)
	out := map[string]any{
		"id": m.ID, "channel_id": m.ChannelID, "author": f.botUser(),
		"content": m.Content, "timestamp": m.Created.UTC().Format(time.RFC3339Nano), "edited_timestamp": nil,
		"tts": false, "mention_everyone": false, "mentions": mentions, "mention_roles": []string{},
		"attachments": attachments, "embeds": embeds, "components": components,
		"flags": m.Flags, "type": m.typ, "pinned": false,
	}
	if m.GuildID != "" {
		out["guild_id"] = m.GuildID
	}
	if m.Nonce != "" {
		out["nonce"] = m.Nonce
	}
	if th := f.chans[m.ID]; th != nil && m.Flags&discordgo.MessageFlagsHasThread != 0 {
		out["thread"] = f.wireChannelLocked(th.id)
	}
	if !m.Edited.IsZero() {
		out["edited_timestamp"] = m.Edited.UTC().Format(time.RFC3339Nano)
	}
	if m.InteractionID != "" {
		out["webhook_id"] = f.AppID
		out["application_id"] = f.AppID
		out["interaction_metadata"] = map[string]any{"id": m.InteractionID, "type": m.interactionType, "user": f.wireUser(m.UserID)}
	}
	return out
}

// serveAttachment serves the bytes of an attachment at the URL given in
// the message objects: /attachments/{channel}/{id}/{filename}.
func (f *Fake) serveAttachment(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/attachments/"), "/")
	if len(parts) != 3 {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	var found *Attachment
	for _, m := range f.byChannel[parts[0]] {
		for i := range m.Attachments {
			if a := &m.Attachments[i]; a.ID == parts[1] && a.Filename == parts[2] && m.ChannelID == parts[0] {
				found = a
			}
		}
	}
	f.mu.Unlock()
	if found == nil {
		http.NotFound(w, r)
		return
	}
	if found.ContentType != "" {
		w.Header().Set("Content-Type", found.ContentType)
	}
	_, _ = w.Write(found.Data)
}
