package bot

import (
	"bufio"
	"crypto/sha1"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/bot/table"
)

// The checks of this file read a catalog and report problems as sentences
// naming key and language. Each Test… runs one on the bot's own files and
// wants none; each …Fails test edits a copy of a file in t.TempDir() and
// wants the problem found.

// sourceHash is the hash goi18n merge records on a translation: the SHA-1
// of the English message's description and "other" text
// (go-i18n/v2/goi18n/merge_command.go, func hash).
func sourceHash(m *i18n.Message) string {
	h := sha1.New()
	_, _ = io.WriteString(h, m.Description)
	_, _ = io.WriteString(h, m.Other)
	return fmt.Sprintf("sha1-%x", h.Sum(nil))
}

// staleTranslations names every translated message without the hash of the
// current English text: made from an older English text, or never signed.
func staleTranslations(c *locales.Catalog) []string {
	var out []string
	for _, lang := range c.Languages()[1:] {
		for _, key := range c.Keys(lang) {
			m, _ := c.Message(lang, key)
			source, ok := c.Message(sourceLanguage, key)
			if !ok {
				continue // TestCatalogComplete reports it
			}
			switch want := sourceHash(source); {
			case m.Hash == "":
				out = append(out, fmt.Sprintf("key %q in language %s has no hash of the English text it translates", key, lang))
			case m.Hash != want:
				out = append(out, fmt.Sprintf("key %q in language %s is stale: translated from an older English text (hash %s, English now %s)", key, lang, m.Hash, want))
			}
		}
	}
	return out
}

// commandNames are the subcommands and the options of /malefiz, by their
// English names.
type commandNames struct {
	subs, options []string
}

func botCommandNames() commandNames {
	var n commandNames
	var walk func([]*discordgo.ApplicationCommandOption)
	walk = func(opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			n.options = append(n.options, o.Name)
			walk(o.Options)
		}
	}
	for _, cmd := range New(Config{}).Commands() {
		for _, sub := range cmd.Options {
			n.subs = append(n.subs, sub.Name)
			walk(sub.Options)
		}
	}
	return n
}

// textsOf returns every form of every message of lang, by "key (form)".
func textsOf(c *locales.Catalog, lang string) map[string]string {
	out := map[string]string{}
	for _, key := range c.Keys(lang) {
		m, _ := c.Message(lang, key)
		for form, text := range locales.Forms(m) {
			label := string(key)
			if len(locales.Forms(m)) > 1 {
				label += " (" + form + ")"
			}
			out[label] = text
		}
	}
	return out
}

// commandProblems names every text that writes a command itself instead of
// a {/sub} placeholder, every translated text that, filled, shows
// "/malefiz" with an English subcommand name or with no subcommand of its
// language, and every placeholder that names no command or option.
func commandProblems(c *locales.Catalog, names commandNames) []string {
	var out []string
	literal := regexp.MustCompile(`/` + regexp.QuoteMeta(CommandName) + `\b`)
	for _, lang := range c.Languages() {
		cmd, _ := c.PlainText(lang, nameKey(CommandName))
		shown := regexp.MustCompile(`/` + regexp.QuoteMeta(cmd) + `\s+([\p{L}\p{N}_-]+)`)
		own := map[string]bool{}
		for _, sub := range names.subs {
			name, _ := c.PlainText(lang, nameKey(sub))
			own[name] = true
		}
		texts := textsOf(c, lang)
		for _, label := range sortedKeys(texts) {
			text := texts[label]
			if literal.MatchString(text) {
				out = append(out, fmt.Sprintf("key %s in language %s writes a command: refer to it as {/sub}, filled from name.*: %q", label, lang, text))
			}
			for _, m := range locales.RefPattern.FindAllStringSubmatch(text, -1) {
				switch {
				case m[1] == "/" && !slices.Contains(names.subs, m[2]):
					out = append(out, fmt.Sprintf("key %s in language %s: %s is not a subcommand of /%s", label, lang, m[0], CommandName))
				case m[1] == "opt:" && !slices.Contains(names.options, m[2]):
					out = append(out, fmt.Sprintf("key %s in language %s: %s is not an option of /%s", label, lang, m[0], CommandName))
				}
			}
			if lang == sourceLanguage {
				continue
			}
			for _, m := range shown.FindAllStringSubmatch(c.FillRefs(lang, text), -1) {
				switch word := m[1]; {
				case own[word]:
				case slices.Contains(names.subs, word):
					out = append(out, fmt.Sprintf("key %s in language %s shows the English command name %q", label, lang, m[0]))
				default:
					out = append(out, fmt.Sprintf("key %s in language %s shows %q, not a command of its language", label, lang, m[0]))
				}
			}
		}
	}
	return out
}

