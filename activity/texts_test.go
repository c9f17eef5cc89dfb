package activity

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/bot/locales"
)

// TestPageTexts proves that in every language of the catalog the page gets
// each of its texts as the catalog words it, none missing from the
// catalog (a missing key would come back as the key itself), and the
// language it is in.
func TestPageTexts(t *testing.T) {
	langs := locales.Default.Languages()
	require.Contains(t, langs, "de")
	for _, lang := range langs {
		t.Run(lang, func(t *testing.T) {
			texts := pageTexts(lang)
			assert.Equal(t, lang, texts["lang"])
			for name, key := range pageKeys {
				assert.Equal(t, locales.Tr(lang, key), texts[name], name)
				assert.NotEqual(t, string(key), texts[name], "%s is in the catalog", name)
			}
			for name, text := range texts {
				base, form, counted := strings.Cut(name, ".")
				switch {
				case name == "lang" || name == "zeroIsOther":
				case counted:
					m, ok := locales.Default.Message(lang, pageKeys[base])
					require.True(t, ok, name)
					assert.Equal(t, locales.Forms(m)[form], text, "%s: the catalog's form", name)
				default:
					assert.Contains(t, pageKeys, name)
				}
			}
		})
	}
	// The pawns in a home are counted in each language's forms: the page
	// picks one by the language's plural rules (counted in app.js).
	pl := pageTexts("pl")
	for _, form := range []string{"one", "few", "many", "other"} {
		assert.Contains(t, pl, "house."+form)
	}
	assert.Equal(t, "Home of %s: %d pawn", pageTexts("en")["house.one"])
	assert.Equal(t, "true", pageTexts("pt-BR")["zeroIsOther"], "0 peões, not 0 peão")
	assert.Equal(t, "false", pageTexts("fr")["zeroIsOther"])
	assert.NotEqual(t, pageTexts("en")["join"], pageTexts("de")["join"], "each in its language")
}

// TestPageTextsAreTheScripts proves that every text the page's scripts read
// (texts.NAME, T.NAME) is one the server sends: a name the server does not
// send shows nothing, or the script's fallback.
func TestPageTextsAreTheScripts(t *testing.T) {
	var script []byte
	for _, name := range []string{"static/app.js", "static/review.js", "static/tournament.js"} {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		script = append(script, b...)
	}
	sent := pageTexts("de")
	var read []string
	for _, m := range regexp.MustCompile(`\b(?:texts|T)\.([A-Za-z]+)`).FindAllSubmatch(script, -1) {
		if name := string(m[1]); !slices.Contains(read, name) {
			read = append(read, name)
		}
	}
	require.GreaterOrEqual(t, len(read), 15, "the script reads its texts so: %v", read)
	for _, name := range read {
		assert.Contains(t, sent, name, "the script reads texts.%s", name)
	}
}
