package render

// spares keeps up to a fixed number of values (canvases, compressors,
// buffers) between drawings for the next ones. Unlike a sync.Pool it keeps
// them across garbage collections: a busy process collects several times
// a second, which emptied a sync.Pool before the next board, so that
// every board copied its base afresh (4 MB at the default width) and made
// new compressors (about 600 KB each).
type spares[T any] struct{ c chan T }

// newSpares returns spares keeping up to n values.
func newSpares[T any](n int) spares[T] { return spares[T]{c: make(chan T, n)} }

// get returns a spare value, or false when none waits.
func (s spares[T]) get() (T, bool) {
	select {
	case x := <-s.c:
		return x, true
	default:
		var zero T
		return zero, false
	}
}

// put keeps x for a later drawing, unless enough wait already.
func (s spares[T]) put(x T) {
	select {
	case s.c <- x:
	default:
	}
}