// labelish matches what names a button next to the word "button": a
// placeholder, a bold or quoted label, or a capitalized word.
var labelish = regexp.MustCompile(`^(\{button:[a-z0-9_-]+\}|\*\*[^*]+\*\*|[«„“"‘'][^»“”"’']+[»“”"’']|\p{Lu}\p{L}*)`)

// buttonProblems names every text that names a button otherwise than by a
// {button:key} placeholder of a real button: a label in bold that is a
// button's, a label next to the language's word for "button" (from its
// glossary), or a placeholder naming no button.
func buttonProblems(c *locales.Catalog, glossaries map[string]glossary) []string {
	var out []string
	for _, lang := range c.Languages() {
		labels := map[string]string{} // lowercase label → key
		for _, l := range []string{sourceLanguage, lang} {
			for _, key := range c.Keys(l) {
				m, _ := c.Message(l, key)
				if strings.HasPrefix(string(key), "button.") {
					labels[strings.ToLower(m.Other)] = string(key)
				}
			}
		}
		var words []string
		for _, row := range glossaries[lang] {
			if row.english == "button" {
				words = append(words, row.terms...)
			}
		}
		texts := textsOf(c, lang)
		for _, label := range sortedKeys(texts) {
			if strings.HasPrefix(label, "button.") {
				continue
			}
			text := texts[label]
			for _, m := range locales.RefPattern.FindAllStringSubmatch(text, -1) {
				if _, ok := c.Message(sourceLanguage, msg("button."+m[2])); m[1] == "button:" && !ok {
					out = append(out, fmt.Sprintf("key %s in language %s: %s is not a button", label, lang, m[0]))
				}
			}
			for _, m := range regexp.MustCompile(`\*\*([^*]+)\*\*`).FindAllStringSubmatch(text, -1) {
				if key, ok := labels[strings.ToLower(m[1])]; ok {
					out = append(out, fmt.Sprintf("key %s in language %s writes the label %q: refer to the button as {%s}", label, lang, m[1], strings.Replace(key, ".", ":", 1)))
				}
			}
			for _, word := range words {
				for _, name := range labelsNextTo(text, word) {
					if !strings.Contains(name, "{button:") {
						out = append(out, fmt.Sprintf("key %s in language %s names the button %q: not a {button:key} placeholder, so not surely a real button's label", label, lang, name))
					}
				}
			}
		}
	}
	return out
}

// labelsNextTo returns the label-like tokens right after each whole-word
// occurrence of word in text, and the bold or placeholder ones right before
// it or joined to it by a hyphen ("the **Roll** button", "een Gooien-knop").
func labelsNextTo(text, word string) []string {
	var out []string
	lower, w := strings.ToLower(text), strings.ToLower(word)
	for from := 0; ; {
		i := strings.Index(lower[from:], w)
		if i < 0 {
			return out
		}
		s, e := from+i, from+i+len(w)
		from = e
		prev, _ := utf8.DecodeLastRuneInString(lower[:s])
		next, _ := utf8.DecodeRuneInString(lower[e:])
		if (s > 0 && unicode.IsLetter(prev)) || (e < len(lower) && unicode.IsLetter(next)) {
			continue // part of another word
		}
		if prev == '-' {
			before := text[:s-1]
			out = append(out, before[strings.LastIndexFunc(before, unicode.IsSpace)+1:])
			continue
		}
		if after := text[e:]; strings.HasPrefix(after, " ") {
			if m := labelish.FindString(after[1:]); m != "" {
				out = append(out, m)
			}
		}
		before := strings.TrimRight(text[:s], " ")
		switch {
		case strings.HasSuffix(before, "**"):
			if k := strings.LastIndex(before[:len(before)-2], "**"); k >= 0 {
				out = append(out, before[k:])
			}
		case strings.HasSuffix(before, "}"):
			if k := strings.LastIndex(before, "{"); k >= 0 {
				out = append(out, before[k:])
			}
		}
	}
}

