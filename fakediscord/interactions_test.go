package fakediscord_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

func TestSlashCommandChecks(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	register(t, newSession(t, fake), fake)
	got := make(chan *discordgo.Interaction, 1)
	openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		got <- ic.Interaction
		respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok", Flags: discordgo.MessageFlagsEphemeral},
		})
	})
	tests := []struct {
		name    string
		inv     fakediscord.Invocation
		wantErr string // "" for a valid invocation
	}{
		{"valid", fakediscord.Invocation{Name: "malefiz", Sub: "new", Options: map[string]any{"seats": int64(3), "speed": "fast"}}, ""},
		{"user option", fakediscord.Invocation{Name: "malefiz", Sub: "stats", Options: map[string]any{"user": "1234"}}, ""},
		{"unknown command", fakediscord.Invocation{Name: "chess"}, "no command /chess"},
		{"no subcommand", fakediscord.Invocation{Name: "malefiz"}, "a subcommand is required"},
		{"unknown subcommand", fakediscord.Invocation{Name: "malefiz", Sub: "fly"}, `no subcommand "fly"`},
		{"unknown option", fakediscord.Invocation{Name: "malefiz", Sub: "new", Options: map[string]any{"colour": "red"}}, "unknown options"},
		{"wrong type", fakediscord.Invocation{Name: "malefiz", Sub: "new", Options: map[string]any{"seats": "four"}}, "not a number"},
		{"below min", fakediscord.Invocation{Name: "malefiz", Sub: "new", Options: map[string]any{"seats": 1}}, "/malefiz new: seats: must be between 2 and 4"},
		{"above max", fakediscord.Invocation{Name: "malefiz", Sub: "new", Options: map[string]any{"seats": 7}}, "seats: must be between 2 and 4"},
		{"not a choice", fakediscord.Invocation{Name: "malefiz", Sub: "new", Options: map[string]any{"speed": "medium"}}, "not one of the choices"},
		{"required missing", fakediscord.Invocation{Name: "malefiz", Sub: "stats"}, `"user" is required`},
		{"unknown guild", fakediscord.Invocation{Guild: "1", Name: "malefiz", Sub: "join"}, "not in guild"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := fake.SlashCommand(timeout(t, 10*time.Second), tt.inv)
			if tt.wantErr != "" {
				if !errors.Is(err, fakediscord.ErrInvocation) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v, want ErrInvocation with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !resp.Ephemeral() || resp.Message.UserID != fake.UserID {
				t.Errorf("response %+v", resp.Message)
			}
			i := <-got
			if tt.inv.Sub == "stats" {
				r := i.ApplicationCommandData().Resolved
				if r == nil || r.Users["1234"] == nil || r.Members["1234"] == nil {
					t.Errorf("resolved %+v", r)
				}
			}
		})
	}
}

func TestClickChecks(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		respond(t, s, ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	})
	one := 1
	m, err := s.ChannelMessageSendComplex(fake.ChannelID, &discordgo.MessageSend{
		Content: "pick",
		Components: []discordgo.MessageComponent{
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "on", CustomID: "on", Style: discordgo.PrimaryButton},
				discordgo.Button{Label: "off", CustomID: "off", Style: discordgo.SecondaryButton, Disabled: true},
				discordgo.Button{Label: "docs", Style: discordgo.LinkButton, URL: "https://example.com"},
			}},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.SelectMenu{CustomID: "row", MinValues: &one, MaxValues: 2, Options: []discordgo.SelectMenuOption{
					{Label: "Row 1", Value: "1"}, {Label: "Row 2", Value: "2"}, {Label: "Row 3", Value: "3"},
				}},
			}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		inv     fakediscord.Invocation
		wantErr string
	}{
		{"button", fakediscord.Invocation{MessageID: m.ID, CustomID: "on"}, ""},
		{"select", fakediscord.Invocation{MessageID: m.ID, CustomID: "row", Values: []string{"1", "3"}}, ""},
		{"no such message", fakediscord.Invocation{MessageID: "1", CustomID: "on"}, "no message"},
		{"no such component", fakediscord.Invocation{MessageID: m.ID, CustomID: "gone"}, "has no component"},
		{"disabled", fakediscord.Invocation{MessageID: m.ID, CustomID: "off"}, "disabled"},
		{"values on a button", fakediscord.Invocation{MessageID: m.ID, CustomID: "on", Values: []string{"1"}}, "takes no values"},
		{"too many values", fakediscord.Invocation{MessageID: m.ID, CustomID: "row", Values: []string{"1", "2", "3"}}, "1 to 2"},
		{"not an option", fakediscord.Invocation{MessageID: m.ID, CustomID: "row", Values: []string{"9"}}, "not an option"},
		{"wrong channel", fakediscord.Invocation{Channel: "42", MessageID: m.ID, CustomID: "on"}, "not 42"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := fake.Click(timeout(t, 10*time.Second), tt.inv)
			if tt.wantErr != "" {
				if !errors.Is(err, fakediscord.ErrInvocation) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v, want ErrInvocation with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || resp.Message.ID != m.ID {
				t.Fatalf("click: %+v, %v", resp, err)
			}
		})
	}
}

