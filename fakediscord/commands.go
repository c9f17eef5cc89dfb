package fakediscord

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// command is a registered application command: the object Discord
// answers with, and its parsed form.
type command struct {
	raw json.RawMessage
	cmd *discordgo.ApplicationCommand
}

// Commands returns the commands registered for a guild, or the global ones
// when guildID is "".
func (f *Fake) Commands(guildID string) []*discordgo.ApplicationCommand {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*discordgo.ApplicationCommand
	for _, c := range f.commands[guildID] {
		var cmd discordgo.ApplicationCommand
		_ = json.Unmarshal(c.raw, &cmd)
		out = append(out, &cmd)
	}
	return out
}

// commandLocked finds the chat input command an invocation in guild
// names: a guild command first, then a global one. f.mu must be held.
func (f *Fake) commandLocked(guild, name string) *discordgo.ApplicationCommand {
	for _, scope := range []string{guild, ""} {
		for _, c := range f.commands[scope] {
			if c.cmd.Name == name && (c.cmd.Type == 0 || c.cmd.Type == discordgo.ChatApplicationCommand) {
				return c.cmd
			}
		}
	}
	return nil
}

// commandScope checks the {app} and {guild} of a commands route.
func (f *Fake) commandScope(c *Call) (string, *apiError) {
	if c.Param("app") != f.AppID {
		return "", &apiError{status: http.StatusNotFound, Code: codeUnknownApplication, Message: "Unknown Application"}
	}
	guild := c.Param("guild")
	if _, ok := f.guild(guild); guild != "" && !ok {
		return "", errMissingAccess()
	}
	return guild, nil
}