// glossaryRow is one line of a language's glossary: the English term, the
// language's terms (the first the one to write, the others its inflected
// forms), the variants its texts must not use, and the kind of term
// ("game", "discord", "permission").
type glossaryRow struct {
	english   string
	terms     []string
	forbidden []string
	kind      string
}

// glossary is one language's table.
type glossary []glossaryRow

// readGlossaries parses locales/glossary/*.md of fsys: the one Markdown
// table of each file, columns English | term | not | kind | source.
func readGlossaries(fsys fs.FS) (map[string]glossary, error) {
	files, err := fs.Glob(fsys, "locales/glossary/*.md")
	if err != nil {
		return nil, err
	}
	out := map[string]glossary{}
	for _, name := range files {
		f, err := fsys.Open(name)
		if err != nil {
			return nil, err
		}
		var g glossary
		rows := 0
		s := bufio.NewScanner(f)
		for s.Scan() {
			line := strings.TrimSpace(s.Text())
			if !strings.HasPrefix(line, "|") {
				continue
			}
			if rows++; rows <= 2 { // the column names and the |---| line
				continue
			}
			cells := strings.Split(strings.Trim(line, "|"), "|")
			if len(cells) < 4 {
				f.Close()
				return nil, fmt.Errorf("%s: %q has %d columns, want English | term | not | kind | source", name, line, len(cells))
			}
			g = append(g, glossaryRow{english: strings.TrimSpace(cells[0]), terms: cellWords(cells[1]), forbidden: cellWords(cells[2]), kind: strings.TrimSpace(cells[3])})
		}
		f.Close()
		if err := s.Err(); err != nil {
			return nil, err
		}
		out[strings.TrimSuffix(path.Base(name), ".md")] = g
	}
	return out, nil
}

