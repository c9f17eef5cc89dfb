package store

import (
	"testing"

	"github.com/malefiz-discord/malefiz/store/storetest"
)

// TestBackend is one kind of database the store's tests run on.
type TestBackend = storetest.Backend

// testBackends returns the backends to test (see storetest.Backends).
func testBackends(t testing.TB) []TestBackend { return storetest.Backends(t) }

// forEachBackend runs f as a subtest on each backend. The test and its
// subtests run in parallel with the package's other parallel tests: each
// has a database of its own (a SQLite file in its own t.TempDir(), a
// PostgreSQL database of its own), and their time is spent waiting on the
// databases (creating one on PostgreSQL, a commit's fsync), not computing
// (see TestMain for how many run at once).
func forEachBackend(t *testing.T, f func(t *testing.T, b TestBackend)) {
	t.Parallel()
	for _, b := range testBackends(t) {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			f(t, b)
		})
	}
}
