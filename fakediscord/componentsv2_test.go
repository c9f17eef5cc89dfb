package fakediscord_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/fakediscord"
)

const v2 = discordgo.MessageFlagsIsComponentsV2

// turnCard returns a turn message laid out as one container: a text
// display naming the player, the board in a media gallery, a separator,
// a section with a button accessory, the move buttons and a file.
func turnCard(user string) []discordgo.MessageComponent {
	red := 0xE03030
	divider := true
	spacing := discordgo.SeparatorSpacingSizeLarge
	return []discordgo.MessageComponent{
		discordgo.Container{
			AccentColor: &red,
			Components: []discordgo.MessageComponent{
				discordgo.TextDisplay{Content: "## Turn 3 · <@" + user + "> rolled a 5"},
				discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{Media: discordgo.UnfurledMediaItem{URL: "attachment://board.png"}}}},
				discordgo.Separator{Divider: &divider, Spacing: &spacing},
				discordgo.Section{
					Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "red: captures · 🚧 takes a barricade"}},
					Accessory:  discordgo.Button{Label: "Help", Style: discordgo.SecondaryButton, CustomID: "mf/help"},
				},
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "A · c1→e3", Style: discordgo.DangerButton, CustomID: "mf/move/1/3/0"},
					discordgo.Button{Label: "B · d1→f2", Style: discordgo.SecondaryButton, CustomID: "mf/move/1/3/1"},
				}},
			},
		},
		discordgo.Section{
			Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "Computer (normal) waits"}},
			Accessory:  discordgo.Thumbnail{Media: discordgo.UnfurledMediaItem{URL: "https://example.com/pawn.png"}},
		},
		discordgo.FileComponent{File: discordgo.UnfurledMediaItem{URL: "attachment://game.txt"}},
	}
}

