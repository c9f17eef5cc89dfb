// Package locales is the bot's message catalog: every text a player reads,
// in every language, loaded from the *.toml files beside this one (en.toml
// is the source and the fallback; see README.md). It has no Discord in it,
// so the game table and the adapter both use it.
//
// The keys are Go constants generated from en.toml (keys.go): run go
// generate after adding a message.
package locales

//go:generate go run ./genkeys

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	textlang "golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Key is the key of a message in the catalog.
type Key string

//go:embed *.toml
var files embed.FS

// Source is the language every other one falls back to.
const Source = "en"

// pluralArg names, for each message with plural forms, the argument whose
// value picks the form (by the language's CLDR rules, through go-i18n);
// fmt.Sprintf then formats the chosen form with all the arguments.
var pluralArg = map[Key]int{
	DurationMinutes:   0,
	DurationHours:     0,
	DurationDays:      0,
	TurnRowOption:     1,
	GameWinner:        1,
	LeaderGames:       0,
	LeaderWins:        0,
	LeaderEmpty:       0,
	LeaderFooter:      2,
	StatsStreakWins:   0,
	StatsStreakLosses: 0,
	StatsUnranked:     0,
	HistoryLine:       3,
	ReplayDone:        1,
	TimerTakenOver:    1,
	ErrBadBots:        0,
	ReasonAdvances:    0,
	// Counts with decimals (Tenths).
	PlaceOwnCost: 0,
	PlaceSlows:   1,
	ReasonSlows:  1,
	// The coach (issue 32).
	CoachBlunders:      0,
	CoachInaccuracies:  0,
	CoachMistakes:      0,
	CoachNotGraded:     0,
	ActivityHouse:      1,
	ReviewSummary:      1,
	StatsAccuracyValue: 1,
	ReviewLost:         0, // the board's review (issue 42)
	// The review a player learns from (issue 42).
	ReviewLine:      2,
	ReviewLinePlain: 2,
	FaultBlocksOwn:  0,
	FaultSlower:     0,
	// The board in words (issue 39).
	AltLeader: 0,
	AltMore:   0,
	// The rating chart's and the replay's alt text (issue 39).
	AltRatingAll:      0,
	AltRatingDown:     0,
	AltRatingLast:     0,
	AltRatingTrend:    0,
	AltRatingUp:       0,
	AltReplay:         1,
	AltReplayCaptures: 0,
	// A server's tournament (issue 40).
	TourEntrants:  0,
	TourPoints:    0,
	TourRoundOpen: 0,
	TourRounds:    0,
}

// zeroIsOther are the languages whose players count none in the plural
// although CLDR's rules put 0 in the "one" form: CLDR's pt (Brazilian
// Portuguese) has one for "i = 0..1", so go-i18n would write "0 vitória";
// Brazilian usage is "0 vitórias". French keeps CLDR's "0 heure", which is
// French usage. README.md ("Counts") says why.
var zeroIsOther = map[string]bool{"pt-BR": true}

// ZeroIsOther reports whether lang counts none in the plural form against
// CLDR's rules (see zeroIsOther): what a page choosing plural forms by
// Intl.PluralRules must know too.
func ZeroIsOther(lang string) bool { return zeroIsOther[lang] }

// PluralArg returns the argument of key that picks its plural form, if it
// has plural forms.
func PluralArg(key Key) (int, bool) {
	i, ok := pluralArg[key]
	return i, ok
}

// Catalog holds the parsed message files.
type Catalog struct {
	languages  []string
	messages   map[string]map[Key]*i18n.Message
	localizers map[string]*i18n.Localizer
}

// Default is every language's messages, loaded once from the embedded files.
var Default = MustLoad(files)

// MustLoad parses every *.toml file of fsys; a file that does not parse is a
// build error, so it panics.
func MustLoad(fsys fs.FS) *Catalog {
	c, err := Load(fsys)
	if err != nil {
		panic(err)
	}
	return c
}

// Load parses every *.toml file of fsys (at its root, or under locales/).
func Load(fsys fs.FS) (*Catalog, error) {
	bundle := i18n.NewBundle(textlang.English)
	bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	names, err := fs.Glob(fsys, "*.toml")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		if names, err = fs.Glob(fsys, "locales/*.toml"); err != nil {
			return nil, err
		}
	}
	c := &Catalog{messages: map[string]map[Key]*i18n.Message{}, localizers: map[string]*i18n.Localizer{}}
	for _, name := range names {
		buf, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		file, err := bundle.ParseMessageFileBytes(buf, name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		lang := strings.TrimSuffix(path.Base(name), ".toml")
		texts := make(map[Key]*i18n.Message, len(file.Messages))
		for _, m := range file.Messages {
			texts[Key(m.ID)] = m
		}
		c.messages[lang] = texts
		c.localizers[lang] = i18n.NewLocalizer(bundle, lang)
		c.languages = append(c.languages, lang)
	}
	if c.messages[Source] == nil {
		return nil, fmt.Errorf("locales: no %s.toml", Source)
	}
	slices.SortFunc(c.languages, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == Source:
			return -1
		case b == Source:
			return 1
		}
		return strings.Compare(a, b)
	})
	return c, nil
}

