package sandbox

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// ErrCommand is wrapped by the errors of a command line that does not fit
// the registered commands: an unknown command, subcommand or option, a
// value of the wrong type, a missing required option.
var ErrCommand = errors.New("sandbox: bad command")

// command is a parsed command line, ready for Fake.SlashCommand.
type command struct {
	name    string
	sub     string // "new", or "group sub"
	options map[string]any
}

// localized returns a name or description as a user of locale reads it in
// Discord's client: its localization for locale, else the default.
func localized(text string, l map[discordgo.Locale]string, locale string) string {
	if t := l[discordgo.Locale(locale)]; t != "" {
		return t
	}
	return text
}

// localizations returns a command's localizations, which discordgo keeps
// behind a pointer.
func localizations(l *map[discordgo.Locale]string) map[discordgo.Locale]string {
	if l == nil {
		return nil
	}
	return *l
}

// parseCommand reads a command line such as "/malefiz new seats:2 bots:1"
// against the registered commands, as a user of locale types it: names as
// Discord's client shows them in that language ("/malefiz neu"), or the
// default names. The command it returns has the default names, as Discord
// sends them. Option values are typed as the command declares them; a
// string option with choices takes a choice's value or name; a user option
// takes a user's name (with or without @) or ID.
func parseCommand(line string, cmds []*discordgo.ApplicationCommand, users []User, locale string) (command, error) {
	words, err := splitWords(strings.TrimSpace(line))
	if err != nil {
		return command{}, err
	}
	if len(words) == 0 || !strings.HasPrefix(words[0], "/") || len(words[0]) == 1 {
		return command{}, fmt.Errorf("%w: a command starts with / and its name, such as /malefiz", ErrCommand)
	}
	name := strings.ToLower(strings.TrimPrefix(words[0], "/"))
	var cmd *discordgo.ApplicationCommand
	for _, c := range cmds {
		if (c.Name == name || localized(c.Name, localizations(c.NameLocalizations), locale) == name) && (c.Type == 0 || c.Type == discordgo.ChatApplicationCommand) {
			cmd = c
		}
	}
	if cmd == nil {
		return command{}, fmt.Errorf("%w: there is no command /%s", ErrCommand, name)
	}
	out := command{name: cmd.Name, options: map[string]any{}}
	opts, words := cmd.Options, words[1:]
	for hasSubcommands(opts) {
		if len(words) == 0 || strings.Contains(words[0], ":") {
			return command{}, fmt.Errorf("%w: /%s needs a subcommand: %s", ErrCommand, strings.TrimSpace(name+" "+out.sub), optionNames(opts, locale))
		}
		var next *discordgo.ApplicationCommandOption
		for _, o := range opts {
			if isSubcommand(o) && named(o, words[0], locale) {
				next = o
			}
		}
		if next == nil {
			return command{}, fmt.Errorf("%w: /%s has no subcommand %q: %s", ErrCommand, strings.TrimSpace(name+" "+out.sub), words[0], optionNames(opts, locale))
		}
		out.sub = strings.TrimSpace(out.sub + " " + next.Name)
		opts, words = next.Options, words[1:]
	}
	for _, w := range words {
		key, value, ok := strings.Cut(w, ":")
		if !ok || key == "" {
			return command{}, fmt.Errorf("%w: %q: write options as name:value", ErrCommand, w)
		}
		o := findOption(opts, key, locale)
		if o == nil {
			return command{}, fmt.Errorf("%w: /%s %s has no option %q", ErrCommand, name, out.sub, key)
		}
		v, err := optionValue(o, value, users, locale)
		if err != nil {
			return command{}, fmt.Errorf("%w: %s: %v", ErrCommand, localized(o.Name, o.NameLocalizations, locale), err)
		}
		out.options[o.Name] = v
	}
	for _, o := range opts {
		if _, given := out.options[o.Name]; o.Required && !given {
			return command{}, fmt.Errorf("%w: %s is required", ErrCommand, localized(o.Name, o.NameLocalizations, locale))
		}
	}
	return out, nil
}

// splitWords splits a command line at spaces; a value in double quotes
// (name:"two words") may hold spaces.
func splitWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	quoted, inWord := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case unicode.IsSpace(r) && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
			}
			inWord = false
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("%w: a quote is not closed", ErrCommand)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

func isSubcommand(o *discordgo.ApplicationCommandOption) bool {
	return o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup
}

