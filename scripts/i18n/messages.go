package main

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// pluralForms are the CLDR plural forms in the order a file lists them.
var pluralForms = []string{"zero", "one", "two", "few", "many", "other"}

// message is one entry of a message file.
type message struct {
	description string
	hash        string            // of the English text it was translated from
	forms       map[string]string // by plural form; "other" alone for an uncounted text
}

// sourceHash is the hash goi18n merge gives an English message and records
// on its translations: the SHA-1 of its description and its "other" text
// (goi18n/merge_command.go, func hash).
func (m *message) sourceHash() string {
	h := sha1.New()
	_, _ = io.WriteString(h, m.description)
	_, _ = io.WriteString(h, m.forms["other"])
	return fmt.Sprintf("sha1-%x", h.Sum(nil))
}

// sameForms reports whether m's texts are o's, form by form.
func (m *message) sameForms(o *message) bool {
	for _, f := range pluralForms {
		if m.forms[f] != "" && m.forms[f] != o.forms[f] {
			return false
		}
	}
	return true
}

// messageFile is one language's file: its opening comment and its messages.
type messageFile struct {
	header   string
	messages map[string]*message
}

// fileSet is every message file of a directory, by language.
type fileSet struct {
	files map[string]*messageFile
}

// loadDir reads dir/*.toml; it must hold en.toml.
func loadDir(dir string) (*fileSet, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil {
		return nil, err
	}
	set := &fileSet{files: map[string]*messageFile{}}
	for _, path := range paths {
		buf, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		messages, err := parseMessages(buf)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		set.files[strings.TrimSuffix(filepath.Base(path), ".toml")] = &messageFile{header: header(buf), messages: messages}
	}
	if set.files[sourceLanguage] == nil {
		return nil, fmt.Errorf("no %s.toml in %s", sourceLanguage, dir)
	}
	return set, nil
}

// source is the English file.
func (s *fileSet) source() *messageFile { return s.files[sourceLanguage] }

// translations are the languages other than English, sorted.
func (s *fileSet) translations() []string {
	var out []string
	for lang := range s.files {
		if lang != sourceLanguage {
			out = append(out, lang)
		}
	}
	slices.Sort(out)
	return out
}

// todoItem is a message a language has to translate: missing (old is nil),
// or stale, translated from an older English text (old is that translation).
type todoItem struct {
	key    string
	source *message
	old    *message
}

// todo lists, in key order, lang's missing and stale messages; a language
// without a file has every message to translate.
func (s *fileSet) todo(lang string) []todoItem {
	var out []todoItem
	var file map[string]*message
	if f := s.files[lang]; f != nil {
		file = f.messages
	}
	for _, key := range sortedKeys(s.source().messages) {
		source := s.source().messages[key]
		m, ok := file[key]
		switch {
		case !ok:
			out = append(out, todoItem{key: key, source: source})
		case m.hash != source.sourceHash():
			out = append(out, todoItem{key: key, source: source, old: m})
		}
	}
	return out
}

// parseMessages reads a message file with go-i18n's own parser, so that
// what the tool reads is what the bot loads.
func parseMessages(buf []byte) (map[string]*message, error) {
	parsed, err := i18n.ParseMessageBytes(buf, toml.Unmarshal)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*message, len(parsed))
	for _, m := range parsed {
		forms := map[string]string{}
		for form, text := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
			if text != "" {
				forms[form] = text
			}
		}
		out[m.ID] = &message{description: m.Description, hash: m.Hash, forms: forms}
	}
	return out, nil
}

// header is the comment a file opens with, up to its first entry.
func header(buf []byte) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(buf), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed != "" && !strings.HasPrefix(trimmed, "#") {
			break
		}
		b.WriteString(line)
	}
	return strings.TrimRight(b.String(), "\n")
}

// newHeader is the opening comment of a new language's file.
func newHeader(lang string) string {
	return fmt.Sprintf("# Malefiz bot — %s. Source and format: en.toml; workflow: README.md.", lang)
}

// encode writes the file as goi18n merge writes a translation: one table
// per message, in key order, with its hash.
func (f *messageFile) encode() []byte {
	var b bytes.Buffer
	if f.header != "" {
		b.WriteString(f.header)
		b.WriteString("\n")
	}
	for _, key := range sortedKeys(f.messages) {
		b.WriteString("\n")
		writeTable(&b, key, f.messages[key])
	}
	return b.Bytes()
}

// writeTable writes one message as a TOML table.
func writeTable(b *bytes.Buffer, key string, m *message) {
	fmt.Fprintf(b, "[%s]\n", tomlString(key))
	if m.description != "" {
		fmt.Fprintf(b, "description = %s\n", tomlString(m.description))
	}
	if m.hash != "" {
		fmt.Fprintf(b, "hash = %s\n", tomlString(m.hash))
	}
	for _, form := range pluralForms {
		if text, ok := m.forms[form]; ok {
			fmt.Fprintf(b, "%s = %s\n", form, tomlString(text))
		}
	}
}

// translateFile is what goi18n merge writes as translate.LANG.toml: the
// messages to translate, each with its English text and the hash of it; a
// stale one also shows, as a comment, the translation it replaces.
func translateFile(lang string, todo []todoItem) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `# Messages to translate into %[1]s, written by go run ./scripts/i18n translate.
#
# Each message holds the English text and the hash of that English text.
# Replace the text by its translation, with every plural form %[1]s needs
# (go test ./bot -run TestCatalogComplete names them), keep the hash, then run
# go run ./scripts/i18n merge %[1]s: the translations move into %[1]s.toml.
# A message left in English stays here. The glossary is glossary/%[1]s.md.
`, lang)
	for _, t := range todo {
		b.WriteString("\n")
		if t.old == nil {
			b.WriteString("# missing\n")
		} else {
			b.WriteString("# stale: the English text changed since this translation was made:\n")
			for _, form := range pluralForms {
				if text, ok := t.old.forms[form]; ok {
					fmt.Fprintf(&b, "#   %s = %s\n", form, strings.ReplaceAll(text, "\n", "\n#   "))
				}
			}
		}
		writeTable(&b, t.key, &message{description: t.source.description, hash: t.source.sourceHash(), forms: t.source.forms})
	}
	return b.Bytes()
}

// tomlString quotes s as a TOML basic string, multi-line when it has line
// breaks; invisible characters (controls, no-break spaces) are escaped so a
// reader sees them.
func tomlString(s string) string {
	multi := strings.Contains(s, "\n")
	var b strings.Builder
	if multi {
		b.WriteString("\"\"\"\n")
	} else {
		b.WriteString("\"")
	}
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n' && multi:
			b.WriteString("\n")
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r == '\u00a0' || r == '\u2007' || r == '\u2009' || r == '\u202f' ||
			(unicode.Is(unicode.Cf, r) && r != '\u200d'):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	if multi {
		b.WriteString("\"\"\"")
	} else {
		b.WriteString("\"")
	}
	return b.String()
}

// sortedKeys are m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
