package sshserve

import "testing"

// TestShrinkExhaustive: for every window up to 120×60 and every budget, a
// window that fits is kept, one that does not is drawn in no more cells
// than are free, no larger than asked each way, of nearly its shape and
// using at least half what is free, and none is given under minCells.
func TestShrinkExhaustive(t *testing.T) {
	for cols := 1; cols <= 120; cols++ {
		for rows := 1; rows <= 60; rows++ {
			want := Size{cols, rows}
			for _, free := range []int{0, minCells - 1, minCells, 500, 1000, 1920, 2500, 4000, 7199} {
				got, ok := shrink(want, free)
				area := cols * rows
				switch {
				case area <= free:
					if !ok || got != want {
						t.Fatalf("shrink(%v, %d) = %v, %v; it fits as it is", want, free, got, ok)
					}
				case free < minCells:
					if ok {
						t.Fatalf("shrink(%v, %d) = %v; under the %d cells of the smallest window", want, free, got, minCells)
					}
				default:
					n := got.Cols * got.Rows
					if !ok || n > free || got.Cols > cols || got.Rows > rows || got.Cols < 1 || got.Rows < 1 || 2*n < free {
						t.Fatalf("shrink(%v, %d) = %v (%d cells), %v", want, free, got, n, ok)
					}
					if cols >= 4*rows && got.Cols < got.Rows || rows >= 4*cols && got.Rows < got.Cols {
						t.Fatalf("shrink(%v, %d) = %v: the shape was not kept", want, free, got)
					}
				}
			}
		}
	}
}

// TestCellPool: what the sessions hold is what the pool counts as used,
// whatever order they take, grow, shrink and give back in; it is never
// over the limit; and a session refused keeps what it held.
func TestCellPool(t *testing.T) {
	p := &cellPool{limit: 10_000}
	held := make([]int, 6)
	sizes := []Size{{80, 24}, {200, 60}, {40, 12}, {500, 200}, {120, 40}, {100, 30}, {10, 10}}
	for step := range 500 {
		i := step * 7 % len(held)
		if step%5 == 4 {
			p.give(held[i])
			held[i] = 0
		} else {
			w := sizes[step*3%len(sizes)]
			before := held[i]
			got, n, ok := p.take(w, held[i])
			switch {
			case ok:
				if got.Cols*got.Rows != n || got.Cols > w.Cols || got.Rows > w.Rows {
					t.Fatalf("step %d: took %v (%d cells) for %v", step, got, n, w)
				}
				held[i] = n
			case n != before:
				t.Fatalf("step %d: a refused session holds %d cells, not its %d", step, n, before)
			}
		}
		sum := 0
		for _, h := range held {
			sum += h
		}
		if p.used != sum || p.used > p.limit {
			t.Fatalf("step %d: the pool counts %d cells used, the sessions hold %d (limit %d)", step, p.used, sum, p.limit)
		}
	}
	var none *cellPool // no bound
	if got, n, ok := none.take(Size{500, 200}, 0); !ok || got != (Size{500, 200}) || n != 100_000 {
		t.Fatalf("no pool: %v %d %v", got, n, ok)
	}
}
