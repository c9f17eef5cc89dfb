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

// startThread posts a lobby message and starts a thread from it.
func startThread(t *testing.T, s *discordgo.Session, fake *fakediscord.Fake) (*discordgo.Message, *discordgo.Channel) {
	t.Helper()
	lobby, err := s.ChannelMessageSend(fake.ChannelID, "lobby")
	require.NoError(t, err)
	th, err := s.MessageThreadStartComplex(fake.ChannelID, lobby.ID, &discordgo.ThreadStart{Name: "Malefiz #12 · Alice, Bob", AutoArchiveDuration: 1440})
	require.NoError(t, err)
	return lobby, th
}

func TestThreadFromMessage(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	created := make(chan *discordgo.ThreadCreate, 1)
	s := openBot(t, fake, func(_ *discordgo.Session, tc *discordgo.ThreadCreate) { created <- tc })
	lobby, th := startThread(t, s, fake)

	assert.Equal(t, lobby.ID, th.ID, "a thread from a message has the message's ID")
	assert.Equal(t, discordgo.ChannelTypeGuildPublicThread, th.Type)
	assert.Equal(t, fake.ChannelID, th.ParentID)
	assert.Equal(t, fake.GuildID, th.GuildID)
	assert.Equal(t, "Malefiz #12 · Alice, Bob", th.Name)
	require.NotNil(t, th.ThreadMetadata)
	assert.Equal(t, 1440, th.ThreadMetadata.AutoArchiveDuration)
	assert.False(t, th.ThreadMetadata.Archived)
	select {
	case tc := <-created:
		assert.Equal(t, th.ID, tc.ID)
		assert.True(t, tc.NewlyCreated)
	case <-time.After(5 * time.Second):
		t.Fatal("no THREAD_CREATE")
	}

	_, err := s.MessageThreadStart(fake.ChannelID, lobby.ID, "again", 60)
	requireCode(t, err, http.StatusBadRequest, 160004)
	got, err := s.ChannelMessage(fake.ChannelID, lobby.ID)
	require.NoError(t, err)
	assert.NotZero(t, got.Flags&discordgo.MessageFlagsHasThread)
	require.NotNil(t, got.Thread)
	assert.Equal(t, th.ID, got.Thread.ID)

	// Messages in the thread: create, edit, delete.
	turn, err := s.ChannelMessageSend(th.ID, "turn 1")
	require.NoError(t, err)
	assert.Equal(t, th.ID, turn.ChannelID)
	assert.Equal(t, fake.GuildID, turn.GuildID)
	_, err = s.ChannelMessageEdit(th.ID, turn.ID, "turn 1: red e1→e3")
	require.NoError(t, err)
	const carol = "1100000000000000003"
	reminder, err := s.ChannelMessageSend(th.ID, "<@"+carol+"> your turn")
	require.NoError(t, err)
	require.NoError(t, s.ChannelMessageDelete(th.ID, reminder.ID))
	inThread := fake.ChannelMessages(th.ID)
	require.Len(t, inThread, 1)
	assert.Equal(t, "turn 1: red e1→e3", inThread[0].Content)
	assert.Len(t, fake.ChannelMessages(fake.ChannelID), 1, "the parent keeps only the lobby")
	_, err = s.ChannelMessageEdit(fake.ChannelID, turn.ID, "wrong channel")
	requireCode(t, err, http.StatusNotFound, 10008)

	ch, err := s.Channel(th.ID)
	require.NoError(t, err)
	assert.Equal(t, th.ParentID, ch.ParentID)
	assert.Equal(t, 1, ch.MessageCount)
	assert.Equal(t, 2, ch.MemberCount, "the bot joined the thread it started, Carol by her mention")
	assert.Equal(t, []string{fake.AppID, carol}, fake.ThreadMembers(th.ID))
	parent, err := s.Channel(fake.ChannelID)
	require.NoError(t, err)
	assert.Equal(t, discordgo.ChannelTypeGuildText, parent.Type)
	_, err = s.Channel("1234567890123456789")
	requireCode(t, err, http.StatusNotFound, 10003)

	assert.Contains(t, fake.Channels(), fakediscord.Channel{
		ID: th.ID, Type: discordgo.ChannelTypeGuildPublicThread, GuildID: fake.GuildID,
		Name: th.Name, ParentID: fake.ChannelID, Thread: true,
	})
}

