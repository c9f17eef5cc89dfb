package locales

import (
	"regexp"
	"strings"
)

// A text never writes a command's name or a button's label itself: it
// refers to them with a placeholder, filled from the reader's language, so
// that renaming a command or relabelling a button changes every text that
// names it.
//
//	{/new}          the subcommand as the reader types it: "/malefiz nueva"
//	{opt:roll}      an option's name: "tirada"
//	{button:roll}   a button's label: "Tirar"
//	{choice:ping.always}  a choice of an option, as its list shows it: "siempre"
//
// The names come from the name.* texts, the labels from button.*. A
// choice's name is the text choice.K ("choice.ping.away": "ausente") for a
// choice whose label adds a hint after the name ("ausente (en silencio
// mientras juegas)", the text ping.away), else the label K itself
// ("level.easy": "fácil").
// RefPattern matches a placeholder: its kind ("/", "opt:", "button:",
// "choice:") and name are its two groups.
var RefPattern = regexp.MustCompile(`\{(/|opt:|button:|choice:)([a-z0-9_.-]+)\}`)

// Command is the name of the bot's one slash command, the same in every
// language.
const Command = "malefiz"

// FillRefs fills the command, option, button and choice placeholders of text with
// lang's names and labels; a placeholder naming no text is left as it is
// (the bot's TestTextsReferToRealCommandsAndButtons finds it).
func (c *Catalog) FillRefs(lang, text string) string {
	if !strings.Contains(text, "{") {
		return text
	}
	var b strings.Builder
	last := 0
	for _, m := range RefPattern.FindAllStringSubmatchIndex(text, -1) {
		b.WriteString(text[last:m[0]])
		if value, ok := c.refValue(lang, text[m[2]:m[3]], text[m[4]:m[5]]); ok {
			b.WriteString(value)
		} else {
			b.WriteString(text[m[0]:m[1]])
		}
		last = m[1]
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// refValue is what the placeholder of kind ("/", "opt:", "button:") and
// name reads in lang.
func (c *Catalog) refValue(lang, kind, name string) (string, bool) {
	switch kind {
	case "/":
		sub, ok := c.PlainText(lang, Name(name))
		if !ok {
			return "", false
		}
		cmd, _ := c.PlainText(lang, Name(Command))
		return "/" + cmd + " " + sub, true
	case "opt:":
		return c.PlainText(lang, Name(name))
	case "button:":
		return c.PlainText(lang, Key("button."+name))
	case "choice:":
		if text, ok := c.PlainText(lang, ChoiceKey(name)); ok {
			return text, true
		}
		return c.PlainText(lang, Key(name))
	}
	return "", false
}

// ChoiceKey is the key of the name of the choice whose label is key
// ("ping.away" → "choice.ping.away"), for a choice whose label adds a hint
// after its name.
func ChoiceKey(label string) Key { return Key("choice." + label) }

// Choice is the name, in lang, of the choice whose label is key, as a
// text's {choice:…} placeholder shows it: "ausente" for "ping.away" in
// Spanish.
func (c *Catalog) Choice(lang string, label Key) string {
	return c.FillRefs(c.Language(lang), "{choice:"+string(label)+"}")
}

// PlainText is key's text (its "other" form, placeholders not filled) in
// lang, else in English; false when English has no such key.
func (c *Catalog) PlainText(lang string, key Key) (string, bool) {
	if m, ok := c.messages[lang][key]; ok {
		return m.Other, true
	}
	m, ok := c.messages[Source][key]
	if !ok {
		return "", false
	}
	return m.Other, true
}

// Texts returns every uncounted text of the catalog language lang ("es",
// "pt-BR") as its players read it, placeholders filled, by key: what the
// end-to-end tests compare the bot's answers with. A counted text (one with
// plural forms) is left out.
func (c *Catalog) Texts(lang string) map[string]string {
	out := map[string]string{}
	for key, m := range c.messages[lang] {
		if _, counted := pluralArg[key]; counted {
			continue
		}
		out[string(key)] = c.FillRefs(lang, m.Other)
	}
	return out
}
