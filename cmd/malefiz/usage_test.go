package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUsageGolden checks the usage of every subcommand against
// testdata/usage-NAME.golden (go test -run TestUsageGolden -update
// rewrites them).
func TestUsageGolden(t *testing.T) {
	cases := map[string][]string{"malefiz": {"-h"}}
	for _, name := range commandOrder {
		cases[name] = []string{name, "-h"}
	}
	require.Len(t, commandOrder, len(commands), "commandOrder lists every command")
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runCLI(args...)
			require.Equal(t, 0, code, "exit status of %v", args)
			assert.Empty(t, errOut)
			golden := filepath.Join("testdata", "usage-"+name+".golden")
			if *harness.Update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(golden, []byte(out), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run with -update to create it")
			assert.Equal(t, string(want), out)
		})
	}
}

// TestHelpForms checks that every way of asking for help prints the
// same usage and exits 0.
func TestHelpForms(t *testing.T) {
	_, top, _ := runCLI("-h")
	for _, args := range [][]string{{"help"}, {"--help"}, {"-help"}} {
		code, out, _ := runCLI(args...)
		assert.Equal(t, 0, code, "%v", args)
		assert.Equal(t, top, out, "%v", args)
	}
	for _, name := range commandOrder {
		_, want, _ := runCLI(name, "-h")
		code, out, _ := runCLI("help", name)
		assert.Equal(t, 0, code, "help %s", name)
		assert.Equal(t, want, out, "help %s", name)
		assert.Contains(t, out, "usage: ", name)
	}
	code, out, errOut := runCLI("help", "nosuch")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "unknown command")
}

// TestUsageListsEveryFlag checks that the usage names each flag a
// command defines, with its default.
func TestUsageListsEveryFlag(t *testing.T) {
	_, out, _ := runCLI("selfplay", "-h")
	for _, want := range []string{"-games int", "(default 100)", "-players string", "-q\n", "-seed uint", "(default 1)", "-json", "(default false)"} {
		assert.Contains(t, out, want)
	}
	_, out, _ = runCLI("sandbox", "-h")
	assert.Contains(t, out, "(default 127.0.0.1:8080)")
	assert.Contains(t, out, "(default "+sandbox.DefaultUsers+")")
}

// TestUsageLineListsEveryFlag checks that the usage line of every command
// names each flag its flag list shows (replay's -width was missing, and
// render's house rules).
func TestUsageLineListsEveryFlag(t *testing.T) {
	for _, name := range commandOrder {
		_, out, _ := runCLI(name, "-h")
		synopsis, rest, ok := strings.Cut(out, "\n\n")
		require.True(t, ok, "%s: %q", name, out)
		_, flags, _ := strings.Cut(rest, "\nflags:\n")
		for _, line := range strings.Split(flags, "\n") {
			if !strings.HasPrefix(line, "  -") {
				continue
			}
			flagName := strings.Fields(line)[0]
			// The first form; replay's second (DATABASE GAME, as before
			// -db) has no -db.
			first, _, _ := strings.Cut(strings.TrimPrefix(synopsis, "usage: "), "\n")
			assert.Regexp(t, `(^|[\s\[])`+regexp.QuoteMeta(flagName)+`([\s\]]|$)`, first, "%s: the usage line lacks %s", name, flagName)
		}
	}
}

// TestUsageRequiredFlagsHaveNoDefault checks that a flag a command cannot
// do without says so instead of "(default none)" or a default of 0.
func TestUsageRequiredFlagsHaveNoDefault(t *testing.T) {
	for name, flags := range map[string][]string{
		"render":   {"-o string"},
		"moves":    {"-roll int"},
		"selfplay": {"-players string"},
		"backup":   {"-o string"},
	} {
		_, out, _ := runCLI(name, "-h")
		for _, f := range flags {
			_, help, ok := strings.Cut(out, "  "+f+"\n")
			require.True(t, ok, "%s -h lists %s: %q", name, f, out)
			help, _, _ = strings.Cut(help, "\n")
			assert.True(t, strings.HasSuffix(help, " (required)"), "%s %s: %q", name, f, help)
			assert.NotContains(t, help, "(default", "%s %s", name, f)
		}
	}
	for _, name := range commandOrder {
		_, out, _ := runCLI(name, "-h")
		assert.NotContains(t, out, "(default none)", name)
	}
	_, out, _ := runCLI("moves", "-h")
	assert.NotContains(t, out, "(default 0)", "moves -roll has no default")
}

// TestBadFlagIsOneLine checks that a bad flag still gives one line on
// stderr and exit 2, not the usage.
func TestBadFlagIsOneLine(t *testing.T) {
	for _, name := range commandOrder {
		code, out, errOut := runCLI(name, "-no-such-flag")
		assert.Equal(t, 2, code, name)
		assert.Empty(t, out, name)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%s: %q", name, errOut)
	}
}

// runCLI runs the malefiz command with args, as a user would.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}
