package activity

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestActivityImportsNoBot: the Activity is a front-end of the game
// service beside the thread's, not a client of it: the Discord adapter
// (bot) is not among its dependencies.
func TestActivityImportsNoBot(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	require.NoError(t, err, "go list -deps")
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/malefiz-discord/malefiz/game", "go list saw the Activity's imports")
	require.NotContains(t, deps, "github.com/malefiz-discord/malefiz/bot")
}
