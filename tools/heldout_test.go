package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine/ai"
)

func TestHeldoutCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "heldout.json")
	code, stdout, errOut := runCLI("heldout", "-seed", "9", "-n", "2", "-rollouts", "3", "-o", out,
		"-check", "greedy", "-check-positions", "2", "-check-rollouts", "2")
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{"4 positions", "3 rollouts each by the reply policy", "the truth's 95 % error",
		"the card's chances within 8 points of the truth", "written to " + out,
		"check: 2 positions, 2 rollouts each of greedy against reply", "mean squared z"} {
		assert.Contains(t, stdout, want)
	}
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	set, err := ai.ParseHeldOutSet(data)
	require.NoError(t, err)
	assert.Equal(t, uint64(9), set.Seed)
	assert.Equal(t, ai.ReplyPolicy, set.Policy)
	require.Len(t, set.Cases, 4, "the two named positions and two generated ones")
	assert.Equal(t, "issue-42-a", set.Cases[0].Name)
	generated, err := ai.HeldOutPositions(9, 2)
	require.NoError(t, err)
	for i, c := range generated {
		got := set.Cases[2+i]
		assert.Equal(t, c.Position, got.Position)
		truth := ai.RolloutEstimator{Rollouts: 3, Seed: 9, Policy: ai.ReplyPolicy}.Chances(c.Position, c.Rules)
		assert.Equal(t, ai.ByLetter(c.Position, truth), got.Truth, "case %d", i)
	}
	assert.Contains(t, set.Comment, "heldout -seed 9 -n 2 -rollouts 3 -policy reply")

	// The set read back: the same summary, and the coach's search's.
	code, again, errOut := runCLI("heldout", "-from", out)
	require.Equal(t, 0, code, errOut)
	summary, _, _ := strings.Cut(stdout, "written to ")
	assert.Equal(t, summary, again[:len(summary)], "the summary of the set read back")
	assert.Contains(t, again, "the coach's search within 8 points of the truth: ")

	for _, args := range [][]string{{"heldout", "-rollouts", "0"}, {"heldout", "-policy", "lucky"}, {"heldout", "-check", "grandmaster"}, {"heldout", "extra"}, {"heldout", "-from", filepath.Join(t.TempDir(), "none.json")}} {
		code, _, errOut := runCLI(args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Contains(t, errOut, "malefiz: heldout: ", "%v", args)
	}
}
