package bot

import (
	"regexp"
	"testing"
)

var verb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

// TestCatalogComplete checks that every message exists in every language
// with the same formatting verbs in the same order.
func TestCatalogComplete(t *testing.T) {
	for key, texts := range catalog {
		en := verb.FindAllString(texts["en"], -1)
		for _, lang := range languages {
			text, ok := texts[lang]
			if !ok || text == "" {
				t.Errorf("%s: no %s text", key, lang)
				continue
			}
			got := verb.FindAllString(text, -1)
			if len(got) != len(en) {
				t.Errorf("%s (%s): verbs %v, English has %v", key, lang, got, en)
				continue
			}
			for i := range got {
				if got[i] != en[i] {
					t.Errorf("%s (%s): verbs %v, English has %v", key, lang, got, en)
				}
			}
		}
	}
}

func TestLanguageFallsBackToEnglish(t *testing.T) {
	for locale, want := range map[string]string{"de": "de", "en-US": "en", "en-GB": "en", "fr": "en", "": "en", "pt-BR": "en"} {
		if got := language(locale); got != want {
			t.Errorf("language(%q) = %q, want %q", locale, got, want)
		}
	}
	if got := tr("fr", msgRollButton); got != "Roll" {
		t.Errorf("French falls back to %q, want Roll", got)
	}
	if got := tr("de", msgRollButton); got != "Würfeln" {
		t.Errorf("German roll button %q", got)
	}
}

func TestEveryLevelHasANameAndHint(t *testing.T) {
	for _, c := range levelChoices() {
		level := c.Value.(string)
		for _, key := range []msg{levelName(level), levelHint(level)} {
			if _, ok := catalog[key]; !ok {
				t.Errorf("no catalog entry %s", key)
			}
		}
	}
}

func TestCommandsFitDiscordLimits(t *testing.T) {
	b := New(Config{})
	for _, cmd := range b.Commands() {
		for _, sub := range cmd.Options {
			if len(sub.Description) > 100 || len(sub.Description) == 0 {
				t.Errorf("%s: description of %d characters", sub.Name, len(sub.Description))
			}
			for lang, d := range sub.DescriptionLocalizations {
				if n := len([]rune(d)); n > 100 {
					t.Errorf("%s (%s): description of %d characters", sub.Name, lang, n)
				}
			}
		}
	}
}
