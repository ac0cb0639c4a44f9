package solve

import (
	"context"
	"fmt"
	"sync"
)

// laneWork is one worker's scratch space for jobLanes.
type laneWork struct {
	arr laneArrays
	st  [lanes][]jobState
	lin []float64
}

// jobLanes solves the pairs {a+i, b-i} for i < n (2 <= n <= lanes, all
// with a+i < b-i) side by side: each pair's passes, decisions and values
// are those of job solving it alone. The turns of a state of the n pairs
// are filled together (lanes beyond n repeat the first); a pair whose
// passes are over rides along without writing until the others' are.
func (t *Table) jobLanes(w *laneWork, a, b int32, n int, sweep int) (float64, error) {
	var cyclic, active [lanes]bool
	for l := range n {
		w.st[l], cyclic[l] = t.jobStates(w.st[l], a+int32(l), b-int32(l))
		if sweep == 1 {
			t.firstGuesses(w.st[l])
		}
		active[l] = true
	}
	ns := len(w.st[0])
	var first [lanes]float64
	var turns [lanes]laneTurn
	for pass := 0; ; pass++ {
		derivs := false
		for l := range n {
			derivs = derivs || active[l] && cyclic[l] && pass%2 == 0
		}
		var change [lanes]float64
		for k := range ns {
			for l := range lanes {
				if l >= n {
					turns[l] = turns[0]
					continue
				}
				turns[l] = t.laneTurnOf(&w.st[l][k])
			}
			t.setupLanes(&w.arr, &turns, derivs)
			t.m.fillLanes(&w.arr)
			for l := range n {
				if !active[l] {
					continue
				}
				change[l] = max(change[l], t.recordLane(&w.arr, &w.st[l][k], &turns[l], l, cyclic[l] && pass%2 == 0))
			}
		}
		any := false
		for l := range n {
			if !active[l] {
				continue
			}
			ch := change[l]
			if cyclic[l] {
				c2, err := t.solveLinear(&w.lin, w.st[l])
				if err != nil {
					return 0, err
				}
				ch = max(ch, c2)
			}
			if pass == 0 {
				first[l] = ch
			}
			if !cyclic[l] || ch < duelTol {
				active[l] = false
				continue
			}
			if pass > 100 {
				return 0, fmt.Errorf("%w: pair (%d, %d)", ErrNoConvergence, a+int32(l), b-int32(l))
			}
			any = true
		}
		if !any {
			break
		}
	}
	if sweep == 1 {
		return 1, nil
	}
	change := 0.0
	for l := range n {
		change = max(change, first[l])
	}
	return change, nil
}

// laneCycles reports whether pairs solved side by side can be cycles (a
// farkle, or a turn ending with nothing, hands the pair's own scores on):
// without a farkle penalty, or where a turn can end with nothing. With a
// penalty and hot dice only the pairs with a score of 0 are (the penalty
// cannot lower it), and sumJobs solves those alone.
func (m *model) laneCycles() bool {
	return m.penCount == 0 || m.penPts == 0 || m.hasNothing()
}

// sumJobs returns the jobs of the pairs of score sum s: pairs {x, s-x}
// with lo <= x <= s/2, the pairs off the diagonal in lane batches (at least
// one batch per worker where there are pairs enough), the diagonal alone,
// and where the pairs side by side are not cycles, the pair with a score
// of 0 (a cycle) alone too. Without side (in tests) every pair is alone:
// the tables are the same to the last bit.
func (m *model) sumJobs(jobs []job, s, lo int32, workers int, side bool) []job {
	jobs = jobs[:0]
	hi := s / 2
	if 2*hi == s {
		jobs = append(jobs, job{a: hi, b: hi, n: 1})
		hi--
	}
	if lo == 0 && hi >= 0 && !m.laneCycles() {
		jobs = append(jobs, job{a: 0, b: s, n: 1})
		lo++
	}
	np := int(hi - lo + 1)
	if np <= 0 {
		return jobs
	}
	if !side {
		for x := lo; x <= hi; x++ {
			jobs = append(jobs, job{a: x, b: s - x, n: 1})
		}
		return jobs
	}
	nb := (np + lanes - 1) / lanes
	if nb < workers {
		nb = min(workers, np)
	}
	x := lo
	for i := range nb {
		size := int32(np / nb)
		if i < np%nb {
			size++
		}
		jobs = append(jobs, job{a: x, b: s - x, n: size})
		x += size
	}
	return jobs
}

// jobLevels solves the states of the unordered pair {a, b}, a <= b, as
// job does, the turns of consecutive states that read none of each other
// (with a farkle penalty: the states of one streak sum) filled side by
// side: the same reads, passes and values as job.
func (t *Table) jobLevels(w *laneWork, a, b int32, sweep int) (float64, error) {
	var cyclic bool
	w.st[0], cyclic = t.jobStates(w.st[0], a, b)
	st := w.st[0]
	return t.passes(st, cyclic, a, b, sweep, func(derivs bool) (float64, error) {
		ch := 0.0
		for i0 := 0; i0 < len(st); {
			// the group: from i0 while no state reads one before it in
			// the group, at most lanes
			i1 := i0 + 1
			for i1 < len(st) && i1-i0 < lanes {
				s := &st[i1]
				if s.fIn >= int32(i0) && s.fIn < int32(i1) || s.zIn >= int32(i0) && s.zIn < int32(i1) {
					break
				}
				i1++
			}
			ch = max(ch, t.levelPass(w, st[i0:i1], derivs))
			i0 = i1
		}
		if !cyclic {
			return ch, nil
		}
		c, err := t.solveLinear(&w.lin, st)
		return max(ch, c), err
	})
}