// TestComponentsV2Message sends a Components V2 message with the real
// discordgo session, reads it back as discordgo sees it, finds its text,
// controls, mentions and shown attachments in the fake's model, clicks a
// section's button and edits the message.
func TestComponentsV2Message(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	const user = "1100000000000000042"
	clicks := make(chan string, 1)
	s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		if ic.Type == discordgo.InteractionMessageComponent {
			clicks <- ic.MessageComponentData().CustomID
			respond(t, s, ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
		}
	})
	png := boardPNG(t)
	sent, err := s.ChannelMessageSendComplex(fake.ChannelID, &discordgo.MessageSend{
		Flags:           v2,
		Components:      turnCard(user),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{user}},
		Files: []*discordgo.File{
			{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)},
			{Name: "game.txt", ContentType: "text/plain", Reader: strings.NewReader("1. c1-e3")},
			{Name: "unused.png", ContentType: "image/png", Reader: bytes.NewReader(png)},
		},
	})
	require.NoError(t, err)

	// What discordgo decodes from the answer.
	require.Equal(t, v2, sent.Flags&v2)
	require.Len(t, sent.Components, 3)
	card, ok := sent.Components[0].(*discordgo.Container)
	require.True(t, ok, "first component %T, want *discordgo.Container", sent.Components[0])
	require.NotNil(t, card.AccentColor)
	assert.Equal(t, 0xE03030, *card.AccentColor)
	assert.Equal(t, 1, card.ID, "Discord numbers the components")
	require.Len(t, card.Components, 5)
	assert.Equal(t, "## Turn 3 · <@"+user+"> rolled a 5", card.Components[0].(*discordgo.TextDisplay).Content)
	gallery := card.Components[1].(*discordgo.MediaGallery)
	require.Len(t, gallery.Items, 1)
	assert.True(t, strings.HasPrefix(gallery.Items[0].Media.URL, fake.URL()+"/attachments/"), "attachment:// resolved to the file's URL, got %s", gallery.Items[0].Media.URL)
	sep := card.Components[2].(*discordgo.Separator)
	require.NotNil(t, sep.Spacing)
	assert.Equal(t, discordgo.SeparatorSpacingSizeLarge, *sep.Spacing)
	section := card.Components[3].(*discordgo.Section)
	assert.Equal(t, "mf/help", section.Accessory.(*discordgo.Button).CustomID)
	row := card.Components[4].(*discordgo.ActionsRow)
	assert.Equal(t, "mf/move/1/3/0", row.Components[0].(*discordgo.Button).CustomID)
	thumb := sent.Components[1].(*discordgo.Section).Accessory.(*discordgo.Thumbnail)
	assert.Equal(t, "https://example.com/pawn.png", thumb.Media.URL)
	file := sent.Components[2].(*discordgo.FileComponent)
	assert.True(t, strings.HasSuffix(file.File.URL, "/game.txt"), file.File.URL)
	assert.Len(t, sent.Mentions, 1, "a mention in a text display pings")

	// The board image is served at the resolved URL.
	res, err := http.Get(gallery.Items[0].Media.URL)
	require.NoError(t, err)
	_ = res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)

	// The fake's model.
	m, ok := fake.Message(sent.ID)
	require.True(t, ok)
	assert.True(t, m.ComponentsV2())
	assert.Contains(t, m.Text(), "rolled a 5")
	assert.Contains(t, m.Text(), "Computer (normal) waits")
	assert.Equal(t, []string{"mf/help", "mf/move/1/3/0", "mf/move/1/3/1"}, m.CustomIDs())
	assert.Equal(t, []string{"Help", "A · c1→e3", "B · d1→f2"}, m.Labels())
	assert.Equal(t, []string{user}, m.Pinged)
	assert.Equal(t, []string{user}, m.Notified())
	var shown []string
	for _, a := range m.ShownAttachments() {
		shown = append(shown, a.Filename)
	}
	assert.Equal(t, []string{"board.png", "game.txt"}, shown, "only referenced attachments show")
	assert.Len(t, m.Attachments, 3)
	containers := m.ComponentsOfType(discordgo.ContainerComponent)
	require.Len(t, containers, 1)
	assert.Equal(t, 0xE03030, *containers[0].AccentColor)
	assert.Equal(t, "attachment://board.png", m.ComponentsOfType(discordgo.MediaGalleryComponent)[0].Items[0].Media.URL, "the model keeps the URL as sent")
	decoded, err := m.DiscordgoComponents()
	require.NoError(t, err)
	require.Len(t, decoded, 3)
	dcard := decoded[0].(*discordgo.Container)
	assert.Equal(t, 0xE03030, *dcard.AccentColor)
	assert.Equal(t, "attachment://board.png", dcard.Components[1].(*discordgo.MediaGallery).Items[0].Media.URL)
	assert.IsType(t, &discordgo.Thumbnail{}, decoded[1].(*discordgo.Section).Accessory)
	assert.IsType(t, &discordgo.FileComponent{}, decoded[2])

	// A click on a section's button.
	_, err = fake.Click(timeout(t, 5*time.Second), fakediscord.Invocation{User: user, MessageID: sent.ID, CustomID: "mf/help"})
	require.NoError(t, err)
	assert.Equal(t, "mf/help", <-clicks)

	// An edit keeps the flag and the attachments it still references.
	edited, err := s.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: sent.ID, Channel: fake.ChannelID,
		Components: &[]discordgo.MessageComponent{discordgo.Container{Components: []discordgo.MessageComponent{
			discordgo.TextDisplay{Content: "Turn 3 · Alice c1→e3"},
			discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{Media: discordgo.UnfurledMediaItem{URL: "attachment://board.png"}}}},
		}}},
	})
	require.NoError(t, err)
	assert.Equal(t, v2, edited.Flags&v2)
	m, _ = fake.Message(sent.ID)
	assert.Equal(t, "Turn 3 · Alice c1→e3", m.Text())
	assert.Empty(t, m.Controls())
	assert.Len(t, m.ShownAttachments(), 1)
}

