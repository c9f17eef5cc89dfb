package store_test

import (
	"bufio"
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/store"
)

const (
	crashGuild   = "guild-crash"
	crashChannel = "channel-crash"
)

// TestCrash kills a process that is playing games (SIGKILL, at a random
// moment) several times, and checks after each kill that every move the
// process saw committed is in the database, that each game's stored state is
// what replaying its event log through the engine gives, and that SQLite
// finds the file intact. Each new process resumes the game the last one left
// open.
func TestCrash(t *testing.T) {
	forEachBackendSerial(t, func(t *testing.T, b store.TestBackend) {
		if path := os.Getenv("STORE_CRASH_DB"); path != "" {
			seed, _ := strconv.ParseUint(os.Getenv("STORE_CRASH_SEED"), 10, 64)
			crashChild(t, path, seed)
			return
		}
		if testing.Short() {
			t.Skip("spawns processes")
		}
		path := b.NewURL(t)
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0))
		acked := map[int64]int64{} // game → highest seq acknowledged
		const runs = 5
		for run := range runs {
			kill := time.Duration(50+rng.IntN(351)) * time.Millisecond
			n := crashRun(t, b, path, rng.Uint64(), kill, acked)
			games := checkCrashDB(t, b, path, acked)
			t.Logf("run %d: killed after %v and %d acknowledged writes; %d games stored", run, kill, n, games)
			if t.Failed() {
				return
			}
		}
	})
}

