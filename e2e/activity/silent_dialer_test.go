package activity

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/malefiz-discord/malefiz/e2e/harness"
)

// silentDialerEnv, when set in the environment, makes the test binary the
// silent dialer of BenchmarkActivityLoad (see runSilentDialer) in place of
// running its tests: the sockets that offer no session come from another
// process, so that its CPU time is told apart from the server's.
const silentDialerEnv = "MALEFIZ_SILENT_DIALER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(silentDialerEnv); spec != "" {
		os.Exit(runSilentDialer(spec, os.Stdin, os.Stdout))
	}
	os.Exit(harness.RunTests(m))
}

// silentSpec is what the silent dialer is asked: for each second it is
// told to dial, N sockets to Addr's Path, evenly over D, each request
// naming Forwarded in its X-Forwarded-For ("" for none); it runs on CPUs
// (nil: wherever the kernel puts it).
type silentSpec struct {
	Addr, Path, Forwarded string
	N                     int
	D                     time.Duration
	CPUs                  []int
}

// silentResult is what the silent dialer did: the dials it offered in
// the times asked (fewer than asked when it could not keep up: it skips
// the dials it is late for rather than burst), the answers by status (101 taken; 401,
// 429 and 503 refused), the dials that failed before an answer, and its own CPU
// time while dialing and while burning.
type silentResult struct {
	Offered  int
	Took     time.Duration // the times it dialed, together
	Statuses map[int]int
	Failed   int
	CPU      time.Duration // dialing, each second until its dials were answered
	BurnCPU  time.Duration
}

// runSilentDialer is the silent dialer's process. It says "ready", then
// reads one line per second asked of it:
//
//   - "dial": it opens spec.N sockets evenly over spec.D with a bare
//     upgrade request (a few hundred bytes written, the status line
//     read) that offers no session; each socket the server takes is held
//     until the server closes it or in ends;
//   - "burn NS": it dials nothing and spends NS of CPU time evenly over
//     spec.D, in one thread: the attacker's CPU without its sockets.
//
// Once a second's work is done (its dials answered) it writes "done NS",
// the CPU time it used for it. Once in ends it closes what it holds and
// writes its silentResult as JSON on out.
func runSilentDialer(spec string, in io.Reader, out io.Writer) int {
	var s silentSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		fmt.Fprintln(os.Stderr, "silent dialer:", err)
		return 2
	}
	if len(s.CPUs) > 0 {
		if err := pinProcess(s.CPUs); err != nil {
			fmt.Fprintln(os.Stderr, "silent dialer:", err)
			return 2
		}
	}
	req := "GET " + s.Path + " HTTP/1.1\r\nHost: " + s.Addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
	if s.Forwarded != "" {
		req += "X-Forwarded-For: " + s.Forwarded + "\r\n"
	}
	req += "\r\n"

	var (
		mu    sync.Mutex
		res   = silentResult{Statuses: map[int]int{}}
		held  = map[net.Conn]bool{}
		dials sync.WaitGroup
	)
	// dial opens one socket; answered is done once its answer is read.
	dial := func(answered *sync.WaitGroup) {
		c, err := net.DialTimeout("tcp", s.Addr, 10*time.Second)
		if err != nil {
			mu.Lock()
			res.Failed++
			mu.Unlock()
			answered.Done()
			return
		}
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		status := 0
		if _, err := io.WriteString(c, req); err == nil {
			line, _ := bufio.NewReaderSize(c, 64).ReadString('\n') // "HTTP/1.1 101 ..."
			if f := strings.Fields(line); len(f) >= 2 {
				status, _ = strconv.Atoi(f[1])
			}
		}
		mu.Lock()
		if status == 0 {
			res.Failed++
		} else {
			res.Statuses[status]++
		}
		keep := status == http.StatusSwitchingProtocols && held != nil
		if keep {
			held[c] = true
		}
		mu.Unlock()
		answered.Done()
		if !keep {
			c.Close()
			return
		}
		// Held, silent, until the server closes it or the run ends
		// (the Activity takes none: it refuses them before the upgrade).
		_ = c.SetDeadline(time.Time{})
		_, _ = io.Copy(io.Discard, c)
		mu.Lock()
		delete(held, c)
		mu.Unlock()
		c.Close()
	}
	// dialSecond offers the second's dials on schedule: the i-th at
	// i*D/N. It wakes about every millisecond (a timer's resolution) and
	// dials those due; those it is more than lag late for (it did not get
	// the CPU) it skips, so that it never bursts to catch up and says what
	// it could offer.
	const lag = 10 * time.Millisecond
	dialSecond := func() {
		var answered sync.WaitGroup
		start := time.Now()
		for next := 0; next < s.N; {
			elapsed := time.Since(start)
			if elapsed >= s.D {
				break
			}
			due := min(s.N, int(float64(s.N)*float64(elapsed)/float64(s.D))+1)
			missed := int(float64(s.N) * float64(elapsed-lag) / float64(s.D))
			next = max(next, missed)
			for ; next < due; next++ {
				res.Offered++
				answered.Add(1)
				dials.Go(func() { dial(&answered) })
			}
			time.Sleep(time.Millisecond)
		}
		res.Took += min(time.Since(start), s.D)
		answered.Wait()
	}

	fmt.Fprintln(out, "ready")
	lines := bufio.NewScanner(in)
	for lines.Scan() {
		cpu := cpuTime()
		if ns, ok := strings.CutPrefix(lines.Text(), "burn "); ok {
			target, _ := strconv.ParseInt(ns, 10, 64)
			burn(time.Duration(target), s.D)
			res.BurnCPU += cpuTime() - cpu
		} else {
			dialSecond()
			res.CPU += cpuTime() - cpu
		}
		fmt.Fprintln(out, "done", int64(cpuTime()-cpu))
	}
	mu.Lock()
	for c := range held {
		c.Close()
	}
	held = nil
	mu.Unlock()
	dials.Wait()
	if err := json.NewEncoder(out).Encode(res); err != nil {
		return 2
	}
	return 0
}

