package bot

import (
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	textlang "golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/render"
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
// fields: one entry per Discord locale whose language is not English. The
// map is shared by every caller, made once per key (each bot built the
// commands' few hundred anew, filling their placeholders by a regular
// expression): it must not be changed.
func localizations(key msg) map[discordgo.Locale]string {
	if m, ok := localized.Load(key); ok {
		return m.(map[discordgo.Locale]string)
	}
	m, _ := localized.LoadOrStore(key, translate(key))
	return m.(map[discordgo.Locale]string)
}

// localized holds localizations' maps by key.
var localized sync.Map

// translate makes localizations' map of key.
func translate(key msg) map[discordgo.Locale]string {
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

// fillRefs fills the command, option and button placeholders of text with
// lang's names and labels (see locales.Catalog.FillRefs).
func fillRefs(lang, text string) string { return catalog.FillRefs(lang, text) }

// LocaleTexts returns every uncounted text of the catalog language lang
// ("es", "pt-BR") as its players read it, placeholders filled, by key: what
// the end-to-end tests compare the bot's answers with.
func LocaleTexts(lang string) map[string]string { return catalog.Texts(lang) }

// formatDecimal writes n with one decimal the way lang writes numbers
// (12.5, 12,5), by CLDR through golang.org/x/text.
func formatDecimal(lang string, n float64) string {
	p := message.NewPrinter(textlang.Make(language(lang)))
	return p.Sprint(number.Decimal(n, number.MinFractionDigits(1), number.MaxFractionDigits(1), number.NoSeparator()))
}

// formatPercent writes a fraction (0.57) as a whole percentage with the
// catalog's pattern for lang (57%, 57 %).
func formatPercent(lang string, f float64) string {
	return tr(lang, locales.FormatPercent, int(f*100+0.5))
}

// chartDates returns the rating chart's date labels in lang: day and month
// name by the catalog (14 Mar, 14. Mär.), or the time of day for a chart of
// less than two days.
func chartDates(lang string) render.DateLabel {
	months := strings.Fields(tr(lang, locales.DateMonths))
	return func(t time.Time, short bool) string {
		if short {
			return t.Format("15:04")
		}
		month := t.Month().String()[:3]
		if len(months) == 12 {
			month = months[t.Month()-1]
		}
		return tr(lang, locales.DateAxis, t.Day(), month)
	}
}