// TestCallbackRules checks what Discord refuses in callbacks: a second
// answer, a late answer, an update of a command, an invalid message.
func TestCallbackRules(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 101)
	tests := []struct {
		name     string
		answer   func(*discordgo.Session, *discordgo.Interaction) error
		wantCode string
	}{
		{"twice", func(s *discordgo.Session, i *discordgo.Interaction) error {
			r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
			if err := s.InteractionRespond(i, r); err != nil {
				return err
			}
			return s.InteractionRespond(i, r)
		}, ""},
		{"late", func(s *discordgo.Session, i *discordgo.Interaction) error {
			time.Sleep(300 * time.Millisecond)
			return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		}, "10062"},
		{"update a command", func(s *discordgo.Session, i *discordgo.Interaction) error {
			return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{Content: "x"}})
		}, "50035"},
		{"custom ID too long", func(s *discordgo.Session, i *discordgo.Interaction) error {
			return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Components: buttons(long)}})
		}, "50035"},
		{"empty message", func(s *discordgo.Session, i *discordgo.Interaction) error {
			return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{}})
		}, "50006"},
		{"modal", func(s *discordgo.Session, i *discordgo.Interaction) error {
			return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal,
				Data: &discordgo.InteractionResponseData{CustomID: "m", Title: "Move", Components: []discordgo.MessageComponent{
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{CustomID: "sq", Label: "Square", Style: discordgo.TextInputShort}}},
				}}})
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			deadline := 3 * time.Second
			if tt.name == "late" {
				deadline = 100 * time.Millisecond
			}
			fake := fakediscord.New(t, fakediscord.WithCallbackDeadline(deadline))
			errs := make(chan error, 1)
			s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) { errs <- tt.answer(s, ic.Interaction) })
			register(t, s, fake)
			resp, err := fake.SlashCommand(timeout(t, 10*time.Second), fakediscord.Invocation{Name: "malefiz", Sub: "join"})
			botErr := <-errs
			switch {
			case tt.name == "twice":
				if err != nil || botErr == nil || !strings.Contains(botErr.Error(), "40060") {
					t.Errorf("fake: %v; bot: %v; want the second answer refused with 40060", err, botErr)
				}
			case tt.name == "modal":
				if err != nil || resp.Modal == nil || resp.Modal.Title != "Move" || resp.Modal.Components[0].Components[0].CustomID != "sq" {
					t.Errorf("modal %+v, %v", resp, err)
				}
			default:
				if err == nil || !strings.Contains(err.Error(), tt.wantCode) || botErr == nil || resp == nil || resp.Call.OK() {
					t.Errorf("fake: %v; bot: %v; want both to report %s", err, botErr, tt.wantCode)
				}
			}
		})
	}
}

func TestValidation(t *testing.T) {
	t.Parallel()
	row := func(cs ...discordgo.MessageComponent) discordgo.ActionsRow {
		return discordgo.ActionsRow{Components: cs}
	}
	btn := func(id string) discordgo.Button {
		return discordgo.Button{Label: "b", CustomID: id, Style: discordgo.PrimaryButton}
	}
	tests := []struct {
		name     string
		send     discordgo.MessageSend
		wantCode int
	}{
		{"ok", discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(btn("a"), btn("b"))}}, 0},
		{"empty", discordgo.MessageSend{}, 50006},
		{"content too long", discordgo.MessageSend{Content: strings.Repeat("é", 2001)}, 50035},
		{"six buttons", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(btn("1"), btn("2"), btn("3"), btn("4"), btn("5"), btn("6"))}}, 50035},
		{"six rows", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(btn("1")), row(btn("2")), row(btn("3")), row(btn("4")), row(btn("5")), row(btn("6"))}}, 50035},
		{"duplicate custom ID", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(btn("a")), row(btn("a"))}}, 50035},
		{"button outside a row", discordgo.MessageSend{Components: []discordgo.MessageComponent{btn("a")}}, 50035},
		{"label too long", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(discordgo.Button{Label: strings.Repeat("l", 81), CustomID: "a", Style: discordgo.PrimaryButton})}}, 50035},
		{"select beside a button", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(btn("a"), discordgo.SelectMenu{CustomID: "s", Options: []discordgo.SelectMenuOption{{Label: "1", Value: "1"}}})}}, 50035},
		{"too many options", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "s", Options: make([]discordgo.SelectMenuOption, 26)})}}, 50035},
		{"eleven embeds", discordgo.MessageSend{Embeds: make([]*discordgo.MessageEmbed, 11)}, 50035},
		{"mentions exclusive", discordgo.MessageSend{Content: "x", AllowedMentions: &discordgo.MessageAllowedMentions{
			Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}, Users: []string{"1"}}}, 50035},
	}
	fake := fakediscord.New(t, noMessageBuckets())
	s := newSession(t, fake)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.send.Embeds {
				tt.send.Embeds[i] = &discordgo.MessageEmbed{Title: "t"}
			}
			_, err := s.ChannelMessageSendComplex(fake.ChannelID, &tt.send)
			if tt.wantCode == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if status, code := restCode(t, err); status != 400 || code != tt.wantCode {
				t.Errorf("got %d/%d, want 400/%d", status, code, tt.wantCode)
			}
		})
	}
}
