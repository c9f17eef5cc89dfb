package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
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

	"github.com/malefiz-discord/malefiz/bot"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/sandbox"
)

func TestParseUsers(t *testing.T) {
	for in, want := range map[string][]string{
		"Alice,Bob":         {"Alice", "Bob"},
		" Alice , Bob ,, ":  {"Alice", "Bob"},
		"Zoë":               {"Zoë"},
		defaultSandboxUsers: {"Alice", "Bob", "Carol", "Dave"},
	} {
		got, err := parseUsers(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for in, want := range map[string]string{
		"":            "gives 0 names",
		" , ":         "gives 0 names",
		"Alice,alice": `names "alice" twice`,
		manyNames(26): "gives 26 names, want 1 to 25",
	} {
		_, err := parseUsers(in)
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
			got, err := parseLocales(c.in, users)
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
	os.Exit(run([]string{"sandbox", "-listen", "127.0.0.1:0", "-db", os.Getenv("MALEFIZ_SANDBOX_DB"), "-users", "Ann,Ben",
		"-locale", "pl,Ben=pt-br", "-server-locale", "it", "-admin", "ann"}, os.Stdout, os.Stderr))
}

// TestSandboxCommand runs `malefiz sandbox` in a child process: it prints
// its address and nothing else, serves the page, plays a command through
// the real bot, and stops cleanly on SIGTERM.
func TestSandboxCommand(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "sandbox.db")
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

// TestSandboxSkipAheadTimesOutATurn checks the clock: a skip past the
// turn's deadline makes the bot play the turn for the player.
func TestSandboxSkipAheadTimesOutATurn(t *testing.T) {
	app, err := startSandbox(t.Context(), sandboxOptions{Users: []string{"Alice", "Bob"}, Logger: testLogger(new(logBuffer)),
		Bot: func(c *bot.Config) { c.Draw = func(int) int { return 0 } }})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, app.Close()) })
	tmp := app.tmpDir
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	post := func(path string, v any) map[string]any { t.Helper(); return sandboxPost(t, srv, path, v) }
	alice := "100000000000000001"
	lobby := post("/api/command", map[string]string{"user": alice, "line": "/malefiz new seats:2 bots:1 turn-timeout:5m"})["message"].(string)
	m, ok := app.fake.Message(lobby)
	require.True(t, ok)
	start := ""
	for _, id := range m.CustomIDs() {
		if strings.HasPrefix(id, "mf/start/") {
			start = id
		}
	}
	require.NotEmpty(t, start, "the lobby has a Start button: %v", m.CustomIDs())
	post("/api/click", map[string]string{"user": alice, "message": lobby, "custom_id": start})
	require.False(t, timedOut(app), "no turn ran out of time yet")

	post("/api/skip", map[string]string{"by": "10m"})
	assert.True(t, timedOut(app), "after the skip the bot played Alice's turn for her")
	assert.GreaterOrEqual(t, app.clock.Offset(), 10*time.Minute)

	require.NoError(t, app.Close())
	_, err = os.Stat(tmp)
	assert.True(t, os.IsNotExist(err), "the temporary database is removed")
}

// timedOut reports whether a message says a turn ran out of time.
func timedOut(app *sandboxApp) bool {
	for _, m := range app.fake.AllMessages() {
		if strings.Contains(m.Text(), "ran out of time") {
			return true
		}
	}
	return false
}

// TestSandboxThreadsArchiveOnTheSandboxClock: the fake runs on the
// sandbox's clock, so Skip ahead lets a finished game's thread archive
// itself an hour after the result, as Discord would.
func TestSandboxThreadsArchiveOnTheSandboxClock(t *testing.T) {
	// The channels' message buckets off: a thread post held back by a
	// spent bucket (discordgo waits it out) lands after the first skip
	// and keeps the thread alive; the test is about the archive clock.
	limits := fakediscord.DefaultLimits()
	limits.ChannelMessages, limits.MessageEdits = fakediscord.Rate{}, fakediscord.Rate{}
	app, err := startSandbox(t.Context(), sandboxOptions{Users: []string{"Alice", "Bob"}, Logger: testLogger(new(logBuffer)),
		Limits: &limits, Bot: func(c *bot.Config) { c.Draw = func(int) int { return 0 } }})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, app.Close()) })
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	post := func(path string, v any) map[string]any { t.Helper(); return sandboxPost(t, srv, path, v) }
	controlOf := func(msgID, action string) string {
		t.Helper()
		m, ok := app.fake.Message(msgID)
		require.True(t, ok)
		return control(t, m, bot.Action(action))
	}
	users := sandbox.Users("Alice", "Bob")
	bob := users[1].ID
	g, err := app.main.db.Game(t.Context(), newActivityGame(t, app, srv, users))
	require.NoError(t, err)
	lobby := g.LobbyMessageID
	thread := func() fakediscord.Channel {
		for _, c := range app.fake.Channels() {
			if c.ID == lobby {
				return c
			}
		}
		return fakediscord.Channel{}
	}
	require.Eventually(t, func() bool { return thread().Thread }, 5*time.Second, 5*time.Millisecond, "the game plays in a thread")
	require.Eventually(t, func() bool {
		games, err := app.main.db.OpenGames(t.Context(), app.fake.GuildID, lobby)
		return err == nil && len(games) == 1 && games[0].ThreadID == lobby
	}, 5*time.Second, 5*time.Millisecond, "the bot recorded the thread")
	ask := post("/api/command", map[string]string{"user": bob, "channel": lobby, "line": "/malefiz resign"})["message"].(string)
	post("/api/click", map[string]string{"user": bob, "message": ask, "custom_id": controlOf(ask, "resign")})
	require.Eventually(t, func() bool {
		m, _ := app.fake.Message(lobby)
		return strings.Contains(m.Text(), "🏆")
	}, 5*time.Second, 5*time.Millisecond, "the card shows the result")
	// The result's thread settings reach Discord (paced under the global
	// limit, a moment after the card) before the clock moves on.
	require.Eventually(t, func() bool {
		for _, c := range app.fake.Calls() {
			if c.Method == http.MethodPatch && c.Path == "/channels/"+lobby {
				return true
			}
		}
		return false
	}, 5*time.Second, 5*time.Millisecond, "the thread's archive duration is set")
	post("/api/skip", map[string]string{"by": "30m"})
	assert.False(t, thread().Archived, "half an hour after the result the players can still talk there")
	post("/api/skip", map[string]string{"by": "31m"})
	assert.True(t, thread().Archived, "an hour after the result the thread archived itself")
}
