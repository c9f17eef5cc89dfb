package fakediscord_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// A bot test starts the fake, points a real discordgo session at it, and
// plays as a user.
func Example() {
	fake := fakediscord.Start() // in a test: fakediscord.New(t)
	defer fake.Close()

	s, _ := discordgo.New("Bot " + fake.Token())
	rt, _ := bot.NewAPITransport(fake.URL(), nil)
	s.Client = &http.Client{Transport: rt, Timeout: 20 * time.Second}
	s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "Lobby open", Components: buttons("mf/join/1")},
		})
	})
	if err := s.Open(); err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	_, _ = s.ApplicationCommandBulkOverwrite(s.State.Application.ID, fake.GuildID, []*discordgo.ApplicationCommand{malefizCommand()})

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := fake.SlashCommand(ctx, fakediscord.Invocation{User: "42", Locale: "de", Name: "malefiz", Sub: "new"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Message.Content, resp.Message.CustomIDs())
	// Output: Lobby open [mf/join/1]
}