func TestArchivedThread(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	updates := make(chan *discordgo.ThreadUpdate, 8)
	s := openBot(t, fake, func(_ *discordgo.Session, tu *discordgo.ThreadUpdate) { updates <- tu })
	_, th := startThread(t, s, fake)
	turn, err := s.ChannelMessageSend(th.ID, "turn 74: Alice wins")
	require.NoError(t, err)

	edited, err := s.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: ptr(true)})
	require.NoError(t, err)
	assert.True(t, edited.ThreadMetadata.Archived)
	select {
	case tu := <-updates:
		assert.True(t, tu.ThreadMetadata.Archived)
	case <-time.After(5 * time.Second):
		t.Fatal("no THREAD_UPDATE")
	}

	_, err = s.ChannelMessageSend(th.ID, "late")
	requireCode(t, err, http.StatusBadRequest, 50083)
	_, err = s.ChannelMessageEdit(th.ID, turn.ID, "edited late")
	requireCode(t, err, http.StatusBadRequest, 50083)
	err = s.ChannelMessageDelete(th.ID, turn.ID)
	requireCode(t, err, http.StatusBadRequest, 50083)
	err = s.ThreadMemberAdd(th.ID, "1100000000000000042")
	requireCode(t, err, http.StatusBadRequest, 50083)
	_, err = s.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Name: "renamed"})
	requireCode(t, err, http.StatusBadRequest, 50083)
	m, err := s.ChannelMessage(th.ID, turn.ID)
	require.NoError(t, err, "an archived thread can still be read")
	assert.Equal(t, "turn 74: Alice wins", m.Content)

	_, err = s.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: ptr(false), Locked: ptr(true)})
	requireCode(t, err, http.StatusForbidden, 50013)
	_, err = s.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: ptr(false), Name: "rematch"})
	require.NoError(t, err)
	_, err = s.ChannelMessageSend(th.ID, "rematch?")
	require.NoError(t, err)
	assert.Len(t, fake.ChannelMessages(th.ID), 2)

	// Discord archives an idle thread by itself.
	require.True(t, fake.SetThreadArchived(th.ID, true))
	_, err = s.ChannelMessageSend(th.ID, "after auto-archive")
	requireCode(t, err, http.StatusBadRequest, 50083)
	ch, err := s.Channel(th.ID)
	require.NoError(t, err)
	assert.True(t, ch.ThreadMetadata.Archived)
	assert.Equal(t, "rematch", ch.Name)
	assert.Contains(t, fake.Channels(), fakediscord.Channel{
		ID: th.ID, Type: discordgo.ChannelTypeGuildPublicThread, GuildID: fake.GuildID,
		Name: "rematch", ParentID: fake.ChannelID, Thread: true, Archived: true,
	})
	assert.False(t, fake.SetThreadArchived(fake.ChannelID, true), "a text channel is no thread")
}

func TestThreadPermissions(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	s := newSession(t, fake)
	lobby, err := s.ChannelMessageSend(fake.ChannelID, "lobby")
	require.NoError(t, err)

	fake.SetPermissions(fake.ChannelID, fakediscord.DefaultAppPermissions&^discordgo.PermissionCreatePublicThreads)
	_, err = s.MessageThreadStart(fake.ChannelID, lobby.ID, "game", 60)
	requireCode(t, err, http.StatusForbidden, 50013)
	fake.SetPermissions(fake.ChannelID, fakediscord.DefaultAppPermissions)

	_, err = s.MessageThreadStartComplex(fake.ChannelID, lobby.ID, &discordgo.ThreadStart{})
	requireCode(t, err, http.StatusBadRequest, 50035)
	_, err = s.MessageThreadStart(fake.ChannelID, lobby.ID, "game", 30)
	requireCode(t, err, http.StatusBadRequest, 50035)
	_, err = s.MessageThreadStart(fake.ChannelID, "1234567890123456789", "game", 60)
	requireCode(t, err, http.StatusNotFound, 10008)
	th, err := s.MessageThreadStart(fake.ChannelID, lobby.ID, "game", 0)
	require.NoError(t, err)
	assert.Equal(t, 1440, th.ThreadMetadata.AutoArchiveDuration, "the default")
	inner, err := s.ChannelMessageSend(th.ID, "turn 1")
	require.NoError(t, err)
	_, err = s.MessageThreadStart(th.ID, inner.ID, "nested", 60)
	requireCode(t, err, http.StatusBadRequest, 50024)

	// A thread has its parent's permissions; posting there needs Send
	// Messages in Threads, not Send Messages.
	fake.SetPermissions(fake.ChannelID, fakediscord.DefaultAppPermissions&^discordgo.PermissionSendMessagesInThreads)
	_, err = s.ChannelMessageSend(th.ID, "turn 2")
	requireCode(t, err, http.StatusForbidden, 50013)
	err = s.ThreadMemberAdd(th.ID, "1100000000000000042")
	requireCode(t, err, http.StatusForbidden, 50013)
	_, err = s.ChannelMessageSend(fake.ChannelID, "in the channel")
	require.NoError(t, err)
	fake.SetPermissions(fake.ChannelID, fakediscord.DefaultAppPermissions&^discordgo.PermissionSendMessages)
	_, err = s.ChannelMessageSend(th.ID, "turn 2")
	require.NoError(t, err)
	fake.SetPermissions(fake.ChannelID, 0)
	_, err = s.Channel(th.ID)
	requireCode(t, err, http.StatusForbidden, 50001)
}