// putCommands serves the bulk overwrite of global or guild commands. A
// command keeps its ID when one with the same name and type existed.
func (f *Fake) putCommands(c *Call) (int, any) {
	guild, e := f.commandScope(c)
	if e != nil {
		return e.reply()
	}
	var raws []map[string]json.RawMessage
	var cmds []*discordgo.ApplicationCommand
	if json.Unmarshal(c.Body, &raws) != nil || json.Unmarshal(c.Body, &cmds) != nil {
		return invalidForm("BASE_TYPE_ARRAY", "Must be an array.").reply()
	}
	if e := validateCommands(cmds); e != nil {
		return e.reply()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.entryPointRefusal(guild, cmds); e != nil {
		return e.reply()
	}
	old := f.commands[guild]
	next := make([]command, 0, len(cmds))
	out := make([]json.RawMessage, 0, len(cmds))
	for i, cmd := range cmds {
		if cmd.Type == 0 {
			cmd.Type = discordgo.ChatApplicationCommand
		}
		id := newID()
		for _, o := range old {
			if o.cmd.Name == cmd.Name && o.cmd.Type == cmd.Type {
				id = o.cmd.ID
			}
		}
		obj := raws[i]
		set := func(k string, v any) { obj[k], _ = json.Marshal(v) }
		set("id", id)
		set("application_id", f.AppID)
		set("version", newID())
		set("type", cmd.Type)
		if guild != "" {
			set("guild_id", guild)
		}
		if _, ok := obj["default_member_permissions"]; !ok {
			set("default_member_permissions", nil)
		}
		raw, _ := json.Marshal(obj)
		cmd.ID, cmd.ApplicationID, cmd.GuildID = id, f.AppID, guild
		next = append(next, command{raw: raw, cmd: cmd})
		out = append(out, raw)
	}
	f.commands[guild] = next
	return http.StatusOK, out
}

// getCommands serves the list of global or guild commands.
func (f *Fake) getCommands(c *Call) (int, any) {
	guild, e := f.commandScope(c)
	if e != nil {
		return e.reply()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []json.RawMessage{}
	for _, cmd := range f.commands[guild] {
		out = append(out, cmd.raw)
	}
	return http.StatusOK, out
}

// commandName is what Discord accepts as a chat input command or option
// name, in any language, lowercase where the letter has a case:
// ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ (Go names the scripts
// Devanagari and Thai), per
// https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-naming
var commandName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// discordLocales are the locales Discord accepts as the keys of a
// name_localizations or description_localizations map, per
// https://discord.com/developers/docs/reference#locales
var discordLocales = map[discordgo.Locale]bool{
	"id": true, "da": true, "de": true, "en-GB": true, "en-US": true, "es-ES": true, "es-419": true,
	"fr": true, "hr": true, "it": true, "lt": true, "hu": true, "nl": true, "no": true, "pl": true,
	"pt-BR": true, "ro": true, "fi": true, "sv-SE": true, "vi": true, "tr": true, "cs": true, "el": true,
	"bg": true, "ru": true, "uk": true, "hi": true, "th": true, "zh-CN": true, "ja": true, "zh-TW": true,
	"ko": true,
}

// checkLocalizations checks a localizations map at path p: each key one
// of Discord's locales, each value a name (names) or a description of 1
// to 100 characters.
func checkLocalizations(fe formErrors, m map[discordgo.Locale]string, names bool, p []string) {
	for locale, v := range m {
		lp := append(append([]string(nil), p...), string(locale))
		if !discordLocales[locale] {
			fe.add("BASE_TYPE_CHOICES", "Value must be one of Discord's locales.", lp...)
			continue
		}
		if names {
			checkName(fe, v, lp)
		} else {
			nonEmpty(fe, v, 100, lp...)
		}
	}
}

// localized is a pointer to a localizations map as discordgo has it on a
// command, as a map (nil for none).
func localized(m *map[discordgo.Locale]string) map[discordgo.Locale]string {
	if m == nil {
		return nil
	}
	return *m
}

// validateCommands checks a bulk overwrite against Discord's rules.
func validateCommands(cmds []*discordgo.ApplicationCommand) *apiError {
	fe := formErrors{}
	if len(cmds) > 100 {
		fe.add("BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
	}
	names := map[string]bool{}
	for i, c := range cmds {
		p := []string{strconv.Itoa(i)}
		key := strconv.Itoa(int(c.Type)) + "/" + c.Name
		if names[key] {
			fe.add("APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique", append(p, "name")...)
		}
		names[key] = true
		if c.Type == 0 || c.Type == discordgo.ChatApplicationCommand {
			checkName(fe, c.Name, append(p, "name"))
			nonEmpty(fe, c.Description, 100, append(p, "description")...)
			checkLocalizations(fe, localized(c.NameLocalizations), true, append(p, "name_localizations"))
			validateOptions(fe, c.Options, 0, p)
		} else {
			nonEmpty(fe, c.Name, 32, append(p, "name")...)
			for locale, v := range localized(c.NameLocalizations) {
				if !discordLocales[locale] {
					fe.add("BASE_TYPE_CHOICES", "Value must be one of Discord's locales.", append(p, "name_localizations", string(locale))...)
				}
				nonEmpty(fe, v, 32, append(p, "name_localizations", string(locale))...)
			}
		}
		checkLocalizations(fe, localized(c.DescriptionLocalizations), false, append(p, "description_localizations"))
	}
	return fe.err()
}

// validateOptions checks the options of a command or subcommand at path
// p; depth counts the subcommand levels above.
func validateOptions(fe formErrors, opts []*discordgo.ApplicationCommandOption, depth int, p []string) {
	if len(opts) > 25 {
		fe.add("BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.", append(p, "options")...)
	}
	names := map[string]bool{}
	optional := false
	for i, o := range opts {
		op := append(append([]string(nil), p...), "options", strconv.Itoa(i))
		checkName(fe, o.Name, append(op, "name"))
		nonEmpty(fe, o.Description, 100, append(op, "description")...)
		checkLocalizations(fe, o.NameLocalizations, true, append(op, "name_localizations"))
		checkLocalizations(fe, o.DescriptionLocalizations, false, append(op, "description_localizations"))
		for j, ch := range o.Choices {
			cp := append(append([]string(nil), op...), "choices", strconv.Itoa(j))
			nonEmpty(fe, ch.Name, 100, append(cp, "name")...)
			for locale, v := range ch.NameLocalizations {
				if !discordLocales[locale] {
					fe.add("BASE_TYPE_CHOICES", "Value must be one of Discord's locales.", append(cp, "name_localizations", string(locale))...)
				}
				nonEmpty(fe, v, 100, append(cp, "name_localizations", string(locale))...)
			}
		}
		if names[o.Name] {
			fe.add("APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Command option names must be unique", append(op, "name")...)
		}
		names[o.Name] = true
		if len(o.Choices) > 25 {
			fe.add("BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.", append(op, "choices")...)
		}
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommandGroup:
			if depth > 0 {
				fe.add("APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Subcommand groups cannot be nested", append(op, "type")...)
			}
			validateOptions(fe, o.Options, depth+1, op)
		case discordgo.ApplicationCommandOptionSubCommand:
			if depth > 1 {
				fe.add("APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Subcommands cannot be nested this deep", append(op, "type")...)
			}
			validateOptions(fe, o.Options, depth+1, op)
		default:
			if o.Required && optional {
				fe.add("APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options", append(op, "required")...)
			}
			optional = optional || !o.Required
		}
	}
}

// checkName checks a command or option name at path p.
func checkName(fe formErrors, name string, p []string) {
	if !commandName.MatchString(name) || strings.ToLower(name) != name {
		fe.add("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid", p...)
	}
}
