package tools

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// progressEvery is how often a progress line is redrawn.
const progressEvery = 250 * time.Millisecond

// progress draws "412/2000 games · 58.3/s · 27s left" on one terminal line
// while work goes on, and erases it at the end.
type progress struct {
	w     io.Writer
	unit  string
	total int64
	start time.Time
	now   func() time.Time
	done  atomic.Int64

	stop chan struct{}
	wg   sync.WaitGroup
}

// isTerminal reports whether w is a terminal: progress is drawn only
// there, never into a file or a pipe.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// startProgress starts drawing the progress of total units of work on w;
// nil w draws nothing. Call Add as units complete and Stop at the end.
func startProgress(w io.Writer, unit string, total int) *progress {
	p := &progress{w: w, unit: unit, total: int64(total), start: time.Now(), now: time.Now, stop: make(chan struct{})}
	if w == nil {
		return p
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				fmt.Fprint(p.w, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprint(p.w, "\r\033[K"+p.line())
			}
		}
	}()
	return p
}

// Add records n more completed units.
func (p *progress) Add(n int) { p.done.Add(int64(n)) }

// Stop erases the progress line.
func (p *progress) Stop() {
	close(p.stop)
	p.wg.Wait()
}

// line is the current progress line.
func (p *progress) line() string {
	done := p.done.Load()
	elapsed := p.now().Sub(p.start).Seconds()
	s := fmt.Sprintf("%d/%d %s", done, p.total, p.unit)
	if done == 0 || elapsed <= 0 {
		return s
	}
	rate := float64(done) / elapsed
	left := time.Duration(float64(p.total-done) / rate * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("%s · %.1f/s · %v left", s, rate, left)
}
