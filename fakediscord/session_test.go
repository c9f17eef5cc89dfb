package fakediscord_test

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

// TestSessionEndToEnd drives a real discordgo session through READY, a
// slash command answered with a file and buttons, a click, edits and
// follow-ups, and channel messages.
func TestSessionEndToEnd(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, fakediscord.WithGuild(fakediscord.Guild{Locale: "de"}))
	png := boardPNG(t)
	const user = "1100000000000000042"
	got := make(chan *discordgo.Interaction, 2)
	guildCreated := make(chan *discordgo.GuildCreate, 1)

	s := openBot(t, fake, func(_ *discordgo.Session, g *discordgo.GuildCreate) { guildCreated <- g }, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		switch ic.Type {
		case discordgo.InteractionApplicationCommand:
			respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{
					Content:         "<@" + ic.Member.User.ID + "> opened a lobby",
					AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{ic.Member.User.ID}},
					Embeds:          []*discordgo.MessageEmbed{{Title: "Lobby", Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
					Components:      buttons("mf/join/1", "mf/start/1"),
					Files:           []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}},
				},
			})
		case discordgo.InteractionMessageComponent:
			respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{
					Content:    "joined by " + ic.Member.User.ID,
					Components: []discordgo.MessageComponent{},
				},
			})
		}
		got <- ic.Interaction
	})

	if s.State.Application == nil || s.State.Application.ID != fake.AppID || s.State.User.ID != fake.AppID {
		t.Fatalf("READY gave application %+v user %+v, want ID %s", s.State.Application, s.State.User, fake.AppID)
	}
	select {
	case g := <-guildCreated:
		if g.ID != fake.GuildID || g.PreferredLocale != "de" || len(g.Channels) != 1 || g.Channels[0].ID != fake.ChannelID {
			t.Errorf("GUILD_CREATE %+v; want guild %s, preferred locale de, channel %s", g.Guild, fake.GuildID, fake.ChannelID)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no GUILD_CREATE")
	}
	id := fake.Identifies()
	if len(id) != 1 || !id[0].Compress || id[0].Intents != discordgo.IntentsAllWithoutPrivileged {
		t.Errorf("identify %+v", id)
	}

	// Commands, global and per guild.
	global, err := s.ApplicationCommandBulkOverwrite(s.State.Application.ID, "", []*discordgo.ApplicationCommand{malefizCommand()})
	if err != nil || len(global) != 1 || global[0].ID == "" || global[0].GuildID != "" {
		t.Fatalf("global bulk overwrite: %+v, %v", global, err)
	}
	register(t, s, fake)
	again, err := s.ApplicationCommandBulkOverwrite(fake.AppID, fake.GuildID, []*discordgo.ApplicationCommand{malefizCommand()})
	if err != nil || again[0].GuildID != fake.GuildID {
		t.Fatalf("guild bulk overwrite: %+v, %v", again, err)
	}
	if cmds := fake.Commands(fake.GuildID); len(cmds) != 1 || cmds[0].ID != again[0].ID || cmds[0].ID == global[0].ID {
		t.Errorf("guild commands %+v; want the same ID kept on overwrite and different from the global one", cmds)
	}

	// A slash command answered with a file and buttons.
	resp, err := fake.SlashCommand(timeout(t, 10*time.Second), fakediscord.Invocation{
		User: user, Locale: "de", Name: "malefiz", Sub: "new", Options: map[string]any{"seats": 4, "six-again": true},
	})
	if err != nil {
		t.Fatal(err)
	}
	i := <-got
	if i.Locale != "de" || i.GuildLocale == nil || *i.GuildLocale != "de" || i.Member.User.ID != user || i.AppID != fake.AppID {
		t.Errorf("interaction locale %q guild locale %v user %q app %q", i.Locale, i.GuildLocale, i.Member.User.ID, i.AppID)
	}
	if i.AppPermissions != fakediscord.DefaultAppPermissions {
		t.Errorf("app permissions %d, want %d", i.AppPermissions, fakediscord.DefaultAppPermissions)
	}
	data := i.ApplicationCommandData()
	if sub := data.Options[0]; sub.Name != "new" || sub.Type != discordgo.ApplicationCommandOptionSubCommand ||
		sub.Options[0].IntValue() != 4 || !sub.Options[1].BoolValue() {
		t.Errorf("options %+v", data.Options[0])
	}
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Latency <= 0 || resp.Ephemeral() {
		t.Errorf("response type %d latency %v ephemeral %v", resp.Type, resp.Latency, resp.Ephemeral())
	}
	if len(resp.Files) != 1 || resp.Files[0].Name != "board.png" || resp.Files[0].Field != "files[0]" || !bytes.Equal(resp.Files[0].Data, png) {
		t.Errorf("callback files %+v", resp.Files)
	}
	msg := resp.Message
	if a, ok := msg.Attachment("board.png"); !ok || !bytes.Equal(a.Data, png) || a.ContentType != "image/png" {
		t.Errorf("attachment %+v", msg.Attachments)
	}
	if got, want := msg.CustomIDs(), []string{"mf/join/1", "mf/start/1"}; !slices.Equal(got, want) {
		t.Errorf("custom IDs %q, want %q", got, want)
	}
	if !slices.Equal(msg.Pinged, []string{user}) || msg.Embeds[0].Image.URL != "attachment://board.png" {
		t.Errorf("pinged %q embeds %+v", msg.Pinged, msg.Embeds)
	}
	if last, _ := fake.LastMessage(fake.ChannelID); last.ID != msg.ID {
		t.Errorf("last message %s, want the response %s", last.ID, msg.ID)
	}

	// Edit the original response; the attachment stays.
	content := "lobby (1/4)"
	edited, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content})
	if err != nil || edited.ID != msg.ID || edited.Content != content {
		t.Fatalf("InteractionResponseEdit: %+v, %v", edited, err)
	}
	if m, _ := fake.Message(msg.ID); m.Content != content || len(m.Attachments) != 1 || m.Edits != 1 || len(m.Components) != 1 {
		t.Errorf("after edit: %+v", m)
	}
	if orig, err := s.InteractionResponse(i); err != nil || orig.ID != msg.ID {
		t.Errorf("InteractionResponse: %+v, %v", orig, err)
	}

	// An ephemeral follow-up.
	fm, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "only you", Flags: discordgo.MessageFlagsEphemeral})
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := fake.Message(fm.ID); !ok || !m.Ephemeral || m.UserID != user {
		t.Errorf("follow-up %+v", m)
	}
	if last, _ := fake.LastMessage(fake.ChannelID); last.ID != msg.ID {
		t.Errorf("ephemeral follow-up visible in the channel")
	}

	// A click updates the message and removes its buttons.
	click, err := fake.Click(timeout(t, 10*time.Second), fakediscord.Invocation{User: user, MessageID: msg.ID, CustomID: "mf/join/1"})
	if err != nil {
		t.Fatal(err)
	}
	ci := <-got
	if cd := ci.MessageComponentData(); cd.CustomID != "mf/join/1" || cd.ComponentType != discordgo.ButtonComponent || ci.Message.ID != msg.ID {
		t.Errorf("component interaction %+v on message %s", cd, ci.Message.ID)
	}
	if ci.Message.Components == nil || len(ci.Message.Attachments) != 1 {
		t.Errorf("clicked message in payload: %+v", ci.Message)
	}
	if click.Type != discordgo.InteractionResponseUpdateMessage || click.Message.ID != msg.ID ||
		click.Message.Content != "joined by "+user || len(click.Message.Components) != 0 || len(click.Message.Embeds) != 0 {
		t.Errorf("click response %+v", click.Message)
	}

	// Channel messages.
	sent, err := s.ChannelMessageSendComplex(fake.ChannelID, &discordgo.MessageSend{
		Content:    "turn 1",
		Embeds:     []*discordgo.MessageEmbed{{Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
		Components: buttons("mf/roll/1/1"),
		Files:      []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if sent.GuildID != fake.GuildID || len(sent.Attachments) != 1 || sent.Attachments[0].Filename != "board.png" || sent.Attachments[0].Size != len(png) {
		t.Errorf("sent %+v", sent)
	}
	edit := discordgo.NewMessageEdit(fake.ChannelID, sent.ID).SetContent("turn 1: red c1→e3")
	edit.Components = &[]discordgo.MessageComponent{}
	if _, err := s.ChannelMessageEditComplex(edit); err != nil {
		t.Fatal(err)
	}
	last, _ := fake.LastMessage(fake.ChannelID)
	if last.ID != sent.ID || last.Content != "turn 1: red c1→e3" || len(last.Components) != 0 || len(last.Attachments) != 1 || len(last.Embeds) != 1 {
		t.Errorf("after channel edit: %+v", last)
	}
	if m, err := s.ChannelMessage(fake.ChannelID, sent.ID); err != nil || m.Content != last.Content || m.EditedTimestamp == nil {
		t.Errorf("ChannelMessage: %+v, %v", m, err)
	}
	if n := len(fake.ChannelMessages(fake.ChannelID)); n != 2 {
		t.Errorf("%d channel messages, want 2", n)
	}
	if u := fake.Unexpected(); len(u) != 0 {
		t.Errorf("unexpected calls %+v", u)
	}
}

// TestDeferredResponse checks a deferred response filled in by an edit
// and a deferred update of the clicked message.
func TestDeferredResponse(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		switch ic.Type {
		case discordgo.InteractionApplicationCommand:
			respond(t, s, ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
			content := "<@" + ic.Member.User.ID + "> board"
			if _, err := s.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{Content: &content, Components: &[]discordgo.MessageComponent{buttons("b")[0]}}); err != nil {
				t.Errorf("edit: %v", err)
			}
		case discordgo.InteractionMessageComponent:
			respond(t, s, ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
			content := "updated later"
			if _, err := s.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{Content: &content}); err != nil {
				t.Errorf("edit: %v", err)
			}
		}
	})
	register(t, s, fake)
	ctx := timeout(t, 10*time.Second)
	resp, err := fake.SlashCommand(ctx, fakediscord.Invocation{Name: "malefiz", Sub: "join"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || resp.Message.Flags&discordgo.MessageFlagsLoading == 0 {
		t.Errorf("deferred response %+v", resp.Message)
	}
	edit, err := fake.WaitFor(ctx, func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteWebhookMessageEdit && c.InteractionID == resp.InteractionID
	})
	if err != nil || !edit.OK() || edit.Param("message") != "@original" {
		t.Fatalf("edit call %+v, %v", edit, err)
	}
	m, _ := fake.Message(resp.Message.ID)
	if m.Content == "" || m.Flags&discordgo.MessageFlagsLoading != 0 || !slices.Equal(m.Pinged, []string{fake.UserID}) {
		t.Errorf("after edit %+v", m)
	}

	click, err := fake.Click(ctx, fakediscord.Invocation{MessageID: m.ID, CustomID: "b"})
	if err != nil || click.Type != discordgo.InteractionResponseDeferredMessageUpdate || click.Message.ID != m.ID {
		t.Fatalf("click %+v, %v", click, err)
	}
	if _, err := fake.WaitFor(ctx, func(c fakediscord.Call) bool {
		return c.Route == fakediscord.RouteWebhookMessageEdit && c.InteractionID == click.InteractionID
	}); err != nil {
		t.Fatal(err)
	}
	if m, _ := fake.Message(m.ID); m.Content != "updated later" || len(m.Components) != 1 {
		t.Errorf("after deferred update %+v", m)
	}
}
