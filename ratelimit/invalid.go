package ratelimit

import "time"

// slots is how many parts a window is counted in: a count forgets its
// oldest second (of a 10-minute window) at a time.
const slots = 600

// window counts events in a sliding window, in slots of window/slots each:
// a fixed ring however many events fall, so its memory is bounded. Not safe
// for concurrent use: the Transport holds its lock.
type window struct {
	width time.Duration // one slot
	count [slots]int
	start [slots]int64 // the slot index each count belongs to
	total int
	last  int64 // the newest slot index advanced to
}

func newWindow(d time.Duration) *window {
	return &window{width: max(time.Nanosecond, d/slots)}
}

// advance drops the counts older than the window at now.
func (w *window) advance(now time.Time) {
	idx := now.UnixNano() / int64(w.width)
	if idx <= w.last {
		return
	}
	for i := range w.count {
		if w.count[i] != 0 && w.start[i] <= idx-slots {
			w.total -= w.count[i]
			w.count[i] = 0
		}
	}
	w.last = idx
}

// add counts one event at now.
func (w *window) add(now time.Time) {
	w.advance(now)
	idx := now.UnixNano() / int64(w.width)
	i := int(((idx % slots) + slots) % slots)
	if w.start[i] != idx {
		w.total -= w.count[i]
		w.count[i] = 0
		w.start[i] = idx
	}
	w.count[i]++
	w.total++
}

// n is the count in the window ending at now.
func (w *window) n(now time.Time) int {
	w.advance(now)
	return w.total
}

// below returns how long from now until the count falls under limit, as
// the oldest slots leave the window (0 when it is under already).
func (w *window) below(now time.Time, limit int) time.Duration {
	n := w.n(now)
	if n < limit {
		return 0
	}
	idx := now.UnixNano() / int64(w.width)
	for k := idx - slots + 1; k <= idx; k++ {
		i := int(((k % slots) + slots) % slots)
		if w.start[i] == k {
			n -= w.count[i]
		}
		if n < limit {
			// slot k leaves the window when slot k+slots begins.
			return time.Duration((k+slots)*int64(w.width) - now.UnixNano())
		}
	}
	return time.Duration(slots) * w.width
}
