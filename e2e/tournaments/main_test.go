package tournaments

import (
	"os"
	"testing"

	"github.com/malefiz-discord/malefiz/e2e/harness"
)

// TestMain stops the Chromium the browser tests share once they are done.
func TestMain(m *testing.M) {
	os.Exit(harness.RunTests(m))
}
