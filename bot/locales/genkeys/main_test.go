package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeysAreGenerated fails when keys.go is not what en.toml makes: run
// go generate ./bot/locales.
func TestKeysAreGenerated(t *testing.T) {
	src, err := os.ReadFile("../en.toml")
	require.NoError(t, err)
	want, err := Generate(src)
	require.NoError(t, err)
	got, err := os.ReadFile("../keys.go")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "bot/locales/keys.go is stale: run go generate ./bot/locales")
}

func TestGoName(t *testing.T) {
	for k, want := range map[string]string{
		"game.winner":        "GameWinner",
		"lobby.closed_empty": "LobbyClosedEmpty",
		"timeout.5m":         "Timeout5m",
		"level.easy.hint":    "LevelEasyHint",
	} {
		assert.Equal(t, want, GoName(k), k)
	}
}

func TestGenerateRefusesTwoKeysOfOneName(t *testing.T) {
	_, err := Generate([]byte(`"a.b_c" = "x"` + "\n" + `"a_b.c" = "y"` + "\n"))
	assert.Error(t, err)
}
