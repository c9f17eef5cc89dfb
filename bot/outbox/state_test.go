package outbox

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
)

// TestRecordingsForgetSafely: the recordings remember per game when IDs
// were last recorded, and what they forget makes a load older than it
// read again.
func TestRecordingsForgetSafely(t *testing.T) {
	var r recordings
	t0 := time.Now()
	r.recorded(1, t0)
	assert.True(t, r.since(1, t0), "a record at the load's time")
	assert.True(t, r.since(1, t0.Add(-time.Second)), "loaded before the record")
	assert.False(t, r.since(1, t0.Add(time.Second)), "loaded after it")
	assert.False(t, r.since(2, t0.Add(-time.Second)), "another game")

	for i := range recordingsKept {
		r.recorded(int64(100+i), t0.Add(time.Duration(i)*time.Microsecond))
	}
	late := t0.Add(2 * forgetAfter)
	r.recorded(99, late) // past the bound: the old ones go
	assert.LessOrEqual(t, len(r.last), recordingsKept)
	assert.True(t, r.since(100, t0), "a load before what was forgotten reads again")
	assert.False(t, r.since(100, late.Add(time.Second)), "a later load trusts what it read")

	var full recordings
	for i := range recordingsKept + 1 {
		full.recorded(int64(i), t0) // all recent: some are forgotten anyway
	}
	assert.LessOrEqual(t, len(full.last), recordingsKept)
	assert.True(t, full.since(5, t0), "a forgotten game reads again")
}

// TestDMChannelsAreBounded: past the bound one user's channel is
// forgotten for each new one.
func TestDMChannelsAreBounded(t *testing.T) {
	var c dmChannels
	for i := range dmChannelsKept + 10 {
		c.put(fmt.Sprint(i), "c"+fmt.Sprint(i))
	}
	assert.Len(t, c.m, dmChannelsKept)
	id, ok := c.get(fmt.Sprint(dmChannelsKept + 9))
	assert.True(t, ok)
	assert.Equal(t, fmt.Sprint("c", dmChannelsKept+9), id)
	c.forget(fmt.Sprint(dmChannelsKept + 9))
	_, ok = c.get(fmt.Sprint(dmChannelsKept + 9))
	assert.False(t, ok)
}

// TestBackoffIsCapped: the waits double from a second up to a minute,
// and never pass it, however many tries came before.
func TestBackoffIsCapped(t *testing.T) {
	for _, tc := range []struct {
		name     string
		attempts int
		max      time.Duration
	}{
		{name: "first retry", attempts: 0, max: time.Second},
		{name: "third retry", attempts: 2, max: 4 * time.Second},
		{name: "capped", attempts: 6, max: maxBackoff},
		{name: "after an hour of tries", attempts: 1000, max: maxBackoff},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 50 {
				d := backoff(tc.attempts)
				assert.LessOrEqual(t, d, tc.max)
				assert.GreaterOrEqual(t, d, tc.max*3/4)
			}
		})
	}
}

// TestRetryable: what Discord may take later is tried again; the rest is
// final.
func TestRetryable(t *testing.T) {
	rest := func(status, code int) error {
		return &discordgo.RESTError{Response: &http.Response{StatusCode: status}, Message: &discordgo.APIErrorMessage{Code: code}}
	}
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{name: "a rate limit", err: rest(http.StatusTooManyRequests, 0), want: true},
		{name: "a server error", err: rest(http.StatusBadGateway, 0), want: true},
		{name: "no answer", err: errors.New("connection reset"), want: true},
		{name: "a limiter's refusal", err: fmt.Errorf("ratelimit: %w", errors.New("budget spent")), want: true},
		{name: "an answer not made yet", err: &notYet{rest(http.StatusNotFound, discordgo.ErrCodeUnknownWebhook)}, want: true},
		{name: "a missing permission", err: rest(http.StatusForbidden, discordgo.ErrCodeMissingPermissions)},
		{name: "an unknown channel", err: rest(http.StatusNotFound, discordgo.ErrCodeUnknownChannel)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, retryable(tc.err))
		})
	}
}
