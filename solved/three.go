package solved

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/farkle/farkle/internal/lru"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
)

// ErrNoThreeTable is returned by Tables.Three when no three-player table
// of the rules is at hand and this Tables does not solve it: none was
// added, the cache directory holds none (farkle solve --players 3 makes
// it) and its triples are more than Limits.ThreeSolve.
var ErrNoThreeTable = errors.New("solved: no three-player table for these rules")

// PreparingError is the ErrNotReady of a three-player table being got:
// waiting for its turn, read from the cache directory, or solved (with how
// far the solve is).
type PreparingError struct {
	// Done and Total are the solve's progress in the solver's units of
	// work (solve.ThreeOptions.Progress); Total is 0 before the solve has
	// begun, or for a read.
	Done, Total int64
}

func (e *PreparingError) Error() string {
	if e.Total > 0 {
		return fmt.Sprintf("%v (%d%% solved)", ErrNotReady, e.Percent())
	}
	return ErrNotReady.Error()
}

func (e *PreparingError) Unwrap() error { return ErrNotReady }

// Percent is the part of the solve done, 0 to 99 (100 only once the table
// is there, which is no longer this error).
func (e *PreparingError) Percent() int {
	if e.Total <= 0 {
		return 0
	}
	return int(min(99, 100*e.Done/e.Total))
}

// tooManyTriplesError is a three-player table larger than this Tables
// solves itself (Limits.ThreeSolve); it wraps ErrNoThreeTable.
type tooManyTriplesError struct{ triples, limit int64 }

func (e *tooManyTriplesError) Error() string {
	return fmt.Sprintf("%v: %d score triples, more than the %d solved here (farkle solve --players 3 makes it in the cache directory)", ErrNoThreeTable, e.triples, e.limit)
}

func (e *tooManyTriplesError) Unwrap() error { return ErrNoThreeTable }

// threeFlight is a three-player table being got, with its solve's progress.
type threeFlight struct {
	flight[*solve.Three]
	work, total atomic.Int64
}

// threeState holds the three-player tables of a Tables: added ones, and
// those read from the cache directory or solved, kept within
// Limits.ThreeCache. It is guarded by Tables.mu.
type threeState struct {
	added map[string]*solve.Three
	kept  *lru.Cache[string, *solve.Three]
	fl    map[string]*threeFlight
}

// initThree makes the maps. ts.mu is held.
func (ts *Tables) initThree() {
	ts.three = threeState{added: map[string]*solve.Three{}, kept: lru.New[string, *solve.Three](ts.lim.ThreeCache), fl: map[string]*threeFlight{}}
}

// Three returns the three-player table of r (solved with the mixed orbit
// rule), waiting for it: one added with AddThree or kept in memory, else
// read from the cache directory, else solved here when its triples are at
// most Limits.ThreeSolve (and written to the cache directory). Every read
// and solve goes through the scheduler, within Limits.Memory. Errors wrap
// solve.ErrRules (rules the three-player solver cannot solve: see
// solve.ErrThreeBankMinimum), solve.ErrTooLarge, solve.ErrCache (a bad file
// while no solve is allowed), ErrNoThreeTable, ErrBusy or ErrSolveFailed.
func (ts *Tables) Three(r rules.Rules) (*solve.Three, error) { return ts.ThreeOf(KeyOf(r), true) }

// ThreeNow is Three without waiting: the table if it is in memory now, else
// a *PreparingError (wrapping ErrNotReady) after starting to get it, or the
// refusal Three would return at once.
func (ts *Tables) ThreeNow(r rules.Rules) (*solve.Three, error) { return ts.ThreeOf(KeyOf(r), false) }

// ThreeOf is Three by key, or ThreeNow without wait.
func (ts *Tables) ThreeOf(k Key, wait bool) (*solve.Three, error) {
	r, h := k.r, k.h
	ts.mu.Lock()
	ts.init()
	if t := ts.three.added[h]; t != nil {
		ts.mu.Unlock()
		return t, nil
	}
	if t, ok := ts.three.kept.Get(h); ok {
		ts.mu.Unlock()
		return t, nil
	}
	if err := ts.failed["three:"+h]; err != nil && !(errors.Is(err, ErrNoThreeTable) && ts.threeFileExists(r)) {
		ts.mu.Unlock()
		return nil, err
	}
	f := ts.three.fl[h]
	if f == nil {
		job, t, need, err := ts.planThree(r)
		if err != nil {
			ts.rememberThree(h, err)
			ts.mu.Unlock()
			return nil, err
		}
		delete(ts.failed, "three:"+h)
		f = &threeFlight{flight: flight[*solve.Three]{done: make(chan struct{})}}
		ts.three.fl[h] = f
		go ts.runThree(r, h, f, job, t, need)
	}
	ts.mu.Unlock()
	if !wait {
		select {
		case <-f.flight.done:
			return f.val, f.err
		default:
			return nil, &PreparingError{Done: f.work.Load(), Total: f.total.Load()}
		}
	}
	<-f.flight.done
	return f.val, f.err
}

// rememberThree keeps a refusal of r's three-player table: the permanent
// ones, and ErrNoThreeTable, which ThreeOf forgets once a cache file
// appears. ts.mu is held.
func (ts *Tables) rememberThree(h string, err error) {
	if errors.Is(err, ErrNoThreeTable) {
		if len(ts.failed) >= maxFailed {
			clear(ts.failed)
		}
		ts.failed["three:"+h] = err
		return
	}
	ts.remember("three:"+h, err)
}