// Forms returns a message's non-empty texts by plural form ("one",
// "other", …): what a translator writes and the checks compare.
func Forms(m *i18n.Message) map[string]string {
	out := map[string]string{}
	for form, text := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if text != "" {
			out[form] = text
		}
	}
	return out
}

// Languages are the catalog's languages, the source first, then the rest in
// file name order.
func (c *Catalog) Languages() []string { return c.languages }

// Message returns key's message in lang as the file has it.
func (c *Catalog) Message(lang string, key Key) (*i18n.Message, bool) {
	m, ok := c.messages[lang][key]
	return m, ok
}

// Keys returns the keys of lang's file.
func (c *Catalog) Keys(lang string) []Key {
	var out []Key
	for k := range c.messages[lang] {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Language maps a Discord locale ("de", "en-US", "es-419", "pt-BR") to a
// catalog language: the locale itself, else its base language, else
// English.
func (c *Catalog) Language(locale string) string {
	if _, ok := c.messages[locale]; ok {
		return locale
	}
	base, _, _ := strings.Cut(locale, "-")
	if _, ok := c.messages[base]; ok {
		return base
	}
	return Source
}

// Language is Default.Language.
func Language(locale string) string { return Default.Language(locale) }

// Tr returns message key in lang, formatted with args by fmt.Sprintf; a
// message missing from lang falls back to English, an unknown key is
// returned as it is.
func Tr(lang string, key Key, args ...any) string { return Default.Tr(lang, key, args...) }

// Tr returns message key in lang, formatted with args by fmt.Sprintf, as
// the package's Tr does with Default.
func (c *Catalog) Tr(lang string, key Key, args ...any) string {
	l := c.Language(lang)
	text := c.FillRefs(l, c.Text(l, key, args))
	if len(args) == 0 {
		return text
	}
	cloned := false
	for i, a := range args {
		if d, ok := a.(Tenths); ok {
			if !cloned {
				args, cloned = slices.Clone(args), true
			}
			args[i] = d.Format(l)
		}
	}
	return fmt.Sprintf(text, args...)
}

// Tenths is a count with one decimal ("+1.5 turns"), as an argument of
// Tr: the text gets it written the way the language writes numbers
// (1.5, 1,5; a %s verb), and as a message's count (pluralArg) it picks the
// plural form by the language's CLDR rules for decimals ("+1,5 tour" in
// French, "+1,5 tury" in Polish), which a number passed as text hides.
type Tenths float64

// Format writes d with one decimal as lang writes numbers (CLDR, through
// golang.org/x/text).
func (d Tenths) Format(lang string) string {
	p := message.NewPrinter(textlang.Make(lang))
	return p.Sprint(number.Decimal(float64(d), number.MinFractionDigits(1), number.MaxFractionDigits(1), number.NoSeparator()))
}

// operand is d as go-i18n's plural operands read a decimal: "1.5", with
// its one visible decimal (so that English says "1.0 turns").
func (d Tenths) operand() string { return strconv.FormatFloat(float64(d), 'f', 1, 64) }

// Text returns key's text in lang, the plural form its count argument picks
// if it has one, not yet formatted.
func (c *Catalog) Text(lang string, key Key, args []any) string {
	m, ok := c.messages[lang][key]
	if !ok {
		lang = Source
		if m, ok = c.messages[lang][key]; !ok {
			return string(key)
		}
	}
	i, plural := pluralArg[key]
	if !plural || i >= len(args) {
		return m.Other
	}
	count := args[i]
	if d, ok := count.(Tenths); ok {
		count = d.operand()
	}
	if zeroIsOther[lang] && (fmt.Sprint(count) == "0" || count == "0.0") {
		return m.Other
	}
	text, err := c.localizers[lang].Localize(&i18n.LocalizeConfig{MessageID: string(key), PluralCount: count})
	if err != nil && text == "" {
		return m.Other
	}
	return text
}

// Level is the key of a computer level's name.
func Level(level string) Key { return Key("level." + level) }

// LevelHint is the key of a computer level's one-line description.
func LevelHint(level string) Key { return Key("level." + level + ".hint") }

// Name is the key of a command's or option's localized name.
func Name(name string) Key { return Key("name." + name) }
