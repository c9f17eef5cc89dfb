// Command i18n keeps the bot's translations current, the way go-i18n's
// goi18n merge does: every translated message records the hash of the
// English text it was translated from (go-i18n's hash = "sha1-…" field), so a
// changed English text shows which translations are stale.
//
//	go run ./scripts/i18n status              what is missing or stale, per language
//	go run ./scripts/i18n translate [LANG…]   write translate/translate.LANG.toml to translate
//	go run ./scripts/i18n merge [LANG…]       fold the translated files into LANG.toml
//	go run ./scripts/i18n sign LANG KEY…      record that LANG's KEYs match the current English
//
// It works on bot/locales (-dir to change); bot/locales/README.md describes
// the translator's workflow.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// sourceLanguage is the language every other one translates.
const sourceLanguage = "en"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if !errors.Is(err, errOutOfDate) {
			fmt.Fprintln(os.Stderr, "i18n:", err)
		}
		os.Exit(1)
	}
}

// errOutOfDate is status's answer when some translation is missing or
// stale.
var errOutOfDate = errors.New("translations missing or stale")

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: go run ./scripts/i18n [-dir DIR] COMMAND [ARGS]

commands:
  status              list per language the keys missing or stale (translated from
                      an older English text); exits 1 if there is one
  translate [LANG…]   write DIR/translate/translate.LANG.toml for every language (or
                      the ones named, a new one too): each message to translate,
                      with the English text and its hash, as goi18n merge does
  merge [LANG…]       fold DIR/translate/translate.LANG.toml into DIR/LANG.toml: each
                      message whose hash is the current English one, and no longer
                      English, replaces the old one; a fully merged file is removed
  sign LANG KEY…      record on LANG's KEYs the hash of the current English text,
                      after checking by eye that they say what it says
  sign -all LANG      the same for every key of LANG

flags:
`)
}

func run(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("i18n", flag.ContinueOnError)
	dir := flags.String("dir", filepath.Join("bot", "locales"), "the directory of the message files")
	flags.Usage = func() { usage(flags.Output()); flags.PrintDefaults() }
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() == 0 {
		flags.Usage()
		return errors.New("no command")
	}
	cmd, rest := flags.Arg(0), flags.Args()[1:]
	switch cmd {
	case "status":
		return status(*dir, stdout)
	case "translate":
		return translate(*dir, rest, stdout)
	case "merge":
		return merge(*dir, rest, stdout)
	case "sign":
		return sign(*dir, rest, stdout)
	}
	flags.Usage()
	return fmt.Errorf("unknown command %q", cmd)
}

// status prints every missing and stale key per language.
func status(dir string, stdout io.Writer) error {
	set, err := loadDir(dir)
	if err != nil {
		return err
	}
	outOfDate := false
	for _, lang := range set.translations() {
		todo := set.todo(lang)
		if len(todo) == 0 {
			fmt.Fprintf(stdout, "%s: up to date\n", lang)
			continue
		}
		outOfDate = true
		var missing, stale []string
		for _, t := range todo {
			if t.old == nil {
				missing = append(missing, t.key)
			} else {
				stale = append(stale, t.key)
			}
		}
		fmt.Fprintf(stdout, "%s: %d missing, %d stale\n", lang, len(missing), len(stale))
		for _, key := range missing {
			fmt.Fprintf(stdout, "  missing %s\n", key)
		}
		for _, key := range stale {
			fmt.Fprintf(stdout, "  stale   %s\n", key)
		}
	}
	if outOfDate {
		fmt.Fprintf(stdout, "go run ./scripts/i18n translate writes what to translate to %s\n", filepath.Join(dir, "translate"))
		return errOutOfDate
	}
	return nil
}

// translate writes translate.LANG.toml for langs (every translation if
// none), removing the file of a language that is up to date.
func translate(dir string, langs []string, stdout io.Writer) error {
	set, err := loadDir(dir)
	if err != nil {
		return err
	}
	if len(langs) == 0 {
		langs = set.translations()
	}
	out := filepath.Join(dir, "translate")
	for _, lang := range langs {
		if lang == sourceLanguage {
			return fmt.Errorf("%s is the source language", lang)
		}
		path := filepath.Join(out, "translate."+lang+".toml")
		todo := set.todo(lang)
		if len(todo) == 0 {
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			fmt.Fprintf(stdout, "%s: up to date\n", lang)
			continue
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, translateFile(lang, todo), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d to translate in %s\n", lang, len(todo), path)
	}
	return nil
}

// merge folds translate.LANG.toml files into LANG.toml.
func merge(dir string, langs []string, stdout io.Writer) error {
	set, err := loadDir(dir)
	if err != nil {
		return err
	}
	in := filepath.Join(dir, "translate")
	if len(langs) == 0 {
		files, err := filepath.Glob(filepath.Join(in, "translate.*.toml"))
		if err != nil {
			return err
		}
		for _, f := range files {
			langs = append(langs, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "translate."), ".toml"))
		}
		if len(langs) == 0 {
			return fmt.Errorf("nothing to merge in %s: run translate first", in)
		}
	}
	for _, lang := range langs {
		path := filepath.Join(in, "translate."+lang+".toml")
		buf, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		done, err := parseMessages(buf)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		file := set.files[lang]
		if file == nil {
			file = &messageFile{header: newHeader(lang), messages: map[string]*message{}}
			set.files[lang] = file
		}
		merged, left := 0, 0
		for key, m := range done {
			source, ok := set.source().messages[key]
			switch {
			case !ok:
				fmt.Fprintf(stdout, "%s: %s is no longer in English, dropped\n", lang, key)
			case m.hash != source.sourceHash():
				fmt.Fprintf(stdout, "%s: %s was translated from an older English text: translate it again\n", lang, key)
				left++
			case m.sameForms(source):
				left++ // still the English text: not translated yet
			default:
				file.messages[key] = m
				merged++
			}
		}
		if err := os.WriteFile(filepath.Join(dir, lang+".toml"), file.encode(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d merged into %s, %d left to translate\n", lang, merged, filepath.Join(dir, lang+".toml"), left)
		if left == 0 {
			if err := os.Remove(path); err != nil {
				return err
			}
		}
	}
	return nil
}

// sign records the current English hash on keys of one language.
func sign(dir string, args []string, stdout io.Writer) error {
	all := len(args) > 0 && args[0] == "-all"
	if all {
		args = args[1:]
	}
	if len(args) == 0 || (!all && len(args) < 2) || (all && len(args) != 1) {
		return errors.New("usage: sign LANG KEY… or sign -all LANG")
	}
	set, err := loadDir(dir)
	if err != nil {
		return err
	}
	lang, keys := args[0], args[1:]
	file := set.files[lang]
	if file == nil || lang == sourceLanguage {
		return fmt.Errorf("no translation %s in %s", lang, dir)
	}
	if all {
		for key := range file.messages {
			keys = append(keys, key)
		}
		slices.Sort(keys)
	}
	signed := 0
	for _, key := range keys {
		m, ok := file.messages[key]
		if !ok {
			return fmt.Errorf("%s has no %s", lang, key)
		}
		source, ok := set.source().messages[key]
		if !ok {
			return fmt.Errorf("%s is not an English key", key)
		}
		if h := source.sourceHash(); m.hash != h {
			m.hash = h
			signed++
		}
	}
	if err := os.WriteFile(filepath.Join(dir, lang+".toml"), file.encode(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d signed\n", lang, signed)
	return nil
}
