package main

import (
	"strings"
	"testing"
)

func TestCommandErrorsExit2WithOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"moves", "-roll", "7", "start"},
		{"moves", "-roll", "3"},
		{"moves", "-roll", "3", "players=rg turn=r r=b2 g= x="},
		{"moves", "-bogus", "start"},
		{"perft", "-depth", "x", "start"},
		{"perft", "-depth", "2", "nonsense"},
		{"nosuchcommand"},
	} {
		code, out, errOut := runCLI(args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line on stderr", args, code, out, errOut)
		}
	}
}