// cellWords splits a cell's comma-separated words, without Markdown's `…`.
func cellWords(cell string) []string {
	var out []string
	for _, w := range strings.Split(cell, ",") {
		if w = strings.Trim(strings.TrimSpace(w), "`"); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// infinitiveEndings are, by language, the verb endings a forbidden word's
// stem is found without: the glossary writes a verb as its infinitive
// ("capturar*", "pakken", "zdobyć*") and a text inflects it ("captura",
// "pakte", "zdobywa"). German strips them from lowercase words only: its
// nouns are capitalized.
var infinitiveEndings = map[string][]string{
	"de":    {"en", "n"},
	"es":    {"ar", "er", "ir"},
	"fr":    {"er", "ir", "re"},
	"it":    {"are", "ere", "ire"},
	"nl":    {"en"},
	"pl":    {"ać", "eć", "ić", "yć", "ć"},
	"pt-BR": {"ar", "er", "ir"},
}

// minStem is the fewest letters a stem keeps: "comer" (pt-BR) is not
// stemmed to "com", which is another word ("with").
const minStem = 4

// stem returns the stem a forbidden word of lang is matched by, and
// whether it is one (else the word is matched whole): the word less its
// infinitive ending, when at least minStem letters remain; in Dutch a
// doubled last consonant is then single ("pakken" → "pakk" → "pak", which
// "pakt" and "pakte" start with). A multi-word phrase and a word without
// an infinitive ending are matched as written.
func stem(lang, word string) (string, bool) {
	if strings.ContainsAny(word, " -") {
		return word, false
	}
	if lang == "de" && word != strings.ToLower(word) {
		return word, false
	}
	for _, end := range infinitiveEndings[lang] {
		s, ok := strings.CutSuffix(word, end)
		if !ok || utf8.RuneCountInString(s) < minStem {
			continue
		}
		if lang == "nl" {
			if r, n := utf8.DecodeLastRuneInString(s); n > 0 && !strings.ContainsRune("aeiou", r) {
				if q, _ := utf8.DecodeLastRuneInString(s[:len(s)-n]); q == r {
					s = s[:len(s)-n]
				}
			}
		}
		return s, true
	}
	return word, false
}

// forbiddenForm returns the first word of text that is a form of the
// glossary's forbidden word, ignoring case: the word itself, any word
// starting with x for "x*", any word starting with its stem for a verb
// ("capturar*" finds "captura", "pakken" finds "pakte"; see stem).
func forbiddenForm(lang, text, word string) (string, bool) {
	re, ok := wordPatterns[lang+"\x00"+word]
	if !ok {
		prefix, open := strings.CutSuffix(word, "*")
		if s, ok := stem(lang, prefix); ok {
			prefix, open = s, true
		}
		end := `([^\p{L}]|$)`
		if open {
			end = `\p{L}*`
		}
		re = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(` + regexp.QuoteMeta(prefix) + end + `)`)
		wordPatterns[lang+"\x00"+word] = re
	}
	m := re.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	return strings.TrimRightFunc(m[1], func(r rune) bool { return !unicode.IsLetter(r) }), true
}

// wordPatterns are forbiddenForm's compiled patterns, by language and word.
var wordPatterns = map[string]*regexp.Regexp{}

// glossaryProblems names every text of a language that uses a variant its
// glossary forbids, and every text whose English names a Discord permission
// without the language's exact name for it: of the languages langs, or of
// every language when langs is empty.
func glossaryProblems(c *locales.Catalog, glossaries map[string]glossary, langs ...string) []string {
	var out []string
	for _, lang := range c.Languages() {
		if len(langs) > 0 && !slices.Contains(langs, lang) {
			continue
		}
		texts := textsOf(c, lang)
		for label, text := range texts {
			texts[label] = c.FillRefs(lang, text)
		}
		labels := sortedKeys(texts)
		for _, row := range glossaries[lang] {
			for _, label := range labels {
				for _, bad := range row.forbidden {
					if found, ok := forbiddenForm(lang, texts[label], bad); ok {
						out = append(out, fmt.Sprintf("key %s in language %s says %q (not %s): the glossary has %q for %s", label, lang, found, bad, row.terms[0], row.english))
					}
				}
			}
			if row.kind != "permission" || lang == sourceLanguage {
				continue
			}
			for _, key := range c.Keys(sourceLanguage) {
				source, _ := c.Message(sourceLanguage, key)
				english := source.Other
				for _, other := range glossaries[lang] { // "Send Messages in Threads" is not "Send Messages"
					if other.kind == "permission" && other.english != row.english && strings.Contains(other.english, row.english) {
						english = strings.ReplaceAll(english, other.english, "")
					}
				}
				m, ok := c.Message(lang, key)
				if ok && strings.Contains(english, row.english) && !strings.Contains(m.Other, row.terms[0]) {
					out = append(out, fmt.Sprintf("key %q in language %s: English names the permission %s, Discord's %s client calls it %q", key, lang, row.english, lang, row.terms[0]))
				}
			}
		}
	}
	return out
}

// copyLocales copies bot/locales (the message files and glossaries) to a
// temporary directory, applies edit to the file named by rel, and loads the
// copy.
func copyLocales(t *testing.T, rel string, edit func(string) string) (*locales.Catalog, map[string]glossary) {
	t.Helper()
	root := t.TempDir()
	edited := false
	err := filepath.WalkDir("locales", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		buf, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if filepath.ToSlash(p) == "locales/"+rel {
			changed := edit(string(buf))
			require.NotEqual(t, string(buf), changed, "the edit of %s changed nothing", rel)
			buf, edited = []byte(changed), true
		}
		dst := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, buf, 0o644)
	})
	require.NoError(t, err)
	require.True(t, edited, "no file locales/%s", rel)
	c, err := locales.Load(os.DirFS(root))
	require.NoError(t, err)
	g, err := readGlossaries(os.DirFS(root))
	require.NoError(t, err)
	return c, g
}

// replaceOnce replaces old by new in s, once; old must be there.
func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	require.Contains(t, s, old)
	return strings.Replace(s, old, new, 1)
}

// botGlossaries are the glossaries of bot/locales/glossary.
func botGlossaries(t *testing.T) map[string]glossary {
	t.Helper()
	g, err := readGlossaries(os.DirFS("."))
	require.NoError(t, err)
	return g
}

func TestSourceHashIsGoi18nMergesHash(t *testing.T) {
	// goi18n/merge_command_test.go: "1HelloMessage = \"Hello\"" gets this hash.
	assert.Equal(t, "sha1-f7ff9e8b7bb2e09b70935a5d785e0cc5d9d0abf0", sourceHash(&i18n.Message{Other: "Hello"}))
}

func TestTranslationsAreCurrent(t *testing.T) {
	assert.Empty(t, staleTranslations(catalog), "go run ./scripts/i18n status lists them; translate writes what to translate")
}

func TestStaleTranslationFails(t *testing.T) {
	c, _ := copyLocales(t, "en.toml", func(s string) string {
		return replaceOnce(t, s, `"err.not_your_turn" = "It is not your turn."`, `"err.not_your_turn" = "Wait: it is not your turn yet."`)
	})
	problems := strings.Join(staleTranslations(c), "\n")
	for _, lang := range languages[1:] {
		assert.Contains(t, problems, `key "err.not_your_turn" in language `+lang+" is stale")
	}
	assert.NotContains(t, problems, "err.not_in_game")
}

func TestTextsWriteNoCommandNames(t *testing.T) {
	names := botCommandNames()
	require.Contains(t, names.subs, "resign")
	require.Contains(t, names.options, "roll")
	assert.Empty(t, commandProblems(catalog, names))
	assert.Equal(t, "Aquí no hay ninguna partida: /malefiz nueva abre una.", fillRefs("es", "Aquí no hay ninguna partida: {/new} abre una."))
}

func TestEnglishCommandNameInATextFails(t *testing.T) {
	c, _ := copyLocales(t, "es.toml", func(s string) string { return replaceOnce(t, s, "{/new}", "/malefiz new") })
	problems := strings.Join(commandProblems(c, botCommandNames()), "\n")
	assert.Contains(t, problems, "in language es writes a command")
	assert.Contains(t, problems, `in language es shows the English command name "/malefiz new"`)
	c, _ = copyLocales(t, "it.toml", func(s string) string { return replaceOnce(t, s, "{/resign}", "{/abbandona}") })
	assert.Contains(t, strings.Join(commandProblems(c, botCommandNames()), "\n"), "in language it: {/abbandona} is not a subcommand")
}

func TestTextsNameRealButtons(t *testing.T) {
	g := botGlossaries(t)
	for _, lang := range languages {
		assert.True(t, slices.ContainsFunc(g[lang], func(r glossaryRow) bool { return r.english == "button" }), "glossary/%s.md has no row for button", lang)
	}
	assert.Empty(t, buttonProblems(catalog, g))
	assert.Equal(t, "button (press Roll first)", tr("en", locales.RollButton))
}

func TestButtonLabelThatIsNoButtonFails(t *testing.T) {
	for _, c := range []struct{ lang, old, new, want string }{
		{"pt-BR", "O botão {button:review}", "O botão Revisar", `names the button "Revisar"`},
		{"pl", "**{button:join}**", "**Dołącz**", `writes the label "Dołącz"`},
		{"fr", "{button:roll}", "{button:lancer}", "{button:lancer} is not a button"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			cat, g := copyLocales(t, c.lang+".toml", func(s string) string { return replaceOnce(t, s, c.old, c.new) })
			assert.Contains(t, strings.Join(buttonProblems(cat, g), "\n"), c.want)
		})
	}
}

func TestTextsFollowTheGlossaries(t *testing.T) {
	g := botGlossaries(t)
	for _, lang := range languages {
		require.NotEmpty(t, g[lang], "no bot/locales/glossary/%s.md", lang)
		for _, concept := range []string{"pawn", "barricade", "goal", "die", "roll", "capture", "pass", "server", "channel", "thread", "DM", "ping"} {
			assert.True(t, slices.ContainsFunc(g[lang], func(r glossaryRow) bool { return r.english == concept }), "glossary/%s.md has no row for %s", lang, concept)
		}
	}
	assert.Empty(t, glossaryProblems(catalog, g))
}

func TestGlossaryViolationFails(t *testing.T) {
	for _, c := range []struct {
		name, lang, old, new, want string
	}{
		{"forbidden word", "fr", "Une barricade ne peut pas aller là.", "Une barrière ne peut pas aller là.",
			`key err.bad_place in language fr says "barrière" (not barrière*)`},
		{"inflected verb", "es", `"rojo: come una ficha"`, `"rojo: captura una ficha"`,
			`key legend.captures in language es says "captura" (not capturar*): the glossary has "comer" for capture`},
		{"inflected verb of a whole word", "nl", `"%s slaat een barricade"`, `"%s pakt een barricade"`,
			`key legend.barricade in language nl says "pakt" (not pakken)`},
		{"past tense", "pl", `"%s zbija barykadę"`, `"%s zdobył barykadę"`,
			`key legend.barricade in language pl says "zdobył" (not zdobyć*)`},
		{"Italian", "it", `"rosso: mangia una pedina"`, `"rosso: cattura una pedina"`,
			`key legend.captures in language it says "cattura" (not catturare*)`},
		{"permission", "it", "Visualizza canali", "Visualizzare il canale",
			`key "err.missing_permissions" in language it: English names the permission View Channels`},
		{"permission read message history", "de", "Nachrichtenverlauf anzeigen", "Nachrichtenverlauf lesen",
			`key "err.missing_permissions" in language de: English names the permission Read Message History`},
		{"chess sites' word", "nl", `"%d blunders"`, `"%d flaters"`,
			`key coach.blunders (other) in language nl says "flaters" (not flater*)`},
		{"chess sites' word pt-BR", "pt-BR", `"%d capivaradas"`, `"%d erros graves"`,
			`key coach.blunders (other) in language pt-BR says "erros graves"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cat, g := copyLocales(t, c.lang+".toml", func(s string) string { return replaceOnce(t, s, c.old, c.new) })
			// Only the edited language: TestTextsFollowTheGlossaries checks
			// them all, and the edit's problem is its language's.
			assert.Contains(t, strings.Join(glossaryProblems(cat, g, c.lang), "\n"), c.want)
		})
	}
}

