package sandbox

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/subcommand"
)

func TestParseUsers(t *testing.T) {
	for in, want := range map[string][]string{
		"Alice,Bob":        {"Alice", "Bob"},
		" Alice , Bob ,, ": {"Alice", "Bob"},
		"Zoë":              {"Zoë"},
		DefaultUsers:       {"Alice", "Bob", "Carol", "Dave"},
	} {
		got, err := ParseUsers(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for in, want := range map[string]string{
		"":            "gives 0 names",
		" , ":         "gives 0 names",
		"Alice,alice": `names "alice" twice`,
		manyNames(26): "gives 26 names, want 1 to 25",
	} {
		_, err := ParseUsers(in)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
	}
}

// manyNames returns n distinct names, comma-separated.
func manyNames(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = "user" + strconv.Itoa(i)
	}
	return strings.Join(names, ",")
}

func TestParseLocales(t *testing.T) {
	users := []string{"Alice", "Bob"}
	for _, c := range []struct {
		name, in string
		want     map[string]string
		err      string
	}{
		{"everyone", "de", map[string]string{"": "de"}, ""},
		{"one by name", "bob=pt-br", map[string]string{"Bob": "pt-BR"}, ""},
		{"everyone and one", " fr , Bob=es-ES ", map[string]string{"": "fr", "Bob": "es-ES"}, ""},
		{"nothing", "", map[string]string{}, ""},
		{"not a locale", "Alice=xx", nil, `"xx" is not a Discord locale`},
		{"a base by region", "es", nil, "es-419 or es-ES"},
		{"not a user", "Zed=de", nil, `"Zed", who is not among -users Alice,Bob`},
		{"twice", "de,fr", nil, "twice"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseLocales(c.in, users)
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestSandboxCommandRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{"sandbox", "-users", ""}, {"sandbox", "extra"}, {"sandbox", "-listen"},
		{"sandbox", "-locale", "xx"}, {"sandbox", "-server-locale", "pt"}, {"sandbox", "-admin", "Zed"}} {
		code, out, errOut := runCLI(args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Empty(t, out)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: %q", args, errOut)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	code, _, errOut := runCLI("sandbox", "-listen", busy.Addr().String())
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "try another -listen address")
}

// TestSandboxHelperProcess is the child of TestSandboxCommand: it runs
// `malefiz sandbox` as a user would.
func TestSandboxHelperProcess(t *testing.T) {
	if os.Getenv("MALEFIZ_SANDBOX_HELPER") != "1" {
		t.Skip("runs only as a child process")
	}
	os.Exit(subcommand.Run("sandbox", Command, []string{"-listen", "127.0.0.1:0", "-db", os.Getenv("MALEFIZ_SANDBOX_DB"), "-users", "Ann,Ben",
		"-locale", "pl,Ben=pt-br", "-server-locale", "it", "-admin", "ann"}, os.Stdout, os.Stderr))
}

// TestSandboxCommand runs `malefiz sandbox` in a child process: it prints
// its address and nothing else, serves the page, plays a command through
// the real bot, and stops cleanly on SIGTERM.
func TestSandboxCommand(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSandboxHelperProcess$")
	cmd.Env = append(os.Environ(), "MALEFIZ_SANDBOX_HELPER=1", "MALEFIZ_SANDBOX_DB="+dbPath)
	cmd.Dir = t.TempDir()
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()

	lines := bufio.NewReader(stdout)
	first, err := lines.ReadString('\n')
	require.NoError(t, err)
	const prefix = "Malefiz sandbox: open http://"
	require.True(t, strings.HasPrefix(first, prefix), "first line %q", first)
	addr := strings.Fields(strings.TrimPrefix(first, prefix))[0]
	base := "http://" + addr

	resp, err := http.Get(base + "/api/users")
	require.NoError(t, err)
	var info struct {
		Users []struct {
			ID, Name, Locale string
			Admin            bool
		}
		GuildLocale string `json:"guild_locale"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&info))
	resp.Body.Close()
	require.Len(t, info.Users, 2)
	assert.Equal(t, "Ben", info.Users[1].Name)
	assert.Equal(t, "pl", info.Users[0].Locale, "-locale pl: everyone not named")
	assert.Equal(t, "pt-BR", info.Users[1].Locale)
	assert.True(t, info.Users[0].Admin, "-admin ann")
	assert.False(t, info.Users[1].Admin)
	assert.Equal(t, "it", info.GuildLocale)

	body, _ := json.Marshal(map[string]string{"user": info.Users[0].ID, "line": "/malefiz new bots:1"})
	resp, err = http.Post(base+"/api/command", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", answer)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "stderr: %s", stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatal("the sandbox did not stop within 15 s of SIGTERM")
	}
	rest, _ := io.ReadAll(lines)
	assert.Empty(t, string(rest), "nothing after the address on stdout")
	assert.Empty(t, stderr.String(), "nothing on stderr")
	_, err = os.Stat(dbPath)
	assert.NoError(t, err, "the -db file is kept")
}

// runCLI runs `malefiz sandbox` as the malefiz command does: "sandbox",
// then its flags.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = subcommand.Run(args[0], Command, args[1:], &out, &errb)
	return code, out.String(), errb.String()
}
