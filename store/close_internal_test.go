package store

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCloseWaitsForTheConnectionsInUse: Close returns once every
// connection is closed, one still in use when it is called (rows not read
// to their end) included, so that SQLite has removed its -wal and -shm
// files by then and no file of the database is open.
func TestCloseWaitsForTheConnectionsInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "malefiz.db")
	db, err := Open(t.Context(), path)
	require.NoError(t, err)
	rows, err := db.r.QueryContext(t.Context(), `SELECT 1 UNION ALL SELECT 2`)
	require.NoError(t, err)
	require.True(t, rows.Next())
	closed := make(chan error, 1)
	go func() { closed <- db.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) with a connection in use", err)
	case <-time.After(200 * time.Millisecond):
	}
	require.NoError(t, rows.Close())
	require.NoError(t, <-closed)
	for _, suffix := range []string{"-wal", "-shm"} {
		assert.NoFileExists(t, path+suffix)
	}
}
