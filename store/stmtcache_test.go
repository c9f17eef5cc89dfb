package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStmtCache runs a query through read and write transactions: the
// first run is unprepared, the transaction after it finds the statement
// prepared, and the answers are the same. A statement that cannot be
// prepared outside its transaction (a temporary table's) keeps running
// unprepared.
func TestStmtCache(t *testing.T) {
	db := openInternal(t, testBackends(t)[0]) // SQLite first
	ctx := t.Context()
	const q = `SELECT count(*) FROM games WHERE guild_id = ?`
	require.NoError(t, db.CreateGame(ctx, &Game{GuildID: "g", ChannelID: "c", Status: StatusRunning}, Event{Kind: EventStart}))

	count := func() int {
		tx, err := db.beginRead(ctx)
		require.NoError(t, err)
		defer tx.Rollback()
		var n int
		require.NoError(t, tx.QueryRowContext(ctx, q, "g").Scan(&n))
		return n
	}
	assert.Equal(t, 1, count())
	assert.Nil(t, db.rstmts.stmts[q], "prepared within the transaction that met it")
	assert.Equal(t, 1, count())
	assert.NotNil(t, db.rstmts.stmts[q], "not prepared before the next transaction")
	assert.Equal(t, 1, count(), "from the prepared statement")

	for range 3 {
		tx, err := db.beginWrite(ctx)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, `CREATE TEMP TABLE IF NOT EXISTS scratch (x INTEGER)`)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, `INSERT INTO scratch (x) VALUES (?)`, 7)
		require.NoError(t, err)
		var n int
		require.NoError(t, tx.QueryRowContext(ctx, q, "g").Scan(&n))
		assert.Equal(t, 1, n)
		require.NoError(t, tx.Commit())
	}
	assert.NotNil(t, db.wstmts.stmts[q])

	require.NoError(t, db.Close())
	assert.Empty(t, db.rstmts.stmts, "statements left open after Close")
}