// burn spends target of this process's CPU time evenly over d, spinning
// in the calling goroutine until its share of each millisecond is spent.
func burn(target, d time.Duration) {
	start, cpu := time.Now(), cpuTime()
	for {
		elapsed := time.Since(start)
		if elapsed >= d {
			return
		}
		if cpuTime()-cpu < time.Duration(float64(target)*float64(elapsed)/float64(d)) {
			for deadline := time.Now().Add(50 * time.Microsecond); time.Now().Before(deadline); {
			}
			continue
		}
		time.Sleep(time.Millisecond)
	}
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// silentDialer is the silent dialer's process, started and ready.
type silentDialer struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// startSilentDialer starts the test binary as the silent dialer of spec
// and waits until it is ready.
func startSilentDialer(tb testing.TB, spec silentSpec) *silentDialer {
	tb.Helper()
	b, err := json.Marshal(spec)
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), silentDialerEnv+"="+string(b))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	d := &silentDialer{cmd: cmd, in: in, out: bufio.NewReader(outPipe)}
	tb.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	if line, err := d.out.ReadString('\n'); err != nil || line != "ready\n" {
		tb.Fatalf("silent dialer: %q, %v", line, err)
	}
	return d
}

// dial has the dialer dial one second's sockets; it returns at once
// (done waits for the second's end).
func (d *silentDialer) dial(tb testing.TB) { d.ask(tb, "dial\n") }

// burn has the dialer spend cpu of CPU time over one second without
// dialing; it returns at once (done waits for the second's end).
func (d *silentDialer) burn(tb testing.TB, cpu time.Duration) {
	d.ask(tb, fmt.Sprintf("burn %d\n", int64(cpu)))
}

func (d *silentDialer) ask(tb testing.TB, line string) {
	tb.Helper()
	if _, err := io.WriteString(d.in, line); err != nil {
		tb.Fatal(err)
	}
}

// done waits for the end of the second asked and returns the CPU time
// the dialer used for it.
func (d *silentDialer) done(tb testing.TB) time.Duration {
	tb.Helper()
	line, err := d.out.ReadString('\n')
	ns, ok := strings.CutPrefix(strings.TrimSpace(line), "done ")
	if err != nil || !ok {
		tb.Fatalf("silent dialer: %q, %v", line, err)
	}
	cpu, err := strconv.ParseInt(ns, 10, 64)
	if err != nil {
		tb.Fatal(err)
	}
	return time.Duration(cpu)
}

// stop ends the dialer (it closes the sockets it holds) and returns what
// it did.
func (d *silentDialer) stop(tb testing.TB) silentResult {
	tb.Helper()
	d.in.Close()
	var res silentResult
	if err := json.NewDecoder(d.out).Decode(&res); err != nil {
		tb.Fatalf("silent dialer's result: %v", err)
	}
	if err := d.cmd.Wait(); err != nil {
		tb.Fatalf("silent dialer: %v", err)
	}
	return res
}

// BenchmarkSilentFloor is what a bare net/http server pays, in CPU time,
// for each socket of the silent dialer when it refuses them all at once
// (401, the connection closed) and does nothing else: the floor under
// any handler for BenchmarkActivityLoad/silent's cpu-us/silent-dial. One
// op is one second of -load-silent/N dials, as there. Reported:
// cpu-us/silent-dial, the server's process (this one, which does nothing
// else), and dialer-cpu-us/silent-dial, the dialer's.
//
//	go test -run '^$' -bench SilentFloor -benchtime 5x ./e2e/activity
func BenchmarkSilentFloor(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Connection", "close")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"error":"Discord could not sign you in. Close the board and open it again."}`+"\n")
	}))
	defer srv.Close()
	dialer := startSilentDialer(b, silentSpec{Addr: strings.TrimPrefix(srv.URL, "http://"), Path: "/.proxy/api/games/1/live",
		Forwarded: silentAddr, N: *loadSilent / b.N, D: time.Second})
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		dialer.dial(b)
		dialer.done(b)
	}
	time.Sleep(600 * time.Millisecond) // the last refusals' connections closed (net/http waits 500 ms)
	used := cpuTime() - cpu
	res := dialer.stop(b)
	b.StopTimer()
	if res.Offered == 0 {
		b.Fatal("the dialer dialed nothing")
	}
	b.ReportMetric(float64(used)/float64(res.Offered)/float64(time.Microsecond), "cpu-us/silent-dial")
	b.ReportMetric(float64(res.CPU)/float64(res.Offered)/float64(time.Microsecond), "dialer-cpu-us/silent-dial")
	b.ReportMetric(float64(*loadSilent/b.N), "silent-asked/s")
	b.ReportMetric(float64(res.Offered)/res.Took.Seconds(), "silent-offered/s")
	b.ReportMetric(float64(res.Statuses[http.StatusUnauthorized]), "silent-401")
	b.ReportMetric(float64(res.Failed), "silent-failed")
}