// TestComponentsV2Refused checks that the fake refuses with 400 Invalid
// Form Body (50035) what Discord refuses in a message with the flag
// IS_COMPONENTS_V2, and in one without it.
func TestComponentsV2Refused(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, noMessageBuckets())
	s := newSession(t, fake)
	text := func(s string) map[string]any { return map[string]any{"type": 10, "content": s} }
	button := func(id string) map[string]any {
		return map[string]any{"type": 2, "style": 1, "label": id, "custom_id": id}
	}
	row := func(ids ...string) map[string]any {
		var bs []any
		for _, id := range ids {
			bs = append(bs, button(id))
		}
		return map[string]any{"type": 1, "components": bs}
	}
	// 8 rows of 4 buttons and a container: 8*5 + 1 = 41 components.
	var many []any
	for r := range 8 {
		many = append(many, row("b"+string(rune('a'+r))+"1", "b"+string(rune('a'+r))+"2", "b"+string(rune('a'+r))+"3", "b"+string(rune('a'+r))+"4"))
	}
	tests := []struct {
		name  string
		body  map[string]any
		field string // the field the error names
	}{
		{"content with the flag", map[string]any{"flags": v2, "content": "hi", "components": []any{text("hi")}}, "content"},
		{"embeds with the flag", map[string]any{"flags": v2, "embeds": []any{map[string]any{"title": "t"}}, "components": []any{text("hi")}}, "embeds"},
		{"41 components counting nested ones", map[string]any{"flags": v2, "components": []any{map[string]any{"type": 17, "components": many}}}, "components"},
		{"more than 4000 characters of text", map[string]any{"flags": v2, "components": []any{text(strings.Repeat("a", 2500)), text(strings.Repeat("b", 1501))}}, "components"},
		{"attachment not attached", map[string]any{"flags": v2, "components": []any{map[string]any{"type": 12, "items": []any{map[string]any{"media": map[string]any{"url": "attachment://board.png"}}}}}}, "components"},
		{"thumbnail at the top level", map[string]any{"flags": v2, "components": []any{map[string]any{"type": 11, "media": map[string]any{"url": "https://example.com/a.png"}}}}, "components"},
		{"section without accessory", map[string]any{"flags": v2, "components": []any{map[string]any{"type": 9, "components": []any{text("a")}}}}, "components"},
		{"file with a URL", map[string]any{"flags": v2, "components": []any{map[string]any{"type": 13, "file": map[string]any{"url": "https://example.com/a.zip"}}}}, "components"},
		{"container in a container", map[string]any{"flags": v2, "components": []any{map[string]any{"type": 17, "components": []any{map[string]any{"type": 17, "components": []any{text("a")}}}}}}, "components"},
		{"duplicate custom IDs", map[string]any{"flags": v2, "components": []any{row("x"), map[string]any{"type": 17, "components": []any{row("x")}}}}, "components"},
		{"layout components without the flag", map[string]any{"components": []any{text("hi")}}, "components"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.RequestWithBucketID(http.MethodPost, discordgo.EndpointChannelMessages(fake.ChannelID), tt.body, discordgo.EndpointChannelMessages(fake.ChannelID))
			requireCode(t, err, http.StatusBadRequest, 50035)
			assert.Contains(t, errorFields(t, err), tt.field)
		})
	}
	assert.Empty(t, fake.ChannelMessages(fake.ChannelID), "nothing refused was stored")

	// 40 components and 4000 characters pass.
	forty := append([]any(nil), many[:7]...)                                                                  // 35
	forty = append(forty, row("z1", "z2", "z3"))                                                              // 39
	body := map[string]any{"flags": v2, "components": []any{map[string]any{"type": 17, "components": forty}}} // 40
	_, err := s.RequestWithBucketID(http.MethodPost, discordgo.EndpointChannelMessages(fake.ChannelID), body, "")
	require.NoError(t, err, "40 components")
	_, err = s.RequestWithBucketID(http.MethodPost, discordgo.EndpointChannelMessages(fake.ChannelID),
		map[string]any{"flags": v2, "components": []any{text(strings.Repeat("a", 2500)), text(strings.Repeat("é", 1500))}}, "")
	require.NoError(t, err, "4000 characters")
}

// errorFields returns the top-level fields an Invalid Form Body error
// names.
func errorFields(t *testing.T, err error) []string {
	t.Helper()
	var re *discordgo.RESTError
	require.ErrorAs(t, err, &re)
	var body struct {
		Errors map[string]any `json:"errors"`
	}
	require.NoError(t, json.Unmarshal(re.ResponseBody, &body))
	var out []string
	for k := range body.Errors {
		out = append(out, k)
	}
	return out
}

