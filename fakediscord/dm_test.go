package fakediscord_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

func TestDirectMessages(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	s := newSession(t, fake)
	const alice, bob = "1100000000000000001", "1100000000000000002"

	dm, err := s.UserChannelCreate(alice)
	require.NoError(t, err)
	assert.Equal(t, discordgo.ChannelTypeDM, dm.Type)
	require.Len(t, dm.Recipients, 1)
	assert.Equal(t, alice, dm.Recipients[0].ID)
	again, err := s.UserChannelCreate(alice)
	require.NoError(t, err)
	assert.Equal(t, dm.ID, again.ID, "a user has one DM channel")
	other, err := s.UserChannelCreate(bob)
	require.NoError(t, err)
	assert.NotEqual(t, dm.ID, other.ID)
	id, ok := fake.DMChannel(alice)
	assert.True(t, ok)
	assert.Equal(t, dm.ID, id)

	m, err := s.ChannelMessageSendComplex(dm.ID, &discordgo.MessageSend{
		Content: "Your turn in Malefiz #12", Embeds: []*discordgo.MessageEmbed{{Title: "Turn 14"}},
	})
	require.NoError(t, err)
	assert.Empty(t, m.GuildID)
	msgs := fake.DMMessages(alice)
	require.Len(t, msgs, 1)
	assert.Equal(t, "Your turn in Malefiz #12", msgs[0].Content)
	assert.Empty(t, fake.DMMessages(bob))
	ch, err := s.Channel(dm.ID)
	require.NoError(t, err)
	assert.Equal(t, discordgo.ChannelTypeDM, ch.Type)
	assert.Equal(t, m.ID, ch.LastMessageID)

	// Closed DMs: the channel opens, sending is refused.
	fake.SetDMsClosed(alice, true)
	again, err = s.UserChannelCreate(alice)
	require.NoError(t, err)
	assert.Equal(t, dm.ID, again.ID)
	_, err = s.ChannelMessageSend(dm.ID, "the game ended")
	requireCode(t, err, http.StatusForbidden, 50007)
	_, err = s.ChannelMessageSend(other.ID, "the game ended")
	require.NoError(t, err, "only Alice closed her DMs")
	assert.Len(t, fake.DMMessages(alice), 1)
	fake.SetDMsClosed(alice, false)
	_, err = s.ChannelMessageSend(dm.ID, "the game ended")
	require.NoError(t, err)
	assert.Len(t, fake.DMMessages(alice), 2)

	_, err = s.UserChannelCreate("alice")
	requireCode(t, err, http.StatusBadRequest, 50035)
	assert.Contains(t, fake.Channels(), fakediscord.Channel{ID: dm.ID, Type: discordgo.ChannelTypeDM, RecipientID: alice})
	_, err = fake.SlashCommand(timeout(t, time.Second), fakediscord.Invocation{Channel: dm.ID, Name: "malefiz", Sub: "join"})
	require.ErrorIs(t, err, fakediscord.ErrInvocation, "the fake invokes only in guilds")
}

// sendWithNonce posts a channel message with a nonce, which discordgo's
// MessageSend cannot carry, and returns the message's ID and nonce.
func sendWithNonce(s *discordgo.Session, channelID string, body map[string]any) (id, nonce string, err error) {
	ep := discordgo.EndpointChannelMessages(channelID)
	data, err := s.RequestWithBucketID(http.MethodPost, ep, body, ep)
	if err != nil {
		return "", "", err
	}
	var m struct {
		ID    string `json:"id"`
		Nonce string `json:"nonce"`
	}
	err = json.Unmarshal(data, &m)
	return m.ID, m.Nonce, err
}

func TestMessageNonce(t *testing.T) {
	t.Parallel()
	const second = "1200000000000000001"
	fake := fakediscord.New(t, fakediscord.WithGuild(fakediscord.Guild{Channels: []string{"1200000000000000000", second}}), noMessageBuckets())
	s := newSession(t, fake)
	turn := map[string]any{"content": "turn 3", "nonce": "mf-42-3", "enforce_nonce": true}

	first, nonce, err := sendWithNonce(s, fake.ChannelID, turn)
	require.NoError(t, err)
	assert.Equal(t, "mf-42-3", nonce)
	retry, _, err := sendWithNonce(s, fake.ChannelID, turn)
	require.NoError(t, err)
	assert.Equal(t, first, retry, "the same nonce returns the existing message")
	assert.Len(t, fake.ChannelMessages(fake.ChannelID), 1)
	m, _ := fake.Message(first)
	assert.Equal(t, "mf-42-3", m.Nonce)
	assert.Equal(t, 1, m.NonceHits)

	elsewhere, _, err := sendWithNonce(s, second, turn)
	require.NoError(t, err)
	assert.NotEqual(t, first, elsewhere, "a nonce is per channel")
	loose, _, err := sendWithNonce(s, fake.ChannelID, map[string]any{"content": "turn 3", "nonce": "mf-42-3"})
	require.NoError(t, err)
	assert.NotEqual(t, first, loose, "without enforce_nonce the nonce is only echoed")
	numeric, _, err := sendWithNonce(s, fake.ChannelID, map[string]any{"content": "turn 4", "nonce": 4242, "enforce_nonce": true})
	require.NoError(t, err)
	again, _, err := sendWithNonce(s, fake.ChannelID, map[string]any{"content": "turn 4", "nonce": 4242, "enforce_nonce": true})
	require.NoError(t, err)
	assert.Equal(t, numeric, again)
	assert.Len(t, fake.ChannelMessages(fake.ChannelID), 3)

	_, _, err = sendWithNonce(s, fake.ChannelID, map[string]any{"content": "x", "nonce": "12345678901234567890123456", "enforce_nonce": true})
	requireCode(t, err, http.StatusBadRequest, 50035)
	_, _, err = sendWithNonce(s, fake.ChannelID, map[string]any{"content": "x", "nonce": []int{1}, "enforce_nonce": true})
	requireCode(t, err, http.StatusBadRequest, 50035)

	// A deleted message no longer holds its nonce.
	require.True(t, fake.DeleteMessage(fake.ChannelID, first))
	fresh, _, err := sendWithNonce(s, fake.ChannelID, turn)
	require.NoError(t, err)
	assert.NotEqual(t, first, fresh)
}

func TestNonceWindow(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, fakediscord.WithNonceWindow(50*time.Millisecond))
	s := newSession(t, fake)
	turn := map[string]any{"content": "turn 3", "nonce": "mf-42-3", "enforce_nonce": true}
	first, _, err := sendWithNonce(s, fake.ChannelID, turn)
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)
	late, _, err := sendWithNonce(s, fake.ChannelID, turn)
	require.NoError(t, err)
	assert.NotEqual(t, first, late, "past the window a nonce makes a new message")
}
