package sshserve

import (
	"math"
	"sync"
)

// minCells is the smallest window a session is drawn in when the server's
// cells are nearly spent (40×12): below it the pty is refused.
const minCells = 40 * 12

// cellPool bounds the cells of every session's screen together: a
// session's screen costs about 240 bytes a cell, so the caps on sessions
// alone would let many clients at the largest window hold gigabytes. A
// session holds the cells of the window it was given, from its pty to its
// end; a window that does not fit in what is left is drawn smaller.
type cellPool struct {
	mu    sync.Mutex
	limit int // 0: no bound
	used  int
}

// shrink returns want scaled down, keeping its shape, to at most free
// cells; false when free is under minCells.
func shrink(want Size, free int) (Size, bool) {
	area := want.Cols * want.Rows
	if area <= free {
		return want, true
	}
	if free < minCells {
		return Size{}, false
	}
	f := math.Sqrt(float64(free) / float64(area))
	got := Size{max(1, int(float64(want.Cols)*f)), max(1, int(float64(want.Rows)*f))}
	for got.Cols*got.Rows > free { // rounding
		if got.Cols >= got.Rows {
			got.Cols--
		} else {
			got.Rows--
		}
	}
	return got, true
}

// take gives a session holding held cells the largest window of the shape
// of want that fits in the cells left with its own given back, and holds
// its cells instead: it returns the window and the cells now held, or
// false (holding held still) when not even minCells fit.
func (p *cellPool) take(want Size, held int) (Size, int, bool) {
	if p == nil || p.limit <= 0 {
		return want, want.Cols * want.Rows, true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	got, ok := shrink(want, p.limit-p.used+held)
	if !ok {
		return Size{}, held, false
	}
	n := got.Cols * got.Rows
	p.used += n - held
	return got, n, true
}

// give gives back the cells a session held.
func (p *cellPool) give(held int) {
	if p == nil || p.limit <= 0 {
		return
	}
	p.mu.Lock()
	p.used -= held
	p.mu.Unlock()
}