// TestComponentsV2Edits checks Discord's edit rules for the flag: a
// message sent without it becomes a V2 message only by an edit that
// clears its content and embeds, and the flag cannot be removed again.
func TestComponentsV2Edits(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, noMessageBuckets())
	s := newSession(t, fake)
	legacy, err := s.ChannelMessageSendComplex(fake.ChannelID, &discordgo.MessageSend{
		Content: "Lobby", Embeds: []*discordgo.MessageEmbed{{Title: "Malefiz #1"}}, Components: buttons("mf/join/1"),
	})
	require.NoError(t, err)
	edit := func(body map[string]any) error {
		ep := discordgo.EndpointChannelMessage(fake.ChannelID, legacy.ID)
		_, err := s.RequestWithBucketID(http.MethodPatch, ep, body, ep)
		return err
	}
	card := []any{map[string]any{"type": 17, "components": []any{map[string]any{"type": 10, "content": "Malefiz #1 · Alice"}}}}

	err = edit(map[string]any{"flags": v2, "components": card})
	requireCode(t, err, http.StatusBadRequest, 50035)
	assert.ElementsMatch(t, []string{"content", "embeds"}, errorFields(t, err), "content and embeds kept")
	err = edit(map[string]any{"flags": v2, "components": card, "content": nil})
	requireCode(t, err, http.StatusBadRequest, 50035)
	assert.Equal(t, []string{"embeds"}, errorFields(t, err), "embeds kept")
	m, _ := fake.Message(legacy.ID)
	assert.False(t, m.ComponentsV2(), "refused edits change nothing")
	assert.Equal(t, "Lobby", m.Content)

	require.NoError(t, edit(map[string]any{"flags": v2, "components": card, "content": nil, "embeds": []any{}}))
	m, _ = fake.Message(legacy.ID)
	assert.True(t, m.ComponentsV2())
	assert.Equal(t, "Malefiz #1 · Alice", m.Text())

	err = edit(map[string]any{"flags": 0})
	requireCode(t, err, http.StatusBadRequest, 50035)
	assert.Equal(t, []string{"flags"}, errorFields(t, err))
	err = edit(map[string]any{"content": "back to text"})
	requireCode(t, err, http.StatusBadRequest, 50035)
	m, _ = fake.Message(legacy.ID)
	assert.True(t, m.ComponentsV2(), "the flag stays")

	// A message sent with SUPPRESS_NOTIFICATIONS mentions without
	// notifying, and an edit does not change that flag.
	const user = "1100000000000000042"
	silent, err := s.ChannelMessageSendComplex(fake.ChannelID, &discordgo.MessageSend{
		Flags:      v2 | discordgo.MessageFlagsSuppressNotifications,
		Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "<@" + user + ">, your turn"}},
	})
	require.NoError(t, err)
	_, err = s.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: silent.ID, Channel: fake.ChannelID, Flags: v2,
		Components: &[]discordgo.MessageComponent{discordgo.TextDisplay{Content: "<@" + user + "> moved"}}})
	require.NoError(t, err)
	m, _ = fake.Message(silent.ID)
	assert.Equal(t, []string{user}, m.Pinged)
	assert.Empty(t, m.Notified())
	assert.NotZero(t, m.Flags&discordgo.MessageFlagsSuppressNotifications)
	traffic := fake.Traffic(fake.ChannelID)
	assert.Empty(t, traffic.Pings, "a silent message notifies nobody")
	assert.Equal(t, map[string]int{user: 1}, traffic.Mentions)
}

// TestComponentsV2Interaction answers an interaction, sends a follow-up
// and edits the original response with V2 messages through discordgo's
// interaction and webhook calls.
func TestComponentsV2Interaction(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	const user = "1100000000000000042"
	png := boardPNG(t)
	done := make(chan error, 1)
	s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		if ic.Type != discordgo.InteractionApplicationCommand {
			return
		}
		err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Flags:      v2,
				Components: turnCard(ic.Member.User.ID),
				Files: []*discordgo.File{
					{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)},
					{Name: "game.txt", ContentType: "text/plain", Reader: strings.NewReader("1. c1-e3")},
				},
			},
		})
		if err == nil {
			_, err = s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{
				Flags:      v2,
				Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "Bob joined"}},
			})
		}
		if err == nil {
			// WebhookEdit has no Flags: the flag stays from the response.
			_, err = s.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{
				Components: &[]discordgo.MessageComponent{discordgo.TextDisplay{Content: "Lobby closed"}},
			})
		}
		done <- err
	})
	register(t, s, fake)
	resp, err := fake.SlashCommand(timeout(t, 5*time.Second), fakediscord.Invocation{User: user, Name: "malefiz", Sub: "join"})
	require.NoError(t, err)
	require.NoError(t, <-done)
	assert.True(t, resp.Message.ComponentsV2())
	assert.Equal(t, []string{user}, resp.Message.Pinged)
	msgs := fake.ChannelMessages(fake.ChannelID)
	require.Len(t, msgs, 2)
	assert.Equal(t, "Lobby closed", msgs[0].Text())
	assert.True(t, msgs[0].ComponentsV2())
	assert.Empty(t, msgs[0].ShownAttachments(), "the edit references no attachment any more")
	assert.Equal(t, "Bob joined", msgs[1].Text())
	assert.True(t, msgs[1].ComponentsV2())
}

