package chances

import (
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/subcommand"
	"github.com/malefiz-discord/malefiz/tools"
)

// runCLI runs a tool as the malefiz command does: its name, then its flags.
func runCLI(args ...string) (code int, stdout, stderr string) {
	cmd := map[string]subcommand.Command{"backup": tools.Backup, "replay": tools.Replay, "analyse": tools.Analyse}[args[0]]
	return harness.Run(args[0], cmd, args[1:]...)
}
