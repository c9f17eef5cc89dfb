package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
)

// msg is the key of a message in the catalog (bot/locales; the keys are
// generated from en.toml).
type msg = locales.Key

// catalog is every language's messages.
var catalog = locales.Default

// languages are the catalog's languages, the source first.
var languages = catalog.Languages()

// sourceLanguage is the language every other one falls back to.
const sourceLanguage = locales.Source

// language maps a Discord locale to a catalog language.
func language(locale string) string { return locales.Language(locale) }

// tr returns message key in lang, formatted with args (see locales.Tr).
func tr(lang string, key msg, args ...any) string { return locales.Tr(lang, key, args...) }

// discordLocalesOf returns the Discord locales that read lang.
func discordLocalesOf(lang string) []discordgo.Locale {
	var out []discordgo.Locale
	for locale := range discordgo.Locales {
		if locale != discordgo.Unknown && language(string(locale)) == lang {
			out = append(out, locale)
		}
	}
	return out
}

// localizations returns key's translations for Discord's *_localizations
// fields: one entry per Discord locale whose language is not English.
func localizations(key msg) map[discordgo.Locale]string {
	out := map[discordgo.Locale]string{}
	for _, lang := range languages[1:] {
		m, ok := catalog.Message(lang, key)
		if !ok {
			continue
		}
		for _, locale := range discordLocalesOf(lang) {
			out[locale] = catalog.FillRefs(lang, m.Other)
		}
	}
	return out
}

// nameKey is the catalog key of a command's or option's localized name.
func nameKey(name string) msg { return locales.Name(name) }

// localizeNames gives the commands, their subcommands and options their
// name_localizations (from the name.* keys; choices are localized where
// they are built).
func localizeNames(cmds []*discordgo.ApplicationCommand) {
	var walk func([]*discordgo.ApplicationCommandOption)
	walk = func(opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			o.NameLocalizations = localizations(nameKey(o.Name))
			walk(o.Options)
		}
	}
	for _, c := range cmds {
		names := localizations(nameKey(c.Name))
		c.NameLocalizations = &names
		walk(c.Options)
	}
}

// levelName and levelHint are the catalog keys of a computer level's name
// and one-line description.
func levelName(level string) msg { return locales.Level(level) }
func levelHint(level string) msg { return locales.LevelHint(level) }
