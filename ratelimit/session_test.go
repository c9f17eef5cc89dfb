package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newSession returns a discordgo session whose client sends every request
// to d through a Transport.
func newSession(t *testing.T, d *discord, c *clock) (*discordgo.Session, *Transport) {
	t.Helper()
	s, err := discordgo.New("Bot secret")
	require.NoError(t, err)
	tr := newTransport(c, Options{Base: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host, r.Host = "http", d.srv.Listener.Addr().String(), ""
		return http.DefaultTransport.RoundTrip(r)
	})})
	s.Client = &http.Client{Transport: tr}
	return s, tr
}

// keptBuckets is how many buckets discordgo's Ratelimiter keeps (its map
// is not exported).
func keptBuckets(s *discordgo.Session) int {
	return reflect.ValueOf(s.Ratelimiter).Elem().FieldByName("buckets").Len()
}

// clicker is what a click's answer and its follow-up take.
type clicker interface {
	InteractionRespond(*discordgo.Interaction, *discordgo.InteractionResponse, ...discordgo.RequestOption) error
	FollowupMessageCreate(*discordgo.Interaction, bool, *discordgo.WebhookParams, ...discordgo.RequestOption) (*discordgo.Message, error)
}

func TestClicksLeaveDiscordgosBucketsBounded(t *testing.T) {
	for _, tc := range []struct {
		name string
		wrap func(*discordgo.Session) clicker
		most int
	}{
		{"discordgo's own", func(s *discordgo.Session) clicker {
			return s
		}, 2000},
		{"Session", func(s *discordgo.Session) clicker {
			return Session{s}
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			d := newDiscord(t, c)
			s, _ := newSession(t, d, c)
			dc := tc.wrap(s)
			for i := range 1000 {
				in := &discordgo.Interaction{ID: fmt.Sprint(1000 + i), AppID: "77", Token: fmt.Sprintf("token%d", i)}
				require.NoError(t, dc.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}))
				_, err := dc.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: "next turn"})
				require.NoError(t, err)
			}
			assert.Equal(t, tc.most, keptBuckets(s), "discordgo's buckets after 1,000 clicks")
			calls := d.log()
			require.Len(t, calls, 2000)
			assert.Equal(t, "/api/v9/interactions/1000/token0/callback", calls[0].Path)
			assert.Equal(t, "/api/v9/webhooks/77/token0", calls[1].Path)
			assert.Empty(t, calls[0].Auth, "the callback carries no token")
			assert.JSONEq(t, `{"type":6}`, calls[0].Body)
		})
	}
}

func TestSessionRequests(t *testing.T) {
	c := newClock()
	d := newDiscord(t, c)
	s, _ := newSession(t, d, c)
	dc := Session{s}
	in := &discordgo.Interaction{ID: "5", AppID: "77", Token: "tok"}
	file := func() []*discordgo.File {
		return []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: strings.NewReader("png")}}
	}
	for _, tc := range []struct {
		name, method, path string
		call               func() error
	}{
		{"respond with a file", "POST", "/api/v9/interactions/5/tok/callback", func() error {
			return dc.InteractionRespond(in, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Files: file()}})
		}},
		{"original", "GET", "/api/v9/webhooks/77/tok/messages/@original", func() error {
			_, err := dc.InteractionResponse(in)
			return err
		}},
		{"edit", "PATCH", "/api/v9/webhooks/77/tok/messages/@original", func() error {
			_, err := dc.InteractionResponseEdit(in, &discordgo.WebhookEdit{})
			return err
		}},
		{"edit with a file", "PATCH", "/api/v9/webhooks/77/tok/messages/@original", func() error {
			_, err := dc.InteractionResponseEdit(in, &discordgo.WebhookEdit{Files: file()})
			return err
		}},
		{"delete", "DELETE", "/api/v9/webhooks/77/tok/messages/@original", func() error {
			return dc.InteractionResponseDelete(in)
		}},
		{"follow-up, no wait", "POST", "/api/v9/webhooks/77/tok", func() error {
			_, err := dc.FollowupMessageCreate(in, false, &discordgo.WebhookParams{Files: file()})
			return err
		}},
		{"raw", "POST", "/api/v9/channels/1/messages", func() error {
			_, err := dc.RequestRaw("POST", discordgo.EndpointChannelMessages("1"), "application/json", []byte("{}"), "b", 0)
			return err
		}},
		{"by bucket", "PATCH", "/api/v9/channels/1/messages/2", func() error {
			_, err := dc.RequestWithBucketID("PATCH", discordgo.EndpointChannelMessage("1", "2"), map[string]int{"a": 1}, "b")
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(d.log())
			require.NoError(t, tc.call())
			calls := d.log()
			require.Len(t, calls, n+1)
			assert.Equal(t, tc.method, calls[n].Method)
			assert.Equal(t, tc.path, calls[n].Path)
		})
	}
	assert.Zero(t, keptBuckets(s))
}

func TestDiscordgoGetsAnErrorNotA429(t *testing.T) {
	c := newClock()
	d := newDiscord(t, c)
	for range 10 {
		d.fault(fault{status: 429, scope: ScopeGlobal, after: 0.5})
	}
	s, _ := newSession(t, d, c)
	_, err := Session{s}.RequestWithBucketID("POST", discordgo.EndpointChannelMessages("1"), map[string]string{}, "", discordgo.WithContext(context.Background()))
	var e *Error
	require.ErrorAs(t, err, &e, "discordgo would retry a 429 for ever")
	assert.Equal(t, DefaultRetries+1, e.Tries)
	var re *discordgo.RESTError
	assert.False(t, errors.As(err, &re))
	assert.Len(t, d.log(), DefaultRetries+1)
}