func TestForbiddenWordsMatchTheirForms(t *testing.T) {
	for _, c := range []struct {
		lang, word, text, found string
	}{
		{"es", "capturar*", "rojo: captura una ficha", "captura"},
		{"it", "catturare*", "rosso: cattura una pedina", "cattura"},
		{"pl", "zdobyć*", "czerwony zdobywa barykadę", "zdobywa"},
		{"nl", "pakken", "rood pakt een pion", "pakt"},
		{"it", "catturare*", "Cattura una pedina", "Cattura"},
		{"nl", "pakken", "%s pakte de barricade", "pakte"},
		{"pl", "zdobyć*", "zdobywasz ją", "zdobywasz"},
		{"de", "kapern", "kapert eine Figur", "kapert"},
		{"fr", "barrière*", "Les barrières", "barrières"},
		{"pt-BR", "comer", "o peão come", ""}, // "com" would be another word: comer is matched whole
		{"pl", "pion", "zbija pionek", ""},    // a whole word, not the glossary's "pionek"
		{"de", "Pöppel", "Pöppelchen", ""},    // a noun is matched whole
		{"es", "mensaje privado", "un mensaje privado", "mensaje privado"},
	} {
		t.Run(c.lang+" "+c.word, func(t *testing.T) {
			found, ok := forbiddenForm(c.lang, c.text, c.word)
			assert.Equal(t, c.found != "", ok)
			assert.Equal(t, c.found, found)
		})
	}
}