// TestComponentsV2WebhookConvert turns an interaction's legacy response
// into a V2 message through PATCH @original with a raw body, as a bot
// does where discordgo's WebhookEdit has no Flags.
func TestComponentsV2WebhookConvert(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	ics := make(chan *discordgo.Interaction, 1)
	s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		respond(t, s, ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "Lobby", Components: buttons("mf/join/1")},
		})
		ics <- ic.Interaction
	})
	register(t, s, fake)
	resp, err := fake.SlashCommand(timeout(t, 10*time.Second), fakediscord.Invocation{Name: "malefiz", Sub: "new"})
	require.NoError(t, err)
	ic := <-ics
	ep := discordgo.EndpointWebhookMessage(fake.AppID, ic.Token, "@original")
	card := []any{map[string]any{"type": 17, "accent_color": 0x3070E0, "components": []any{
		map[string]any{"type": 10, "content": "Malefiz #1 · Alice vs Bob"},
		map[string]any{"type": 1, "components": []any{map[string]any{"type": 2, "style": 1, "label": "Rematch", "custom_id": "mf/rematch/1"}}},
	}}}

	_, err = s.RequestWithBucketID(http.MethodPatch, ep, map[string]any{"flags": v2, "components": card}, ep)
	requireCode(t, err, http.StatusBadRequest, 50035)
	assert.Equal(t, []string{"content"}, errorFields(t, err))

	_, err = s.RequestWithBucketID(http.MethodPatch, ep, map[string]any{"flags": v2, "components": card, "content": nil, "embeds": []any{}}, ep)
	require.NoError(t, err)
	m, _ := fake.Message(resp.Message.ID)
	assert.True(t, m.ComponentsV2())
	assert.Equal(t, "Malefiz #1 · Alice vs Bob", m.Text())
	assert.Equal(t, []string{"mf/rematch/1"}, m.CustomIDs())
	assert.Equal(t, 0x3070E0, *m.ComponentsOfType(discordgo.ContainerComponent)[0].AccentColor)
}

// TestComponentsV2SelectInContainer chooses in a select menu that sits in
// an action row of a container.
func TestComponentsV2SelectInContainer(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	values := make(chan []string, 1)
	s := openBot(t, fake, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		values <- ic.MessageComponentData().Values
		respond(t, s, ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	})
	sent, err := s.ChannelMessageSendComplex(fake.ChannelID, &discordgo.MessageSend{
		Flags: v2,
		Components: []discordgo.MessageComponent{discordgo.Container{Components: []discordgo.MessageComponent{
			discordgo.TextDisplay{Content: "Where should the barricade go?"},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
				CustomID: "mf/row/1/7", Placeholder: "Row",
				Options: []discordgo.SelectMenuOption{{Label: "Row 3", Value: "3"}, {Label: "Row 4", Value: "4"}},
			}}},
		}}},
	})
	require.NoError(t, err)
	menu := sent.Components[0].(*discordgo.Container).Components[1].(*discordgo.ActionsRow).Components[0].(*discordgo.SelectMenu)
	assert.Equal(t, "mf/row/1/7", menu.CustomID)
	_, err = fake.Click(timeout(t, 10*time.Second), fakediscord.Invocation{MessageID: sent.ID, CustomID: "mf/row/1/7", Values: []string{"4"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"4"}, <-values)
	_, err = fake.Click(timeout(t, 10*time.Second), fakediscord.Invocation{MessageID: sent.ID, CustomID: "mf/row/1/7", Values: []string{"9"}})
	require.ErrorIs(t, err, fakediscord.ErrInvocation, "not an option")
}

