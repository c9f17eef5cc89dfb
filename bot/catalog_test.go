package bot

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bwmarrin/discordgo"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// verb matches one fmt verb, with an optional explicit argument index.
var verb = regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0-9.]*([a-zA-Z%])`)

// verbsByArg returns what each argument of a Sprintf pattern is formatted
// as ("1:d", "2:s"), sorted, following fmt's rule that after %[n]x an
// unnumbered verb takes argument n+1; %% is kept as "%".
func verbsByArg(text string) []string {
	var out []string
	next := 1
	for _, m := range verb.FindAllStringSubmatch(text, -1) {
		if m[2] == "%" {
			out = append(out, "%")
			continue
		}
		arg := next
		if m[1] != "" {
			arg, _ = strconv.Atoi(m[1])
		}
		out = append(out, fmt.Sprintf("%d:%s", arg, m[2]))
		next = arg + 1
	}
	slices.Sort(out)
	return out
}

// forms returns a message's non-empty texts by plural form.
func forms(m *i18n.Message) map[string]string {
	out := map[string]string{}
	for form, text := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if text != "" {
			out[form] = text
		}
	}
	return out
}

// pluralSamples are the counts whose forms every plural message must have:
// enough integers to meet every integer form of the CLDR rules (Polish's
// many at 5 and 12, few at 22, French and Spanish many at a million).
func pluralSamples() []int {
	var out []int
	for n := 0; n <= 1200; n++ {
		out = append(out, n)
	}
	return append(out, 1000000, 2000000, 1000001)
}

// TestCatalogComplete checks every language against English: each key
// present, the same formatting verbs for the same arguments in every form,
// every plural form the language's rules pick for a count, and no key
// English does not have.
func TestCatalogComplete(t *testing.T) {
	en := catalog.messages[sourceLanguage]
	require.NotEmpty(t, en)
	for _, lang := range languages {
		texts := catalog.messages[lang]
		for key, source := range en {
			m, ok := texts[key]
			if !ok {
				t.Errorf("key %q missing from language %s (bot/locales/%s.toml)", key, lang, lang)
				continue
			}
			if m.Other == "" {
				t.Errorf("key %q in language %s: no text (other)", key, lang)
			}
			want := verbsByArg(source.Other)
			for form, text := range forms(m) {
				if got := verbsByArg(text); !slices.Equal(got, want) {
					t.Errorf("key %q in language %s (%s): verbs %v, English has %v", key, lang, form, got, want)
				}
			}
			_, plural := pluralArg[key]
			if !plural {
				if len(forms(m)) > 1 {
					t.Errorf("key %q in language %s has plural forms but no count: add it to pluralArg", key, lang)
				}
				continue
			}
			for _, n := range pluralSamples() {
				if _, err := catalog.localizers[lang].Localize(&i18n.LocalizeConfig{MessageID: string(key), PluralCount: n}); err != nil {
					t.Errorf("key %q in language %s: no plural form for %d (%v)", key, lang, n, err)
					break
				}
			}
		}
		for key := range texts {
			if _, ok := en[key]; !ok {
				t.Errorf("key %q in language %s is not in English", key, lang)
			}
		}
	}
	for key, arg := range pluralArg {
		m, ok := en[key]
		require.True(t, ok, "pluralArg names %q, which English does not have", key)
		assert.Less(t, arg, len(verbsByArg(m.Other)), "pluralArg of %q is past its arguments", key)
	}
}

// TestEveryKeyIsInEnglish checks that every msg constant of catalog.go has
// an English text.
func TestEveryKeyIsInEnglish(t *testing.T) {
	file, err := parser.ParseFile(token.NewFileSet(), "catalog.go", nil, 0)
	require.NoError(t, err)
	n := 0
	ast.Inspect(file, func(node ast.Node) bool {
		spec, ok := node.(*ast.ValueSpec)
		if !ok || spec.Type == nil || fmt.Sprint(spec.Type) != "msg" {
			return true
		}
		for _, v := range spec.Values {
			lit, ok := v.(*ast.BasicLit)
			if !ok {
				continue
			}
			key, err := strconv.Unquote(lit.Value)
			require.NoError(t, err)
			n++
			_, ok = catalog.messages[sourceLanguage][msg(key)]
			assert.True(t, ok, "key %q missing from language en (bot/locales/en.toml)", key)
		}
		return true
	})
	assert.Greater(t, n, 150, "found too few msg constants: did catalog.go change shape?")
}

func TestLanguagesComeFromTheFiles(t *testing.T) {
	assert.Equal(t, []string{"en", "de", "es", "fr", "it", "nl", "pl", "pt-BR"}, languages)
}

func TestLanguageOfDiscordLocales(t *testing.T) {
	for locale, want := range map[string]string{
		"en-US": "en", "en-GB": "en", "de": "de", "es-ES": "es", "es-419": "es", "it": "it", "fr": "fr",
		"nl": "nl", "pl": "pl", "pt-BR": "pt-BR", "pt-PT": "en", "sv-SE": "en", "ja": "en", "": "en",
	} {
		assert.Equal(t, want, language(locale), "language(%q)", locale)
	}
	assert.Equal(t, "Würfeln", tr("de", msgRollButton))
	assert.Equal(t, "Roll", tr("ja", msgRollButton))
	assert.Equal(t, "no.such.key", tr("de", "no.such.key"))
}

func TestMissingTranslationFallsBackToEnglish(t *testing.T) {
	c, err := loadCatalog(fstest.MapFS{
		"locales/en.toml": {Data: []byte("\"a\" = \"Roll\"\n\"b\" = { one = \"%d hour\", other = \"%d hours\" }\n")},
		"locales/xx.toml": {Data: []byte("\"a\" = \"Rollen\"\n")},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"en", "xx"}, c.languages)
	assert.Equal(t, "Rollen", c.text("xx", "a", nil))
	assert.Equal(t, "%d hours", c.text("xx", "b", nil))
	assert.Equal(t, "zz", c.text("xx", "zz", nil), "an unknown key is shown as it is")
	_, err = loadCatalog(fstest.MapFS{"locales/xx.toml": {Data: []byte("\"a\" = \"Rollen\"\n")}})
	assert.Error(t, err, "a catalog without English")
}

func TestPluralForms(t *testing.T) {
	for _, c := range []struct {
		lang string
		n    int
		want string
	}{
		{"en", 1, "1 hour"}, {"en", 2, "2 hours"}, {"en", 0, "0 hours"},
		{"de", 1, "1 Stunde"}, {"de", 2, "2 Stunden"},
		{"pl", 1, "1 godzina"}, {"pl", 2, "2 godziny"}, {"pl", 5, "5 godzin"}, {"pl", 22, "22 godziny"}, {"pl", 12, "12 godzin"},
		{"fr", 0, "0 heure"}, {"fr", 1, "1 heure"}, {"fr", 2, "2 heures"},
	} {
		assert.Equal(t, c.want, tr(c.lang, msgHours, c.n), "%s %d", c.lang, c.n)
	}
	assert.Equal(t, "Row 6 (1 square)", tr("en", msgRowOption, 6, 1))
	assert.Equal(t, "Row 6 (3 squares)", tr("en", msgRowOption, 6, 3))
}

func TestNumbersByLanguage(t *testing.T) {
	assert.Equal(t, "12.5", formatDecimal("en", 12.5))
	assert.Equal(t, "12,5", formatDecimal("de", 12.5))
	assert.Equal(t, "1234,0", formatDecimal("fr", 1234))
	assert.Equal(t, "57%", formatPercent("en", 0.567))
	assert.Equal(t, "57 %", formatPercent("de", 0.567))
}

func TestEveryLevelHasANameAndHint(t *testing.T) {
	for _, c := range levelChoices() {
		level := c.Value.(string)
		for _, key := range []msg{levelName(level), levelHint(level)} {
			_, ok := catalog.messages[sourceLanguage][key]
			assert.True(t, ok, "no catalog entry %s", key)
		}
	}
}

// discordName is Discord's rule for command, option and choice names.
var discordName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

func TestCommandsFitDiscordLimits(t *testing.T) {
	b := New(Config{})
	checkName := func(where, name string) {
		assert.Regexp(t, discordName, name, where)
		assert.Equal(t, strings.ToLower(name), name, "%s: names are lowercase", where)
	}
	checkDesc := func(where, d string) {
		n := len([]rune(d))
		assert.True(t, n >= 1 && n <= 100, "%s: description of %d characters", where, n)
	}
	wantLocales := 0
	for _, lang := range languages[1:] {
		for range discordLocalesOf(lang) {
			wantLocales++
		}
	}
	var walk func(path string, opts []*discordgo.ApplicationCommandOption)
	walk = func(path string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			where := path + " " + o.Name
			checkName(where, o.Name)
			checkDesc(where, o.Description)
			assert.Len(t, o.NameLocalizations, wantLocales, "%s: name localizations", where)
			assert.Len(t, o.DescriptionLocalizations, wantLocales, "%s: description localizations", where)
			for locale, name := range o.NameLocalizations {
				checkName(where+" ("+string(locale)+")", name)
			}
			for locale, d := range o.DescriptionLocalizations {
				checkDesc(where+" ("+string(locale)+")", d)
			}
			for _, c := range o.Choices {
				assert.Len(t, c.NameLocalizations, wantLocales, "%s choice %s", where, c.Name)
				for locale, name := range c.NameLocalizations {
					n := len([]rune(name))
					assert.True(t, n >= 1 && n <= 100, "%s choice %s (%s): %d characters", where, c.Name, locale, n)
				}
			}
			walk(where, o.Options)
		}
	}
	for _, cmd := range b.Commands() {
		checkName(cmd.Name, cmd.Name)
		require.NotNil(t, cmd.NameLocalizations)
		assert.Len(t, *cmd.NameLocalizations, wantLocales)
		walk("/"+cmd.Name, cmd.Options)
	}
}

// BenchmarkTr measures a plain text, a counted one (the plural form chosen
// by go-i18n's Localizer) and the help, whose command and button
// placeholders are filled on each call.
func BenchmarkTr(b *testing.B) {
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			_ = tr("pl", msgTurnTitle, 12, "Anna")
		}
	})
	b.Run("plural", func(b *testing.B) {
		for b.Loop() {
			_ = tr("pl", msgRowOption, 6, 22)
		}
	})
	b.Run("placeholders", func(b *testing.B) {
		for b.Loop() {
			_ = tr("pl", msgHelpText)
		}
	})
}