// crashRun starts a child playing on path, kills it kill after its first
// acknowledged write, and adds what it acknowledged to acked.
func crashRun(t *testing.T, b store.TestBackend, path string, seed uint64, kill time.Duration, acked map[int64]int64) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrash$/^"+b.Name+"$")
	cmd.Env = append(os.Environ(), "STORE_CRASH_DB="+path, fmt.Sprint("STORE_CRASH_SEED=", seed))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first := make(chan struct{})
	type ack struct{ game, seq int64 }
	acks := make(chan ack, 1024)
	go func() {
		defer close(acks)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var a ack
			if _, err := fmt.Sscanf(sc.Text(), "ack %d %d", &a.game, &a.seq); err == nil {
				acks <- a
			}
		}
	}()

	n := 0
	timer := time.NewTimer(10 * time.Second) // until the first ack
	defer timer.Stop()
	for {
		select {
		case a, ok := <-acks:
			if !ok {
				cmd.Wait()
				t.Fatalf("child ended before it was killed:\n%s", stderr.String())
			}
			n++
			if a.seq > acked[a.game] {
				acked[a.game] = a.seq
			}
			if first != nil {
				close(first)
				first = nil
				timer.Reset(kill)
			}
			continue
		case <-timer.C:
		}
		break
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for a := range acks { // all it wrote before it died
		n++
		if a.seq > acked[a.game] {
			acked[a.game] = a.seq
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != -1 {
		t.Fatalf("child was not killed: %v\n%s", err, stderr.String())
	}
	return n
}

// checkCrashDB reopens the database after a crash and checks it.
func checkCrashDB(t *testing.T, b store.TestBackend, path string, acked map[int64]int64) int {
	t.Helper()
	raw := rawDB(t, b, path)
	if b.Name == "sqlite" {
		var check string
		if err := raw.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
			t.Errorf("integrity_check: %q, %v", check, err)
		}
		if err := raw.QueryRow(`PRAGMA foreign_key_check`).Scan(); !errors.Is(err, sql.ErrNoRows) {
			t.Errorf("foreign_key_check: %v", err)
		}
	}
	var ids []int64
	rows, err := raw.Query(`SELECT id FROM games ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	raw.Close()

	db := mustOpen(t, path)
	defer db.Close()
	for game, seq := range acked {
		g, err := db.Game(ctxT(t), game)
		if err != nil {
			t.Errorf("acknowledged game %d: %v", game, err)
			continue
		}
		if g.LastSeq < seq {
			t.Errorf("game %d: acknowledged up to event %d, stored up to %d", game, seq, g.LastSeq)
		}
	}
	for _, id := range ids {
		if err := replayGame(t, db, id); err != nil {
			t.Errorf("game %d: %v", id, err)
		}
	}
	open := 0
	for _, id := range ids {
		if g, _ := db.Game(ctxT(t), id); g.Status.Open() {
			open++
		}
	}
	if open > 1 {
		t.Errorf("%d open games in the channel", open)
	}
	return len(ids)
}

// replayGame replays a game's event log through the engine and compares the
// result with the stored state.
func replayGame(t *testing.T, db *store.DB, id int64) error {
	g, err := db.Game(ctxT(t), id)
	if err != nil {
		return err
	}
	events, err := db.Events(ctxT(t), id)
	if err != nil {
		return err
	}
	if int64(len(events)) != g.LastSeq {
		return fmt.Errorf("%d events, last seq %d", len(events), g.LastSeq)
	}
	for i, e := range events {
		if e.Seq != int64(i+1) {
			return fmt.Errorf("event %d has seq %d", i+1, e.Seq)
		}
	}
	if len(events) == 0 || events[0].Kind != malefiz.EventStart {
		return fmt.Errorf("log does not begin with start: %+v", events)
	}
	var players []engine.Color
	for _, s := range g.Seats {
		c, err := engine.ParseColor(s.Color)
		if err != nil {
			return err
		}
		players = append(players, c)
	}
	first, err := engine.ParseColor(events[0].Data)
	if err != nil {
		return err
	}
	eg, err := engine.NewGame(players, first, engine.Rules{SixAgain: g.Options.SixAgain, SafeRow2: g.Options.SafeRow2})
	if err != nil {
		return err
	}
	for _, e := range events[1:] {
		if (e.Kind == malefiz.EventRoll || e.Kind == malefiz.EventMove) && eg.Turn().String() != e.Color {
			return fmt.Errorf("event %d: %s to move, event by %s", e.Seq, eg.Turn(), e.Color)
		}
		switch e.Kind {
		case malefiz.EventRoll:
			n, err := strconv.Atoi(e.Data)
			if err != nil {
				return fmt.Errorf("event %d: %w", e.Seq, err)
			}
			if _, err := eg.Roll(engine.DiceFunc(func() int { return n })); err != nil {
				return fmt.Errorf("event %d: %w", e.Seq, err)
			}
		case malefiz.EventMove:
			m, err := engine.ParseMove(e.Data)
			if err != nil {
				return fmt.Errorf("event %d: %w", e.Seq, err)
			}
			if err := eg.Move(m); err != nil {
				return fmt.Errorf("event %d: %w", e.Seq, err)
			}
		case malefiz.EventPass:
			if eg.Phase() != engine.PhaseRoll {
				return fmt.Errorf("event %d: pass, but the game waits for %s", e.Seq, eg.Phase())
			}
		case malefiz.EventWin:
			if !eg.Over() || eg.Winner().String() != e.Color {
				return fmt.Errorf("event %d: %s wins, but the engine's winner is %s", e.Seq, e.Color, eg.Winner())
			}
		default:
			return fmt.Errorf("event %d: unexpected %q", e.Seq, e.Kind)
		}
	}
	state, err := eg.MarshalBinary()
	if err != nil {
		return err
	}
	if !bytes.Equal(state, g.State) {
		return fmt.Errorf("stored state differs from the replay of %d events:\nstored %s\nreplay %s", len(events), g.State, state)
	}
	if eg.Over() != (g.Status == malefiz.StatusFinished) {
		return fmt.Errorf("status %s, engine over %v", g.Status, eg.Over())
	}
	return nil
}

// crashChild plays games on path until it is killed (or for 20 s), one turn
// per transaction, and prints "ack GAME SEQ" once each write is committed.
func crashChild(t *testing.T, path string, seed uint64) {
	db, err := store.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	dice := engine.DiceFunc(func() int { return 1 + rng.IntN(6) })
	stop := time.Now().Add(20 * time.Second)
	for time.Now().Before(stop) {
		g, eg := resumeOrStart(t, db, rng)
		for !eg.Over() && time.Now().Before(stop) {
			color := eg.Turn().String()
			roll, err := eg.Roll(dice)
			if err != nil {
				t.Fatal(err)
			}
			events := []malefiz.Event{{Kind: malefiz.EventRoll, Color: color, Data: strconv.Itoa(roll)}}
			if moves := eg.LegalMoves(); len(moves) > 0 {
				m := pickMove(rng, moves)
				if err := eg.Move(m); err != nil {
					t.Fatal(err)
				}
				events = append(events, malefiz.Event{Kind: malefiz.EventMove, Color: color, Data: m.String()})
			} else {
				events = append(events, malefiz.Event{Kind: malefiz.EventPass, Color: color})
			}
			if g.State, err = eg.MarshalBinary(); err != nil {
				t.Fatal(err)
			}
			if eg.Over() {
				break
			}
			if err := db.UpdateGame(t.Context(), g, events...); err != nil {
				t.Fatal(err)
			}
			fmt.Printf("ack %d %d\n", g.ID, g.LastSeq)
		}
		if !eg.Over() {
			break
		}
		// The last move wins: finish with it.
		var results []malefiz.Result
		for _, s := range g.Seats {
			results = append(results, malefiz.Result{Player: s.UserID, Name: s.Name, Color: s.Color,
				Won: s.Color == eg.Winner().String(), Turns: eg.TurnNumber() / len(g.Seats), GameTurns: eg.TurnNumber()})
		}
		h := eg.History()
		last := h[len(h)-1]
		color := last.Color.String()
		if err := db.FinishGame(t.Context(), g, results,
			malefiz.Event{Kind: malefiz.EventRoll, Color: color, Data: strconv.Itoa(last.Roll)},
			malefiz.Event{Kind: malefiz.EventMove, Color: color, Data: last.Move.String()},
			malefiz.Event{Kind: malefiz.EventWin, Color: color},
		); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("ack %d %d\n", g.ID, g.LastSeq)
	}
	db.Close()
}

// resumeOrStart returns the channel's open game and its engine state, or
// starts a new game.
func resumeOrStart(t *testing.T, db *store.DB, rng *rand.Rand) (*malefiz.Game, *engine.Game) {
	g, err := db.OpenGame(t.Context(), crashGuild, crashChannel)
	if err == nil {
		var eg engine.Game
		if err := eg.UnmarshalBinary(g.State); err != nil {
			t.Fatal(err)
		}
		return g, &eg
	} else if !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}

	all := []engine.Color{engine.Red, engine.Green, engine.Yellow, engine.Blue}
	players := all[:2+rng.IntN(3)]
	first := players[rng.IntN(len(players))]
	opts := malefiz.Options{Seats: len(players), SixAgain: rng.IntN(2) == 0, SafeRow2: rng.IntN(2) == 0}
	eg, err := engine.NewGame(players, first, engine.Rules{SixAgain: opts.SixAgain, SafeRow2: opts.SafeRow2})
	if err != nil {
		t.Fatal(err)
	}
	g = &malefiz.Game{GuildID: crashGuild, ChannelID: crashChannel, HostID: "u0", Status: malefiz.StatusRunning, Options: opts}
	for i, c := range players {
		g.Seats = append(g.Seats, malefiz.Seat{Color: c.String(), UserID: fmt.Sprint("u", i), Name: strings.ToUpper(c.String())})
	}
	if g.State, err = eg.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateGame(t.Context(), g, malefiz.Event{Kind: malefiz.EventStart, Data: first.String()}); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("ack %d %d\n", g.ID, g.LastSeq)
	return g, eg
}

// pickMove mostly plays the move that ends nearest the goal, so that games
// end, and otherwise any.
func pickMove(rng *rand.Rand, moves []engine.Move) engine.Move {
	if rng.IntN(4) == 0 {
		return moves[rng.IntN(len(moves))]
	}
	best := moves[0]
	for _, m := range moves[1:] {
		if engine.DistanceToGoal(m.To) < engine.DistanceToGoal(best.To) {
			best = m
		}
	}
	return best
}
