package fakediscord_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/internal/testclock"
)

// TestArchivedThreadClicksAndWebhookEdits checks that the buttons of a
// message in an archived thread cannot be clicked (Discord's client greys
// them out) and that an interaction's message there cannot be edited or
// deleted through the webhook routes either.
func TestArchivedThreadClicksAndWebhookEdits(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	ics := make(chan *discordgo.Interaction, 4)
	s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "result", Components: buttons("mf/rematch/1")},
		})
		ics <- ic.Interaction
	})
	register(t, s, fake)
	_, th := startThread(t, s, fake)
	ctx := timeout(t, 10*time.Second)
	resp, err := fake.SlashCommand(ctx, fakediscord.Invocation{Channel: th.ID, Name: "malefiz", Sub: "join"})
	require.NoError(t, err)
	ic := <-ics
	_, err = fake.Click(ctx, fakediscord.Invocation{MessageID: resp.Message.ID, CustomID: "mf/rematch/1"})
	require.NoError(t, err, "clickable while the thread is open")
	<-ics

	require.True(t, fake.SetThreadArchived(th.ID, true))
	before := len(fake.Calls())
	_, err = fake.Click(ctx, fakediscord.Invocation{MessageID: resp.Message.ID, CustomID: "mf/rematch/1"})
	require.ErrorIs(t, err, fakediscord.ErrInvocation)
	assert.Contains(t, err.Error(), "archived")
	for _, c := range fake.Calls()[before:] {
		assert.NotEqual(t, fakediscord.RouteInteractionCallback, c.Route, "no interaction was created")
	}

	_, err = s.InteractionResponseEdit(ic, &discordgo.WebhookEdit{Content: ptr("late")})
	requireCode(t, err, http.StatusBadRequest, 50083)
	err = s.InteractionResponseDelete(ic)
	requireCode(t, err, http.StatusBadRequest, 50083)
	m, _ := fake.Message(resp.Message.ID)
	assert.Equal(t, "result", m.Content)
	assert.False(t, m.Deleted)
}

// TestThreadAutoArchive checks that a thread archives itself after its
// auto_archive_duration without messages on the fake's clock, that a
// message restarts the count, and that the bot is told by THREAD_UPDATE.
func TestThreadAutoArchive(t *testing.T) {
	t.Parallel()
	clock := testclock.At(time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC))
	fake := fakediscord.New(t, fakediscord.WithClock(clock.Now))
	updates := make(chan *discordgo.ThreadUpdate, 8)
	s := openBot(t, fake, func(_ *discordgo.Session, tu *discordgo.ThreadUpdate) { updates <- tu })
	lobby, err := s.ChannelMessageSend(fake.ChannelID, "lobby")
	require.NoError(t, err)
	th, err := s.MessageThreadStartComplex(fake.ChannelID, lobby.ID, &discordgo.ThreadStart{Name: "Malefiz #1", AutoArchiveDuration: 60})
	require.NoError(t, err)

	clock.Advance(50 * time.Minute)
	_, err = s.ChannelMessageSend(th.ID, "gg")
	require.NoError(t, err, "50 minutes idle: still open")
	clock.Advance(50 * time.Minute)
	got, err := s.Channel(th.ID)
	require.NoError(t, err)
	assert.False(t, got.ThreadMetadata.Archived, "the message restarted the hour")

	clock.Advance(10 * time.Minute)
	got, err = s.Channel(th.ID)
	require.NoError(t, err)
	assert.True(t, got.ThreadMetadata.Archived, "an hour after the last message")
	select {
	case tu := <-updates:
		assert.Equal(t, th.ID, tu.ID)
		assert.True(t, tu.ThreadMetadata.Archived)
	case <-time.After(5 * time.Second):
		t.Fatal("no THREAD_UPDATE")
	}
	_, err = s.ChannelMessageSend(th.ID, "late")
	requireCode(t, err, http.StatusBadRequest, 50083)

	// Unarchived, the thread has another hour.
	_, err = s.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: ptr(false)})
	require.NoError(t, err)
	clock.Advance(59 * time.Minute)
	assert.Contains(t, fake.Channels(), fakediscord.Channel{
		ID: th.ID, Type: discordgo.ChannelTypeGuildPublicThread, GuildID: fake.GuildID,
		Name: "Malefiz #1", ParentID: fake.ChannelID, Thread: true,
	})
	clock.Advance(time.Minute)
	assert.Contains(t, fake.Channels(), fakediscord.Channel{
		ID: th.ID, Type: discordgo.ChannelTypeGuildPublicThread, GuildID: fake.GuildID,
		Name: "Malefiz #1", ParentID: fake.ChannelID, Thread: true, Archived: true,
	})
}
