package store

import (
	"testing"

	"github.com/malefiz-discord/malefiz/store/storetest"
)

// TestBackend is one kind of database the store's tests run on.
type TestBackend = storetest.Backend

// testBackends returns the backends to test (see storetest.Backends).
func testBackends(t testing.TB) []TestBackend { return storetest.Backends(t) }

// forEachBackend runs f as a subtest on each backend.
func forEachBackend(t *testing.T, f func(t *testing.T, b TestBackend)) {
	for _, b := range testBackends(t) {
		t.Run(b.Name, func(t *testing.T) { f(t, b) })
	}
}