func TestThreadMembers(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	s := newSession(t, fake)
	_, th := startThread(t, s, fake)
	const alice, bob = "1100000000000000001", "1100000000000000002"

	require.NoError(t, s.ThreadJoin(th.ID))
	require.NoError(t, s.ThreadMemberAdd(th.ID, alice))
	require.NoError(t, s.ThreadMemberAdd(th.ID, bob))
	require.NoError(t, s.ThreadMemberAdd(th.ID, alice), "adding a member twice is harmless")
	assert.Equal(t, []string{fake.AppID, alice, bob}, fake.ThreadMembers(th.ID))

	members, err := s.ThreadMembers(th.ID, 0, false, "")
	require.NoError(t, err)
	var ids []string
	for _, m := range members {
		ids = append(ids, m.UserID)
		assert.Equal(t, th.ID, m.ID)
		assert.False(t, m.JoinTimestamp.IsZero())
	}
	assert.Equal(t, []string{fake.AppID, alice, bob}, ids)
	m, err := s.ThreadMember(th.ID, alice, false)
	require.NoError(t, err)
	assert.Equal(t, alice, m.UserID)

	require.NoError(t, s.ThreadMemberRemove(th.ID, bob))
	require.NoError(t, s.ThreadLeave(th.ID))
	assert.Equal(t, []string{alice}, fake.ThreadMembers(th.ID))
	_, err = s.ThreadMember(th.ID, bob, false)
	requireCode(t, err, http.StatusNotFound, 10007)
	err = s.ThreadMemberRemove(th.ID, bob)
	requireCode(t, err, http.StatusNotFound, 10007)
	err = s.ThreadMemberAdd(fake.ChannelID, alice)
	requireCode(t, err, http.StatusBadRequest, 50024)
	assert.Nil(t, fake.ThreadMembers(fake.ChannelID))
}

func TestInteractionInThread(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	got := make(chan *discordgo.Interaction, 2)
	raw := make(chan []byte, 2)
	s := openBot(t, fake, func(_ *discordgo.Session, e *discordgo.Event) {
		if e.Type == "INTERACTION_CREATE" {
			raw <- e.RawData
		}
	}, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		got <- ic.Interaction
		typ := discordgo.InteractionResponseChannelMessageWithSource
		if ic.Type == discordgo.InteractionMessageComponent {
			typ = discordgo.InteractionResponseUpdateMessage
		}
		respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
			Type: typ, Data: &discordgo.InteractionResponseData{Content: "board", Components: buttons("mf/roll/1/1")},
		})
	})
	register(t, s, fake)
	_, th := startThread(t, s, fake)
	ctx := timeout(t, 10*time.Second)

	resp, err := fake.SlashCommand(ctx, fakediscord.Invocation{Channel: th.ID, Name: "malefiz", Sub: "join"})
	require.NoError(t, err)
	i := <-got
	assert.Equal(t, th.ID, i.ChannelID)
	assert.Equal(t, fake.GuildID, i.GuildID)
	assert.Equal(t, channelObject{ID: th.ID, Type: discordgo.ChannelTypeGuildPublicThread, GuildID: fake.GuildID, ParentID: fake.ChannelID}, interactionChannel(t, <-raw))
	assert.Equal(t, fakediscord.DefaultAppPermissions, i.AppPermissions)
	assert.Equal(t, th.ID, resp.Message.ChannelID)

	_, err = fake.Click(ctx, fakediscord.Invocation{MessageID: resp.Message.ID, CustomID: "mf/roll/1/1"})
	require.NoError(t, err)
	ci := <-got
	assert.Equal(t, th.ID, ci.ChannelID)
	assert.Equal(t, fake.GuildID, ci.GuildID)
	assert.Equal(t, fake.ChannelID, interactionChannel(t, <-raw).ParentID)
	assert.Len(t, fake.ChannelMessages(th.ID), 1)
}

// channelObject is the part of an interaction's channel object the tests
// look at (discordgo's Interaction has no channel field).
type channelObject struct {
	ID       string                `json:"id"`
	Type     discordgo.ChannelType `json:"type"`
	GuildID  string                `json:"guild_id"`
	ParentID string                `json:"parent_id"`
}

// interactionChannel decodes the channel object of an INTERACTION_CREATE.
func interactionChannel(t *testing.T, raw []byte) channelObject {
	t.Helper()
	var ic struct {
		Channel channelObject `json:"channel"`
	}
	require.NoError(t, json.Unmarshal(raw, &ic))
	return ic.Channel
}
