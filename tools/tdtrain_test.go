package tools

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine/ai"
)

func TestTDTrainResumesFromItsCheckpoint(t *testing.T) {
	dir := t.TempDir()
	train := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		code := tdtrainCommand(append([]string{"-seed", "3", "-players", "2"}, args...), &out, &errb)
		require.Equal(t, 0, code, "stderr %q", errb.String())
		return errb.String()
	}
	load := func(name string) (*ai.TDModel, ai.TDTrainInfo) {
		t.Helper()
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		m, info, err := ai.ParseTDModel(data)
		require.NoError(t, err)
		return m, info
	}
	ck := filepath.Join(dir, "ck.json")
	first := train("-games", "2", "-every", "1", "-checkpoint", ck, "-snapshots", filepath.Join(dir, "snap"))
	assert.Contains(t, first, "2/2 games")
	assert.Contains(t, first, "left")
	second := train("-games", "4", "-every", "2", "-checkpoint", ck, "-out", filepath.Join(dir, "resumed.json"))
	assert.Contains(t, second, "resuming")
	train("-games", "4", "-every", "4", "-out", filepath.Join(dir, "whole.json"))

	resumed, rinfo := load(filepath.Join(dir, "resumed.json"))
	whole, winfo := load(filepath.Join(dir, "whole.json"))
	assert.Equal(t, whole.Weights, resumed.Weights, "two sittings end where one does")
	assert.Equal(t, 4, rinfo.Games)
	assert.Equal(t, 4, winfo.Games)
	_, snap := load(filepath.Join(dir, "snap", "td-1.json"))
	assert.Equal(t, 1, snap.Games)
}

func TestTDTrainErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"no games", []string{"-games", "0"}},
		{"five players", []string{"-players", "2,5"}},
		{"not a count", []string{"-players", "two"}},
		{"extra argument", []string{"now"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := tdtrainCommand(tt.args, &out, &errb)
			assert.Equal(t, 2, code)
			assert.Contains(t, errb.String(), "malefiz: tdtrain: ")
		})
	}
}

func TestTDTrainNetworkResumesFromItsCheckpoint(t *testing.T) {
	dir := t.TempDir()
	train := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		code := tdtrainCommand(append([]string{"-nn", "-seed", "3", "-players", "2", "-scale-games", "1"}, args...), &out, &errb)
		require.Equal(t, 0, code, "stderr %q", errb.String())
		return errb.String()
	}
	load := func(name string) (*ai.NNModel, ai.TDTrainInfo) {
		t.Helper()
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		m, info, err := ai.ParseNNModel(data)
		require.NoError(t, err)
		return m, info
	}
	ck := filepath.Join(dir, "ck.json")
	first := train("-games", "1", "-every", "1", "-checkpoint", ck)
	assert.Contains(t, first, "1/1 games")
	second := train("-games", "2", "-every", "1", "-checkpoint", ck, "-out", filepath.Join(dir, "resumed.json"), "-measure", "1")
	assert.Contains(t, second, "resuming")
	assert.Contains(t, second, "against its linear model")
	train("-games", "2", "-every", "2", "-out", filepath.Join(dir, "whole.json"))

	resumed, rinfo := load(filepath.Join(dir, "resumed.json"))
	whole, _ := load(filepath.Join(dir, "whole.json"))
	assert.Equal(t, whole, resumed, "two sittings end where one does")
	assert.Equal(t, 2, rinfo.Games)
	assert.InDelta(t, 0.05, rinfo.Alpha, 1e-12, "a network's own default rate")
	_, err := ai.ParseNNCheckpoint(mustRead(t, filepath.Join(dir, "whole.json")))
	assert.Error(t, err, "-out writes the network that plays, not a checkpoint")
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return data
}
