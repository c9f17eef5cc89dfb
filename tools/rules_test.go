package tools

import (
	"bytes"
	"strings"
	"testing"

	"github.com/malefiz-discord/malefiz/subcommand"
)

// commands are the tools by their subcommand names.
var commands = map[string]subcommand.Command{"moves": Moves, "perft": Perft, "render": Render, "selfplay": Selfplay,
	"train": Train, "tdtrain": TDTrain, "chances": Chances, "heldout": Heldout, "backup": Backup, "migrate-to": MigrateTo, "replay": Replay, "analyse": Analyse}

// runCLI runs a tool as the malefiz command does: its name, then its flags.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = subcommand.Run(args[0], commands[args[0]], args[1:], &out, &errb)
	return code, out.String(), errb.String()
}

func TestMovesAndPerftCommands(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"moves start roll 4", []string{"moves", "-roll", "4", "start"}, "home-a2\nhome-e2\nhome-f1\n"},
		{"moves position as separate words", []string{"moves", "-roll", "2", "players=ry", "turn=r", "r=h13", "y=j13", "x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,d5"},
			"h13-f13\nh13-i14\nh13-j13\nhome-b1\nhome-d1\n"},
		{"moves pass prints nothing", []string{"moves", "-roll", "3", "players=rg turn=r r=i10,a12,q12,g8,k8 g= x=i9,i11,a11,a13,q11,q13,g7,g9,k7,k9"}, ""},
		{"perft depth 2", []string{"perft", "-depth", "2", "start"}, "24848\n"},
		{"perft over", []string{"perft", "-depth", "2", "players=ry turn=y r=i14 y= x="}, "0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(tt.args...)
			if code != 0 || out != tt.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want 0 and %q", code, out, errOut, tt.want)
			}
		})
	}
}

func TestPerftDivideEndsWithTotal(t *testing.T) {
	code, out, _ := runCLI("perft", "-depth", "2", "-divide", "start")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || lines[len(lines)-1] != "24848" || len(lines) < 10 {
		t.Errorf("exit %d, last line %q of %d", code, lines[len(lines)-1], len(lines))
	}
}