// TestAltTextLimit checks that a picture's alt text, a media gallery
// item's description or an uploaded file's, passes at 1,024 characters
// and is refused beyond, and that an attachment keeps its description.
func TestAltTextLimit(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, noMessageBuckets())
	s := newSession(t, fake)
	endpoint := discordgo.EndpointChannelMessages(fake.ChannelID)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
	post := func(galleryAlt, fileAlt string) error {
		body := map[string]any{"flags": v2, "components": []any{map[string]any{"type": 12, "items": []any{
			map[string]any{"media": map[string]any{"url": "attachment://board.png"}, "description": galleryAlt}}}},
			"attachments": []any{map[string]any{"id": 0, "filename": "board.png", "description": fileAlt}}}
		ct, data, err := discordgo.MultipartBodyWithJSON(body, []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}})
		require.NoError(t, err)
		_, err = s.RequestRaw(http.MethodPost, endpoint, ct, data, endpoint, 0)
		return err
	}
	long, most := strings.Repeat("é", 1025), strings.Repeat("é", 1024)

	err := post(long, "board")
	requireCode(t, err, http.StatusBadRequest, 50035)
	assert.Contains(t, errorFields(t, err), "components")
	err = post("board", long)
	requireCode(t, err, http.StatusBadRequest, 50035)
	assert.Contains(t, errorFields(t, err), "attachments")
	assert.Empty(t, fake.ChannelMessages(fake.ChannelID), "nothing refused was stored")

	require.NoError(t, post(most, most))
	msgs := fake.ChannelMessages(fake.ChannelID)
	require.Len(t, msgs, 1)
	require.Len(t, msgs[0].Attachments, 1)
	assert.Equal(t, most, msgs[0].Attachments[0].Description)
	got, err := s.ChannelMessage(fake.ChannelID, msgs[0].ID)
	require.NoError(t, err)
	require.Len(t, got.Attachments, 1)
	assert.Equal(t, "board.png", got.Attachments[0].Filename)
}

// TestAttachmentMustBeUploaded: an attachments entry, which carries a
// file's alt text, must name a file of the request (files[n]) or one the
// message keeps; one that names nothing is refused, the message unchanged.
func TestAttachmentMustBeUploaded(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, noMessageBuckets())
	s := newSession(t, fake)
	endpoint := discordgo.EndpointChannelMessages(fake.ChannelID)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
	post := func(method, endpoint string, attachments []any) error {
		body := map[string]any{"content": "the chart", "attachments": attachments}
		ct, data, err := discordgo.MultipartBodyWithJSON(body, []*discordgo.File{{Name: "rating.png", ContentType: "image/png", Reader: bytes.NewReader(png)}})
		require.NoError(t, err)
		_, err = s.RequestRaw(method, endpoint, ct, data, endpoint, 0)
		return err
	}
	err := post(http.MethodPost, endpoint, []any{map[string]any{"id": 1, "description": "a rating chart"}})
	requireCode(t, err, http.StatusBadRequest, 50035)
	assert.Contains(t, errorFields(t, err), "attachments")
	assert.Contains(t, err.Error(), "ATTACHMENT_NOT_FOUND")
	assert.Empty(t, fake.ChannelMessages(fake.ChannelID), "nothing refused was stored")

	require.NoError(t, post(http.MethodPost, endpoint, []any{map[string]any{"id": 0, "description": "a rating chart"}}))
	msgs := fake.ChannelMessages(fake.ChannelID)
	require.Len(t, msgs, 1)
	require.Len(t, msgs[0].Attachments, 1)
	assert.Equal(t, "a rating chart", msgs[0].Attachments[0].Description)

	// An edit keeps an attachment by its ID, and may not name one the
	// message never had.
	edit := discordgo.EndpointChannelMessage(fake.ChannelID, msgs[0].ID)
	kept := msgs[0].Attachments[0].ID
	require.NoError(t, post(http.MethodPatch, edit, []any{map[string]any{"id": kept}, map[string]any{"id": 0, "description": "new"}}))
	m, _ := fake.Message(msgs[0].ID)
	require.Len(t, m.Attachments, 2)
	err = post(http.MethodPatch, edit, []any{map[string]any{"id": "1234567890123456789"}})
	requireCode(t, err, http.StatusBadRequest, 50035)
	m, _ = fake.Message(msgs[0].ID)
	assert.Len(t, m.Attachments, 2, "the refused edit changed nothing")
}
