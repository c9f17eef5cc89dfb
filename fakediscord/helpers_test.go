package fakediscord_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/fakediscord"
)

// newSession returns a discordgo session whose REST calls go to the fake.
// It is not opened.
func newSession(t *testing.T, fake *fakediscord.Fake) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bot " + fake.Token())
	if err != nil {
		t.Fatal(err)
	}
	rt, err := bot.NewAPITransport(fake.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: rt, Timeout: 10 * time.Second}
	return s
}

// openBot opens a session with the given event handlers, waits until the
// fake sees it ready, and closes it when the test ends.
func openBot(t *testing.T, fake *fakediscord.Fake, handlers ...any) *discordgo.Session {
	t.Helper()
	s := newSession(t, fake)
	for _, h := range handlers {
		s.AddHandler(h)
	}
	if err := s.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := fake.WaitReady(timeout(t, 10*time.Second)); err != nil {
		t.Fatalf("WaitReady: %v", err)
	}
	return s
}

// timeout returns a context that ends after d or with the test.
func timeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// boardPNG returns a small PNG image.
func boardPNG(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 2, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// malefizCommand is a command shaped like the bot's.
func malefizCommand() *discordgo.ApplicationCommand {
	minSeats := 2.0
	return &discordgo.ApplicationCommand{
		Name:        "malefiz",
		Description: "Play Malefiz",
		Options: []*discordgo.ApplicationCommandOption{
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: "new", Description: "Open a lobby",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionInteger, Name: "seats", Description: "Seats", MinValue: &minSeats, MaxValue: 4},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: "six-again", Description: "Roll again on a six"},
					{Type: discordgo.ApplicationCommandOptionString, Name: "speed", Description: "Turn speed", Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "fast", Value: "fast"}, {Name: "slow", Value: "slow"},
					}},
				},
			},
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "join", Description: "Join the lobby"},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: "stats", Description: "A player's record",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Player", Required: true},
				},
			},
		},
	}
}

// register registers malefizCommand in the fake's default guild.
func register(t *testing.T, s *discordgo.Session, fake *fakediscord.Fake) {
	t.Helper()
	if _, err := s.ApplicationCommandBulkOverwrite(fake.AppID, fake.GuildID, []*discordgo.ApplicationCommand{malefizCommand()}); err != nil {
		t.Fatalf("register commands: %v", err)
	}
}

// buttons returns one action row with buttons of the given custom IDs.
func buttons(ids ...string) []discordgo.MessageComponent {
	row := discordgo.ActionsRow{}
	for _, id := range ids {
		row.Components = append(row.Components, discordgo.Button{Label: id, Style: discordgo.PrimaryButton, CustomID: id})
	}
	return []discordgo.MessageComponent{row}
}

// respond answers an interaction or fails the test.
func respond(t *testing.T, s *discordgo.Session, i *discordgo.Interaction, r *discordgo.InteractionResponse) {
	if err := s.InteractionRespond(i, r); err != nil {
		t.Errorf("InteractionRespond: %v", err)
	}
}

// requireCode checks that err is a REST error with the given status and
// Discord error code.
func requireCode(t *testing.T, err error, status, code int) {
	t.Helper()
	gotStatus, gotCode := restCode(t, err)
	require.Equal(t, []int{status, code}, []int{gotStatus, gotCode}, "status and code of %v", err)
}

// noMessageBuckets turns off the channels' message buckets (5 creates and
// 5 edits per 5 s) for a test that sends many messages to check what the
// fake accepts, not how fast: discordgo would wait each bucket out
// (TestValidation took 10 s with them, 0.0 without). The other limits stay
// on.
func noMessageBuckets() fakediscord.Option {
	l := fakediscord.DefaultLimits()
	l.ChannelMessages, l.MessageEdits = fakediscord.Rate{}, fakediscord.Rate{}
	return fakediscord.WithLimits(l)
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
