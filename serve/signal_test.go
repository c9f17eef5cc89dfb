package serve

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/store"
	"github.com/malefiz-discord/malefiz/subcommand"
	"github.com/stretchr/testify/require"
)

// TestHelperProcess is the child of TestSIGTERMStopsCleanly: it runs the
// bot as `malefiz run` would.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("MALEFIZ_HELPER_PROCESS") != "1" {
		t.Skip("runs only as a child process")
	}
	os.Exit(subcommand.Run("run", RunCommand, nil, os.Stdout, os.Stderr))
}

// alice is the user who opens the game.
const alice = "100000000000000001"

func TestSIGTERMStopsCleanly(t *testing.T) {
	fake := fakediscord.New(t)
	dbPath := filepath.Join(t.TempDir(), "malefiz.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "MALEFIZ_HELPER_PROCESS=1", "MALEFIZ_DISCORD_TOKEN="+fake.Token(),
		"MALEFIZ_DISCORD_API_URL="+fake.URL(), "MALEFIZ_DATABASE_PATH="+dbPath, "MALEFIZ_GUILD_IDS="+fake.GuildID,
		"MALEFIZ_LOG_LEVEL=warn")
	cmd.Dir = t.TempDir()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; len(fake.Commands(fake.GuildID)) == 0; i++ {
		if i > 1000 {
			cmd.Process.Kill()
			t.Fatal("the bot never registered its commands")
		}
		time.Sleep(10 * time.Millisecond)
	}
	resp, err := fake.SlashCommand(t.Context(), fakediscord.Invocation{User: alice, Name: "malefiz", Sub: "new"})
	if err != nil || resp.Ephemeral() {
		t.Fatalf("new: %v", err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v, want status 0", err)
		}
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the bot did not stop within 15 s of SIGTERM")
	}
	db, err := store.Open(t.Context(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.OpenGame(t.Context(), fake.GuildID, fake.ChannelID); err != nil {
		t.Errorf("the lobby did not survive the shutdown: %v", err)
	}
}

// TestStopDuringStartKeepsWhatItAnswered: a start stopped (SIGTERM) after
// the bot began answering keeps the database it created. Shard 0 of two
// answers /malefiz new while shard 1 waits out the identify window; the
// start is stopped then, and the lobby the player saw is in the database
// (a stopped start used to remove the SQLite file it had created, the
// lobby with it: TestSIGTERMStopsCleanly failed so under load).
func TestStopDuringStartKeepsWhatItAnswered(t *testing.T) {
	guild := fakediscord.GuildIDOnShard(0, 2)
	fake := fakediscord.New(t, fakediscord.WithShards(2, 1), fakediscord.WithGuild(fakediscord.Guild{ID: guild}))
	cfg := DefaultConfig()
	cfg.Discord.Token, cfg.Discord.APIURL, cfg.Discord.GuildIDs = fake.Token(), fake.URL(), []string{guild}
	dbPath := filepath.Join(t.TempDir(), "malefiz.db")
	cfg.Database.Path = dbPath
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	m := &Main{Config: cfg, Logger: slog.New(slog.DiscardHandler)}
	started := make(chan error, 1)
	go func() { started <- m.Run(ctx) }()
	require.Eventually(t, func() bool { return len(fake.Commands(guild)) > 0 }, 10*time.Second, 10*time.Millisecond,
		"shard 0 registers the commands")
	channel := fake.Guilds()[0].Channels[0]
	resp, err := fake.SlashCommand(t.Context(), fakediscord.Invocation{User: alice, Guild: guild, Channel: channel, Name: "malefiz", Sub: "new"})
	require.NoError(t, err)
	require.False(t, resp.Ephemeral(), "the lobby is answered")
	stop()
	require.ErrorIs(t, <-started, context.Canceled, "stopped before shard 1 connected")
	db, err := store.Open(t.Context(), dbPath)
	require.NoError(t, err)
	defer db.Close()
	_, err = db.OpenGame(t.Context(), guild, channel)
	require.NoError(t, err, "the lobby the player saw survives the stopped start")
}
