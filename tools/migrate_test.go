package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/store"
)

// migrate-to copies a SQLite file into PostgreSQL and checks it; the bot's
// games and statistics are then there; a second run into the same database
// is refused; backup writes the PostgreSQL database into a SQLite file.
func TestMigrateToAndBackupPostgres(t *testing.T) {
	pg := harness.NewPostgresDatabase(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "malefiz.db")
	src, err := store.Open(t.Context(), path)
	require.NoError(t, err)
	for i := range 5 {
		g := &malefiz.Game{GuildID: "g", ChannelID: fmt.Sprint("c", i), Status: malefiz.StatusRunning,
			Seats: []malefiz.Seat{{Color: "red", UserID: "u1"}, {Color: "green", UserID: "u2"}}}
		require.NoError(t, src.CreateGame(t.Context(), g, malefiz.Event{Kind: malefiz.EventStart, Data: "red"}))
		require.NoError(t, src.FinishGame(t.Context(), g, []malefiz.Result{
			{Player: "u1", Color: "red", Won: i%2 == 0}, {Player: "u2", Color: "green", Won: i%2 == 1}}))
	}
	require.NoError(t, src.SetGuildSettings(t.Context(), "g", malefiz.GuildSettings{TurnTimeout: time.Hour}))
	require.NoError(t, src.Close())

	code, out, errOut := runCLI("migrate-to", "-db", path, pg)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "games           5\n")
	assert.Contains(t, out, "results         10\n")
	assert.Contains(t, out, "counts and leaderboards agree")
	assert.NotContains(t, out, "password")

	db, err := store.Open(t.Context(), pg)
	require.NoError(t, err)
	board, total, err := db.Leaderboard(t.Context(), "g", time.Time{}, 0, 0, 10)
	require.NoError(t, err)
	assert.Equal(t, 2, total)
	assert.Equal(t, "u1", board[0].Player)
	assert.Equal(t, 3, board[0].Wins)
	require.NoError(t, db.Close())

	code, _, errOut = runCLI("migrate-to", "-db", path, pg)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "not empty")

	backup := filepath.Join(dir, "backup.db")
	code, _, errOut = runCLI("backup", "-o", backup, "-db", pg)
	require.Equal(t, 0, code, errOut)
	copied, err := store.Open(t.Context(), backup)
	require.NoError(t, err)
	defer copied.Close()
	s, err := copied.PlayerStats(t.Context(), "g", "u2")
	require.NoError(t, err)
	assert.Equal(t, 5, s.Games)

	// The configured url is the database a tool opens without -db.
	t.Setenv("MALEFIZ_DATABASE_URL", pg)
	fromEnv := filepath.Join(dir, "from-env.db")
	code, _, errOut = runCLI("backup", "-o", fromEnv)
	require.Equal(t, 0, code, errOut)
	_, err = os.Stat(fromEnv)
	require.NoError(t, err)

	for _, args := range [][]string{{"migrate-to"}, {"migrate-to", "-db", filepath.Join(dir, "none.db"), pg}, {"migrate-to", "-db", pg, pg}} {
		code, _, _ := runCLI(args...)
		assert.Equal(t, 2, code, "%v", args)
	}
}