// threeFileExists reports whether the cache directory holds a file of r's
// three-player table.
func (ts *Tables) threeFileExists(r rules.Rules) bool {
	if ts.Dir == "" {
		return false
	}
	info, err := os.Stat(solve.ThreeCacheFile(ts.Dir, r, solve.OrbitMixed))
	return err == nil && info.Mode().IsRegular()
}

// planThree checks r and the limits and puts the job that gets r's
// three-player table in line; need is what the table holds once there.
// ts.mu is held.
func (ts *Tables) planThree(r rules.Rules) (job duelJob, t *ticket, need int64, err error) {
	defer recoverSize(&err)
	if need, err = solve.ThreeBytes(r, 1); err != nil { // checks the rules first
		return 0, nil, 0, err
	}
	if ts.lim.ThreeCache > 0 && need > ts.lim.ThreeCache {
		ts.sched.count(func(s *Stats) { s.TooLarge++ })
		return 0, nil, 0, &tooLargeError{what: "the three-player table of these rules", need: need, limit: ts.lim.ThreeCache, budget: "threeCache"}
	}
	if ts.threeFileExists(r) {
		t, err := ts.sched.enter("reading the three-player table of these rules", need, false)
		return jobLoad, t, need, err
	}
	t, err = ts.enterThreeSolve(r)
	return jobSolve, t, need, err
}

// enterThreeSolve puts the solve of r's three-player table in line when
// this Tables solves one that large.
func (ts *Tables) enterThreeSolve(r rules.Rules) (t *ticket, err error) {
	defer recoverSize(&err)
	triples, err := solve.ThreeTriples(r)
	if err != nil {
		return nil, err
	}
	if ts.lim.ThreeSolve <= 0 {
		return nil, ErrNoThreeTable
	}
	if triples > ts.lim.ThreeSolve {
		return nil, &tooManyTriplesError{triples: triples, limit: ts.lim.ThreeSolve}
	}
	need, err := solve.ThreeBytes(r, ts.lim.Workers)
	if err != nil {
		return nil, err
	}
	return ts.sched.enter("solving the three-player table of these rules", need, true)
}

func (ts *Tables) runThree(r rules.Rules, h string, f *threeFlight, job duelJob, t *ticket, need int64) {
	defer func() {
		ts.mu.Lock()
		delete(ts.three.fl, h)
		if f.err == nil {
			n := ts.three.kept.Add(h, f.val, need)
			ts.sched.count(func(s *Stats) { s.Evictions += n })
		} else {
			ts.rememberThree(h, f.err)
		}
		ts.mu.Unlock()
		close(f.flight.done)
	}()
	if job == jobLoad {
		tab, err := ts.loadThree(r, t)
		if err == nil || !errors.Is(err, solve.ErrCache) {
			f.val, f.err = tab, err
			return
		}
		// An unsound file (removed): solve instead when this Tables may.
		ts.mu.Lock()
		t, err = ts.enterThreeSolve(r)
		ts.mu.Unlock()
		if err != nil {
			f.err = err
			return
		}
	}
	f.val, f.err = ts.solveThree(r, f, t)
}

// threeFile is how three-player tables are kept in the cache directory.
func (ts *Tables) threeFile(r rules.Rules) cacheFile[*solve.Three] {
	return cacheFile[*solve.Three]{kind: "three", load: "load3",
		name: func(r rules.Rules) string { return solve.ThreeCacheFile(ts.Dir, r, solve.OrbitMixed) },
		read: func(rd io.Reader) (*solve.Three, error) {
			return solve.ReadThree(bufio.NewReaderSize(rd, 1<<16), r, solve.OrbitMixed, ts.lim.Memory)
		},
		bytes: threeFileBytes,
		save:  func(t *solve.Three) error { return solve.SaveThree(ts.Dir, t) }}
}

// loadThree reads r's three-player table from its cache file once t's turn
// comes (loadJob).
func (ts *Tables) loadThree(r rules.Rules, t *ticket) (*solve.Three, error) {
	return loadJob(ts, r, t, ts.threeFile(r), func(s *Stats) { s.ThreeLoads++ })
}

// solveThree solves r's three-player table once t's turn comes, reporting
// its progress in f, and writes it to the cache directory (solveJob).
func (ts *Tables) solveThree(r rules.Rules, f *threeFlight, t *ticket) (*solve.Three, error) {
	opt := solve.ThreeOptions{MaxBytes: ts.lim.Memory, Workers: ts.lim.Workers, Context: ts.ctx,
		Progress: func(done, total int) {
			f.total.Store(int64(total))
			f.work.Store(int64(done))
		}}
	return solveJob(ts, r, t, ts.threeFile(r), func(s *Stats) { s.ThreeSolves++ }, func() (*solve.Three, error) { return solve.SolveThree(r, opt) })
}

// AddThree makes t the three-player table of its rules for the life of ts,
// outside the limits.
func (ts *Tables) AddThree(t *solve.Three) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.init()
	ts.three.added[t.Rules().Hash()] = t
}

// threeFileBytes bounds the size of the cache file of t: a header, its
// orbits, the values and a checksum.
func threeFileBytes(t *solve.Three) int64 {
	return 256 + 64*int64(len(t.Orbits())) + 24*int64(t.Triples())
}
