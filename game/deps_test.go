package game

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestServiceKnowsNoFrontEnd: the game service depends on neither
// Discord's client nor net/http, directly or through another package
// (its effects go to delivery through queue.Outbox).
func TestServiceKnowsNoFrontEnd(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	require.NoError(t, err, "go list -deps")
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/malefiz-discord/malefiz/bot/table", "go list saw the service's imports")
	for _, d := range deps {
		if d == "net/http" || strings.HasPrefix(d, "github.com/bwmarrin/discordgo") || strings.HasSuffix(d, "/malefiz/bot") {
			t.Errorf("the game service depends on %s", d)
		}
	}
}
