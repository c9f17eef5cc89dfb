package fakediscord_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

func TestTraffic(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	png := boardPNG(t)
	s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "only you", Flags: discordgo.MessageFlagsEphemeral},
		})
	})
	register(t, s, fake)
	const alice, bob = "1100000000000000001", "1100000000000000002"
	board := func() []*discordgo.File {
		return []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}}
	}

	lobby, err := s.ChannelMessageSendComplex(fake.ChannelID, &discordgo.MessageSend{Content: "<@" + alice + "> <@" + bob + "> game on", Files: board()})
	require.NoError(t, err)
	th, err := s.MessageThreadStart(lobby.ChannelID, lobby.ID, "game", 1440)
	require.NoError(t, err)
	turn, err := s.ChannelMessageSendComplex(th.ID, &discordgo.MessageSend{Content: "<@" + alice + "> your turn", Files: board()})
	require.NoError(t, err)
	_, err = s.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: turn.ID, Channel: th.ID, Content: ptr("<@" + alice + "> moved"), Files: board()})
	require.NoError(t, err)
	reminder, err := s.ChannelMessageSend(th.ID, "<@"+alice+"> reminder")
	require.NoError(t, err)
	require.NoError(t, s.ChannelMessageDelete(th.ID, reminder.ID))
	_, err = fake.SlashCommand(timeout(t, 10*time.Second), fakediscord.Invocation{Channel: th.ID, Name: "malefiz", Sub: "join"})
	require.NoError(t, err)

	assert.Equal(t, fakediscord.Traffic{
		Messages: 1, Pings: map[string]int{alice: 1, bob: 1}, Mentions: map[string]int{alice: 1, bob: 1}, Uploads: 1, UploadedBytes: len(png),
	}, fake.Traffic(fake.ChannelID))
	assert.Equal(t, fakediscord.Traffic{
		Messages: 2, Ephemeral: 1, Deleted: 1, Edits: 1, Pings: map[string]int{alice: 2}, Mentions: map[string]int{alice: 2}, Uploads: 2, UploadedBytes: 2 * len(png),
	}, fake.Traffic(th.ID), "an edit pings no one")
}
