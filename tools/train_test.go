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

func TestTrain(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "model.json")
	args := []string{"-games", "6", "-levels", "greedy", "-calibrate", "3", "-calibrate-levels", "greedy",
		"-rollouts", "2", "-rollout-every", "50", "-unusual", "4", "-cache", filepath.Join(dir, "cache"), "-out", out}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, trainCommand(args, &stdout, &stderr), "stderr: %s", stderr.String())
	for _, want := range []string{"trained on 6 games", "model written", "learned on 3 calibration games", "Brier", "| 90–100 % |", "rollouts(2)"} {
		assert.Contains(t, stdout.String(), want)
	}
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	_, info, err := ai.ParseModel(data)
	require.NoError(t, err)
	assert.Equal(t, 6, info.Games)
	assert.Positive(t, info.Unusual, "games played out from unusual positions")
	assert.LessOrEqual(t, info.Unusual, 4)

	// Again from the cache: the same model.
	var again bytes.Buffer
	require.Equal(t, 0, trainCommand(args, &again, &stderr))
	second, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, data, second, "the same games, the same model")
	assert.Equal(t, stdout.String(), again.String())
}

func TestTrainErrors(t *testing.T) {
	for _, args := range [][]string{{"-games", "0"}, {"-unusual", "-1"}, {"-levels", "grandmaster"}, {"extra"}} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, trainCommand(args, &stdout, &stderr), "%v", args)
		assert.Contains(t, stderr.String(), "malefiz: train: ")
	}
}
