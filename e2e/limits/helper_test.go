package limits

import (
	"testing"

	"github.com/malefiz-discord/malefiz/e2e/harness"
)

// TestHelperProcess is the child that the tests here start as `malefiz
// run`: the replicas, the crashed process, the click-rate rig.
func TestHelperProcess(t *testing.T) { harness.HelperProcess(t) }