func TestLocaleTextsAreFilled(t *testing.T) {
	texts := LocaleTexts("pt-BR")
	assert.Contains(t, texts["games.none"], "/malefiz nova")
	assert.NotContains(t, texts["text.help"], "{")
	_, counted := texts[string(locales.DurationHours)]
	assert.False(t, counted)
	assert.True(t, utf8.ValidString(texts["text.help"]))
}

// sortedKeys are m's keys in order.
func sortedKeys[K ~string, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestLocalizedNamesAreUnique checks that no two subcommands, and no two
// options of a subcommand, share a name in any language: Discord refuses
// such commands, and a text's {/sub} would be ambiguous.
func TestLocalizedNamesAreUnique(t *testing.T) {
	for _, cmd := range New(Config{}).Commands() {
		check := func(where string, opts []*discordgo.ApplicationCommandOption) {
			for _, lang := range languages {
				seen := map[string]string{}
				for _, o := range opts {
					name, _ := catalog.PlainText(lang, nameKey(o.Name))
					if other, ok := seen[name]; ok {
						t.Errorf("%s in language %s: %s and %s are both %q", where, lang, other, o.Name, name)
					}
					seen[name] = o.Name
				}
			}
		}
		check("/"+cmd.Name, cmd.Options)
		for _, sub := range cmd.Options {
			check("/"+cmd.Name+" "+sub.Name, sub.Options)
		}
	}
}

// botChoices returns, by option name, the keys of the labels of the
// option's choices in /malefiz: the key whose English text, filled, is the
// choice's name.
func botChoices(t *testing.T, c *locales.Catalog) map[string][]msg {
	t.Helper()
	out := map[string][]msg{}
	var walk func([]*discordgo.ApplicationCommandOption)
	walk = func(opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			for _, ch := range o.Choices {
				i := slices.IndexFunc(c.Keys(sourceLanguage), func(k msg) bool { return c.Tr(sourceLanguage, k) == ch.Name })
				require.GreaterOrEqual(t, i, 0, "no text is the choice %q of %s", ch.Name, o.Name)
				if key := c.Keys(sourceLanguage)[i]; !slices.Contains(out[o.Name], key) {
					out[o.Name] = append(out[o.Name], key)
				}
			}
			walk(o.Options)
		}
	}
	for _, cmd := range New(Config{}).Commands() {
		walk(cmd.Options)
	}
	return out
}

