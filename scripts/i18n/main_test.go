package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeDir writes files (name → content) into a new temporary directory.
func writeDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	return dir
}

// runTool runs the tool on dir and returns its output.
func runTool(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(append([]string{"-dir", dir}, args...), &out)
	return out.String(), err
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	buf, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(buf)
}

func TestSourceHashIsGoi18nMergesHash(t *testing.T) {
	// goi18n/merge_command_test.go gives "Hello" this hash.
	m := &message{forms: map[string]string{"other": "Hello"}}
	assert.Equal(t, "sha1-f7ff9e8b7bb2e09b70935a5d785e0cc5d9d0abf0", m.sourceHash())
}

// TestTranslateMergeRoundTrip runs the translator's workflow: status finds
// the missing and the stale message, translate writes them with the English
// text and its hash, merge folds the translation in, and status is clean.
func TestTranslateMergeRoundTrip(t *testing.T) {
	hello := (&message{forms: map[string]string{"other": "Hello"}}).sourceHash()
	dir := writeDir(t, map[string]string{
		"en.toml": "# English\n\n\"a.hello\" = \"Hello\"\n\"b.bye\" = \"Goodbye\"\n\"c.n\" = { one = \"%d game\", other = \"%d games\" }\n",
		"xx.toml": "# Xx, the header stays.\n\n[\"a.hello\"]\nhash = \"" + hello + "\"\nother = \"Hallo\"\n\n[\"c.n\"]\nhash = \"sha1-0000\"\none = \"%d Spiel\"\nother = \"%d Spiele\"\n",
	})
	out, err := runTool(t, dir, "status")
	require.ErrorIs(t, err, errOutOfDate)
	assert.Contains(t, out, "xx: 1 missing, 1 stale")
	assert.Contains(t, out, "missing b.bye")
	assert.Contains(t, out, "stale   c.n")

	_, err = runTool(t, dir, "translate")
	require.NoError(t, err)
	path := filepath.Join(dir, "translate", "translate.xx.toml")
	todo := readFile(t, path)
	assert.NotContains(t, todo, "a.hello", "an up-to-date message is not to translate")
	assert.Contains(t, todo, "[\"b.bye\"]\nhash = \""+(&message{forms: map[string]string{"other": "Goodbye"}}).sourceHash()+"\"\nother = \"Goodbye\"\n")
	assert.Contains(t, todo, "#   other = %d Spiele", "a stale message shows its old translation")

	// Merging before translating moves nothing.
	out, err = runTool(t, dir, "merge")
	require.NoError(t, err)
	assert.Contains(t, out, "xx: 0 merged")
	require.FileExists(t, path)

	todo = strings.Replace(todo, `other = "Goodbye"`, `other = "Tschüss"`, 1)
	todo = strings.Replace(todo, `one = "%d game"`, `one = "%d Partie"`, 1)
	todo = strings.Replace(todo, `other = "%d games"`, `other = "%d Partien"`, 1)
	require.NoError(t, os.WriteFile(path, []byte(todo), 0o644))
	out, err = runTool(t, dir, "merge")
	require.NoError(t, err)
	assert.Contains(t, out, "xx: 2 merged")
	assert.NoFileExists(t, path, "a fully merged file is removed")
	xx := readFile(t, filepath.Join(dir, "xx.toml"))
	assert.True(t, strings.HasPrefix(xx, "# Xx, the header stays.\n"), xx)
	assert.Contains(t, xx, "[\"b.bye\"]\nhash = ")
	assert.Contains(t, xx, "one = \"%d Partie\"\nother = \"%d Partien\"\n")

	out, err = runTool(t, dir, "status")
	require.NoError(t, err)
	assert.Equal(t, "xx: up to date\n", out)
}

func TestMergeRefusesATranslationOfAnOlderText(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"en.toml": "\"a\" = \"Hello there\"\n",
		"xx.toml": "",
	})
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "translate"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "translate", "translate.xx.toml"), []byte("[\"a\"]\nhash = \"sha1-f7ff9e8b7bb2e09b70935a5d785e0cc5d9d0abf0\"\nother = \"Hallo\"\n"), 0o644))
	out, err := runTool(t, dir, "merge", "xx")
	require.NoError(t, err)
	assert.Contains(t, out, "a was translated from an older English text")
	assert.NotContains(t, readFile(t, filepath.Join(dir, "xx.toml")), "Hallo")
}

func TestSignRecordsTheCurrentHash(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"en.toml": "\"a\" = \"Hello\"\n\"b\" = \"Bye\"\n",
		"xx.toml": "\"a\" = \"Hallo\"\n\"b\" = \"Tschüss\"\n",
	})
	_, err := runTool(t, dir, "sign", "xx", "a")
	require.NoError(t, err)
	out, err := runTool(t, dir, "status")
	require.ErrorIs(t, err, errOutOfDate)
	assert.Contains(t, out, "xx: 0 missing, 1 stale\n  stale   b\n")
	_, err = runTool(t, dir, "sign", "-all", "xx")
	require.NoError(t, err)
	_, err = runTool(t, dir, "status")
	require.NoError(t, err)
	_, err = runTool(t, dir, "sign", "xx", "nosuch")
	assert.Error(t, err)
}

func TestNewLanguage(t *testing.T) {
	dir := writeDir(t, map[string]string{"en.toml": "\"a\" = \"Hello\"\n"})
	_, err := runTool(t, dir, "translate", "sv")
	require.NoError(t, err)
	path := filepath.Join(dir, "translate", "translate.sv.toml")
	todo := strings.Replace(readFile(t, path), `other = "Hello"`, `other = "Hej"`, 1)
	require.NoError(t, os.WriteFile(path, []byte(todo), 0o644))
	_, err = runTool(t, dir, "merge")
	require.NoError(t, err)
	sv := readFile(t, filepath.Join(dir, "sv.toml"))
	assert.Contains(t, sv, "# Malefiz bot — sv.")
	assert.Contains(t, sv, "other = \"Hej\"")
}

func TestTomlStringRoundTrips(t *testing.T) {
	for _, s := range []string{"plain", `quote " and \ backslash`, "two\nlines \"\"\" here", "%d\u202f%%", "tab\there", "🗳️ vote"} {
		m := &messageFile{messages: map[string]*message{"k": {hash: "sha1-1", forms: map[string]string{"other": s}}}}
		got, err := parseMessages(m.encode())
		require.NoError(t, err, "%q", s)
		assert.Equal(t, s, got["k"].forms["other"])
		assert.Equal(t, "sha1-1", got["k"].hash)
	}
	assert.Equal(t, `"%d\u202f%%"`, tomlString("%d\u202f%%"), "an invisible space is written as an escape")
}
