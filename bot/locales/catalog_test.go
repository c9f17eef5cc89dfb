package locales

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"testing/fstest"

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
	en := Default.messages[Source]
	require.NotEmpty(t, en)
	for _, lang := range Default.languages {
		texts := Default.messages[lang]
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
			for form, text := range Forms(m) {
				if got := verbsByArg(text); !slices.Equal(got, want) {
					t.Errorf("key %q in language %s (%s): verbs %v, English has %v", key, lang, form, got, want)
				}
			}
			_, plural := pluralArg[key]
			if !plural {
				if len(Forms(m)) > 1 {
					t.Errorf("key %q in language %s has plural forms but no count: add it to pluralArg", key, lang)
				}
				continue
			}
			for _, n := range pluralSamples() {
				if _, err := Default.localizers[lang].Localize(&i18n.LocalizeConfig{MessageID: string(key), PluralCount: n}); err != nil {
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

func TestLanguagesComeFromTheFiles(t *testing.T) {
	assert.Equal(t, []string{"en", "de", "es", "fr", "it", "nl", "pl", "pt-BR"}, Default.Languages())
}

func TestMissingTranslationFallsBackToEnglish(t *testing.T) {
	c, err := Load(fstest.MapFS{
		"locales/en.toml": {Data: []byte("\"a\" = \"Roll\"\n\"b\" = { one = \"%d hour\", other = \"%d hours\" }\n")},
		"locales/xx.toml": {Data: []byte("\"a\" = \"Rollen\"\n")},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"en", "xx"}, c.languages)
	assert.Equal(t, "Rollen", c.Text("xx", "a", nil))
	assert.Equal(t, "%d hours", c.Text("xx", "b", nil))
	assert.Equal(t, "zz", c.Text("xx", "zz", nil), "an unknown key is shown as it is")
	_, err = Load(fstest.MapFS{"locales/xx.toml": {Data: []byte("\"a\" = \"Rollen\"\n")}})
	assert.Error(t, err, "a catalog without English")
}

// TestTenthsFollowThePluralRulesForDecimals: a count with a decimal picks
// its form by the language's CLDR rule for decimals (French and Brazilian
// Portuguese count 1,5 as one, English and German 1.0 as other, Polish
// any decimal as other) and is written as the language writes numbers.
func TestTenthsFollowThePluralRulesForDecimals(t *testing.T) {
	for _, c := range []struct {
		lang  string
		turns Tenths
		want  string
	}{
		{"en", 1.5, "in your own way: you +1.5 turns to the goal"},
		{"en", 1, "in your own way: you +1.0 turns to the goal"},
		{"fr", 1.5, "te gêne toi-même : +1,5 tour jusqu'à l'arrivée"},
		{"fr", 2.5, "te gêne toi-même : +2,5 tours jusqu'à l'arrivée"},
		{"pt-BR", 1.5, "atrapalha você mesmo: +1,5 turno até a chegada"},
		{"pt-BR", 2, "atrapalha você mesmo: +2,0 turnos até a chegada"},
		{"de", 1, "steht dir selbst im Weg: für dich +1,0 Züge bis zum Ziel"},
		{"pl", 1.5, "stoi na drodze także tobie: +1,5 tury do mety"},
		{"es", 0.5, "te estorba a ti: +0,5 turnos hasta la meta"},
	} {
		t.Run(c.lang+" "+c.turns.operand(), func(t *testing.T) {
			assert.Equal(t, c.want, Tr(c.lang, PlaceOwnCost, c.turns))
		})
	}
}

// TestTenthsLeaveTheArgumentsAlone: Tr writes a Tenths into its text
// without changing the caller's arguments.
func TestTenthsLeaveTheArgumentsAlone(t *testing.T) {
	args := []any{"🔵 Ben", Tenths(2.5)}
	require.Equal(t, "🔵 Ben +2,5 Züge bis zum Ziel", Tr("de", PlaceSlows, args...))
	assert.Equal(t, Tenths(2.5), args[1])
}
