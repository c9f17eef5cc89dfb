package games

import (
	"image/gif"
	"os"
	"path/filepath"
	"testing"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/e2e/harness"
	"github.com/malefiz-discord/malefiz/store"
)

func TestBackupAndReplayCommands(t *testing.T) {
	t.Parallel()
	h := harness.New(t, harness.WithoutMessageBuckets()) // more than 5 messages in 5 s: not what it tests
	gameID, _ := harness.OpenTwoPlayerGame(t, h)
	for i := 0; i < 4; i++ {
		harness.PlayTurn(t, h, gameID, true)
	}
	h.WaitTurn(gameID)
	dir := t.TempDir()
	backup := filepath.Join(dir, "backup.db")
	if code, _, errOut := runCLI("backup", "-o", backup, "-db", h.DBPath); code != 0 {
		t.Fatalf("backup: exit %d: %s", code, errOut)
	}
	db, err := store.Open(t.Context(), backup)
	if err != nil {
		t.Fatal(err)
	}
	copied, err := db.Game(t.Context(), gameID)
	db.Close()
	if err != nil || copied.Status != malefiz.StatusRunning {
		t.Fatalf("backup holds %+v, %v", copied, err)
	}
	out := filepath.Join(dir, "game.gif")
	if code, _, errOut := runCLI("replay", "-o", out, backup, "1"); code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errOut)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	anim, err := gif.DecodeAll(f)
	if err != nil || len(anim.Image) < 2 {
		t.Fatalf("replay GIF: %v, %d frames", err, len(anim.Image))
	}
	for _, args := range [][]string{{"backup"}, {"replay", backup}, {"replay", backup, "x"}, {"replay", backup, "99"}, {"replay", filepath.Join(dir, "none.db"), "1"}} {
		if code, _, _ := runCLI(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