func hasSubcommands(opts []*discordgo.ApplicationCommandOption) bool {
	return len(opts) > 0 && isSubcommand(opts[0])
}

// named reports whether word names o: its name or its name in locale.
func named(o *discordgo.ApplicationCommandOption, word, locale string) bool {
	word = strings.ToLower(word)
	return o.Name == word || localized(o.Name, o.NameLocalizations, locale) == word
}

func optionNames(opts []*discordgo.ApplicationCommandOption, locale string) string {
	names := make([]string, 0, len(opts))
	for _, o := range opts {
		names = append(names, localized(o.Name, o.NameLocalizations, locale))
	}
	return strings.Join(names, ", ")
}

func findOption(opts []*discordgo.ApplicationCommandOption, name, locale string) *discordgo.ApplicationCommandOption {
	for _, o := range opts {
		if !isSubcommand(o) && named(o, name, locale) {
			return o
		}
	}
	return nil
}

// optionValue converts the text of an option to the type it declares; a
// choice may be named as a user of locale reads it.
func optionValue(o *discordgo.ApplicationCommandOption, text string, users []User, locale string) (any, error) {
	if len(o.Choices) > 0 {
		for _, c := range o.Choices {
			if fmt.Sprint(c.Value) == text || strings.EqualFold(c.Name, text) || strings.EqualFold(localized(c.Name, c.NameLocalizations, locale), text) {
				return choiceValue(o, c.Value), nil
			}
		}
		names := make([]string, 0, len(o.Choices))
		for _, c := range o.Choices {
			names = append(names, fmt.Sprint(c.Value))
		}
		return nil, fmt.Errorf("%q is not one of %s", text, strings.Join(names, ", "))
	}
	switch o.Type {
	case discordgo.ApplicationCommandOptionInteger:
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number", text)
		}
		return n, checkRange(o, float64(n))
	case discordgo.ApplicationCommandOptionNumber:
		x, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", text)
		}
		return x, checkRange(o, x)
	case discordgo.ApplicationCommandOptionString:
		return text, checkLength(o, utf8.RuneCountInString(text))
	case discordgo.ApplicationCommandOptionBoolean:
		switch strings.ToLower(text) {
		case "true", "yes", "on":
			return true, nil
		case "false", "no", "off":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not true or false", text)
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		name := strings.TrimPrefix(text, "@")
		for _, u := range users {
			if strings.EqualFold(u.Name, name) || u.ID == name {
				return u.ID, nil
			}
		}
		return nil, fmt.Errorf("there is no user %q", text)
	}
	return text, nil
}

// checkRange checks a number against the option's min_value and
// max_value, as Discord's client does before it sends the command; the
// words are the fake's ("must be between 2 and 4").
func checkRange(o *discordgo.ApplicationCommandOption, x float64) error {
	lo, hasLo := 0.0, o.MinValue != nil
	if hasLo {
		lo = *o.MinValue
	}
	hi, hasHi := o.MaxValue, o.MaxValue != 0 // discordgo omits a zero max_value
	if (!hasLo || x >= lo) && (!hasHi || x <= hi) {
		return nil
	}
	return rangeError(lo, hasLo, hi, hasHi, "")
}

// checkLength checks the length of a string against the option's
// min_length and max_length.
func checkLength(o *discordgo.ApplicationCommandOption, n int) error {
	lo, hasLo := 0, o.MinLength != nil
	if hasLo {
		lo = *o.MinLength
	}
	hi, hasHi := o.MaxLength, o.MaxLength > 0
	if (!hasLo || n >= lo) && (!hasHi || n <= hi) {
		return nil
	}
	return rangeError(float64(lo), hasLo, float64(hi), hasHi, " characters long")
}

// rangeError says which values an option takes.
func rangeError(lo float64, hasLo bool, hi float64, hasHi bool, unit string) error {
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	switch {
	case hasLo && hasHi:
		return fmt.Errorf("must be between %s and %s%s", num(lo), num(hi), unit)
	case hasLo:
		return fmt.Errorf("must be at least %s%s", num(lo), unit)
	default:
		return fmt.Errorf("must be at most %s%s", num(hi), unit)
	}
}

// choiceValue returns a choice's value as the option's type wants it:
// choices decoded from JSON carry numbers as float64.
func choiceValue(o *discordgo.ApplicationCommandOption, v any) any {
	if f, ok := v.(float64); ok && o.Type == discordgo.ApplicationCommandOptionInteger {
		return int64(f)
	}
	return v
}
