package fakediscord

import (
	"net/http"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// validateMessage checks a message as it would be after a create or edit
// against Discord's limits.
func validateMessage(m *Message) *apiError {
	fe := formErrors{}
	maxLen(fe, m.Content, 2000, "content")
	if len(m.Embeds) > 10 {
		fe.add("BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.", "embeds")
	}
	total := 0
	for i, e := range m.Embeds {
		p := []string{"embeds", strconv.Itoa(i)}
		total += maxLen(fe, e.Title, 256, append(p, "title")...)
		total += maxLen(fe, e.Description, 4096, append(p, "description")...)
		if e.Footer != nil {
			total += maxLen(fe, e.Footer.Text, 2048, append(p, "footer", "text")...)
		}
		if e.Author != nil {
			total += maxLen(fe, e.Author.Name, 256, append(p, "author", "name")...)
		}
		if len(e.Fields) > 25 {
			fe.add("BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.", append(p, "fields")...)
		}
		for j, fl := range e.Fields {
			fp := append(append([]string(nil), p...), "fields", strconv.Itoa(j))
			total += maxLen(fe, fl.Name, 256, append(fp, "name")...)
			total += maxLen(fe, fl.Value, 1024, append(fp, "value")...)
		}
	}
	if total > 6000 {
		fe.add("MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000", "embeds")
	}
	if am := m.AllowedMentions; am != nil && len(am.Users) > 0 && slices.Contains(am.Parse, discordgo.AllowedMentionTypeUsers) {
		fe.add("MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", `parse:["users"] and users: [ids...] are mutually exclusive.`, "allowed_mentions")
	}
	if m.ComponentsV2() {
		validateV2(fe, m)
	} else {
		validateRows(fe, m.Components)
	}
	if err := fe.err(); err != nil {
		return err
	}
	if m.Content == "" && len(m.Embeds) == 0 && len(m.Components) == 0 && len(m.Attachments) == 0 && m.Flags&discordgo.MessageFlagsLoading == 0 {
		return &apiError{status: http.StatusBadRequest, Code: codeEmptyMessage, Message: "Cannot send an empty message"}
	}
	return nil
}

// validateRows checks message components: at most 5 action rows of at
// most 5 buttons or one select menu, with unique custom IDs.
func validateRows(fe formErrors, rows []Component) {
	if len(rows) > 5 {
		fe.add("BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.", "components")
	}
	seen := map[string]bool{}
	for i, row := range rows {
		p := []string{"components", strconv.Itoa(i)}
		if row.Type != discordgo.ActionsRowComponent {
			fe.add("UNION_TYPE_CHOICES", `Value of field "type" must be one of (1,).`, append(p, "type")...)
			continue
		}
		if n := len(row.Components); n == 0 || n > 5 {
			fe.add("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.", append(p, "components")...)
		}
		for j, c := range row.Components {
			cp := append(append([]string(nil), p...), "components", strconv.Itoa(j))
			switch c.Type {
			case discordgo.ButtonComponent:
				validateButton(fe, c, cp)
			case discordgo.SelectMenuComponent, discordgo.UserSelectMenuComponent, discordgo.RoleSelectMenuComponent,
				discordgo.MentionableSelectMenuComponent, discordgo.ChannelSelectMenuComponent:
				if len(row.Components) > 1 {
					fe.add("COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width", cp...)
				}
				validateSelect(fe, c, cp)
			default:
				fe.add("UNION_TYPE_CHOICES", `Value of field "type" must be one of (2, 3, 5, 6, 7, 8).`, append(cp, "type")...)
			}
			if c.CustomID != "" {
				if seen[c.CustomID] {
					fe.add("COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated", append(cp, "custom_id")...)
				}
				seen[c.CustomID] = true
			}
		}
	}
}

// validateButton checks one button at path p.
func validateButton(fe formErrors, c Component, p []string) {
	switch discordgo.ButtonStyle(c.Style) {
	case discordgo.LinkButton:
		if c.URL == "" {
			fe.add("BASE_TYPE_REQUIRED", "This field is required", append(p, "url")...)
		}
		if c.CustomID != "" {
			fe.add("BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A custom id cannot be set for this button style", append(p, "custom_id")...)
		}
	case discordgo.PrimaryButton, discordgo.SecondaryButton, discordgo.SuccessButton, discordgo.DangerButton:
		customID(fe, c.CustomID, p)
	case discordgo.PremiumButton:
	default:
		fe.add("BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.", append(p, "style")...)
	}
	maxLen(fe, c.Label, 80, append(p, "label")...)
	if c.Label == "" && c.Emoji == nil && discordgo.ButtonStyle(c.Style) != discordgo.PremiumButton {
		fe.add("BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or emoji must be provided", append(p, "label")...)
	}
}

// validateSelect checks one select menu at path p.
func validateSelect(fe formErrors, c Component, p []string) {
	customID(fe, c.CustomID, p)
	maxLen(fe, c.Placeholder, 150, append(p, "placeholder")...)
	if c.MinValues != nil && (*c.MinValues < 0 || *c.MinValues > 25) {
		fe.add("NUMBER_TYPE_MAX", "int value should be between 0 and 25.", append(p, "min_values")...)
	}
	if c.MaxValues > 25 {
		fe.add("NUMBER_TYPE_MAX", "int value should be less than or equal to 25.", append(p, "max_values")...)
	}
	if c.Type != discordgo.SelectMenuComponent {
		return
	}
	if n := len(c.Options); n == 0 || n > 25 {
		fe.add("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.", append(p, "options")...)
	}
	if c.MaxValues > len(c.Options) {
		fe.add("SELECT_COMPONENT_MAX_VALUES_EXCEEDED", "max_values must be less than or equal to the number of options", append(p, "max_values")...)
	}
	values := map[string]bool{}
	for k, o := range c.Options {
		op := append(append([]string(nil), p...), "options", strconv.Itoa(k))
		nonEmpty(fe, o.Label, 100, append(op, "label")...)
		nonEmpty(fe, o.Value, 100, append(op, "value")...)
		maxLen(fe, o.Description, 100, append(op, "description")...)
		if values[o.Value] {
			fe.add("SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "The specified option value is already used", append(op, "value")...)
		}
		values[o.Value] = true
	}
}

// validateModal checks the data of a modal callback.
func validateModal(m *Modal) *apiError {
	fe := formErrors{}
	customID(fe, m.CustomID, []string{"data"})
	nonEmpty(fe, m.Title, 45, "data", "title")
	if n := len(m.Components); n == 0 || n > 5 {
		fe.add("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.", "data", "components")
	}
	for i, row := range m.Components {
		p := []string{"data", "components", strconv.Itoa(i)}
		if row.Type != discordgo.ActionsRowComponent || len(row.Components) != 1 || row.Components[0].Type != discordgo.TextInputComponent {
			fe.add("UNION_TYPE_CHOICES", "A modal row holds exactly one text input.", p...)
			continue
		}
		in := row.Components[0]
		customID(fe, in.CustomID, append(p, "components", "0"))
		nonEmpty(fe, in.Label, 45, append(p, "components", "0", "label")...)
	}
	return fe.err()
}

// customID checks a required custom ID at path p.
func customID(fe formErrors, id string, p []string) {
	nonEmpty(fe, id, 100, append(append([]string(nil), p...), "custom_id")...)
}

// nonEmpty checks that s has 1 to max characters.
func nonEmpty(fe formErrors, s string, max int, path ...string) {
	if s == "" {
		fe.add("BASE_TYPE_REQUIRED", "This field is required", path...)
		return
	}
	maxLen(fe, s, max, path...)
}

// maxLen checks that s has at most max characters and returns its length.
func maxLen(fe formErrors, s string, max int, path ...string) int {
	n := utf8.RuneCountInString(s)
	if n > max {
		fe.add("BASE_TYPE_MAX_LENGTH", "Must be "+strconv.Itoa(max)+" or fewer in length.", path...)
	}
	return n
}
