package bot

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wireSamples are interactions as Discord sends them: a click on a turn
// card (layout components), a slash command, a modal and a ping.
func wireSamples(t testing.TB) map[string][]byte {
	t.Helper()
	locale := discordgo.German
	card := &discordgo.Message{
		ID: "1300", ChannelID: "200", GuildID: "100",
		Author: &discordgo.User{ID: "999", Username: "Malefiz", Bot: true},
		Flags:  discordgo.MessageFlagsIsComponentsV2,
		Components: []discordgo.MessageComponent{
			discordgo.Container{Components: []discordgo.MessageComponent{
				discordgo.TextDisplay{Content: "🔴 Alice · 12 to go · 62 %"},
				discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{Media: discordgo.UnfurledMediaItem{URL: "attachment://board.png"}}}},
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "A", Style: discordgo.PrimaryButton, CustomID: "mf/move/7/3/a"},
					discordgo.Button{Label: "B", Style: discordgo.SecondaryButton, CustomID: "mf/move/7/3/b"},
				}},
			}},
		},
	}
	member := &discordgo.Member{Nick: "Ali", Permissions: discordgo.PermissionManageGuild, User: &discordgo.User{ID: "300", Username: "alice"}}
	samples := map[string]*discordgo.Interaction{
		"click": {ID: "1", AppID: "999", Type: discordgo.InteractionMessageComponent, GuildID: "100", ChannelID: "200",
			Data:    discordgo.MessageComponentInteractionData{CustomID: "mf/move/7/3/a", ComponentType: discordgo.ButtonComponent},
			Message: card, Member: member, Locale: discordgo.German, GuildLocale: &locale, Token: "tok", Version: 1, AppPermissions: 2048},
		"select": {ID: "2", AppID: "999", Type: discordgo.InteractionMessageComponent, ChannelID: "200",
			Data:    discordgo.MessageComponentInteractionData{CustomID: "mf/place/7/3", ComponentType: discordgo.SelectMenuComponent, Values: []string{"c4"}},
			Message: card, User: &discordgo.User{ID: "301"}, Token: "tok2"},
		"command": {ID: "3", AppID: "999", Type: discordgo.InteractionApplicationCommand, GuildID: "100", ChannelID: "200",
			Data: discordgo.ApplicationCommandInteractionData{ID: "55", Name: "malefiz", Options: []*discordgo.ApplicationCommandInteractionDataOption{
				{Name: "new", Type: discordgo.ApplicationCommandOptionSubCommand, Options: []*discordgo.ApplicationCommandInteractionDataOption{
					{Name: "seats", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(3)}}}}},
			Member: member, Token: "tok3"},
		"modal": {ID: "4", AppID: "999", Type: discordgo.InteractionModalSubmit, GuildID: "100", ChannelID: "200",
			Data: discordgo.ModalSubmitInteractionData{CustomID: "mf/modal/1", Components: []discordgo.MessageComponent{
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{CustomID: "name", Value: "Bob"}}}}},
			Member: member, Token: "tok4"},
		"ping": {ID: "5", AppID: "999", Type: discordgo.InteractionPing, Token: "tok5"},
	}
	out := map[string][]byte{}
	for name, i := range samples {
		data, err := json.Marshal(i)
		require.NoError(t, err)
		out[name] = data
	}
	return out
}

// TestDecodeInteraction decodes each sample as discordgo does and with
// decodeInteraction: the same interaction, but for the message, of which
// only its ID, channel, server, author and flags are kept.
func TestDecodeInteraction(t *testing.T) {
	for name, body := range wireSamples(t) {
		t.Run(name, func(t *testing.T) {
			var want discordgo.Interaction
			require.NoError(t, json.Unmarshal(body, &want))
			got, err := decodeInteraction(body)
			require.NoError(t, err)
			if want.Message != nil {
				require.NotNil(t, got.Message)
				assert.Equal(t, want.Message.ID, got.Message.ID)
				assert.Equal(t, want.Message.ChannelID, got.Message.ChannelID)
				assert.Equal(t, want.Message.GuildID, got.Message.GuildID)
				assert.Equal(t, want.Message.Author, got.Message.Author)
				assert.Equal(t, want.Message.Flags, got.Message.Flags)
				assert.Empty(t, got.Message.Components, "the message's components are skipped")
				want.Message, got.Message = nil, nil
			}
			assert.Nil(t, got.Message)
			assert.Equal(t, &want, got)
		})
	}
	for _, bad := range []string{``, `[]`, `{"type": 3, "data": []}`, `{"type": 2, "data": "x"}`, `{"message": 5}`} {
		_, err := decodeInteraction([]byte(bad))
		assert.Error(t, err, "%s", bad)
	}
}

// BenchmarkDecodeInteraction compares discordgo's decoding of a click on
// a turn card with decodeInteraction's.
func BenchmarkDecodeInteraction(b *testing.B) {
	body := wireSamples(b)["click"]
	b.Run("discordgo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var i discordgo.Interaction
			if err := json.Unmarshal(body, &i); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wire", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeInteraction(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}
