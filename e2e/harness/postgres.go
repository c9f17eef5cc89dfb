package harness

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/malefiz-discord/malefiz/store/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// NewPostgresDatabase creates an empty database for the test on the server
// of MALEFIZ_TEST_POSTGRES_URL (scripts/test-postgres.sh), dropped after it,
// and returns its URL. Without the variable the test is skipped, or fails
// in CI.
func NewPostgresDatabase(t *testing.T) string {
	t.Helper()
	base := os.Getenv("MALEFIZ_TEST_POSTGRES_URL")
	if base == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("MALEFIZ_TEST_POSTGRES_URL is not set: in CI the PostgreSQL tests must run (scripts/test-postgres.sh)")
		}
		t.Skip("MALEFIZ_TEST_POSTGRES_URL not set (scripts/test-postgres.sh)")
	}
	admin, err := sql.Open("pgx", base)
	require.NoError(t, err)
	t.Cleanup(func() { admin.Close() })
	name := fmt.Sprintf("cmd%d_%s", os.Getpid(), strings.ToLower(strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())))
	_, err = admin.Exec(`CREATE DATABASE "` + name + `"`)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, err := admin.Exec(`DROP DATABASE "` + name + `" WITH (FORCE)`)
		assert.NoError(t, err)
	})
	u, err := url.Parse(base)
	require.NoError(t, err)
	u.Path = "/" + name
	return u.String()
}

// NewPostgresDB creates a PostgreSQL database of the test's own and returns
// its URL; it skips the test without a PostgreSQL server.
func NewPostgresDB(t testing.TB) string { return storetest.NewPostgresURL(t) }