// levelPass solves the turns of states that read none of each other side
// by side and updates them in order as pass does; it returns the largest
// change.
func (t *Table) levelPass(w *laneWork, group []jobState, derivs bool) float64 {
	var turns [lanes]laneTurn
	for l := range lanes {
		if l >= len(group) {
			turns[l] = turns[0]
			continue
		}
		turns[l] = t.laneTurnOf(&group[l])
	}
	t.setupLanes(&w.arr, &turns, derivs)
	t.m.fillLanes(&w.arr)
	change := 0.0
	for l := range group {
		change = max(change, t.recordLane(&w.arr, &group[l], &turns[l], l, derivs))
	}
	return change
}

// overlapped runs a sweep after the first with a farkle penalty of two
// units or more, the sums overlapping: a job of sum s starts once every sum
// above s+1 is done and so are the jobs of s+1 it reads (banks of one unit:
// the pairs whose smaller score is within the job's, or one more). A job
// then reads exactly what it reads one sum at a time: the sums above
// (final for the sweep), its own pairs, and penalty landings two sums or
// more below, whose jobs start only once its sum is done. It saves the
// wait at the end of each sum for its last job. runJob must not panic
// (the lock is not held while it runs).
func (t *Table) overlapped(ctx context.Context, workers, sweep int, runJob func(int, job, int) (float64, error), sumDone func(int32), maxChange *[64]float64) error {
	A := t.A
	type level struct {
		s       int32
		jobs    []job
		started []bool
		done    []bool
		left    int // jobs not done
	}
	newLevel := func(s int32) *level {
		if s < 0 {
			return nil
		}
		l := &level{s: s, jobs: t.m.sumJobs(nil, s, max(0, s-(A-1)), workers, true)}
		l.started, l.done, l.left = make([]bool, len(l.jobs)), make([]bool, len(l.jobs)), len(l.jobs)
		return l
	}
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	cur, nxt := newLevel(2*(A-1)), newLevel(2*(A-1)-1)
	var firstErr error
	// reads reports whether job x of the sum below reads job y of cur.
	reads := func(x, y job) bool {
		return y.a <= x.a+x.n && x.a <= y.a+y.n-1
	}
	// pick returns a job ready to start, or ok false.
	pick := func() (lv *level, i int, ok bool) {
		for i := range cur.jobs {
			if !cur.started[i] {
				return cur, i, true
			}
		}
		if nxt == nil {
			return nil, 0, false
		}
	next:
		for i := range nxt.jobs {
			if nxt.started[i] {
				continue
			}
			for k, y := range cur.jobs {
				if !cur.done[k] && reads(nxt.jobs[i], y) {
					continue next
				}
			}
			return nxt, i, true
		}
		return nil, 0, false
	}
	var wg sync.WaitGroup
	for wi := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			for {
				if firstErr == nil {
					if err := ctx.Err(); err != nil {
						firstErr = err
						cond.Broadcast()
					}
				}
				if firstErr != nil || cur == nil {
					return
				}
				lv, i, ok := pick()
				if !ok {
					cond.Wait()
					continue
				}
				lv.started[i] = true
				mu.Unlock()
				ch, err := runJob(wi, lv.jobs[i], sweep) // a panic is its error
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					cond.Broadcast()
					return
				}
				maxChange[wi] = max(maxChange[wi], ch)
				lv.done[i] = true
				lv.left--
				for cur != nil && cur.left == 0 {
					sumDone(cur.s)
					cur, nxt = nxt, nil
					if cur != nil {
						nxt = newLevel(cur.s - 1)
					}
				}
				cond.Broadcast()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// laneTurnOf returns a state's turn with its farkle and nothing values
// read from the table.
func (t *Table) laneTurnOf(s *jobState) laneTurn {
	return laneTurn{a: s.a, b: s.b, sa: s.sa, sb: s.sb,
		F: 1 - t.read(s.fi, s.a+s.b), Z: 1 - t.read(s.zi, s.a+s.b)}
}

// recordLane records (Table.record) the start value of lane l of a fill,
// the turn u of state s, and returns its change.
func (t *Table) recordLane(arr *laneArrays, s *jobState, u *laneTurn, l int, derivs bool) float64 {
	i := lane(0, int32(t.m.dice), l)
	var dF, dZ float64
	if derivs {
		dF, dZ = arr.qF[i], arr.qZ[i]
	}
	return t.record(s, arr.q[i], dF, dZ, u.F, u.Z, derivs)
}
