package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// minSeats is the least seats:, as the toy command declares it.
var minSeats = 2.0

// toyCommand is the command the toy bot registers.
var toyCommand = &discordgo.ApplicationCommand{
	Name: "toy", Description: "a toy game",
	Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "new", Description: "open a game",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "seats", Description: "seats", MinValue: &minSeats, MaxValue: 4},
				{Type: discordgo.ApplicationCommandOptionString, Name: "speed", Description: "speed",
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "5 minutes", Value: "5m"}, {Name: "1 hour", Value: "1h"}}},
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "fast", Description: "fast"},
				{Type: discordgo.ApplicationCommandOptionUser, Name: "with", Description: "a friend"},
			}},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "board", Description: "show the board privately"},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "dm", Description: "a direct message"},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "thread", Description: "a thread with a button"},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "card", Description: "a Components V2 card"},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "whoami", Description: "what the interaction says of its user"},
	},
}

// toyPNG is a 3×2 picture.
var toyPNG = func() []byte {
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 3, 2)))
	return buf.Bytes()
}()

// rewrite sends discord.com requests to the fake.
type rewrite struct{ base *url.URL }

func (r rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = r.base.Scheme, r.base.Host
	req.Host = r.base.Host
	return http.DefaultTransport.RoundTrip(req)
}

// toyBot connects a real discordgo session to the fake and answers like a
// small game bot: /toy new posts a message with a Roll button, a menu and
// a picture; only its host may press Roll; /toy board answers privately.
func toyBot(t *testing.T, fake *fakediscord.Fake) {
	t.Helper()
	s, err := discordgo.New("Bot " + fake.Token())
	require.NoError(t, err)
	base, _ := url.Parse(fake.URL())
	s.Client = &http.Client{Transport: rewrite{base}, Timeout: 10 * time.Second}
	s.LogLevel = discordgo.LogError
	var mu sync.Mutex
	hosts := map[string]string{} // message ID -> host user ID
	s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		user := ic.Member.User.ID
		reply := func(typ discordgo.InteractionResponseType, data *discordgo.InteractionResponseData) {
			_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: typ, Data: data})
		}
		private := func(text string) {
			reply(discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral})
		}
		switch ic.Type {
		case discordgo.InteractionApplicationCommand:
			data := ic.ApplicationCommandData()
			sub := data.Options[0]
			switch sub.Name {
			case "board":
				private("Your board, <@" + user + ">")
				return
			case "whoami":
				guild := "none"
				if ic.GuildLocale != nil {
					guild = string(*ic.GuildLocale)
				}
				private(fmt.Sprintf("locale=%s guild_locale=%s manage_server=%t", string(ic.Locale), guild,
					ic.Member.Permissions&discordgo.PermissionManageGuild != 0))
				return
			case "thread":
				reply(discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "a game in its thread"})
				m, err := s.InteractionResponse(ic.Interaction)
				if err != nil {
					return
				}
				th, err := s.MessageThreadStart(m.ChannelID, m.ID, "Toy game #1 between Alice and Bob, a long name", 60)
				if err != nil {
					return
				}
				_, _ = s.ChannelMessageSendComplex(th.ID, &discordgo.MessageSend{Content: "gg", Components: []discordgo.MessageComponent{
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.Button{Label: "Rematch", Style: discordgo.SuccessButton, CustomID: "toy/rematch"}}}}})
				return
			case "card":
				reply(discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
					Flags: discordgo.MessageFlagsIsComponentsV2, Components: toyCard(user),
					Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(toyPNG)}},
				})
				return
			case "dm":
				ch, err := s.UserChannelCreate(user)
				if err == nil {
					_, err = s.ChannelMessageSend(ch.ID, "psst, it is your turn")
				}
				if err != nil {
					private("no DM: " + err.Error())
					return
				}
				private("sent you a DM")
				return
			}
			var parts []string
			for _, o := range sub.Options {
				parts = append(parts, o.Name+"="+fmt.Sprint(o.Value))
			}
			reply(discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
				Content: "<@" + user + "> opened a game " + strings.Join(parts, " ") + ", time runs out <t:1900000000:R>",
				Embeds:  []*discordgo.MessageEmbed{{Title: "Board", Color: 0xD32F2F, Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
				Files: []*discordgo.File{
					{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(toyPNG)},
					{Name: "notes.txt", ContentType: "text/plain", Reader: strings.NewReader("notes")},
				},
				Components: []discordgo.MessageComponent{
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.Button{Label: "Roll", Style: discordgo.PrimaryButton, CustomID: "toy/roll"}}},
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.SelectMenu{CustomID: "toy/level", Placeholder: "Add a computer", Options: []discordgo.SelectMenuOption{
							{Label: "Easy", Value: "easy"}, {Label: "Hard", Value: "hard"}}}}},
				},
			})
			if m, err := s.InteractionResponse(ic.Interaction); err == nil {
				mu.Lock()
				hosts[m.ID] = user
				mu.Unlock()
			}
		case discordgo.InteractionMessageComponent:
			data := ic.MessageComponentData()
			if data.CustomID == "toy/rematch" {
				private("a new game")
				return
			}
			mu.Lock()
			host := hosts[ic.Message.ID]
			mu.Unlock()
			if host != user {
				private("It is not your turn.")
				return
			}
			content := "rolled a 6"
			if len(data.Values) > 0 {
				content = "added a computer: " + data.Values[0]
			}
			reply(discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{Content: content})
		}
	})
	require.NoError(t, s.Open())
	t.Cleanup(func() { _ = s.Close() })
	_, err = s.ApplicationCommandBulkOverwrite(fake.AppID, fake.GuildID, []*discordgo.ApplicationCommand{toyCommand})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, fake.WaitReady(ctx))
}

// toyCard is a turn as one Components V2 card: a container with an
// accent, a text display naming user, the board in a gallery, a
// separator and a button.
func toyCard(user string) []discordgo.MessageComponent {
	accent := 0xD32F2F
	return []discordgo.MessageComponent{
		discordgo.Container{AccentColor: &accent, Components: []discordgo.MessageComponent{
			discordgo.TextDisplay{Content: "## Turn 3\n<@" + user + "> rolled a **4**"},
			discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{Media: discordgo.UnfurledMediaItem{URL: "attachment://board.png"}}}},
			discordgo.Separator{},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Roll", Style: discordgo.PrimaryButton, CustomID: "toy/roll"}}},
		}},
	}
}
