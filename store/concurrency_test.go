package store_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/store"
)

// Many goroutines act on one game, each from the version it read: exactly
// one wins each version, the others get ErrConflict, and the log has no gap.
func TestConcurrentActions(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		g := newGame("c1")
		mustCreate(t, db, g, malefiz.Event{Kind: malefiz.EventStart})

		const (
			players  = 8
			versions = 60 // the last version any write may start from
		)
		var (
			mu        sync.Mutex
			winners   = map[int64][]int{} // version written from → goroutines that won it
			conflicts int
			wg        sync.WaitGroup
		)
		for p := range players {
			wg.Go(func() {
				for {
					g, err := db.Game(ctxT(t), g.ID)
					if err != nil {
						t.Error(err)
						return
					}
					if g.Version > versions {
						return
					}
					from := g.Version
					g.State = fmt.Appendf(nil, "player %d from version %d", p, from)
					err = db.UpdateGame(ctxT(t), g,
						malefiz.Event{Kind: malefiz.EventRoll, Data: fmt.Sprint(p)},
						malefiz.Event{Kind: malefiz.EventMove, Data: fmt.Sprint(from)})
					mu.Lock()
					switch {
					case err == nil:
						winners[from] = append(winners[from], p)
					case errors.Is(err, store.ErrConflict):
						conflicts++
					default:
						t.Errorf("UpdateGame: %v", err)
					}
					mu.Unlock()
					if err != nil && !errors.Is(err, store.ErrConflict) {
						return
					}
				}
			})
		}
		wg.Wait()

		for v := int64(1); v <= versions; v++ {
			if len(winners[v]) != 1 {
				t.Errorf("version %d won by %v, want exactly one", v, winners[v])
			}
		}
		t.Logf("%d versions, %d conflicts", len(winners), conflicts)

		got, err := db.Game(ctxT(t), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != versions+1 || got.LastSeq != 1+2*versions {
			t.Errorf("final version %d, last seq %d; want %d, %d", got.Version, got.LastSeq, versions+1, 1+2*versions)
		}
		events, err := db.Events(ctxT(t), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(events)) != got.LastSeq {
			t.Errorf("%d events, last seq %d", len(events), got.LastSeq)
		}
		for i, e := range events {
			if e.Seq != int64(i+1) {
				t.Fatalf("event %d has seq %d", i, e.Seq)
			}
			// Each write's two events sit together: the move names the
			// version its roll's writer started from.
			if i > 0 && e.Kind == malefiz.EventMove {
				from := e.Data
				if roll := events[i-1]; roll.Kind != malefiz.EventRoll || fmt.Sprint(winners[mustAtoi(t, from)][0]) != roll.Data {
					t.Errorf("events %d, %d: %+v, %+v are not one write", i-1, i, roll, e)
				}
			}
		}
	})
}

func mustAtoi(t *testing.T, s string) int64 {
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Writers on different games never fail with SQLITE_BUSY, nor do readers.
func TestConcurrentGames(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b store.TestBackend) {
		db, _ := openTest(t, b)
		var wg sync.WaitGroup
		for p := range 8 {
			wg.Go(func() {
				g := newGame(fmt.Sprint("c", p))
				if err := db.CreateGame(ctxT(t), g); err != nil {
					t.Error(err)
					return
				}
				for range 10 {
					if err := db.UpdateGame(ctxT(t), g, malefiz.Event{Kind: malefiz.EventPass}); err != nil {
						t.Error(err)
						return
					}
					if _, err := db.OpenGame(ctxT(t), "guild1", g.ChannelID); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
	})
}

// A database file the process may not write is refused at Open with a clear
// error. Root may write anything, so as root the check runs in a child
// process as nobody.
func TestOpenReadOnly(t *testing.T) {
	if paths := os.Getenv("STORE_TEST_READONLY"); paths != "" {
		for _, p := range filepath.SplitList(paths) {
			_, err := store.Open(t.Context(), p)
			fmt.Printf("error: %v\n", err)
		}
		return
	}

	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		require.NoError(t, os.Chmod(d, 0o755))
	}
	path := filepath.Join(dir, "ro.db")
	db, err := store.Open(ctxT(t), path)
	require.NoError(t, err)
	mustCreate(t, db, newGame("c1"))
	require.NoError(t, db.Close())
	require.NoError(t, os.Chmod(path, 0o444))

	var msg string
	if os.Geteuid() != 0 {
		_, err := store.Open(ctxT(t), path)
		msg = fmt.Sprint("error: ", err)
		// A writable file in a read-only directory: no room for the WAL.
		sub := filepath.Join(dir, "ro-dir")
		require.NoError(t, os.Mkdir(sub, 0o755))
		other := filepath.Join(sub, "x.db")
		db, err := store.Open(ctxT(t), other)
		require.NoError(t, err)
		db.Close()
		os.Chmod(sub, 0o555)
		_, err = store.Open(ctxT(t), other)
		t.Logf("Open of a database in a read-only directory: %v", err)
		assert.Error(t, err, "Open of a database in a read-only directory succeeded")
	} else {
		// The test binary's directory is private to root: copy it.
		exe, err := os.Executable()
		require.NoError(t, err)
		bin := filepath.Join(dir, "store.test")
		data, err := os.ReadFile(exe)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(bin, data, 0o755))
		// And a database that nobody could write, in a directory nobody
		// can: no room for the WAL.
		sub := filepath.Join(dir, "ro-dir")
		require.NoError(t, os.Mkdir(sub, 0o755))
		other := filepath.Join(sub, "x.db")
		db, err := store.Open(ctxT(t), other)
		require.NoError(t, err)
		db.Close()
		require.NoError(t, os.Chown(other, 65534, 65534))
		// The child writes its scratch (and, under go test -cover, its
		// coverage counters) where nobody may write.
		scratch := filepath.Join(dir, "child")
		require.NoError(t, os.Mkdir(scratch, 0o777))
		require.NoError(t, os.Chmod(scratch, 0o777))
		cmd := exec.Command(bin, "-test.run=^TestOpenReadOnly$")
		cmd.Env = append(os.Environ(), "STORE_TEST_READONLY="+path+string(filepath.ListSeparator)+other,
			"HOME="+scratch, "GOCACHE="+scratch, "TMPDIR="+scratch, "GOCOVERDIR="+scratch)
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "child: %s", out)
		msg = string(out)
		assert.Contains(t, msg, "error: store: open "+other, "Open of a database in a read-only directory")
	}
	t.Log(strings.TrimSpace(msg))
	assert.Contains(t, msg, "not writable", "Open of a read-only file must say it is not writable")
	assert.Contains(t, msg, path, "Open of a read-only file must name the file")
}