// choiceAfterOption matches an option placeholder followed by the value
// it is given ("{opt:ping}: always"): the option's name and the value are
// its groups.
var choiceAfterOption = regexp.MustCompile(`\{opt:([a-z0-9_-]+)\}\s*[:=]\s*(\{choice:[a-z0-9_.-]+\}|[^\s` + "`" + `),;]+)`)

// choiceProblems names every text that names a choice of an option
// otherwise than by a {choice:…} placeholder of a real choice: a
// placeholder naming no choice, a value written after {opt:…} ("{opt:ping}:
// always"), a choice's name written before a colon ("always: every turn …")
// and, in a translation, the English name of a choice where the language
// has its own ("ping: always" in German, whose list says "immer").
func choiceProblems(c *locales.Catalog, choices map[string][]msg) []string {
	var out []string
	var all []msg
	for _, keys := range choices {
		all = append(all, keys...)
	}
	slices.Sort(all)
	for _, lang := range c.Languages() {
		// written finds a choice's name (in lang or English) written before
		// a colon; shown an English name, where lang has its own, before a
		// colon or after one (own: lang's name, by the English one).
		var written, english []string
		own := map[string]string{}
		for _, key := range all {
			name, en := c.Choice(lang, key), c.Choice(sourceLanguage, key)
			written = append(written, regexp.QuoteMeta(name), regexp.QuoteMeta(en))
			if !strings.EqualFold(name, en) {
				english = append(english, regexp.QuoteMeta(en))
				own[strings.ToLower(en)] = name
			}
		}
		writtenRe := regexp.MustCompile(`(?i)(?:^|[\s;(])(` + strings.Join(written, "|") + `)\s*:`)
		alt := strings.Join(english, "|")
		shownRe := regexp.MustCompile(`(?i)(?:^|[^\p{L}])(` + alt + `)\s*:|[:=]\s*(` + alt + `)(?:$|[^\p{L}])`)
		texts := textsOf(c, lang)
		for _, label := range sortedKeys(texts) {
			text := texts[label]
			for _, m := range locales.RefPattern.FindAllStringSubmatch(text, -1) {
				if m[1] == "choice:" && !slices.Contains(all, msg(m[2])) {
					out = append(out, fmt.Sprintf("key %s in language %s: %s is not a choice of /%s", label, lang, m[0], CommandName))
				}
			}
			for _, m := range choiceAfterOption.FindAllStringSubmatch(text, -1) {
				if _, ok := choices[m[1]]; ok && !strings.HasPrefix(m[2], "{choice:") {
					out = append(out, fmt.Sprintf("key %s in language %s writes %q after {opt:%s}: name the choice with {choice:…}", label, lang, m[2], m[1]))
				}
			}
			for _, m := range writtenRe.FindAllStringSubmatch(locales.RefPattern.ReplaceAllString(text, ""), -1) {
				out = append(out, fmt.Sprintf("key %s in language %s writes the choice %q before a colon: name it with {choice:…}", label, lang, m[1]))
			}
			if lang == sourceLanguage || len(english) == 0 {
				continue
			}
			for _, m := range shownRe.FindAllStringSubmatch(c.FillRefs(lang, text), -1) {
				en := m[1] + m[2]
				out = append(out, fmt.Sprintf("key %s in language %s shows the English choice name %q: its players read %q", label, lang, en, own[strings.ToLower(en)]))
			}
		}
	}
	return out
}

func TestTextsNameChoicesInTheReadersLanguage(t *testing.T) {
	choices := botChoices(t, catalog)
	require.Equal(t, []msg{locales.PingAway, locales.PingAlways}, choices["ping"])
	require.Equal(t, []msg{locales.RollAuto, locales.RollButton}, choices["roll"])
	assert.Empty(t, choiceProblems(catalog, choices))
	assert.Equal(t, "immer: jeder Zug erwähnt dich", fillRefs("de", "{choice:ping.always}: jeder Zug erwähnt dich"))
	assert.Equal(t, "ausente", catalog.Choice("es", locales.PingAway), "the name, without the label's hint")
	assert.Equal(t, "away (quiet while you are playing)", tr("en", locales.PingAway), "the label Discord's list shows")
}

