package ratelimit

import (
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// Session is a discordgo session whose requests for the bot bypass
// discordgo's own buckets: each goes on a bucket of its own that discordgo
// does not keep. With the Transport below it, those buckets had nothing to
// do but hold a mutex for the whole request: a click's callback was kept
// under its full URL, token included (one entry per click, never removed),
// the edits of every interaction's messages queued behind one mutex
// (EndpointWebhookToken("", "")), and a channel's POST and PATCH behind
// another. The Transport keeps the real buckets.
//
// Session overrides the methods bot.Discord names; every other method is
// the embedded session's, as discordgo has it.
type Session struct {
	*discordgo.Session
}

// unkept sends a request on a fresh bucket, never stored in the session's
// Ratelimiter.
func (s Session) unkept(method, url, contentType string, body []byte, options []discordgo.RequestOption) ([]byte, error) {
	b := &discordgo.Bucket{Key: method + " " + url, Remaining: 1}
	b.Lock() // RequestWithLockedBucket releases it
	return s.RequestWithLockedBucket(method, url, contentType, body, b, 0, options...)
}

// unkeptJSON sends data as JSON (nothing for nil data) on a fresh bucket.
func (s Session) unkeptJSON(method, url string, data any, options []discordgo.RequestOption) ([]byte, error) {
	var body []byte
	if data != nil {
		var err error
		if body, err = discordgo.Marshal(data); err != nil {
			return nil, err
		}
	}
	return s.unkept(method, url, "application/json", body, options)
}

// RequestWithBucketID sends data as JSON; bucketID is not used.
func (s Session) RequestWithBucketID(method, urlStr string, data any, _ string, options ...discordgo.RequestOption) ([]byte, error) {
	return s.unkeptJSON(method, urlStr, data, options)
}

// RequestRaw sends b as it is; bucketID and sequence are not used.
func (s Session) RequestRaw(method, urlStr, contentType string, b []byte, _ string, _ int, options ...discordgo.RequestOption) ([]byte, error) {
	return s.unkept(method, urlStr, contentType, b, options)
}

// InteractionRespond answers an interaction (its callback).
func (s Session) InteractionRespond(i *discordgo.Interaction, r *discordgo.InteractionResponse, options ...discordgo.RequestOption) error {
	endpoint := discordgo.EndpointInteractionResponse(i.ID, i.Token)
	if r.Data != nil && len(r.Data.Files) > 0 {
		contentType, body, err := discordgo.MultipartBodyWithJSON(r, r.Data.Files)
		if err != nil {
			return err
		}
		_, err = s.unkept(http.MethodPost, endpoint, contentType, body, options)
		return err
	}
	_, err := s.unkeptJSON(http.MethodPost, endpoint, *r, options)
	return err
}

// InteractionResponse reads the answer to an interaction.
func (s Session) InteractionResponse(i *discordgo.Interaction, options ...discordgo.RequestOption) (*discordgo.Message, error) {
	data, err := s.unkeptJSON(http.MethodGet, discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original"), nil, options)
	return message(data, err)
}

// FollowupMessageCreate posts a follow-up of an interaction.
func (s Session) FollowupMessageCreate(i *discordgo.Interaction, wait bool, data *discordgo.WebhookParams, options ...discordgo.RequestOption) (*discordgo.Message, error) {
	uri := discordgo.EndpointWebhookToken(i.AppID, i.Token)
	if wait {
		uri += "?wait=true"
	}
	var res []byte
	var err error
	if len(data.Files) > 0 {
		contentType, body, merr := discordgo.MultipartBodyWithJSON(data, data.Files)
		if merr != nil {
			return nil, merr
		}
		res, err = s.unkept(http.MethodPost, uri, contentType, body, options)
	} else {
		res, err = s.unkeptJSON(http.MethodPost, uri, data, options)
	}
	if !wait || err != nil {
		return nil, err
	}
	return message(res, nil)
}

// InteractionResponseEdit edits the answer to an interaction.
func (s Session) InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, options ...discordgo.RequestOption) (*discordgo.Message, error) {
	uri := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	var res []byte
	var err error
	if len(e.Files) > 0 {
		contentType, body, merr := discordgo.MultipartBodyWithJSON(e, e.Files)
		if merr != nil {
			return nil, merr
		}
		res, err = s.unkept(http.MethodPatch, uri, contentType, body, options)
	} else {
		res, err = s.unkeptJSON(http.MethodPatch, uri, e, options)
	}
	return message(res, err)
}

// InteractionResponseDelete deletes the answer to an interaction.
func (s Session) InteractionResponseDelete(i *discordgo.Interaction, options ...discordgo.RequestOption) error {
	_, err := s.unkeptJSON(http.MethodDelete, discordgo.EndpointInteractionResponseActions(i.AppID, i.Token), nil, options)
	return err
}

// message decodes a message answered.
func message(data []byte, err error) (*discordgo.Message, error) {
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	if err := discordgo.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}
