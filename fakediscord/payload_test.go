package fakediscord

import (
	"encoding/json"
	"os"
	"slices"
	"sort"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// readSample reads a testdata payload.
func readSample(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSamplesDecode checks that the sample payloads, written from
// Discord's documented shape, decode with discordgo's types.
func TestSamplesDecode(t *testing.T) {
	var cmd discordgo.InteractionCreate
	if err := json.Unmarshal(readSample(t, "slash_command.json"), &cmd); err != nil {
		t.Fatal(err)
	}
	data := cmd.ApplicationCommandData()
	sub := data.Options[0]
	if cmd.Type != discordgo.InteractionApplicationCommand || data.Name != "malefiz" || sub.Name != "new" ||
		sub.Options[0].IntValue() != 4 || !sub.Options[1].BoolValue() {
		t.Errorf("slash command %+v data %+v", cmd.Interaction, data)
	}
	if cmd.Locale != discordgo.German || *cmd.GuildLocale != discordgo.EnglishUS || cmd.Member.User.ID != "1100000000000000042" ||
		cmd.AppPermissions&discordgo.PermissionAttachFiles == 0 || cmd.AppID != "1234567890123456789" {
		t.Errorf("slash command context %+v", cmd.Interaction)
	}

	var click discordgo.InteractionCreate
	if err := json.Unmarshal(readSample(t, "component.json"), &click); err != nil {
		t.Fatal(err)
	}
	cd := click.MessageComponentData()
	if cd.CustomID != "mf/roll/42/7" || cd.ComponentType != discordgo.ButtonComponent {
		t.Errorf("component data %+v", cd)
	}
	row, ok := click.Message.Components[0].(*discordgo.ActionsRow)
	if !ok || row.Components[0].(*discordgo.Button).CustomID != "mf/roll/42/7" || click.Message.Attachments[0].Filename != "board.png" {
		t.Errorf("clicked message %+v", click.Message)
	}
}

// keys returns the sorted keys of the JSON object at path in v.
func keys(t *testing.T, v map[string]any, path ...string) []string {
	t.Helper()
	for _, p := range path {
		next, ok := v[p].(map[string]any)
		if !ok {
			t.Fatalf("no object at %q", path)
		}
		v = next
	}
	var out []string
	for k := range v {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestPayloadsMatchSamples checks that the fake builds its interaction
// payloads in the shape of the samples.
func TestPayloadsMatchSamples(t *testing.T) {
	f := New(t)
	seats := 2.0
	cmd := &discordgo.ApplicationCommand{Name: "malefiz", Description: "d", Options: []*discordgo.ApplicationCommandOption{{
		Type: discordgo.ApplicationCommandOptionSubCommand, Name: "new", Description: "d",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "seats", Description: "d", MinValue: &seats},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "six-again", Description: "d"},
		},
	}}}
	raw, _ := json.Marshal(cmd)
	cmd.ID, cmd.GuildID, cmd.Type = newID(), f.GuildID, discordgo.ChatApplicationCommand
	f.commands[f.GuildID] = []command{{raw: raw, cmd: cmd}}
	msg := &Message{
		ID: newID(), ChannelID: f.ChannelID, GuildID: f.GuildID, Content: "<@1> turn", Pinged: []string{"1"},
		Embeds:      []*discordgo.MessageEmbed{{Title: "Turn 7", Type: "rich", Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
		Components:  []Component{{Type: discordgo.ActionsRowComponent, Components: []Component{{Type: discordgo.ButtonComponent, CustomID: "mf/roll/42/7", Label: "Roll", Style: 1}}}},
		Attachments: []Attachment{{ID: newID(), Filename: "board.png", ContentType: "image/png", Data: []byte("png")}},
	}
	f.storeLocked(msg)

	tests := []struct {
		sample string
		build  func() (*wireInteraction, error)
		paths  [][]string
	}{
		{"slash_command.json", func() (*wireInteraction, error) {
			_, w, err := f.commandInteractionLocked(Invocation{Name: "malefiz", Sub: "new", Options: map[string]any{"seats": 4, "six-again": true}})
			return w, err
		}, [][]string{nil, {"data"}, {"member"}, {"member", "user"}, {"channel"}, {"guild"}}},
		{"component.json", func() (*wireInteraction, error) {
			_, w, err := f.componentInteractionLocked(Invocation{MessageID: msg.ID, CustomID: "mf/roll/42/7"})
			return w, err
		}, [][]string{nil, {"data"}, {"member"}, {"member", "user"}, {"channel"}, {"guild"}, {"message"}, {"message", "author"}}},
	}
	for _, tt := range tests {
		t.Run(tt.sample, func(t *testing.T) {
			var sample map[string]any
			if err := json.Unmarshal(readSample(t, tt.sample), &sample); err != nil {
				t.Fatal(err)
			}
			w, err := tt.build()
			if err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(w)
			var built map[string]any
			if err := json.Unmarshal(data, &built); err != nil {
				t.Fatal(err)
			}
			for _, p := range tt.paths {
				if got, want := keys(t, built, p...), keys(t, sample, p...); !slices.Equal(got, want) {
					t.Errorf("keys at %q: got %q, want %q", p, got, want)
				}
			}
			var ic discordgo.InteractionCreate
			if err := json.Unmarshal(data, &ic); err != nil {
				t.Fatalf("discordgo cannot decode the built payload: %v", err)
			}
		})
	}
}

// TestApplyPayload checks Discord's edit rules on a message with content,
// an embed, a button and an attachment.
func TestApplyPayload(t *testing.T) {
	base := Message{
		Content:     "old",
		Embeds:      []*discordgo.MessageEmbed{{Title: "e"}},
		Components:  []Component{{Type: discordgo.ActionsRowComponent}},
		Attachments: []Attachment{{ID: "11", Filename: "board.png"}},
	}
	png := []File{{Name: "board.png", Data: []byte("new")}}
	tests := []struct {
		name                               string
		body                               string
		files                              []File
		content                            string
		embeds, components, attachments    int
		wantAttachmentNames, wantDataFirst string
	}{
		{"nothing", `{}`, nil, "old", 1, 1, 1, "", ""},
		{"content only", `{"content": "new"}`, nil, "new", 1, 1, 1, "", ""},
		{"null content empties", `{"content": null}`, nil, "", 1, 1, 1, "", ""},
		{"null embeds removes", `{"embeds": null}`, nil, "old", 0, 1, 1, "", ""},
		{"null components is ignored", `{"components": null}`, nil, "old", 1, 1, 1, "", ""},
		{"empty components removes", `{"components": []}`, nil, "old", 1, 0, 1, "", ""},
		{"discordgo update shape", `{"tts": false, "content": "", "components": null, "embeds": null}`, nil, "", 0, 1, 1, "", ""},
		{"new file is added", `{}`, png, "old", 1, 1, 2, "", ""},
		{"empty attachments replace", `{"attachments": []}`, png, "old", 1, 1, 1, "", "new"},
		{"attachments keep listed", `{"attachments": [{"id": "11"}]}`, nil, "old", 1, 1, 1, "", ""},
		{"attachments keep numeric id", `{"attachments": [{"id": 11}]}`, png, "old", 1, 1, 2, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := base
			fs, e := fields(json.RawMessage(tt.body))
			if e != nil {
				t.Fatal(e)
			}
			if e := applyPayload(&m, fs, tt.files); e != nil {
				t.Fatal(e)
			}
			if m.Content != tt.content || len(m.Embeds) != tt.embeds || len(m.Components) != tt.components || len(m.Attachments) != tt.attachments {
				t.Errorf("got content %q, %d embeds, %d components, %d attachments; want %q, %d, %d, %d",
					m.Content, len(m.Embeds), len(m.Components), len(m.Attachments), tt.content, tt.embeds, tt.components, tt.attachments)
			}
			if tt.wantDataFirst != "" && string(m.Attachments[0].Data) != tt.wantDataFirst {
				t.Errorf("first attachment %q, want %q", m.Attachments[0].Data, tt.wantDataFirst)
			}
			if len(base.Attachments) != 1 || base.Content != "old" {
				t.Error("applyPayload changed the original message's slices")
			}
		})
	}
}

func TestPinged(t *testing.T) {
	tests := []struct {
		name    string
		content string
		am      *discordgo.MessageAllowedMentions
		want    []string
	}{
		{"default pings all", "<@1> <@!2> <@1>", nil, []string{"1", "2"}},
		{"users listed", "<@1> <@2>", &discordgo.MessageAllowedMentions{Users: []string{"2"}}, []string{"2"}},
		{"parse users", "<@1> <@2>", &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}}, []string{"1", "2"}},
		{"none allowed", "<@1>", &discordgo.MessageAllowedMentions{}, nil},
		{"no mention", "hello", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pinged(tt.content, tt.am); !slices.Equal(got, tt.want) {
				t.Errorf("pinged %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNewIDIncreases(t *testing.T) {
	prev := newID()
	for range 1000 {
		id := newID()
		if len(id) != len(prev) || id <= prev {
			t.Fatalf("%s after %s", id, prev)
		}
		prev = id
	}
}