func TestEnglishChoiceNameInATextFails(t *testing.T) {
	for _, c := range []struct {
		name, lang, old, new, want string
	}{
		{"English name after the option", "de", "{opt:ping}: {choice:ping.always}", "{opt:ping}: always",
			`key text.marks in language de writes "always" after {opt:ping}`},
		{"English name before a colon", "pl", "{choice:ping.always}: wzmianka", "always: wzmianka",
			`key opt.ping in language pl shows the English choice name "always": its players read "zawsze"`},
		{"own name written out", "es", "{choice:roll.auto}: el dado", "auto: el dado",
			`key opt.roll in language es writes the choice "auto" before a colon`},
		{"no such choice", "fr", "{choice:roll.button}`", "{choice:roll.bouton}`",
			"key text.help in language fr: {choice:roll.bouton} is not a choice"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cat, _ := copyLocales(t, c.lang+".toml", func(s string) string { return replaceOnce(t, s, c.old, c.new) })
			assert.Contains(t, strings.Join(choiceProblems(cat, botChoices(t, cat)), "\n"), c.want)
		})
	}
}

// settingProblems names every language whose settings answer (render)
// shows the die's choice otherwise than by its name in that language: the
// stored value ("button") where the language's list says "botón".
func settingProblems(c *locales.Catalog, render func(c *locales.Catalog, lang string, s malefiz.GuildSettings) string) []string {
	var out []string
	for _, lang := range c.Languages() {
		for _, value := range []string{table.RollAuto, table.RollButton} {
			s := malefiz.GuildSettings{TurnTimeout: time.Hour, Reminders: true, Roll: value}
			text := render(c, lang, s)
			name := c.Choice(lang, rollLabel(value))
			if !strings.Contains(text, name) {
				out = append(out, fmt.Sprintf("the settings in language %s do not name the die's choice %q: %q", lang, name, text))
			}
			if !strings.EqualFold(name, value) && regexp.MustCompile(`(?i)(^|[^\p{L}])`+value+`($|[^\p{L}])`).MatchString(text) {
				out = append(out, fmt.Sprintf("the settings in language %s show the stored value %q, not %q: %q", lang, value, name, text))
			}
		}
	}
	return out
}

func TestSettingsNameTheChoices(t *testing.T) {
	assert.Empty(t, settingProblems(catalog, func(c *locales.Catalog, lang string, s malefiz.GuildSettings) string {
		return settingsText(c, lang, false, s) + "\n" + settingsText(c, lang, true, s)
	}))
	got := settingsText(catalog, "es", true, malefiz.GuildSettings{TurnTimeout: 6 * time.Hour, Reminders: true, Roll: table.RollButton, Chances: false})
	assert.Equal(t, "Guardado. Para las partidas nuevas — tiempo por turno: 6 horas · recordatorios: sí · hilos: no · dado: botón · probabilidades de ganar: no · pistas: no", got)
}

func TestStoredSettingValueShownRawFails(t *testing.T) {
	raw := func(c *locales.Catalog, lang string, s malefiz.GuildSettings) string {
		on := c.Tr(lang, locales.On)
		return c.Tr(lang, locales.SettingsNow, "1 h", on, on, s.Roll, on, on) // the value as stored
	}
	problems := strings.Join(settingProblems(catalog, raw), "\n")
	assert.Contains(t, problems, `the settings in language es show the stored value "button", not "botón"`)
	assert.Contains(t, problems, `the settings in language de do not name the die's choice "Knopf"`)
	assert.NotContains(t, problems, "language en show")

	// A copy whose Spanish choice is renamed: the answer follows it, and
	// the stored value is still found.
	cat, _ := copyLocales(t, "es.toml", func(s string) string {
		return replaceOnce(t, s, `other = "botón"`, `other = "pulsador"`)
	})
	assert.Contains(t, settingsText(cat, "es", false, malefiz.GuildSettings{Roll: table.RollButton}), "dado: pulsador")
	assert.Empty(t, settingProblems(cat, func(c *locales.Catalog, lang string, s malefiz.GuildSettings) string {
		return settingsText(c, lang, false, s)
	}))
	assert.Contains(t, strings.Join(settingProblems(cat, raw), "\n"), `the settings in language es show the stored value "button", not "pulsador"`)
}
