package tools

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/malefiz-discord/malefiz/serve"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// migrateToCommand is `malefiz migrate-to [-db PATH] URL`: it copies every
// game, event, result, rating, setting and outbox effect of a SQLite file
// into the empty database at URL (PostgreSQL, normally), then checks that
// every table has as many rows in both and that every guild's leaderboards
// (all time and the last 30 days) are equal, and prints the counts. Stop the
// bot first: what it writes to the file afterwards is not copied.
func migrateToCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.FlagSet("migrate-to")
	from := fs.String("db", defaultSQLite(), "the SQLite file to copy (default MALEFIZ_DATABASE_PATH, else malefiz.db)")
	if err := fs.Parse(args); err != nil {
		return subcommand.Fail(stderr, "migrate-to: %v", err)
	}
	if fs.NArg() != 1 {
		return subcommand.Fail(stderr, "migrate-to: usage: malefiz migrate-to [-db PATH] URL")
	}
	to := fs.Arg(0)
	if serve.IsPostgres(*from) {
		return subcommand.Fail(stderr, "migrate-to: -db must be a SQLite file, got a PostgreSQL URL")
	}
	if _, err := os.Stat(strings.TrimPrefix(*from, "sqlite:")); err != nil {
		return subcommand.Fail(stderr, "migrate-to: %v", err)
	}
	ctx := context.Background()
	src, err := store.Open(ctx, *from)
	if err != nil {
		return subcommand.Fail(stderr, "migrate-to: %v", err)
	}
	defer src.Close()
	dst, err := store.Open(ctx, to)
	if err != nil {
		return subcommand.Fail(stderr, "migrate-to: %v", err)
	}
	defer dst.Close()

	start := time.Now()
	counts, err := store.Copy(ctx, dst, src)
	if err != nil {
		return subcommand.Fail(stderr, "migrate-to: %v", err)
	}
	if err := store.CompareLeaderboards(ctx, dst, src, time.Now()); err != nil {
		return subcommand.Fail(stderr, "migrate-to: the copy differs: %v", err)
	}
	tables := make([]string, 0, len(counts))
	for t := range counts {
		tables = append(tables, t)
	}
	slices.Sort(tables)
	for _, t := range tables {
		fmt.Fprintf(stdout, "%-15s %d\n", t, counts[t])
	}
	fmt.Fprintf(stdout, "copied %s into %s in %v; counts and leaderboards agree\n",
		src, dst, time.Since(start).Round(time.Millisecond))
	return 0
}

// defaultSQLite is the SQLite file migrate-to copies unless told otherwise.
func defaultSQLite() string {
	if p := os.Getenv("MALEFIZ_DATABASE_PATH"); p != "" {
		return p
	}
	return serve.DefaultConfig().Database.Path
}
