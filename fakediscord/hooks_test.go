package fakediscord_test

import (
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

func TestNonceWithEnforceNonceCreatesOnce(t *testing.T) {
	fake := fakediscord.New(t)
	s := newSession(t, fake)
	endpoint := discordgo.EndpointChannelMessages(fake.ChannelID)
	send := func(nonce string, enforce bool) string {
		body := map[string]any{"content": "hello", "nonce": nonce, "enforce_nonce": enforce}
		data, err := s.RequestWithBucketID(http.MethodPost, endpoint, body, endpoint)
		require.NoError(t, err)
		var m discordgo.Message
		require.NoError(t, json.Unmarshal(data, &m))
		return m.ID
	}
	first := send("mf1", true)
	assert.Equal(t, first, send("mf1", true), "the same nonce returns the same message")
	assert.NotEqual(t, first, send("mf1", false), "without enforce_nonce Discord creates another")
	assert.NotEqual(t, first, send("mf2", true))
	assert.Len(t, fake.ChannelMessages(fake.ChannelID), 3)
	assert.Equal(t, 1, fake.NonceHits())
	m, _ := fake.Message(first)
	assert.Equal(t, "mf1", m.Nonce)
}

func TestOnNextRunsAtTheMomentOfTheCall(t *testing.T) {
	fake := fakediscord.New(t)
	s := newSession(t, fake)
	var before, after atomic.Int32
	fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.BeforeServe, func(fakediscord.Call) bool {
		before.Store(int32(len(fake.ChannelMessages(fake.ChannelID))))
		return false
	})
	fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.AfterServe, func(fakediscord.Call) bool {
		after.Store(int32(len(fake.ChannelMessages(fake.ChannelID))))
		return false
	})
	_, err := s.ChannelMessageSend(fake.ChannelID, "one")
	require.NoError(t, err)
	_, err = s.ChannelMessageSend(fake.ChannelID, "two")
	require.NoError(t, err)
	assert.EqualValues(t, 0, before.Load(), "before: nothing stored yet")
	assert.EqualValues(t, 1, after.Load(), "after: stored, and each hook runs once")
}

func TestOnNextDropsTheCall(t *testing.T) {
	fake := fakediscord.New(t)
	s := newSession(t, fake)
	s.MaxRestRetries = 0
	fake.OnNext(fakediscord.OnRoute(fakediscord.RouteMessageCreate), fakediscord.AfterServe, func(fakediscord.Call) bool { return true })
	_, err := s.ChannelMessageSend(fake.ChannelID, "lost answer")
	require.Error(t, err, "the answer never came")
	assert.Len(t, fake.ChannelMessages(fake.ChannelID), 1, "but the message was made")
}
