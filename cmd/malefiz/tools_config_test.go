package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestToolsUseTheConfiguredDatabase checks that backup and replay open
// the database that run would (environment, config file), and say which
// file they looked for when it is not there.
func TestToolsUseTheConfiguredDatabase(t *testing.T) {
	h := harness.New(t)
	gameID, _ := harness.OpenTwoPlayerGame(t, h)
	for range 2 {
		harness.PlayTurn(t, h, gameID, true)
	}
	h.WaitTurn(gameID)
	dir := t.TempDir()
	t.Chdir(dir)

	t.Setenv("MALEFIZ_DATABASE_PATH", h.DBPath)
	code, _, errOut := runCLI("backup", "-o", filepath.Join(dir, "from-env.db"))
	require.Equal(t, 0, code, errOut)
	code, _, errOut = runCLI("replay", "-o", filepath.Join(dir, "from-env.gif"), "1")
	require.Equal(t, 0, code, errOut)
	assert.FileExists(t, filepath.Join(dir, "from-env.gif"))

	t.Setenv("MALEFIZ_DATABASE_PATH", "")
	config := filepath.Join(dir, "other.toml")
	require.NoError(t, os.WriteFile(config, []byte("[database]\npath = \""+h.DBPath+"\"\n"), 0o600))
	code, _, errOut = runCLI("backup", "-config", config, "-o", filepath.Join(dir, "from-config.db"))
	require.Equal(t, 0, code, "no token needed: %s", errOut)
	code, _, errOut = runCLI("replay", "-config", config, "-o", filepath.Join(dir, "from-config.gif"), "1")
	require.Equal(t, 0, code, errOut)

	code, _, errOut = runCLI("replay", "-db", h.DBPath, "-o", filepath.Join(dir, "from-flag.gif"), "1")
	require.Equal(t, 0, code, errOut)

	// Nothing configured, and no malefiz.db here.
	for _, args := range [][]string{{"backup", "-o", "x.db"}, {"replay", "1"}} {
		code, out, errOut := runCLI(args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "no database at malefiz.db (the default [database] path; set -db FILE, MALEFIZ_DATABASE_PATH or path in the config file)", "%v", args)
	}
	t.Setenv("MALEFIZ_DATABASE_PATH", filepath.Join(dir, "gone.db"))
	_, _, errOut = runCLI("replay", "1")
	assert.Contains(t, errOut, "no database at "+filepath.Join(dir, "gone.db")+" (from MALEFIZ_DATABASE_PATH)")
	t.Setenv("MALEFIZ_DATABASE_PATH", "")
	_, _, errOut = runCLI("backup", "-config", filepath.Join(dir, "none.toml"), "-o", "y.db")
	assert.Contains(t, errOut, "none.toml")
}

// TestRunWithoutTokenPointsToTheSandbox checks the first thing a new user
// sees without a token.
func TestRunWithoutTokenPointsToTheSandbox(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("MALEFIZ_DISCORD_TOKEN", "")
	t.Setenv("DISCORD_TOKEN", "")
	code, out, errOut := runCLI("run")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "https://discord.com/developers/applications")
	assert.Contains(t, errOut, "malefiz sandbox")
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	assert.Empty(t, entries, "no database file is left behind")
}
