package fakediscord_test

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

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
