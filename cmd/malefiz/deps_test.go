package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBinaryLinksNoTestPackages: the production binary does not link the
// testing packages. The sandbox serves the Discord stand-in from it, so
// fakediscord takes a small interface of its own instead of testing.TB and
// serves on its own listener instead of net/http/httptest's.
func TestBinaryLinksNoTestPackages(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	require.NoError(t, err, "the go command runs the check")
	out, err := exec.Command(goBin, "list", "-deps", ".").CombinedOutput()
	require.NoError(t, err, "go list -deps: %s", out)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "net/http", "the list is the binary's")
	for _, pkg := range []string{"testing", "net/http/httptest"} {
		assert.NotContains(t, deps, pkg, "go list -deps ./cmd/malefiz")
	}
}
